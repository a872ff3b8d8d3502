"""This machine's IPv4 addresses, by interface name: the one ifaddr lookup the host and discovery share.

``ifaddr`` comes with zeroconf; it is imported when an address is first asked for, so a host without
discovery still starts (it raises ImportError only to a caller that needs an interface's address).
"""

from __future__ import annotations


def ipv4_by_interface() -> dict[str, list[str]]:
    """Interface name -> its IPv4 addresses, in the order the system lists them."""
    import ifaddr

    found: dict[str, list[str]] = {}
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4:
                found.setdefault(adapter.nice_name, []).append(str(ip.ip))
    return found
