"""Typed readers of environment variables, shared by the settings and the gunicorn config,
and the readers of the settings that need more than one variable's text: the secret key, the
database, the site's address, the origins whose pages may call the API and the hosts a server
with ``DEBUG`` on answers to.

Each fails loudly on a value it cannot use (``DEBUG=maybe`` stops the process instead of
meaning "off"). They import nothing of Django but its exception, so the gunicorn config module
(`flipwell.gunicorn_conf`) can use them before Django is set up. docs/configuration.md says
what each variable does.

Words: a *weak* secret key is one an attacker could guess: shorter than 20 characters, fewer
than 5 distinct characters, or a placeholder copied from documentation.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from email.utils import getaddresses
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url
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


SECRET_KEY_FILE_NAME = "secret_key"
MIN_SECRET_KEY_LENGTH = 20
MIN_SECRET_KEY_CHARACTERS = 5
# Placeholders people copy from examples; compared case-insensitively.
WEAK_SECRET_KEYS = frozenset(
    {
        "flipwell-insecure-development-key-never-use-in-production",
        "changeme-changeme-changeme",
        "please-change-this-secret-key",
        "your-secret-key-goes-here",
    }
)
SQLITE_TIMEOUT_SECONDS = 20
SQLITE_INIT_COMMAND = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"
SUPPORTED_DATABASE_URLS = (
    "sqlite:///relative/path.sqlite3, sqlite:////absolute/path.sqlite3, "
    "postgres://user:password@host:port/name or postgresql://..."
)


def secret_key(*, data_dir: Path, environ: Mapping[str, str] = os.environ) -> str:
    """SECRET_KEY from the environment, else the key kept in `data_dir` (generated if missing).

    A key set explicitly must not be empty or weak (the module's words): a bad key stops
    the process instead of signing sessions anyone could forge.
    """
    if "SECRET_KEY" not in environ:
        return stored_secret_key(data_dir / SECRET_KEY_FILE_NAME)
    value = environ["SECRET_KEY"].strip()
    if not value:
        raise ImproperlyConfigured(
            "SECRET_KEY is set but empty. Unset it to let flipwell generate and keep one in "
            f"FLIPWELL_DATA_DIR, or set it to a long random string, for example {_KEY_EXAMPLE}."
        )
    problem = weak_secret_key_problem(value)
    if problem:
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak: {problem}. Use a long random string, for example "
            f"{_KEY_EXAMPLE}, or unset it to let flipwell generate one."
        )
    return value


_KEY_EXAMPLE = "the output of `python -c 'import secrets; print(secrets.token_urlsafe(50))'`"


def weak_secret_key_problem(value: str) -> str:
    """Why `value` is a weak secret key, or "" when it is not."""
    if len(value) < MIN_SECRET_KEY_LENGTH:
        return f"it has {len(value)} characters, fewer than {MIN_SECRET_KEY_LENGTH}"
    if len(set(value)) < MIN_SECRET_KEY_CHARACTERS:
        return f"it uses fewer than {MIN_SECRET_KEY_CHARACTERS} different characters"
    if value.lower() in WEAK_SECRET_KEYS:
        return "it is a published placeholder"
    return ""


def stored_secret_key(path: Path) -> str:
    """The key kept in `path`, generated there (mode 0600) the first time.

    Two processes starting at once both end with the first one's key: the file is created
    exclusively, and the loser of the race reads the winner's file.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_secret_key(path)
    except OSError as exc:
        raise ImproperlyConfigured(
            f"cannot create the secret key file {path} ({exc.strerror}); make FLIPWELL_DATA_DIR "
            "writable or set SECRET_KEY"
        ) from exc
    key = secrets.token_urlsafe(50)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(key + "\n")
    return key


def _read_secret_key(path: Path) -> str:
    try:
        value = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ImproperlyConfigured(
            f"cannot read the secret key file {path} ({exc}); fix it, or delete it to have a "
            "new key generated (which signs everyone out)"
        ) from exc
    problem = weak_secret_key_problem(value)
    if problem:
        raise ImproperlyConfigured(
            f"the secret key in {path} is too weak: {problem}. Delete the file to have a new "
            "key generated (which signs everyone out)."
        )
    return value


def parse_database_url(
    url: str, *, conn_max_age: int = 0, conn_health_checks: bool = False
) -> dict[str, Any]:
    """One entry of Django's DATABASES from a URL; refuses a scheme or form it cannot use.

    Only SQLite and PostgreSQL are accepted (the two databases the suite runs on). PostgreSQL
    URLs are parsed by dj-database-url after flipwell's checks, which name the problem.
    `conn_max_age` and `conn_health_checks` become Django's ``CONN_MAX_AGE`` and
    ``CONN_HEALTH_CHECKS`` (docs/configuration.md).
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    connections = {"CONN_MAX_AGE": conn_max_age, "CONN_HEALTH_CHECKS": conn_health_checks}
    if scheme == "sqlite":
        return {**_sqlite_database(parts.netloc, parts.path, url), **connections}
    if scheme in ("postgres", "postgresql"):
        return _postgres_database(
            url, conn_max_age=conn_max_age, conn_health_checks=conn_health_checks
        )
    shown = scheme or "(none)"
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {shown!r} is not supported; use {SUPPORTED_DATABASE_URLS}"
    )


def _sqlite_database(netloc: str, path: str, url: str) -> dict[str, Any]:
    # sqlite:///x is the relative path "x", sqlite:////x the absolute "/x" (SQLAlchemy's form).
    name = unquote(path[1:])
    if netloc or not name:
        raise ImproperlyConfigured(
            f"DATABASE_URL {url!r} is not a SQLite URL flipwell understands; use "
            "sqlite:///relative/path.sqlite3 or sqlite:////absolute/path.sqlite3 (three or four "
            "slashes, no host)"
        )
    return sqlite_database(name)


def sqlite_database(name: str) -> dict[str, Any]:
    """A SQLite database at `name`, opened for concurrent writers (docs/configuration.md)."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": name,
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": SQLITE_TIMEOUT_SECONDS,
            "init_command": SQLITE_INIT_COMMAND,
        },
    }


