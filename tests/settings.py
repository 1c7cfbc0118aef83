"""Settings for the test run: flipwell's settings with a test-only key and a fast hasher.

pytest-django imports these before any conftest runs, so the key is set here. The database
still comes from ``DATABASE_URL`` (SQLite by default), so one suite runs on both databases.
"""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")
# The address e-mails link to (notices, password resets): the test client's own.
os.environ.setdefault("FLIPWELL_SITE_URL", "http://testserver")

from flipwell.settings import *  # noqa: F403

# Score photos of the test run go to a folder of its own, never to the product's var/media.
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="flipwell-test-media-"))

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The product's settings (DEBUG off) hash static file names at `collectstatic`; the tests run
# without collecting, so they find the files in the apps, as development does. The live
# servers of tests/chaos use the product's settings and collect first (tests/chaos/live.py).
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

# pytest-django's live server (tests/browser) listens on a port of its own choosing; the tests
# of the port check (tests/web/test_hosts.py) set their own. The live servers of tests/chaos
# run the product's settings: gunicorn passes its port to them (flipwell.gunicorn_conf).
ALLOWED_PORTS = ["*"]

# The forgot-password limit counts in the cache, which lives as long as the test process: a
# suite's many requests from 127.0.0.1 would trip it. Its own tests set it low
# (tests/web/test_forgot_password_limit.py).
FORGOT_PASSWORD_PER_ADDRESS = 1_000_000
FORGOT_PASSWORD_PER_ACCOUNT = 1_000_000

# On PostgreSQL, the test run's backend: Django's, with a flush that truncates only the tables
# holding rows (tests/postgresql/base.py: about 0.6 s less per transactional test).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "tests.postgresql"  # noqa: F405
