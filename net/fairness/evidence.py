"""What a client keeps of one game to check its deal, and the saved file it is kept in afterwards
(``turpin verify FILE``).

What must hold: the evidence never grows past ``MAX_EVIDENCE_BYTES`` (a host that sends more is marked,
and the check calls it a mismatch); a saved file is read within ``_MAX_CHECK_FILE`` bytes and the file
reader's limits, and a damaged one is refused in words (``FairnessError``), never half-read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Iterator

from core.engine import pack, unpack
from net.fairness.deal import NONCE_BYTES, PLEDGE_BYTES, SECRET_BYTES, VERSION, FairnessError, is_bytes, is_small_int
from net.untrusted import decode_file, read_at_most

#: The most a client keeps of one game's frames for its check (their msgpack bytes, kept as bytes: the
#: check's memory is this much plus one frame decoded at a time). An honest game sends far less.
MAX_EVIDENCE_BYTES = 48 * 1024 * 1024


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
        if not (seat is None or is_small_int(seat)):
            raise FairnessError("has no valid seat")
        frames: Any = saved.get("frames")  # (as maps, read with the file's limits; kept packed)
        if not (isinstance(frames, list) and frames and all(isinstance(frame, dict) for frame in frames)):
            raise FairnessError("has no table frames")
        packed = [pack(frame) for frame in frames]
        for name, length in (("commitment", 32), ("nonce", NONCE_BYTES), ("previous_secret", SECRET_BYTES)):
            if saved.get(name) is not None and not is_bytes(saved.get(name), length):
                raise FairnessError(f"has a damaged {name}")
        changed = saved.get("changed") or []
        if not (isinstance(changed, list) and all(isinstance(line, str) for line in changed)):
            raise FairnessError("has a damaged list of changes")
        evidence = cls(seat, saved.get("commitment"), saved.get("nonce"), list(packed),
                       saved.get("previous_secret"), list(changed), version=1)
        if saved["version"] == 2:
            pledges, share_seat, shuffle = saved.get("pledges"), saved.get("share_seat"), saved.get("shuffle")
            if pledges is not None and not (isinstance(pledges, list) and len(pledges) <= 64 and all(
                    pledge is None or is_bytes(pledge, PLEDGE_BYTES) for pledge in pledges)):
                raise FairnessError("has damaged pledges")
            if not (share_seat is None or is_small_int(share_seat)) or shuffle not in (None, True, False):
                raise FairnessError("has a damaged share of the deal")
            if saved.get("deal_version") not in (1, 2) or not isinstance(saved.get("revealed"), bool) \
                    or not isinstance(saved.get("overflow"), bool):
                raise FairnessError("has a damaged deal")
            evidence.version, evidence.pledges, evidence.revealed = saved["deal_version"], pledges, saved["revealed"]
            evidence.share_seat, evidence.shuffle, evidence.overflow = share_seat, shuffle, saved["overflow"]
        return evidence



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

