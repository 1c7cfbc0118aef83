# flipwell's container image: `flipwell serve` (gunicorn) on port 8000, as a non-root user.
# Build: docker build -t flipwell .   Run with PostgreSQL and Redis: docker compose up (compose.yaml).
# The database must be migrated first (`docker compose run --rm web flipwell migrate`; compose.yaml
# does it in its `migrate` service): `flipwell serve` refuses to start otherwise.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=flipwell.settings \
    FLIPWELL_DATA_DIR=/data \
    FLIPWELL_STATIC_ROOT=/srv/flipwell/static \
    PORT=8000

RUN useradd --system --uid 10001 --user-group --home-dir /srv/flipwell --shell /usr/sbin/nologin flipwell

WORKDIR /srv/flipwell
COPY pyproject.toml requirements-dev.lock README.md LICENSE ./
COPY src ./src
# The lock file pins every version; as constraints it installs only what flipwell needs.
RUN pip install --constraint requirements-dev.lock ".[sentry,s3]"

# Static files are collected (hashed, gzip and brotli) once, into the image, owned by root: the
# server only reads them. Settings need a key to load; this one exists only during this step.
RUN SECRET_KEY=image-build-only-collectstatic-key FLIPWELL_DATA_DIR=/tmp/build-data \
    python -m django collectstatic --noinput --verbosity 0 \
    && rm -rf /tmp/build-data \
    && install -d -o flipwell -g flipwell -m 0700 /data

USER 10001:10001
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]
# PORT is set: gunicorn binds 0.0.0.0:$PORT (see flipwell/gunicorn_conf.py).
CMD ["flipwell", "serve", "--no-collectstatic"]
