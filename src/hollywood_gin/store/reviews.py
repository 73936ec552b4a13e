"""Game reviews kept with the matches they review."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import (
    delete,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError

from ..schema import (
    reviews_table,
)
from .connection import StoreBase
from .records import ReviewRow


class Reviews(StoreBase):
    """The stored reviews of finished hands: a cache the review fills and reads."""

    def save_review(self, row: ReviewRow, data: str) -> None:
        """Keep a seat's review of a finished hand (``data``: its JSON), replacing one made
        the same way (``row.method``) before."""
        key = (reviews_table.c.match_id == row.match_id,
               reviews_table.c.hand_number == row.hand_number,
               reviews_table.c.seat == row.seat, reviews_table.c.method == row.method)
        try:
            with self._tx() as conn:
                conn.execute(delete(reviews_table).where(*key))
                conn.execute(insert(reviews_table).values(
                    match_id=row.match_id, hand_number=row.hand_number, seat=row.seat,
                    method=row.method, created_at=row.created_at, decisions=row.decisions,
                    accuracy=row.accuracy, points_lost=row.points_lost, data=data))
        except IntegrityError:
            # Another process saved the same review first (or the match is gone): the
            # review is a cache, so either way there is nothing more to do.
            return

    def reviews(self, match_id: str, seat: int, method: str,
                hands: Sequence[int] | None = None) -> dict[int, str]:
        """The stored reviews' JSON of a seat's hands in a match, made by ``method``, by hand
        number (only ``hands`` if given)."""
        query = select(reviews_table.c.hand_number, reviews_table.c.data).where(
            reviews_table.c.match_id == match_id, reviews_table.c.seat == seat,
            reviews_table.c.method == method)
        if hands is not None:
            query = query.where(reviews_table.c.hand_number.in_(list(hands)))
        with self.engine.connect() as conn:
            return {int(n): str(data) for n, data in conn.execute(query).all()}

    def review_rows(self, match_ids: Sequence[str] | None = None) -> list[ReviewRow]:
        """The summaries of the stored reviews (of these matches only, if given)."""
        c = reviews_table.c
        query = select(c.match_id, c.hand_number, c.seat, c.method, c.created_at, c.decisions,
                       c.accuracy, c.points_lost)
        if match_ids is not None:
            query = query.where(c.match_id.in_(list(match_ids)))
        with self.engine.connect() as conn:
            return [ReviewRow(str(r.match_id), int(r.hand_number), int(r.seat), str(r.method),
                              float(r.created_at), int(r.decisions),
                              None if r.accuracy is None else float(r.accuracy),
                              float(r.points_lost))
                    for r in conn.execute(query).all()]

