"""Fixtures of the REPL tests; the helpers they use are in repl_session.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from repl_session import make_home


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A HOME of the test's own, with empty XDG folders."""
    return make_home(tmp_path)
