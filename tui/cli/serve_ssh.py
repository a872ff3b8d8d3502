"""``turpin serve-ssh``: the SSH front door, so people with only an SSH client can play.

``add_serve_ssh_command(subparsers)`` adds the command to the ``turpin`` parser; the server itself is
``net.ssh.SSHFrontDoor``. This module is what the person running it reads: where to connect, the
password or key mode, and the host key's fingerprint.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import pathlib
import signal
import sys
from typing import TYPE_CHECKING

from core.engine import quantity
from tui.cli.arguments import door_arguments
from tui.door_links import ssh_commands

if TYPE_CHECKING:  # asyncssh takes a while to import: only `serve-ssh` itself loads it
    from net.ssh import SSHFrontDoor, SSHSettings

def add_serve_ssh_command(subparsers: argparse._SubParsersAction) -> None:
    """Add ``turpin serve-ssh`` and its options."""
    parser = subparsers.add_parser(
        "serve-ssh", help="let people play with plain `ssh` (an SSH server for the app)",
        description="Serve the turpin app over SSH: each `ssh -p PORT name@this-machine` gets its own "
                    "game window, named after the SSH user. Only the app is served: no shell, no "
                    "commands, no file transfer, no forwarding.")
    door_arguments(parser, default_port=2222, sessions="sessions")
    parser.add_argument("--host-key", type=pathlib.Path, metavar="FILE",
                        help="the server's private host key (default: an ed25519 key made once and kept "
                             "in turpin's data folder)")
    auth = parser.add_mutually_exclusive_group()
    auth.add_argument("--password", action="store_true",
                      help="a fresh password, printed at start, lets people in (the default)")
    auth.add_argument("--authorized-keys", type=pathlib.Path, metavar="FILE",
                      help="let in the public keys in FILE (OpenSSH authorized_keys format)")
    auth.add_argument("--open", action="store_true", help="let anyone in without a password (trusted networks)")
    parser.add_argument("--sessions-per-login", type=int, default=4, metavar="N",
                        help="sessions one SSH login may have open at once (default %(default)s)")
    parser.add_argument("--sessions-per-address", type=int, default=10, metavar="N",
                        help="sessions from one client address at once (default %(default)s)")
    parser.add_argument("--no-name-passphrases", action="store_true",
                        help="with a password or --open, do not give each new name a passphrase: anyone who "
                             "logs in under a name gets that name's seats and games (trusted groups only)")
    parser.set_defaults(handler=run_serve_ssh)


def settings_from_args(args: argparse.Namespace) -> SSHSettings:
    """The front door's settings from the command line."""
    from net.ssh import DEFAULT_PORT, SSHSettings

    auth = "keys" if args.authorized_keys else "open" if args.open else "password"
    return SSHSettings(port=DEFAULT_PORT if args.port is None else args.port, interface=args.interface, auth=auth,
                       authorized_keys=args.authorized_keys, host_key=args.host_key,
                       max_sessions=args.max_sessions, idle_timeout=args.idle_timeout or None,
                       max_sessions_per_connection=args.sessions_per_login,
                       max_sessions_per_address=args.sessions_per_address,
                       name_passphrases=not args.no_name_passphrases,
                       join=args.join, warm_pool=not args.no_warm_pool)


def describe(door: SSHFrontDoor) -> list[str]:
    """What the person starting the server needs to tell the players, line by line."""
    host, port = door.address
    lines = [f"turpin SSH front door on {host} port {port}"]
    lines += [f"  players connect with:  {command}" for command in ssh_commands(door)]
    settings = door.settings
    lines.append("  (the SSH user name is the player's name at the table)")
    if settings.auth == "keys":
        lines.append("  each key is its own player: seats and unfinished games go with the key, not the name")
    elif settings.name_passphrases:
        lines.append("  a name's first session is given a passphrase; only with it does that name get its seats")
        lines.append("  and unfinished games back (without it, a newcomer plays as a new player of that name)")
    else:
        lines.append("  WARNING: --no-name-passphrases: anyone logging in under a name gets its seats and games")
    if settings.auth == "password":
        lines.append(f"  password: {door.password}")
    elif settings.auth == "keys":
        lines.append(f"  keys: only the public keys in {settings.authorized_keys} get in")
    else:
        lines.append("  WARNING: --open: anyone who can reach this port gets in, with no password")
    lines.append(f"  host key fingerprint: {door.fingerprint}")
    lines.append("  (ssh shows it on the first connection: it should match)")
    limit = f"idle timeout {settings.idle_timeout:g} s" if settings.idle_timeout else "no idle timeout"
    lines.append(f"  at most {quantity(settings.max_sessions, 'session')} at once "
                 f"({settings.max_sessions_per_connection} per login, {settings.max_sessions_per_address} per "
                 f"address), {limit}")
    columns, rows = settings.max_terminal
    lines.append(f"  windows larger than {columns}×{rows} are drawn at {columns}×{rows}; a login must be done "
                 f"within {settings.login_timeout:g} s")
    lines.append(f"  sessions start {door.pool_state}")
    lines.append("Ctrl-C stops the server and ends every session.")
    return lines


async def serve(settings: SSHSettings) -> int:
    """Run the front door until Ctrl-C or SIGTERM, then end every session."""
    from net.ssh import SSHFrontDoor

    door = SSHFrontDoor(settings)
    await door.start()
    print("\n".join(describe(door)), flush=True)
    door.tell = lambda line: print(line, flush=True)  # who comes and goes, for the operator
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)
    try:
        await stop.wait()
    finally:
        print("Stopping: ending every session.", flush=True)
        await door.close()
    return 0


def run_serve_ssh(args: argparse.Namespace) -> int:
    """``turpin serve-ssh``: 2 with one line if it cannot start."""
    from net.ssh import SSHSetupError

    try:
        settings = settings_from_args(args)
        settings.check()
        return asyncio.run(serve(settings))
    except SSHSetupError as error:
        print(f"turpin serve-ssh: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        with contextlib.suppress(Exception):
            print("Stopped.", flush=True)
        return 130
