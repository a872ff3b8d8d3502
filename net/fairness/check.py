"""A fair deal anyone can check (issues 33 and 40): nobody chooses the cards and dice, and every client
proves it.

The host commits to its secret before anyone joins. Every seated player's client then pledges a random
nonce (its hash) after it has seen that commitment; once every seat has pledged, each reveals the nonce
behind its pledge. The seed is derived from the secret and the revealed nonces, so no share of it is
chosen after any other is known: the secret is fixed before the pledges, the pledges before the reveals.
At the end the host reveals the secret, and each client checks the commitment, every pledge against its
reveal, its own share, the seed (and the seat order of a game dealt in new seats), then replays the
public record with the engine and compares every frame it was sent. The bytes (net/PROTOCOL.md says the
same):

* ``secret_k = H^(CHAIN - k)(root)`` for the table's k-th game (``H`` is SHA-256, ``root`` 32 random
  bytes drawn when the table is made), ``commitment_k = H(salt || secret_k)``.
* A player's share: 16 random bytes ``nonce``, fresh for every game; its pledge ``H(b"turpin-pledge-v2"
  || nonce)``. A seat with no share of its own (a bot's, or a player's who did not pledge or reveal in
  ``SHARE_SECONDS``) uses ``H(b"turpin-host-nonce-v2" || secret_k || seat as one byte)[:16]``.
* ``seed = int.from_bytes(H(b"turpin-seed-v2" || secret_k || nonce_0 || … || nonce_(n-1))[:8], "big")
  & (2**63 - 1)``, the nonces in the order of the seats that gave them.
* A game dealt in new seats: ``order[new_seat]`` is the seat the player gave his share from, the old
  seats sorted by ``H(b"turpin-seats-v2" || secret_k || nonce_0 || … || nonce_(n-1) || attempt || seat)``
  (``attempt`` one byte from 0, the first that moves someone).

Tables and files of version 1 (the nonce in the hello, ``turpin-seed-v1``) still
verify, and say that kind of deal could be steered by its host.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass, field
from typing import Any, Iterator, TypeGuard

from core.engine import Game, name_seats, pack, unpack, visible_events
from net.table.seating import seat_labels
from net.untrusted import decode_file, read_at_most

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
#: What a results screen says when the host chose the seed (tests, ``--seed``) or gave no proof.
NOT_AVAILABLE = "not available"
#: The most a client keeps of one game's frames for its check (their msgpack bytes, kept as bytes: the
#: check's memory is this much plus one frame decoded at a time). An honest game sends far less.
MAX_EVIDENCE_BYTES = 48 * 1024 * 1024


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
        if not (_bytes(root, SECRET_BYTES) and _bytes(salt, SALT_BYTES)):
            raise FairnessError(f"has no {SECRET_BYTES}-byte root and {SALT_BYTES}-byte salt")
        if not (isinstance(game, int) and not isinstance(game, bool) and 1 <= game <= CHAIN):
            raise FairnessError(f"has no game number from 1 to {CHAIN}")
        if not _list_of(nonces, seats, NONCE_BYTES):
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
        if not _list_of(pledges, seats, PLEDGE_BYTES):
            raise FairnessError(f"has no {PLEDGE_BYTES}-byte pledge (or nil) for each of its {seats} seats")
        if not (isinstance(replaced, list) and len(replaced) == seats and all(isinstance(r, bool) for r in replaced)):
            raise FairnessError("has no list of replaced shares")
        if phase not in ("pledges", "reveals", "dealt") or not isinstance(saved.get("shuffle"), bool):
            raise FairnessError("has no phase of the deal")
        if order is not None and not _is_order(order, seats):
            raise FairnessError("has a seat order that is not one")
        return cls(root, salt, game, list(pledges), list(nonces), list(replaced), shuffle=saved["shuffle"],
                   phase=phase, order=order)


def _bytes(value: Any, length: int) -> TypeGuard[bytes]:
    return isinstance(value, bytes) and len(value) == length


def _list_of(values: Any, count: int, length: int) -> TypeGuard[list[bytes | None]]:
    """A list of ``count`` items, each ``length`` bytes or nil."""
    return isinstance(values, list) and len(values) == count and all(
        value is None or _bytes(value, length) for value in values)


# ------------------------------------------------------------------------------------- the client's check


@dataclass
class Verdict:
    """A client's finding on one game: ``verified``, ``not available`` (with why) or ``mismatch`` (with
    exactly what did not match). ``version`` is the kind of deal (1: from before every seat pledged
    first, which its host could steer); ``notes`` say what a verified deal had to replace."""

    status: str
    problems: list[str] = field(default_factory=list)
    version: int = VERSION
    notes: list[str] = field(default_factory=list)

    @property
    def words(self) -> str:
        if self.status == "verified":
            if self.version < 2:
                return "fair deal: verified (an old kind of deal, which its host could have steered)"
            return "fair deal: verified" + (f" ({'; '.join(self.notes[:2])})" if self.notes else "")
        if self.status == NOT_AVAILABLE:
            return f"fair deal: not available ({self.problems[0]})" if self.problems else "fair deal: not available"
        return "fair deal: MISMATCH — " + "; ".join(self.problems[:3]) + (
            f" (and {len(self.problems) - 3} more)" if len(self.problems) > 3 else "")


@dataclass
class Evidence:
    """What a client keeps of one game to check it (now, and later from a saved file): the commitment it
    was shown first, its share, its seat, and every table frame of the game in order, as msgpack bytes
    (at most ``MAX_EVIDENCE_BYTES``: a host that sends more cannot be checked, which is a mismatch).

    Of the deal (version 2): the pledges it was shown once they froze (``pledges``), whether it revealed
    its own (``revealed``), from which seat (``share_seat``), and whether new seats were announced then
    (``shuffle``)."""

    seat: int | None
    commitment: bytes | None = None
    nonce: bytes | None = None
    packed: list[bytes] = field(default_factory=list)
    #: The previous game's secret at this table, if this client saw it revealed (links the chain).
    previous_secret: bytes | None = None
    #: What changed that must not: the commitment mid-game, the pledges after they froze.
    changed: list[str] = field(default_factory=list)
    version: int = VERSION
    pledges: list[bytes | None] | None = None
    revealed: bool = False
    share_seat: int | None = None
    shuffle: bool | None = None
    #: The host sent more than ``MAX_EVIDENCE_BYTES`` of frames: nothing more is kept.
    overflow: bool = False
    _turns: list[int] = field(default_factory=list)
    _size: int = 0

    def keep(self, frame: dict[str, Any]) -> None:
        """One more table frame; a catch-up at an earlier turn (a move taken back) drops the frames of the
        moves since, which are no part of the game any more."""
        if self.overflow:
            return
        turn = frame.get("turn")
        turn = turn if isinstance(turn, int) and not isinstance(turn, bool) else -1
        if frame.get("catch_up") and self._turns and turn < self._turns[-1]:
            kept = [index for index, then in enumerate(self._turns) if then <= turn]
            self.packed = [self.packed[index] for index in kept]
            self._turns = [self._turns[index] for index in kept]
            self._size = sum(map(len, self.packed))
        data = pack(frame)
        if self._size + len(data) > MAX_EVIDENCE_BYTES:
            self.overflow, self.packed, self._turns, self._size = True, [data], [turn], len(data)
            return
        self.packed.append(data)
        self._turns.append(turn)
        self._size += len(data)

    def frames(self) -> Iterator[dict[str, Any]]:
        """The frames, decoded one at a time."""
        return (unpack(data) for data in self.packed)

    def last_frame(self) -> dict[str, Any]:
        frame = unpack(self.packed[-1]) if self.packed else {}
        return frame if isinstance(frame, dict) else {}

    def to_file(self, game: str) -> dict[str, Any]:
        return {"format": "turpin-fair-check", "version": 2, "game": game, "seat": self.seat,
                "commitment": self.commitment, "nonce": self.nonce, "frames": list(self.frames()),
                "previous_secret": self.previous_secret, "changed": self.changed, "deal_version": self.version,
                "pledges": self.pledges, "revealed": self.revealed, "share_seat": self.share_seat,
                "shuffle": self.shuffle, "overflow": self.overflow}

    @classmethod
    def from_file(cls, saved: Any) -> "Evidence":
        if not (isinstance(saved, dict) and saved.get("format") == "turpin-fair-check"
                and saved.get("version") in (1, 2)):
            raise FairnessError("is not a turpin saved game")
        seat = saved.get("seat")
        if not (seat is None or _small_int(seat)):
            raise FairnessError("has no valid seat")
        frames: Any = saved.get("frames")  # (as maps, read with the file's limits; kept packed)
        if not (isinstance(frames, list) and frames and all(isinstance(frame, dict) for frame in frames)):
            raise FairnessError("has no table frames")
        packed = [pack(frame) for frame in frames]
        for name, length in (("commitment", 32), ("nonce", NONCE_BYTES), ("previous_secret", SECRET_BYTES)):
            if saved.get(name) is not None and not _bytes(saved.get(name), length):
                raise FairnessError(f"has a damaged {name}")
        changed = saved.get("changed") or []
        if not (isinstance(changed, list) and all(isinstance(line, str) for line in changed)):
            raise FairnessError("has a damaged list of changes")
        evidence = cls(seat, saved.get("commitment"), saved.get("nonce"), list(packed),
                       saved.get("previous_secret"), list(changed), version=1)
        if saved["version"] == 2:
            pledges, share_seat, shuffle = saved.get("pledges"), saved.get("share_seat"), saved.get("shuffle")
            if pledges is not None and not (isinstance(pledges, list) and len(pledges) <= 64 and all(
                    pledge is None or _bytes(pledge, PLEDGE_BYTES) for pledge in pledges)):
                raise FairnessError("has damaged pledges")
            if not (share_seat is None or _small_int(share_seat)) or shuffle not in (None, True, False):
                raise FairnessError("has a damaged share of the deal")
            if saved.get("deal_version") not in (1, 2) or not isinstance(saved.get("revealed"), bool) \
                    or not isinstance(saved.get("overflow"), bool):
                raise FairnessError("has a damaged deal")
            evidence.version, evidence.pledges, evidence.revealed = saved["deal_version"], pledges, saved["revealed"]
            evidence.share_seat, evidence.shuffle, evidence.overflow = share_seat, shuffle, saved["overflow"]
        return evidence


def _small_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64


def verify(game: Game, evidence: Evidence) -> Verdict:
    """Check one finished game from a client's evidence: the reveal against the commitment it was shown,
    the shares against their pledges and its own, the seed, and every view, prompt, event and result
    against a replay of the record. Time and memory grow with the game's length and the frames' bytes."""
    if evidence.overflow:
        return Verdict("mismatch", [f"the host sent more than {MAX_EVIDENCE_BYTES // 2 ** 20} MiB of table "
                                    "frames in one game, too much to check"])
    last = evidence.last_frame()
    record, result = last.get("record"), last.get("result")
    if not isinstance(record, dict) or result is None:
        return Verdict(NOT_AVAILABLE, ["the game did not reach its end here"])
    reveal = record.get("fair")
    if evidence.commitment is None and reveal is None:
        return Verdict(NOT_AVAILABLE, ["the host chose the seed"])
    problems, notes = list(evidence.changed), list[str]()
    version = reveal.get("version", 1) if isinstance(reveal, dict) else VERSION
    try:
        if not isinstance(record.get("seats"), list):
            raise FairnessError("the record's seats are not a list")
        if version == VERSION:
            seed = _check_reveal(reveal, evidence, record, problems, notes)
        elif evidence.version >= 2:
            raise FairnessError("the host revealed an old kind of deal, which it could have steered")
        else:
            seed = _check_reveal_v1(reveal, evidence, record, problems)
    except FairnessError as error:
        return Verdict("mismatch", problems + [str(error)], version)
    try:
        problems += _replay_and_compare(game, record, seed, evidence)
    except Exception as error:  # a record that breaks the rules, or is malformed: a mismatch, never a crash
        problems.append(f"the record cannot be replayed ({str(error)[:80] or 'it breaks the rules'})")
    return Verdict("mismatch" if problems else "verified", problems, version, notes)


def _check_reveal(reveal: Any, evidence: Evidence, record: dict[str, Any], problems: list[str],
                  notes: list[str]) -> int:
    seats = len(record["seats"])
    secret, salt, nonces, own = reveal.get("secret"), reveal.get("salt"), reveal.get("nonces"), reveal.get("own")
    pledges, replaced, shuffle, order = reveal.get("pledges"), reveal.get("replaced"), reveal.get("shuffle"), \
        reveal.get("order")
    if not (_bytes(secret, SECRET_BYTES) and _bytes(salt, SALT_BYTES) and isinstance(nonces, list)
            and len(nonces) == seats and all(_bytes(nonce, NONCE_BYTES) for nonce in nonces)
            and _bools(own, seats) and _bools(replaced, seats) and _list_of(pledges, seats, PLEDGE_BYTES)
            and isinstance(shuffle, bool) and (order is None or _is_order(order, seats))):
        raise FairnessError("the reveal is malformed")
    _check_secret(secret, salt, evidence, problems)
    for seat in range(seats):
        if own[seat] and (pledges[seat] is None or pledge_of(nonces[seat]) != pledges[seat]):
            problems.append(f"seat {seat + 1}'s share is not the one it pledged")
        elif not own[seat] and nonces[seat] != host_nonce(secret, seat):
            problems.append(f"seat {seat + 1}'s share is neither its player's nor the host's fixed one")
        if replaced[seat] and not own[seat]:
            did = "reveal" if pledges[seat] is not None else "pledge"
            notes.append(f"seat {seat + 1} did not {did} its share in time")
    if evidence.pledges is not None and evidence.pledges != pledges:
        problems.append("the pledges revealed are not the ones shown before anyone revealed")
    share_seat = evidence.share_seat
    if evidence.revealed and share_seat is not None and not (
            share_seat < seats and own[share_seat] and nonces[share_seat] == evidence.nonce):
        problems.append("this client revealed its share in time, but the host dealt without it")
    if evidence.shuffle is not None and evidence.shuffle != shuffle:
        problems.append("the host drew new seats though it announced the same ones" if shuffle else
                        "the host kept the seats though it announced new ones")
    if shuffle:
        drawn = derive_order(secret, nonces)
        if order != drawn:
            problems.append("the new seats are not the ones the shares draw")
        elif share_seat is not None and share_seat < seats and evidence.seat is not None \
                and evidence.seat != drawn.index(share_seat):
            problems.append("this client was not seated where the shares put it")
    elif order is not None:
        problems.append("the seats were moved though nobody asked for new ones")
    seed = derive_seed(secret, nonces)
    if record.get("seed") != seed:
        raise FairnessError("the record's seed is not the one the secret and the shares make")
    return seed


def _check_secret(secret: bytes, salt: bytes, evidence: Evidence, problems: list[str]) -> None:
    """The revealed secret opens the commitment this client saw first, and follows the last game's."""
    if evidence.commitment is None:
        raise FairnessError("the host revealed a secret it never committed to")
    if not hmac.compare_digest(commitment_of(secret, salt), evidence.commitment):
        raise FairnessError("the revealed secret does not match the commitment sent at the start")
    if evidence.previous_secret is not None and sha256(secret) != evidence.previous_secret:
        problems.append("this game's secret does not follow from the last game's at this table")


