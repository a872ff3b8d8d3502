"""The SSH front door: anyone with an SSH client plays, each session its own app on its own terminal.

``SSHFrontDoor(SSHSettings(...))`` serves the turpin app over SSH (asyncssh). Every session that asks
for a terminal gets a fresh process running a fixed command on a pseudo-terminal sized like the client's
window; the client's keys go to the pty and the pty's output to the client, resizes included. The
process runs in its own session and process group with the pty as its controlling terminal (so it gets
SIGWINCH), and the whole group ends when the SSH session does, when it idles too long, or when the
server stops. Nothing else is served: no exec, no shell without a pty, no subsystems, no forwarding.

This module prints nothing: ``tui/cli/serve_ssh.py`` is the ``turpin serve-ssh`` that people run.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import hashlib
import hmac
import json
import os
import pathlib
import pty
import re
import secrets
import signal
import struct
import sys
import termios
from typing import Callable, Sequence

import asyncssh
import platformdirs

from core.engine import quantity
from net.client import describe_duration
from net.host import bind_address
from net.pool import PooledProcess, WarmPool, pooled_argv
from net.record import RECORDS_VARIABLE

DEFAULT_PORT = 2222
AUTH_MODES = ("password", "keys", "open")
HOST_KEY_NAME = "ssh_host_ed25519_key"
FALLBACK_TERM = "xterm-256color"
#: What the app must not leave behind on a client's terminal when we end it ourselves: the alternate
#: screen, a hidden cursor, mouse reporting, bracketed paste and focus events.
TERMINAL_RESET = (b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
                  b"\x1b[?2004l\x1b[?1004l\x1b[0m")
#: Settings of the server's own operator that the apps follow too (which LAN to browse, where data lives).
#: Set in every session's environment: the app runs as a guest of the server's operator.
GUEST_VARIABLE = "TURPIN_GUEST"
SERVER_ENV_PASSED_ON = ("TURPIN_LAN", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
_TERM_PATTERN = re.compile(r"[A-Za-z0-9._+-]{1,64}")
_PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # nothing to misread aloud (no l/1, o/0, i)


class SSHSetupError(Exception):
    """The front door cannot start as asked (a missing keys file, a bad interface, a port in use)."""


def data_dir() -> pathlib.Path:
    """turpin's user data folder: the host key and the SSH players' seat files live here."""
    return pathlib.Path(platformdirs.user_data_dir("turpin"))


def app_command(user: str) -> list[str]:
    """The one command each session runs: the turpin app, with the SSH user as the player's name.

    ``--name=`` keeps a user name that starts with ``-`` from reading as an option.
    """
    return [sys.executable, "-m", "tui", f"--name={user}"]


@dataclasses.dataclass
class SSHSettings:
    """How the front door serves: where, who may come in, how many, and what each session runs."""

    port: int = DEFAULT_PORT
    interface: str | None = None  # an IPv4 address or interface name; None = every address
    auth: str = "password"  # one of AUTH_MODES
    password: str | None = None  # password mode: None makes a fresh one at start
    authorized_keys: pathlib.Path | None = None  # keys mode: an OpenSSH authorized_keys file
    host_key: pathlib.Path | None = None  # None: HOST_KEY_NAME in data_dir(), made on first start
    data_dir: pathlib.Path | None = None  # None: data_dir(); seat files go under ssh-seats/
    max_sessions: int = 20
    max_connections: int | None = None  # logged-in connections at once; None = max_sessions + 16
    max_sessions_per_connection: int = 4  # terminal sessions one login may open at once
    max_sessions_per_address: int = 10  # sessions from one client address at once
    #: Connections still logging in: from one address, and in all; they have their own slots, apart from
    #: the logged-in ones, so idle connections never lock the door, and ``login_timeout`` ends them.
    max_logins_per_address: int = 4
    max_logins: int = 32
    login_timeout: float = 10.0
    #: The largest terminal a session is given (columns, rows); a bigger window is drawn at this size.
    max_terminal: tuple[int, int] = (500, 200)
    #: With a password or --open, a name's first session gives it a passphrase, asked again before that
    #: name's seats and games are handed back (keys mode needs none: the key is the identity).
    name_passphrases: bool = True
    #: The most names the door keeps a passphrase for; past it a new name plays without being kept.
    max_names: int = 1000
    idle_timeout: float | None = 30 * 60.0  # seconds with no key and nothing new on screen; None = never
    wrong_password_delay: float = 1.0  # first wrong password from an address waits this, then doubles
    wrong_password_max_delay: float = 30.0
    join: str | None = None  # HOST:PORT: sessions open straight at this table (TURPIN_JOIN)
    #: That table's room code, given to every session (TURPIN_JOIN_CODE): the door's password is the gate
    join_code: str | None = None
    command: Callable[[str], Sequence[str]] = app_command  # user name -> argv
    extra_env: dict[str, str] = dataclasses.field(default_factory=dict)  # for tests and benchmarks
    stop_grace: float = 2.0  # seconds an app has to end after SIGHUP before SIGKILL
    #: Fork each session's app from a warm zygote (``net/pool.py``); off, or where fork is missing, each
    #: session starts a fresh Python as before.
    warm_pool: bool = True
    keepalive_interval: float = 30.0  # a vanished client is noticed after about 4 of these

    def check(self) -> None:
        """Refuse settings that cannot work, in one line each."""
        if self.auth not in AUTH_MODES:
            raise SSHSetupError(f"auth must be one of {', '.join(AUTH_MODES)}, not {self.auth!r}")
        if self.auth == "keys" and self.authorized_keys is None:
            raise SSHSetupError("key authentication needs an authorized_keys file")
        if self.max_sessions < 1:
            raise SSHSetupError("max sessions must be at least 1")
        if min(self.max_sessions_per_connection, self.max_sessions_per_address, self.max_logins_per_address,
               self.max_logins) < 1:
            raise SSHSetupError("every session and login limit must be at least 1")
        if self.idle_timeout is not None and self.idle_timeout <= 0:
            raise SSHSetupError("the idle timeout must be more than 0 seconds")
        if not 0 <= self.port <= 65535:
            raise SSHSetupError(f"port {self.port} is not between 0 and 65535")


@dataclasses.dataclass
class SessionInfo:
    """One live SSH session: who, from where, and the app process serving it."""

    user: str
    peer: str
    pid: int
    terminal: str


def fresh_password() -> str:
    """A password to read out across an office: three groups of four easy characters."""
    groups = ("".join(secrets.choice(_PASSWORD_ALPHABET) for _ in range(4)) for _ in range(3))
    return "-".join(groups)


def load_or_make_host_key(path: pathlib.Path) -> asyncssh.SSHKey:
    """The server's ed25519 host key, made once and then kept, readable by this user only."""
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (OSError, ValueError, asyncssh.KeyImportError) as error:
            raise SSHSetupError(f"cannot read the host key {path}: {error}") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="turpin serve-ssh")
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.export_private_key())
    return key


