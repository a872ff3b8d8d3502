"""The fair deal's bytes and the host's side of it: the sizes, tags and version, the hash chain of
secrets, the pledges and the derivations of the seed and of new seats (``net/PROTOCOL.md`` says the
same bytes), and ``FairDeal``, one game's deal as the host keeps it and saves it in its record.

What must hold: every derivation is a pure function of its bytes, so a client recomputes exactly what
the host did; a deal read back from a record is checked field by field and refused (``FairnessError``)
rather than half-trusted.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any, TypeGuard

SECRET_BYTES = 32
SALT_BYTES = 16
NONCE_BYTES = 16
PLEDGE_BYTES = 32
#: Games one table can deal fairly: the hash chain's length (a table that deals more says "not available").
CHAIN = 256
#: The deal's version now: every seat pledges after the commitment and reveals once all have pledged.
VERSION = 2
SEED_TAG = b"turpin-seed-v2"
HOST_NONCE_TAG = b"turpin-host-nonce-v2"
PLEDGE_TAG = b"turpin-pledge-v2"
SEATS_TAG = b"turpin-seats-v2"
SEED_TAG_V1 = b"turpin-seed-v1"
HOST_NONCE_TAG_V1 = b"turpin-host-nonce-v1"
#: Seconds a full table waits for a seat's pledge, and then for its reveal, before the seat's share is
#: replaced by the host's fixed one (and everyone is told).
SHARE_SECONDS = 10.0


class FairnessError(ValueError):
    """A fair-deal field that cannot be read (a record's, a host's)."""


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def commitment_of(secret: bytes, salt: bytes) -> bytes:
    return sha256(salt + secret)


def pledge_of(nonce: bytes) -> bytes:
    return sha256(PLEDGE_TAG + nonce)


def host_nonce(secret: bytes, seat: int, version: int = VERSION) -> bytes:
    tag = HOST_NONCE_TAG if version >= 2 else HOST_NONCE_TAG_V1
    return sha256(tag + secret + bytes([seat % 256]))[:NONCE_BYTES]


def derive_seed(secret: bytes, nonces: list[bytes], version: int = VERSION) -> int:
    digest = sha256((SEED_TAG if version >= 2 else SEED_TAG_V1) + secret + b"".join(nonces))
    return int.from_bytes(digest[:8], "big") & (2 ** 63 - 1)


def derive_order(secret: bytes, nonces: list[bytes]) -> list[int]:
    """New seats from the shares: ``order[new_seat]`` is the seat whose share was given from there; never
    the same order when another exists, since a player who asks for new seats expects to move."""
    shares = SEATS_TAG + secret + b"".join(nonces)
    seats = list(range(len(nonces)))
    order = seats
    for attempt in range(256):
        order = sorted(seats, key=lambda seat: sha256(shares + bytes([attempt, seat % 256])))
        if len(seats) < 2 or order != seats:
            break
    return order


def chain_secret(root: bytes, game: int) -> bytes:
    """The k-th game's secret: SHA-256 applied ``CHAIN - k`` times to the root."""
    value = root
    for _ in range(CHAIN - game):
        value = sha256(value)
    return value


