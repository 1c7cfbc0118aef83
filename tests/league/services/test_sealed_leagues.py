"""A league's people are its own (issue 26 §1): what one league collected about a player (e-mail
address, notices, the personal link's address) is out of reach of another league's officials,
a rename or merge that changes another league's pages needs an official of that league too,
and each league's audit log holds what changed its pages. The services, called as the
officials of two leagues that share a player (`tests.league.two_leagues`)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction

from flipwell.league import models as m
from flipwell.league.notice_worker import work_once
from flipwell.league.notices import LateJoinFacts, queue_ruling
from flipwell.league.services import (
    edit_player,
    import_players_csv,
    issue_player_link,
    merge_players,
    register_player,
    set_notice_preferences,
    set_player_link_email,
    undo_player_merge,
)
from tests import factories as f
from tests.league.two_leagues import (
    TUESDAY_ADDRESS,
    WEDNESDAY_ADDRESS,
    official_of_both,
)

pytestmark = pytest.mark.django_db

RENAME_REFUSED = (
    "Dee Cruz also plays in Tuesday Flippers: only an official of every league they play in, "
    "or an installation admin, can rename them."
)
MERGE_REFUSED = (
    "Dee Cruz also plays in Tuesday Flippers: only an official of every league they play in, "
    "or an installation admin, can merge them."
)


def _wednesday_sets_notices(two_leagues, email=WEDNESDAY_ADDRESS):
    return set_notice_preferences(
        league=two_leagues.wednesday,
        player=two_leagues.dee,
        email=email,
        kinds=["ruling"],
        actor=two_leagues.wednesday_official.user,
    )


def test_set_notice_preferences_of_a_shared_player_leaves_the_other_leagues_address(two_leagues):
    """issue 26 §1: Wednesday's official setting Dee's address overwrote Tuesday's."""
    _wednesday_sets_notices(two_leagues)

    rows = m.NoticeSubscription.objects.filter(player=two_leagues.dee)
    assert sorted(row.email for row in rows) == [TUESDAY_ADDRESS, WEDNESDAY_ADDRESS]
    assert sorted((row.league.name, row.email) for row in rows) == [
        ("Tuesday Flippers", TUESDAY_ADDRESS),
        ("Wednesday Wizards", WEDNESDAY_ADDRESS),
    ]


def test_set_notice_preferences_removal_by_another_league_keeps_the_first_leagues(two_leagues):
    """issue 26 §1: an empty address from Wednesday deleted Tuesday's subscription."""
    set_notice_preferences(
        league=two_leagues.wednesday,
        player=two_leagues.dee,
        email="",
        kinds=[],
        actor=two_leagues.wednesday_official.user,
    )

    row = m.NoticeSubscription.objects.get(player=two_leagues.dee)
    assert (row.league, row.email) == (two_leagues.tuesday, TUESDAY_ADDRESS)


def test_notices_of_each_league_go_to_that_leagues_address_only(two_leagues, settings, mailoutbox):
    """issue 26 §1: after Wednesday set an address, Tuesday's notices went to it."""
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    _wednesday_sets_notices(two_leagues)
    with transaction.atomic():
        for league in (two_leagues.tuesday, two_leagues.wednesday):
            queue_ruling(
                league=league,
                player=two_leagues.dee,
                key=f"test:{league.slug}",
                about=LateJoinFacts(
                    season="Spring", joined_at_meet=2, countable=True, limit=3, reason=""
                ),
            )

    work_once()

    assert sorted((mail.subject, mail.to) for mail in mailoutbox) == [
        ("Tuesday Flippers: your forfeits before you joined Spring", [TUESDAY_ADDRESS]),
        ("Wednesday Wizards: your forfeits before you joined Spring", [WEDNESDAY_ADDRESS]),
    ]


def test_notice_of_a_league_without_the_players_address_is_not_sent_to_anothers(
    two_leagues, settings, mailoutbox
):
    """issue 26 §1: a notice is sent to its own league's address or not at all."""
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    m.Notice.objects.create(
        league=two_leagues.wednesday,
        player=two_leagues.dee,
        kind="ruling",
        dedupe_key="test:wednesday",
        subject="Wednesday Wizards: A ruling",
        body="It affects you.",
    )

    result = work_once()

    assert (result.sent, result.skipped, mailoutbox) == (0, 1, [])


