"""The host's lobby shows the web door's link as a QR code a phone's camera reads: drawn, then read back."""

from __future__ import annotations

import pytest
import segno

from tests.qr_reading import read_qr, zbar_missing
from tests.tui_helpers import app_at, region_text, screen_name
from tests.waiting import until
from tui.hosting import TablePlan
from tui.qr_picture import QUIET_ZONE, modules, qr_picture, read_picture

LINK = "http://192.168.1.20:4780/?token=Zq3_x9Kp-2mWv8rTn4bY5cHd"


def test_the_picture_holds_every_module_of_the_code_and_its_quiet_zone():
    lines = qr_picture(LINK).plain.split("\n")
    drawn = read_picture(lines)
    code = segno.make(LINK, micro=False)
    size = code.symbol_size(scale=1, border=QUIET_ZONE)[0]
    assert drawn[:size] == modules(LINK)
    assert len(drawn) in (size, size + 1) and all(not dark for dark in drawn[-1]), "light under the code"
    for row in drawn[:QUIET_ZONE] + drawn[size - QUIET_ZONE:]:
        assert not any(row), "the quiet zone is light"
    assert not any(row[column] for row in drawn for column in (*range(QUIET_ZONE), *range(size - QUIET_ZONE, size)))


@pytest.mark.skipif(zbar_missing() is not None, reason=str(zbar_missing()))
async def test_the_lobby_draws_the_web_doors_link_as_a_code_a_camera_reads():
    plan = TablePlan(game="turpin", options={"players": 3}, interface="127.0.0.1", code=True, bot_delay=3600)
    app = app_at("host", plan=plan)
    async with app.run_test(size=(120, 50)) as pilot:
        await until(lambda: screen_name(app) == "SetupScreen", "the host set-up", pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: screen_name(app) == "LobbyScreen" and app.screen.hosted is not None
                    and app.client is not None and app.client.snapshot.seats, "the lobby", pilot=pilot)
        lobby = app.screen
        await pilot.press("w")
        await until(lambda: "▀" in region_text(app, "#lobby-qr"), "the code in the lobby", pilot=pilot)
        door = lobby.hosted.web_door
        read = read_qr(region_text(app, "#lobby-qr").split("\n"))
        assert read == door.url("127.0.0.1"), "the link the door gives out, with its token"
        assert f"token={door.settings.token}" in read
