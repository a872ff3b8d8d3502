"""A fair deal anyone can check (issue 33): nobody chooses the cards and dice, and every client proves it.

The host commits to its secret before anyone joins; each player's client adds a random nonce in its
hello; the seed is derived from both when the table fills. At the end the host reveals the secret, and
each client checks the commitment, derives the seed, replays the public record with the engine and
compares every frame it was sent. The bytes, exactly (net/PROTOCOL.md says the same):

* ``secret_k = H^(CHAIN - k)(root)`` for the table's k-th game (k = 1, 2, …; ``H`` is SHA-256, ``root``
  32 random bytes drawn when the table is made). A table that deals again reveals each game's secret,
  and ``H(secret_k) == secret_(k-1)``: every game's secret was fixed before the first nonce was sent.
* ``commitment_k = SHA-256(salt || secret_k)`` (``salt``: 16 random bytes, one per table).
* A seat's nonce: the 16 bytes its player's client sent, or, for a seat with no nonce of its own (a bot,
  an old client), ``SHA-256(b"turpin-host-nonce-v1" || secret_k || seat as one byte)[:16]``: fixed by
  the commitment, so the host cannot choose it after seeing the players' nonces.
* ``seed = int.from_bytes(SHA-256(b"turpin-seed-v1" || secret_k || nonce_0 || … || nonce_(n-1))[:8],
  "big") & (2**63 - 1)``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
import os
from typing import Any

from core.engine import Game, name_seats, pack, unpack, visible_events
from net.seats import seat_labels
from net.untrusted import read_at_most

SECRET_BYTES = 32
SALT_BYTES = 16
NONCE_BYTES = 16
#: Games one table can deal fairly: the hash chain's length (a table that deals more says "not available").
CHAIN = 256
SEED_TAG = b"turpin-seed-v1"
HOST_NONCE_TAG = b"turpin-host-nonce-v1"
#: What a results screen says when the host chose the seed (tests, ``--seed``) or gave no proof.
NOT_AVAILABLE = "not available"


class FairnessError(ValueError):
    """A fair-deal field that cannot be read (a record's, a host's)."""


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def commitment_of(secret: bytes, salt: bytes) -> bytes:
    return sha256(salt + secret)


def host_nonce(secret: bytes, seat: int) -> bytes:
    return sha256(HOST_NONCE_TAG + secret + bytes([seat % 256]))[:NONCE_BYTES]


def derive_seed(secret: bytes, nonces: list[bytes]) -> int:
    digest = sha256(SEED_TAG + secret + b"".join(nonces))
    return int.from_bytes(digest[:8], "big") & (2 ** 63 - 1)


def chain_secret(root: bytes, game: int) -> bytes:
    """The k-th game's secret: SHA-256 applied ``CHAIN - k`` times to the root."""
    value = root
    for _ in range(CHAIN - game):
        value = sha256(value)
    return value


@dataclass
class FairDeal:
    """The host's side: the root of its secrets, the salt, the game's number and each seat's nonce
    (None until its player's hello brings one; a seat without one gets the host's fixed nonce)."""

    root: bytes
    salt: bytes
    game: int
    nonces: list[bytes | None]
    dealt: bool = False
    secret: bytes = field(init=False)

    def __post_init__(self) -> None:
        self.secret = chain_secret(self.root, self.game)

    @classmethod
    def fresh(cls, seats: int) -> "FairDeal":
        return cls(secrets.token_bytes(SECRET_BYTES), secrets.token_bytes(SALT_BYTES), 1, [None] * seats)

    @property
    def commitment(self) -> bytes:
        return commitment_of(self.secret, self.salt)

    def nonces_used(self) -> list[bytes]:
        return [nonce if nonce is not None else host_nonce(self.secret, seat) for seat, nonce in enumerate(self.nonces)]

    def seed(self) -> int:
        return derive_seed(self.secret, self.nonces_used())

    def next_game(self) -> "FairDeal | None":
        """The deal of the table's next game (the seats keep their nonces), or None past the chain's end."""
        if self.game >= CHAIN:
            return None
        return FairDeal(self.root, self.salt, self.game + 1, list(self.nonces))

    def reordered(self, order: list[int]) -> None:
        """The seats moved (a rematch in new seats): each nonce goes with its player."""
        self.nonces = [self.nonces[old] for old in order]

    def reveal(self) -> dict[str, Any]:
        """What everyone gets at the end of the game: enough to check the commitment and the seed."""
        return {"game": self.game, "secret": self.secret, "salt": self.salt, "nonces": self.nonces_used(),
                "own": [nonce is not None for nonce in self.nonces]}

    def to_record(self) -> dict[str, Any]:
        return {"root": self.root, "salt": self.salt, "game": self.game, "nonces": list(self.nonces),
                "dealt": self.dealt}

    @classmethod
    def from_record(cls, saved: Any, seats: int) -> "FairDeal | None":
        if saved is None:
            return None
        if not isinstance(saved, dict):
            raise FairnessError("is not a map")
        root, salt, game, nonces = saved.get("root"), saved.get("salt"), saved.get("game"), saved.get("nonces")
        if not (_bytes(root, SECRET_BYTES) and _bytes(salt, SALT_BYTES)):
            raise FairnessError(f"has no {SECRET_BYTES}-byte root and {SALT_BYTES}-byte salt")
        if not (isinstance(game, int) and not isinstance(game, bool) and 1 <= game <= CHAIN):
            raise FairnessError(f"has no game number from 1 to {CHAIN}")
        if not (isinstance(nonces, list) and len(nonces) == seats
                and all(nonce is None or _bytes(nonce, NONCE_BYTES) for nonce in nonces)):
            raise FairnessError(f"has no {NONCE_BYTES}-byte nonce (or nil) for each of its {seats} seats")
        deal = cls(root, salt, game, list(nonces))
        deal.dealt = saved.get("dealt") is True
        return deal


