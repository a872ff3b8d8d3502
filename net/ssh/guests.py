"""Who a guest is: the door's password (read out across an office, and slowed down when wrong), and a
name's passphrase, given on its first visit and asked again before its seats and games are handed back.

What must hold: a passphrase is kept only as a salted scrypt hash, written only once the guest typed it
back, and compared in constant time; a wrong password waits twice as long as the last from the same
address, a wrong passphrase twice as long as the last for the same name; a guest's name shown on the
operator's console carries no control character.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import pathlib
import secrets

import asyncssh

from net.ssh.settings import private_folder, user_file_stem

_PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # nothing to misread aloud (no l/1, o/0, i)


def fresh_password() -> str:
    """A password to read out across an office: three groups of four easy characters."""
    groups = ("".join(secrets.choice(_PASSWORD_ALPHABET) for _ in range(4)) for _ in range(3))
    return "-".join(groups)


def passphrase_file(base: pathlib.Path, user: str) -> pathlib.Path:
    """Where the hash of an SSH user name's passphrase is kept (password and --open modes)."""
    return base / "ssh-names" / f"{user_file_stem(user)}.json"


def _normal_passphrase(text: str) -> str:
    return "".join(text.split()).lower()


def _passphrase_hash(passphrase: str, salt: bytes) -> bytes:
    return hashlib.scrypt(_normal_passphrase(passphrase).encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)


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


def printable(text: str, limit: int = 40) -> str:
    """Someone else's text (an SSH user name) fit for the operator's console: no control character
    reaches his terminal (an escape sequence could rewrite it), and no more than ``limit`` characters."""
    shown = "".join(char if char.isprintable() else "?" for char in text[:limit])
    return shown + ("…" if len(text) > limit else "")


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


async def claim_name(process: asyncssh.SSHServerProcess, user: str, base: pathlib.Path, most_names: int,
                     brake: WrongPasswordBrake) -> str | None:
    """Whose seats and games a password or --open session under ``user`` gets: the name's once its
    passphrase is given (the name's first session is given one, kept if typed back), else a fresh identity
    of the session's own. None if the guest left instead of answering."""
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
                                                 most_names)
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
            brake.forget(f"passphrase {user}")
            identity = user
        else:
            if answer.strip():
                await asyncio.sleep(brake.delay_after_failure(f"passphrase {user}"))
                process.stdout.write(f"turpin: that is not {shown}'s passphrase.\r\n".encode())
            process.stdout.write(f"turpin: you play as a new {shown}; {shown}'s seats and games stay "
                                 f"theirs.\r\n".encode())
            identity = f"guest {secrets.token_hex(8)}"
    return identity


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
