"""URLs of the web app's TV pages (/tv/<league slug>/)."""

from django.urls import URLPattern, URLResolver, path

from flipwell.web.views import tv

urlpatterns: list[URLPattern | URLResolver] = [
    path("<slug:slug>/", tv.tv, name="tv"),
]
