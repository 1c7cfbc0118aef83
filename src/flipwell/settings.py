"""Django settings for flipwell, read from the environment.

Every variable an operator may set, its default and what it does is in docs/configuration.md.
The typed readers in `flipwell.env` refuse a value they cannot use (``DEBUG=maybe`` stops the
process instead of meaning "off").
"""

from __future__ import annotations

import datetime
from pathlib import Path

import django_stubs_ext

from flipwell.env import (
    LISTEN_PORTS_VARIABLE,
    cors_origins,
    debug_hosts,
    default_sqlite_database,
    env_addresses,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_time_zone,
    parse_database_url,
    photo_storage,
    secret_key,
    site_ports,
    site_url,
)
from flipwell.lan import lan_address
from flipwell.logs import logging_config, start_sentry

# Lets `admin.ModelAdmin[League]` and other generic Django classes be subscripted at run time.
django_stubs_ext.monkeypatch()

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
    # Counts failed sign-ins in the database and locks a name+address out (docs/configuration.md).
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
    "flipwell.serving.health.HealthMiddleware",
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
# Score photos (flipwell.league.photos): files in MEDIA_ROOT or a private S3 bucket, never
# served from a URL of their own (no MEDIA_URL); limits in MB, the long side in pixels.
MEDIA_ROOT = Path(env_str("FLIPWELL_MEDIA_ROOT", str(DATA_DIR / "media"))).resolve()
PHOTO_MAX_MB = env_int("FLIPWELL_PHOTO_MAX_MB", 8, minimum=1)
PHOTO_MEET_MAX_MB = env_int("FLIPWELL_PHOTO_MEET_MAX_MB", 200, minimum=1)
PHOTO_LONG_SIDE = env_int("FLIPWELL_PHOTO_LONG_SIDE", 1600, minimum=320)
# A phone camera makes at most about 50 megapixels; more is refused before decoding.
PHOTO_MAX_MEGAPIXELS = env_int("FLIPWELL_PHOTO_MAX_MEGAPIXELS", 50, minimum=1)
PHOTO_DECODES = env_int("FLIPWELL_PHOTO_DECODES", 2, minimum=1)  # at once, per worker process
PHOTO_REFUSALS_PER_GAME = env_int("FLIPWELL_PHOTO_REFUSALS_PER_GAME", 8, minimum=1)
STORAGES = {
    "default": photo_storage(MEDIA_ROOT),
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Cache (docs/configuration.md) ---

REDIS_URL = env_str("REDIS_URL", "")
REDIS_KEY_PREFIX = env_str("REDIS_KEY_PREFIX", "")
"""Put before every key and channel name flipwell uses in Redis: installations (or test runs)
sharing one Redis keep apart (a pub/sub channel is seen from every database number)."""
LIVE_CHANNEL = f"{REDIS_KEY_PREFIX}flipwell:live"
"""The Redis channel of the live events (`flipwell.serving.live_events`), with ``REDIS_URL``."""
SHARED_PAGES = bool(REDIS_URL)
"""Whether `flipwell.serving.http_cache` puts rendered anonymous pages in the default cache too (one
worker renders a changed page, the others fetch it): only when that cache is shared."""
LIMITS_CACHE_TABLE = "flipwell_limits"
"""The database table that holds the rate limits' counts without Redis (`flipwell.league.
rate_limits`); ``migrate`` (and so ``flipwell serve``, ``make run``) creates it."""
CACHES = {
    "default": (
        {
            "BACKEND": "flipwell.serving.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    # The rate limits' counts: shared by every worker and process, in Redis when configured,
    # else in the database (a process's own memory would give each worker its own limit).
    "limits": (
        {
            "BACKEND": "flipwell.serving.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"{REDIS_KEY_PREFIX}flipwell-limits",
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": LIMITS_CACHE_TABLE,
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    ),
}

# --- Logging, error reports, e-mail (docs/configuration.md) ---

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

# --- Notices to players (docs/configuration.md) ---

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

# --- Benchmarks (docs/configuration.md) ---

BENCH_URLS = env_bool("FLIPWELL_BENCH_URLS", False)
# Tests only: mounts /test/error/, which fails, to check that a 500 is logged.
TEST_URLS = env_bool("FLIPWELL_TEST_URLS", False)

# --- Security (docs/configuration.md) ---

HTTPS = env_bool("FLIPWELL_HTTPS", False)
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Web pages of these origins may call the API with a token, writes included (flipwell.api.contract).
CORS_ORIGINS = cors_origins(env_list("FLIPWELL_CORS_ORIGINS", []))
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

# --- Sign-in limit: django-axes (docs/configuration.md) ---

LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_COOLOFF_MINUTES = env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1)
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"  # shared by every worker
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = datetime.timedelta(minutes=LOGIN_COOLOFF_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Guessing on during a lockout neither counts nor extends it: "try again in N minutes" holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "flipwell.web.client_address.client_address"  # REMOTE_ADDR or the proxy's
AXES_LOCKOUT_CALLABLE = "flipwell.web.auth.locked_out_response"

# --- Forgot-password limit (flipwell.web.reset_limit): links asked for, per window ---

FORGOT_PASSWORD_PER_ADDRESS = env_int("FORGOT_PASSWORD_PER_ADDRESS", 10, minimum=1)
FORGOT_PASSWORD_PER_ACCOUNT = env_int("FORGOT_PASSWORD_PER_ACCOUNT", 3, minimum=1)
FORGOT_PASSWORD_WINDOW_MINUTES = env_int("FORGOT_PASSWORD_WINDOW_MINUTES", 60, minimum=1)

# --- Problem reports from a machine's QR code (flipwell.league.services.machine_care) ---

PROBLEM_REPORTS_PER_MACHINE = env_int("PROBLEM_REPORTS_PER_MACHINE", 10, minimum=1)
"""Reports one client address may send an hour about one machine of one league (a venue's
shared Wi-Fi is one address for every phone there: one machine's reports never silence
another's)."""

# --- Invitations to a role in a league (flipwell.league.services.invitations) ---

INVITATION_DAYS = env_int("INVITATION_DAYS", 14, minimum=1)
"""Days an invitation waits for the invited account to accept or decline it."""

# --- Key rotation: former SECRET_KEYs still verify sessions, set-password links, backups ---

SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])
