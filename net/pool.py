"""The warm pool: a door's guests forked from one process that has imported the app already.

A door (``net/ssh/``, ``net/web.py``) that starts a ``WarmPool`` gets a *zygote* (``python -m
tui.startup.zygote``): a process that imported Textual and turpin's app once, drew a guest's menu once
headless (nobody's: in an empty folder), froze those objects for the garbage collector, and waits.
``spawn`` hands it a session's descriptors (the pty for SSH, the pipes for a web tab) over a Unix socket
(SCM_RIGHTS); it forks, and the child, not the zygote, reads the session's command, environment and
folder, then becomes what ``python -m tui …`` would have been on those descriptors. Each guest is still
its own process, in its own session if asked, with its own environment and folders; only the unchanged
pages of code are shared, copy-on-write.

Where fork or descriptor passing is missing, or the zygote cannot start, ``available`` is False and
``reason`` says why: the door then starts every guest afresh, as before, and says so in its banner.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import socket
import sys
from typing import Mapping, Sequence

#: The zygote a door starts: the app's own fork server (tui/ is where the app is; net/ only names it).
ZYGOTE_COMMAND = (sys.executable, "-m", "tui.startup.zygote")
#: How long the zygote may take to import the app before the door gives up on it and starts guests afresh.
ZYGOTE_START_SECONDS = 60.0
#: How many times a door starts its zygote again after it ended (killed, or out of memory); past that,
#: every guest starts afresh until the door restarts.
ZYGOTE_RESTARTS = 3
_MESSAGE_LIMIT = 4096


def pool_unavailable_reason() -> str | None:
    """Why this system cannot run a warm pool, or None if it can."""
    if not hasattr(os, "fork"):
        return "this system has no fork()"
    if not hasattr(socket, "send_fds") or not hasattr(socket, "AF_UNIX"):
        return "this system cannot pass descriptors over a Unix socket"
    if not hasattr(socket, "SOCK_SEQPACKET"):
        return "this system has no Unix SOCK_SEQPACKET sockets"
    return None


def pooled_argv(command: Sequence[str]) -> list[str] | None:
    """What a zygote runs for ``command`` (``["-m", module, *args]`` or ``[script, *args]``), or None if the
    command is not this very interpreter running a module or a script with no interpreter options."""
    if len(command) < 2 or command[0] != sys.executable:
        return None
    if command[1] == "-m":
        return list(command[1:]) if len(command) >= 3 else None
    if command[1].startswith("-"):
        return None
    return list(command[1:])


class PooledProcess:
    """A guest forked by the zygote: its pid, and its exit status once the zygote reaped it (negative for
    a signal, as ``asyncio.subprocess.Process`` has it)."""

    def __init__(self, pid: int, session: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._session = session
        self._ended = asyncio.Event()
        self._watch = asyncio.get_running_loop().create_task(self._wait_for_exit())

    async def wait(self) -> int:
        """Wait until the guest has ended; its status."""
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode

    async def _wait_for_exit(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                try:
                    data = await loop.sock_recv(self._session, _MESSAGE_LIMIT)
                except OSError:
                    data = b""
                if not data:
                    break
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    status = json.loads(data).get("exit")
                    if isinstance(status, int):
                        self.returncode = status
            if self.returncode is None:  # the zygote is gone: the guest lives on, orphaned, until it ends
                while _alive(self.pid):
                    await asyncio.sleep(0.05)
                self.returncode = -9
        finally:
            self._session.close()
            self._ended.set()


class PipedProcess:
    """A pooled guest on pipes, with what ``asyncio.subprocess.Process`` offers a caller: ``stdin`` (a
    StreamWriter), ``stdout`` and ``stderr`` (StreamReaders), ``pid``, ``returncode`` and ``wait``."""

    def __init__(self, child: PooledProcess, stdin: asyncio.StreamWriter, stdout: asyncio.StreamReader,
                 stderr: asyncio.StreamReader) -> None:
        self._child = child
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.pid = child.pid

    @property
    def returncode(self) -> int | None:
        return self._child.returncode

    async def wait(self) -> int:
        return await self._child.wait()

    @classmethod
    async def attach(cls, child: PooledProcess, stdin: int, stdout: int, stderr: int) -> PipedProcess:
        loop = asyncio.get_running_loop()
        readers = []
        for fd in (stdout, stderr):
            reader = asyncio.StreamReader(limit=2**16, loop=loop)
            await loop.connect_read_pipe(functools.partial(asyncio.StreamReaderProtocol, reader, loop=loop),
                                         os.fdopen(fd, "rb", buffering=0))
            readers.append(reader)
        transport, protocol = await loop.connect_write_pipe(lambda: asyncio.streams.FlowControlMixin(loop=loop),
                                                            os.fdopen(stdin, "wb", buffering=0))
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
        return cls(child, writer, *readers)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead: its parent (not us) has yet to reap it
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return True


class WarmPool:
    """A door's zygote, and the guests it forks."""

    def __init__(self, environment: Mapping[str, str], command: Sequence[str] = ZYGOTE_COMMAND) -> None:
        #: The zygote's own environment: only what every guest of the door shares (no guest's name,
        #: folder or files); each guest gets its own environment from ``spawn``.
        self.environment = dict(environment)
        self.command = list(command)
        self.reason: str | None = pool_unavailable_reason()
        self.zygote_pid: int | None = None
        self._control: socket.socket | None = None
        self._zygote: asyncio.subprocess.Process | None = None
        self._restarts_left = ZYGOTE_RESTARTS
        self._restarting: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def available(self) -> bool:
        """The zygote is up and forks guests."""
        return self._control is not None and self.reason is None

    async def start(self) -> None:
        """Start the zygote and wait until it has imported the app; on any failure ``reason`` says why."""
        if self.reason is not None:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._zygote = await asyncio.create_subprocess_exec(
                *self.command, str(theirs.fileno()), pass_fds=(theirs.fileno(),), env=self.environment,
                cwd="/", stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            ours.close()
            self.reason = f"the warm pool could not start: {error}"
            return
        finally:
            theirs.close()
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            data = await asyncio.wait_for(loop.sock_recv(ours, _MESSAGE_LIMIT), ZYGOTE_START_SECONDS)
            hello = json.loads(data) if data else {}
        except (asyncio.TimeoutError, OSError, ValueError):
            hello = {}
        if not isinstance(hello, dict) or not isinstance(hello.get("ready"), int):
            failure = hello.get("failed") if isinstance(hello, dict) else None
            last = str(failure).strip().splitlines()[-1:] if failure else []
            self.reason = "the warm pool did not start" + (f": {last[0]}" if last else "")
            ours.close()
            await self._end_zygote()
            return
        ours.setblocking(True)  # requests are one small packet each; the zygote takes them at once
        self._control = ours
        self.zygote_pid = hello["ready"]
        loop.create_task(self._watch(self._zygote))

    async def _watch(self, zygote: asyncio.subprocess.Process) -> None:
        """Notice the zygote's end at once (not at the next guest's start), to start a new one."""
        await zygote.wait()
        if not self._closed and self._zygote is zygote and self._control is not None:
            self._stopped(f"the warm pool stopped (its zygote ended with status {zygote.returncode})")

    async def spawn(self, argv: Sequence[str], stdio: Sequence[int], env: Mapping[str, str], cwd: str, *,
                    new_session: bool = False, controlling_terminal: bool = False) -> PooledProcess:
        """Fork a guest running ``argv`` (see ``pooled_argv``) on ``stdio`` (stdin, stdout, stderr), with
        exactly ``env`` as its environment and ``cwd`` as its folder; in a session of its own with
        ``stdio[0]`` as its controlling terminal if asked. OSError if the zygote is gone."""
        if self._control is None:
            raise OSError("the warm pool is not running")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            request = json.dumps({"argv": list(argv), "env": dict(env), "cwd": cwd, "new_session": new_session,
                                  "controlling_terminal": controlling_terminal}).encode()
            ours.send(request)  # waits in the socket for the child: the zygote never reads it
            try:
                socket.send_fds(self._control, [b"F"], [theirs.fileno(), *stdio])
            except OSError as error:
                self._stopped(f"the warm pool stopped ({error.strerror or error})")
                raise
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            data = await loop.sock_recv(ours, _MESSAGE_LIMIT)
            answer = json.loads(data) if data else {}
            pid = answer.get("pid")
        except (OSError, ValueError, AttributeError):
            data, pid = b"", None
        if not isinstance(pid, int):
            ours.close()
            if not data:  # the zygote died with the request in hand
                self._stopped("the warm pool stopped (its zygote ended)")
            raise OSError("the warm pool did not start the game")
        return PooledProcess(pid, ours)

    async def spawn_on_pipes(self, argv: Sequence[str], env: Mapping[str, str], cwd: str,
                             new_session: bool = True) -> PipedProcess:
        """``spawn`` with new pipes as the guest's stdin, stdout and stderr, as
        ``asyncio.create_subprocess_exec(..., stdin=PIPE, stdout=PIPE, stderr=PIPE)`` gives them."""
        pipes = [os.pipe() for _ in range(3)]  # (read, write) each
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            child = await self.spawn(argv, theirs, env, cwd, new_session=new_session)
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        return await PipedProcess.attach(child, *ours)

    def _stopped(self, reason: str) -> None:
        """The zygote is gone: guests start afresh meanwhile, and a new zygote is started (a few times)."""
        self.reason = reason
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._restarts_left > 0 and self._restarting is None and not self._closed:
            self._restarts_left -= 1
            self._restarting = asyncio.get_running_loop().create_task(self._restart())

    async def _restart(self) -> None:
        try:
            await self._end_zygote()
            if not self._closed:
                self.reason = None
                await self.start()
        finally:
            self._restarting = None

    async def close(self) -> None:
        """Stop the zygote (the guests it forked are the door's to end, and go on until it does)."""
        self._closed = True
        if self._restarting is not None:
            self._restarting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restarting
        if self._control is not None:
            self._control.close()
            self._control = None
        await self._end_zygote()

    async def _end_zygote(self) -> None:
        zygote, self._zygote = self._zygote, None
        if zygote is None:
            return
        if zygote.returncode is None:
            try:
                await asyncio.wait_for(zygote.wait(), 5.0)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    zygote.kill()
                await zygote.wait()
