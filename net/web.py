"""The web door: the turpin app served to browsers on the LAN with textual-serve.

Each browser tab gets its own app process, as each SSH session does (``net/ssh/``), under the same
guest rules: it hosts no table, reads none of the owner's records and keeps its files in a folder of its
own that goes with the tab. textual-serve ships xterm.js and the fonts, so a browser needs nothing from
the internet.

Access needs the door's token: the link the door gives out carries it (``?token=…``), the page's answer
sets it as a cookie for the page's own requests (its scripts and its websocket), and any request without
it, or with a wrong one, gets a plain 403 page. A tab's terminal size is capped, its messages are checked
before use, and the number of tabs at once and their idle time are bounded as at the SSH door.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import json
import logging
import os
import re
import secrets
import shlex
import shutil
import sys
import tempfile
import time
from typing import Any, cast

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from net.host import TokenBucket
from net.pool import WarmPool, pooled_argv
from net.record import RECORDS_VARIABLE
from net.ssh import GUEST_VARIABLE

DEFAULT_PORT = 4780
#: The cookies the page's own requests carry the token and the guest's name in (its websocket and static
#: files), named for the door's port: cookies ignore ports, so another service on the same machine gets
#: them too, and a neighbour door of ours must not find its own token's name among them.
TOKEN_COOKIE = "turpin_web_token_{port}"
NAME_COOKIE = "turpin_web_name_{port}"
#: What a tab may send: messages at once and per second (past them they are dropped unread), and terminal
#: sizes applied per second (the latest one wins): a resize flood redraws the app at most this often.
TAB_MESSAGE_BURST, TAB_MESSAGES_PER_SECOND = 200, 100.0
RESIZES_PER_SECOND = 5
#: The largest terminal a tab may ask for: a browser window of a 4K screen at a small font fits, and an
#: app drawn at 10000×10000 would take gigabytes of the server's memory.
MAX_COLUMNS, MAX_ROWS = 500, 200
MIN_COLUMNS, MIN_ROWS = 20, 8
#: The longest message a tab may send (a paste of keys, a resize): anything longer is not read.
MAX_MESSAGE = 64 * 1024
#: Output of at least this many bytes at once is news on the screen (see ``net.ssh.SCREEN_NEWS_BYTES``).
SCREEN_NEWS_BYTES = 256
#: The door's page (textual-serve's, made to fit a phone: a viewport tag, the visible height, a font
#: chosen for the screen's width), read by textual-serve's template loader from here.
PAGE_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web_page")
#: Set for a wall screen's tabs that open in the table view (``tui/screens/table_view.py``).
TABLE_VIEW_VARIABLE = "TURPIN_TABLE_VIEW"
FORBIDDEN_PAGE = ("403 Forbidden\n\nThis turpin web door needs the link its host gave out, with its token "
                  "(http://…/?token=…). Ask the person running it for the link.\n")
FULL_MESSAGE = "\r\n  This turpin web door is full: {limit}. Try again later.\r\n"
IDLE_MESSAGE = "\r\n  This window was idle for {minutes}, so turpin closed it. Reload the page to play again.\r\n"

log = logging.getLogger("turpin.web")


class WebSetupError(ValueError):
    """Settings the web door cannot serve with, in words."""


@dataclasses.dataclass
class WebSettings:
    """How the web door serves: where, with which token, how many tabs, and what each tab opens."""

    port: int = DEFAULT_PORT
    host: str = "0.0.0.0"  # the address to listen on (an interface's address, or every one)
    token: str = dataclasses.field(default_factory=lambda: secrets.token_urlsafe(18))
    max_sessions: int = 20
    idle_timeout: float | None = 30 * 60.0  # seconds with no key and nothing new on screen; None = never
    spectate: str | None = None  # HOST:PORT: every tab watches this table (a wall screen)
    table_view: bool = False  # with spectate: every tab opens in the table view (a television)
    join: str | None = None  # HOST:PORT: every tab opens at this table (the lobby's own door)
    join_code: str | None = None  # that table's room code: the token is the gate
    python: str = sys.executable
    extra_env: dict[str, str] = dataclasses.field(default_factory=dict)  # for tests and benchmarks
    #: Fork each tab's app from a warm zygote (``net/pool.py``); off, or where fork is missing, each tab
    #: starts a fresh Python as before.
    warm_pool: bool = True
    #: DNS names this door may be reached by (``turpin-2.office.example``), besides its addresses: a
    #: request's ``Host`` must be one of them or the address it came in at (DNS rebinding), and its page
    #: then speaks to the door by the same name.
    names: tuple[str, ...] = ()

    def check(self) -> None:
        """Refuse settings that cannot work, in one line each."""
        if self.max_sessions < 1:
            raise WebSetupError("max sessions must be at least 1")
        if self.idle_timeout is not None and self.idle_timeout <= 0:
            raise WebSetupError("the idle timeout must be more than 0 seconds")
        if not 0 <= self.port <= 65535:
            raise WebSetupError(f"port {self.port} is not between 0 and 65535")
        if len(self.token) < 16:
            raise WebSetupError("the token must be at least 16 characters")
        if self.spectate and self.join:
            raise WebSetupError("a door opens its tabs at one table: spectate or join, not both")
        if self.table_view and not self.spectate:
            raise WebSetupError("the table view is a spectator's: give the table to --spectate")


def clamp_size(columns: Any, rows: Any) -> tuple[int, int]:
    """A terminal size a tab may have: numbers only, within the caps (80×24 for anything else)."""
    def number(value: Any, default: int) -> int:
        try:
            return int(value)
        except (TypeError, ValueError, OverflowError):
            return default
    return (min(max(number(columns, 80), MIN_COLUMNS), MAX_COLUMNS),
            min(max(number(rows, 24), MIN_ROWS), MAX_ROWS))


def font_size(text: str | None) -> int:
    """The page's font size from its address (``?fontsize=20``): 8 to 48, else 16."""
    try:
        return min(max(int(text or 16), 8), 48)
    except ValueError:
        return 16