def _postgres_database(url: str, *, conn_max_age: int, conn_health_checks: bool) -> dict[str, Any]:
    """dj-database-url's reading of a PostgreSQL URL, once flipwell's checks have passed."""
    parts = urlsplit(url.strip())
    name = unquote(parts.path.lstrip("/"))
    if not name or "/" in name:
        raise ImproperlyConfigured(
            f"DATABASE_URL {_without_password(url)!r} names no database; "
            "use postgres://user:password@host:port/name"
        )
    try:
        parts.port  # noqa: B018  (urlsplit checks the port only when asked for it)
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"DATABASE_URL {_without_password(url)!r} has a bad port; it must be 1-65535"
        ) from exc
    seen: set[str] = set()
    for key, _value in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=False):
        if key in seen:
            raise ImproperlyConfigured(f"DATABASE_URL repeats the option {key!r}")
        seen.add(key)
    database = dict(
        dj_database_url.parse(
            url.strip(), conn_max_age=conn_max_age, conn_health_checks=conn_health_checks
        )
    )
    database["ENGINE"] = "django.db.backends.postgresql"  # postgres:// and postgresql:// alike
    database["PORT"] = str(database["PORT"])
    return database


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def default_sqlite_database(data_dir: Path) -> dict[str, Any]:
    """The default database: SQLite in the data directory, which is created if missing."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return sqlite_database(str(data_dir / "flipwell.sqlite3"))


def site_url(value: str) -> str:
    """``FLIPWELL_SITE_URL`` without its trailing slash ("" when unset); refuses anything but
    ``http(s)://host[:port]`` (a path, a query or a missing scheme would make broken links)."""
    if not value:
        return ""
    parts = urlsplit(value.strip())
    try:
        parts.port  # noqa: B018  (urlsplit checks the port only when asked for it)
        good = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        good = False
    if not good or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ImproperlyConfigured(
            f"FLIPWELL_SITE_URL={value!r} is not a site address; use http(s)://host[:port], "
            "for example https://league.example.org or http://192.168.1.20:8000"
        )
    return f"{parts.scheme}://{parts.netloc}"


