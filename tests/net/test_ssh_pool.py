"""The SSH door's warm pool: sessions forked from one pre-loaded zygote instead of a fresh Python.

The probe (``tests/ssh_probe.py``) tells what process, environment, folder and descriptors a session got,
forked or fresh; the real app over the pool is checked to reach its menu on its pty.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pathlib
import re
import signal
import sys

import pytest

from net.pool import WarmPool, pooled_argv
from net.ssh import SSHSettings, app_command, pool_env
from tests.net_helpers import WAIT
from tests.ssh_helpers import connect, front_door, read_until, running, start_probe
from tests.waiting import until


def parent_of(pid: int) -> int:
    return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def memory_holds(pid: int, needle: bytes) -> bool:
    """Whether ``needle`` is anywhere in the process's readable memory, freed memory included (a string
    read and dropped stays in its pages until they are written again)."""
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as memory:
        for line in maps:
            fields = line.split()
            if not fields[1].startswith("r") or (len(fields) > 5 and fields[5] in ("[vvar]", "[vsyscall]")):
                continue
            start, end = (int(address, 16) for address in fields[0].split("-"))
            memory.seek(start)
            try:
                if needle in memory.read(end - start):
                    return True
            except OSError:  # a mapping that cannot be read (a guard page)
                continue
    return False


def environment_of(pid: int) -> dict[str, str]:
    """The environment a process was started with (the zygote's: what every guest's memory starts from)."""
    raw = pathlib.Path(f"/proc/{pid}/environ").read_bytes()
    return dict(entry.split("=", 1) for entry in raw.decode("utf-8", "replace").split("\0") if "=" in entry)


@pytest.fixture(autouse=True)
def _linux_only():
    if not hasattr(os, "fork") or not pathlib.Path("/proc/self/stat").exists():
        pytest.skip("the warm pool needs fork() and /proc to be checked here")


async def test_a_forked_session_gets_the_same_process_environment_and_folder_as_a_fresh_one(tmp_path):
    seen = {}
    for pooled in (True, False):
        async with front_door(tmp_path, warm_pool=pooled, join="127.0.0.1:4707", join_code="K7QX2M") as door:
            assert door.pool_state.startswith("warm" if pooled else "fresh")
            async with connect(door, username="-rm -rf ~") as conn:
                _, facts = await start_probe(conn, size=(132, 43), env={"LD_PRELOAD": "/tmp/evil.so"})
            zygote = door.pool.zygote_pid if pooled else None
        assert facts["parent"] == (zygote if pooled else os.getpid())  # forked by the zygote, or by the door
        assert facts["pid"] not in (zygote, os.getpid())  # its own process all the same
        seen[pooled] = facts
    forked, fresh = seen[True], seen[False]
    for fact in ("argv", "env", "size", "cwd", "controlling_tty"):
        assert forked[fact] == fresh[fact], fact
    assert forked["pid"] == forked["group"] == forked["session"]  # setsid, as a fresh start does
    assert forked["cwd"] == forked["env"]["HOME"]
    # nothing of the zygote's (its socket to the door, other guests' sessions) is left open in a guest:
    # the same descriptors as a fresh Python's
    assert forked["descriptors"] == fresh["descriptors"]


async def test_the_zygote_holds_no_guests_environment_and_forks_before_reading_a_session(tmp_path):
    async with front_door(tmp_path) as door:
        zygote = environment_of(door.pool.zygote_pid)
        assert "TURPIN_SEATS_FILE" not in zygote and "TURPIN_RECORDS_DIR" not in zygote
        assert set(zygote) <= set(pool_env(door.settings)) | {"PWD"}
        async with connect(door, username="alice") as conn:
            _, alice = await start_probe(conn)
        async with connect(door, username="bob") as conn:
            _, bob = await start_probe(conn)
        # bob's process was forked from a zygote that never read alice's request: it starts from the
        # zygote's environment, and alice's name is nowhere in what it began with
        assert "alice" not in pathlib.Path(f"/proc/{bob['pid']}/environ").read_bytes().decode("utf-8", "replace")
        assert bob["env"]["TURPIN_SEATS_FILE"] != alice["env"]["TURPIN_SEATS_FILE"]


async def test_the_real_app_forked_from_the_pool_reaches_its_menu_on_its_pty(tmp_path):
    async with front_door(tmp_path, command=app_command, extra_env={"TURPIN_LAN": "off"}) as door:
        assert door.pool.available
        async with connect(door, username="carol") as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            await read_until(process, "Play against bots")
            (session,) = door.sessions
            assert parent_of(session.pid) == door.pool.zygote_pid and session.pid != door.pool.zygote_pid
            assert os.readlink(f"/proc/{session.pid}/fd/0").startswith("/dev/pts/")
            # named for what it is in ps and top, not after the zygote
            assert pathlib.Path(f"/proc/{session.pid}/comm").read_text().strip() == "turpin guest"
            assert pathlib.Path(f"/proc/{door.pool.zygote_pid}/comm").read_text().strip() == "turpin zygote"

            process.stdin.write(b"\x11")  # Ctrl+Q: the app quits, and the session ends with it
            result = await asyncio.wait_for(process.wait(), WAIT)
            assert result.exit_status == 0


async def test_no_guest_ever_holds_another_guests_name_or_folders_nor_does_the_zygote(tmp_path):
    """The real app, for two guests one after the other: the first one's name and folders are in his own
    process's memory, and nowhere in the zygote's, nor in the second guest's, forked after him."""
    marker = "zq7k3mxv"  # in alice's user name, and so in her environment and her folders' names
    async with front_door(tmp_path, command=app_command, extra_env={"TURPIN_LAN": "off"}) as door:
        zygote = door.pool.zygote_pid
        assert not memory_holds(zygote, marker.encode())
        async with connect(door, username=f"alice{marker}") as alice_conn, connect(door, username="bob") as bob_conn:
            alice = await alice_conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            await read_until(alice, "Play against bots")
            (alice_pid,) = [session.pid for session in door.sessions]
            bob = await bob_conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            await read_until(bob, "Play against bots")
            (bob_pid,) = [session.pid for session in door.sessions if session.pid != alice_pid]
            assert parent_of(bob_pid) == parent_of(alice_pid) == zygote
            assert memory_holds(alice_pid, marker.encode())  # the scan finds what is there
            assert not memory_holds(zygote, marker.encode())
            assert not memory_holds(bob_pid, marker.encode())
            # the menu the zygote drew once before forking left no thread behind in it (a fork would copy
            # a lock such a thread held, held, into every guest)
            assert os.listdir(f"/proc/{zygote}/task") == [str(zygote)]


