"""A person with a phone, for ``tests/net/test_web_phone.py``: run inside a private network namespace, the
host's app (under Pilot, in this process) hosts a LAN table on 127.0.0.1 and opens its web door from the
lobby; the phone (Chromium with a phone's viewport and touch) joins by the link read off the lobby's QR
code, taps a choice, and this prints, as one JSON line, what the phone showed, what it tapped, and what the
host's table recorded.

    python tests/web_phone_actor.py

Nothing here asserts: the test does, on what this prints.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from playwright.async_api import Page, async_playwright  # noqa: E402

from tests.qr_reading import read_qr  # noqa: E402
from tests.tui_helpers import app_at, region_text, screen_name  # noqa: E402
from tests.waiting import until  # noqa: E402
from tests.web_actor import CHROMIUM, CHROMIUM_ARGS, MAX_LOOKS  # noqa: E402
from tui.hosting import TablePlan  # noqa: E402

#: A phone held upright (an iPhone 12 to 15's viewport), with touch. Its pixel ratio is 1: at 2 or 3 this
#: headless Chromium (software rendering, no GPU) draws the terminal's glyphs that many times larger than
#: the grid xterm.js maps a tap onto, so the picture would no longer show where a tap lands.
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}
#: The choice the phone taps: the second (not the first, which a stray Enter would pick).
TAPPED = 2


def words_on_screen(png: bytes) -> list[dict]:
    """Each word tesseract reads on a screenshot, with its box in CSS pixels (the ratio is 1)."""
    with tempfile.NamedTemporaryFile(suffix=".png") as shot:
        shot.write(png)
        shot.flush()
        read = subprocess.run(["tesseract", shot.name, "-", "--psm", "6", "tsv"], capture_output=True,
                              text=True).stdout
    words = []
    for line in read.splitlines()[1:]:
        cells = line.split("\t")
        if len(cells) == 12 and cells[11].strip():
            left, top, width, height = (int(cell) for cell in cells[6:10])
            words.append({"text": cells[11], "left": left, "top": top, "width": width, "height": height,
                          "line": (int(cells[2]), int(cells[3]), int(cells[4]))})
    return words


def choice_rows(words: list[dict]) -> dict[int, dict]:
    """The move pane's rows by choice number ("[2] lie in wait at Bath"): each row's words and where."""
    lines: dict[tuple, list[dict]] = {}
    for word in words:
        lines.setdefault(word["line"], []).append(word)
    rows = {}
    for line in lines.values():
        text = " ".join(word["text"] for word in line)
        found = re.search(r"\[(\d)\]\s*\S+ in wait at (\w+)", text)  # "lie" is read "Ue" at times
        if found:
            rows[int(found.group(1))] = {"town": found.group(2), "text": text,
                                         "top": min(word["top"] for word in line),
                                         "bottom": max(word["top"] + word["height"] for word in line)}
    return rows


async def look_for_choices(page: Page) -> tuple[dict[int, dict], str]:
    """The choice rows once the phone shows its move (and what it read, whether or not it did)."""
    text = ""
    for _ in range(MAX_LOOKS):
        await asyncio.sleep(0.2)
        words = words_on_screen(await page.screenshot())
        text = " ".join(word["text"] for word in words)
        rows = choice_rows(words)
        if TAPPED in rows:
            return rows, text
    return {}, text


async def phone() -> dict:
    seen: dict = {}
    plan = TablePlan(game="turpin", options={"players": 2}, interface="127.0.0.1", code=True, bot_delay=3600,
                     clock=0)  # no turn clock: a bot must not move for the phone while it loads
    app = app_at("host", plan=plan)
    async with app.run_test(size=(120, 50)) as pilot:
        await until(lambda: screen_name(app) == "SetupScreen", "the host set-up", pilot=pilot)
        await pilot.press("ctrl+s")
        await until(lambda: screen_name(app) == "LobbyScreen" and app.screen.hosted is not None
                    and app.client is not None and app.client.snapshot.seats, "the lobby", pilot=pilot)
        hosted = app.screen.hosted
        await pilot.press("w")
        await until(lambda: "▀" in region_text(app, "#lobby-qr"), "the code in the lobby", pilot=pilot)
        link = read_qr(region_text(app, "#lobby-qr").split("\n"))
        seen["link"], seen["door"] = link, hosted.web_door.url("127.0.0.1")
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = await (await browser.new_context(**PHONE)).new_page()
            await page.goto(link)
            seen["page width"] = await page.evaluate("window.innerWidth")
            # The guest's tab sits down in the empty seat: the table starts, and the phone shows its move.
            await until(lambda: hosted.table.started, "the guest seated", pilot=pilot)
            rows, seen["phone"] = await look_for_choices(page)
            seen["rows"] = {str(number): row["town"] for number, row in rows.items()}
            if TAPPED in rows:
                row = rows[TAPPED]
                # Far out on the row, past its words: the whole row is the target, as for a thumb.
                await page.touchscreen.tap(300, (row["top"] + row["bottom"]) / 2)
                seen["tapped"] = row["town"]
                await until(lambda: any(seat == 1 for seat, _ in hosted.table.actions),
                            "the guest's move at the table", pilot=pilot)
                seen["played"] = [action for seat, action in hosted.table.actions if seat == 1]
            # A tap did not ask for the phone's keyboard; its button does.
            mode = "() => document.querySelector('#terminal textarea').getAttribute('inputmode')"
            seen["keyboard after a tap"] = await page.evaluate(mode)
            await page.tap("#keyboard")
            seen["keyboard asked for"] = await page.evaluate(mode)
            await browser.close()
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(phone()), default=str))
