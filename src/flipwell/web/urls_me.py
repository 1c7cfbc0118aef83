"""URLs of a player's personal link: ``/me/<token>/``."""

from django.urls import URLPattern, path

from flipwell.web.views import me

urlpatterns: list[URLPattern] = [
    path("<str:token>/", me.page, name="me"),
]
