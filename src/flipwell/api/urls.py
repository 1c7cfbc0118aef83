"""URLs of the JSON API (/api/v1/): ninja's routes, then a JSON 404 for any other path."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, URLResolver, path
from django.views.decorators.csrf import csrf_exempt

from flipwell.api.api import api
from flipwell.api.errors import error_response


@csrf_exempt  # an unknown path is a 404 whatever is posted to it, not a CSRF refusal
def unknown(request: HttpRequest, rest: str) -> JsonResponse:
    """Any other path under /api/v1/: the error shape, not an HTML page."""
    return error_response("not_found", f"No API endpoint at /api/v1/{rest}.", 404)


urlpatterns: list[URLPattern | URLResolver] = [
    path("", api.urls),
    path("<path:rest>", unknown),
]
