"""What the SSH door's tests share: a door on 127.0.0.1 whose sessions run the probe
(``tests/ssh_probe.py``), an asyncssh client to it, and waits on what a session says."""

from __future__ import annotations

import asyncio
import contextlib
import json
import pathlib
import re
import sys

import asyncssh

from net.ssh import SSHFrontDoor, SSHSettings
from tests.waiting import WAIT

PROBE = pathlib.Path(__file__).with_name("ssh_probe.py")
PASSWORD = "open-sesame"


def probe_command(user: str) -> list[str]:
    return [sys.executable, str(PROBE), f"--name={user}"]


def probe_with_grandchild(user: str) -> list[str]:
    return [sys.executable, str(PROBE), f"--name={user}", "--grandchild"]


@contextlib.asynccontextmanager
async def front_door(tmp_path: pathlib.Path, **changes):
    settings = dict(port=0, interface="127.0.0.1", auth="password", password=PASSWORD, data_dir=tmp_path,
                    command=probe_command, wrong_password_delay=0.01, stop_grace=5.0, name_passphrases=False)
    settings.update(changes)
    door = SSHFrontDoor(SSHSettings(**settings))
    await door.start()
    try:
        yield door
    finally:
        await door.close()


def connect(door: SSHFrontDoor, username: str = "alice", **options):
    host, port = door.address
    options.setdefault("password", PASSWORD)
    options.setdefault("client_keys", None)
    return asyncssh.connect(host, port, username=username, known_hosts=None, agent_path=None, **options)


async def read_until(process: asyncssh.SSHClientProcess, pattern: str) -> re.Match:
    """Read the session's output until ``pattern`` shows up in it (output before the match is dropped)."""
    seen = b""
    while True:
        match = re.search(pattern.encode(), seen)
        if match:
            return match
        chunk = await asyncio.wait_for(process.stdout.read(4096), WAIT)
        assert chunk, f"the session ended before {pattern!r}; it said {seen!r}"
        seen += chunk


async def start_probe(conn, size=(80, 24), **options) -> tuple[asyncssh.SSHClientProcess, dict]:
    """A terminal session, and the facts its probe reported."""
    process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None, **options)
    match = await read_until(process, r"READY (\{.*\})\r\n")
    return process, json.loads(match.group(1))


def running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie nobody reaped counts as gone)."""
    try:
        state = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")
