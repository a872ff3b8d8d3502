"""SSH front door benchmark: connect → menu painted, against the same app launched locally on a pty.

    .venv/bin/python bench/ssh.py [--rounds 8] [--concurrent 20]

1. Local baseline: ``python -m tui`` started on a fresh pty (80×24), until its output holds the menu
   ("Play against bots"); median and p95, with the app's memory (RSS) once the menu is up.
2. Over SSH: ``turpin serve-ssh`` (its own process, 127.0.0.1, --open) and an asyncssh client in this
   process; from the start of the TCP connection to the menu in the session's output; median, p95,
   the ratio to (1) and the session app's RSS. Rounds of (1) and (2) alternate so load hits both alike.
3. Concurrency: N sessions opened at once; each one's connect → menu time, the sum of their apps' RSS
   and the server's own RSS, and how long one more session takes while the N sit at their menus.

Goals: session start ≤ 1.5× a local launch; memory per session ≤ 1.2× a local app.

Burst mode, ``--burst 1 20 50 [--idle 200]``: for the fresh start (``--no-warm-pool``) and
the warm pool in turn, a door of its own (as ``turpin serve-ssh``, with login limits raised to the burst)
and N sessions started together, each from an address of its own in 127.0.0.0/8; each one's connect →
menu (median, slowest), one more session while the N sit at their menus, and the guests' memory from
``/proc/*/smaps_rollup``: USS (private pages) and PSS (shared pages split among their sharers), the
zygote's counted apart. A lone local launch in the same run is the baseline, before each mode.
``--at-table N`` then seats N guests at tables against bots (Enter at the menu) and measures their memory
there. ``--idle N`` also opens N more sessions slowly (10 at a time) with the warm pool only, then measures the
guests' memory and their CPU over ``--idle-seconds`` at their menus.

Prints figures, asserts nothing. Everything stays on 127.0.0.0/8; LAN browsing is off in every app.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pathlib
import pty
import re
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import asyncssh  # noqa: E402

from net.ssh import set_window_size  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
MENU = b"Play against bots"
#: What the table against bots shows once drawn (Dick Turpin's board, or its score sheet).
TABLE = (b"Passengers left", b"Sheet")
GUARD = 120.0  # a hung run stops here; not a goal


def _percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _rss_kib(pid: int) -> int:
    try:
        for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in pathlib.Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def _environment(folder: pathlib.Path) -> dict[str, str]:
    """What the door gives a session, for the local launch too; private folders, no LAN browsing."""
    return {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": os.environ.get("HOME", "/"),
            "PATH": os.environ.get("PATH", os.defpath), "TURPIN_LAN": "off",
            "XDG_DATA_HOME": str(folder / "data"), "XDG_STATE_HOME": str(folder / "state"),
            "TURPIN_SEATS_FILE": str(folder / "seats.json")}


async def local_launch(folder: pathlib.Path) -> tuple[float, int]:
    """Seconds from starting the app on a new pty to the menu in its output, and its RSS then (KiB)."""
    loop = asyncio.get_running_loop()
    master, slave = pty.openpty()
    set_window_size(slave, 80, 24)
    started = time.perf_counter()
    child = await asyncio.create_subprocess_exec(sys.executable, "-m", "tui", "--name=local", stdin=slave,
                                                 stdout=slave, stderr=slave, env=_environment(folder),
                                                 cwd=ROOT, start_new_session=True)
    os.close(slave)
    seen = b""
    readable = asyncio.Event()
    loop.add_reader(master, readable.set)
    try:
        while MENU not in seen:
            await asyncio.wait_for(readable.wait(), GUARD)
            readable.clear()
            seen += os.read(master, 65536)
        elapsed = time.perf_counter() - started
        memory = _rss_kib(child.pid)
    finally:
        loop.remove_reader(master)
        os.killpg(child.pid, signal.SIGHUP)
        await child.wait()
        os.close(master)
    return elapsed, memory


async def start_server(folder: pathlib.Path, *options: str) -> tuple[asyncio.subprocess.Process, int]:
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui", "serve-ssh", "--port", "0", "--interface", "127.0.0.1", "--open",
        "--no-name-passphrases", "--max-sessions", "100", "--host-key", str(folder / "host_key"), *options,
        cwd=ROOT, env={**_environment(folder), "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    first = await asyncio.wait_for(server.stdout.readline(), GUARD)
    port = re.search(rb"port (\d+)", first)
    assert port, first
    return server, int(port.group(1))


class Session:
    """One SSH session from connect to its menu, kept open until closed."""

    #: Logins the door turned away (more than its 64 logins at once) and that tried again, as people would.
    retries = 0

    def __init__(self) -> None:
        self.conn: asyncssh.SSHClientConnection | None = None
        self.seconds = 0.0

    async def open(self, port: int, user: str, address: str | None = None) -> Session:
        started = time.perf_counter()
        while True:
            try:
                await self._open(port, user, address)
            except (asyncssh.DisconnectError, ConnectionError):
                Session.retries += 1
                await asyncio.sleep(0.2)
                continue
            self.seconds = time.perf_counter() - started
            return self

    async def _open(self, port: int, user: str, address: str | None) -> None:
        self.conn = await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, client_keys=None,
                                           agent_path=None, password=None,
                                           local_addr=(address, 0) if address else None)
        process = await self.conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        seen = b""
        while MENU not in seen:
            chunk = await asyncio.wait_for(process.stdout.read(65536), GUARD)
            assert chunk, seen
            seen += chunk
        self.process = process

    async def sit_down(self) -> None:
        """Enter at the menu (Play against bots), until the table is drawn."""
        self.process.stdin.write(b"\r")
        seen = b""
        while not any(marker in seen for marker in TABLE):
            chunk = await asyncio.wait_for(self.process.stdout.read(65536), GUARD)
            assert chunk, seen[-300:]
            seen += chunk

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


def _line(label: str, samples: list[float], baseline: list[float] | None = None) -> str:
    median, p95 = statistics.median(samples) * 1000, _percentile(samples, 95) * 1000
    text = f"  {label:<34} median {median:7.0f} ms   p95 {p95:7.0f} ms"
    if baseline:
        text += f"   ({statistics.median(samples) / statistics.median(baseline):.2f}× local)"
    return text


async def main(rounds: int, concurrent: int) -> None:
    folder = pathlib.Path(tempfile.mkdtemp(prefix="turpin-bench-ssh-"))
    server, port = await start_server(folder)
    try:
        local_times, local_memory, ssh_times, ssh_memory = [], [], [], []
        warmup = await Session().open(port, "warmup")  # page the interpreter and asyncssh in for both sides
        await warmup.close()
        await local_launch(folder)
        await wait_for_guests(server.pid, 0)
        for round_number in range(rounds):
            seconds, memory = await local_launch(folder)
            local_times.append(seconds)
            local_memory.append(memory)
            session = await Session().open(port, f"player{round_number}")
            ssh_times.append(session.seconds)
            [app] = door_processes(server.pid)[0]
            ssh_memory.append(_rss_kib(app))
            await session.close()
            await wait_for_guests(server.pid, 0)

        print(f"SSH front door: connect → menu painted, {rounds} rounds each, 80×24, on 127.0.0.1")
        print(_line("local launch on a pty (baseline)", local_times))
        print(_line("ssh session (connect+auth+app)", ssh_times, local_times))
        print(f"  memory per app: local {statistics.median(local_memory) / 1024:.1f} MiB, "
              f"ssh session {statistics.median(ssh_memory) / 1024:.1f} MiB "
              f"({statistics.median(ssh_memory) / statistics.median(local_memory):.2f}× local)")

        idle_server = _rss_kib(server.pid)
        started = time.perf_counter()
        # each from an address of its own: the door allows 10 sessions an address
        sessions = await asyncio.gather(*(Session().open(port, f"crowd{i}", client_address(i + 1))
                                          for i in range(concurrent)))
        all_up = time.perf_counter() - started
        apps = door_processes(server.pid)[0]
        apps_memory = sum(_rss_kib(pid) for pid in apps)
        crowd_server = _rss_kib(server.pid)
        late = await Session().open(port, "latecomer", client_address(concurrent + 1))
        print(f"{concurrent} sessions opened at once: all menus up in {all_up:.1f} s")
        print(_line("each session's connect → menu", [s.seconds for s in sessions], local_times))
        print(f"  apps' memory: {apps_memory / 1024:.0f} MiB in all, {apps_memory / len(apps) / 1024:.1f} MiB each; "
              f"server {idle_server / 1024:.0f} → {crowd_server / 1024:.0f} MiB "
              f"(+{(crowd_server - idle_server) / concurrent:.0f} KiB a session)")
        print(f"  one more session while {concurrent} sit at their menus: {late.seconds * 1000:.0f} ms "
              f"({late.seconds / statistics.median(local_times):.2f}× a quiet local launch)")
        print(f"  load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        await asyncio.gather(*(s.close() for s in [*sessions, late]))
    finally:
        server.send_signal(signal.SIGTERM)
        await server.wait()


# --- burst mode ---------------------------------------------------------------------------------------

def client_address(index: int) -> str:
    """A loopback address of its own for the ``index``-th client (127.1.x.y): the door's per-address limits
    see as many people as there are sessions."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