def test_player_link_email_becomes_the_notices_address_of_its_league_only(two_leagues):
    """issue 26 §1: the address Dee left on her Wednesday link did not become Wednesday's
    notices address (Tuesday's row was hers everywhere); now it is Wednesday's alone."""
    link = issue_player_link(
        season=two_leagues.wednesday_season,
        player=two_leagues.dee,
        actor=two_leagues.wednesday_official.user,
    )

    set_player_link_email(link=link, email="dee@personal.example.org")

    rows = m.NoticeSubscription.objects.filter(player=two_leagues.dee)
    assert sorted(row.email for row in rows) == ["dee@personal.example.org", TUESDAY_ADDRESS]
    assert sorted((row.league.name, row.email) for row in rows) == [
        ("Tuesday Flippers", TUESDAY_ADDRESS),
        ("Wednesday Wizards", "dee@personal.example.org"),
    ]


def test_edit_player_rename_of_a_player_of_another_league_is_refused_naming_it(two_leagues):
    """issue 26 §1: Wednesday's official renamed Dee on Tuesday's pages too."""
    with pytest.raises(PermissionDenied) as refused:
        edit_player(
            season=two_leagues.wednesday_season,
            player=two_leagues.dee,
            first_name="Deedee",
            last_name="Cruz",
            ifpa_number=4321,
            actor=two_leagues.wednesday_official.user,
        )

    assert str(refused.value) == RENAME_REFUSED
    two_leagues.dee.refresh_from_db()
    assert str(two_leagues.dee) == "Dee Cruz"
    assert not m.AuditEvent.objects.filter(action="player.edited").exists()


def test_edit_player_by_an_official_of_every_league_is_in_each_leagues_log(two_leagues):
    """issue 26 §1: the rename's audit event was only in the league it was made from."""
    both = official_of_both(two_leagues)

    edit_player(
        season=two_leagues.wednesday_season,
        player=two_leagues.dee,
        first_name="Deedee",
        last_name="Cruz",
        ifpa_number=4321,
        actor=both.user,
    )

    events = m.AuditEvent.objects.filter(action="player.edited").order_by("league__name")
    assert [event.league.name for event in events] == ["Tuesday Flippers", "Wednesday Wizards"]
    two_leagues.dee.refresh_from_db()
    assert str(two_leagues.dee) == "Deedee Cruz"


def test_edit_player_by_a_superuser_of_a_player_of_two_leagues(two_leagues):
    admin = f.UserFactory(is_superuser=True)

    edit_player(
        season=two_leagues.wednesday_season,
        player=two_leagues.dee,
        first_name="Deedee",
        last_name="Cruz",
        ifpa_number=4321,
        actor=admin,
    )

    two_leagues.dee.refresh_from_db()
    assert str(two_leagues.dee) == "Deedee Cruz"


def test_edit_player_of_a_player_of_one_league_needs_only_its_official(two_leagues):
    edit_player(
        season=two_leagues.wednesday_spring,
        player=two_leagues.kruz,
        first_name="Dee",
        last_name="Kruse",
        ifpa_number=None,
        actor=two_leagues.wednesday_official.user,
    )

    two_leagues.kruz.refresh_from_db()
    assert str(two_leagues.kruz) == "Dee Kruse"
    assert list(
        m.AuditEvent.objects.filter(action="player.edited").values_list("league", flat=True)
    ) == [two_leagues.wednesday.pk]


def test_merge_players_of_a_player_of_another_league_is_refused_naming_it(two_leagues):
    """issue 26 §1: Wednesday's official merged Tuesday's Dee into Wednesday's Dee Kruz."""
    with pytest.raises(PermissionDenied) as refused:
        merge_players(
            league=two_leagues.wednesday,
            kept=two_leagues.kruz,
            merged=two_leagues.dee,
            reason="Same person.",
            actor=two_leagues.wednesday_official.user,
        )

    assert str(refused.value) == MERGE_REFUSED
    two_leagues.dee.refresh_from_db()
    assert (two_leagues.dee.merged_into_id, m.PlayerMerge.objects.count()) == (None, 0)


