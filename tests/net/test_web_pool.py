"""The web door's warm pool: each tab's app forked from one pre-loaded zygote, on the tab's
own pipes. A websocket client on 127.0.0.1 speaks textual-serve's protocol as a browser's page would;
``tests/web_probe.py`` tells what process, environment and folder a tab got, forked or fresh."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import re
import shlex
import signal
import sys

import aiohttp
import pytest

from net.web import NAME_COOKIE, TOKEN_COOKIE, WebDoor, WebSettings
from tests.net_helpers import WAIT

PROBE = pathlib.Path(__file__).resolve().parents[1] / "web_probe.py"


@pytest.fixture(autouse=True)
def _linux_only():
    if not hasattr(os, "fork") or not pathlib.Path("/proc/self/stat").exists():
        pytest.skip("the warm pool needs fork() and /proc to be checked here")


def parent_of(pid: int) -> int:
    return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def started_fresh(facts: dict) -> bool:
    """The tab's app was started by the door (through textual-serve's shell), not forked by a zygote."""
    return os.getpid() in (facts["parent"], parent_of(facts["parent"]))


@contextlib.asynccontextmanager
async def web_door(probe: bool = True, **changes):
    settings = dict(port=0, host="127.0.0.1", extra_env={"TURPIN_LAN": "off"}, idle_timeout=None)
    settings.update(changes)
    door = WebDoor(WebSettings(**settings))
    if probe:
        door._command = lambda name: shlex.join([sys.executable, str(PROBE), f"--name={name}"])
    await door.start()
    try:
        yield door
    finally:
        await door.stop()


class Tab:
    """A browser tab's websocket, and the screen output it has had."""

    def __init__(self, session: aiohttp.ClientSession, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.session, self.websocket, self.seen = session, websocket, b""

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, door: WebDoor, name: str = "Ann"):
        cookies = {door.cookie(TOKEN_COOKIE): door.settings.token, door.cookie(NAME_COOKIE): name}
        async with aiohttp.ClientSession(cookies=cookies) as session:
            own = f"127.0.0.1:{door.address[1]}"
            async with session.ws_connect(f"http://{own}/ws?width=90&height=30", origin=f"http://{own}") as websocket:
                yield cls(session, websocket)

    async def read_until(self, pattern: bytes) -> re.Match:
        async def read() -> re.Match:
            while not (found := re.search(pattern, self.seen)):
                message = await self.websocket.receive()
                assert message.type == aiohttp.WSMsgType.BINARY, f"the tab closed; it had {self.seen[-300:]!r}"
                self.seen += message.data
            self.seen = self.seen[found.end():]
            return found
        return await asyncio.wait_for(read(), WAIT)

    async def facts(self) -> dict:
        return json.loads((await self.read_until(rb"READY (\{.*\})\n")).group(1))

    async def type(self, text: str) -> None:
        await self.websocket.send_json(["stdin", text])


async def test_a_forked_tab_gets_the_same_environment_folder_and_descriptors_as_a_fresh_one():
    seen = {}
    for pooled in (True, False):
        async with web_door(warm_pool=pooled, join="127.0.0.1:4707", join_code="K7QX2M") as door:
            assert door.pool_state.startswith("warm" if pooled else "fresh")
            async with Tab.open(door) as tab:
                facts = await tab.facts()
            zygote = door.pool.zygote_pid if pooled else None
        if pooled:
            assert facts["parent"] == zygote and facts["pid"] != zygote
        seen[pooled] = facts
    forked, fresh = seen[True], seen[False]
    assert forked["argv"] == fresh["argv"] == ["--name=Ann"]
    assert forked["cwd"] == fresh["cwd"] == os.getcwd()
    assert forked["descriptors"] == fresh["descriptors"]
    folders = ("TURPIN_RECORDS_DIR", "TURPIN_SEATS_FILE", "XDG_CONFIG_HOME")
    for env in (forked["env"], fresh["env"]):  # each tab's folders are its own, and gone with it
        assert env["TURPIN_GUEST"] == "web" and env["TEXTUAL_DRIVER"].endswith("WebDriver")
        assert env["COLUMNS"] == "90" and env["ROWS"] == "30" and env["TURPIN_JOIN_CODE"] == "K7QX2M"
    ignored = (*folders, "_")  # the shell a fresh tab starts through sets "_"
    assert {name: value for name, value in forked["env"].items() if name not in ignored} == \
        {name: value for name, value in fresh["env"].items() if name not in ignored}
    assert forked["env"]["TURPIN_SEATS_FILE"] != fresh["env"]["TURPIN_SEATS_FILE"]
    assert not pathlib.Path(forked["env"]["TURPIN_SEATS_FILE"]).parent.exists()


async def test_the_real_app_forked_for_a_tab_reaches_its_menu():
    async with web_door(probe=False) as door:
        async with Tab.open(door) as tab:
            await tab.read_until(rb"Play against bots")
            (live,) = door.tabs
            assert parent_of(live.app._process.pid) == door.pool.zygote_pid


async def test_one_tab_crashing_takes_down_neither_the_zygote_nor_the_other_tabs():
    async with web_door() as door:
        async with Tab.open(door, "One") as one, Tab.open(door, "Two") as two:
            doomed, other = await one.facts(), await two.facts()
            await one.type("crash")
            (crashed,) = [tab for tab in door.tabs if tab.app._process.pid == doomed["pid"]]
            assert await asyncio.wait_for(crashed.app._process.wait(), WAIT) == -signal.SIGSEGV
            os.kill(door.pool.zygote_pid, 0)  # still there
            await two.type("hello")
            await two.read_until(rb"ANSWER olleh")
            async with Tab.open(door, "Three") as three:
                assert (await three.facts())["parent"] == door.pool.zygote_pid
            assert other["pid"] != doomed["pid"]


async def test_with_the_pool_off_or_gone_tabs_start_afresh_and_the_banner_says_so():
    from tui.cli.serve_web import describe
    async with web_door(warm_pool=False) as door:
        assert door.pool is None and any("fresh" in line for line in describe(door))
        async with Tab.open(door) as tab:
            assert started_fresh(await tab.facts())
    async with web_door() as door:
        assert any("tabs start warm" in line for line in describe(door))
        door.pool._restarts_left = 0  # as after a zygote that keeps dying
        os.kill(door.pool.zygote_pid, signal.SIGKILL)
        await door.pool._zygote.wait()
        async with Tab.open(door) as tab:
            assert started_fresh(await tab.facts())
        assert any("fresh" in line and "stopped" in line for line in describe(door))


async def test_a_dead_zygote_is_started_again_and_tabs_fork_from_the_new_one():
    async with web_door() as door:
        first = door.pool.zygote_pid
        os.kill(first, signal.SIGKILL)

        async def new_zygote() -> None:
            while not (door.pool.available and door.pool.zygote_pid != first):
                await asyncio.sleep(0.02)
        await asyncio.wait_for(new_zygote(), WAIT)
        async with Tab.open(door) as tab:
            assert (await tab.facts())["parent"] == door.pool.zygote_pid
