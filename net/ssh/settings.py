"""The SSH front door's settings and where a guest's things live: the data folder, each guest's seat
file and records folder (named safely whatever his name is), and the clean environment his app runs in.

What must hold: nothing of the client's environment but a checked TERM reaches the app; every guest's
files are his own (one folder per name, readable by this user only); the warm pool's environment holds
nothing of any one guest.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pathlib
import re
import sys
from typing import Callable, Sequence

import platformdirs

from net.record import RECORDS_VARIABLE

DEFAULT_PORT = 2222
AUTH_MODES = ("password", "keys", "open")
HOST_KEY_NAME = "ssh_host_ed25519_key"
FALLBACK_TERM = "xterm-256color"
#: Settings of the server's own operator that the apps follow too (which LAN to browse, where data lives).
#: Set in every session's environment: the app runs as a guest of the server's operator.
GUEST_VARIABLE = "TURPIN_GUEST"
SERVER_ENV_PASSED_ON = ("TURPIN_LAN", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
_TERM_PATTERN = re.compile(r"[A-Za-z0-9._+-]{1,64}")


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
    #: the logged-in ones, so idle connections never lock the door, and ``login_timeout`` ends them. Room
    #: for an office of fifty logging in in the same minute (at 32, eighteen of them were turned away).
    max_logins_per_address: int = 4
    max_logins: int = 64
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


def seats_file(base: pathlib.Path, user: str) -> pathlib.Path:
    """The per-identity file where the app keeps seat tokens, named safely whatever the identity is (an SSH
    user name whose passphrase was given, a key's fingerprint, or a fresh one-session identity)."""
    return base / "ssh-seats" / f"{user_file_stem(user)}.json"


def records_folder(base: pathlib.Path, user: str) -> pathlib.Path:
    """The per-SSH-user folder of his games against bots (so that one dropped goes on next time)."""
    return base / "ssh-records" / user_file_stem(user)


def private_folder(path: pathlib.Path) -> pathlib.Path:
    """``path`` made if need be, and readable, listable and writable by this user only (0700)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def user_file_stem(user: str) -> str:
    """A name for an SSH user's own files, safe whatever his user name is, and one per user name."""
    readable = re.sub(r"[^A-Za-z0-9._-]", "_", user)[:32] or "_"
    digest = hashlib.sha256(user.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return f"{readable}-{digest}"


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