def cors_origins(values: list[str]) -> list[str]:
    """``FLIPWELL_CORS_ORIGINS``: each an origin, ``http(s)://host[:port]`` as a browser sends
    it in ``Origin`` (no path, no trailing slash, lower case); anything else stops the process
    (a misspelt origin would silently never match)."""
    origins = []
    for value in values:
        parts = urlsplit(value)
        try:
            parts.port  # noqa: B018  (urlsplit checks the port only when asked for it)
            good = parts.scheme in ("http", "https") and bool(parts.hostname)
        except ValueError:
            good = False
        if not good or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
            raise ImproperlyConfigured(
                f"FLIPWELL_CORS_ORIGINS holds {value!r}, which is not an origin; use "
                "http(s)://host[:port] with nothing after it, e.g. https://stats.example.org"
            )
        origins.append(f"{parts.scheme}://{parts.netloc}".lower())
    return origins


def site_ports(url: str) -> list[str]:
    """The port the site address names, as a list (empty without one)."""
    port = urlsplit(url).port if url else None
    return [str(port)] if port else []


def debug_hosts(lan: str | None) -> list[str]:
    """The hosts a server with ``DEBUG`` on answers to unless ``ALLOWED_HOSTS`` says: the
    local names and the machine's LAN address (`flipwell.lan`). ``make dev`` listens on
    127.0.0.1 only; ``make run`` (DEBUG off) sets ``ALLOWED_HOSTS`` itself (`flipwell.venue`)."""
    return ["localhost", "127.0.0.1", "[::1]", *([lan] if lan else [])]


def photo_storage(media_root: Path, *, environ: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """The storage of score photos (``STORAGES["default"]``): files under `media_root`, or,
    when ``FLIPWELL_S3_BUCKET`` names a bucket (or with ``FLIPWELL_PHOTO_STORAGE=s3``), a
    private S3-compatible bucket through django-storages (``pip install flipwell[s3]``; boto3
    reads the credentials from ``AWS_ACCESS_KEY_ID`` and ``AWS_SECRET_ACCESS_KEY``).
    ``FLIPWELL_PHOTO_STORAGE=files`` keeps the files despite a bucket. Never served from a
    public URL: flipwell serves each photo itself to those who may see its sheet."""
    bucket = env_str("FLIPWELL_S3_BUCKET", "", environ=environ)
    kind = env_str("FLIPWELL_PHOTO_STORAGE", "s3" if bucket else "files", environ=environ).lower()
    if kind == "files":
        return {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(media_root), "base_url": None},
        }
    if kind != "s3":
        raise ImproperlyConfigured(
            f"FLIPWELL_PHOTO_STORAGE={environ['FLIPWELL_PHOTO_STORAGE']!r} is not a photo "
            "storage; use files (the default) or s3"
        )
    if not bucket:
        raise ImproperlyConfigured("FLIPWELL_PHOTO_STORAGE=s3 needs FLIPWELL_S3_BUCKET")
    options: dict[str, Any] = {
        "bucket_name": bucket,
        "default_acl": "private",
        "file_overwrite": False,
        "querystring_auth": True,
    }
    for option, name in (("endpoint_url", "FLIPWELL_S3_ENDPOINT_URL"),
                         ("region_name", "FLIPWELL_S3_REGION")):  # fmt: skip
        value = env_str(name, "", environ=environ)
        if value:
            options[option] = value
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}
