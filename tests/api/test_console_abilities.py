"""Every console ability is in the API (issue 34 §2): the test walks the console's URL patterns
(``/manage/``), finds the league services each view calls (through the module's helpers and
tables of forms), and fails for a service no API endpoint calls, unless `NOT_IN_API` says why.
A page that calls no service at all is a read or a session page: `NO_SERVICE` names each.

Both lists are checked the other way too: an entry whose service the API now calls, or whose
page now writes, is stale and fails, so the lists stay true.
"""

from __future__ import annotations

import ast
import inspect
import pkgutil
import sys
from collections.abc import Callable, Iterator
from functools import cache
from importlib import import_module
from typing import Any

from django.urls import URLPattern, URLResolver

import flipwell.api.endpoints as endpoints_package
from flipwell.league import services
from flipwell.web import urls_manage

NOT_IN_API: dict[str, str] = {
    "issue_api_token": "a token is issued by a signed-in official in the console, or on the "
    "command line (an installation token): a token never issues another token",
    "revoke_api_token": "revoked in the console or on the command line, as it is issued",
    "check_merge_players": "the console's confirmation step before a merge (nothing written): "
    "the API's merge runs the same checks and refuses with them",
    "preview_game_ending": "the console's review of a game-ending malfunction before it is "
    "recorded (nothing written): the API's report answers the same outcome",
    "create_machines": "several machines from one pasted list, for the console's one form: "
    "the API adds each with POST /leagues/{slug}/machines",
    "ask_next_season": "the question about the next season is asked from the console's "
    "next-season page, where the official reads its answers: no endpoint yet",
    "set_signups_open": "the public sign-up form is opened and closed on the console's "
    "next-season page: no endpoint yet",
    "accept_signup": "a newcomer's sign-up is decided on the console's next-season page, "
    "beside its e-mail address: no endpoint yet",
    "refuse_signup": "as accept_signup: no endpoint yet",
}
"""Console services without an API endpoint, and why not."""

CALLED_THROUGH: dict[str, str] = {
    "import_players_csv": "import_roster",
}
"""A console service the API calls through another function (which checks every row of the
file first, then calls it)."""

NO_SERVICE: dict[str, str] = {
    "login": "session-only: signs an account in to the console",
    "logout": "session-only",
    "forgot_password": "session-only: e-mails a link to set a new password",
    "forgot_password_sent": "session-only: says the e-mail was sent",
    "set_password": "session-only: a new password from the e-mailed link",
    "manage_home": "a read: the account's leagues and invitations (GET /me/invitations)",
    "manage_league": "a read: the league's hub (GET /leagues/{slug} and its seasons)",
    "manage_meet": "a read: the meet's board (GET /meets/{id}/board)",
    "manage_roster_csv": "a read: the roster file (GET /seasons/{id}/players)",
    "manage_standings_csv": "a read: the standings file (GET /seasons/{id}/standings)",
    "manage_photo": "a read: one photo's JPEG (GET /photos/{key})",
    "manage_notices": "a read: the notices queue (GET /leagues/{slug}/notices)",
}
"""Console pages that call no league service, and what they are."""


def _patterns(
    patterns: list[URLPattern | URLResolver] | None = None,
) -> Iterator[URLPattern]:
    for pattern in urls_manage.urlpatterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns)
        else:
            yield pattern


@cache
def _module_tree(name: str) -> ast.Module:
    return ast.parse(inspect.getsource(sys.modules[name]))


SERVICES = ("flipwell.league.services",)
WRAPPERS = ("flipwell.league.exchange.for_other_programs",)
"""Where the API also finds a service's wrapper (`CALLED_THROUGH`)."""


def _imported_services(tree: ast.Module, packages: tuple[str, ...]) -> dict[str, Any]:
    """What a module imports by name from `packages`."""
    found: dict[str, Any] = {}
    for node in ast.walk(tree):
        module = node.module or "" if isinstance(node, ast.ImportFrom) else ""
        if module.startswith(packages):
            for alias in node.names:
                found[alias.asname or alias.name] = getattr(import_module(module), alias.name)
    return found


def _called(tree: ast.Module, start: str | None, packages: tuple[str, ...] = SERVICES) -> set[str]:
    """The services a module's function `start` uses (``services.x`` or a name imported from
    them), following the module's own functions and tables it names; every one in the module
    for None."""
    top: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, ast.Assign):
            top |= {t.id: node for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top[node.target.id] = node
    imported = _imported_services(tree, packages)
    queue = [top[start]] if start is not None else [tree]
    seen: set[int] = set()
    found: set[str] = set()
    while queue:
        for node in ast.walk(queue.pop()):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                value = getattr(services, node.attr, None) if node.value.id == "services" else None
                if inspect.isfunction(value):
                    found.add(node.attr)
            elif isinstance(node, ast.Name):
                if inspect.isfunction(imported.get(node.id)):
                    found.add(node.id)
                elif node.id in top and id(top[node.id]) not in seen:
                    seen.add(id(top[node.id]))
                    queue.append(top[node.id])
    return found


def console_services() -> dict[str, set[str]]:
    """Each console URL's name -> the services its view calls."""
    views: dict[str, set[str]] = {}
    for pattern in _patterns():
        view: Callable[..., Any] = inspect.unwrap(pattern.callback)
        view = getattr(pattern.callback, "view_class", view)  # a class-based view: its class
        views[str(pattern.name)] = _called(_module_tree(view.__module__), view.__name__)
    return views


def api_services() -> set[str]:
    """Every service an API endpoint module calls."""
    found: set[str] = set()
    for info in pkgutil.iter_modules(endpoints_package.__path__):
        module = import_module(f"{endpoints_package.__name__}.{info.name}")
        found |= _called(_module_tree(module.__name__), None, SERVICES + WRAPPERS)
    return found


def test_the_walk_finds_the_services_of_console_forms():
    """The walk itself: a service named in a view, in its helper and in a table of forms."""
    views = console_services()

    assert "record_ledger_entry" in views["manage_ledger"]
    assert "edit_player" in views["manage_roster"]  # through _roster_action
    assert "record_no_show" in views["manage_playoffs"]  # through the SERVICES table
    assert "issue_api_token" in views["manage_api_tokens"]  # imported by name
    assert "start_meet" in api_services()


def test_every_console_service_has_an_api_endpoint():
    in_api = api_services() | {
        name for name, via in CALLED_THROUGH.items() if via in api_services()
    }
    missing = {
        f"{service} (console page {view})"
        for view, called in console_services().items()
        for service in called
        if service not in in_api and service not in NOT_IN_API
    }

    assert not missing, "Console abilities without an API endpoint: " + ", ".join(sorted(missing))


def test_every_console_page_without_a_service_is_named():
    views = console_services()

    unnamed = sorted(
        name for name, called in views.items() if not called and name not in NO_SERVICE
    )

    assert not unnamed, f"Console pages that call no service, not named in NO_SERVICE: {unnamed}"


def test_the_lists_hold_no_stale_entry():
    """An entry the API now covers, or a page that now writes, leaves its list."""
    views = console_services()
    used = set().union(*views.values())

    assert sorted(set(NOT_IN_API) & api_services()) == []
    assert sorted(set(NOT_IN_API) - used) == []
    assert sorted(name for name in NO_SERVICE if views.get(name)) == []
    assert sorted(set(NO_SERVICE) - set(views)) == []
