"""The browser game: a Starlette app where the server's engine is the only authority.

``create_app`` builds the ASGI app; ``hollywood-gin serve`` runs it on uvicorn
(see ``docs/web.md``); the table protocol is in ``docs/protocol.md``.  Needs
the optional extra ``web`` (and ``postgres`` for a PostgreSQL store).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app"]

if TYPE_CHECKING:
    from .app import create_app
else:

    def create_app(**kwargs: Any) -> Any:
        """Imported on first use, so ``hollywood_gin.web.commands`` stays dependency-free."""
        from .app import create_app as real

        return real(**kwargs)
