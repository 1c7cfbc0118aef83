"""The official's console: each page lists its facts and its forms call the services, with
the services' messages next to the fields they name."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_league_page_links_tonights_meet(client, spring_night):
    response = client.get("/manage/tuesday/")

    assert response.status_code == 200
    assert "Tonight: meet 1" in response.text


def test_seasons_create_a_season(client, spring_lo):
    response = client.post(
        "/manage/tuesday/seasons/",
        {"name": "Fall", "weekday": "2", "start_time": "19:30", "number_of_meets": "8",
         "dues_cents": "25.50"},
    )  # fmt: skip

    assert response.status_code == 302
    season = m.Season.objects.get(name="Fall")
    assert (season.dues_cents, season.number_of_meets) == (2550, 8)


def test_seasons_form_shows_a_missing_field_next_to_it(client, spring_lo):
    response = client.post("/manage/tuesday/seasons/", {"name": "Fall"})

    assert response.status_code == 400
    assert "This field is required." in response.text


def test_roster_registers_a_player(client, spring_lo):
    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/roster/",
        {"action": "register", "first_name": "Ada", "last_name": "Flipper",
         "ifpa_number": "1234", "joined_at_meet": "1"},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.SeasonEntry.objects.get(season=spring_lo.season).player.ifpa_number == 1234


def test_roster_csv_import_lists_every_bad_line(client, spring_lo):
    csv = (
        "first_name,last_name,ifpa_number,ifpa_rank\n"
        "Ada,Flipper,12,3\n"
        ",Nobody,13,4\n"
        "Bob,Bumper,abc,5\n"
    )

    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/roster/",
        {"action": "import", "csv_text": csv},
    )

    assert response.status_code == 400
    assert "Line 3" in response.text
    assert "Line 4" in response.text
    assert not m.SeasonEntry.objects.exists()


def test_roster_csv_import_quoted_name_across_lines_registered(client, spring_lo):
    """The web checks a roster as the API does (one checker): a quoted name holding a line
    break is one record, not two bad lines."""
    csv = 'first_name,last_name,ifpa_number,ifpa_rank\n"Ada\nMae",Flipper,12,3\nBo,Cole,,\n'

    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/roster/",
        {"action": "import", "csv_text": csv},
    )

    assert response.status_code == 302
    assert sorted(m.SeasonEntry.objects.values_list("player__last_name", flat=True)) == [
        "Cole",
        "Flipper",
    ]


def test_roster_csv_import_repeated_ifpa_number_named_with_its_line(client, spring_lo):
    csv = "first_name,last_name,ifpa_number,ifpa_rank\nAda,Flipper,12,3\nBo,Cole,12,\n"

    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/roster/",
        {"action": "import", "csv_text": csv},
    )

    assert response.status_code == 400
    assert "Line 3, column ifpa_number: IFPA number 12 is already on line 2" in response.text
    assert not m.SeasonEntry.objects.exists()


def test_roster_csv_file_import_registers_everyone(client, spring_lo):
    upload = SimpleUploadedFile(
        "players.csv", b"first_name,last_name,ifpa_number,ifpa_rank\nAda,Flipper,12,3\n"
    )

    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/roster/",
        {"action": "import", "csv_file": upload},
    )

    assert response.status_code == 302
    assert m.SeasonEntry.objects.filter(season=spring_lo.season).count() == 1


def test_meets_schedule_a_meet(client, spring_lo):
    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/meets/",
        {"number": "1", "date": "2026-01-06"},
    )

    assert response.status_code == 302
    assert m.Meet.objects.get(season=spring_lo.season).status == m.Meet.Status.PLANNED


def test_meets_schedule_out_of_range_shows_the_services_message(client, spring_lo):
    response = client.post(
        f"/manage/tuesday/seasons/{spring_lo.season.pk}/meets/",
        {"number": "9", "date": "2026-01-06"},
    )

    assert response.status_code == 400
    assert "has meets 1 to 3, not 9" in response.text


def test_attendance_records_an_absence(client, spring_lo):
    player = f.SeasonEntryFactory(season=spring_lo.season).player
    meet = services.schedule_meet(
        season=spring_lo.season, number=1, date=datetime.date(2026, 1, 6), actor=spring_lo.user
    )

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/attendance/",
        {"action": "absence", "player": player.pk},
    )

    assert response.status_code == 302
    assert m.AnnouncedAbsence.objects.get(meet=meet).player == player


def test_start_previews_the_groups_and_starts_the_meet(client, spring_lo):
    for r in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=spring_lo.season, ifpa_rank_at_start=r)
    f.MachineFactory(league=spring_lo.league)
    meet = services.schedule_meet(
        season=spring_lo.season, number=1, date=datetime.date(2026, 1, 6), actor=spring_lo.user
    )
    page = client.get(f"/manage/tuesday/meets/{meet.pk}/start/")
    form = page.context["form"]
    data = {"action": "start", **{name: str(field.initial) for name, field in form.fields.items()
                                  if name.startswith("group_")}}  # fmt: skip

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/start/", data)

    assert page.status_code == 200
    assert "Group 1" in page.text
    assert response.status_code == 302
    meet.refresh_from_db()
    assert meet.status == m.Meet.Status.OPEN


def test_start_with_changed_groups_asks_why(client, spring_lo):
    for r in range(1, 9):
        f.SeasonEntryFactory(season=spring_lo.season, ifpa_rank_at_start=r)
    f.MachineFactory(league=spring_lo.league)
    f.MachineFactory(league=spring_lo.league)
    meet = services.schedule_meet(
        season=spring_lo.season, number=1, date=datetime.date(2026, 1, 6), actor=spring_lo.user
    )
    form = client.get(f"/manage/tuesday/meets/{meet.pk}/start/").context["form"]
    names = [n for n in form.fields if n.startswith("group_")]
    data = {"action": "start", **{n: str(form.fields[n].initial) for n in names}}
    data[names[0]], data[names[-1]] = data[names[-1]], data[names[0]]

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/start/", data)

    assert response.status_code == 400
    assert "A grouping override needs a reason" in response.text
    meet.refresh_from_db()
    assert meet.status == m.Meet.Status.PLANNED


def test_meet_hub_links_each_groups_score_sheet(client, spring_night):
    response = client.get(spring_night.meet_url)

    assert response.status_code == 200
    assert "Open group 1's sheet on this device" in response.text
    assert 'href="/sheet/' in response.text


def test_meet_hub_asks_to_confirm_before_closing(client, spring_night):
    hub = client.get(spring_night.meet_url)
    confirm = client.get(spring_night.meet_url + "close/")

    assert f'href="{spring_night.meet_url}close/">Close the meet…</a>' in hub.text
    assert "Close meet 1?" in confirm.text
    assert "Not finished: group 1. Closing now needs a reason.</p>" in confirm.text
    assert "The rulebook: A52." in confirm.text
    assert "Yes, close the meet" in confirm.text
    spring_night.meet.refresh_from_db()
    assert spring_night.meet.status == m.Meet.Status.OPEN


def test_meet_close_unfinished_needs_a_reason(client, spring_night):
    response = client.post(spring_night.meet_url + "close/", {"override_reason": ""})

    assert response.status_code == 400
    assert "cannot close yet" in response.text
    spring_night.meet.refresh_from_db()
    assert spring_night.meet.status == m.Meet.Status.OPEN


def test_meet_close_unfinished_with_a_reason_closes_it(client, spring_night):
    response = client.post(
        spring_night.meet_url + "close/", {"override_reason": "The bar closed early."}
    )

    assert response.status_code == 302
    assert response["Location"] == spring_night.meet_url
    spring_night.meet.refresh_from_db()
    assert spring_night.meet.status == m.Meet.Status.CLOSED


def test_forfeits_record_a_forfeit(client, spring_night):
    response = client.post(
        spring_night.meet_url + "forfeits/",
        {"action": "forfeit", "game": spring_night.game.pk, "player": spring_night.players[3].pk,
         "reason": "absent", "countable": "on"},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.Forfeit.objects.get(game=spring_night.game).player == spring_night.players[3]


def test_forfeits_non_countable_without_a_note_asks_why(client, spring_night):
    response = client.post(
        spring_night.meet_url + "forfeits/",
        {"action": "forfeit", "game": spring_night.game.pk, "player": spring_night.players[3].pk,
         "reason": "absent"},
    )  # fmt: skip

    assert response.status_code == 400
    assert "needs a reason" in response.text


def test_malfunctions_page_records_a_malfunction(client, spring_night):
    response = client.post(
        spring_night.meet_url + "malfunctions/",
        {"action": "malfunction", "game": spring_night.game.pk,
         "player": spring_night.players[0].pk, "ball": "1",
         "reason_code": "forced_tilt_stuck_ball", "ball_in_play": "on"},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.Malfunction.objects.get(game=spring_night.game).player == spring_night.players[0]


def test_violations_shows_the_penalty_decision(client, spring_night):
    response = client.post(
        spring_night.meet_url + "violations/",
        {"player": spring_night.players[0].pk, "kind": "interference",
         "reason": "Shoved the machine during an opponent's ball.", "games_completed": "0"},
    )  # fmt: skip

    assert response.status_code == 200
    assert "<h2>The penalty</h2>" in response.text
    assert "The rulebook: §8.5." in response.text
    assert m.Violation.objects.get().player == spring_night.players[0]


def test_violations_without_a_reason_says_so_next_to_it(client, spring_night):
    response = client.post(
        spring_night.meet_url + "violations/",
        {"player": spring_night.players[0].pk, "kind": "interference", "games_completed": "0"},
    )

    assert response.status_code == 400
    assert "This field is required." in response.text


def test_corrections_request_on_a_confirmed_game(client, spring_night):
    p = spring_night.players
    sheet = services.submit_scores(
        game=spring_night.game, scores={p[0]: 400, p[1]: 300, p[2]: 200, p[3]: 100},
        entered_by=p[0], idempotency_key="k1",
    )  # fmt: skip
    services.confirm_scores(submission=sheet.submission, confirmed_by=p[1])

    response = client.post(
        spring_night.meet_url + "corrections/",
        {"action": "request", "game": spring_night.game.pk, "requested_by": p[0].pk,
         f"score_{p[3].pk}": "150", "reason": "Misread the display."},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.CorrectionRequest.objects.get().status == m.CorrectionRequest.Status.PENDING


def test_machines_declare_unplayable_needs_a_reason(client, spring_night):
    machine = spring_night.league.machines.first()

    response = client.post(
        "/manage/tuesday/machines/",
        {"action": "declare", "machine": machine.pk, "kind": "unplayable", "reason": ""},
    )

    assert response.status_code == 400
    assert "This field is required." in response.text


def test_machines_declare_unplayable(client, spring_night):
    machine = spring_night.league.machines.first()

    response = client.post(
        "/manage/tuesday/machines/",
        {"action": "declare", "machine": machine.pk, "kind": "unplayable",
         "reason": "Left flipper dead."},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.MachineDeclaration.objects.get().kind == "unplayable"


def test_ledger_records_and_reverses_an_entry(client, spring_lo):
    response = client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "kitty_in", "account": "kitty", "amount_cents": "12.50",
         "note": "Quarters"},
    )  # fmt: skip
    entry = m.LedgerEntry.objects.get()
    reversed_ = client.post(
        "/manage/tuesday/ledger/",
        {"action": "reverse", "entry": entry.pk, "reason": "Counted twice."},
    )

    assert response.status_code == 302
    assert entry.amount_cents == 1250
    assert reversed_.status_code == 302
    assert m.LedgerEntry.objects.count() == 2
    assert "12.50" in client.get("/manage/tuesday/ledger/").text


def test_ledger_overdraft_shows_the_rules_message(client, spring_lo):
    response = client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "kitty_spend", "account": "kitty", "amount_cents": "5.00",
         "reason": "bonus_credits"},
    )  # fmt: skip

    assert response.status_code == 400
    assert not m.LedgerEntry.objects.exists()


def test_special_rulings_load_appendix_a(client, spring_lo):
    response = client.post("/manage/tuesday/special-rulings/", {"action": "load"})

    assert response.status_code == 302
    assert m.SpecialRuling.objects.exists()


def test_playoffs_qualify_before_the_season_ends_is_refused(client, spring_night):
    response = client.post(
        f"/manage/tuesday/seasons/{spring_night.season.pk}/playoffs/",
        {"action": "qualify", "date": "2026-04-07"},
    )

    assert response.status_code == 400
    assert "playoff entry is decided after the final regular week" in response.text


def test_attendance_records_a_lateness_notice_told_before_the_start_after_it(client, spring_night):
    """R2.2-a: the official types in, after the start, a notice told before it."""
    response = client.post(
        f"/manage/tuesday/meets/{spring_night.meet.pk}/attendance/",
        {"action": "late", "player": spring_night.players[0].pk, "told_at": "18:40"},
        follow=True,
    )

    notice = m.LatenessNotice.objects.get()
    assert response.status_code == 200
    told = notice.recorded_at.astimezone(ZoneInfo(spring_night.league.time_zone))
    assert (told.date(), told.strftime("%H:%M")) == (spring_night.meet.date, "18:40")
    assert (
        f"{spring_night.players[0]}&#x27;s lateness notice is recorded: the group waits until "
        "19:15 at the latest.</p>"
    ) in response.text
    assert "The rulebook: R2.2-a." in response.text


def test_attendance_records_a_lateness_notice_told_after_the_start(client, spring_night):
    response = client.post(
        f"/manage/tuesday/meets/{spring_night.meet.pk}/attendance/",
        {"action": "late", "player": spring_night.players[0].pk, "told_at": "19:10"},
        follow=True,
    )

    assert response.status_code == 200
    assert m.LatenessNotice.objects.count() == 1
    assert (
        "told at 19:10, after the 19:00 start: the group does not wait, and "
        f"{spring_night.players[0]} joins on arrival when the rules allow it.</p>"
    ) in response.text
    assert "The rulebook: R2.2-a, R2.3-a." in response.text


def test_league_page_offers_the_next_meet_on_the_next_league_day(client, spring_night):
    """R2-a: after meet 1 (Tuesday 6 January 2026) closes, the shortcut schedules meet 2 on
    the next Tuesday from today (the season resumes; never in the past). Today is months past
    the season's span, so the date asks a reason (issue 26 §4)."""
    services.close_meet(
        meet=spring_night.meet, actor=spring_night.user, override_reason="Short night"
    )
    today = timezone.localdate(timezone=ZoneInfo(spring_night.league.time_zone))
    tuesday = today + datetime.timedelta(days=(1 - today.weekday()) % 7)

    page = client.get("/manage/tuesday/")
    meets_page = client.get(f"/manage/tuesday/seasons/{spring_night.season.pk}/meets/")
    response = client.post(
        f"/manage/tuesday/seasons/{spring_night.season.pk}/meets/",
        {"number": "2", "date": tuesday.isoformat(), "date_reason": "The season resumes"},
        follow=True,
    )

    assert '<input type="hidden" name="number" value="2">' in page.text
    assert f"Next meet: schedule meet 2 for Tue {tuesday.day} {tuesday:%b}" in page.text
    assert meets_page.context["form"].initial == {"number": 2, "date": tuesday}
    meet = m.Meet.objects.get(season=spring_night.season, number=2)
    assert response.redirect_chain == [(f"/manage/tuesday/meets/{meet.pk}/", 302)]
    assert f"Meet 2 scheduled on {tuesday:%A %d %B %Y}." in response.text