def _bytes(value: Any, length: int) -> bool:
    return isinstance(value, bytes) and len(value) == length


# ------------------------------------------------------------------------------------- the client's check


@dataclass
class Verdict:
    """A client's finding on one game: ``verified``, ``not available`` (with why) or ``mismatch`` (with
    exactly what did not match)."""

    status: str
    problems: list[str] = field(default_factory=list)

    @property
    def words(self) -> str:
        if self.status == "verified":
            return "fair deal: verified"
        if self.status == NOT_AVAILABLE:
            return f"fair deal: not available ({self.problems[0]})" if self.problems else "fair deal: not available"
        return "fair deal: MISMATCH — " + "; ".join(self.problems[:3]) + (
            f" (and {len(self.problems) - 3} more)" if len(self.problems) > 3 else "")


@dataclass
class Evidence:
    """What a client keeps of one game to check it (now, and later from a saved file): the commitment it
    was shown, the nonce it sent, its seat, every table frame of the game, in order."""

    seat: int | None
    commitment: bytes | None = None
    nonce: bytes | None = None
    frames: list[dict[str, Any]] = field(default_factory=list)
    #: The previous game's secret at this table, if this client saw it revealed (links the chain).
    previous_secret: bytes | None = None
    #: Set when the commitment changed during the game (a host that re-committed mid-game).
    changed: list[str] = field(default_factory=list)

    def to_file(self, game: str) -> dict[str, Any]:
        return {"format": "turpin-fair-check", "version": 1, "game": game, "seat": self.seat,
                "commitment": self.commitment,
                "nonce": self.nonce, "frames": self.frames, "previous_secret": self.previous_secret,
                "changed": self.changed}

    @classmethod
    def from_file(cls, saved: Any) -> "Evidence":
        if not (isinstance(saved, dict) and saved.get("format") == "turpin-fair-check" and saved.get("version") == 1):
            raise FairnessError("is not a turpin saved game")
        seat, frames = saved.get("seat"), saved.get("frames")
        if not (seat is None or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 64)):
            raise FairnessError("has no valid seat")
        if not (isinstance(frames, list) and frames and all(isinstance(frame, dict) for frame in frames)):
            raise FairnessError("has no table frames")
        for name, length in (("commitment", 32), ("nonce", NONCE_BYTES), ("previous_secret", SECRET_BYTES)):
            if saved.get(name) is not None and not _bytes(saved.get(name), length):
                raise FairnessError(f"has a damaged {name}")
        changed = saved.get("changed") or []
        if not (isinstance(changed, list) and all(isinstance(line, str) for line in changed)):
            raise FairnessError("has a damaged list of changes")
        return cls(seat, saved.get("commitment"), saved.get("nonce"), list(frames), saved.get("previous_secret"),
                   list(changed))


def verify(game: Game, evidence: Evidence) -> Verdict:
    """Check one finished game from a client's evidence: the reveal against the commitment it was shown,
    its own nonce, the seed, and every view, prompt, event and result against a replay of the record."""
    last = evidence.frames[-1]
    record, result = last.get("record"), last.get("result")
    if not isinstance(record, dict) or result is None:
        return Verdict(NOT_AVAILABLE, ["the game did not reach its end here"])
    reveal = record.get("fair")
    if evidence.commitment is None and reveal is None:
        return Verdict(NOT_AVAILABLE, ["the host chose the seed"])
    problems = list(evidence.changed)
    try:
        seed = _check_reveal(reveal, evidence, record, problems)
    except FairnessError as error:
        return Verdict("mismatch", problems + [str(error)])
    try:
        problems += _replay_and_compare(game, record, seed, evidence)
    except Exception as error:  # a record that breaks the rules, or is malformed: a mismatch, never a crash
        problems.append(f"the record cannot be replayed ({str(error)[:80] or 'it breaks the rules'})")
    return Verdict("mismatch" if problems else "verified", problems)


