"""Django settings for flipwell, read from the environment.

Every setting an operator may change is an environment variable, read through a small typed
helper that refuses a value it cannot understand (``DEBUG=maybe`` stops the process instead of
meaning "off"):

- ``SECRET_KEY``: a long random string. When unset, flipwell generates one on first use and
  keeps it in the data directory (``secret_key``, file mode 0600), so a fresh machine needs no
  set-up; a key given explicitly but empty or obviously weak is refused.
- ``SECRET_KEY_FALLBACKS``: former keys, comma-separated, still accepted after ``SECRET_KEY``
  changes (sessions, set-password links, the signatures of backups); default none.
- ``DEBUG``: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``; default off.
- ``ALLOWED_HOSTS``: comma-separated host names; default none (when ``DEBUG``: the localhost
  names and the machine's LAN address). ``make run`` sets it to the localhost names and the
  LAN address it prints (see `flipwell.venue`). A request for another name is refused (400).
- ``ALLOWED_PORTS``: comma-separated ports a ``Host`` header may name (``*``: any); default
  the port of ``FLIPWELL_SITE_URL`` and the ports gunicorn listens on (`flipwell.gunicorn_conf`
  passes them to its workers), any port when ``DEBUG``. Django's ``ALLOWED_HOSTS`` ignores the
  port, so without this ``Host: 127.0.0.1:31337`` would pass and land in absolute links (the
  API's ``next``, a page's QR codes); a ``Host`` without a port is always accepted (a proxy's
  public name). A request naming another port is refused (400, `flipwell.web.hosts`).
- ``FLIPWELL_DATA_DIR``: where the default SQLite database and the generated secret key live;
  default ``./var/`` (relative to the working directory), created on first use.
- ``DATABASE_URL``: another database, ``sqlite:///relative/path.sqlite3``,
  ``sqlite:////absolute/path.sqlite3`` or ``postgres://user:password@host:port/name``
  (``postgresql://`` also accepted); any other scheme is refused.
- ``TIME_ZONE``: the server's default zone (an IANA name); default ``UTC``. Each league stores
  its own zone; datetimes are stored aware (``USE_TZ``).
- ``CONN_MAX_AGE``: seconds a worker thread keeps its database connection for the next
  request; default 3600 (0 opens one per request). Each kept connection is checked before it
  is reused (``CONN_HEALTH_CHECKS``), so a database restart costs no failed request. A new
  connection is slow for its first requests (PostgreSQL's new session reads its catalogs: a
  score entry took 30 ms more), so one a minute per thread would put a league night's
  writes in the tail (issue #10). PostgreSQL sees up to workers x threads connections per app
  server (see `flipwell.gunicorn_conf`).
- ``REDIS_URL``: ``redis://host:6379/0`` makes Redis Django's default cache, shared by every
  worker of every app server; default: each process's own memory. Nothing flipwell needs for
  correctness is in it: sign-in failures are counted by django-axes in the database, sessions
  are in the database, derived results are in the database (``league_derivedresult``). The
  rendered anonymous pages of `flipwell.http_cache` are kept in each process's memory and,
  with Redis, shared there too (``SHARED_PAGES``), so one worker renders a changed page.
- ``FLIPWELL_STATIC_ROOT``: where ``collectstatic`` (run by ``flipwell serve``) writes the
  static files; default ``$FLIPWELL_DATA_DIR/static``. A container image collects them at
  build time into its own folder.

Stateless app servers. With ``DATABASE_URL`` on PostgreSQL and ``SECRET_KEY`` set (the same on
every server), app servers keep no state of their own: sessions, sign-in failures, results and
audit logs are in the database, and the static files are collected from the code. The data
directory then holds only the collected static files (and the generated secret key, when
``SECRET_KEY`` is unset: set it, or share the directory). Backups (``flipwell backup``) are
written wherever the operator says, signed with ``SECRET_KEY`` (restoring one elsewhere needs
the same key, or ``--trust-unsigned``). Any number of servers can then stand behind one
PostgreSQL and one load balancer.

Logs and errors. Every log line goes to stdout (see `flipwell.logs`), with the request's id
(``X-Request-ID``), so a 500 is on stdout with its traceback even with ``DEBUG`` off.

- ``LOG_FORMAT``: ``text`` (default) or ``json`` (one JSON object per line).
- ``LOG_LEVEL``: ``DEBUG``, ``INFO`` (default), ``WARNING`` or ``ERROR``.
- ``SENTRY_DSN``: errors are also reported to Sentry (needs ``pip install flipwell[sentry]``);
  ``SENTRY_ENVIRONMENT`` names the installation (default ``production``). No personal data.
- ``ADMINS``: ``Ann <ann@example.org>, bob@example.org``; each 500 is also e-mailed to them.
- ``EMAIL_HOST``, ``EMAIL_PORT`` (587), ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS`` (yes on port 587), ``EMAIL_USE_SSL`` (yes on port 465), ``EMAIL_TIMEOUT``
  (10 s), ``DEFAULT_FROM_EMAIL`` and ``SERVER_EMAIL``: the SMTP server for password-reset
  links and error reports. Without ``EMAIL_HOST`` the e-mails are printed on stdout.

Notices to players (see `flipwell.league.notices`). A player may choose e-mails about their
league: their group when a meet starts, their night's results when it closes, a reminder
before each meet, an official's ruling that affects them. A service queues them in its own
transaction (table ``league_notice``); ``flipwell work`` sends them after the commit, with
retries, and queues the reminders. No request ever waits for an SMTP server.

- ``NOTICES_EMAIL``: yes to queue and send notices; default yes when ``EMAIL_HOST`` is set,
  else no. Off, nothing is queued (the players' choices are kept for when it is on).
- ``NOTICE_REMINDER_HOURS``: how many hours before a meet's scheduled start ``flipwell work``
  queues its reminder; default 24.
- ``NOTICE_MAX_ATTEMPTS``: attempts to send one notice before it is marked failed; default 6
  (waiting 1, 2, 4, 8, 16 minutes between them).
- ``IDEMPOTENCY_KEY_HOURS``: how long a write's idempotency key (the API's ``Idempotency-Key``
  header, a console form's one-time key) is kept: a retry within it is answered from the
  stored answer, a later one is a new request; default 24.
- ``FLIPWELL_SITE_URL``: the address players and officials open (``https://league.example.org``
  or ``http://192.168.1.20:8000``): every link in an e-mail (notices, password resets) starts
  with it, never with the ``Host`` a request named. No default: without it no notice is
  queued and the forgot-password page sends no link (``flipwell serve`` and ``flipwell work``
  say so at start-up). ``make run`` sets it to the address it prints.

Health. ``/healthz`` answers JSON, 200 when the database answers and has every migration, else
503 (see `flipwell.web.health`); it needs no ``ALLOWED_HOSTS`` entry and never redirects to
HTTPS, so a load balancer can probe it by address.

SQLite, the default, serves several workers and threads writing at once (a league night: every
group's phone, the console, the API). Every SQLite database, the default one and a ``sqlite:``
``DATABASE_URL``, is opened with:

- ``journal_mode=WAL``: readers never block the writer, nor the writer the readers;
- ``synchronous=NORMAL``: with WAL, a commit survives a crash of the process (a power cut may
  lose the last commits, never corrupt the file);
- ``transaction_mode="IMMEDIATE"``: a transaction takes the write lock when it begins, so two
  writers queue instead of one failing with "database is locked" when both upgraded a read
  lock (deferred transactions cannot wait for that; immediate ones can);
- a busy timeout of ``SQLITE_TIMEOUT_SECONDS`` (20 s): how long a writer waits for the lock
  before failing, far longer than any of flipwell's writes holds it.

Security. A venue may serve flipwell over plain HTTP on its own network; a public site serves
it over HTTPS. ``FLIPWELL_HTTPS`` says which, and the HTTPS-only protections follow from it
(each can still be set on its own). With ``DEBUG`` off, ``FLIPWELL_HTTPS=yes`` and
``ALLOWED_HOSTS`` set, ``manage.py check --deploy`` reports nothing.

- ``FLIPWELL_HTTPS``: yes when visitors reach the site over HTTPS (directly, or through a
  proxy that terminates it); default no.
- ``BEHIND_PROXY``: yes when one reverse proxy, and only one, stands in front: it terminates
  HTTPS, sets ``X-Forwarded-Proto`` (then trusted to tell whether the request was secure) and
  appends the client's address to ``X-Forwarded-For`` (its last entry is then the client
  address the sign-in limit counts by); default no (the address is ``REMOTE_ADDR``). Never
  set it without such a proxy in front: a client could then claim HTTPS or any address.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins (``https://league.example.org``) allowed
  to post forms when the proxy changes the host; default none.
- ``SECURE_SSL_REDIRECT``: redirect HTTP to HTTPS; default ``FLIPWELL_HTTPS``.
- ``SECURE_HSTS_SECONDS``: how long browsers must use HTTPS only; default 31536000 (a year)
  with ``FLIPWELL_HTTPS``, else 0. ``SECURE_HSTS_INCLUDE_SUBDOMAINS`` and
  ``SECURE_HSTS_PRELOAD``: default ``FLIPWELL_HTTPS``.
- ``SESSION_COOKIE_SECURE``, ``CSRF_COOKIE_SECURE``: send the cookies over HTTPS only; default
  ``FLIPWELL_HTTPS``.

Sign-in limit. Failed sign-ins, to the console and to ``/admin/``, are counted by django-axes
in the database (table ``axes_accessattempt``), so every worker sees the same counts and a
restart forgets nothing. They are counted per user name *and* client address: an attacker
elsewhere cannot lock the official out, and the official's mistypes do not lock others out.
Once the limit is reached that name from that address is refused, even with the right
password, until the cool-off has passed since the last counted failure; the page says when
(429). A successful sign-in clears the count. An operator clears a lockout with
``manage.py axes_reset_username NAME``.

- ``LOGIN_FAILURE_LIMIT``: failed sign-ins (per name and address) that lock; default 5.
- ``LOGIN_COOLOFF_MINUTES``: how long a lockout lasts; default 15.
- ``FORGOT_PASSWORD_PER_ADDRESS``, ``FORGOT_PASSWORD_PER_ACCOUNT``: set-password links one
  client address, and one e-mail address, may ask for in ``FORGOT_PASSWORD_WINDOW_MINUTES``;
  defaults 10, 3 and 60 (counted in the default cache, `flipwell.web.reset_limit`).

The Content-Security-Policy, Permissions-Policy and Referrer-Policy headers are set by
`flipwell.web.middleware`; session cookies are HttpOnly and SameSite=Lax everywhere.

Benchmarks. ``FLIPWELL_BENCH_URLS``: yes mounts ``/bench/bare/``, a static page with no
database read that `bench/bench_http.py` measures every public page against; default no (a
deployment never serves it). ``FLIPWELL_TEST_URLS``: yes mounts ``/test/error/``, which always
fails, for the test that checks a 500 is logged; default no.

Words: a *weak* secret key is one an attacker could guess: shorter than 20 characters, fewer
than 5 distinct characters, or a placeholder copied from documentation.
"""

