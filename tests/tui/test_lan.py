"""The app's live LAN list, inside a private network namespace (as the discovery tests run):
a table advertised there appears in the menu's list and is joined from it by keys."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from tests.net_helpers import LOOPBACK_UP, namespaces_unavailable


def test_a_table_advertised_on_the_lan_is_listed_and_joined_from_the_menu(tmp_path):
    reason = namespaces_unavailable()
    if reason:
        pytest.skip(reason)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path),
           "TURPIN_SEATS_FILE": str(tmp_path / "seats.json")}
    done = subprocess.run(["unshare", "-rn", "sh", "-c", f"{LOOPBACK_UP} exec {sys.executable} "
                           "tests/tui_lan_actor.py"], capture_output=True, text=True, env=env,
                          cwd=str(pathlib.Path(__file__).resolve().parents[2]))
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["listed"] == ["Lunch league", "turpin", 1, 1, False]
    assert seen["seat"] == 0 and seen["table"] == "Lunch league"
    assert seen["free_after"] == 0  # the list follows the table as it fills
