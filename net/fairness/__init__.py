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

The package by job: ``deal`` holds the bytes and the host's ``FairDeal``; ``evidence`` what a client keeps
of a game and its saved file; ``check`` the client's verdict. Every name is importable from here.
"""

from net.fairness.check import NOT_AVAILABLE, Verdict, as_sent, log_names, verify
from net.fairness.deal import (
                               CHAIN,
                               HOST_NONCE_TAG,
                               HOST_NONCE_TAG_V1,
                               NONCE_BYTES,
                               PLEDGE_BYTES,
                               PLEDGE_TAG,
                               SALT_BYTES,
                               SEATS_TAG,
                               SECRET_BYTES,
                               SEED_TAG,
                               SEED_TAG_V1,
                               SHARE_SECONDS,
                               VERSION,
                               FairDeal,
                               FairnessError,
                               chain_secret,
                               commitment_of,
                               derive_order,
                               derive_seed,
                               host_nonce,
                               pledge_of,
                               sha256,
)
from net.fairness.evidence import CHECK_SUFFIX, MAX_EVIDENCE_BYTES, Evidence, read_evidence, write_evidence

__all__ = ["CHAIN", "CHECK_SUFFIX", "HOST_NONCE_TAG", "HOST_NONCE_TAG_V1", "MAX_EVIDENCE_BYTES", "NONCE_BYTES",
           "NOT_AVAILABLE", "PLEDGE_BYTES", "PLEDGE_TAG", "SALT_BYTES", "SEATS_TAG", "SECRET_BYTES", "SEED_TAG",
           "SEED_TAG_V1", "SHARE_SECONDS", "VERSION", "Evidence", "FairDeal", "FairnessError", "Verdict", "as_sent",
           "chain_secret", "commitment_of", "derive_order", "derive_seed", "host_nonce", "log_names", "pledge_of",
           "read_evidence", "sha256", "verify", "write_evidence"]