def seats_file(base: pathlib.Path, user: str) -> pathlib.Path:
    """The per-identity file where the app keeps seat tokens, named safely whatever the identity is (an SSH
    user name whose passphrase was given, a key's fingerprint, or a fresh one-session identity)."""
    return base / "ssh-seats" / f"{user_file_stem(user)}.json"


def records_folder(base: pathlib.Path, user: str) -> pathlib.Path:
    """The per-SSH-user folder of his games against bots (so that one dropped goes on next time)."""
    return base / "ssh-records" / user_file_stem(user)


def passphrase_file(base: pathlib.Path, user: str) -> pathlib.Path:
    """Where the hash of an SSH user name's passphrase is kept (password and --open modes)."""
    return base / "ssh-names" / f"{user_file_stem(user)}.json"


def _normal_passphrase(text: str) -> str:
    return "".join(text.split()).lower()


def _passphrase_hash(passphrase: str, salt: bytes) -> bytes:
    return hashlib.scrypt(_normal_passphrase(passphrase).encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)


def private_folder(path: pathlib.Path) -> pathlib.Path:
    """``path`` made if need be, and readable, listable and writable by this user only (0700)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def name_is_kept(base: pathlib.Path, user: str) -> bool:
    """Whether the name has an owner here (a passphrase kept for it)."""
    return passphrase_file(base, user).exists()


def keep_name(base: pathlib.Path, user: str, passphrase: str, most: int) -> str | None:
    """Keep ``passphrase`` (as a salted hash) for a new name whose owner typed it back: None once kept, else
    why not (the name was kept meanwhile by someone else, or the door keeps ``most`` names already)."""
    folder = private_folder(passphrase_file(base, user).parent)
    if sum(1 for _ in zip(folder.iterdir(), range(most))) >= most:
        return f"this door keeps no more than {most} names"
    salt = secrets.token_bytes(16)
    try:
        descriptor = os.open(passphrase_file(base, user), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return "someone else made the name theirs meanwhile"
    with os.fdopen(descriptor, "w") as file:
        json.dump({"salt": salt.hex(), "scrypt": _passphrase_hash(passphrase, salt).hex()}, file)
    return None


def passphrase_matches(passphrase: str, typed: str) -> bool:
    """Whether ``typed`` is ``passphrase`` as a person may type it (any case, spaces anywhere)."""
    return hmac.compare_digest(_normal_passphrase(typed).encode(), _normal_passphrase(passphrase).encode())


def passphrase_is_right(base: pathlib.Path, user: str, passphrase: str) -> bool:
    try:
        kept = json.loads(passphrase_file(base, user).read_text())
        salt, expected = bytes.fromhex(kept["salt"]), bytes.fromhex(kept["scrypt"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return hmac.compare_digest(_passphrase_hash(passphrase, salt), expected)


def user_file_stem(user: str) -> str:
    """A name for an SSH user's own files, safe whatever his user name is, and one per user name."""
    readable = re.sub(r"[^A-Za-z0-9._-]", "_", user)[:32] or "_"
    digest = hashlib.sha256(user.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{readable}-{digest}"


def printable(text: str, limit: int = 40) -> str:
    """Someone else's text (an SSH user name) fit for the operator's console: no control character
    reaches his terminal (an escape sequence could rewrite it), and no more than ``limit`` characters."""
    shown = "".join(char if char.isprintable() else "?" for char in text[:limit])
    return shown + ("…" if len(text) > limit else "")


def terminal_type(requested: str | None) -> str:
    """The client's TERM if it looks like a terminal name, else a common one."""
    if requested and _TERM_PATTERN.fullmatch(requested):
        return requested
    return FALLBACK_TERM


def session_env(settings: SSHSettings, user: str, term: str, identity: str | None = None) -> dict[str, str]:
    """A clean environment: TERM from the client, the rest from the server; nothing else of the client's.
    The seats file and the records folder are the ``identity``'s (the user name by default)."""
    base = settings.data_dir or data_dir()
    user = identity or user
    env = {name: os.environ[name] for name in SERVER_ENV_PASSED_ON if name in os.environ}
    env |= {
        "TERM": term,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": os.environ.get("HOME", str(pathlib.Path.home())),
        "PATH": os.environ.get("PATH", os.defpath),
        "TURPIN_SEATS_FILE": str(seats_file(base, user)),
        # A guest's window on the operator's machine: it opens no listening port (no table hosted, no
        # second door) and reads none of the operator's game records (a game in progress holds every
        # hand), only his own games against bots, in his own folder. See ``tui.startup.launch.run_app``.
        GUEST_VARIABLE: "ssh",
        RECORDS_VARIABLE: str(records_folder(base, user)),
    }
    if settings.join:
        env["TURPIN_JOIN"] = settings.join
        if settings.join_code:
            env["TURPIN_JOIN_CODE"] = settings.join_code
    env.update(settings.extra_env)
    return env


#: What differs between guests: kept out of the warm pool's own environment.
_PER_GUEST_VARIABLES = ("TERM", "TURPIN_SEATS_FILE", RECORDS_VARIABLE)


def pool_env(settings: SSHSettings) -> dict[str, str]:
    """The warm pool's environment: what every session's has in common, nobody's name or folders."""
    shared = session_env(settings, "player", FALLBACK_TERM)
    return {name: value for name, value in shared.items() if name not in _PER_GUEST_VARIABLES}


def refusal(process: asyncssh.SSHServerProcess) -> str | None:
    """Why this session request is not served (one line), or None for a terminal session."""
    if process.subsystem is not None:
        return f"turpin: this server offers no {process.subsystem!r} subsystem; it only plays turpin."
    if process.command is not None:
        return "turpin: this server runs no commands; connect with plain `ssh -t` and no command."
    if process.get_terminal_type() is None:
        return "turpin: this server needs a terminal: connect with `ssh -t` (or plain `ssh` from a terminal)."
    return None


class WrongPasswordBrake:
    """Slows down wrong passwords per client address: each one waits twice as long as the last."""

    def __init__(self, first_delay: float, max_delay: float) -> None:
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.failures: dict[str, int] = {}

    def delay_after_failure(self, address: str) -> float:
        """Count a wrong password from ``address``; how long to wait before answering it."""
        count = self.failures[address] = self.failures.get(address, 0) + 1
        return min(self.first_delay * 2 ** (count - 1), self.max_delay)

    def forget(self, address: str) -> None:
        """A right password clears the address's record."""
        self.failures.pop(address, None)


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


class _DoorServer(asyncssh.SSHServer):
    """Authentication for one connection, by the door's mode."""

    def __init__(self, door: SSHFrontDoor) -> None:
        self._door = door
        self._peer = "?"
        self._conn: asyncssh.SSHServerConnection | None = None
        #: The key a client logged in with (``auth: keys``), once it has.
        self._fingerprint: str | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername")
        self._peer = str(peer[0]) if peer else "?"
        self._conn = conn
        door, settings = self._door, self._door.settings
        here = sum(1 for address in door._logging_in.values() if address == self._peer)
        if here >= settings.max_logins_per_address or len(door._logging_in) >= settings.max_logins:
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                            "too many connections logging in to this turpin server; log in within "
                            f"{settings.login_timeout:g} s of connecting")
            return
        door._logging_in[conn] = self._peer

    def auth_completed(self) -> None:
        door, conn = self._door, self._conn
        if conn is None:  # asyncssh makes the connection before it authenticates it
            return
        door._logging_in.pop(conn, None)
        if len(door._connections) >= door.connection_limit:
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections to this turpin server")
            return
        door._connections.add(conn)
        if door.settings.auth == "keys" and self._fingerprint:
            door._identities[conn] = f"key {self._fingerprint}"

    def connection_lost(self, exc: Exception | None) -> None:
        conn = self._conn
        if conn is None:
            return
        self._door._connections.discard(conn)
        self._door._logging_in.pop(conn, None)
        self._door._identities.pop(conn, None)

    def begin_auth(self, username: str) -> bool:
        return self._door.settings.auth != "open"

    def public_key_auth_supported(self) -> bool:
        return self._door.settings.auth == "keys"

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """A key from the authorized keys file; the last one accepted is the one the login was signed with
        (asyncssh checks the signature after this), and its fingerprint is the guest's identity."""
        authorized = self._door._authorized_keys
        if authorized is None or authorized.validate(key, self._peer, self._peer) is None:
            return False
        self._fingerprint = key.get_fingerprint("sha256")
        return True

    def password_auth_supported(self) -> bool:
        return self._door.settings.auth == "password"

    async def validate_password(self, username: str, password: str) -> bool:
        if hmac.compare_digest(password.encode("utf-8", "surrogateescape"), self._door.password.encode()):
            self._door.brake.forget(self._peer)
            return True
        await asyncio.sleep(self._door.brake.delay_after_failure(self._peer))
        return False


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


