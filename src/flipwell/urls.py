"""flipwell's URL map: the Django admin for now; web/ and api/ add theirs here."""

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