def guest_name(text: str | None) -> str:
    """A name the link gave: printable characters only, at most 40; empty if none."""
    return "".join(char for char in (text or "") if char.isprintable()).strip()[:40]


class _TabApp(AppService):
    """One tab's app process, with the door's environment (guest rules, its own folders): forked from the
    door's warm pool when it runs, else started afresh as textual-serve does."""

    def __init__(self, *args: Any, environment: dict[str, str], pool: WarmPool | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.environment = environment
        self.pool = pool

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width, height), **self.environment}

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        pool = self.pool
        forked = pooled_argv(shlex.split(self.command)) if pool is not None and pool.available else None
        if pool is not None and forked is not None:
            with contextlib.suppress(OSError):  # the pool has stopped: start afresh, as without it
                process = await pool.spawn_on_pipes(forked, self._build_environment(width, height), os.getcwd())
                # textual-serve types its process as asyncio's; it uses only the pipes and the exit, which
                # a pooled child's PipedProcess has too
                self._process = cast(asyncio.subprocess.Process, process)
                self._stdin = process.stdin
                return process
        return await super()._open_app_process(width, height)


@dataclasses.dataclass(eq=False)
class _Tab:
    """A live tab: its app, its private folder, and when it last did or showed anything."""

    app: _TabApp
    folder: str
    last_activity: float
    messages: TokenBucket = dataclasses.field(
        default_factory=lambda: TokenBucket(TAB_MESSAGE_BURST, TAB_MESSAGES_PER_SECOND))
    #: The size the tab asked for last, and the task that applies sizes (one at a time, the latest).
    size: tuple[int, int] = (80, 24)
    resizing: asyncio.Task[None] | None = None


