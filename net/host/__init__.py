"""The TCP host: serves one ``Table`` to any number of clients over asyncio, split by job.

- ``settings``: ``HostSettings``, every number the host goes by.
- ``budgets``: what a peer may ask before it is slowed down or closed (room codes, token buckets).
- ``connection``: one client connection (reader, bounded send queue, writer).
- ``server``: ``TableHost``, the server itself and its background loops (watchdog, clocks, bots).
- ``lan``: the address to listen on, the addresses to share, and the LAN advert.

Each connection has a reader (frames in, checked, handed to the table) and a writer fed by a bounded
queue, so a slow or stalled client never holds up the others: when its queue is full it is dropped, and it
may reconnect for a catch-up. One watchdog task sends heartbeats and drops any peer that has sent nothing
(not even a ``pong``) for ``timeout`` seconds — a frozen client is noticed within that time and the table
says so. Wrong room codes are slowed down per address, doubling each time, and the slowdown resets after a
right code or a quiet spell.

The rest of the tree imports these names from ``net.host``; a test that patches one patches it in the
module that looks it up.
"""

from net.host.budgets import TokenBucket, WrongCodeThrottle
from net.host.connection import Connection
from net.host.lan import Advertising, advertise, bind_address, lan_addresses
from net.host.server import TableHost, record_saver
from net.host.settings import HostSettings

__all__ = ["Advertising", "Connection", "HostSettings", "TableHost", "TokenBucket", "WrongCodeThrottle",
           "advertise", "bind_address", "lan_addresses", "record_saver"]
