"""The time zones a new league is offered.

Words:
- *geographic zone*: an IANA zone named by a region and a place ("Europe/Berlin"), and UTC;
  not the database's aliases and files ("Factory", "localtime", "posixrules", "Etc/GMT+5",
  "US/Central", "EST5EDT").
- *the server's zone*: the ``TIME_ZONE`` setting when it names a zone other than UTC, else the
  zone of the machine flipwell runs on (``/etc/localtime``), else UTC.
"""

from __future__ import annotations

import zoneinfo
from functools import cache
from pathlib import Path

from django.conf import settings

REGIONS = (
    "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe",
    "Indian", "Pacific",
)  # fmt: skip
COMMON = (
    "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
    "America/Los_Angeles", "America/Anchorage", "Pacific/Honolulu", "America/Toronto",
    "America/Vancouver", "Europe/London", "Europe/Dublin", "Europe/Paris", "Europe/Berlin",
    "Europe/Amsterdam", "Europe/Stockholm", "Europe/Madrid", "Europe/Rome", "Australia/Sydney",
    "Australia/Melbourne", "Australia/Brisbane", "Australia/Perth", "Pacific/Auckland",
    "Asia/Tokyo", "UTC",
)  # fmt: skip
"""The zones most leagues play in, offered first after the server's."""

LOCALTIME = Path("/etc/localtime")


@cache
def geographic_zones() -> tuple[str, ...]:
    """Every geographic zone this machine knows, sorted, UTC last."""
    zones = zoneinfo.available_timezones()
    places = sorted(z for z in zones if z.split("/", 1)[0] in REGIONS and "/" in z)
    return (*places, "UTC")


def machine_zone() -> str | None:
    """The geographic zone the machine's clock is set to (``/etc/localtime`` links into the
    zone database), or None when it says none."""
    try:
        target = str(LOCALTIME.resolve())
    except OSError:
        return None
    name = target.partition("/zoneinfo/")[2]
    name = name.removeprefix("posix/").removeprefix("right/")
    if name in ("Etc/UTC", "Etc/UCT", "Etc/Universal", "Etc/Zulu", "UCT", "Universal", "Zulu"):
        return "UTC"
    return name if name in geographic_zones() else None


def server_zone() -> str:
    """The server's zone (see the module's words): what a new league is offered first."""
    configured = str(settings.TIME_ZONE)
    if configured != "UTC" and configured in geographic_zones():
        return configured
    return machine_zone() or "UTC"


def zone_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The time zone list of the new-league form: the server's zone and the common ones first,
    then every other geographic zone, each labelled with spaces ("America/New York")."""
    first = list(dict.fromkeys((server_zone(), *(z for z in COMMON if z in geographic_zones()))))
    rest = [z for z in geographic_zones() if z not in first]
    return [
        ("Common zones", [(z, z.replace("_", " ")) for z in first]),
        ("Every zone", [(z, z.replace("_", " ")) for z in rest]),
    ]
