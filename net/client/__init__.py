"""The client: one connection to a table, kept alive, with a snapshot the UI renders; split by job.

- ``connection``: ``TableClient``, the connection itself (hello, reading, heartbeats, reconnecting).
- ``snapshot``: ``TableSnapshot`` (what the client knows) and ``ClientUpdate`` (what it just heard).
- ``share``: ``DealShare``, this client's part in each game's fair deal and the evidence it checks.
- ``errors``: ``ClientError`` and the words for what goes wrong with a connection.

The rest of the tree imports these names from ``net.client``; a test that patches one patches it in the
module that looks it up.
"""

from net.client.connection import TableClient
from net.client.errors import ClientError, describe_duration, explain_connection_error
from net.client.snapshot import ClientUpdate, TableSnapshot

__all__ = ["ClientError", "ClientUpdate", "TableClient", "TableSnapshot", "describe_duration",
           "explain_connection_error"]