def test_scheduling_a_meet_off_the_league_day_and_a_week_early_warns(client, spring_night):
    """R2-a: warned, and scheduled all the same with the official's reason (issue 26 §4)."""
    services.close_meet(
        meet=spring_night.meet, actor=spring_night.user, override_reason="Short night"
    )

    response = client.post(
        f"/manage/tuesday/seasons/{spring_night.season.pk}/meets/",
        {"number": "2", "date": "2026-01-08", "date_reason": "The venue is closed on Tuesday"},
        follow=True,
    )

    assert m.Meet.objects.filter(season=spring_night.season, number=2).exists()
    assert (
        "Meet 2 scheduled on Thursday 08 January 2026. Warning: meet 2 is on a Thursday, not on "
        "the league day (Tuesdays); meet 2 is 2 days after meet 1 (2026-01-06), less than a "
        "week: meets are weekly.</p>"
    ) in response.text
    assert "The rulebook: R2-a." in response.text


def test_league_page_links_a_planned_next_meet_and_hides_the_shortcut_while_one_is_open(
    client, spring_night
):
    open_page = client.get("/manage/tuesday/")
    services.close_meet(
        meet=spring_night.meet, actor=spring_night.user, override_reason="Short night"
    )
    planned = services.schedule_meet(
        season=spring_night.season,
        number=2,
        date=datetime.date(2026, 1, 13),
        actor=spring_night.user,
    )

    page = client.get("/manage/tuesday/")

    assert "Next meet" not in open_page.text
    assert f'href="/manage/tuesday/meets/{planned.pk}/">Next: meet 2 · Tue 13 Jan</a>' in page.text


