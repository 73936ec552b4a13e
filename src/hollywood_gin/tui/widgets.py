"""Small widgets shared by the game and the score keeper: a card, and a two-way question;
and :class:`Worded`, which makes a screen's key hints speak the player's language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Static

from ..cards import Card, Rank
from ..i18n import _
from .look import face_colour

__all__ = ["AskScreen", "ButtonFlow", "CardWidget", "ClickThrough", "Dialog", "EnterDefault",
           "Worded",
           "WordedScreen", "cap_height", "fit_header"]

T = TypeVar("T")


class ClickThrough:
    """Keeps the second click of a double-click off a screen its first click opened.

    One click opens a saved game from the list; a player who double-clicks by habit
    would press, with the second, whatever lies under the pointer on the game table (a
    card, Draw).  An app passes every event it reads through :meth:`swallows` (in its
    ``on_event``): a press at the same place within the click-chain time as the last one,
    on another screen than that one's, is dropped with its release."""

    def __init__(self) -> None:
        self._last: tuple[float, tuple[int, int], object] | None = None
        self._release = False

    def swallows(self, app: App[Any], event: events.Event) -> bool:
        if not isinstance(event, events.MouseDown | events.MouseUp) or event.is_forwarded:
            return False
        if isinstance(event, events.MouseUp):
            dropped, self._release = self._release, False
            return dropped
        last, screen = self._last, app.screen
        place = (event.screen_x, event.screen_y)
        self._last = (event.time, place, screen)
        if (last is not None and last[2] is not screen and last[1] == place
                and event.time - last[0] <= app.CLICK_CHAIN_TIME_THRESHOLD):
            self._release = True
            return True
        return False


class Worded:
    """A screen whose key hints (the footer shows each binding's description and tooltip)
    are translated as they are shown: ``BINDINGS`` keep the English, marked with ``N_``, and
    a change of language needs only ``refresh_bindings()``.  Put it before the Screen class
    in the bases."""

    def on_screen_suspend(self) -> None:
        """A dialog is over this screen: its footer of keys goes, since its keys do not
        reach it now (under every dialog it listed the table's hint, undo, pile, help)."""
        for footer in self.query(Footer):  # type: ignore[attr-defined]
            footer.display = False

    def on_screen_resume(self) -> None:
        for footer in self.query(Footer):  # type: ignore[attr-defined]
            footer.display = True

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        found: dict[str, ActiveBinding] = super().active_bindings  # type: ignore[misc]
        return {key: active._replace(
            binding=replace(active.binding, description=_(active.binding.description))
            if active.binding.description else active.binding,
            tooltip=_(active.tooltip) if active.tooltip else active.tooltip)
            for key, active in found.items()}


class EnterDefault:
    """Enter runs a dialog's main action (``enter_default``, bound with priority), except
    when one of its buttons has the focus: then Enter presses that button, as the player
    meant (Tab to "Cancel" then Enter started a match).  Put it before the Screen class in
    the bases."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "enter_default" and isinstance(
                getattr(self, "focused", None), Button):
            return False
        checked: bool | None = super().check_action(action, parameters)  # type: ignore[misc]
        return checked


class WordedScreen(Worded, Screen[None]):
    """An app's default screen with translated key hints (``App.get_default_screen``)."""


#: The cells of the header its title cannot have: the icon (8) and the clock's space (10).
HEADER_SIDES = 18


def fit_header(app: App[Any], title: str, subtitles: Sequence[str], width: int | None = None
               ) -> None:
    """Show ``title`` with the fullest of ``subtitles`` (fullest first) that fits in the
    header, and where none does, the shortest alone: the header cuts what overflows, and at
    80 columns the keeper's Lithuanian, Hausa and Norwegian headers lost the players'
    names.  ``width``: the screen's, where a resize has not reached ``app.size`` yet."""
    room = (app.size.width if width is None else width) - HEADER_SIDES
    for sub in subtitles:
        if cell_len(f"{title} — {sub}") <= room:
            app.title, app.sub_title = title, sub
            return
    app.title, app.sub_title = subtitles[-1], ""


