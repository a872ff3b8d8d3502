"""A table's address as people type it (``HOST:PORT``), and this machine's IPv4 addresses by interface name:
the one ifaddr lookup the host and discovery share.

``ifaddr`` comes with zeroconf; it is imported when an address is first asked for, so a host without
discovery still starts (it raises ImportError only to a caller that needs an interface's address).
"""

from __future__ import annotations

from core.engine import OptionError

#: The port a table is served on when none is asked for.
DEFAULT_TABLE_PORT = 4707


def ipv4_by_interface() -> dict[str, list[str]]:
    """Interface name -> its IPv4 addresses, in the order the system lists them."""
    import ifaddr

    found: dict[str, list[str]] = {}
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4:
                found.setdefault(adapter.nice_name, []).append(str(ip.ip))
    return found


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` as the host printed it, with a port from 1 to 65535; ``OptionError`` in words."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit():
        raise OptionError(f"give the table's address as HOST:PORT, e.g. 192.168.1.20:{DEFAULT_TABLE_PORT}, "
                          f"not {text!r}")
    if not 1 <= int(port) <= 65535:
        raise OptionError(f"a port is a number from 1 to 65535, not {port}")
    return host.strip("[]"), int(port)