def test_ledger_entries_show_kind_and_account_labels_not_codes(client, spring_lo):
    """Issue #11, item 10: "Dues paid", never "dues_paid"."""
    payer = f.SeasonEntryFactory(season=spring_lo.season).player
    client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "dues_paid", "account": "dues", "amount_cents": "20.00",
         "season": spring_lo.season.pk, "player": payer.pk},
    )  # fmt: skip
    client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "kitty_in", "account": "kitty", "amount_cents": "30.00"},
    )
    client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "kitty_spend", "account": "kitty", "amount_cents": "5.00",
         "reason": "bonus_credits"},
    )  # fmt: skip

    rows = client.get("/manage/tuesday/ledger/").text.split("<h2>Entries</h2>")[1]

    assert "<td>Dues paid</td><td>Dues</td>" in rows
    assert (
        '<td>Kitty spent <span class="muted">· Pricing gives bonus credits</span></td>'
        "<td>Kitty</td>" in rows
    )
    assert "dues_paid" not in rows.replace('value="dues_paid"', "")
    assert "kitty_in" not in rows.replace('value="kitty_in"', "")


def test_forfeits_late_arrival_message_names_the_player_in_one_sentence(client, spring_night):
    """Issue #11, item 11: not "he joins the game. joins the game in progress"."""
    response = client.post(
        spring_night.meet_url + "forfeits/",
        {"action": "late", "game": spring_night.game.pk, "player": spring_night.players[3].pk,
         "machine_allows_joining": "on", "last_player_not_past_ball_1": "on"},
        follow=True,
    )  # fmt: skip

    assert (
        f"Late arrival recorded: {spring_night.players[3]} joins the game in progress: the machine "
        "permits adding a player and the group's last player has not started ball 1; "
        "they play last.</p>"
    ) in response.content.decode().replace("&#x27;", "'")
    assert "The rulebook: R2.3-a, R5.2-c." in response.text


def test_bracket_box_writes_one_point_in_the_singular():
    from flipwell.web.charts import _pts

    assert (_pts(1), _pts(7), _pts(0)) == ("1 pt", "7 pts", "0 pts")


def test_machines_page_of_a_new_league_points_to_the_machine_pool(client, spring_lo):
    """Issue #11: a new league has no machine; its Machines page says where they are added."""
    text = client.get("/manage/tuesday/machines/").text

    assert "0 machines" in text
    assert 'href="/manage/tuesday/machines/pool/">machine pool</a>' in text


def test_start_form_shows_the_dated_meets_date(client, spring_lo):
    """Issue 27 §5: the start page's Date field holds the scheduled meet's date, not empty."""
    for r in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=spring_lo.season, ifpa_rank_at_start=r)
    f.MachineFactory(league=spring_lo.league)
    meet = services.schedule_meet(
        season=spring_lo.season, number=1, date=datetime.date(2026, 1, 6), actor=spring_lo.user
    )

    page = client.get(f"/manage/tuesday/meets/{meet.pk}/start/")

    assert page.status_code == 200
    assert 'value="2026-01-06"' in page.text
