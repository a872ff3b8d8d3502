"""One guest's app on its own pseudo-terminal: started (forked from the warm pool, or a fresh Python) in
its own session and process group with the pty as its controlling terminal, the bytes copied both ways,
resizes passed on, and its ending.

What must hold: the app's whole process group ends with the session (SIGHUP, then SIGKILL after the
grace), whether the client left, the session idled out or the door closed; the window is never bigger
than the settings allow; the client's terminal is reset when the door ends the app itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import os
import pathlib
import pty
import signal
import struct
import termios

import asyncssh

from net.client import describe_duration
from net.pool import PooledProcess, WarmPool, pooled_argv
from net.ssh.settings import SSHSettings, private_folder, session_env, terminal_type

#: What the app must not leave behind on a client's terminal when we end it ourselves: the alternate
#: screen, a hidden cursor, mouse reporting, bracketed paste and focus events.
TERMINAL_RESET = (b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
                  b"\x1b[?2004l\x1b[?1004l\x1b[0m")


@dataclasses.dataclass
class SessionInfo:
    """One live SSH session: who, from where, and the app process serving it."""

    user: str
    peer: str
    pid: int
    terminal: str


def set_window_size(descriptor: int, columns: int, rows: int, pixel_width: int = 0, pixel_height: int = 0,
                    largest: tuple[int, int] = (500, 200)) -> None:
    """TIOCSWINSZ on a pty, at most ``largest`` (columns, rows): the kernel tells the app's process group
    with SIGWINCH. A client asking for more gets the largest (the app would draw all it asks for: a
    10000×10000 window took gigabytes), and no pixel size, which would not match."""
    capped = columns > largest[0] or rows > largest[1]
    columns, rows = min(max(columns, 1), largest[0]), min(max(rows, 1), largest[1])
    if capped or not (0 <= pixel_width <= 65535 and 0 <= pixel_height <= 65535):
        pixel_width = pixel_height = 0
    packed = struct.pack("HHHH", rows, columns, pixel_width, pixel_height)
    fcntl.ioctl(descriptor, termios.TIOCSWINSZ, packed)


def _take_terminal() -> None:
    """In the child, after setsid: make the pty (fd 0) our controlling terminal, so resizes reach us."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


