"""The ASGI entry point (``uvicorn flipwell.asgi:application``); settings from the environment."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "flipwell.settings")

application = get_asgi_application()
