"""A write folds tonight's meet on the stored prefix of the closed meets (`results.write_fold`),
and what it stores is always the season folded whole (R3-e).

Words: a write is *on the prefix* when it read only the facts of the meets after the stored
prefix (`meets_after`), *whole* when it read every fact of the season (`season_facts`); the
`checked` fixture counts both and, after every write, compares the stored fold and the stored
prefix with the season's facts folded whole, independently of `results`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

import pytest
from django.db import connection

from flipwell.league import models as m
from flipwell.league import services as s
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.adapters.season_queries import MEET_QUERIES
from flipwell.league.derived import caches, results
from flipwell.league.services.season_files import import_season_file
from flipwell.rules.season import fold_season
from flipwell.rules.season_prefix import fold_from
from tests import factories as f
from tests.golden import FIRST_MEET, golden_data
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@dataclass
class Folds:
    """How the writes so far were folded."""

    whole: int = 0
    on_prefix: list[int] = field(default_factory=list)
    """The last meet of the prefix each write folded on."""

    def reset(self) -> None:
        self.whole, self.on_prefix = 0, []


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Folds:
    """Every write's fold and prefix checked against the season folded whole."""
    folds = Folds()
    write_fold, meets_after, whole_facts = (
        results.write_fold,
        results.meets_after,
        results.season_facts,
    )

    def on_prefix(season: m.Season, number: int):  # type: ignore[no-untyped-def]
        folds.on_prefix.append(number)
        return meets_after(season, number)

    def whole(season: m.Season):  # type: ignore[no-untyped-def]
        folds.whole += 1
        return whole_facts(season)

    def checking(season, *, before, meets):  # type: ignore[no-untyped-def]
        written = write_fold(season, before=before, meets=meets)
        _check(season, written[0])
        return written

    monkeypatch.setattr(results, "write_fold", checking)
    monkeypatch.setattr(results, "meets_after", on_prefix)
    monkeypatch.setattr(results, "season_facts", whole)
    return folds


def _check(season: m.Season, folded: results.SeasonFold) -> None:
    """The fold a write stores, and the prefix it leaves, against the facts folded whole."""
    facts = season_facts(season)
    ruleset = season_ruleset(season)
    truth = fold_season(facts, ruleset=ruleset)
    assert folded.facts == facts
    assert folded.result == truth
    held = caches.stored_prefix(season.pk, season.revision)
    assert held is not None
    prefix = held.prefix
    covered = facts.meets[: prefix.through]
    assert prefix.facts == facts.__class__(**{**vars(facts), "meets": covered})
    assert all(meet.closed for meet in covered)
    assert fold_from(prefix, facts.meets[prefix.through :], ruleset=ruleset).result == truth


# --- a season at its eleventh meet -------------------------------------------------------