def _check_reveal_v1(reveal: Any, evidence: Evidence, record: dict[str, Any], problems: list[str]) -> int:
    """A version-1 deal: each player's nonce came in its hello (``turpin-seed-v1``)."""
    if not isinstance(reveal, dict):
        raise FairnessError("the host sent no reveal of its secret, though it committed to one")
    secret, salt, nonces = reveal.get("secret"), reveal.get("salt"), reveal.get("nonces")
    seats = len(record["seats"])
    if not (_bytes(secret, SECRET_BYTES) and _bytes(salt, SALT_BYTES) and isinstance(nonces, list)
            and len(nonces) == seats and all(_bytes(nonce, NONCE_BYTES) for nonce in nonces)):
        raise FairnessError("the reveal is malformed")
    _check_secret(secret, salt, evidence, problems)
    if evidence.seat is not None and evidence.nonce is not None and 0 <= evidence.seat < seats:
        if nonces[evidence.seat] != evidence.nonce:
            problems.append("the nonce this client sent is not the one the seed was made with")
    own = reveal.get("own")
    if _bools(own, seats):
        for seat, (nonce, its_own) in enumerate(zip(nonces, own)):
            if not its_own and nonce != host_nonce(secret, seat, 1):
                problems.append(f"seat {seat + 1}'s nonce is neither its player's nor the host's fixed one")
    seed = derive_seed(secret, nonces, 1)
    if record.get("seed") != seed:
        raise FairnessError("the record's seed is not the one the secret and the nonces make")
    return seed


