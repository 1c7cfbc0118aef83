"""How ``make run`` serves a league night and ``make dev`` a developer: addresses and settings.

Words:
- *host*: the address the server listens on (``HOST`` of make): a loopback address
  (127.0.0.1, the default: this machine only), ``0.0.0.0`` (every network of this machine: the
  venue's Wi-Fi) or one address of this machine.
- *venue address*: the address phones use, ``http://<LAN address>:<port>`` (`flipwell.lan`)
  when the host is 0.0.0.0, the host itself when it is one address, else 127.0.0.1. The QR
  codes of the printed score sheets carry the address the console was opened from, so the
  official opens it at this address before printing.
- *run environment*: the settings ``make run`` gives ``flipwell serve`` (gunicorn, ``DEBUG``
  off): ``ALLOWED_HOSTS`` the localhost names and the venue address's host, and
  ``FLIPWELL_SITE_URL`` the venue address, where e-mails link to and whose port a request may
  name (`flipwell.web.hosts`). Any other ``Host`` is refused, so a forged one can never
  reach a page, a QR code or an e-mail.
- *dev*: ``make dev``, Django's auto-reloading server with ``DEBUG`` on. A page that fails
  there shows its traceback and the settings, and a 404 lists every URL: so it listens on a
  loopback address only, and any other host is refused with the reason.

Standard library only, so make can ask it before Django is set up:
``python -m flipwell.venue env HOST PORT`` prints the run environment (``NAME=value`` lines),
``python -m flipwell.venue banner HOST PORT`` where to open flipwell (the venue address),
``python -m flipwell.venue dev HOST`` exits 2 with the reason for a host
that is not a loopback address.
"""

from __future__ import annotations

import ipaddress
import sys
from collections.abc import Sequence

from flipwell.lan import lan_address

LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
EVERY_NETWORK = ("0.0.0.0", "::", "[::]")


def is_loopback(host: str) -> bool:
    """Whether `host` reaches this machine only (localhost, 127.x.y.z, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _url_host(host: str) -> str:
    """`host` as it is written in a URL (an IPv6 address in brackets)."""
    bare = host.strip("[]")
    return f"[{bare}]" if ":" in bare else bare


def venue_address(host: str, port: int, lan: str | None) -> str | None:
    """The address phones use (see the module words), or None when `host` is every network
    and the machine has no LAN address (phones cannot reach it)."""
    if is_loopback(host):
        return f"http://127.0.0.1:{port}"
    if host in EVERY_NETWORK:
        return f"http://{lan}:{port}" if lan else None
    return f"http://{_url_host(host)}:{port}"


def run_environment(host: str, port: int, lan: str | None) -> dict[str, str]:
    """The settings of ``make run`` (see the module words)."""
    address = venue_address(host, port, lan) or f"http://127.0.0.1:{port}"
    venue_host = address.split("://", 1)[1].rsplit(":", 1)[0]
    hosts = [*LOCAL_NAMES, *([venue_host] if venue_host not in LOCAL_NAMES else [])]
    return {
        "DEBUG": "0",
        "ALLOWED_HOSTS": ",".join(hosts),
        "FLIPWELL_SITE_URL": address,
    }


def banner(host: str, port: int, lan: str | None) -> str:
    """What ``make run`` says before it starts the server: where to open flipwell."""
    address = venue_address(host, port, lan)
    if is_loopback(host):
        return (
            f"Open {address}/ (Ctrl+C stops the server).\n"
            "Phones at the venue cannot reach this address: use make run HOST=0.0.0.0"
        )
    if address is None:
        return (
            f"Serving {host}:{port}, but no network address was found: phones cannot reach "
            f"this machine. Open http://127.0.0.1:{port}/ here (Ctrl+C stops the server)."
        )
    return (
        f"Serving the venue's network on {host}:{port} (Ctrl+C stops the server).\n"
        f"Phones and QR codes use {address}/ : open flipwell at this address\n"
        "(not 127.0.0.1) before printing the score sheets."
    )


def dev_refusal(host: str) -> str:
    """Why ``make dev`` refuses to listen on `host` ("" for a loopback address)."""
    if is_loopback(host):
        return ""
    return (
        f"make dev refuses HOST={host}: it runs with DEBUG on, where a failing page shows "
        "its traceback and the settings, and a missing one lists every URL, to anyone on the "
        "network. make dev listens on 127.0.0.1 only; to serve the venue's network use "
        f"make run HOST={host} (gunicorn, DEBUG off)."
    )


def main(argv: Sequence[str]) -> int:
    """The command line of the module docstring; the exit status."""
    match list(argv):
        case ["env", host, port]:
            for name, value in run_environment(host, int(port), lan_address()).items():
                print(f"{name}={value}")
            return 0
        case ["banner", host, port]:
            print(banner(host, int(port), lan_address()))
            return 0
        case ["dev", host]:
            refusal = dev_refusal(host)
            if refusal:
                print(refusal, file=sys.stderr)
                return 2
            return 0
    print("usage: python -m flipwell.venue env|banner HOST PORT | dev HOST", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
