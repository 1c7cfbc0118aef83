"""The WSGI entry point (``gunicorn flipwell.wsgi``); settings come from the environment."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "flipwell.settings")

application = get_wsgi_application()
