"""Personal links: issue, reissue, revoke, and what a player tells through theirs (R2.2-a,
R3.1-d): the same facts the official records, only for themselves, their own season, before
the start time, and while the link is live."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.player_link_tokens import DeadLinkError, token_for
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.selectors.player_links import player_link_page
from flipwell.league.services.meets.schedule import schedule_meet
from flipwell.league.services.player_links import (
    announce_absence_by_link,
    announce_lateness_by_link,
    issue_player_link,
    live_link,
    revoke_player_link,
    set_player_link_email,
)
from tests import factories as f
from tests.league.league_night import DATE, build_night
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db

MINUTE = datetime.timedelta(minutes=1)


def _said(error: ValidationError) -> tuple[str, str]:
    """(field, first message) of a service's ValidationError; field "" when it has none."""
    if hasattr(error, "error_dict"):
        field, errors = next(iter(error.message_dict.items()))
        return field, errors[0]
    return "", error.messages[0]


def _night_with_link(players: int = 8):  # type: ignore[no-untyped-def]
    night = build_night(players=players)
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    link = issue_player_link(season=night.season, player=night.players[0], actor=night.user)
    return night, meet, link


def test_issue_player_link_opens_by_its_token():
    night, _, link = _night_with_link()

    opened = live_link(token_for(link))

    assert (opened.pk, opened.player, opened.season) == (link.pk, night.players[0], night.season)
    assert m.AuditEvent.objects.filter(action="player_link.issued", object_id=str(link.pk)).exists()


def test_live_link_refuses_a_forged_token():
    _, _, link = _night_with_link()

    with pytest.raises(DeadLinkError):
        live_link(link.key)  # the key without the signature
    with pytest.raises(DeadLinkError):
        live_link(token_for(link)[:-1] + "x")


def test_issue_player_link_again_revokes_the_old_one_and_keeps_the_email():
    night, _, old = _night_with_link()
    set_player_link_email(link=old, email="first0@example.org")

    new = issue_player_link(season=night.season, player=night.players[0], actor=night.user)

    with pytest.raises(DeadLinkError):
        live_link(token_for(old))
    assert (live_link(token_for(new)).pk, new.email) == (new.pk, "first0@example.org")


def test_issue_player_link_refuses_a_player_not_entered():
    night, _, _ = _night_with_link()

    stranger = f.PlayerFactory()

    with pytest.raises(ValidationError) as error:
        issue_player_link(season=night.season, player=stranger, actor=night.user)

    assert _said(error.value) == ("player", f"{stranger} is not entered in {night.season.name}.")


def test_issue_player_link_refuses_an_official_of_another_league():
    night, _, _ = _night_with_link()
    stranger = f.LeagueOfficialFactory().user

    with pytest.raises(PermissionDenied):
        issue_player_link(season=night.season, player=night.players[1], actor=stranger)


def test_a_links_name_says_revoked_once_it_is():
    night, _meet, link = _night_with_link()
    live = str(link)

    revoke_player_link(link=link, actor=night.user)

    link.refresh_from_db()
    assert (live.endswith("(revoked)"), str(link)) == (False, f"{live} (revoked)")


def test_revoked_link_opens_nothing_and_announces_nothing():
    night, meet, link = _night_with_link()

    revoke_player_link(link=link, actor=night.user)

    with pytest.raises(DeadLinkError):
        live_link(token_for(link))
    with pytest.raises(ValidationError) as error:
        announce_absence_by_link(
            link=link, meet=meet, received_at=scheduled_start(meet) - 60 * MINUTE
        )
    assert _said(error.value)[1].startswith("This personal link no longer works")
    assert not m.AnnouncedAbsence.objects.exists()
    assert m.AuditEvent.objects.filter(action="player_link.revoked").count() == 1


def test_announce_absence_by_link_records_the_same_fact_with_the_time_received():
    """R3.1-d: the absence is the fact the LO records; the player is left out of the groups."""
    night, meet, link = _night_with_link()
    received = scheduled_start(meet) - 90 * MINUTE

    absence = announce_absence_by_link(link=link, meet=meet, received_at=received)

    assert (absence.player, absence.meet, absence.recorded_at) == (night.players[0], meet, received)
    assert (absence.recorded_by, absence.player_link) == (None, link)
    started = start_night(night)
    grouped = m.GroupMember.objects.filter(group__meet=started).values_list("player", flat=True)
    assert night.players[0].pk not in set(grouped)


