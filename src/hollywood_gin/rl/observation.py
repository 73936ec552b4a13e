"""The fixed observation vector of one seat, built from a :class:`HandView` (and the sheet).

One layout serves every RL interface (PettingZoo, Gymnasium, the vector env and the
OpenSpiel observation tensor), so a policy trained on one runs on the others.  It holds
only what the seat may know (R3.4, R4.4): no opponent card that was not taken from the
pile is ever encoded.  All entries are float32 in ``[0, 1]`` except the sheet ratios,
which lie in ``[0, 10]``.

=========  ======  ==========================================================
offset     size    meaning
=========  ======  ==========================================================
0          52      own hand (card index ``suit * 13 + rank - 1``)
52         52      cards now in the discard pile
104        52      the top card of the discard pile
156        52      cards this seat has discarded in this hand
208        52      cards the opponent has discarded in this hand
260        52      cards the opponent took from the pile and still holds
312        52      own cards the opponent knows (taken from the pile)
364        4       phase one-hot: offer, draw, discard, over
368        1       this seat is to act
369        1       this seat dealt
370        1       stock count / 31
371        1       opponent card count / 11
372        1       this hand's knock limit / 10
373        1       both passed the upcard: the stock must be drawn (R4.1)
374        5 x 7   per sheet column (R7): own points / target, opponent points / target,
                   own boxes / 10, opponent boxes / 10, open, won by this seat,
                   won by the opponent (all 0 for a column the rules do not have,
                   and for a single hand without a sheet)
=========  ======  ==========================================================
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..actions import ACTION_COUNT, Discard
from ..hand import HandView, Phase
from ..sheet import ScoreSheet

__all__ = [
    "MAX_COLUMNS",
    "OBS_SIZE",
    "PLANES",
    "SHEET_OFFSET",
    "encode_sheet",
    "encode_view",
    "legal_mask",
    "observation_high",
]

PLANES = (
    "hand",
    "pile",
    "top",
    "my_discards",
    "opponent_discards",
    "opponent_known",
    "known_to_opponent",
)
SCALAR_OFFSET = 52 * len(PLANES)
SCALAR_SIZE = 10
SHEET_OFFSET = SCALAR_OFFSET + SCALAR_SIZE
MAX_COLUMNS = 5  # Rules.columns is 1 to 5
COLUMN_SIZE = 7
OBS_SIZE = SHEET_OFFSET + MAX_COLUMNS * COLUMN_SIZE
SHEET_HIGH = 10.0

_PHASE_INDEX = {Phase.OFFER: 0, Phase.DRAW: 1, Phase.DISCARD: 2, Phase.OVER: 3}

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


def observation_high() -> FloatArray:
    """The upper bound of every entry, for a ``Box`` space."""
    high = np.ones(OBS_SIZE, dtype=np.float32)
    for c in range(MAX_COLUMNS):
        base = SHEET_OFFSET + c * COLUMN_SIZE
        high[base : base + 4] = SHEET_HIGH
    return high


def _bits(out: FloatArray, offset: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[offset + low.bit_length() - 1] = 1.0
        mask ^= low


def encode_sheet(out: FloatArray, sheet: ScoreSheet | None, player: int) -> None:
    """Write the sheet part of the observation for ``player`` (zeros without a sheet)."""
    out[SHEET_OFFSET:] = 0.0
    if sheet is None:
        return
    rules = sheet.rules
    target = float(rules.game_target)
    for c, column in enumerate(sheet.columns[:MAX_COLUMNS]):
        base = SHEET_OFFSET + c * COLUMN_SIZE
        out[base] = min(column.points[player] / target, SHEET_HIGH)
        out[base + 1] = min(column.points[1 - player] / target, SHEET_HIGH)
        out[base + 2] = min(column.boxes[player] / 10.0, SHEET_HIGH)
        out[base + 3] = min(column.boxes[1 - player] / 10.0, SHEET_HIGH)
        out[base + 4] = 0.0 if column.closed else 1.0
        out[base + 5] = 1.0 if column.winner == player else 0.0
        out[base + 6] = 1.0 if column.winner == 1 - player else 0.0


def encode_view(
    view: HandView, sheet: ScoreSheet | None = None, out: FloatArray | None = None
) -> FloatArray:
    """The observation vector of ``view.player`` (see the module table); the reference encoder
    that the faster vector env is tested against."""
    if out is None:
        out = np.zeros(OBS_SIZE, dtype=np.float32)
    else:
        out.fill(0.0)
    me = view.player
    mine = theirs = 0
    for who, action in view.history:
        if isinstance(action, Discard):
            if who == me:
                mine |= action.card.bit
            else:
                theirs |= action.card.bit
    pile = 0
    for card in view.discard_pile:
        pile |= card.bit
    opp_known = 0
    for card in view.opponent_known:
        opp_known |= card.bit
    known = 0
    for card in view.known_to_opponent:
        known |= card.bit
    top = view.discard_pile[-1].bit if view.discard_pile else 0
    for i, mask in enumerate((view.hand_mask, pile, top, mine, theirs, opp_known, known)):
        _bits(out, 52 * i, mask)
    s = SCALAR_OFFSET
    out[s + _PHASE_INDEX[view.phase]] = 1.0
    out[s + 4] = 1.0 if view.my_turn else 0.0
    out[s + 5] = 1.0 if view.dealer == me else 0.0
    out[s + 6] = view.stock_count / 31.0
    out[s + 7] = view.opponent_card_count / 11.0
    out[s + 8] = view.knock_limit / 10.0
    out[s + 9] = 1.0 if view.upcard_refused else 0.0
    encode_sheet(out, sheet, me)
    return out


def legal_mask(view: HandView) -> MaskArray:
    """1 for every legal action id of the fixed action space (all 0 when not to act)."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    for action in view.legal_actions:
        mask[action.id] = 1
    return mask