def smaps(pid: int) -> tuple[int, int]:
    """(USS, PSS) of a process in KiB: its private pages, and its pages with the shared ones split among
    the processes sharing them."""
    fields = {}
    try:
        for line in pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
            name, value = line.split(":", 1)
            fields[name] = int(value.split()[0])
    except (FileNotFoundError, ProcessLookupError, ValueError):
        return 0, 0
    return fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0), fields.get("Pss", 0)


def door_processes(server_pid: int) -> tuple[list[int], list[int]]:
    """(the guests' apps, the zygote if any) under a door."""
    guests, zygotes = [], []
    for child in _children(server_pid):
        try:
            command = pathlib.Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if b"tui.startup.zygote" in command:
            zygotes.append(child)
            guests += _children(child)
        else:
            guests.append(child)
    return guests, zygotes


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user and system, every thread) the processes have used so far, in all."""
    return sum(cpu_of(pid) for pid in pids)


def cpu_of(pid: int) -> float:
    """CPU time (user and system, every thread) one process has used so far; 0 once it is gone."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    """This process's CPU time so far: the benchmark's own clients."""
    times = os.times()
    return times.user + times.system


def cpu_line(guests: list[int], door: float, clients: float) -> str:
    """Where a burst's CPU went: each guest's (from its fork or start to now, at its menu), the door's and
    the clients' (this process) over the burst."""
    each = sorted(cpu_of(pid) for pid in guests)
    if not each:
        return "  CPU: no guests"
    return (f"  CPU: each guest to its menu median {statistics.median(each) * 1000:.0f} ms, most "
            f"{each[-1] * 1000:.0f} ms ({sum(each):.1f} s in all); the door {door:.1f} s; the clients {clients:.1f} s")


