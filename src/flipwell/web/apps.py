"""Django app configuration for the web pages."""

from django.apps import AppConfig
from django.contrib.staticfiles.apps import StaticFilesConfig as DjangoStaticFilesConfig


class WebConfig(AppConfig):
    name = "flipwell.web"
    label = "web"


class StaticFilesConfig(DjangoStaticFilesConfig):
    """Django's staticfiles, leaving out what flipwell never serves: django-ninja's ReDoc
    (flipwell's docs page is Swagger UI) and the Swagger bundle's source map (3 MB that
    `collectstatic` would hash and compress at every start). Swagger's CSS source map stays:
    the CSS names it, and the hashed-names storage refuses a reference to a missing file."""

    ignore_patterns = [  # noqa: RUF012  (Django declares it a plain list)
        *DjangoStaticFilesConfig.ignore_patterns,
        "redoc.standalone.js*",
        "swagger-ui-bundle.js.map",
    ]