async def test_one_guest_crashing_takes_down_neither_the_zygote_nor_the_other_guests(tmp_path):
    async with front_door(tmp_path) as door:
        zygote = door.pool.zygote_pid
        async with contextlib.AsyncExitStack() as stack:
            conns = [await stack.enter_async_context(connect(door, username=f"p{i}")) for i in range(3)]
            started = [await start_probe(conn) for conn in conns]
            (doomed, doomed_facts), *others = started
            doomed.stdin.write(b"crash\r")  # SIGSEGV in that guest's process
            result = await asyncio.wait_for(doomed.wait(), WAIT)
            assert result.exit_status != 0
            assert running(zygote)
            for i, (process, _) in enumerate(others):
                process.stdin.write(f"still{i}\r".encode())
                await read_until(process, rf"ANSWER {f'still{i}'[::-1]}")
            # and the next guest is forked as before
            async with connect(door, username="late") as conn:
                _, late = await start_probe(conn)
            assert late["parent"] == zygote


async def test_a_dead_zygote_leaves_its_guests_playing_and_is_started_again(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door, username="early") as conn:
            early, early_facts = await start_probe(conn)
            first = door.pool.zygote_pid
            os.kill(first, signal.SIGKILL)
            early.stdin.write(b"alive\r")
            await read_until(early, "ANSWER evila")  # its guests play on, orphaned
            await until(lambda: door.pool.available and door.pool.zygote_pid != first,
                             "a new zygote is started")
            async with connect(door, username="late") as late_conn:
                _, late = await start_probe(late_conn)
            assert late["parent"] == door.pool.zygote_pid
    assert not running(early_facts["pid"])  # the orphaned guest still ends with the door (its group is killed)


async def test_while_the_zygote_is_down_for_good_sessions_start_afresh_and_the_banner_says_why(tmp_path):
    from tui.cli.serve_ssh import describe
    async with front_door(tmp_path) as door:
        door.pool._restarts_left = 0  # as after a zygote that keeps dying
        zygote = door.pool.zygote_pid
        os.kill(zygote, signal.SIGKILL)
        await until(lambda: not door.pool.available, "the pool notices its zygote ended")
        async with connect(door, username="late") as conn:
            _, late = await start_probe(conn)
        assert late["parent"] == os.getpid()  # a fresh start, as without a pool
        assert any("sessions start fresh" in line and "stopped" in line for line in describe(door))


async def test_with_the_pool_off_every_session_is_a_fresh_python_and_the_banner_says_so(tmp_path):
    from tui.cli.serve_ssh import describe
    async with front_door(tmp_path, warm_pool=False) as door:
        assert door.pool is None
        async with connect(door) as conn:
            _, facts = await start_probe(conn)
        assert facts["parent"] == os.getpid()
        assert any("fresh" in line and "warm pool is off" in line for line in describe(door))
    async with front_door(tmp_path) as door:
        assert any("sessions start warm" in line for line in describe(door))


async def test_a_zygote_that_cannot_start_leaves_the_door_serving_fresh_and_saying_why(tmp_path):
    pool = WarmPool({"PATH": os.defpath}, command=[sys.executable, "-c", "raise SystemExit(3)"])
    await pool.start()
    assert not pool.available and "did not start" in pool.reason
    async with front_door(tmp_path) as door:
        await door.pool.close()
        door.pool = pool  # as if the zygote had failed at the door's start
        assert re.search(r"fresh \(a new Python per session: the warm pool did not start", door.pool_state)
        async with connect(door) as conn:
            _, facts = await start_probe(conn)
        assert facts["parent"] == os.getpid()


def test_only_this_interpreter_running_a_module_or_a_script_is_forked():
    assert pooled_argv(app_command("ann")) == ["-m", "tui", "--name=ann"]
    assert pooled_argv([sys.executable, "probe.py", "--x"]) == ["probe.py", "--x"]
    assert pooled_argv(["/usr/bin/other-python", "-m", "tui"]) is None
    assert pooled_argv([sys.executable, "-X", "dev", "-m", "tui"]) is None  # interpreter options: fresh
    assert pooled_argv([sys.executable, "-m"]) is None
    assert SSHSettings().warm_pool  # on by default
