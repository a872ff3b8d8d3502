"""A phone joins a LAN table through the web door, as a person would: Chromium with a phone's viewport and
touch opens the link read off the QR code the host's lobby drew, and a tap on a choice's row plays that
choice at the host's table. The scenario runs in ``tests/web_phone_actor.py`` inside a private network
namespace (as ``tests/net/test_web.py``'s do) and prints what it saw; the assertions are here."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from tests.net.test_web import _browser_missing
from tests.qr_reading import zbar_missing

ACTOR = pathlib.Path(__file__).resolve().parents[1] / "web_phone_actor.py"


@pytest.mark.slow
def test_a_phone_joins_from_the_lobbys_qr_code_and_a_tap_plays_the_choice_under_the_finger():
    reason = _browser_missing() or zbar_missing()
    if reason:
        pytest.skip(reason)
    done = subprocess.run(["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$0" "$1"', sys.executable,
                           str(ACTOR)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["link"] == seen["door"] and "token=" in seen["link"], "the QR code is the door's link"
    assert seen["page width"] == 390, "laid out at the phone's width (a viewport tag), not 980 px shrunk"
    assert "Your hand" in seen["phone"] and "lie in wait" in seen["phone"], "the hand and the moves in view"
    assert "tapped" in seen, f"no row for choice 2 on the phone:\n{seen['phone']}"
    assert [action["town"].lower() for action in seen["played"]] == [seen["tapped"].lower()], seen
    assert seen["keyboard after a tap"] == "none", "a tap must not open the phone's keyboard over the table"
    assert seen["keyboard asked for"] == "text", "the page's keyboard button opens it"


async def test_the_page_is_laid_out_at_the_phones_width_and_the_visible_height():
    """The door's own page (net/web_page): a viewport tag, the terminal the visible height (dvh), and the
    font chosen for the screen unless the link gives one."""
    import aiohttp

    from net.web import WebDoor, WebSettings
    door = WebDoor(WebSettings(host="127.0.0.1", port=0, warm_pool=False))
    await door.start()
    try:
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{door.address[1]}/?token={door.settings.token}"
            async with session.get(base) as response:
                page = await response.text()
            async with session.get(base + "&fontsize=28") as response:
                large = await response.text()
    finally:
        await door.stop()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1' in page
    assert "100dvh" in page and "touch-action: manipulation" in page and 'id="keyboard"' in page
    assert 'data-font-size-given="no"' in page and 'data-font-size="16"' in page
    assert 'data-font-size-given="yes"' in large and 'data-font-size="28"' in large
    assert "googleapis" not in page
