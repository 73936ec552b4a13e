"""Alembic migrations of the saved-games database, shipped in the package.

Run them with ``hollywood-gin db upgrade`` (see :mod:`hollywood_gin.migrate`); there is
no ``alembic.ini``: the script location and the connection are set in code.
"""
