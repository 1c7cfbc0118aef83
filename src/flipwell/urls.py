"""flipwell's URL map: the web app at the root, the JSON API, the Django admin for staff."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("flipwell.api.urls")),
    path("", include("flipwell.web.urls")),
]
