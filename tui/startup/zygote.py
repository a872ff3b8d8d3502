"""The warm pool's zygote: a process that has imported Textual and the app once, and forks a guest's app
for each session a door (``net/pool.py``) hands it.

Run as ``python -m tui.startup.zygote FD`` by a door, FD being its end of a SOCK_SEQPACKET socket pair. It imports
what the menu needs, draws the menu once headless (``tui/startup/warm_up.py``), freezes the garbage
collector's view of those objects (so a child's collections do not write to the pages it shares with
the zygote and its siblings), says ``ready`` and waits. Each
request is one packet carrying descriptors: the session's own socket and the three descriptors to become
the guest's stdin, stdout and stderr. The zygote forks at once, without reading anything about the
session; the *child* reads its command, environment and folder from the session socket, so the zygote
never holds a guest's name, folders or environment, and no later guest inherits an earlier one's. The
zygote tells the door the child's pid, and its exit status once it is reaped.

The zygote loads nobody's data: no preferences, seats, records or passphrases; only code and style sheets.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import io
import json
import locale
import os
import pkgutil
import runpy
import selectors
import signal
import socket
import sys
import threading
import traceback

#: What a guest's app needs, imported (and so shared, copy-on-write, by every guest) before any fork: the
#: app and its screens and games (every module of ``tui``, ``core`` and what they import), and the parts
#: of Textual and Rich that are imported only once an app runs (its drivers, the key parser, layouts, the
#: emoji and Unicode width tables). Found by diffing ``sys.modules`` before and after an app's menu.
PRELOAD_PACKAGES = ("core", "tui")
PRELOAD = ("textual.drivers.linux_driver", "textual.drivers.web_driver", "textual._xterm_parser",
           "textual._keyboard_protocol", "textual.coordinate", "textual.layouts.factory",
           "textual.layouts.horizontal", "textual.layouts.stream", "textual.renderables.styled",
           "textual.scrollbar", "textual.widgets._data_table", "rich._emoji_codes", "queue",
           "concurrent.futures.thread", "net.table.clock", "net.record", "tty")
#: Not imported before forking: what runs as ``__main__`` (the guest runs it), and this module.
_NOT_PRELOADED = ("tui.__main__", "tui.cli.__main__", "tui.startup.zygote")
#: The largest session request a child reads (its command and environment).
REQUEST_LIMIT = 256 * 1024
#: What ``ps``, ``top`` and ``pstree`` name a guest and the zygote (the process name, at most 15 bytes;
#: the command line stays the zygote's, which only rewriting its memory could change).
GUEST_NAME, ZYGOTE_NAME = "turpin guest", "turpin zygote"


def preload() -> None:
    """Import the app and what its menu shows, draw the menu once (``tui/startup/warm_up.py``), then
    freeze what is loaded."""
    names = list(PRELOAD)
    for package in PRELOAD_PACKAGES:
        path = importlib.import_module(package).__path__
        names += [info.name for info in pkgutil.walk_packages(path, package + ".")
                  if info.name not in _NOT_PRELOADED]
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # a module renamed or an optional one missing: the guest imports it itself, only slower
    with contextlib.suppress(ImportError, AttributeError, IndexError):
        from rich._unicode_data._versions import VERSIONS  # the width table Rich loads at the first draw
        importlib.import_module(f"rich._unicode_data.unicode{VERSIONS[-1].replace('.', '-')}")
    from tui.startup.warm_up import draw_the_menu_once, share_parsed_style_sheets
    share_parsed_style_sheets()
    draw_the_menu_once()
    gc.collect()
    gc.freeze()


def _send(sock: socket.socket, message: dict) -> None:
    try:
        sock.send(json.dumps(message).encode())
    except OSError:
        pass  # the door went away; it no longer waits for this


class Zygote:
    """The fork server's loop: requests from the door, exits of children."""

    def __init__(self, control: socket.socket) -> None:
        self.control = control
        self.children: dict[int, socket.socket] = {}  # pid -> that session's socket
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.selector = selectors.DefaultSelector()

    def serve(self) -> None:
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the door's console is the door's to handle
        signal.set_wakeup_fd(self.wake_write)
        self.selector.register(self.control, selectors.EVENT_READ, "control")
        self.selector.register(self.wake_read, selectors.EVENT_READ, "wake")
        _send(self.control, {"ready": os.getpid()})
        while True:
            for key, _ in self.selector.select():
                if key.data == "wake":
                    with contextlib.suppress(OSError, ValueError):
                        os.read(self.wake_read, 4096)
                    self.reap()
                elif not self.take_request():
                    return

    def take_request(self) -> bool:
        """Fork a child for the next request; False once the door has closed its end."""
        try:
            data, fds, _, _ = socket.recv_fds(self.control, 16, 4)
        except InterruptedError:
            return True
        if not data:
            return False
        if len(fds) != 4:
            for fd in fds:
                os.close(fd)
            return True
        session = socket.socket(fileno=fds[0])
        sys.stdout.flush()
        sys.stderr.flush()
        gc.freeze()  # what the loop made since (a few sockets) joins the frozen, shared objects
        try:
            pid = os.fork()
        except OSError as error:  # out of processes or memory: this guest starts afresh, the next may fork
            _send(session, {"error": str(error)})
            session.close()
            for fd in fds[1:]:
                os.close(fd)
            return True
        if pid == 0:
            self._become_guest(session, fds[1:])  # never returns
        for fd in fds[1:]:
            os.close(fd)
        self.children[pid] = session
        _send(session, {"pid": pid})
        self.reap()  # a child that died at once
        return True

    def reap(self) -> None:
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            session = self.children.pop(pid, None)
            if session is not None:
                _send(session, {"exit": os.waitstatus_to_exitcode(status)})
                session.close()

    def _become_guest(self, session: socket.socket, stdio: list[int]) -> None:
        """In the child: drop the zygote's sockets and signals, take the session's terminal, run its app."""
        code = 1
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self.selector.close()
            for fd in (self.wake_read, self.wake_write):
                os.close(fd)
            self.control.close()
            for other in self.children.values():  # other guests' sessions: not this one's to hold
                other.close()
            self.children.clear()
            request = json.loads(session.recv(REQUEST_LIMIT))
            session.close()
            code = run_guest(request, stdio)
        except BaseException:  # noqa: BLE001 - a guest that cannot start says why on its terminal
            with contextlib.suppress(OSError, ValueError):
                traceback.print_exc()
        finally:
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)


