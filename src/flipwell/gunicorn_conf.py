"""gunicorn's settings for `flipwell serve` (``gunicorn -c python:flipwell.gunicorn_conf``).

Words and the variables that set them:
- *workers*: ``WEB_CONCURRENCY`` processes; default 2 x CPU cores + 1 (gunicorn's advice).
- *threads*: ``GUNICORN_THREADS`` per worker; default 4. A worker answers that many requests
  at once; each thread keeps its own database connection (``CONN_MAX_AGE``), so PostgreSQL
  sees up to workers x threads connections per app server.
- *bind*: ``--bind`` of `flipwell serve`, else ``0.0.0.0:$PORT`` when ``PORT`` is set (as
  container platforms do), else ``127.0.0.1:8000``: only this machine, for a reverse proxy in
  front. Nothing is exposed to the network unless asked for.
- *graceful shutdown*: on SIGTERM the workers finish the requests they are answering, for at
  most ``GRACEFUL_TIMEOUT`` seconds (default 30), then exit; systemd and docker stop send it.
- *timeout*: a worker silent for ``GUNICORN_TIMEOUT`` seconds (default 60) is restarted.
- *logs*: the access log (one line per request, with its request id) to stdout, gunicorn's
  own messages to stderr; flipwell's logs go to stdout too (`flipwell.logs`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from flipwell.env import env_int

DEFAULT_BIND = "127.0.0.1:8000"


def default_workers(cores: int | None = None) -> int:
    """gunicorn's advice: two workers per core, and one more."""
    return 2 * (cores or os.cpu_count() or 1) + 1


def default_bind(environ: Mapping[str, str] = os.environ) -> str:
    """``0.0.0.0:$PORT`` when the platform sets ``PORT``, else `DEFAULT_BIND`."""
    if environ.get("PORT", "").strip():
        return f"0.0.0.0:{env_int('PORT', 8000, minimum=1, environ=environ)}"
    return DEFAULT_BIND


wsgi_app = "flipwell.wsgi:application"
bind = [default_bind()]
workers = env_int("WEB_CONCURRENCY", default_workers(), minimum=1)
threads = env_int("GUNICORN_THREADS", 4, minimum=1)
timeout = env_int("GUNICORN_TIMEOUT", 60, minimum=1)
graceful_timeout = env_int("GRACEFUL_TIMEOUT", 30, minimum=0)
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms "%(f)s" "%(a)s" [%({x-request-id}o)s]'
control_socket_disable = True  # no runtime control socket: systemd or docker manages it
# A worker's heartbeat file: in memory, not on a container's (possibly slow) overlay disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
