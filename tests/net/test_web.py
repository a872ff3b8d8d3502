"""The app in a real browser. Debian's Chromium, driven by Playwright (no browser download),
opens ``turpin serve-web`` inside a private network namespace the test makes; tesseract reads the
terminal xterm.js draws on a canvas. The scenarios run in ``tests/web_actor.py`` inside the namespace
and print what they saw; the assertions are here."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from net.web import MAX_COLUMNS, MAX_ROWS, clamp_size, guest_name

ACTOR = pathlib.Path(__file__).resolve().parents[1] / "web_actor.py"
CHROMIUM = "/usr/bin/chromium"


def _browser_missing() -> str | None:
    if not pathlib.Path(CHROMIUM).exists():
        return "Debian's chromium is not installed (apt install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install -e '.[test]')"
    if shutil.which("tesseract") is None:
        return "tesseract is not installed (apt install tesseract-ocr)"
    if subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode != 0:
        return "cannot make a private network namespace here (unshare -rn)"
    return None


def in_private_network(scenario: str) -> dict:
    """Run one of the actor's scenarios in a namespace whose only interface is its own loopback."""
    reason = _browser_missing()
    if reason:
        pytest.skip(reason)
    done = subprocess.run(["unshare", "-rn", "sh", "-c", f'ip link set lo up && exec "$0" "$1" {scenario}',
                           sys.executable, str(ACTOR)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_link_with_the_token_opens_the_menu_and_enter_plays_against_bots():
    seen = in_private_network("menu")
    assert "Play against bots" in seen["menu"]
    assert "Host a table" not in seen["menu"] and "Replays" not in seen["menu"], "a web guest hosts nothing"
    assert "journey" in seen["table"] and "Passengers left" in seen["table"], seen["table"]
    assert "Sheet Players" in seen["smaller"], f"the small window's panes as tabs:\n{seen['smaller']}"


@pytest.mark.slow
def test_a_request_without_the_token_is_refused_with_a_plain_403():
    seen = in_private_network("refused")
    for name in ("bare", "wrong", "static", "websocket"):
        assert seen[name]["status"] == 403, name
        assert seen[name]["body"].startswith("403 Forbidden") and "token" in seen[name]["body"]
    assert seen["good"]["status"] == 200 and "textual.js" in seen["good"]["body"]
    assert "googleapis" not in seen["good"]["body"], "the page asks nothing of another site"


@pytest.mark.slow
def test_a_page_from_another_port_of_the_host_cannot_open_a_guests_terminal():
    """Cookies ignore ports, so a page served from a neighbour port once drove a guest's tab.
    In Chromium, with the guest's tab open, the neighbour page's websocket is refused; the door's own
    page (the control) opens one."""
    seen = in_private_network("neighbour")
    assert seen["own page"] == "open", seen
    assert seen["neighbour"] == "refused", seen


@pytest.mark.slow
def test_a_wall_screen_tab_shows_a_lan_tables_public_view_only():
    seen = in_private_network("spectate")
    text = seen["table"]
    assert "Passengers left" in text and "seats taken" in text, text
    assert "Your hand" not in text and "Your move" not in text, "a spectator has no hand and no move"


def test_a_tab_cannot_ask_for_a_terminal_past_the_caps():
    assert clamp_size(10000, 10000) == (MAX_COLUMNS, MAX_ROWS)
    assert clamp_size("120", "40") == (120, 40)
    assert clamp_size("x", None) == (80, 24)
    assert clamp_size(-5, 0)[0] > 0


def test_a_name_from_the_link_keeps_printable_characters_only():
    assert guest_name("Ann\x1b]52;c;cHduZWQ=\x07") == "Ann]52;c;cHduZWQ="
    assert guest_name("x" * 100) == "x" * 40
    assert guest_name(None) == ""