def test_announce_absence_by_link_refused_at_the_start_time():
    """R2.2-a: a notice through the link is accepted only before the start time."""
    _, meet, link = _night_with_link()

    with pytest.raises(ValidationError) as error:
        announce_absence_by_link(link=link, meet=meet, received_at=scheduled_start(meet))

    assert _said(error.value) == (
        "meet",
        "Meet 1 started at 19:00 on Tue 06 Jan: an absence is told through this link only "
        "before the start time (R2.2-a). Tell a league official instead.",
    )
    assert not m.AnnouncedAbsence.objects.exists()


def test_announce_absence_by_link_one_minute_before_the_start_is_recorded():
    _, meet, link = _night_with_link()

    announce_absence_by_link(link=link, meet=meet, received_at=scheduled_start(meet) - MINUTE)

    assert m.AnnouncedAbsence.objects.count() == 1


def test_announce_lateness_by_link_before_the_start_makes_the_group_wait():
    """R2.2-a, A59: told before the start, the group waits up to 15 minutes."""
    _, meet, link = _night_with_link()
    start = scheduled_start(meet)

    told = announce_lateness_by_link(link=link, meet=meet, received_at=start - 5 * MINUTE)

    assert (told.tardiness.announced, told.tardiness.wait_until) == (True, start + 15 * MINUTE)
    assert (told.notice.recorded_at, told.notice.player_link) == (start - 5 * MINUTE, link)


def test_announce_lateness_by_link_after_the_start_time_refused():
    _, meet, link = _night_with_link()

    with pytest.raises(ValidationError) as error:
        announce_lateness_by_link(link=link, meet=meet, received_at=scheduled_start(meet) + MINUTE)

    assert _said(error.value)[0] == "meet"
    assert not m.LatenessNotice.objects.exists()


def test_announce_by_link_refuses_a_meet_of_another_league():
    _, _, link = _night_with_link()
    other = build_night(players=8)
    other_meet = schedule_meet(season=other.season, number=1, date=DATE, actor=other.user)

    with pytest.raises(ValidationError) as error:
        announce_absence_by_link(
            link=link, meet=other_meet, received_at=scheduled_start(other_meet) - 60 * MINUTE
        )

    assert _said(error.value) == (
        "meet",
        f"This link is for {link.season.name}; that meet is not one of its meets.",
    )
    assert not m.AnnouncedAbsence.objects.exists()


def test_announce_by_link_speaks_only_for_its_own_player():
    """A link names its player; nothing it sends is about another player."""
    night, meet, link = _night_with_link()

    announce_lateness_by_link(link=link, meet=meet, received_at=scheduled_start(meet) - MINUTE)

    assert list(m.LatenessNotice.objects.values_list("player", flat=True)) == [night.players[0].pk]


def test_announce_absence_by_link_twice_refused():
    _, meet, link = _night_with_link()
    before = scheduled_start(meet) - 60 * MINUTE
    announce_absence_by_link(link=link, meet=meet, received_at=before)

    with pytest.raises(ValidationError) as error:
        announce_absence_by_link(link=link, meet=meet, received_at=before)

    assert _said(error.value)[0] == "player"


def test_set_player_link_email_refuses_an_invalid_address():
    _, _, link = _night_with_link()

    with pytest.raises(ValidationError) as error:
        set_player_link_email(link=link, email="not an address")

    assert list(error.value.message_dict) == ["email"]
    link.refresh_from_db()
    assert link.email == ""


def test_player_link_page_offers_notices_until_the_start_time():
    _, meet, link = _night_with_link()
    start = scheduled_start(meet)

    before = player_link_page(link, now=start - MINUTE).meets[0]
    after = player_link_page(link, now=start).meets[0]

    assert (before.can_announce_absence, before.can_announce_lateness) == (True, True)
    assert (after.can_announce_absence, after.can_announce_lateness) == (False, False)


def test_player_link_page_shows_the_group_once_the_meet_started():
    night, _, link = _night_with_link()
    start_night(night)

    page = player_link_page(live_link(token_for(link)))

    assert page.group is not None
    assert (page.group.meet, page.group.number, page.group.players[0]) == (
        1,
        1,
        str(night.players[0]),
    )
    assert len(page.group.others) == 3
