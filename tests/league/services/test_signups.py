"""Signing up for the next season: the official's question, the players' answers through
their personal links, newcomers' sign-ups and the official's decisions, and the next season
built from them (issue 37 §2)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import token_for
from flipwell.league.refusals import ConflictError
from tests import factories as f
from tests.league.season_calls import NEXT, Winter, first_meet, winter

pytestmark = pytest.mark.django_db


@pytest.fixture
def last() -> Winter:
    return winter()


def _codes(error: pytest.ExceptionInfo[ValidationError]) -> str:
    return getattr(error.value, "refusal", "")


def _sign_up(league: m.League, **changes: object) -> m.SignUp:
    fields: dict[str, object] = {
        "first_name": "Eve",
        "last_name": "Newcomer",
        "email": "eve@example.org",
        "ifpa_number": None,
        **changes,
    }
    return services.sign_up(league=league, **fields)


def _open(last: Winter) -> m.SeasonCall:
    return services.set_signups_open(call=last.ask(), open_now=True, actor=last.official)


# --- the question ------------------------------------------------------------------------------


def test_ask_next_season_records_the_question_and_emails_who_chose_reminders(last, settings):
    settings.NOTICES_EMAIL, settings.SITE_URL = True, "https://league.example.org"
    ana, bo, cy, _di = last.players
    for player, kinds in ((ana, ["reminder"]), (bo, ["results"]), (cy, ["reminder"])):
        services.set_notice_preferences(
            league=last.league, player=player, email=f"{player.first_name}@example.org",
            kinds=kinds, actor=last.official,
        )  # fmt: skip
    services.revoke_player_link(link=last.links[2], actor=last.official)  # Cy: no link now

    call = last.ask()

    assert (call.name, call.weekday, call.starts_on, call.dues_cents, call.asked_by) == (
        NEXT, m.Weekday.TUESDAY, first_meet(), 3000, last.official,
    )  # fmt: skip
    event = m.AuditEvent.objects.get(action="season_call.asked")
    assert event.data["starts_on"] == first_meet().isoformat()
    (notice,) = m.Notice.objects.all()
    assert (notice.player, notice.kind, notice.subject) == (
        ana, "reminder", f"Tuesday Flippers: Playing in {NEXT}?",
    )  # fmt: skip
    assert f"/me/{token_for(last.links[0])}/#next" in notice.body
    assert "Tuesdays from" in notice.body
    assert "dues 30.00" in notice.body


def test_ask_next_season_again_the_same_writes_nothing_and_a_change_is_kept(last):
    first = last.ask()
    events = m.AuditEvent.objects.count()

    again = last.ask()
    later = first_meet() + datetime.timedelta(days=7)
    changed = last.ask(starts_on=later, dues_cents=3500)

    assert again.pk == first.pk == changed.pk
    assert (changed.starts_on, changed.dues_cents) == (later, 3500)
    change = m.AuditEvent.objects.get(action="season_call.changed")
    assert (change.data["before"]["dues_cents"], change.data["after"]["dues_cents"]) == (3000, 3500)
    assert m.AuditEvent.objects.count() == events + 1


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"starts_on": first_meet() + datetime.timedelta(days=1)}, "starts_on",
         "start_off_league_night"),
        ({"starts_on": first_meet() - datetime.timedelta(days=28)}, "starts_on",
         "start_in_the_past"),
        ({"name": "Winter 2026"}, "name", "season_name_taken"),
        ({"name": "  "}, "name", "name_required"),
    ],
    ids=["off the league night", "past", "name taken", "no name"],
)  # fmt: skip
def test_ask_next_season_refuses_details_the_roster_cannot_take(last, changes, field, code):
    with pytest.raises(ValidationError) as refused:
        last.ask(**changes)

    assert (list(refused.value.message_dict), _codes(refused)) == ([field], code)
    assert m.SeasonCall.objects.count() == 0


def test_ask_next_season_says_the_first_date_is_not_on_the_league_night(last):
    wednesday = first_meet() + datetime.timedelta(days=1)

    with pytest.raises(ValidationError) as refused:
        last.ask(starts_on=wednesday)

    assert refused.value.message_dict["starts_on"] == [
        f"{wednesday:%a} {wednesday.day} {wednesday:%b %Y} is a Wednesday, not a Tuesday: the "
        "first meet is on the league night."
    ]


def test_ask_next_season_of_an_older_season_is_refused(last):
    f.SeasonFactory(league=last.league, name="Summer 2026")

    with pytest.raises(ConflictError) as refused:
        last.ask()

    assert _codes(refused) == "newer_season"


# --- the answers -------------------------------------------------------------------------------


def test_answer_next_season_is_kept_with_who_when_and_the_link(last):
    call = last.ask()
    told = timezone.now() - datetime.timedelta(minutes=5)

    answer = services.answer_next_season(link=last.links[0], answer="yes", received_at=told)

    assert (answer.call, answer.player, answer.answer, answer.answered_at, answer.link) == (
        call, last.players[0], "yes", told, last.links[0],
    )  # fmt: skip
    event = m.AuditEvent.objects.get(action="season_call.answered")
    assert (event.actor, event.data["answer"], event.data["before"]) == (None, "yes", None)


def test_changed_answer_keeps_the_history_and_the_same_again_writes_nothing(last):
    last.ask()
    link = last.links[1]

    services.answer_next_season(link=link, answer="maybe")
    services.answer_next_season(link=link, answer="yes")
    repeated = services.answer_next_season(link=link, answer="yes")

    history = list(m.SeasonAnswer.objects.order_by("pk").values_list("answer", flat=True))
    assert history == ["maybe", "yes"]
    assert repeated.pk == m.SeasonAnswer.objects.order_by("pk").last().pk
    last_event = m.AuditEvent.objects.filter(action="season_call.answered").last()
    assert (last_event.data["answer"], last_event.data["before"]) == ("yes", "maybe")


def test_answer_changes_after_the_roster_is_built_until_its_first_meet_starts(last):
    last.ask()
    services.answer_next_season(link=last.links[0], answer="yes")
    spring = services.start_next_season(season=last.season, name=NEXT, actor=last.official)
    services.answer_next_season(link=last.links[0], answer="no")  # still open
    f.MeetFactory(season=spring, number=1, date=first_meet(), status=m.Meet.Status.OPEN)

    with pytest.raises(ConflictError) as refused:
        services.answer_next_season(link=last.links[0], answer="yes")

    assert _codes(refused) == "season_started"
    assert refused.value.message_dict["answer"] == [
        f"The first meet of {NEXT} has started: your answer no longer changes. Tell a league "
        "official."
    ]
    assert m.SeasonAnswer.objects.filter(player=last.players[0]).count() == 2


@pytest.mark.parametrize(
    ("arrange", "answer", "code"),
    [
        (lambda last: None, "yes", "no_season_call"),
        (lambda last: last.ask(), "perhaps", "unknown_answer"),
        (lambda last: (last.ask(), services.revoke_player_link(
            link=last.links[0], actor=last.official)), "yes", "link_revoked"),
    ],
    ids=["nothing asked", "not an answer", "revoked link"],
)  # fmt: skip
def test_answer_next_season_refused_writes_nothing(last, arrange, answer, code):
    arrange(last)

    with pytest.raises(ValidationError) as refused:
        services.answer_next_season(link=last.links[0], answer=answer)

    assert _codes(refused) == code
    assert m.SeasonAnswer.objects.count() == 0


# --- newcomers ---------------------------------------------------------------------------------


def test_sign_up_is_kept_once_for_the_open_question(last):
    call = _open(last)

    signup = _sign_up(last.league, ifpa_number=4242, first_name=" Eve ")
    again = _sign_up(last.league, ifpa_number=4242)

    assert again.pk == signup.pk
    assert (signup.call, signup.first_name, signup.ifpa_number, signup.decision) == (
        call, "Eve", 4242, "",
    )  # fmt: skip
    event = m.AuditEvent.objects.get(action="signup.received")
    assert "eve@example.org" not in str(event.data)


def test_sign_up_refused_while_the_form_is_closed(last):
    call = last.ask()

    with pytest.raises(ConflictError) as closed:
        _sign_up(last.league)
    services.set_signups_open(call=call, open_now=True, actor=last.official)
    services.set_signups_open(call=call, open_now=False, actor=last.official)
    with pytest.raises(ConflictError) as closed_again:
        _sign_up(last.league)

    assert (_codes(closed), _codes(closed_again)) == ("signups_closed", "signups_closed")
    assert str(closed.value.messages[0]) == (
        "Sign-ups for Tuesday Flippers are closed: ask a league official."
    )


@pytest.mark.parametrize(
    ("changes", "messages", "code"),
    [
        ({"first_name": "", "email": ""}, {
            "first_name": "Give your first name.",
            "email": "Give your e-mail address: the league official answers there.",
        }, "invalid_signup"),
        ({"email": "eve@"}, {
            "email": "'eve@' is not an e-mail address (like name@example.org).",
        }, "invalid_signup"),
        ({"last_name": "N" * 81}, {
            "last_name": "A last name has at most 80 characters.",
        }, "invalid_signup"),
        ({"first_name": "ana", "last_name": "FLIPPER"}, {
            "last_name": "Ana Flipper played in Winter 2026: answer on your personal link, or "
            "ask a league official for it.",
        }, "already_on_roster"),
        ({"ifpa_number": 1002}, {
            "ifpa_number": "Bo Flipper played in Winter 2026: answer on your personal link, or "
            "ask a league official for it.",
        }, "already_on_roster"),
        ({"ifpa_number": 7777}, {
            "ifpa_number": "IFPA number 7777 belongs to Zed Other, not Eve Newcomer; check the "
            "number or the spelling.",
        }, "ifpa_number_taken"),
    ],
    ids=["no name or address", "not an address", "too long", "on the roster by name",
         "on the roster by number", "another person's number"],
)  # fmt: skip
def test_sign_up_checks_the_roster_rules_with_specific_messages(last, changes, messages, code):
    _open(last)
    f.PlayerFactory(first_name="Zed", last_name="Other", ifpa_number=7777)

    with pytest.raises(ValidationError) as refused:
        _sign_up(last.league, **changes)

    assert (refused.value.message_dict, _codes(refused)) == (
        {field: [text] for field, text in messages.items()}, code,
    )  # fmt: skip
    assert m.SignUp.objects.count() == 0


def test_sign_up_twice_under_another_address_is_a_duplicate(last):
    _open(last)
    _sign_up(last.league)

    with pytest.raises(ConflictError) as refused:
        _sign_up(last.league, email="eve@elsewhere.org")

    assert _codes(refused) == "already_signed_up"
    assert m.SignUp.objects.count() == 1


def test_sign_up_to_another_league_finds_its_form_closed(last):
    _open(last)
    other = winter(slug="thursday", ifpa_base=2000)

    with pytest.raises(ConflictError) as refused:
        _sign_up(other.league)

    assert _codes(refused) == "signups_closed"


def test_official_accepts_and_refuses_sign_ups_with_who_when_and_why(last):
    _open(last)
    eve = _sign_up(last.league)
    fay = _sign_up(last.league, first_name="Fay", email="fay@example.org")

    accepted = services.accept_signup(signup=eve, actor=last.official)
    refused = services.refuse_signup(signup=fay, reason="The league is full", actor=last.official)
    again = services.accept_signup(signup=eve, actor=last.official)

    assert (accepted.decision, accepted.decided_by, accepted.reason) == (
        "accepted", last.official, "",
    )  # fmt: skip
    assert (refused.decision, refused.decided_by, refused.reason) == (
        "refused", last.official, "The league is full",
    )  # fmt: skip
    assert accepted.decided_at is not None
    assert again.decided_at == accepted.decided_at
    assert list(
        m.AuditEvent.objects.filter(action__startswith="signup.").values_list("action", flat=True)
    ) == ["signup.received", "signup.received", "signup.accepted", "signup.refused"]


def test_refusing_a_sign_up_needs_a_reason(last):
    _open(last)
    eve = _sign_up(last.league)

    with pytest.raises(ValidationError) as refused:
        services.refuse_signup(signup=eve, reason=" ", actor=last.official)

    assert _codes(refused) == "reason_required"
    eve.refresh_from_db()
    assert eve.decision == ""


# --- the next season built from the answers ----------------------------------------------------


def test_next_season_built_from_the_answers_enters_the_yeses_and_the_accepted(last):
    _ana, bo, cy, _di = last.players
    call = _open(last)
    for link, said in zip(last.links, ("yes", "no", "maybe", "yes"), strict=True):
        services.answer_next_season(link=link, answer=said)
    eve = services.accept_signup(signup=_sign_up(last.league), actor=last.official)
    zed = f.PlayerFactory(first_name="Zed", last_name="Other", ifpa_number=7777)
    back = services.accept_signup(
        signup=_sign_up(last.league, first_name="Zed", last_name="Other", ifpa_number=7777,
                        email="zed@example.org"),
        actor=last.official,
    )  # fmt: skip

    spring = services.start_next_season(
        season=last.season, name=NEXT, leave_out=[bo, cy], newcomers=[eve, back],
        actor=last.official,
    )  # fmt: skip

    entries = {str(e.player): e for e in spring.entries.select_related("player")}
    assert sorted(entries) == ["Ana Flipper", "Di Flipper", "Eve Newcomer", "Zed Other"]
    assert entries["Zed Other"].player == zed  # a returning player keeps their history
    assert (entries["Eve Newcomer"].ifpa_rank_at_start, entries["Eve Newcomer"].joined_at_meet) == (
        None, 1,
    )  # fmt: skip
    assert spring.dues_cents == 3000  # the question's
    call.refresh_from_db()
    assert (call.built, call.signups_open) == (spring, False)
    assert m.AuditEvent.objects.get(action="signups.entered").data["signups"] == [eve.pk, back.pk]


def test_next_season_refuses_a_sign_up_not_accepted(last):
    _open(last)
    eve = _sign_up(last.league)

    with pytest.raises(ValidationError) as refused:
        services.start_next_season(
            season=last.season, name=NEXT, newcomers=[eve], actor=last.official
        )

    assert _codes(refused) == "signup_not_accepted"
    assert m.Season.objects.count() == 1


def test_question_built_from_no_longer_changes_nor_decides(last):
    _open(last)
    eve = _sign_up(last.league)
    services.start_next_season(season=last.season, name=NEXT, actor=last.official)

    with pytest.raises(ConflictError) as decided:
        services.accept_signup(signup=eve, actor=last.official)
    with pytest.raises(ConflictError) as changed:
        last.ask(dues_cents=1)

    assert (_codes(decided), _codes(changed)) == ("season_already_built", "season_already_built")
