"""Bad input from a hostile network (issue 26 §5): an id too large for the database, in a URL,
a query string or a form, is a 404 or a message on the form, never a 500."""

import re
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from django.utils.http import urlsafe_base64_encode

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import token_for
from flipwell.web.ids import IdConverter, parse_id
from tests import factories as f

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999999"
PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@pytest.fixture
def lo(client):
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(league=official.league, name="Spring", number_of_meets=3)
    entry = f.SeasonEntryFactory(season=season, player__first_name="Dee")
    return SimpleNamespace(
        user=official.user, league=official.league, season=season, player=entry.player
    )


def _routes(patterns=None, prefix=""):
    """(route, converters) of every URL pattern of the site, its includes followed."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            assert isinstance(pattern, URLPattern)
            yield route, dict(getattr(pattern.pattern, "converters", {}))


def _converters_of(route):
    """Every converter on the way to the pattern (an include's too), by parameter name."""
    found = {}
    for resolver_route, converters in _routes():
        if resolver_route == route:
            found.update(converters)
    return found


def _id_routes():
    return [
        route
        for route, converters in _routes()
        if any(isinstance(c, IntConverter | IdConverter) for c in converters.values())
    ]


def _filled(route):
    """The route as a URL: the league's slug, a huge number for each id, 'x' for the rest."""

    def value(match):
        converter = match.group("converter")
        return {"slug": "tuesday", "id": HUGE, "int": HUGE}.get(converter, "x")

    return "/" + PARAMETER.sub(value, route)


def test_every_id_in_a_url_uses_the_id_converter():
    """issue 26 §5: Django's <int:...> hands the database any number of digits."""
    routes = _id_routes()
    with_int = [
        route
        for route, converters in _routes()
        if any(type(c) is IntConverter for c in converters.values())
    ]

    assert len(routes) >= 20
    assert with_int == []


def test_every_url_with_a_huge_id_is_not_found(client, lo):
    """issue 26 §5: /leagues/<slug>/players/99999999999999999999999/ was a 500 on SQLite."""
    client.raise_request_exception = False
    answers = {
        route: client.get(_filled(route)).status_code
        for route in _id_routes()
        if not route.startswith("api/")
    }

    assert answers == dict.fromkeys(answers, 404)
    assert "leagues/<slug:slug>/players/<id:player_id>/" in answers


def test_public_player_page_with_a_huge_id_is_not_found(client, lo):
    """issue 26 §5."""
    response = client.get(f"/leagues/tuesday/players/{HUGE}/")

    assert response.status_code == 404


def test_an_id_at_the_bigint_limit_still_resolves_and_is_not_found(client, lo):
    response = client.get(f"/leagues/tuesday/players/{2**63 - 1}/")

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("12", 12),
        (" 7 ", 7),
        (str(2**63 - 1), 2**63 - 1),
        (str(2**63), None),
        (HUGE, None),
        ("0", None),
        ("-3", None),
        ("²", None),
        ("١٢", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_id_reads_only_ascii_ids_in_the_bigint_range(raw, expected):
    assert parse_id(raw) == expected


@pytest.mark.parametrize("parameter", ["edit", "link"])
@pytest.mark.parametrize("value", [HUGE, "²"])
def test_roster_panel_for_a_huge_or_odd_id_opens_nothing(client, lo, parameter, value):
    """issue 26 §5: ?edit= and ?link= with a huge number were a 500 on SQLite."""
    response = client.get(f"/manage/tuesday/seasons/{lo.season.pk}/roster/?{parameter}={value}")

    assert response.status_code == 200
    assert response.context["edit"] is None
    assert response.context["shown_link"] is None


def test_roster_link_issue_for_a_huge_player_id_is_refused_in_words(client, lo):
    """issue 26 §5: the roster's personal-link form with a huge player id was a 500."""
    url = f"/manage/tuesday/seasons/{lo.season.pk}/roster/"

    response = client.post(url, {"action": "link_issue", "player": HUGE}, follow=True)

    assert response.redirect_chain == [(url, 302)]
    assert "Choose a player of this season&#x27;s roster." in response.text
    assert m.PlayerLink.objects.count() == 0


def test_roster_edit_for_a_huge_player_id_is_a_form_error(client, lo):
    """issue 26 §5: a hidden id past the bigint range is refused on the form, in words."""
    response = client.post(
        f"/manage/tuesday/seasons/{lo.season.pk}/roster/",
        {"action": "edit", "player": HUGE, "first_name": "Dee", "last_name": "Cruz"},
    )

    assert response.status_code == 400
    assert "That player is not one this page offered" in response.text
    lo.player.refresh_from_db()
    assert lo.player.first_name == "Dee"


def test_roster_csv_with_a_huge_ifpa_number_names_its_line(client, lo):
    """issue 26 §5: an IFPA number past the database's integer was stored (a 500 on SQLite)."""
    text = f"first_name,last_name,ifpa_number,ifpa_rank\nAda,Flipper,{HUGE},\n"

    response = client.post(
        f"/manage/tuesday/seasons/{lo.season.pk}/roster/", {"action": "import", "csv_text": text}
    )

    assert response.status_code == 400
    assert "Line 2, column ifpa_number" in response.text
    assert m.SeasonEntry.objects.filter(season=lo.season).count() == 1


def test_public_page_with_a_huge_season_query_is_not_found(client, lo):
    response = client.get(f"/leagues/tuesday/players/{lo.player.pk}/?season={HUGE}")

    assert response.status_code == 404


# The roster CSV upload and NUL characters (issue 26 §5).

ROSTER_HEADER = b"first_name,last_name,ifpa_number,ifpa_rank\n"


def _upload(client, lo, content):
    return client.post(
        f"/manage/tuesday/seasons/{lo.season.pk}/roster/",
        {"action": "import", "csv_file": SimpleUploadedFile("players.csv", content)},
    )


def test_roster_csv_file_over_a_megabyte_is_refused_with_a_short_message(client, lo):
    """issue 26 §5: a 10 MB upload took 21 s and answered a 73 MB page; the API's limit is
    1 MB, and now the console's too."""
    content = ROSTER_HEADER + b"x\n" * 600_000

    response = _upload(client, lo, content)

    assert response.status_code == 400
    assert response.context["upload"].errors == {
        "csv_file": [
            "The file is 1.2 MB: a roster CSV may be at most 1 MB (some 30,000 players). "
            "Check that it is the roster file."
        ]
    }
    assert len(response.content) < 100_000
    assert m.SeasonEntry.objects.filter(season=lo.season).count() == 1


def test_roster_csv_with_many_bad_lines_lists_twenty_and_counts_the_rest(client, lo):
    """issue 26 §5: every bad line of a large file made the error page as large as the file."""
    content = ROSTER_HEADER + b"x\n" * 100

    response = _upload(client, lo, content)

    errors = response.context["upload"].non_field_errors()
    assert response.status_code == 400
    assert len(errors) == 21
    assert errors[0] == "Line 2: has 1 fields, but the header has 4"
    assert errors[-1] == "…and 80 more bad lines: fix these first."


def test_roster_csv_file_with_a_nul_is_refused_naming_its_line(client, lo):
    """issue 26 §5: a NUL byte in the file was stored (a 500 on PostgreSQL)."""
    content = ROSTER_HEADER + b"Ada,Flipper,,\nBo\x00b,Cat,,\n"

    response = _upload(client, lo, content)

    assert response.status_code == 400
    assert response.context["upload"].errors == {
        "csv_file": [
            "Line 3 holds a NUL character (code 0), which is not CSV text: save the roster "
            "again as CSV (UTF-8) and upload that file."
        ]
    }
    assert m.SeasonEntry.objects.filter(season=lo.season).count() == 1


def test_pasted_roster_csv_with_a_nul_is_a_plain_400(client, lo):
    """issue 26 §5."""
    text = "first_name,last_name,ifpa_number,ifpa_rank\nBo\x00b,Cat,,\n"

    response = client.post(
        f"/manage/tuesday/seasons/{lo.season.pk}/roster/", {"action": "import", "csv_text": text}
    )

    assert response.status_code == 400
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert response.text.startswith("The field “csv_text” holds a NUL character (code 0)")
    assert m.SeasonEntry.objects.filter(season=lo.season).count() == 1


def test_console_text_input_with_a_nul_is_refused_and_nothing_stored(client, lo):
    """issue 26 §5: every console text input; PostgreSQL refuses NUL (a 500 there), SQLite
    stored it."""
    response = client.post(
        "/manage/tuesday/seasons/",
        {"name": "Fa\x00ll", "weekday": "2", "start_time": "19:30", "number_of_meets": "8",
         "dues_cents": "25.50"},
    )  # fmt: skip

    assert response.status_code == 400
    assert "The field “name” holds a NUL character" in response.text
    assert not m.Season.objects.filter(name__startswith="Fa").exists()


def test_query_string_with_a_nul_is_refused(client, lo):
    response = client.get("/leagues/tuesday/?season=%00")

    assert response.status_code == 400
    assert response.text.startswith("The field “season” holds a NUL character")


def test_api_input_with_a_nul_keeps_the_api_error_shape(client, lo):
    """The API checks NUL itself and answers JSON: the pages' guard leaves it alone."""
    response = client.get("/api/v1/leagues?cursor=%00")

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_input"


@pytest.mark.parametrize("meet", ["²", HUGE, "9" * 5000])
def test_personal_link_absence_for_an_odd_meet_number_says_there_is_none(client, lo, meet):
    """issue 26 §5: '²' passed isdigit() and int() then failed (a 500); a huge number too."""
    link = services.issue_player_link(season=lo.season, player=lo.player, actor=lo.user)

    response = client.post(f"/me/{token_for(link)}/", {"action": "absence", "meet": meet})

    assert response.status_code == 400
    assert "There is no scheduled meet" in response.text
    assert not m.AnnouncedAbsence.objects.exists()


def test_set_password_link_with_a_huge_user_id_opens_nothing(client, lo):
    uid = urlsafe_base64_encode(HUGE.encode())

    response = client.get(f"/manage/set-password/{uid}/some-token/")

    assert response.status_code == 400
    assert response.context["invalid"] is True
