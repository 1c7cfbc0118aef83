"""The score sheet at the machine: token, entry, confirmation, next machine, corrections."""

import html
import json
import re

import pytest
from django.core import signing
from django.test import Client

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.services._edge import league_changed
from flipwell.web.scoresheet_tokens import SALT
from tests import factories as f
from tests.web.sheet_posts import enter, entry_data

pytestmark = pytest.mark.django_db


def test_sheet_shows_players_machine_and_numeric_inputs(client, sheet_night):
    response = client.get(sheet_night.url)

    assert response.status_code == 200
    assert f"Game 1 · {sheet_night.game.machine.title}" in response.text
    for player in sheet_night.players:
        assert str(player) in response.text
    assert 'inputmode="numeric"' in response.text
    assert "flipwell/scoresheet.js" in response.text


def test_sheet_with_a_tampered_token_is_not_found(client, sheet_night):
    response = client.get(sheet_night.url[:-3] + "xx/")

    assert response.status_code == 404


def test_sheet_token_of_another_meet_group_pair_is_not_found(client, sheet_night):
    other = f.GroupFactory(meet=f.MeetFactory(season=sheet_night.season, number=2), number=1)
    forged = signing.dumps([other.pk, sheet_night.meet.pk], salt=SALT, compress=False)

    response = client.get(f"/sheet/{forged}/")

    assert response.status_code == 404


def test_sheet_of_a_closed_meet_says_it_is_closed_and_links_its_results(client, sheet_night):
    """issue 33 §3: a closed meet's sheet link said an official had issued a new link."""
    m.Meet.objects.filter(pk=sheet_night.meet.pk).update(status=m.Meet.Status.CLOSED)

    response = client.get(sheet_night.url)

    assert response.status_code == 410
    assert "Meet 1 is closed" in response.text
    assert (
        f'href="/leagues/{sheet_night.league.slug}/meets/{sheet_night.meet.pk}/"' in response.text
    )
    assert "new link" not in response.text
    assert "<form" not in response.text


def test_sheet_token_signed_for_another_purpose_is_not_found(client, sheet_night):
    token = signing.dumps([sheet_night.group.pk, sheet_night.meet.pk], compress=False)

    response = client.get(f"/sheet/{token}/")

    assert response.status_code == 404


def test_enter_scores_stores_a_sheet_and_shows_its_points(client, sheet_night):
    response = enter(client, sheet_night, ["1,234,560", "987 650", "500.000", "12"])

    assert response.status_code == 302
    submission = m.ScoreSubmission.objects.get(game=sheet_night.game)
    assert dict(submission.lines.values_list("player_id", "machine_score")) == {
        sheet_night.players[0].pk: 1_234_560,
        sheet_night.players[1].pk: 987_650,
        sheet_night.players[2].pk: 500_000,
        sheet_night.players[3].pk: 12,
    }
    page = client.get(sheet_night.url)
    assert "1,234,560" in page.text
    assert f"Entered by {sheet_night.players[0]}" in page.text
    assert "Confirm game 1" in page.text


def test_enter_scores_twice_with_one_key_stores_one_sheet(client, sheet_night):
    data = entry_data(sheet_night, ["400", "300", "200", "100"], key="phone-key-1")
    headers = {"HTTP_ACCEPT": "application/json"}

    first = client.post(sheet_night.url + "enter/", data, **headers)
    again = client.post(sheet_night.url + "enter/", data, **headers)

    assert (first.status_code, again.status_code) == (200, 200)
    assert again.content == first.content  # issue 34 §1: the first answer, as the API replays
    assert (first.get("Idempotent-Replayed"), again["Idempotent-Replayed"]) == (None, "true")
    assert m.ScoreSubmission.objects.filter(game=sheet_night.game).count() == 1


def test_enter_scores_with_letters_names_the_field(client, sheet_night):
    response = enter(client, sheet_night, ["12a", "300", "200", "100"])

    assert response.status_code == 400
    assert "“12a” is not a machine score" in response.text
    assert not m.ScoreSubmission.objects.exists()


def test_enter_scores_refused_as_json_for_the_offline_queue(client, sheet_night):
    data = entry_data(sheet_night, ["", "300", "200", "100"])

    response = client.post(sheet_night.url + "enter/", data, HTTP_ACCEPT="application/json")

    assert response.status_code == 400
    assert json.loads(response.content)["ok"] is False


def test_enter_tied_scores_without_tie_places_shows_the_services_message(client, sheet_night):
    response = enter(client, sheet_night, ["500", "500", "200", "100"])

    assert response.status_code == 400
    assert "tie" in response.text.lower()
    assert not m.ScoreSubmission.objects.exists()