from __future__ import annotations

import datetime
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# The typed helpers (see flipwell.env), also used by the gunicorn config.
from flipwell.env import (
    LISTEN_PORTS_VARIABLE,
    env_addresses,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_time_zone,
)
from flipwell.lan import lan_address
from flipwell.logs import logging_config, start_sentry

# Lets `admin.ModelAdmin[League]` and other generic Django classes be subscripted at run time.
django_stubs_ext.monkeypatch()

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

    A key set explicitly must not be empty or weak (see the module docstring): a bad key stops
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
    ``CONN_HEALTH_CHECKS`` (see the module docstring).
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
    """A SQLite database at `name`, opened for concurrent writers (see the module docstring)."""
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


def site_ports(url: str) -> list[str]:
    """The port the site address names, as a list (empty without one)."""
    port = urlsplit(url).port if url else None
    return [str(port)] if port else []


def debug_hosts(lan: str | None) -> list[str]:
    """The hosts a server with ``DEBUG`` on answers to unless ``ALLOWED_HOSTS`` says: the
    local names and the machine's LAN address (`flipwell.lan`). ``make dev`` listens on
    127.0.0.1 only; ``make run`` (DEBUG off) sets ``ALLOWED_HOSTS`` itself (`flipwell.venue`)."""
    return ["localhost", "127.0.0.1", "[::1]", *([lan] if lan else [])]