class WebDoor(Server):
    """``turpin serve-web``: textual-serve's server with a token, caps and the guest rules."""

    def __init__(self, settings: WebSettings) -> None:
        settings.check()
        self.settings = settings
        super().__init__(command="", host=settings.host, port=settings.port, title="turpin",
                         templates_path=PAGE_FOLDER)
        self.tabs: set[_Tab] = set()
        self._runner: web.AppRunner | None = None
        self._watchman: asyncio.Task[None] | None = None
        self.address: tuple[str, int] = (settings.host, settings.port)
        #: The zygote tabs are forked from, once ``start`` has started it (see ``pool_state``).
        self.pool: WarmPool | None = None

    @property
    def pool_state(self) -> str:
        """How tabs start, in a few words for the banner: forked warm, or fresh and why."""
        if self.pool is not None and self.pool.available:
            return "warm (each tab's app forked from a pre-loaded one)"
        if not self.settings.warm_pool:
            return "fresh (a new Python per tab; the warm pool is off)"
        reason = self.pool.reason if self.pool is not None else None
        return f"fresh (a new Python per tab: {reason or 'no warm pool'})"

    # ------------------------------------------------------------------------------------ serving

    async def start(self) -> None:
        """Listen; ``address`` then holds the port really taken (``port=0`` takes any free one)."""
        self._runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.settings.host, self.settings.port)
        await site.start()
        bound = self._runner.addresses  # (host, port, …) of each socket listening
        self.address = (self.settings.host, bound[0][1] if bound else self.settings.port)
        if self.settings.idle_timeout is not None:
            self._watchman = asyncio.create_task(self._close_idle_tabs())
        if self.settings.warm_pool:
            # The zygote's environment is the door's, which every tab's starts from today; each tab gets
            # textual-serve's settings, its own folders and its size when forked (Textual's own settings
            # are read again then: see tui/startup/zygote.py).
            self.pool = WarmPool(os.environ)
            await self.pool.start()

    async def stop(self) -> None:
        """Close every tab's app, then stop listening."""
        if self._watchman is not None:
            self._watchman.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchman
        for tab in list(self.tabs):
            with contextlib.suppress(Exception):
                await tab.app.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.pool is not None:
            await self.pool.close()

    def url(self, address: str) -> str:
        """The link to give out for one address of this machine."""
        return f"http://{address}:{self.address[1]}/?token={self.settings.token}"

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.insert(0, self._require_token)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Nothing printed: ``net/`` prints nothing (``tui/cli/serve_web.py`` says where the door is)."""

    def cookie(self, template: str) -> str:
        """A cookie's name for this door (``TOKEN_COOKIE``, ``NAME_COOKIE``)."""
        return template.format(port=self.address[1])

    def own_address(self, request: web.Request) -> str:
        """``host:port`` of this door as the request reached it: the socket's own address, not a header."""
        local = request.transport.get_extra_info("sockname") if request.transport else None
        address = str(local[0]) if local else "127.0.0.1"
        return f"[{address}]:{self.address[1]}" if ":" in address else f"{address}:{self.address[1]}"

    def page_address(self, request: web.Request) -> str | None:
        """``host:port`` the request was made to, if it is one of this door's own: the address it came in
        at, or one of its ``names`` at its port (None for any other ``Host``)."""
        given, port = request.headers.get("Host"), self.address[1]
        allowed = [self.own_address(request), *(f"{name.lower()}:{port}" for name in self.settings.names)]
        return given.lower() if given is not None and given.lower() in allowed else None

    def from_elsewhere(self, request: web.Request) -> str | None:
        """Why a request is not one of this door's own pages' (None if it is): its ``Host`` must be the
        door's address (a name that merely resolves here is another site: DNS rebinding), and its
        ``Origin``, which a browser sends with every websocket and every cross-site request, this door's
        page (a page served from another port of the machine is another origin)."""
        own = self.page_address(request)
        if own is None:
            return f"Host is not {self.own_address(request)}"
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"http://{own}":
            return f"Origin is not http://{own}"
        if origin is None and request.path == "/ws":
            return "a websocket without an Origin"
        return None

    @web.middleware
    async def _require_token(self, request: web.Request, handler: Any) -> web.StreamResponse:
        given = request.query.get("token") or request.cookies.get(self.cookie(TOKEN_COOKIE)) or ""
        if self.from_elsewhere(request) is not None or \
                not hmac.compare_digest(given.encode("utf-8", "replace"), self.settings.token.encode()):
            return web.Response(status=403, text=FORBIDDEN_PAGE, content_type="text/plain",
                                headers={"Referrer-Policy": "no-referrer"})
        response = await handler(request)
        if not isinstance(response, web.WebSocketResponse):
            # The token is in the page's address: no link or font request may carry it elsewhere.
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["X-Frame-Options"] = "DENY"
        return response

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, with its websocket and static files at the address the browser reached us by (the
        socket's own address, or the door's name it was asked by: never any other Host header)."""
        own = self.page_address(request) or self.own_address(request)
        base = f"http://{own}"
        context = {
            "font_size": font_size(request.query.get("fontsize")),
            "font_size_given": "fontsize" in request.query,
            "app_websocket_url": f"ws://{own}/ws",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": "turpin"},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        # textual-serve's page asks Google for a font it also ships: a door on a LAN without the
        # internet would wait on it, and one with the internet would tell Google who plays.
        response.text = re.sub(rf'<link\s[^>]*href="(?!{re.escape(base)}/)[^"]*"[^>]*>', "", response.text or "")
        response.set_cookie(self.cookie(TOKEN_COOKIE), self.settings.token, httponly=True, samesite="Strict")
        name = guest_name(request.query.get("name"))
        if name:  # the tab's name at the table: the link may carry it (…&name=Ann)
            response.set_cookie(self.cookie(NAME_COOKIE), name, httponly=True, samesite="Strict")
        return response

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A guest takes no files from the door's machine."""
        raise web.HTTPNotFound(text="No downloads here.")

    # --------------------------------------------------------------------------------------- tabs

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab: its app process, fed the tab's keys and resizes, its screen sent back."""
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        await websocket.prepare(request)
        if len(self.tabs) >= self.settings.max_sessions:
            limit = f"{self.settings.max_sessions} windows at once"
            await websocket.send_bytes(FULL_MESSAGE.format(limit=limit).encode())
            await websocket.close()
            return websocket
        columns, rows = clamp_size(request.query.get("width"), request.query.get("height"))
        folder = tempfile.mkdtemp(prefix="turpin-web-")
        tab: _Tab | None = None

        async def to_browser(data: bytes) -> None:
            if tab is not None and len(data) >= SCREEN_NEWS_BYTES:
                tab.last_activity = time.monotonic()
            await websocket.send_bytes(data)

        guest = guest_name(request.cookies.get(self.cookie(NAME_COOKIE))) or "Guest"
        app = _TabApp(self._command(guest), write_bytes=to_browser, write_str=websocket.send_str,
                      close=websocket.close, download_manager=self.download_manager,
                      environment=self._environment(folder), pool=self.pool)
        tab = _Tab(app, folder, time.monotonic())
        self.tabs.add(tab)
        try:
            await app.start(columns, rows)
            await self._read_tab(websocket, tab)
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("a web tab ended with an error")
        finally:
            self.tabs.discard(tab)
            if tab.resizing is not None:
                tab.resizing.cancel()
            with contextlib.suppress(Exception):
                await app.stop()
            with contextlib.suppress(Exception):
                await websocket.close()
            shutil.rmtree(folder, ignore_errors=True)
        return websocket

    async def _read_tab(self, websocket: web.WebSocketResponse, tab: _Tab) -> None:
        """The tab's messages, each checked: keys (``stdin``), ``resize`` (capped), ``ping``, focus.
        Anything else, anything malformed, and anything past the tab's budget is dropped."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT or not tab.messages.take():
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not (isinstance(envelope, list) and len(envelope) == 2 and isinstance(envelope[0], str)):
                continue
            kind, data = envelope
            if kind == "stdin" and isinstance(data, str):
                tab.last_activity = time.monotonic()
                await tab.app.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                tab.size = clamp_size(data.get("width"), data.get("height"))
                if tab.resizing is None or tab.resizing.done():
                    tab.resizing = asyncio.ensure_future(self._resize(tab))
            elif kind == "ping" and isinstance(data, (str, int, float)):
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await tab.app.blur()
            elif kind == "focus":
                await tab.app.focus()

    @staticmethod
    async def _resize(tab: _Tab) -> None:
        """Give the tab's app the size it asked for last, then again after a pause while it asks anew."""
        applied = None
        while tab.size != applied:
            applied = tab.size
            await tab.app.set_terminal_size(*applied)
            await asyncio.sleep(1 / RESIZES_PER_SECOND)

    async def _close_idle_tabs(self) -> None:
        timeout = self.settings.idle_timeout or 0
        while True:
            await asyncio.sleep(min(timeout / 4, 30.0))
            now = time.monotonic()
            for tab in [tab for tab in self.tabs if now - tab.last_activity > timeout]:
                minutes = f"{timeout / 60:g} minutes"
                with contextlib.suppress(Exception):
                    await tab.app.remote_write_bytes(IDLE_MESSAGE.format(minutes=minutes).encode())
                with contextlib.suppress(Exception):
                    await tab.app.stop()

    def _command(self, name: str) -> str:
        """The app for one tab (``--name=`` keeps a name that starts with ``-`` from reading as an option)."""
        return shlex.join([self.settings.python, "-m", "tui", f"--name={name}"])

    def _environment(self, folder: str) -> dict[str, str]:
        """A guest's app: no hosting, no owner's records; seat tokens and its own games in ``folder``."""
        environment = {
            GUEST_VARIABLE: "web",
            RECORDS_VARIABLE: os.path.join(folder, "records"),
            "TURPIN_SEATS_FILE": os.path.join(folder, "seats.json"),
            "XDG_CONFIG_HOME": os.path.join(folder, "config"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        if self.settings.spectate:
            environment["TURPIN_SPECTATE"] = self.settings.spectate
            if self.settings.table_view:
                environment[TABLE_VIEW_VARIABLE] = "1"
        elif self.settings.join:
            environment["TURPIN_JOIN"] = self.settings.join
            if self.settings.join_code:
                environment["TURPIN_JOIN_CODE"] = self.settings.join_code
        return {**environment, **self.settings.extra_env}