@dataclass
class FairDeal:
    """The host's side of one game's deal: the root of its secrets, the salt, the game's number, and per
    seat the pledge and the revealed nonce (None until they come). ``phase`` goes ``pledges`` (while the
    table fills, and then up to ``SHARE_SECONDS``) → ``reveals`` (every pledge in or its time up; pledges
    are frozen) → ``dealt``. ``replaced`` marks a player's seat whose share was replaced by the host's fixed
    one because it did not come in time. ``shuffle``: the seats are drawn anew from the shares (announced
    before any pledge); ``order`` is then the draw."""

    root: bytes
    salt: bytes
    game: int
    pledges: list[bytes | None]
    nonces: list[bytes | None]
    replaced: list[bool]
    shuffle: bool = False
    phase: str = "pledges"
    order: list[int] | None = None
    version: int = VERSION
    secret: bytes = field(init=False)

    def __post_init__(self) -> None:
        self.secret = chain_secret(self.root, self.game)

    @classmethod
    def fresh(cls, seats: int) -> "FairDeal":
        return cls(secrets.token_bytes(SECRET_BYTES), secrets.token_bytes(SALT_BYTES), 1, [None] * seats,
                   [None] * seats, [False] * seats)

    @property
    def dealt(self) -> bool:
        return self.phase == "dealt"

    @property
    def commitment(self) -> bytes:
        return commitment_of(self.secret, self.salt)

    def pledge(self, seat: int, pledge: bytes) -> bool:
        """A player's pledge for his seat; False once the pledges are frozen (it is not taken)."""
        if self.phase != "pledges":
            return False
        self.pledges[seat] = pledge
        return True

    def reveal(self, seat: int, nonce: bytes) -> bool:
        """The nonce behind a seat's pledge; False (not taken) if it is not the pledged one or not asked."""
        pledged = self.pledges[seat]
        if self.phase != "reveals" or pledged is None or not hmac.compare_digest(pledge_of(nonce), pledged):
            return False
        self.nonces[seat] = nonce
        return True

    def forget(self, seat: int) -> None:
        """The seat's player is gone before the pledges froze: a bot's share (the host's fixed one)."""
        if self.phase == "pledges":
            self.pledges[seat] = None

    def close_pledges(self, players: list[int]) -> list[int]:
        """Freeze the pledges; the seats in ``players`` that gave none are replaced (returned)."""
        missing = [seat for seat in players if self.pledges[seat] is None]
        for seat in missing:
            self.replaced[seat] = True
        self.phase = "reveals"
        return missing

    def waiting_for_reveals(self) -> list[int]:
        return [seat for seat, pledged in enumerate(self.pledges) if pledged is not None and self.nonces[seat] is None]

    def close_reveals(self) -> list[int]:
        """Deal: the seats that pledged and did not reveal are replaced (returned); the seat order too."""
        missing = self.waiting_for_reveals()
        for seat in missing:
            self.replaced[seat] = True
        self.phase = "dealt"
        if self.shuffle:
            self.order = derive_order(self.secret, self.nonces_used())
        return missing

    def shares_problems(self) -> list[str]:
        """What is wrong with a dealt record's shares: a nonce not its pledge's, new seats not drawn."""
        problems = [f"seat {seat + 1}'s share is not the one it pledged" for seat, nonce in enumerate(self.nonces)
                    if self.version >= 2 and nonce is not None and self.pledges[seat] != pledge_of(nonce)]
        if self.version >= 2 and self.order != (derive_order(self.secret, self.nonces_used()) if self.shuffle
                                                else None):
            problems.append("the seats were not drawn from the shares")
        return problems

    def nonces_used(self) -> list[bytes]:
        return [nonce if nonce is not None else host_nonce(self.secret, seat, self.version)
                for seat, nonce in enumerate(self.nonces)]

    def seed(self) -> int:
        return derive_seed(self.secret, self.nonces_used(), self.version)

    def next_game(self, shuffle: bool = False) -> "FairDeal | None":
        """The deal of the table's next game: the next secret of the chain, and fresh shares from every
        seat (no share of the last game is used again), or None past the chain's end."""
        if self.game >= CHAIN:
            return None
        seats = len(self.nonces)
        return FairDeal(self.root, self.salt, self.game + 1, [None] * seats, [None] * seats, [False] * seats,
                        shuffle=shuffle)

    def public(self, seconds_left: float | None) -> dict[str, Any]:
        """The ``deal`` field of a table frame before the deal: the pledges so far (hashes, which tell
        nothing of the nonces), who has revealed, and the time left (None: not counting yet)."""
        return {"phase": self.phase, "game": self.game, "shuffle": self.shuffle, "pledges": list(self.pledges),
                "revealed": [seat for seat, nonce in enumerate(self.nonces) if nonce is not None],
                "seconds": None if seconds_left is None else round(max(0.0, seconds_left), 1)}

    def revealed(self) -> dict[str, Any]:
        """What everyone gets at the end of the game: enough to check the commitment, the shares and the
        seed (and the seats' draw)."""
        if self.version < 2:
            return {"game": self.game, "secret": self.secret, "salt": self.salt, "nonces": self.nonces_used(),
                    "own": [nonce is not None for nonce in self.nonces]}
        return {"version": VERSION, "game": self.game, "secret": self.secret, "salt": self.salt,
                "nonces": self.nonces_used(), "own": [nonce is not None for nonce in self.nonces],
                "pledges": list(self.pledges), "replaced": list(self.replaced), "shuffle": self.shuffle,
                "order": self.order}

    def to_record(self) -> dict[str, Any]:
        if self.version < 2:
            return {"root": self.root, "salt": self.salt, "game": self.game, "nonces": list(self.nonces),
                    "dealt": self.dealt}
        return {"version": VERSION, "root": self.root, "salt": self.salt, "game": self.game,
                "pledges": list(self.pledges), "nonces": list(self.nonces), "replaced": list(self.replaced),
                "shuffle": self.shuffle, "phase": self.phase, "order": self.order, "dealt": self.dealt}

    @classmethod
    def from_record(cls, saved: Any, seats: int) -> "FairDeal | None":
        if saved is None:
            return None
        if not isinstance(saved, dict):
            raise FairnessError("is not a map")
        root: Any = saved.get("root")
        salt: Any = saved.get("salt")
        game: Any = saved.get("game")
        nonces: Any = saved.get("nonces")
        if not (is_bytes(root, SECRET_BYTES) and is_bytes(salt, SALT_BYTES)):
            raise FairnessError(f"has no {SECRET_BYTES}-byte root and {SALT_BYTES}-byte salt")
        if not (isinstance(game, int) and not isinstance(game, bool) and 1 <= game <= CHAIN):
            raise FairnessError(f"has no game number from 1 to {CHAIN}")
        if not is_list_of(nonces, seats, NONCE_BYTES):
            raise FairnessError(f"has no {NONCE_BYTES}-byte nonce (or nil) for each of its {seats} seats")
        if saved.get("version") is None:  # version 1: the nonces came in the hellos
            if saved.get("dealt") is not True:
                # Not dealt yet: dealt the way that holds now, with shares pledged afresh
                return cls(root, salt, game, [None] * seats, [None] * seats, [False] * seats)
            return cls(root, salt, game, [None] * seats, list(nonces), [False] * seats, phase="dealt", version=1)
        if saved.get("version") != VERSION:
            raise FairnessError(f"is of version {saved.get('version')!r}, which this turpin does not know")
        pledges, replaced, phase, order = saved.get("pledges"), saved.get("replaced"), saved.get("phase"), \
            saved.get("order")
        if not is_list_of(pledges, seats, PLEDGE_BYTES):
            raise FairnessError(f"has no {PLEDGE_BYTES}-byte pledge (or nil) for each of its {seats} seats")
        if not (isinstance(replaced, list) and len(replaced) == seats and all(isinstance(r, bool) for r in replaced)):
            raise FairnessError("has no list of replaced shares")
        if phase not in ("pledges", "reveals", "dealt") or not isinstance(saved.get("shuffle"), bool):
            raise FairnessError("has no phase of the deal")
        if order is not None and not is_order(order, seats):
            raise FairnessError("has a seat order that is not one")
        return cls(root, salt, game, list(pledges), list(nonces), list(replaced), shuffle=saved["shuffle"],
                   phase=phase, order=order)



def is_bytes(value: Any, length: int) -> TypeGuard[bytes]:
    """``length`` bytes exactly."""
    return isinstance(value, bytes) and len(value) == length


def is_list_of(values: Any, count: int, length: int) -> TypeGuard[list[bytes | None]]:
    """A list of ``count`` items, each ``length`` bytes or nil."""
    return isinstance(values, list) and len(values) == count and all(
        value is None or is_bytes(value, length) for value in values)



def is_bool_list(values: Any, count: int) -> TypeGuard[list[bool]]:
    """A list of ``count`` booleans."""
    return isinstance(values, list) and len(values) == count and all(isinstance(value, bool) for value in values)


def is_order(values: Any, count: int) -> TypeGuard[list[int]]:
    """An order of the seats ``0 … count-1``, each once."""
    return isinstance(values, list) and all(is_small_int(value) for value in values) \
        and sorted(values) == list(range(count))



def is_small_int(value: Any) -> bool:
    """A seat number: an int (not a bool) from 0 to 63."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64

