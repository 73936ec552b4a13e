"""Fast makers of the core's frozen values (views, results, arrangements), made at every
decision: kept apart from what they make, a way of building objects, not a game term."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

try:
    from ._speedups import made_when_read as _c_made_when_read
except ImportError:  # not compiled: the pure-Python path alone
    _c_made_when_read = None  # type: ignore[assignment]

_T = TypeVar("_T")

__all__ = ["LATER", "frozen_maker", "made_when_read", "pure_made_when_read"]


def frozen_maker(cls: type[_T], *names: str) -> Callable[..., _T]:
    """A fast maker of a frozen, slotted dataclass: ``make(v1, v2, ...)`` takes every field
    in order (``init=False`` ones too) and gives the same object as the class would.
    With ``names``, it fills those slots alone (a class with slots of its own beside its
    fields, filling the others when first read).

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, some
    thousand machine instructions a field, and the engine makes a view of nineteen fields
    at every decision.  The maker fills an unfrozen twin with the same slots (plain, fast
    attribute stores) and then makes it an instance of the class itself.
    """
    slots = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    if names:
        slots = tuple(getattr(cls, "__slots__", ()))
    if (getattr(cls, "__slots__", None) != slots or cls.__bases__ != (object,)
            or not set(names) <= set(slots)):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass of its own fields")
    names = names or slots
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": slots})
    space: dict[str, Any] = {"_twin": twin, "_cls": cls}
    body = "".join(f"    obj.{name} = {name}\n" for name in names)
    code = (f"def make({', '.join(names)}):\n    obj = _twin()\n{body}"
            "    obj.__class__ = _cls\n    return obj\n")
    exec(code, space)
    make: Callable[..., _T] = space["make"]
    make.__doc__ = f"A {cls.__name__} from all its fields (see frozen_maker)."
    return make


class _Later:
    """The mark of a field not made yet (see :func:`made_when_read`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "LATER"


#: Held in a field's private slot until the field is first read.
LATER: Any = _Later()


def made_when_read(cls: type, name: str, make: Callable[[Any], object]) -> None:
    """Field ``name`` of the frozen dataclass ``cls`` becomes a data descriptor over the
    slot ``_name``: set by ``__init__`` as any field is, or left :data:`LATER` by a fast
    maker and then filled with ``make(obj)`` when first read.

    Equality, hashing, ``repr``, ``asdict`` and pickling (through ``__reduce__``) read
    the field like any other, so a value made this way is the same value.  (A descriptor
    and no ``__getattr__``: the class's other fields stay plain, fast slot reads, and a
    first read raises nothing.)  Where ``_speedups`` was compiled the descriptor is its C
    one (a read runs no Python frame, and a maker that is a C function is called
    directly); otherwise :func:`pure_made_when_read`'s property, the source of truth.
    """
    if _c_made_when_read is None:
        pure_made_when_read(cls, name, make)
    else:
        _c_made_when_read(cls, name, make, LATER)


def pure_made_when_read(cls: type, name: str, make: Callable[[Any], object]) -> None:
    """:func:`made_when_read` as a Python property (what runs without ``_speedups``)."""
    private = f"_{name}"
    code = (f"def read(self):\n    value = self.{private}\n    if value is LATER:\n"
            f"        value = make(self)\n        store(self, {private!r}, value)\n"
            f"    return value\n"
            f"def write(self, value):\n    store(self, {private!r}, value)\n")
    space: dict[str, Any] = {"LATER": LATER, "make": make, "store": object.__setattr__}
    exec(code, space)
    setattr(cls, name, property(space["read"], space["write"], doc=f"The {name} (made when read)."))