# --- The settings themselves. ---

DEBUG = env_bool("DEBUG", False)
DATA_DIR = Path(env_str("FLIPWELL_DATA_DIR", "var")).resolve()
SECRET_KEY = secret_key(data_dir=DATA_DIR)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", debug_hosts(lan_address()) if DEBUG else [])

_database_url = env_str("DATABASE_URL", "")
CONN_MAX_AGE = env_int("CONN_MAX_AGE", 3600)
DATABASES = {
    "default": (
        parse_database_url(_database_url, conn_max_age=CONN_MAX_AGE, conn_health_checks=True)
        if _database_url
        else {
            **default_sqlite_database(DATA_DIR),
            "CONN_MAX_AGE": CONN_MAX_AGE,
            "CONN_HEALTH_CHECKS": True,
        }
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # django.contrib.staticfiles, without the files flipwell never serves.
    "flipwell.web.apps.StaticFilesConfig",
    "flipwell.league",
    "flipwell.web",
    "flipwell.api",
    # Counts failed sign-ins in the database and locks a name+address out (see the docstring).
    "axes",
    # Only for its static files: the API docs page uses django-ninja's own Swagger UI.
    "ninja",
]

# django-axes first: it refuses a locked-out name+address before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

MIDDLEWARE = [
    # First: answers /healthz for any Host, over HTTP, before the host check and HTTPS redirect.
    "flipwell.web.health.HealthMiddleware",
    # Gives every request an id (X-Request-ID or a new one), logged and echoed in the answer.
    "flipwell.web.request_id.RequestIdMiddleware",
    # Refuses (400) a Host whose name or port is not allowed, before anything builds a link.
    "flipwell.web.hosts.AllowedHostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Under /api/: JSON for Django's own refusals, HEAD and OPTIONS, ETags, CORS on public
    # reads, private caching of token reads (flipwell.api.contract).
    "flipwell.api.contract.ApiContractMiddleware",
    # Serves the vendored static files itself: venues may have no internet and no web server.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # request.htmx: whether htmx asked for a fragment (the HX-Request header).
    "django_htmx.middleware.HtmxMiddleware",
    # Content-Security-Policy ('self' only), Permissions-Policy, Referrer-Policy.
    "flipwell.web.middleware.SecurityHeadersMiddleware",
    # A page's query or form data with a NUL character is a 400 (PostgreSQL refuses NUL).
    "flipwell.web.nul_input.NulInputMiddleware",
    # A console form sent again (its one-time form_key) is not recorded twice.
    "flipwell.web.once.OnceFormMiddleware",
    # Last: turns a sign-in refused for a lockout into the lockout page (429).
    "axes.middleware.AxesMiddleware",
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
            # {% form_key %} in every console form without a {% load %} (flipwell.web.once).
            "builtins": ["flipwell.web.templatetags.flipwell_forms"],
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
STATIC_ROOT = Path(env_str("FLIPWELL_STATIC_ROOT", str(DATA_DIR / "static"))).resolve()
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns on every request without it
# In production `collectstatic` (run by `flipwell serve`) writes every file under a name with
# its content's hash, gzip- and brotli-compressed; WhiteNoise serves hashed names with a
# far-future Cache-Control (immutable). In development (DEBUG) no collectstatic is needed:
# WhiteNoise finds the files in the apps, as runserver does.
WHITENOISE_KEEP_ONLY_HASHED_FILES = not DEBUG  # pages link hashed names only; half the work
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Cache (see the module docstring) ---

REDIS_URL = env_str("REDIS_URL", "")
SHARED_PAGES = bool(REDIS_URL)
"""Whether `flipwell.http_cache` puts rendered anonymous pages in the default cache too (one
worker renders a changed page, the others fetch it): only when that cache is shared."""
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- Logging, error reports, e-mail (see the module docstring) ---

LOG_FORMAT = env_str("LOG_FORMAT", "text")
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = logging_config(log_format=LOG_FORMAT, level=LOG_LEVEL)

SENTRY_DSN = env_str("SENTRY_DSN", "")
if SENTRY_DSN:
    start_sentry(SENTRY_DSN, environment=env_str("SENTRY_ENVIRONMENT", "production"))

ADMINS = env_addresses("ADMINS")
EMAIL_HOST = env_str("EMAIL_HOST", "")
# Without an SMTP server, e-mails (password resets, error reports) are printed on stdout.
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "flipwell@localhost")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

# --- Notices to players (see the module docstring) ---

NOTICES_EMAIL = env_bool("NOTICES_EMAIL", bool(EMAIL_HOST))
NOTICE_REMINDER_HOURS = env_int("NOTICE_REMINDER_HOURS", 24, minimum=1)
NOTICE_MAX_ATTEMPTS = env_int("NOTICE_MAX_ATTEMPTS", 6, minimum=1)
SITE_URL = site_url(env_str("FLIPWELL_SITE_URL", ""))
ALLOWED_PORTS = env_list(
    "ALLOWED_PORTS",
    ["*"] if DEBUG else site_ports(SITE_URL) + env_list(LISTEN_PORTS_VARIABLE, []),
)

# --- Writes safe to retry (flipwell.league.idempotency) ---

IDEMPOTENCY_KEY_HOURS = env_int("IDEMPOTENCY_KEY_HOURS", 24, minimum=1)

# --- Benchmarks (see the module docstring) ---

BENCH_URLS = env_bool("FLIPWELL_BENCH_URLS", False)
# Tests only: mounts /test/error/, which fails, to check that a 500 is logged.
TEST_URLS = env_bool("FLIPWELL_TEST_URLS", False)

# --- Security (see the module docstring) ---

HTTPS = env_bool("FLIPWELL_HTTPS", False)
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Browsers honour Cross-Origin-Opener-Policy only over HTTPS (and on localhost); over plain
# HTTP at a venue's LAN address they ignore it and log an error on every page of every phone.
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin" if HTTPS else None
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# --- Sign-in limit: django-axes (see the module docstring) ---

LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_COOLOFF_MINUTES = env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1)
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"  # shared by every worker
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = datetime.timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Guessing on during a lockout neither counts nor extends it: "try again in N minutes" holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "flipwell.web.auth.client_address"  # REMOTE_ADDR or the proxy's
AXES_LOCKOUT_CALLABLE = "flipwell.web.auth.locked_out_response"

# --- Forgot-password limit (flipwell.web.reset_limit): links asked for, per window ---

FORGOT_PASSWORD_PER_ADDRESS = env_int("FORGOT_PASSWORD_PER_ADDRESS", 10, minimum=1)
FORGOT_PASSWORD_PER_ACCOUNT = env_int("FORGOT_PASSWORD_PER_ACCOUNT", 3, minimum=1)
FORGOT_PASSWORD_WINDOW_MINUTES = env_int("FORGOT_PASSWORD_WINDOW_MINUTES", 60, minimum=1)

# --- Key rotation: former SECRET_KEYs still verify sessions, set-password links, backups ---

SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])
