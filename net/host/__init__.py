"""The TCP host (``net.host.server`` for now): its public names, importable from ``net.host``."""

from net.host.server import (
    Advertising,
    Connection,
    HostSettings,
    TableHost,
    TokenBucket,
    WrongCodeThrottle,
    advertise,
    bind_address,
    lan_addresses,
    record_saver,
)

__all__ = ["Advertising", "Connection", "HostSettings", "TableHost", "TokenBucket", "WrongCodeThrottle",
           "advertise", "bind_address", "lan_addresses", "record_saver"]
