"""Every test keeps its files (game records, seat tokens) in its own temporary folder, never the user's."""

import pytest


@pytest.fixture(autouse=True)
def private_user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TURPIN_SEATS_FILE", str(tmp_path / "seats.json"))
    monkeypatch.setenv("TURPIN_LAN", "off")