def test_enter_tied_scores_with_tie_places_stores_the_tie_order(client, sheet_night):
    winner, loser = sheet_night.players[1], sheet_night.players[0]

    response = enter(client, sheet_night, ["500", "500", "200", "100"], ties={winner: 1, loser: 2})

    assert response.status_code == 302
    order = list(m.TieOrderPlace.objects.order_by("position").values_list("player_id", flat=True))
    assert order == [winner.pk, loser.pk]


def test_enter_with_a_forfeit_toggle_stores_no_score(client, sheet_night):
    response = enter(client, sheet_night, ["500", "400", "300", None])

    assert response.status_code == 302
    line = m.ScoreLine.objects.get(player=sheet_night.players[3])
    assert line.machine_score is None


def test_confirm_by_the_player_who_entered_is_refused(client, sheet_night):
    enter(client, sheet_night, ["400", "300", "200", "100"])
    submission = m.ScoreSubmission.objects.get()

    response = client.post(
        sheet_night.url + "confirm/",
        {"submission": submission.pk, "confirmed_by": sheet_night.players[0].pk},
    )

    assert response.status_code == 400
    submission.refresh_from_db()
    assert submission.confirmed_by is None


def test_confirm_by_another_player_counts_the_sheet(client, sheet_night):
    enter(client, sheet_night, ["400", "300", "200", "100"])
    submission = m.ScoreSubmission.objects.get()

    response = client.post(
        sheet_night.url + "confirm/",
        {"submission": submission.pk, "confirmed_by": sheet_night.players[1].pk},
    )

    assert response.status_code == 302
    submission.refresh_from_db()
    assert submission.confirmed_by == sheet_night.players[1]
    page = client.get(sheet_night.url)
    assert "picks the machine" in page.text
    assert "Request a correction" in page.text


def test_fixing_an_unconfirmed_sheet_makes_a_new_version(client, sheet_night):
    enter(client, sheet_night, ["400", "300", "200", "100"], key="a")

    enter(client, sheet_night, ["410", "300", "200", "100"], key="b")

    versions = list(m.ScoreSubmission.objects.order_by("version").values_list("version", flat=True))
    assert versions == [1, 2]


def confirm_game(client, sheet_night, scores):
    enter(client, sheet_night, scores, key=f"k-{scores}")
    submission = m.ScoreSubmission.objects.filter(confirmed_by=None).get()
    client.post(
        sheet_night.url + "confirm/",
        {"submission": submission.pk, "confirmed_by": sheet_night.players[1].pk},
    )


def test_next_machine_is_chosen_by_the_picker(client, sheet_night):
    confirm_game(client, sheet_night, ["400", "300", "200", "100"])
    page = client.get(sheet_night.url)
    picker = page.context["sheet"].next_picker[0]
    machine_id = page.context["sheet"].selectable[0][0]

    response = client.post(sheet_night.url + "next/", {"chosen_by": picker, "machine": machine_id})

    assert response.status_code == 302
    game = m.Game.objects.get(group=sheet_night.group, number=2)
    assert (game.machine_id, game.chosen_by_id) == (machine_id, picker)


def test_next_machine_by_someone_else_names_the_picker(client, sheet_night):
    confirm_game(client, sheet_night, ["400", "300", "200", "100"])
    page = client.get(sheet_night.url)
    picker = page.context["sheet"].next_picker[0]
    other = next(p for p in sheet_night.players if p.pk != picker)
    machine_id = page.context["sheet"].selectable[0][0]

    response = client.post(
        sheet_night.url + "next/", {"chosen_by": other.pk, "machine": machine_id}
    )

    assert response.status_code == 400
    assert "picks the machine for game 2" in response.text


def test_correction_after_confirmation_is_applied_when_everyone_agrees(client, sheet_night):
    confirm_game(client, sheet_night, ["400", "300", "200", "100"])
    requester = sheet_night.players[0]

    response = client.post(
        sheet_night.url + "correction/",
        {
            "game": sheet_night.game.pk,
            "requested_by": requester.pk,
            f"score_{sheet_night.players[3].pk}": "150",
            "reason": "Typed 100 for 150.",
        },
    )

    assert response.status_code == 302
    request = m.CorrectionRequest.objects.get()
    for player in sheet_night.players[1:]:
        client.post(
            sheet_night.url + f"correction/{request.pk}/answer/",
            {"player": player.pk, "agrees": "yes"},
        )
    request.refresh_from_db()
    assert request.status == m.CorrectionRequest.Status.APPLIED