def test_merge_players_by_an_official_of_every_league_is_in_each_leagues_log(two_leagues):
    """issue 26 §1: the merge's audit event was only in the league it was made from."""
    both = official_of_both(two_leagues)

    merge = merge_players(
        league=two_leagues.wednesday,
        kept=two_leagues.kruz,
        merged=two_leagues.dee,
        reason="Same.",
        actor=both.user,
    )
    undo_player_merge(
        league=two_leagues.wednesday, merge=merge, reason="Not the same.", actor=both.user
    )

    logged = m.AuditEvent.objects.filter(action__startswith="player.merge").order_by(
        "action", "league__name"
    )
    assert [(event.action, event.league.name) for event in logged] == [
        ("player.merge_undone", "Tuesday Flippers"),
        ("player.merge_undone", "Wednesday Wizards"),
        ("player.merged", "Tuesday Flippers"),
        ("player.merged", "Wednesday Wizards"),
    ]


def test_undo_player_merge_by_an_official_of_one_league_of_two_is_refused(two_leagues):
    """issue 26 §1: an undo changes both leagues' pages again."""
    both = official_of_both(two_leagues)
    merge = merge_players(
        league=two_leagues.wednesday,
        kept=two_leagues.kruz,
        merged=two_leagues.dee,
        reason="Same.",
        actor=both.user,
    )

    with pytest.raises(PermissionDenied) as refused:
        undo_player_merge(
            league=two_leagues.wednesday,
            merge=merge,
            reason="Not the same.",
            actor=two_leagues.wednesday_official.user,
        )

    assert str(refused.value) == (
        "Dee Cruz also plays in Tuesday Flippers: only an official of every league they play "
        "in, or an installation admin, can merge them."
    )
    merge.refresh_from_db()
    assert merge.undone_at is None


def test_register_player_by_name_never_matches_another_leagues_player(two_leagues):
    """issue 26 §1: a name typed in Wednesday's roster reached Tuesday's player."""
    tuesday_only = f.SeasonEntryFactory(
        season=two_leagues.tuesday_season, player__first_name="Eve", player__last_name="Ames"
    ).player

    entry = register_player(
        season=two_leagues.wednesday_season,
        first_name="Eve",
        last_name="Ames",
        actor=two_leagues.wednesday_official.user,
    )

    assert entry.player != tuesday_only
    assert m.Player.objects.filter(first_name="Eve", last_name="Ames").count() == 2


def test_register_player_by_name_matches_the_leagues_own_player(two_leagues):
    entry = register_player(
        season=f.SeasonFactory(league=two_leagues.wednesday, name="Wednesday Summer"),
        first_name="dee",
        last_name="KRUZ",
        actor=two_leagues.wednesday_official.user,
    )

    assert entry.player == two_leagues.kruz


def test_register_player_by_ifpa_number_links_the_person_but_not_the_other_leagues_notices(
    two_leagues,
):
    """The IFPA number, a public identity, links one person across leagues; what Tuesday
    collected about her stays Tuesday's."""
    other = f.LeagueOfficialFactory(league__name="Thursday Tilt")
    thursday = f.SeasonFactory(league=other.league, name="Thursday Winter")

    entry = register_player(
        season=thursday,
        first_name="Dee",
        last_name="Cruz",
        ifpa_number=4321,
        actor=other.user,
    )

    assert entry.player == two_leagues.dee
    assert list(m.NoticeSubscription.objects.filter(league=other.league)) == []


def test_import_players_csv_by_name_never_matches_another_leagues_player(two_leagues):
    """issue 26 §1: a roster CSV of Wednesday reached Tuesday's players by name."""
    tuesday_only = f.SeasonEntryFactory(
        season=two_leagues.tuesday_season, player__first_name="Eve", player__last_name="Ames"
    ).player
    season = f.SeasonFactory(league=two_leagues.wednesday, name="Wednesday Summer")

    result = import_players_csv(
        season=season,
        csv_text="first_name,last_name,ifpa_number,ifpa_rank\nEve,Ames,,\nDee,Kruz,,\n",
        actor=two_leagues.wednesday_official.user,
    )

    assert [entry.player == tuesday_only for entry in result.entries] == [False, False]
    assert result.entries[1].player == two_leagues.kruz
    assert [str(p) for p in result.created_players] == ["Eve Ames"]
