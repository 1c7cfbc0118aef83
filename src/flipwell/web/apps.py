"""Django app configuration for the web pages."""

from django.apps import AppConfig
from django.contrib.staticfiles.apps import StaticFilesConfig as DjangoStaticFilesConfig


class WebConfig(AppConfig):
    name = "flipwell.web"
    label = "web"
    default = True  # this module holds two configs: "flipwell.web" in INSTALLED_APPS is this one

    def ready(self) -> None:
        # Before any URL module is imported: every id in a path is ``<id:...>``.
        from django.urls import register_converter

        from flipwell.web.ids import IdConverter

        register_converter(IdConverter, "id")

        # The league queues its notices' facts; the web writes them in words (STYLE.md §17).
        from flipwell.league.notices import register_writer
        from flipwell.web.emails import WRITER

        register_writer(WRITER)

        # The league announces each league's new revision; with Redis, every app server's live
        # streams hear of it at once (flipwell.serving.live_events).
        from flipwell.serving.live_events import connect_publisher

        connect_publisher()


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