def test_correction_answer_of_another_group_is_refused(client, sheet_night):
    response = client.post(
        sheet_night.url + "correction/999/answer/", {"player": 1, "agrees": "yes"}
    )

    assert response.status_code == 400
    assert "not this group" in response.text


def test_sheet_posts_need_the_csrf_token(sheet_night):
    strict = Client(enforce_csrf_checks=True)

    response = strict.post(
        sheet_night.url + "enter/", entry_data(sheet_night, ["4", "3", "2", "1"])
    )

    assert response.status_code == 403


# --- stale pages: every entry names its game and the version it saw (issue 8, fault 3) ------


def entry_form_fields(page):
    """The hidden fields of a loaded sheet's entry form, as the phone sends them."""
    form = re.search(r"<form[^>]*data-offline-entry.*?</form>", page.text, re.DOTALL).group(0)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def confirm_form_submission(page):
    """The sheet version a loaded page's confirm button confirms."""
    return int(re.search(r'<input type="hidden" name="submission" value="(\d+)"', page.text)[1])


def start_game_2(client, sheet_night):
    page = client.get(sheet_night.url)
    picker = page.context["sheet"].next_picker[0]
    machine_id = page.context["sheet"].selectable[0][0]
    client.post(sheet_night.url + "next/", {"chosen_by": picker, "machine": machine_id})
    return m.Game.objects.get(group=sheet_night.group, number=2)


def test_entry_queued_on_game_1_is_not_stored_on_game_2(client, sheet_night):
    """Phone 1 loads game 1 and queues an entry; phone 2 enters and confirms game 1 and starts
    game 2; phone 1's entry then arrives. It is refused and nothing is written to game 2."""
    phone_1, phone_2 = Client(), client
    queued = {
        **entry_data(sheet_night, ["400", "300", "200", "100"]),
        **entry_form_fields(phone_1.get(sheet_night.url)),
    }
    confirm_game(phone_2, sheet_night, ["410", "300", "200", "100"])
    game_2 = start_game_2(phone_2, sheet_night)

    response = phone_1.post(sheet_night.url + "enter/", queued, HTTP_ACCEPT="application/json")

    assert response.status_code == 409
    assert json.loads(response.content)["message"] == (
        f"Game 1 of group 1 was already confirmed by {sheet_night.players[1]} (version 1); your "
        "entry was not saved: a change now needs a correction (R3-b). Here is game 2."
    )
    assert m.ScoreSubmission.objects.filter(game=game_2).count() == 0
    assert m.ScoreSubmission.objects.filter(game=sheet_night.game).count() == 1
    page = html.unescape(phone_1.get(sheet_night.url).text)
    assert "your entry was not saved" in page
    assert f"Game 2 · {game_2.machine.title}" in page


def test_entry_made_before_another_players_entry_is_refused(client, sheet_night):
    """Phone 1 saw no sheet yet; phone 2 entered one meanwhile: phone 1's entry would replace
    a version he never saw, so it is refused and the page shows phone 2's entry."""
    phone_1, phone_2 = Client(), client
    stale = {
        **entry_data(sheet_night, ["400", "300", "200", "100"], key="phone-1"),
        **entry_form_fields(phone_1.get(sheet_night.url)),
    }
    enter(
        phone_2,
        sheet_night,
        ["410", "300", "200", "100"],
        key="phone-2",
        entered_by=sheet_night.players[1],
    )

    response = phone_1.post(sheet_night.url + "enter/", stale)

    assert response.status_code == 409
    assert (
        f"{sheet_night.players[1]} entered game 1's scores meanwhile (version 1); your entry was "
        "not saved: check them, then confirm or fix them. Here is game 1."
    ) in html.unescape(response.text)
    assert f"Entered by {sheet_night.players[1]}: check it" in response.text
    assert list(m.ScoreSubmission.objects.values_list("idempotency_key", flat=True)) == ["phone-2"]


def test_confirmation_of_a_replaced_version_is_refused_and_shows_the_new_one(client, sheet_night):
    """Phone 1 shows version 1; phone 2 fixes the sheet (version 2); phone 1's confirmation of
    version 1 is refused, and the page it gets back confirms version 2 (R3-a)."""
    enter(client, sheet_night, ["400", "300", "200", "100"], key="a")
    phone_1 = Client()
    seen = confirm_form_submission(phone_1.get(sheet_night.url))
    enter(
        client,
        sheet_night,
        ["410", "300", "200", "100"],
        key="b",
        entered_by=sheet_night.players[2],
    )
    latest = m.ScoreSubmission.objects.get(version=2)

    response = phone_1.post(
        sheet_night.url + "confirm/",
        {"submission": seen, "confirmed_by": sheet_night.players[1].pk},
    )

    assert response.status_code == 409
    assert (
        "Version 1 of game 1's sheet was replaced by version 2: confirm version 2. Here is game 1."
    ) in html.unescape(response.text)
    assert confirm_form_submission(response) == latest.pk
    assert not m.ScoreSubmission.objects.filter(confirmed_by__isnull=False).exists()