def quit_hint(app: App[Any]) -> None:
    """What ctrl+c says (Textual's words, in the player's language): how to quit."""
    # Translators: said when the player presses ctrl+c, which does not quit; {key} is the
    # key that does (q, or ctrl+q in the score keeper).
    keys = [key for key, active in app.active_bindings.items()
            if active.binding.action in ("quit", "app.quit")]
    app.notify(_("Press {key} to quit.").format(key=keys[0] if keys else "ctrl+q"),
               title=_("Do you want to quit?"))


class ButtonFlow(Container):
    """A row of buttons that goes on onto a second row (or more) when its labels do not fit
    its width, as in a long language at 80 columns: never a button cut.  A grid whose number
    of columns follows the room and the labels shown (:meth:`reflow`, on each resize; call it
    after a label or a button's display changes)."""

    DEFAULT_CSS = """
    ButtonFlow { layout: grid; grid-size: 12; grid-columns: auto; grid-rows: auto;
                 height: auto; }
    """

    def __init__(self, *children: Widget, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(*children, id=id, classes=classes)
        self.rows = 1
        self._sizes = ""

    def on_resize(self, event: events.Resize) -> None:
        self.reflow()

    def reflow(self, room: int | None = None) -> int:
        """Lay the buttons shown out in as few rows as fit ``room`` columns (by default the
        container's width): the number of rows."""
        room = room if room is not None else self.content_region.width
        shown = [b for b in self.children if b.display]
        if not room or not shown:
            return self.rows
        widths = [_outer_width(b) for b in shown]
        gutter = self.styles.grid_gutter_vertical  # the gutter between the columns
        columns = 1
        for n in range(len(shown), 0, -1):
            if sum(max(widths[i::n]) for i in range(n)) + gutter * (n - 1) <= room:
                columns = n
                break
        rows = -(-len(shown) // columns)
        sizes = " ".join(str(max(widths[i::columns])) for i in range(columns))
        if (self.styles.grid_size_columns, self._sizes) != (columns, sizes):
            self._sizes = sizes
            self.styles.grid_size_columns = columns
            self.styles.grid_columns = sizes
        if rows != self.rows:
            self.rows = rows
            self.post_message(self.Reflowed())
        return self.rows

    class Reflowed(Message):
        """The buttons take another number of rows: what is above may need to make room."""


def _outer_width(widget: Widget) -> int:
    """A button's width with its margins, as its label makes it."""
    styles = widget.styles
    room = Size(1000, 1000)
    width = widget.get_content_width(room, room) + styles.gutter.width
    if styles.min_width is not None and styles.min_width.is_cells:
        width = max(width, int(styles.min_width.value))
    return width + styles.margin.left + styles.margin.right


class CardWidget(Static):
    """One card: a face, a back (a hidden card, R3.4), or nothing; clicking it says so."""

    DEFAULT_CSS = """
    CardWidget {
        width: 5;
        height: 3;
        border: round #9a9a9a;
        background: #f6f3ea;
        content-align: center middle;
        margin-right: 1;
    }
    CardWidget.-back {
        background: #27457a;
        color: #6f8fcf;
        border: round #6f8fcf;
    }
    CardWidget.-meld { border: round #3f9a5a; }
    CardWidget.-new { border: round #2aa7c9; }
    CardWidget.-taken { border: round #b07ad6; }
    CardWidget.-hinted { border: heavy #e0a030; }
    CardWidget.-selected {
        border: heavy #f0c020;
        background: #fff1a8;
    }
    CardWidget.-group { margin: 0 1 0 3; }
    CardWidget.-empty {
        background: transparent;
        border: round #555555;
        color: #777777;
    }
    """

    class Chosen(Message):
        """The card was clicked."""

        def __init__(self, widget: CardWidget) -> None:
            super().__init__()
            self.widget = widget

    def __init__(self, *, slot: int = 0, id: str | None = None, classes: str | None = None):
        super().__init__("", id=id, classes=classes)
        self.slot = slot
        self.card: Card | None = None
        self._shown: tuple[object, ...] = ()

    def mark(self, name: str, on: bool) -> None:
        """Set a class only when it changes (restyling is the costly part of a redraw)."""
        if self.has_class(name) != on:
            self.set_class(on, name)

    def _show(self, key: tuple[object, ...], content: Text | str, kind: str) -> None:
        if not self.display:
            self.display = True
        if key == self._shown:
            return
        self._shown = key
        self.mark("-back", kind == "back")
        self.mark("-empty", kind == "empty")
        self.update(content, layout=False)  # a card never changes size

    def show_face(self, card: Card, *, four_colour: bool = False) -> None:
        self.card = card
        rank = "10" if card.rank == Rank.TEN else card.rank.letter
        style = f"bold {face_colour(card, four_colour)}"
        self._show(("face", card, four_colour), Text(f"{rank:>2}{card.suit.glyph}", style=style),
                   "face")

    def show_back(self) -> None:
        self.card = None
        self._show(("back",), "▒▒▒", "back")

    def show_empty(self, label: str = "") -> None:
        self.card = None
        self._show(("empty", label), label, "empty")

    def hide(self) -> None:
        self.card = None
        if self.display:
            self.display = False

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Chosen(self))


class AskScreen(EnterDefault, Worded, ModalScreen[bool]):
    """A question with two answers, yes (Enter or the first key) and no (Escape or the second)."""

    DEFAULT_CSS = """
    AskScreen { align: center middle; background: $background 60%; }
    AskScreen > Vertical {
        width: 72; max-width: 100%; height: auto; max-height: 100%; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    AskScreen #question { margin-bottom: 1; }
    AskScreen Horizontal { height: auto; align-horizontal: center; }
    AskScreen Button { margin: 0 2; }
    """

    def __init__(self, title: str, question: Text | str, yes: tuple[str, str],
                 no: tuple[str, str]) -> None:
        super().__init__()
        self._title, self._question, self._yes, self._no = title, question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self._title, style="bold"), id="title")
            yield Static(self._question, id="question")
            with Horizontal():
                yield Button(f"{self._yes[0]} ({self._yes[1]})", variant="primary", id="yes")
                yield Button(f"{self._no[0]} ({self._no[1]})", id="no")

    def on_key(self, event: events.Key) -> None:
        if event.key in (self._yes[1], self._no[1]):
            event.stop()
            self.dismiss(event.key == self._yes[1])

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "enter_default", "yes", show=False, priority=True),
        Binding("escape", "answer(False)", "no", show=False),
    ]

    def action_enter_default(self) -> None:
        self.dismiss(True)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")


def cap_height(body: Widget, leave: int) -> None:
    """Let a dialog's scrolling body grow with its content but stop ``leave`` rows short of
    the screen's height, so that the rest of the dialog (its border, title and buttons)
    stays in sight and the body scrolls instead of being cut (80x24 included)."""
    body.styles.max_height = max(3, body.app.size.height - leave)


class Dialog(EnterDefault, Worded, ModalScreen[T]):
    """A dialog whose body (the widget ``BODY`` names) scrolls within the screen while the
    rest, ``LEAVE`` rows of border, title and buttons, stays in sight."""

    BODY: ClassVar[str] = ""
    LEAVE: ClassVar[int] = 4

    def leave(self) -> int:
        """``LEAVE``, and a row more for each row a row of buttons flowed onto."""
        return self.LEAVE + sum(flow.rows - 1 for flow in self.query(ButtonFlow)
                                .results(ButtonFlow))

    def on_button_flow_reflowed(self, event: ButtonFlow.Reflowed) -> None:
        self.fit()

    def fit(self) -> None:
        if self.BODY:
            cap_height(self.query_one(self.BODY), self.leave())

    def on_mount(self) -> None:
        self.fit()

    def on_resize(self, event: events.Resize) -> None:
        self.fit()
