"""The web door against a page from somewhere else: a page served from another port of the
same machine (cookies ignore ports), or from a name that merely resolves to it (DNS rebinding), cannot
use a guest's token to open a tab or read one; and a tab's own messages are rate-limited (a resize flood
redraws the app a few times a second, not thousands). The door runs in this process on 127.0.0.1 and is
asked as a browser would ask it; the tab's app is a stand-in (no process), so the test sees exactly what
reaches it."""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator

import aiohttp
import pytest

from net import web as web_door
from net.web import TAB_MESSAGE_BURST, WebDoor, WebSettings

TOKEN = "a-door-token-of-enough-length"


class StandInApp:
    """What a tab's app is told: sizes and keys. The first size waits until the test lets it through."""

    sizes: list[tuple[int, int]]
    keys: list[bytes]
    gate: asyncio.Event

    async def start(self, width: int, height: int) -> None:
        StandInApp.sizes, StandInApp.keys, StandInApp.gate = [], [], asyncio.Event()

    async def set_terminal_size(self, width: int, height: int) -> None:
        StandInApp.sizes.append((width, height))
        await StandInApp.gate.wait()

    async def send_bytes(self, data: bytes) -> bool:
        StandInApp.keys.append(data)
        return True

    async def stop(self) -> None:
        return None


@pytest.fixture
async def door(monkeypatch) -> AsyncIterator[WebDoor]:
    for name in ("start", "set_terminal_size", "send_bytes", "stop"):
        monkeypatch.setattr(web_door._TabApp, name, getattr(StandInApp, name))
    door = WebDoor(WebSettings(port=0, host="127.0.0.1", token=TOKEN, idle_timeout=None))
    await door.start()
    try:
        yield door
    finally:
        await door.stop()


def own(door: WebDoor) -> str:
    return f"127.0.0.1:{door.address[1]}"


async def test_the_link_sets_a_cookie_named_for_this_door_only(door):
    async with aiohttp.ClientSession() as browser:
        async with browser.get(f"http://{own(door)}/?token={TOKEN}") as page:
            assert page.status == 200
            assert f"ws://{own(door)}/ws" in await page.text()
            assert list(page.cookies) == [f"turpin_web_token_{door.address[1]}"]


@pytest.mark.parametrize("headers", [
    {"Origin": "http://127.0.0.1:8080"},  # a page of another service on the same machine
    {"Origin": "null"},
    {"Host": "evil.example:{port}"},  # a name that resolves to this machine: DNS rebinding
    {"Host": "127.0.0.1:8080"},
])
async def test_a_page_asked_from_elsewhere_is_refused_even_with_the_token(door, headers):
    headers = {name: value.format(port=door.address[1]) for name, value in headers.items()}
    async with aiohttp.ClientSession() as browser:
        async with browser.get(f"http://{own(door)}/?token={TOKEN}", headers=headers) as page:
            assert page.status == 403 and (await page.text()).startswith("403 Forbidden")
            assert not page.cookies


@pytest.mark.parametrize("origin, cookie", [
    ("http://127.0.0.1:8080", "turpin_web_token_{port}"),  # the neighbour's page, the guest's cookie
    (None, "turpin_web_token_{port}"),  # no Origin: no browser's page opened it
    ("http://{own}", "turpin_web_token_8080"),  # the neighbour door's cookie is not this one's
])
async def test_a_websocket_from_another_origin_or_with_another_doors_cookie_is_refused(door, origin, cookie):
    port = door.address[1]
    jar = {cookie.format(port=port): TOKEN}
    async with aiohttp.ClientSession(cookies=jar) as browser:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await browser.ws_connect(f"http://{own(door)}/ws?width=80&height=24",
                                     origin=origin.format(own=own(door)) if origin else None)
    assert refused.value.status == 403
    assert not door.tabs


async def _tab(door: WebDoor, browser: aiohttp.ClientSession) -> aiohttp.ClientWebSocketResponse:
    return await browser.ws_connect(f"http://{own(door)}/ws?width=80&height=24", origin=f"http://{own(door)}")


async def _answered(tab: aiohttp.ClientWebSocketResponse) -> None:
    """Ping the door until it answers (messages past the budget are dropped; the budget fills again)."""
    while True:
        await tab.send_str(json.dumps(["ping", "x"]))
        try:
            answer = await asyncio.wait_for(tab.receive(), 0.2)
        except asyncio.TimeoutError:
            continue
        if answer.type == aiohttp.WSMsgType.TEXT and json.loads(answer.data) == ["pong", "x"]:
            return


async def test_a_resize_flood_gives_the_app_only_the_latest_size(door):
    """While the app takes one size (held here until the flood is read), every size asked meanwhile but
    the last is passed over; a size asked afterwards is given."""
    jar = {f"turpin_web_token_{door.address[1]}": TOKEN}
    async with aiohttp.ClientSession(cookies=jar) as browser:
        tab = await _tab(door, browser)
        sent: list[Any] = []
        for number in range(2000):
            size = {"width": 21 + number % 479, "height": 9 + number // 479}  # each one different
            sent.append((size["width"], size["height"]))
            await tab.send_str(json.dumps(["resize", size]))
        await _answered(tab)  # every resize the door read is in
        StandInApp.gate.set()
        await _answered(tab)
        while StandInApp.sizes[-1] != (100, 30):  # (asked again while the budget is spent)
            await tab.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
            await asyncio.sleep(0.05)
        await tab.close()
    assert 2 <= len(StandInApp.sizes) <= 3, StandInApp.sizes
    assert all(size in sent for size in StandInApp.sizes[:-1])


async def test_a_tab_flooding_messages_has_the_excess_dropped(door):
    jar = {f"turpin_web_token_{door.address[1]}": TOKEN}
    async with aiohttp.ClientSession(cookies=jar) as browser:
        tab = await _tab(door, browser)
        for _ in range(5000):
            await tab.send_str(json.dumps(["stdin", "x"]))
        await _answered(tab)
        await tab.close()
    assert TAB_MESSAGE_BURST <= len(StandInApp.keys) < 5000


async def test_a_door_given_its_dns_name_answers_that_name_and_no_other(monkeypatch):
    """A bigger office gives each door a name (``--name``): asked by that name the door serves its page,
    whose websocket speaks to the same name; any other name is still refused (DNS rebinding)."""
    for name in ("start", "set_terminal_size", "send_bytes", "stop"):
        monkeypatch.setattr(web_door._TabApp, name, getattr(StandInApp, name))
    door = WebDoor(WebSettings(port=0, host="127.0.0.1", token=TOKEN, idle_timeout=None,
                               names=("turpin-2.office.example",)))
    await door.start()
    try:
        named = f"turpin-2.office.example:{door.address[1]}"
        async with aiohttp.ClientSession() as browser:
            async with browser.get(f"http://{own(door)}/?token={TOKEN}", headers={"Host": named}) as page:
                assert page.status == 200 and f"ws://{named}/ws" in await page.text()
            async with browser.get(f"http://{own(door)}/?token={TOKEN}",
                                   headers={"Host": f"evil.example:{door.address[1]}"}) as page:
                assert page.status == 403
            tab = await browser.ws_connect(f"http://{own(door)}/ws?width=80&height=24&token={TOKEN}",
                                           headers={"Host": named}, origin=f"http://{named}")
            await tab.close()
            with pytest.raises(aiohttp.WSServerHandshakeError):  # its page's origin, not the address's
                await browser.ws_connect(f"http://{own(door)}/ws?width=80&height=24&token={TOKEN}",
                                         headers={"Host": named}, origin=f"http://{own(door)}")
    finally:
        await door.stop()
