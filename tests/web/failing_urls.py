"""flipwell's URL map with ``/test/error/`` mounted (as ``FLIPWELL_TEST_URLS`` does) and its
own error handlers: a test's ROOT_URLCONF for the 500 page."""

from django.urls import path

from flipwell.urls import handler500
from flipwell.urls import urlpatterns as product_patterns
from flipwell.web.views.bare import fail

__all__ = ["handler500", "urlpatterns"]

urlpatterns = [path("test/error/", fail), *product_patterns]