def run_guest(request: dict, stdio: list[int]) -> int:
    """Become the process a fresh ``python ARGV`` would have been, on ``stdio``, and run it; its exit code."""
    if request.get("new_session"):
        os.setsid()
    for target, fd in enumerate(stdio):
        os.dup2(fd, target)
    for fd in set(stdio):
        if fd > 2:
            os.close(fd)
    if request.get("controlling_terminal"):
        import fcntl
        import termios
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    name_this_process(GUEST_NAME)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    with contextlib.suppress(locale.Error):
        locale.setlocale(locale.LC_CTYPE, "")
    if "textual.constants" in sys.modules:  # Textual reads its settings (TEXTUAL_DRIVER, …) at import
        importlib.reload(sys.modules["textual.constants"])
    _fresh_standard_streams()
    argv = request["argv"]
    try:
        if argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            sys.path[0] = os.getcwd()
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(argv)
            sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
            runpy.run_path(argv[0], run_name="__main__")
        code = 0
    except SystemExit as leaving:
        code = _exit_code(leaving.code)
    except KeyboardInterrupt:
        code = 130
    except BaseException:  # noqa: BLE001 - as Python itself would: the traceback on stderr, status 1
        traceback.print_exc()
        code = 1
    threading._shutdown()  # noqa: SLF001 - as at interpreter exit (multiprocessing does the same)
    atexit._run_exitfuncs()  # noqa: SLF001
    return code


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    with contextlib.suppress(OSError, ValueError):
        print(value, file=sys.stderr)
    return 1


def _fresh_standard_streams() -> None:
    """sys.stdin/stdout/stderr on the new descriptors 0-2, made as Python makes them at start (line
    buffered on a terminal, the zygote's UTF-8 encoding and error handlers)."""
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        old = getattr(sys, f"__{name}__") or getattr(sys, name)
        encoding = getattr(old, "encoding", None) or "utf-8"
        errors = getattr(old, "errors", None) or "strict"
        stream = io.TextIOWrapper(io.open(fd, mode + "b", closefd=False), encoding=encoding, errors=errors,
                                  line_buffering=(name == "stderr" or os.isatty(fd)))
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def name_this_process(name: str) -> None:
    """Set the process's name (``/proc/self/comm``, as ``ps -e`` and ``top`` show it); nothing if the system
    has no such file."""
    with contextlib.suppress(OSError):
        with open("/proc/self/comm", "w") as comm:
            comm.write(name[:15])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    name_this_process(ZYGOTE_NAME)
    control = socket.socket(fileno=int(args[0]))
    try:
        preload()
    except BaseException:  # noqa: BLE001 - the door falls back to fresh starts and says why
        _send(control, {"failed": traceback.format_exc(limit=3)})
        return 1
    Zygote(control).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
