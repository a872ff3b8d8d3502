"""Web door benchmark: page opened → menu painted in a real browser, against the app launched locally.

    .venv/bin/python bench/web.py [--rounds 6] [--concurrent 20]

Runs itself inside a private network namespace (``unshare -rn``): nothing leaves this machine.

1. Local baseline: ``python -m tui`` on a fresh pty (80×24) until its output holds the menu; median,
   with the app's memory (RSS) once the menu is up.
2. In a browser: ``turpin serve-web`` (its own process, 127.0.0.1) and Debian's Chromium driven by
   Playwright; from ``page.goto`` to the first websocket frame holding the menu; median, the ratio to
   (1), and the tab's app memory (its process under the door). Rounds of (1) and (2) alternate.
3. Concurrency: N tabs opened at once; each one's open → menu time, the sum of their apps' RSS, the
   door's own RSS.

Goals: page opened → menu ≤ 2× a local launch; memory per browser session ≤ 1.2× a local
app. Prints figures, asserts nothing.

Burst mode, ``--burst 1 20 50 [--idle 200]``: no browser; N websocket clients speaking
textual-serve's protocol (as the page's script does) open their tabs together, each from an address of
its own in 127.0.0.0/8, for the fresh start (``--no-warm-pool``) and the warm pool in turn, each timed to
its first menu, against a lone local launch measured just before; and the tabs' apps' USS/PSS from
``/proc/*/smaps_rollup`` (see ``bench/ssh.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ssh import (  # noqa: E402
    MODES,
    _children,
    _environment,
    _rss_kib,
    client_address,
    cpu_line,
    cpu_of,
    cpu_seconds,
    local_launch,
    memory_line,  # (bench/ssh.py)
    own_cpu,
)

MENU = b"Play against bots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GUARD = 120.0  # a hung run stops here; not a goal


async def start_door(folder: pathlib.Path, tabs: int, *options: str) -> tuple[asyncio.subprocess.Process, str]:
    door = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui", "serve-web", "--port", "0", "--interface", "127.0.0.1",
        "--max-sessions", str(tabs + 5), *options, cwd=ROOT, env={**_environment(folder), "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    while True:
        line = await asyncio.wait_for(door.stdout.readline(), GUARD)
        found = re.search(rb"(http://\S+token=\S+)", line)
        if found:
            return door, found.group(1).decode()
        if not line:
            raise RuntimeError("the web door did not start")


async def open_tab(browser, link: str) -> tuple[float, object]:
    """Seconds from opening the page to the menu arriving over its websocket; the page."""
    page = await browser.new_page(viewport={"width": 760, "height": 460})
    painted = asyncio.Event()
    seen = bytearray()

    def frame(payload) -> None:
        if isinstance(payload, (bytes, bytearray)):
            seen.extend(payload)
            if MENU in seen:
                painted.set()

    page.on("websocket", lambda websocket: websocket.on("framereceived", frame))
    started = time.perf_counter()
    await page.goto(link)
    await asyncio.wait_for(painted.wait(), GUARD)
    return time.perf_counter() - started, page


def tab_memory(door_pid: int) -> list[int]:
    """RSS (KiB) of every tab's app: the door's children (a shell, then python) and theirs."""
    memory = []
    for child in _children(door_pid):
        grandchildren = _children(child)
        memory += [_rss_kib(pid) for pid in grandchildren] if grandchildren else [_rss_kib(child)]
    return memory


async def main(rounds: int, concurrent: int) -> None:
    from playwright.async_api import async_playwright
    folder = pathlib.Path(tempfile.mkdtemp(prefix="turpin-bench-web-"))
    door, link = await start_door(folder, concurrent)
    local_times, local_memory, web_times, web_memory = [], [], [], []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        await (await open_tab(browser, link))[1].close()  # warm the browser and the door's first import
        for _ in range(rounds):
            seconds, memory = await local_launch(folder)
            local_times.append(seconds)
            local_memory.append(memory)
            seconds, page = await open_tab(browser, link)
            await asyncio.sleep(0.5)
            web_times.append(seconds)
            web_memory.append(max(tab_memory(door.pid) or [0]))
            await page.close()
            await asyncio.sleep(1.0)  # the tab's app ends before the next round
        local, web = statistics.median(local_times), statistics.median(web_times)
        local_rss = statistics.median(local_memory) / 1024
        print(f"local launch → menu: median {local * 1000:.0f} ms; RSS {local_rss:.1f} MiB")
        print(f"browser page → menu: median {web * 1000:.0f} ms = {web / local:.2f}× local (goal ≤ 2×)")
        per_tab = statistics.median(web_memory) / statistics.median(local_memory)
        tab_rss = statistics.median(web_memory) / 1024
        print(f"memory per tab: {tab_rss:.1f} MiB = {per_tab:.2f}× a local app (goal ≤ 1.2×)")

        started = time.perf_counter()
        opened = await asyncio.gather(*(open_tab(browser, link) for _ in range(concurrent)))
        everything = time.perf_counter() - started
        times = [seconds for seconds, _ in opened]
        await asyncio.sleep(1.0)
        memory = tab_memory(door.pid)
        print(f"{concurrent} tabs at once: all menus in {everything:.1f} s; "
              f"each median {statistics.median(times):.1f} s, "
              f"max {max(times):.1f} s; apps {sum(memory) / 1024:.0f} MiB in all ({len(memory)} apps), "
              f"the door {_rss_kib(door.pid) / 1024:.0f} MiB")
        await browser.close()
    door.terminate()
    await door.wait()


# --- burst mode ---------------------------------------------------------------------------------------

def tab_apps(door_pid: int) -> tuple[list[int], list[int]]:
    """(the tabs' apps, the zygote if any): the zygote's children, or the door's (a shell, then python)."""
    apps, zygotes = [], []
    for child in _children(door_pid):
        try:
            forking = b"tui.startup.zygote" in pathlib.Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if forking:
            zygotes.append(child)
        apps += _children(child) or ([] if forking else [child])
    return apps, zygotes


class SocketTab:
    """A tab as the page's script opens it: a websocket to /ws with the door's token, read to the menu."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.session = None

    async def open(self, port: int, token: str, address: str) -> SocketTab:
        import aiohttp
        started = time.perf_counter()
        self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)),
                                             cookies={f"turpin_web_token_{port}": token})
        # As the door's own page opens it: its Origin, or the door refuses it (another site's page)
        self.websocket = await self.session.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24",
                                                       origin=f"http://127.0.0.1:{port}")
        seen = b""
        while MENU not in seen:
            message = await asyncio.wait_for(self.websocket.receive(), GUARD)
            assert message.type == aiohttp.WSMsgType.BINARY, (message, seen[-200:])
            seen += message.data
        self.seconds = time.perf_counter() - started
        self._drain = asyncio.create_task(self._read_on())
        return self

    async def _read_on(self) -> None:
        async for _ in self.websocket:  # a page reads all its tab sends
            pass

    async def close(self) -> None:
        await self.websocket.close()
        self._drain.cancel()
        await self.session.close()


async def wait_for_apps(door_pid: int, count: int) -> None:
    async def poll() -> None:
        while len(tab_apps(door_pid)[0]) != count:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), GUARD)


async def burst(sizes: list[int], idle: int, idle_seconds: float, modes: list[str]) -> None:
    folder = pathlib.Path(tempfile.mkdtemp(prefix="turpin-bench-web-burst-"))
    biggest = max([*sizes, idle, 1]) + 5
    print("web door, burst mode: N websocket tabs opened together, each from its own 127.1.x.y address; 80×24")
    print(f"  load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    for mode, options in (MODES[name] for name in modes):
        await local_launch(folder)
        local = statistics.median([(await local_launch(folder))[0] for _ in range(3)])
        print(f"{mode}: lone local launch (baseline, this moment) {local * 1000:.0f} ms; load {os.getloadavg()[0]:.2f}")
        door, link = await start_door(folder, biggest, *options)
        port, token = int(re.search(r":(\d+)/", link).group(1)), link.split("token=", 1)[1]
        try:
            await (await SocketTab().open(port, token, client_address(0))).close()
            await wait_for_apps(door.pid, 0)
            for size in sizes:
                door_cpu, clients_cpu = cpu_of(door.pid), own_cpu()
                started = time.perf_counter()
                tabs = await asyncio.gather(*(SocketTab().open(port, token, client_address(i + 1))
                                              for i in range(size)))
                everyone = time.perf_counter() - started
                door_cpu, clients_cpu = cpu_of(door.pid) - door_cpu, own_cpu() - clients_cpu
                times = [tab.seconds for tab in tabs]
                apps, zygotes = tab_apps(door.pid)
                burst_cpu = cpu_line(apps, door_cpu, clients_cpu)
                late = await SocketTab().open(port, token, client_address(size + 1))
                print(f"  N={size:<3} menus: median {statistics.median(times) * 1000:6.0f} ms "
                      f"({statistics.median(times) / local:.2f}× local), slowest {max(times) * 1000:6.0f} ms, all "
                      f"in {everyone:.1f} s; one more then {late.seconds * 1000:.0f} ms "
                      f"({late.seconds / local:.2f}× local); load {os.getloadavg()[0]:.2f}")
                print(burst_cpu)
                print(memory_line(f"N={size} tabs' apps at their menus", apps))
                if zygotes:
                    print(memory_line("the zygote", zygotes))
                await asyncio.gather(*(tab.close() for tab in [*tabs, late]))
                await wait_for_apps(door.pid, 0)
            if idle and mode == "warm pool":
                crowd = []
                for start in range(0, idle, 10):
                    crowd += await asyncio.gather(*(SocketTab().open(port, token, client_address(i + 1))
                                                    for i in range(start, min(idle, start + 10))))
                apps, _ = tab_apps(door.pid)
                await asyncio.sleep(2.0)
                before = cpu_seconds(apps)
                await asyncio.sleep(idle_seconds)
                spent = cpu_seconds(apps) - before
                print(memory_line(f"{idle} idle tabs' apps", apps))
                print(f"  {idle} idle tabs' CPU: {spent / idle_seconds:.2f} cores over {idle_seconds:g} s")
                late = await SocketTab().open(port, token, client_address(idle + 1))
                print(f"  one more while {idle} sit at their menus: {late.seconds * 1000:.0f} ms "
                      f"({late.seconds / local:.2f}× local); load {os.getloadavg()[0]:.2f}")
                await asyncio.gather(*(tab.close() for tab in [*crowd, late]))
        finally:
            door.terminate()
            await door.wait()
    print(f"  load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="page opened → menu painted, against a local launch")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--burst", type=int, nargs="+", metavar="N", help="burst mode with these sizes")
    parser.add_argument("--idle", type=int, default=0, metavar="N", help="burst mode: N idle tabs (warm)")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES), default=["fresh", "warm"],
                        help="burst mode: which doors to measure, in this order")
    args = parser.parse_args()
    if os.environ.get("TURPIN_BENCH_NETNS") != "1":  # into a private network namespace first
        sys.exit(subprocess.run(["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", "env",
                                 "TURPIN_BENCH_NETNS=1", sys.executable, *sys.argv]).returncode)
    if args.burst:
        asyncio.run(burst(args.burst, args.idle, args.idle_seconds, args.modes))
    else:
        asyncio.run(main(args.rounds, args.concurrent))
