"""The machine's address on the venue's network (LAN), for `make run HOST=0.0.0.0`.

Phones at the venue reach the server at this address, and the QR codes of the printed score
sheets carry the address the page was opened from: so the official opens flipwell at this
address, not at 127.0.0.1, before printing. Standard library only; ``python -m flipwell.lan``
prints the address (nothing when the machine has no network).
"""

from __future__ import annotations

import ipaddress
import socket
import sys

PROBE = ("192.0.2.1", 9)
"""A documentation address (TEST-NET-1): connecting a UDP socket to it sends nothing, but
makes the system pick the interface, and so the address, that leaves the machine."""


def lan_address() -> str | None:
    """The IPv4 address other devices on the network reach this machine at, or None (no
    network, or only the loopback)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0":
        return None
    return address


def main() -> int:
    """Print the LAN address (or nothing); the status is 0 either way."""
    address = lan_address()
    if address is not None:
        print(address)
    return 0


if __name__ == "__main__":
    sys.exit(main())