def _bools(values: Any, count: int) -> TypeGuard[list[bool]]:
    return isinstance(values, list) and len(values) == count and all(isinstance(value, bool) for value in values)


def _is_order(values: Any, count: int) -> TypeGuard[list[int]]:
    return isinstance(values, list) and all(_small_int(value) for value in values) \
        and sorted(values) == list(range(count))


def log_names(seats: list[dict[str, Any]]) -> list[str]:
    """How the host's log named each seat at the time of a frame (``SeatInfo.name_in_the_log``)."""
    names = []
    for info in seats:
        info = info if isinstance(info, dict) else {}
        name = str(info.get("name") or "")
        if info.get("kind") == "open":
            name = ""
        elif info.get("kind") == "bot" and name.endswith(" bot)") and " (" in name:
            name = name[:name.rindex(" (")]
        names.append(name)
    return names


def _replay_and_compare(game: Game, record: dict[str, Any], seed: int, evidence: Evidence) -> list[str]:
    """Every frame of the game against the replay, for this client's seat. The log is built once; each
    frame's events are compared with their slice of it, so the work grows with the game and the frames'
    bytes, never with frames × moves."""
    seat = evidence.seat
    options = game.resolve_options(record["options"])
    state = game.setup(options, seed)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise FairnessError("the record's actions are not a list")
    # As sent: through msgpack (tuples arrive as lists), so a replay compares equal to what came.
    views, legal_at = [as_sent(game.view(state, seat))], [as_sent(_legal(game, state, seat))]
    log = list(game.opening_events(state))
    log_at = [len(log)]
    broken: list[str] = []  # said after the frames' problems, which come in the game's order
    for number, entry in enumerate(actions, start=1):
        mover, action = entry if isinstance(entry, list) and len(entry) == 2 else (None, None)
        if mover not in game.pending(state) or not isinstance(action, dict) \
                or dict(action) not in game.legal_actions(state, mover):
            broken.append(f"move {number} of the record breaks the rules in the replay")
            break
        log += game.apply(state, mover, dict(action))
        log_at.append(len(log))
        views.append(as_sent(game.view(state, seat)))
        legal_at.append(as_sent(_legal(game, state, seat)))
    # The events this seat may see, as sent, and how many of them each turn's log holds
    visible = as_sent(visible_events(log, seat))
    seen, visible_at, counted = 0, [], 0
    for length in log_at:
        while counted < length:
            event_then = log[counted]
            seen += event_then["visible_to"] is None or (seat is not None and seat in event_then["visible_to"])
            counted += 1
        visible_at.append(seen)
    final = as_sent(game.result(state)) if not broken else None
    whole = len(views) == len(actions) + 1
    problems: list[str] = []
    shown_until: int | None = None  # the visible log's length at the last frame's turn (None: before any)
    for number, frame in enumerate(evidence.frames(), start=1):
        frame = frame if isinstance(frame, dict) else {}
        turn = frame.get("turn")
        if not (isinstance(turn, int) and not isinstance(turn, bool) and 0 <= turn < len(views)):
            if whole:  # (else: past the move that broke the rules)
                problems.append(f"frame {number} is at a turn the record never reached")
            continue
        if not frame.get("started"):
            continue  # before the deal the cards were not dealt yet
        seats = frame.get("seats")
        labels = seat_labels(log_names(seats if isinstance(seats, list) else []))
        if frame.get("view") != views[turn]:
            problems.append(f"the view sent at move {turn} is not the replay's")
        prompt = frame.get("prompt")
        if prompt is not None:
            choices = prompt.get("choices") if isinstance(prompt, dict) else None
            offered = [choice.get("action") if isinstance(choice, dict) else None
                       for choice in (choices if isinstance(choices, list) else [None])]
            if offered != legal_at[turn]:
                problems.append(f"the choices offered at move {turn} are not the rules' choices")
        events = frame.get("events")
        received = [one for one in (events if isinstance(events, list) else [None])
                    if not (isinstance(one, dict) and one.get("table_line"))]
        start = 0 if frame.get("catch_up") or shown_until is None else shown_until
        # The count first: a frame's events are compared one by one only when there are as many as the
        # replay's, so many small frames at a late turn cost what they hold, not the log's length each
        if len(received) != max(0, visible_at[turn] - start) or any(
                got != {**want, "text": name_seats(want["text"], labels)}
                for got, want in zip(received, visible[start:visible_at[turn]])):
            problems.append(f"the events sent at move {turn} are not the replay's")
        shown_until = visible_at[turn]
    result = evidence.last_frame().get("result")
    result = result if isinstance(result, dict) else {}
    if final is None and whole:
        problems.append("the record stops before the end of the game")
    elif final is not None and any(result.get(key) != final.get(key) for key in ("winners", "scores", "seed")):
        problems.append("the result is not the replay's")
    return problems + broken


