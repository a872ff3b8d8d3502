"""Every test keeps its files (game records, seat tokens, preferences) in its own temporary folder, never the
user's."""

import pytest

from tests.terminal_helpers import Tmux


@pytest.fixture(autouse=True)
def private_user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TURPIN_SEATS_FILE", str(tmp_path / "seats.json"))
    monkeypatch.setenv("TURPIN_LAN", "off")


@pytest.fixture(autouse=True)
def keys_taken_at_once(monkeypatch):
    """Pilot presses a key the moment a move shows, which a person cannot: the app's guard against keys
    typed ahead (TurpinApp.TYPE_AHEAD_GUARD, NEW_QUESTION_GUARD) is off in process, and tested on its own. The apps
    run under
    tmux keep it."""
    try:
        from tui.app import TurpinApp
    except ImportError:  # the app's dependencies are not installed: its tests are not run either
        return
    monkeypatch.setattr(TurpinApp, "TYPE_AHEAD_GUARD", 0.0)
    monkeypatch.setattr(TurpinApp, "NEW_QUESTION_GUARD", 0.0)


@pytest.fixture
def tmux(tmp_path):
    """A private tmux server for the test, killed afterwards (``tests/terminal_helpers.py``)."""
    session = Tmux(tmp_path)
    yield session
    session.close()
