"""The client (``net.client.connection`` for now): its public names, importable from ``net.client``."""

from net.client.connection import (
    ClientError,
    ClientUpdate,
    TableClient,
    TableSnapshot,
    describe_duration,
    explain_connection_error,
)

__all__ = ["ClientError", "ClientUpdate", "TableClient", "TableSnapshot", "describe_duration",
           "explain_connection_error"]