def _check_reveal(reveal: Any, evidence: Evidence, record: dict[str, Any], problems: list[str]) -> int:
    if not isinstance(reveal, dict):
        raise FairnessError("the host sent no reveal of its secret, though it committed to one")
    secret, salt, nonces = reveal.get("secret"), reveal.get("salt"), reveal.get("nonces")
    seats = len(record.get("seats") or [])
    if not (_bytes(secret, SECRET_BYTES) and _bytes(salt, SALT_BYTES) and isinstance(nonces, list)
            and len(nonces) == seats and all(_bytes(nonce, NONCE_BYTES) for nonce in nonces)):
        raise FairnessError("the reveal is malformed")
    if evidence.commitment is None:
        raise FairnessError("the host revealed a secret it never committed to")
    if not hmac.compare_digest(commitment_of(secret, salt), evidence.commitment):
        raise FairnessError("the revealed secret does not match the commitment sent at the start")
    if evidence.previous_secret is not None and sha256(secret) != evidence.previous_secret:
        problems.append("this game's secret does not follow from the last game's at this table")
    if evidence.seat is not None and evidence.nonce is not None and 0 <= evidence.seat < seats:
        if nonces[evidence.seat] != evidence.nonce:
            problems.append("the nonce this client sent is not the one the seed was made with")
    own = reveal.get("own")
    if isinstance(own, list) and len(own) == seats:
        for seat, (nonce, its_own) in enumerate(zip(nonces, own)):
            if its_own is not True and nonce != host_nonce(secret, seat):
                problems.append(f"seat {seat + 1}'s nonce is neither its player's nor the host's fixed one")
    seed = derive_seed(secret, nonces)
    if record.get("seed") != seed:
        raise FairnessError("the record's seed is not the one the secret and the nonces make")
    return seed


def log_names(seats: list[dict[str, Any]]) -> list[str]:
    """How the host's log named each seat at the time of a frame (``SeatInfo.name_in_the_log``)."""
    names = []
    for info in seats:
        name = str(info.get("name") or "")
        if info.get("kind") == "open":
            name = ""
        elif info.get("kind") == "bot" and name.endswith(" bot)") and " (" in name:
            name = name[:name.rindex(" (")]
        names.append(name)
    return names


def _replay_and_compare(game: Game, record: dict[str, Any], seed: int, evidence: Evidence) -> list[str]:
    """Every frame of the game against the replay, for this client's seat."""
    options = game.resolve_options(record["options"])
    state = game.setup(options, seed)
    # As sent: through msgpack (tuples arrive as lists), so a replay compares equal to what came.
    states, logs = [as_sent(game.view(state, evidence.seat))], [as_sent(game.opening_events(state))]
    legal_at = [as_sent(_legal(game, state, evidence.seat))]
    problems: list[str] = []
    broken: list[str] = []  # said after the frames' problems, which come in the game's order
    for number, (seat, action) in enumerate(record["actions"], start=1):
        if seat not in game.pending(state) or dict(action) not in game.legal_actions(state, seat):
            broken.append(f"move {number} of the record breaks the rules in the replay")
            break
        logs.append(logs[-1] + as_sent(game.apply(state, seat, dict(action))))
        states.append(as_sent(game.view(state, evidence.seat)))
        legal_at.append(as_sent(_legal(game, state, evidence.seat)))
    final = as_sent(game.result(state)) if not broken else None
    shown_until: int | None = None  # the log length at the last frame's turn (None: before any frame)
    for number, frame in enumerate(evidence.frames, start=1):
        turn = frame.get("turn")
        if not (isinstance(turn, int) and 0 <= turn < len(states)):
            if len(states) == len(record["actions"]) + 1:  # (else: past the move that broke the rules)
                problems.append(f"frame {number} is at a turn the record never reached")
            continue
        if not frame.get("started"):
            continue  # before the table filled the cards were not dealt yet
        labels = seat_labels(log_names(frame.get("seats") or []))
        if frame.get("view") != states[turn]:
            problems.append(f"the view sent at move {turn} is not the replay's")
        prompt = frame.get("prompt")
        if prompt is not None:
            offered = [choice.get("action") for choice in prompt.get("choices", [])]
            if offered != legal_at[turn]:
                problems.append(f"the choices offered at move {turn} are not the rules' choices")
        received = [event for event in frame.get("events") or [] if not event.get("table_line")]
        start = 0 if frame.get("catch_up") or shown_until is None else shown_until
        expected = visible_events([{**event, "text": name_seats(event["text"], labels)}
                                   for event in logs[turn][start:]], evidence.seat)
        if received != expected:
            problems.append(f"the events sent at move {turn} are not the replay's")
        shown_until = len(logs[turn])
    result = evidence.frames[-1].get("result") or {}
    if final is None and len(states) == len(record["actions"]) + 1:
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
        saved = unpack(data)
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