async def wait_for_guests(server_pid: int, count: int) -> None:
    async def poll() -> None:
        while len(door_processes(server_pid)[0]) != count:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), GUARD)


def memory_line(label: str, pids: list[int]) -> str:
    figures = [smaps(pid) for pid in pids]
    uss = [u for u, _ in figures]
    pss = [p for _, p in figures]
    if not pids:
        return f"  {label}: none"
    return (f"  {label}: USS {statistics.median(uss) / 1024:.1f} MiB, PSS {statistics.median(pss) / 1024:.1f} MiB "
            f"each (median of {len(pids)}); {sum(uss) / 1024:.0f} MiB USS in all")


#: The two ways a door starts its guests, and the door's options for each (``--modes``).
MODES = {"fresh": ("fresh start", ("--no-warm-pool",)), "warm": ("warm pool", ())}


async def burst(sizes: list[int], idle: int, idle_seconds: float, modes: list[str], at_table: int = 0) -> None:
    folder = pathlib.Path(tempfile.mkdtemp(prefix="turpin-bench-ssh-burst-"))
    biggest = max([*sizes, idle, 1]) + 10
    limits = ("--max-sessions", str(biggest), "--sessions-per-address", "10")
    print("SSH door, burst mode: N sessions started together, each from its own 127.1.x.y address; 80×24")
    print(f"  load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    for mode, options in (MODES[name] for name in modes):
        await local_launch(folder)  # page in
        baseline = [(await local_launch(folder))[0] for _ in range(3)]
        local = statistics.median(baseline)
        print(f"{mode}: lone local launch (baseline, this moment) {local * 1000:.0f} ms; load {os.getloadavg()[0]:.2f}")
        server, port = await start_server(folder, *options, *limits)
        try:
            warmup = await Session().open(port, "warmup", client_address(0))
            await warmup.close()
            await wait_for_guests(server.pid, 0)
            for size in sizes:
                door_cpu, clients_cpu = cpu_of(server.pid), own_cpu()
                started = time.perf_counter()
                sessions = await asyncio.gather(*(Session().open(port, f"b{i}", client_address(i + 1))
                                                  for i in range(size)))
                everyone = time.perf_counter() - started
                door_cpu, clients_cpu = cpu_of(server.pid) - door_cpu, own_cpu() - clients_cpu
                times = [session.seconds for session in sessions]
                guests, zygotes = door_processes(server.pid)
                burst_cpu = cpu_line(guests, door_cpu, clients_cpu)
                late = await Session().open(port, "late", client_address(size + 1))
                print(f"  N={size:<3} menus: median {statistics.median(times) * 1000:6.0f} ms "
                      f"({statistics.median(times) / local:.2f}× local), slowest {max(times) * 1000:6.0f} ms, all "
                      f"in {everyone:.1f} s; one more then {late.seconds * 1000:.0f} ms "
                      f"({late.seconds / local:.2f}× local); load {os.getloadavg()[0]:.2f}")
                print(burst_cpu)
                print(memory_line(f"N={size} guests at their menus", guests))
                if Session.retries:
                    print(f"  ({Session.retries} logins were turned away by the door's limit on logins at once "
                          "and tried again 0.2 s later; their time counts from the first try)")
                    Session.retries = 0
                if zygotes:
                    print(memory_line("the zygote", zygotes))
                await asyncio.gather(*(s.close() for s in [*sessions, late]))
                await wait_for_guests(server.pid, 0)
            if at_table:
                seated = await asyncio.gather(*(Session().open(port, f"t{i}", client_address(i + 1))
                                                for i in range(at_table)))
                await asyncio.gather(*(session.sit_down() for session in seated))
                await asyncio.sleep(2.0)  # a few moves: the bots play on, as at any table
                print(memory_line(f"{at_table} guests at a table against bots", door_processes(server.pid)[0]))
                await asyncio.gather(*(s.close() for s in seated))
                await wait_for_guests(server.pid, 0)
            if idle and mode == "warm pool":
                crowd: list[Session] = []
                for start in range(0, idle, 10):
                    crowd += await asyncio.gather(*(Session().open(port, f"i{i}", client_address(i + 1))
                                                    for i in range(start, min(idle, start + 10))))
                guests, _ = door_processes(server.pid)
                await asyncio.sleep(2.0)  # let the last menus settle
                before = cpu_seconds(guests)
                await asyncio.sleep(idle_seconds)
                spent = cpu_seconds(guests) - before
                print(memory_line(f"{idle} idle guests", guests))
                print(f"  {idle} idle guests' CPU: {spent / idle_seconds:.2f} cores over {idle_seconds:g} s")
                late = await Session().open(port, "late", client_address(idle + 1))
                print(f"  one more while {idle} sit at their menus: {late.seconds * 1000:.0f} ms "
                      f"({late.seconds / local:.2f}× local); load {os.getloadavg()[0]:.2f}")
                await asyncio.gather(*(s.close() for s in [*crowd, late]))
        finally:
            server.send_signal(signal.SIGTERM)
            await server.wait()
    print(f"  load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--concurrent", type=int, default=20)
    parser.add_argument("--burst", type=int, nargs="+", metavar="N", help="burst mode with these sizes")
    parser.add_argument("--idle", type=int, default=0, metavar="N", help="burst mode: N idle guests (warm)")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--at-table", type=int, default=0, metavar="N",
                        help="burst mode: N more guests sit down at a table against bots; their memory then")
    parser.add_argument("--modes", nargs="+", choices=sorted(MODES), default=["fresh", "warm"],
                        help="burst mode: which doors to measure, in this order")
    arguments = parser.parse_args()
    if arguments.burst:
        asyncio.run(burst(arguments.burst, arguments.idle, arguments.idle_seconds, arguments.modes,
                          arguments.at_table))
    else:
        asyncio.run(main(arguments.rounds, arguments.concurrent))
