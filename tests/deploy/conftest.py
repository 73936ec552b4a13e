"""The deployment tests keep WebSockets across steps, as the web tests do."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "filterwarnings",
        "ignore:connect\\(\\) must be used as a context manager:DeprecationWarning",
    )