def _golden() -> tuple[m.LeagueOfficial, m.Season]:
    """The golden season (10 closed meets) imported, with 12 meets and more machines."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    data = {**golden_data(), "number_of_meets": 12}
    season = import_season_file(
        league=official.league, name="Golden", data=data, first_meet=FIRST_MEET,
        actor=official.user,
    )  # fmt: skip
    for _ in range(8):
        f.MachineFactory(league=official.league)
    return official, season


def _start_11(official: m.LeagueOfficial, season: m.Season) -> m.Meet:
    started = s.start_meet(season=season, number=11, date=MEET_11, seed=11, actor=official.user)
    return started.meet


MEET_11 = FIRST_MEET + datetime.timedelta(weeks=10)


def _golden_at_meet_11() -> tuple[m.LeagueOfficial, m.Season, m.Meet]:
    """The golden season imported, and meet 11 started."""
    official, season = _golden()
    return official, season, _start_11(official, season)


def _members(game: m.Game) -> list[m.Player]:
    return [gm.player for gm in game.group.members.order_by("position")]


def test_a_score_at_meet_11_reads_only_meet_11s_facts(checked):
    """A write of tonight's meet folds it on the ten closed meets' prefix: no fact of a closed
    meet is read (the adapter is asked only for the meets after meet 10)."""
    _, _, meet = _golden_at_meet_11()
    assert checked.on_prefix == [10]  # starting meet 11 folded it on the prefix already
    checked.reset()
    game = night_.game(meet, 1, 1)

    night_.play(game, {p: 1000 * (i + 1) for i, p in enumerate(_members(game))})

    # The confirmation only: an entered sheet is no fact until confirmed (R3-a), so its
    # write folds nothing.
    assert (checked.whole, checked.on_prefix) == (0, [10])


def test_a_correction_to_a_closed_meet_folds_whole_and_stores_the_prefix_again(checked):
    """A45.2: an LO's correction after closing changes a closed meet: the whole season is
    folded and the prefix stored anew; the next write of tonight folds on it again."""
    official, season, meet = _golden_at_meet_11()
    closed = m.Game.objects.filter(group__meet__season=season, group__meet__number=3).first()
    assert closed is not None
    line = m.ScoreLine.objects.filter(
        submission__game=closed, submission__confirmed_by__isnull=False, machine_score__gt=0
    ).first()
    assert line is not None
    checked.reset()

    s.request_correction(
        game=closed,
        scores={line.player_id: line.machine_score * 100},
        requested_by=line.player,
        reason="A digit was missed.",
        actor=official.user,
        override_reason="Found on the photo after the meet closed.",
    )

    assert (checked.whole, checked.on_prefix) == (1, [])
    game = night_.game(meet, 2, 1)
    night_.play(game, {p: 2000 * (i + 1) for i, p in enumerate(_members(game))})
    assert (checked.whole, checked.on_prefix) == (1, [10])  # the confirmation (R3-a)


def test_a_season_forfeit_tonight_folds_on_the_prefix(checked):
    """R2.5-a, R2.4-h: a player at 8 countable forfeits who announced his absence from meet 11
    forfeits its four games and reaches 12: the season forfeit is folded on the prefix."""
    official, season = _golden()
    mia = m.Player.objects.get(first_name__iexact="mia", season_entries__season=season)
    meet = m.Meet.objects.create(season=season, number=11, date=MEET_11)
    s.announce_absence(meet=meet, player=mia, actor=official.user)
    checked.reset()

    _start_11(official, season)

    folded = results.season_fold(season)
    assert folded.result.players[str(mia.pk)].season_forfeited_at == 11
    assert (checked.whole, checked.on_prefix) == (0, [10])


# --- a night from its first meet ---------------------------------------------------------


def test_closing_a_meet_extends_the_prefix_and_the_next_meet_folds_on_it(checked):
    """Closing meet 1 folds it on the empty prefix and stores the prefix of meet 1; meet 2's
    writes fold on that prefix; a violation and a forfeit tonight too (R8.5, R2.4)."""
    night = night_.build_night(players=8)
    meet = night_.start(night)
    for group_number in (1, 2):
        game = night_.game(meet, group_number, 1)
        night_.play(game, {p: 100 * (i + 1) for i, p in enumerate(_members(game))})
    s.close_meet(meet=meet, actor=night.user, override_reason="Short night: one game.")
    held = caches.stored_prefix(night.season.pk, _revision(night.season))
    assert held is not None
    assert held.prefix.through == 1
    checked.reset()

    second = s.start_meet(
        season=night.season, number=2, date=night_.DATE + datetime.timedelta(weeks=1),
        seed=2, actor=night.user,
    ).meet  # fmt: skip
    game = night_.game(second, 1, 1)
    players = _members(game)
    s.record_forfeit(game=game, player=players[3], actor=night.user)
    night_.play(game, {p: 100 * (i + 1) for i, p in enumerate(players[:3])} | {players[3]: None})
    s.record_violation(
        meet=second, player=players[0], kind="interference", reason="Seen by the LO.",
        game=game, actor=night.user,
    )  # fmt: skip

    assert checked.whole == 0
    assert set(checked.on_prefix) == {1}


def _revision(season: m.Season) -> int:
    return m.Season.objects.values_list("revision", flat=True).get(pk=season.pk)


def test_every_query_of_tonights_facts_asks_for_the_meets_after_a_number():
    """`meets_after` reads no fact of a meet at or before the prefix's: each of its queries
    takes the meet number (a comparison Django would drop for a value out of its column's
    range)."""
    for name, query in MEET_QUERIES.items():
        slots = query._for(connection.vendor).slots
        assert {index for _, index in slots} == {0, 1}, name
