"""This client's part in each game's fair deal: its share, pledged and revealed when the deal asks, and the
evidence it keeps to check the deal once the game ends (``net.fairness`` is the protocol's crypto).

Invariants:

- A share is drawn only once the host's commitment for that game is seen; its pledge (the hash) goes out
  then, and the share itself only once the pledges are frozen. Each goes out at most once a connection.
- Besides the game being dealt, only the last game's share is kept.
- Every frame of the game is kept for the check; a commitment that changes during the game, or is not the
  one in the welcome, is written into the evidence. The check runs in a worker thread, so the interface
  never waits on it.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, Callable

from net import protocol
from net.client.snapshot import TableSnapshot
from net.fairness import NOT_AVAILABLE, Evidence, Verdict, pledge_of, verify


class DealShare:
    """One client's shares and evidence, across its connections and games."""

    def __init__(self, write: Callable[[dict[str, Any]], None]) -> None:
        #: Sends a message on the client's connection of the moment (nothing while it has none).
        self._write = write
        #: Our share of each game's fair deal, by the host's commitment for that game: drawn when we first
        #: see the commitment, pledged (its hash) then, revealed once every seat has pledged.
        self._shares: dict[bytes, bytes] = {}
        #: What we have sent of the share on this connection: ("pledge" | "reveal", commitment).
        self._share_sent: set[tuple[str, bytes]] = set()
        #: The commitment in the last welcome, until the table frame after it (which must carry the same).
        self.welcome_commitment: bytes | None = None
        #: What this client keeps of the game being played to check its deal at the end; the last
        #: finished game's (``evidence``) stays for a saved file.
        self._evidence: Evidence | None = None
        self.evidence: Evidence | None = None
        self._last_secret: bytes | None = None

    def new_connection(self) -> None:
        """A fresh connection has sent nothing yet: a pledge or reveal the deal still asks for goes again."""
        self._share_sent.clear()

    @property
    def nonce(self) -> bytes | None:
        """Our share of the game being dealt or played (None before we saw its commitment)."""
        commitment = self._evidence.commitment if self._evidence is not None else None
        return self._shares.get(commitment) if commitment is not None else None

    async def follow(self, snap: TableSnapshot, role: str, message: dict[str, Any]) -> None:
        """Keep every frame of the game; pledge and reveal our share when the deal asks; at the game's end,
        check the deal (``net.fairness.verify``) in a worker thread, so the interface never waits on it."""
        finished = self.keep_evidence(snap, role, message)
        if finished is None:
            if message.get("result") is None:
                snap.fair = None
            return
        try:
            from core.registry import get_game
            game = get_game(snap.game)
        except KeyError:
            snap.fair = Verdict(NOT_AVAILABLE, ["this turpin does not have the game"])
            return
        verdict = await asyncio.to_thread(verify, game, finished)
        record = message.get("record")
        reveal = record.get("fair") if isinstance(record, dict) else None
        if verdict.status == "verified" and isinstance(reveal, dict) and isinstance(reveal.get("secret"), bytes):
            self._last_secret = reveal["secret"]
        snap.fair = verdict

    def keep_evidence(self, snap: TableSnapshot, role: str, message: dict[str, Any]) -> Evidence | None:
        """Keep the frame for the check, and do our part of the deal; the game's evidence once it ends."""
        if message.get("result") is not None and self._evidence is None and self.evidence is not None:
            return None  # the finished game told again (a seat left, a reconnect)
        commitment = message.get("commitment")
        commitment = commitment if isinstance(commitment, bytes) and len(commitment) == 32 else None
        evidence = self._evidence
        if evidence is None:
            evidence = self._evidence = Evidence(snap.seat, commitment, previous_secret=self._last_secret)
        elif commitment != evidence.commitment and not evidence.changed:
            evidence.changed.append(f"the commitment changed during the game (at move {message.get('turn')})")
        welcomed_with, self.welcome_commitment = self.welcome_commitment, None
        if welcomed_with is not None and welcomed_with != commitment and not evidence.changed:
            evidence.changed.append("the commitment in the welcome is not the one in the table's frames")
        evidence.seat = snap.seat  # (new seats drawn from the shares move us once they are in)
        deal = message.get("deal")
        if isinstance(deal, dict) and commitment is not None and commitment == evidence.commitment:
            self._take_part(snap, role, deal, commitment, evidence)
        evidence.keep(message)
        if message.get("result") is None:
            return None
        self._evidence, self.evidence = None, evidence
        return evidence

    def _take_part(self, snap: TableSnapshot, role: str, deal: dict[str, Any], commitment: bytes,
                   evidence: Evidence) -> None:
        """Our share of the deal: pledged only after we have seen the host's commitment, and
        revealed only once the pledges are frozen, which we keep to check at the end."""
        seat, phase, pledges = snap.seat, deal.get("phase"), deal.get("pledges")
        if not (isinstance(pledges, list) and all(p is None or isinstance(p, bytes) for p in pledges)):
            return
        if phase == "reveals":
            if evidence.pledges is None:
                evidence.pledges, evidence.shuffle = list(pledges), deal.get("shuffle") is True
            elif evidence.pledges != pledges and not evidence.changed:
                evidence.changed.append("the pledges changed after they were closed")
        if role != "player" or seat is None or not 0 <= seat < len(pledges):
            return
        if commitment not in self._shares:
            fresh = secrets.token_bytes(protocol.NONCE_BYTES)
            self._shares = {**dict(list(self._shares.items())[-1:]), commitment: fresh}
        nonce = self._shares[commitment]
        ours = pledges[seat] == pledge_of(nonce)
        if phase == "pledges" and not ours and ("pledge", commitment) not in self._share_sent:
            self._share_sent.add(("pledge", commitment))
            self._write({"type": "pledge", "pledge": pledge_of(nonce)})
        elif phase == "reveals" and ours and ("reveal", commitment) not in self._share_sent:
            revealed = deal.get("revealed")
            if isinstance(revealed, list) and seat in revealed:
                return
            self._share_sent.add(("reveal", commitment))
            evidence.nonce, evidence.revealed, evidence.share_seat = nonce, True, seat
            self._write({"type": "reveal", "nonce": nonce})
