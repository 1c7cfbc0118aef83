"""Typed readers of environment variables, shared by the settings and the gunicorn config.

Each reads one variable and fails loudly on a value it cannot use (``DEBUG=maybe`` stops the
process instead of meaning "off"). They import nothing of Django but its exception, so the
gunicorn config module (`flipwell.gunicorn_conf`) can use them before Django is set up.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from email.utils import getaddresses
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

LISTEN_PORTS_VARIABLE = "FLIPWELL_LISTEN_PORTS"
"""Set by `flipwell.gunicorn_conf` for its workers: the ports gunicorn listens on, which a
request's ``Host`` may name (``ALLOWED_PORTS``' default, see `flipwell.settings`)."""
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def env_str(name: str, default: str, *, environ: Mapping[str, str] = os.environ) -> str:
    """The variable's value, or `default` when it is unset or empty."""
    return environ.get(name, "").strip() or default


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] = os.environ) -> bool:
    """A yes/no variable; anything but the listed words is a configuration error."""
    raw = environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in TRUE_WORDS:
        return True
    if raw in FALSE_WORDS:
        return False
    allowed = ", ".join(sorted(TRUE_WORDS | FALSE_WORDS))
    raise ImproperlyConfigured(
        f"{name}={environ[name]!r} is not a yes/no value; use one of {allowed}"
    )


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] = os.environ
) -> list[str]:
    """A comma-separated variable as a list of its non-empty, stripped items."""
    raw = environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(
    name: str, default: int, *, minimum: int = 0, environ: Mapping[str, str] = os.environ
) -> int:
    """A whole number at least `minimum`; anything else is a configuration error."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ImproperlyConfigured(
            f"{name}={environ[name]!r} is not a whole number of at least {minimum}"
        )
    return value


def env_time_zone(name: str, default: str, *, environ: Mapping[str, str] = os.environ) -> str:
    """An IANA time zone name that this machine's zone database knows."""
    value = env_str(name, default, environ=environ)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a known time zone; use an IANA name such as Europe/Berlin"
        ) from exc
    return value


def env_addresses(name: str, *, environ: Mapping[str, str] = os.environ) -> list[tuple[str, str]]:
    """Comma-separated e-mail addresses (``Ann <ann@example.org>, bob@example.org``) as
    Django's ``ADMINS`` wants them: (name, address) pairs; an item without an @ is refused."""
    raw = environ.get(name, "").strip()
    if not raw:
        return []
    pairs = getaddresses([raw])
    bad = [address for _name, address in pairs if "@" not in address]
    if bad or not pairs:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a list of e-mail addresses; use "
            "'Ann <ann@example.org>, bob@example.org'"
        )
    return [(person or address, address) for person, address in pairs]