def test_confirmation_of_a_confirmed_game_by_htmx_shows_the_next_step(client, sheet_night):
    """htmx swaps only 2xx answers: the refusal comes back as a 200 page with the message."""
    enter(client, sheet_night, ["400", "300", "200", "100"])
    submission = m.ScoreSubmission.objects.get()
    data = {"submission": submission.pk, "confirmed_by": sheet_night.players[1].pk}
    client.post(sheet_night.url + "confirm/", data)

    response = client.post(
        sheet_night.url + "confirm/",
        {**data, "confirmed_by": sheet_night.players[2].pk},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    page = html.unescape(response.text)
    assert f"Game 1 of group 1 was already confirmed by {sheet_night.players[1]}" in page
    assert "picks the machine." in page
    submission.refresh_from_db()
    assert submission.confirmed_by == sheet_night.players[1]


def test_entry_naming_no_game_is_refused(client, sheet_night):
    """An entry queued by an older page names no game: it is never stored on a guessed one."""
    data = entry_data(sheet_night, ["400", "300", "200", "100"])
    del data["game"], data["seen_version"]

    response = client.post(sheet_night.url + "enter/", data, HTTP_ACCEPT="application/json")

    assert response.status_code == 400
    assert json.loads(response.content)["errors"]["__all__"][0]["message"] == (
        "This entry does not say which game and which version of its sheet it was made on: "
        "it was not saved. Reload the sheet and enter the scores again."
    )
    assert not m.ScoreSubmission.objects.exists()


def test_entry_naming_a_game_of_no_group_of_the_sheet_is_refused(client, sheet_night):
    data = {**entry_data(sheet_night, ["400", "300", "200", "100"]), "game": "999999"}

    response = client.post(sheet_night.url + "enter/", data)

    assert response.status_code == 400
    assert "That game is not this group&#x27;s: reload the sheet." in response.text
    assert not m.ScoreSubmission.objects.exists()


# --- typed machine scores (issue 8, fault 10) --------------------------------------------


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("1234567", 1_234_567),
        ("1,234,567", 1_234_567),
        ("1.234.567", 1_234_567),
        ("1 234 567", 1_234_567),
        ("1'234'567", 1_234_567),
        ("1\u202f234\u202f567", 1_234_567),
        ("1\u00a0234\u00a0567", 1_234_567),
        (" 1,234,567 ", 1_234_567),
    ],
)
def test_enter_scores_with_thousands_separators_accepted(client, sheet_night, typed, stored):
    response = enter(client, sheet_night, [typed, "300", "200", "100"])

    assert response.status_code == 302
    assert m.ScoreLine.objects.get(player=sheet_night.players[0]).machine_score == stored


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("1.5", "is not a whole machine score: type every digit the machine shows"),
        ("1,5", "is not a whole machine score: type every digit the machine shows"),
        ("12,34,567", "is not a whole machine score: type every digit the machine shows"),
        ("1,234.567", "is not a whole machine score: type every digit the machine shows"),
        ("1 234,567", "is not a whole machine score: type every digit the machine shows"),
        ("١٢٣", "is not a machine score: type it with the digits 0-9"),
        ("１２３", "is not a machine score: type it with the digits 0-9"),
        ("12²", "is not a machine score: type it with the digits 0-9"),
        ("-5", "is not a machine score: type digits only"),
    ],
)
def test_enter_scores_not_ascii_digits_in_groups_of_three_refused_naming_the_player(
    client, sheet_night, typed, why
):
    response = enter(client, sheet_night, ["400", typed, "200", "100"])

    assert response.status_code == 400
    assert f"{sheet_night.players[1]}’s score: “{typed}” {why}" in html.unescape(response.text)
    assert not m.ScoreSubmission.objects.exists()


# --- the live sheet: /sheet/<token>/state/ (issue 10, item 5) ------------------------------


def digest_of(response):
    """The sheet digest a page or live fragment carries."""
    return re.search(r'data-sheet-digest="(\w+)"', response.text)[1]


