"""URLs of the web app. Public pages live here; each other area has its own module."""

from django.urls import include, path

from flipwell.web.views import public

app_name = "web"

urlpatterns = [
    path("", public.league_list, name="league_list"),
    path("manage/", include("flipwell.web.urls_manage")),
    path("sheet/", include("flipwell.web.urls_scoresheet")),
    path("tv/", include("flipwell.web.urls_tv")),
]