def as_sent(value: Any) -> Any:
    return unpack(pack(value))


def _legal(game: Game, state: Any, seat: int | None) -> list[Any] | None:
    if seat is None or seat not in game.pending(state):
        return []
    return game.legal_actions(state, seat)


# ------------------------------------------------------------------------------------- saved checks

#: A client's saved game: what it needs to check the deal again later (``turpin verify FILE``).
CHECK_SUFFIX = ".turpin-check"
_MAX_CHECK_FILE = 64 * 1024 * 1024


def write_evidence(path: str | os.PathLike[str], game: str, evidence: Evidence) -> None:
    """Save a finished game's evidence (a new file, written whole)."""
    with open(path, "xb") as handle:
        handle.write(pack(evidence.to_file(game)))


def read_evidence(path: str | os.PathLike[str]) -> tuple[str, Evidence]:
    """A saved game's id and evidence; ``FairnessError`` in words for a file that is not one."""
    try:
        data = read_at_most(path, _MAX_CHECK_FILE)
    except OSError as error:
        raise FairnessError(f"cannot read {path}: {error.strerror}") from None
    except ValueError:
        raise FairnessError(f"{path} is too large to be a turpin saved game") from None
    try:
        saved = decode_file(data)
    except Exception as error:  # any decoding failure means the same thing to the user
        from net.record import damage_in_words  # (net.record reads fair deals: imported here, not above)
        raise FairnessError(f"{path} is not a turpin saved game ({damage_in_words(error)})") from None
    try:
        evidence = Evidence.from_file(saved)
    except FairnessError as error:
        raise FairnessError(f"{path} {error}") from None
    game = saved.get("game")
    if not isinstance(game, str):
        raise FairnessError(f"{path} does not say which game it is")
    return game, evidence
