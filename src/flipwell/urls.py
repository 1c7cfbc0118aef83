"""flipwell's URL map: the web app at the root, the JSON API, the Django admin for staff.

With ``FLIPWELL_BENCH_URLS`` on (benchmarks only, never a deployment), ``/bench/bare/`` serves
the bare view that `bench/bench_http.py` measures the public pages against. With
``FLIPWELL_TEST_URLS`` on (tests only), ``/test/error/`` always fails, to check error logging.
A 500 is the plain page of `flipwell.web.views.errors` (the request id, no traceback); a 404
is ``404.html`` (with ``DEBUG`` off: no URL list); a 400 under /api/ is the API's error shape.
"""

from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from flipwell.web.views.bare import bare, fail

handler500 = "flipwell.web.views.errors.server_error"
# A request refused before any view (a Host not served): under /api/, the API's error shape.
handler400 = "flipwell.api.contract.bad_request"

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("flipwell.api.urls")),
    path("", include("flipwell.web.urls")),
]
if settings.BENCH_URLS:
    urlpatterns.insert(0, path("bench/bare/", bare, name="bench_bare"))
if settings.TEST_URLS:
    urlpatterns.insert(0, path("test/error/", fail, name="test_error"))
