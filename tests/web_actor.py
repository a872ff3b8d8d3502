"""A person at a browser, for ``tests/net/test_web.py``: run inside a private network namespace, it starts a
web door (and, for a wall screen, a headless table) on 127.0.0.1, drives Debian's Chromium with
Playwright, reads the canvas-drawn terminal with tesseract, and prints what it saw as one JSON line.

    python tests/web_actor.py menu|refused|spectate|neighbour

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
import urllib.error
import urllib.request

from playwright.async_api import Page, async_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = os.environ.get("TURPIN_CHROMIUM", "/usr/bin/chromium")
#: Chromium quietly, with nothing of its own on the network (this namespace has no network anyway).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Looks at the page before giving up on a text (each reads the screen after a fifth of a second).
MAX_LOOKS = 60


def start(command: list[str], pattern: str) -> tuple[subprocess.Popen, re.Match]:
    """A turpin command in the background, and the first line of its output that matches."""
    environment = {**os.environ, "TURPIN_LAN": "off", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "tui", *command], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=environment)
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(pattern, line)
        if found:
            return process, found
    raise RuntimeError(f"{command[0]} ended before printing {pattern!r}")


def screen_text(png: bytes) -> str:
    """What tesseract reads on a screenshot of the terminal."""
    with tempfile.NamedTemporaryFile(suffix=".png") as image:
        image.write(png)
        image.flush()
        return subprocess.run(["tesseract", image.name, "-", "--psm", "6"], capture_output=True,
                              text=True).stdout


async def wait_for_text(page: Page, *words: str) -> str:
    """The screen's text once it shows every one of ``words``; the last text read if it never does."""
    text = ""
    for _ in range(MAX_LOOKS):
        await asyncio.sleep(0.2)
        text = screen_text(await page.screenshot())
        if all(word.lower() in text.lower() for word in words):
            return text
    return text


async def open_browser(playwright):
    browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    page = await browser.new_page(viewport={"width": 1200, "height": 700}, device_scale_factor=2)
    return browser, page


async def menu() -> dict:
    """The link with its token shows the menu; Enter starts a game against bots and its table shows; a
    window made small is followed (the panes fold into tabs)."""
    door, found = start(["serve-web", "--interface", "127.0.0.1", "--port", "0"], r"(http://\S+token=\S+)")
    seen: dict = {}
    try:
        async with async_playwright() as playwright:
            browser, page = await open_browser(playwright)
            await page.goto(found.group(1))
            seen["menu"] = await wait_for_text(page, "Play against bots")
            await page.focus("textarea")  # xterm.js takes the keys through its hidden text area
            await page.keyboard.press("Enter")
            seen["table"] = await wait_for_text(page, "journey", "Passengers left")
            await page.set_viewport_size({"width": 560, "height": 400})
            seen["smaller"] = await wait_for_text(page, "Sheet Players")
            await browser.close()
    finally:
        door.terminate()
        door.wait()
    return seen


def refused() -> dict:
    """Requests without the token, or with a wrong one, and the page and websocket with it."""
    door, found = start(["serve-web", "--interface", "127.0.0.1", "--port", "0"], r"http://([\d.]+):(\d+)/\?token=(\S+)")
    host, port, token = found.groups()
    seen: dict = {}
    try:
        for name, path in [("bare", "/"), ("wrong", "/?token=" + "x" * len(token)), ("static", "/static/js/textual.js"),
                           ("websocket", "/ws?width=80&height=24"), ("good", f"/?token={token}")]:
            try:
                with urllib.request.urlopen(f"http://{host}:{port}{path}", timeout=30) as response:
                    seen[name] = {"status": response.status, "body": response.read(2000).decode("utf-8", "replace")}
            except urllib.error.HTTPError as error:
                seen[name] = {"status": error.code, "body": error.read(2000).decode("utf-8", "replace")}
    finally:
        door.terminate()
        door.wait()
    return seen


#: What a page runs to reach the door's terminal: "open" if its websocket opened, else "refused".
TRY_THE_TERMINAL = """async (url) => await new Promise((answer) => {
    const socket = new WebSocket(url);
    socket.onopen = () => { socket.close(); answer("open"); };
    socket.onerror = () => answer("refused");
    setTimeout(() => answer("no answer"), 15000);
})"""


async def neighbour() -> dict:
    """A guest's tab is open (its cookie set); a page served from another port of the same host tries
    to open the door's terminal from that browser, and, as the control, the door's own page does."""
    import http.server
    import threading
    door, found = start(["serve-web", "--interface", "127.0.0.1", "--port", "0"],
                        r"(http://([\d.]+):(\d+)/\?token=\S+)")
    link, host, port = found.groups()
    page_of_the_neighbour = b"<html><body>another service on this host</body></html>"

    class Neighbour(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page_of_the_neighbour)

        def log_message(self, *args: object) -> None:
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Neighbour)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    terminal = f"ws://{host}:{port}/ws?width=80&height=24"
    seen: dict = {}
    try:
        async with async_playwright() as playwright:
            browser, page = await open_browser(playwright)
            await page.goto(link)
            await wait_for_text(page, "Play against bots")
            seen["own page"] = await page.evaluate(TRY_THE_TERMINAL, terminal)
            await page.goto(f"http://127.0.0.1:{server.server_address[1]}/")  # (the door's cookie is kept)
            seen["neighbour"] = await page.evaluate(TRY_THE_TERMINAL, terminal)
            await browser.close()
    finally:
        server.shutdown()
        door.terminate()
        door.wait()
    return seen


async def spectate() -> dict:
    """A wall screen: a door whose every tab watches a LAN table (two bots, a seat waiting for its
    player, so the table stays as dealt)."""
    host, found = start(["host", "--headless", "--game", "turpin", "--players", "3", "--bots", "2", "--no-code",
                         "--interface", "127.0.0.1", "--port", "0", "--no-advertise"],
                        r"127\.0\.0\.1:(\d+)")
    table = f"127.0.0.1:{found.group(1)}"
    door, link = start(["serve-web", "--interface", "127.0.0.1", "--port", "0", "--spectate", table],
                       r"(http://\S+token=\S+)")
    seen: dict = {}
    try:
        async with async_playwright() as playwright:
            browser, page = await open_browser(playwright)
            await page.goto(link.group(1))
            seen["table"] = await wait_for_text(page, "seats taken", "Passengers left", "Sheet")
            await browser.close()
    finally:
        for process in (door, host):
            process.terminate()
            process.wait()
    return seen


if __name__ == "__main__":
    scenario = sys.argv[1]
    result = refused() if scenario == "refused" else asyncio.run(
        {"menu": menu, "spectate": spectate, "neighbour": neighbour}[scenario]())
    print(json.dumps(result))