class SSHFrontDoor:
    """An SSH server whose every terminal session is its own turpin app on its own pty."""

    def __init__(self, settings: SSHSettings) -> None:
        settings.check()
        self.settings = settings
        self.password = settings.password or (fresh_password() if settings.auth == "password" else "")
        self.brake = WrongPasswordBrake(settings.wrong_password_delay, settings.wrong_password_max_delay)
        self.host_key: asyncssh.SSHKey | None = None
        self._server: asyncssh.SSHAcceptor | None = None
        self._sessions: dict[int, _AppSession] = {}
        self._connections: set[asyncssh.SSHServerConnection] = set()
        #: Connections still logging in, and the address each came from.
        self._logging_in: dict[asyncssh.SSHServerConnection, str] = {}
        #: (connection, address) of every session being started or served: the per-login and per-address
        #: limits count them.
        self._claims: list[tuple[object, str]] = []
        #: Whose seats and games a logged-in connection's sessions get (see ``_identity``).
        self._identities: dict[object, str] = {}
        self._authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
        self._starting = 0
        self._closing = False
        #: The zygote sessions are forked from, once ``start`` has started it (see ``pool_state``).
        self.pool: WarmPool | None = None
        #: Where a session's coming and going is told, a line each (``turpin serve-ssh`` prints them).
        self.tell: Callable[[str], None] = lambda line: None

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) the server listens on; port 0 in the settings becomes the real one."""
        assert self._server is not None, "start() first"
        host, port = self._server.sockets[0].getsockname()[:2]
        return host, port

    @property
    def connection_limit(self) -> int:
        """How many logged-in connections may be open at once (some with several sessions)."""
        return self.settings.max_connections or self.settings.max_sessions + 16

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, as OpenSSH shows it on first connect."""
        assert self.host_key is not None, "start() first"
        return self.host_key.get_fingerprint("sha256")

    @property
    def sessions(self) -> list[SessionInfo]:
        """The sessions being served now."""
        return [session.info for session in self._sessions.values()]

    @property
    def pool_state(self) -> str:
        """How sessions start, in a few words for the banner: forked warm, or fresh and why."""
        if self.pool is not None and self.pool.available:
            return "warm (each session forked from a pre-loaded app)"
        if not self.settings.warm_pool:
            return "fresh (a new Python per session; the warm pool is off)"
        reason = self.pool.reason if self.pool is not None else None
        return f"fresh (a new Python per session: {reason or 'no warm pool'})"

    async def start(self) -> None:
        """Make or load the host key and listen; SSHSetupError says in one line what stops it."""
        settings = self.settings
        key_path = settings.host_key or (settings.data_dir or data_dir()) / HOST_KEY_NAME
        self.host_key = load_or_make_host_key(key_path)
        client_keys = None
        if settings.auth == "keys":
            try:
                client_keys = asyncssh.read_authorized_keys(str(settings.authorized_keys))
            except (OSError, ValueError, asyncssh.KeyImportError) as error:
                raise SSHSetupError(f"cannot read authorized keys {settings.authorized_keys}: {error}") from None
        self._authorized_keys = client_keys
        try:
            host = bind_address(settings.interface)
        except ValueError as error:
            raise SSHSetupError(str(error)) from None
        try:
            self._server = await asyncssh.create_server(
                lambda: _DoorServer(self), host, settings.port,
                server_host_keys=[self.host_key],
                process_factory=self._serve, encoding=None, line_editor=False,
                agent_forwarding=False, x11_forwarding=False, allow_scp=False,
                keepalive_interval=settings.keepalive_interval, keepalive_count_max=4,
                login_timeout=settings.login_timeout)
        except OSError as error:
            raise SSHSetupError(f"cannot listen on {host} port {settings.port}: {error.strerror or error}") \
                from None
        if settings.warm_pool:
            self.pool = WarmPool(pool_env(settings))
            await self.pool.start()

    async def close(self) -> None:
        """Stop listening, end every session's app (its whole process group), then every connection."""
        self._closing = True
        if self._server is not None:
            self._server.close()
        while self._sessions or self._starting:  # apps still starting are stopped as soon as they are up
            sessions = list(self._sessions.values())
            await asyncio.gather(*(session.end(reset_terminal=True) for session in sessions),
                                 return_exceptions=True)
            await asyncio.sleep(0.01 if self._starting else 0)
        connections = [*self._connections, *self._logging_in]
        for conn in connections:  # asyncssh leaves open connections open when the listener closes
            conn.close()
        await asyncio.gather(*(conn.wait_closed() for conn in connections), return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        if self.pool is not None:
            await self.pool.close()

    async def _serve(self, process: asyncssh.SSHServerProcess) -> None:
        reason = refusal(process)
        if reason is None and self._closing:
            reason = "turpin: this SSH server is stopping."
        if reason is None and len(self._sessions) + self._starting >= self.settings.max_sessions:
            places = ("the one place on this SSH server is" if self.settings.max_sessions == 1
                      else f"all {self.settings.max_sessions} places on this SSH server are")
            reason = f"turpin: {places} taken; try again in a while."
        conn = process.channel.get_connection()
        peer = process.get_extra_info("peername")
        claim = (conn, str(peer[0]) if peer else "?")
        if reason is None:
            reason = self._over_guest_limits(claim)
        if reason is not None:
            process.stdout.write(reason.encode() + b"\r\n")
            process.exit(1)
            return
        self._claims.append(claim)
        try:
            identity = await self._identity(process, claim[0])
            if identity is None:
                process.exit(1)
                return
            await self._serve_claimed(process, identity)
        finally:
            self._claims.remove(claim)

    async def _identity(self, process: asyncssh.SSHServerProcess, conn: object) -> str | None:
        """Whose seats and games this session gets: with keys, the key's; with a password or --open, the
        user name's once its passphrase is given (the first session under a name is given one), else a
        fresh identity of this connection's own. None if the guest left instead of answering."""
        user = process.get_extra_info("username") or "player"
        known = self._identities.get(conn)
        if known is not None or not self.settings.name_passphrases or self.settings.auth == "keys":
            return known or user
        base = self.settings.data_dir or data_dir()
        shown = printable(user)
        loop = asyncio.get_running_loop()
        if not await loop.run_in_executor(None, name_is_kept, base, user):
            # Nothing is written until the guest has typed the passphrase back: a guest who hangs up, or
            # never reads it, leaves no name behind.
            passphrase = fresh_password()
            answer = await _ask(process, (
                f"turpin: the name {shown} is new here. To make it yours, type back its passphrase\r\n\r\n    "
                f"{passphrase}\r\n\r\nand keep it: when you come back as {shown}, it gets your seats and "
                f"unfinished games back. Or press Enter alone to play without keeping the name: "))
            if answer is None:
                return None
            why_not = "you did not type its passphrase"
            if answer.strip() and passphrase_matches(passphrase, answer):
                refused = await loop.run_in_executor(None, keep_name, base, user, passphrase,
                                                     self.settings.max_names)
                why_not = refused or ""
            if why_not:
                process.stdout.write(f"turpin: {shown} is not kept ({why_not}); you play as a new {shown} "
                                     f"this time.\r\n".encode())
                identity = f"guest {secrets.token_hex(8)}"
            else:
                process.stdout.write(f"turpin: {shown} is yours.\r\n".encode())
                identity = user
        else:
            answer = await _ask(process, (
                f"turpin: the name {shown} has an owner here. Type its passphrase to get {shown}'s seats and "
                f"games back, or press Enter alone to play as a new {shown}: "))
            if answer is None:
                return None
            right = bool(answer.strip()) and await loop.run_in_executor(None, passphrase_is_right, base, user,
                                                                           answer)
            if right:
                self.brake.forget(f"passphrase {user}")
                identity = user
            else:
                if answer.strip():
                    await asyncio.sleep(self.brake.delay_after_failure(f"passphrase {user}"))
                    process.stdout.write(f"turpin: that is not {shown}'s passphrase.\r\n".encode())
                process.stdout.write(f"turpin: you play as a new {shown}; {shown}'s seats and games stay "
                                     f"theirs.\r\n".encode())
                identity = f"guest {secrets.token_hex(8)}"
        self._identities[conn] = identity  # the connection's next sessions are the same person's
        return identity

    def _over_guest_limits(self, claim: tuple[object, str]) -> str | None:
        """Why one more session for this login or address is refused, or None."""
        settings = self.settings
        if sum(1 for conn, _ in self._claims if conn is claim[0]) >= settings.max_sessions_per_connection:
            return (f"turpin: one login may have at most {settings.max_sessions_per_connection} sessions at "
                    "once; close one first.")
        if sum(1 for _, address in self._claims if address == claim[1]) >= settings.max_sessions_per_address:
            return (f"turpin: at most {settings.max_sessions_per_address} sessions come from one address at "
                    "once; close one first.")
        return None

    async def _serve_claimed(self, process: asyncssh.SSHServerProcess, identity: str) -> None:
        self._starting += 1
        try:
            session = await _AppSession.start(process, self.settings, identity, self.pool)
        except OSError as error:
            process.stdout.write(f"turpin: the game could not start here: {error}\r\n".encode())
            process.exit(1)
            return
        finally:
            self._starting -= 1
        self._sessions[session.info.pid] = session
        who = f"{printable(session.info.user)} from {session.info.peer}"
        self.tell(f"{who} came in ({quantity(len(self._sessions), 'session')} now)")
        if self._closing:  # the server began to stop while this app was starting
            session.stop(reset_terminal=True)
        try:
            await session.run()
        finally:
            self._sessions.pop(session.info.pid, None)
            self.tell(f"{who} left ({quantity(len(self._sessions), 'session')} now)")


#: The longest answer typed to the door's own question (a passphrase), and how long it waits for one.
_ANSWER_CHARS, _ANSWER_SECONDS = 64, 300.0


async def _ask(process: asyncssh.SSHServerProcess, question: str) -> str | None:
    """Ask the guest one line on his terminal before his app starts, not echoed; None if he leaves,
    presses Ctrl-C or Ctrl-D, or answers nothing for ``_ANSWER_SECONDS``."""
    process.stdout.write(question.encode())
    typed = bytearray()

    async def answer() -> str | None:
        while True:
            try:
                data = await process.stdin.read(1024)
            except asyncssh.TerminalSizeChanged:
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                return None
            if not data:
                return None
            for byte in data:
                if byte in (10, 13):
                    process.stdout.write(b"\r\n")
                    return typed.decode("utf-8", "replace")
                if byte in (3, 4):
                    return None
                if byte in (8, 127):
                    del typed[-1:]
                elif byte >= 32 and len(typed) < _ANSWER_CHARS:
                    typed.append(byte)
    try:
        return await asyncio.wait_for(answer(), _ANSWER_SECONDS)
    except asyncio.TimeoutError:
        return None


#: Output of at least this many bytes at once is news on the screen (a table update), which keeps a
#: session from idling out; a blinking cursor writes a few bytes, and an abandoned window should still go.
SCREEN_NEWS_BYTES = 256


class _AppSession:
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
                    identity: str | None = None, pool: WarmPool | None = None) -> _AppSession:
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
