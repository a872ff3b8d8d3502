"""The door itself: the asyncssh server, who may log in (by password, key or --open, within the login,
connection and session limits), which session requests are served, and the sessions it keeps.

What must hold: nothing but a terminal session is served (no exec, shell without a pty, subsystem or
forwarding); logins in progress have their own slots, so idle ones never lock the door; closing ends
every session's app before the connections go.
"""

from __future__ import annotations

import asyncio
import hmac
import os
import pathlib
from typing import Callable

import asyncssh

from core.engine import quantity
from net.host import bind_address
from net.pool import WarmPool
from net.ssh.guests import WrongPasswordBrake, claim_name, fresh_password, printable
from net.ssh.session import AppSession, SessionInfo
from net.ssh.settings import HOST_KEY_NAME, SSHSettings, SSHSetupError, data_dir, pool_env


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


def refusal(process: asyncssh.SSHServerProcess) -> str | None:
    """Why this session request is not served (one line), or None for a terminal session."""
    if process.subsystem is not None:
        return f"turpin: this server offers no {process.subsystem!r} subsystem; it only plays turpin."
    if process.command is not None:
        return "turpin: this server runs no commands; connect with plain `ssh -t` and no command."
    if process.get_terminal_type() is None:
        return "turpin: this server needs a terminal: connect with `ssh -t` (or plain `ssh` from a terminal)."
    return None


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


class SSHFrontDoor:
    """An SSH server whose every terminal session is its own turpin app on its own pty."""

    def __init__(self, settings: SSHSettings) -> None:
        settings.check()
        self.settings = settings
        self.password = settings.password or (fresh_password() if settings.auth == "password" else "")
        self.brake = WrongPasswordBrake(settings.wrong_password_delay, settings.wrong_password_max_delay)
        self.host_key: asyncssh.SSHKey | None = None
        self._server: asyncssh.SSHAcceptor | None = None
        self._sessions: dict[int, AppSession] = {}
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
        identity = await claim_name(process, user, base, self.settings.max_names, self.brake)
        if identity is None:
            return None
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
            session = await AppSession.start(process, self.settings, identity, self.pool)
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
