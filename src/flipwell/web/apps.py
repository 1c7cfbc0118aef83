"""Django app configuration for the web pages."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "flipwell.web"
    label = "web"
