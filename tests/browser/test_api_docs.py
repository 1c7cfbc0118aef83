"""The API docs page: django-ninja's own Swagger UI, from flipwell's server, no CDN."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import NewContext
from tests.browser.helpers import DESKTOP, visit


def test_api_docs_page_shows_the_operations_without_errors(new_page: NewContext) -> None:
    """Under flipwell's Content-Security-Policy ('self' only): ninja's assets and init script."""
    page = new_page("desktop", viewport=DESKTOP)

    visit(page, "/api/v1/docs")

    # The server's first schema reads every endpoint's services for its refusal codes (a few
    # seconds on a busy machine) before Swagger can draw the operations.
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible(timeout=30_000)
    expect(page.locator(".swagger-ui .title")).to_contain_text("flipwell API")