def teammate_enters(sheet_night, scores=(400, 300, 200, 100)):
    """Another phone of the group enters game 1's scores (as the service stores them)."""
    services.submit_scores(
        game=sheet_night.game,
        scores=dict(zip(sheet_night.players, scores, strict=True)),
        entered_by=sheet_night.players[1],
        idempotency_key="teammate-phone",
        seen_version=0,
    )


def test_live_sheet_is_the_sheet_fragment_with_the_pages_digest(client, sheet_night):
    page = client.get(sheet_night.url)

    live = client.get(sheet_night.url + "state/")

    assert live.status_code == 200
    assert live.text.lstrip().startswith('<div id="sheet"')
    assert "<html" not in live.text
    assert f'data-sheet-state="{sheet_night.url}state/"' in page.text
    assert digest_of(live) == digest_of(page)


def test_live_sheet_answers_304_to_its_tag_after_one_query(
    client, sheet_night, django_assert_max_num_queries
):
    first = client.get(sheet_night.url + "state/")
    tag = first["ETag"]

    with django_assert_max_num_queries(1):
        again = client.get(sheet_night.url + "state/", HTTP_IF_NONE_MATCH=tag)

    assert tag.startswith('W/"')
    assert again.status_code == 304
    assert again["ETag"] == tag
    assert again.content == b""


def test_live_sheet_after_a_teammates_entry_has_a_new_tag_and_shows_it(client, sheet_night):
    before = client.get(sheet_night.url + "state/")

    teammate_enters(sheet_night)
    after = client.get(sheet_night.url + "state/", HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert digest_of(after) != digest_of(before)
    assert f"Entered by {sheet_night.players[1]}: check it" in after.text


def test_live_sheet_keeps_its_digest_when_only_the_league_changed(client, sheet_night):
    """Another group's entry changes the league's revision (a new tag, a 200), not this
    group's sheet: the phone must not replace its page for it."""
    before = client.get(sheet_night.url + "state/")

    league_changed(sheet_night.league)
    after = client.get(sheet_night.url + "state/", HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert digest_of(after) == digest_of(before)


def test_live_sheet_holds_each_phones_own_form_token(sheet_night):
    """The fragment holds a CSRF form token, so it is never kept in the anonymous page memo:
    a second phone gets its own token, which its own POST passes with."""
    Client().get(sheet_night.url + "state/")
    phone = Client(enforce_csrf_checks=True)

    live = phone.get(sheet_night.url + "state/")
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', live.text)[1]
    posted = phone.post(sheet_night.url + "enter/", {"csrfmiddlewaretoken": token})

    assert "csrftoken" in live.cookies
    assert posted.status_code == 400  # the form's own refusal, not the CSRF check's 403


def test_live_sheet_of_a_closed_meet_says_it_is_over_and_offers_nothing_more(client, sheet_night):
    client.get(sheet_night.url + "state/")
    m.Meet.objects.filter(pk=sheet_night.meet.pk).update(status=m.Meet.Status.CLOSED)

    response = client.get(sheet_night.url + "state/")

    assert response.status_code == 200
    assert "Meet 1 is closed" in response.text
    assert (
        f'href="/leagues/{sheet_night.league.slug}/meets/{sheet_night.meet.pk}/"' in response.text
    )
    assert "data-sheet-state" not in response.text
    assert "<form" not in response.text


def test_live_sheet_with_a_tampered_token_is_not_found_without_a_query(
    client, sheet_night, django_assert_max_num_queries
):
    with django_assert_max_num_queries(0):
        response = client.get(sheet_night.url[:-3] + "xx/state/")

    assert response.status_code == 404


def test_live_sheet_leaves_the_messages_for_the_next_page(client, sheet_night):
    enter(client, sheet_night, ["400", "300", "200", "100"])

    live = client.get(sheet_night.url + "state/")
    page = client.get(sheet_night.url)

    assert "Scores entered." not in live.text
    assert "Scores entered." in page.text


def test_correction_waiting_shows_scores_that_may_break_and_each_answer_form(client, sheet_night):
    """One include with the playoff sheet's: a long score may break after a separator."""
    confirm_game(client, sheet_night, ["400", "300", "200", "100"])
    client.post(
        sheet_night.url + "correction/",
        {"game": sheet_night.game.pk, "requested_by": sheet_night.players[0].pk,
         f"score_{sheet_night.players[3].pk}": "1,500,000", "reason": "Typed 100."},
    )  # fmt: skip
    request = m.CorrectionRequest.objects.get()

    page = client.get(sheet_night.url).content.decode()

    assert '100</span> → <strong><span class="score">1,500,000</span></strong>' in page
    answer = f'action="{sheet_night.url}correction/{request.pk}/answer/"'
    assert page.count(answer) == 3
