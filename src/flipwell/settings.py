"""Django settings for flipwell, read from the environment.

Every setting an operator may change is an environment variable, read through a small typed
helper that refuses a value it cannot understand (``DEBUG=maybe`` stops the process instead of
meaning "off"):

- ``SECRET_KEY``: required unless ``DEBUG`` is on, when a marked development key is used.
- ``DEBUG``: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``; default off.
- ``ALLOWED_HOSTS``: comma-separated host names; default none (localhost names when ``DEBUG``).
- ``FLIPWELL_DATA_DIR``: where the default SQLite database lives; default ``./var/`` (relative to
  the working directory), created on first use.
- ``DATABASE_URL``: another database, ``sqlite:///relative/path.sqlite3``,
  ``sqlite:////absolute/path.sqlite3`` or ``postgres://user:password@host:port/name``
  (``postgresql://`` also accepted); any other scheme is refused.
- ``TIME_ZONE``: the server's default zone (an IANA name); default ``UTC``. Each league stores
  its own zone; datetimes are stored aware (``USE_TZ``).

Words: a *development fallback* is a value used only when ``DEBUG`` is on, never in production.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Lets `admin.ModelAdmin[League]` and other generic Django classes be subscripted at run time.
django_stubs_ext.monkeypatch()

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
DEVELOPMENT_SECRET_KEY = "flipwell-INSECURE-development-key-never-use-in-production"
SUPPORTED_DATABASE_URLS = (
    "sqlite:///relative/path.sqlite3, sqlite:////absolute/path.sqlite3, "
    "postgres://user:password@host:port/name or postgresql://..."
)


# --- Typed helpers: each reads one variable and fails loudly on a value it cannot use. ---


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


def secret_key(*, debug: bool, environ: Mapping[str, str] = os.environ) -> str:
    """SECRET_KEY from the environment; the development fallback only when DEBUG is on."""
    value = environ.get("SECRET_KEY", "").strip()
    if value:
        return value
    if debug:
        return DEVELOPMENT_SECRET_KEY
    raise ImproperlyConfigured(
        "SECRET_KEY is not set. Set it to a long random string, for example the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`, "
        "or set DEBUG=1 for local development only."
    )


def parse_database_url(url: str) -> dict[str, Any]:
    """One entry of Django's DATABASES from a URL; refuses a scheme or form it cannot use."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        return _sqlite_database(parts.netloc, parts.path, url)
    if scheme in ("postgres", "postgresql"):
        return _postgres_database(url)
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
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}


def _postgres_database(url: str) -> dict[str, Any]:
    parts = urlsplit(url.strip())
    name = unquote(parts.path.lstrip("/"))
    if not name or "/" in name:
        raise ImproperlyConfigured(
            f"DATABASE_URL {_without_password(url)!r} names no database; "
            "use postgres://user:password@host:port/name"
        )
    try:
        port = parts.port
    except ValueError as exc:
        raise ImproperlyConfigured(
            f"DATABASE_URL {_without_password(url)!r} has a bad port; it must be 1-65535"
        ) from exc
    options: dict[str, str] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=False):
        if key in options:
            raise ImproperlyConfigured(f"DATABASE_URL repeats the option {key!r}")
        options[key] = value
    database: dict[str, Any] = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": unquote(parts.hostname or ""),
        "PORT": str(port) if port is not None else "",
    }
    if options:
        database["OPTIONS"] = options
    return database


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def default_sqlite_database(data_dir: Path) -> dict[str, Any]:
    """The default database: SQLite in the data directory, which is created if missing."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(data_dir / "flipwell.sqlite3")}


# --- The settings themselves. ---

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = secret_key(debug=DEBUG)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])

DATA_DIR = Path(env_str("FLIPWELL_DATA_DIR", "var")).resolve()
_database_url = env_str("DATABASE_URL", "")
DATABASES = {
    "default": (
        parse_database_url(_database_url) if _database_url else default_sqlite_database(DATA_DIR)
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "flipwell.league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "flipwell.urls"
WSGI_APPLICATION = "flipwell.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_time_zone("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