async def group_gone(group: int, limit: float = 1.0) -> None:
    """Wait (at most ``limit`` seconds) until no process of ``group`` is left: SIGKILL returns at once, but
    a helper the app started dies a moment later."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while loop.time() < deadline:
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return
        await asyncio.sleep(0.01)


#: Output of at least this many bytes at once is news on the screen (a table update), which keeps a
#: session from idling out; a blinking cursor writes a few bytes, and an abandoned window should still go.
SCREEN_NEWS_BYTES = 256


class AppSession:
    """One SSH session's app: a child process on a pty, with the copying both ways and its ending."""

    def __init__(self, process: asyncssh.SSHServerProcess, child: asyncio.subprocess.Process | PooledProcess,
                 master: int, settings: SSHSettings, info: SessionInfo) -> None:
        self.process = process
        self.child = child
        self.master = master
        self.settings = settings
        self.info = info
        self._idle_timer: asyncio.TimerHandle | None = None
        self._stopped = asyncio.Event()
        self._finished = asyncio.Event()
        self._reset_terminal = False
        self._goodbye: str | None = None

    @classmethod
    async def start(cls, process: asyncssh.SSHServerProcess, settings: SSHSettings,
                    identity: str | None = None, pool: WarmPool | None = None) -> AppSession:
        """Open a pty at the client's window size and start the app on it, in its own session: forked
        from the warm ``pool`` when it runs, else a fresh Python."""
        user = process.get_extra_info("username") or "player"
        peer = process.get_extra_info("peername")
        term = terminal_type(process.get_terminal_type())
        environment = session_env(settings, user, term, identity)
        private_folder(pathlib.Path(environment["TURPIN_SEATS_FILE"]).parent)  # guests' files: each his own
        private_folder(pathlib.Path(environment["TURPIN_RECORDS_DIR"]))
        os.chmod(pathlib.Path(environment["TURPIN_RECORDS_DIR"]).parent, 0o700)
        master, slave = pty.openpty()
        try:
            columns, rows, pixel_width, pixel_height = process.get_terminal_size()
            set_window_size(slave, columns or 80, rows or 24, pixel_width, pixel_height, settings.max_terminal)
            command = list(settings.command(user))
            forked = pooled_argv(command) if pool is not None and pool.available else None
            child: asyncio.subprocess.Process | PooledProcess | None = None
            if pool is not None and forked is not None:
                with contextlib.suppress(OSError):  # the pool has stopped: start afresh, as without it
                    child = await pool.spawn(forked, (slave, slave, slave), environment, environment["HOME"],
                                             new_session=True, controlling_terminal=True)
            if child is None:
                child = await asyncio.create_subprocess_exec(
                    *command, stdin=slave, stdout=slave, stderr=slave, env=environment,
                    cwd=environment["HOME"], start_new_session=True, preexec_fn=_take_terminal)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        info = SessionInfo(user=user, peer=str(peer[0]) if peer else "?", pid=child.pid, terminal=term)
        return cls(process, child, master, settings, info)

    async def run(self) -> None:
        """Copy both ways until the app ends, the client goes, the session idles out or the door closes."""
        self._touch()
        to_client = asyncio.create_task(self._copy_app_to_client())
        to_app = asyncio.create_task(self._copy_client_to_app())
        stopped = asyncio.create_task(self._stopped.wait())
        try:
            await asyncio.wait({to_client, to_app, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (to_app, stopped):
                task.cancel()
            await self._end_app()
            if not to_client.done():
                to_client.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await to_client
            self._close_master()
            if self._idle_timer is not None:
                self._idle_timer.cancel()
            if self._reset_terminal:
                with contextlib.suppress(Exception):
                    self.process.stdout.write(TERMINAL_RESET)
            self._exit_channel()
            self._finished.set()

    def stop(self, reset_terminal: bool = False) -> None:
        """Ask the session to end now (server stop), restoring the client's terminal if asked."""
        self._reset_terminal = self._reset_terminal or reset_terminal
        self._stopped.set()

    async def end(self, reset_terminal: bool = False) -> None:
        """Stop the session; returns once its app's whole process group is gone."""
        self.stop(reset_terminal)
        await self._finished.wait()

    def _touch(self) -> None:
        """The client did something: push the idle deadline back."""
        if self.settings.idle_timeout is None:
            return
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        self._idle_timer = asyncio.get_running_loop().call_later(self.settings.idle_timeout, self._idle_out)

    def _idle_out(self) -> None:
        self._reset_terminal = True
        quiet = describe_duration(self.settings.idle_timeout or 0)
        self._goodbye = f"turpin: no key pressed and nothing new on the screen for {quiet}; goodbye."
        self._stopped.set()

    async def _copy_app_to_client(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            readable = loop.create_future()
            loop.add_reader(self.master, _wake, readable)
            try:
                await readable
            finally:
                loop.remove_reader(self.master)
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                continue
            except OSError:  # EIO: every copy of the slave is closed, the app is gone
                return
            if not data:
                return
            if len(data) >= SCREEN_NEWS_BYTES:
                self._touch()  # a game going on: a spectator presses no key, and must not be cut off mid-game
            self.process.stdout.write(data)
            await self.process.stdout.drain()

    async def _copy_client_to_app(self) -> None:
        while True:
            try:
                data = await self.process.stdin.read(65536)
            except asyncssh.TerminalSizeChanged as change:
                self._touch()
                set_window_size(self.master, change.width, change.height, change.pixwidth, change.pixheight,
                                self.settings.max_terminal)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            if not data:  # the client closed its input or the connection is gone
                return
            self._touch()
            await self._write_to_app(data)

    async def _write_to_app(self, data: bytes) -> None:
        """Write all of ``data`` to the pty, waiting when the app has not read what it has yet."""
        loop = asyncio.get_running_loop()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                writable = loop.create_future()
                loop.add_writer(self.master, _wake, writable)
                try:
                    await writable
                finally:
                    loop.remove_writer(self.master)

    async def _end_app(self) -> None:
        """SIGHUP the app's process group, as a hung-up terminal would; SIGKILL what outlives the grace."""
        group = self.child.pid  # setsid made the child its session's and group's leader
        if self.child.returncode is None:
            for signal_number in (signal.SIGHUP, signal.SIGCONT):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(group, signal_number)
            try:
                await asyncio.wait_for(self.child.wait(), self.settings.stop_grace)
            except asyncio.TimeoutError:
                pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)  # the app's helpers too, even if the app itself ended
        await self.child.wait()
        await group_gone(group)

    def _close_master(self) -> None:
        if self.master >= 0:
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = -1

    def _exit_channel(self) -> None:
        with contextlib.suppress(Exception):
            if self._goodbye:
                self.process.stdout.write(self._goodbye.encode() + b"\r\n")
            status = self.child.returncode
            self.process.exit(status if status is not None and status >= 0 else 1)


def _wake(future: asyncio.Future[None]) -> None:
    """A file descriptor is ready: whoever awaits ``future`` goes on (once, however often it is called)."""
    if not future.done():
        future.set_result(None)
