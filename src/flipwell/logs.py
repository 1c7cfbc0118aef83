"""Logging to stdout with each request's id, and error reports to Sentry.

Words:
- *request id*: a short text naming one HTTP request in every log line it causes: the
  ``X-Request-ID`` header a proxy sent (Caddy, nginx and load balancers can set one), or a new
  random one; `flipwell.web.request_id.RequestIdMiddleware` sets it and echoes it in the
  answer's ``X-Request-ID``, so a user's report of an error leads to its log lines.
- *log format*: ``text`` (one readable line, then the traceback, if any) or ``json`` (one JSON
  object per line: time, level, logger, message, request_id, and exc_info with the traceback),
  chosen by ``LOG_FORMAT``.

Every log line goes to stdout, where a container runtime, systemd's journal or gunicorn's
supervisor collects it; a 500 is logged by Django's ``django.request`` logger with its
traceback. When ``ADMINS`` is set, errors are also e-mailed to them (Django's mail_admins).
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
from typing import Any

NO_REQUEST = "-"
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default=NO_REQUEST)
"""The id of the request this thread is answering (`NO_REQUEST` outside a request)."""

LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


class RequestIdFilter(logging.Filter):
    """Adds ``record.request_id``, the id of the request being answered, to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log collectors that parse fields."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", NO_REQUEST),
        }
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """Django's LOGGING: everything at `level` and above to stdout in `log_format`."""
    from django.core.exceptions import ImproperlyConfigured

    if log_format not in LOG_FORMATS:
        raise ImproperlyConfigured(
            f"LOG_FORMAT={log_format!r} is not a log format; use {' or '.join(LOG_FORMATS)}"
        )
    if level not in logging.getLevelNamesMapping():
        raise ImproperlyConfigured(
            f"LOG_LEVEL={level!r} is not a log level; use DEBUG, INFO, WARNING or ERROR"
        )
    formatter: dict[str, Any] = (
        {"()": "flipwell.logs.JsonFormatter"} if log_format == "json" else {"format": TEXT_FORMAT}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "flipwell.logs.RequestIdFilter"},
            "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        },
        "formatters": {"main": formatter},
        "handlers": {
            "stdout": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "filters": ["request_id"],
                "formatter": "main",
            },
            "mail_admins": {
                "class": "django.utils.log.AdminEmailHandler",
                "level": "ERROR",
                "filters": ["require_debug_false"],
            },
        },
        "root": {"handlers": ["stdout"], "level": level},
        "loggers": {
            # Django's own handlers (console only with DEBUG) are replaced by these.
            "django": {"handlers": ["stdout", "mail_admins"], "level": level, "propagate": False},
            # 4xx answers are the visitors' mistakes, logged as warnings: not worth a line each.
            "django.request": {
                "handlers": ["stdout", "mail_admins"],
                "level": "ERROR",
                "propagate": False,
            },
            "django.server": {"handlers": ["stdout"], "level": level, "propagate": False},
            # django-axes says "BEGIN" at every start (also of each command, whose stdout may
            # be its output); its warnings (failed and locked-out sign-ins) are kept.
            "axes": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
        },
    }


def start_sentry(dsn: str, *, environment: str) -> None:
    """Report unhandled errors to Sentry (sentry-sdk, the optional extra ``flipwell[sentry]``).

    No personal data is sent (no user names, addresses or cookies); no performance tracing.
    """
    from django.core.exceptions import ImproperlyConfigured

    try:
        import sentry_sdk
    except ImportError as exc:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed; install flipwell[sentry]"
        ) from exc
    from flipwell import __version__

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=f"flipwell@{__version__}",
        send_default_pii=False,
        traces_sample_rate=0.0,
    )
