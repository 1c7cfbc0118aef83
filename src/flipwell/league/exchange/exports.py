"""Exporting one season: as a season file with its standings (JSON), or as CSV tables.

Words:
- *season export* (JSON): the season's facts in the season file format of `flipwell.seasonfile`
  (so `flipwell standings FILE` and `import_season_file` read it), plus ``"standings"``: the
  computed table, ``"status"`` of each meet (``"open"`` while it is played) and ``"readings"``:
  the season's readings of the rules it is folded under (its ruleset overrides). Player keys
  are database ids as strings, as the rules name players (`adapters.player_key`).
- *standings CSV*: one row per player of the standings table, best first. ``league_points``
  is the exact value as a decimal (``179.5``); a value no decimal can write exactly (a third
  of a point, from a §2.4 credit) is rounded to 6 places there, and ``league_points_exact``
  always holds the exact fraction (``359/2``, ``214``).
- *roster CSV*: one row per player entered in the season, by name, in the columns a roster
  import reads (`flipwell.league.players_csv`): first and last name, IFPA number, IFPA rank
  at the start of the season; so a season's roster exported can be imported into another.
- *scores CSV*: one row per player per game with a confirmed score sheet, his game line: the
  machine score as entered (empty: no score, a forfeit), the final score that counts (after
  compensatory games, subtractions, reductions, zeroes and §8.5 penalties), his place and
  game points.

Every CSV cell is written by `flipwell.league.csv_cells.csv_text`: a name a spreadsheet would
run as a formula (``=...``) is written as text (``'=...``).

Everything here is read-only and derived on the fly; nothing is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.csv_cells import csv_text
from flipwell.league.players_csv import COLUMNS as ROSTER_COLUMNS
from flipwell.rules import (
    FWPL_V1,
    GameFacts,
    MeetFacts,
    Ruleset,
    SeasonFacts,
    SeasonResult,
    Standing,
    Violation,
    fold_season,
)
from flipwell.rules.game_lines import match_game_lines

STANDINGS_COLUMNS = (
    "rank",
    "player_id",
    "first_name",
    "last_name",
    "league_points",
    "league_points_exact",
    "games_played",
    "forfeits",
    "countable_forfeits",
    "offenses",
    "credit_used_at",
    "season_forfeited_at",
)
SCORES_COLUMNS = (
    "meet",
    "date",
    "group",
    "game",
    "machine",
    "player_id",
    "first_name",
    "last_name",
    "machine_score",
    "final_score",
    "place",
    "game_points",
    "forfeit",
)
ROUNDED_PLACES = Decimal("0.000001")


@dataclass(frozen=True)
class FoldedSeason:
    """A season's stored facts and what the rules make of them, loaded once for an export."""

    season: m.Season
    facts: SeasonFacts
    result: SeasonResult
    meets: Mapping[int, m.Meet]
    """Meet number -> the played (open or closed) meet."""
    names: Mapping[str, tuple[str, str]]
    """Player key -> first and last name."""
    ruleset: Ruleset = FWPL_V1
    """The readings the season is folded under."""


def fold(season: m.Season) -> FoldedSeason:
    """Load a season's facts (a fixed number of queries) and fold them with its readings."""
    facts = season_facts(season)
    ruleset = season_ruleset(season)
    result = fold_season(facts, ruleset=ruleset)
    numbers = [meet.number for meet in facts.meets]
    meets = {meet.number: meet for meet in season.meets.filter(number__in=numbers)}
    names = {e.player: (e.first_name, e.last_name) for e in facts.entrants}
    return FoldedSeason(
        season=season, facts=facts, result=result, meets=meets, names=names, ruleset=ruleset
    )


def export_name(season: m.Season) -> str:
    """The name a season export carries (`flipwell standings` prints it as the title)."""
    return f"{season.league.name}: {season.name}"


# --- JSON: the season file format, plus the standings ---


def season_export(folded: FoldedSeason) -> dict[str, Any]:
    """The season as a season file (see the module docstring), ready for `json.dump`."""
    season, facts = folded.season, folded.facts
    joined_late = {p: meet for p, meet in facts.joined_at.items() if meet != 1}
    return {
        "name": export_name(season),
        "league": season.league.name,
        "season": season.name,
        "number_of_meets": season.number_of_meets,
        "readings": dict(season.ruleset_overrides),
        "entrants": [
            {
                "player": e.player,
                "first_name": e.first_name,
                "last_name": e.last_name,
                "ifpa_rank": e.ifpa_rank,
            }
            for e in facts.entrants
        ],
        "joined_at": joined_late,
        "late_join_non_countable": sorted(facts.late_join_non_countable, key=_key_order),
        "meets": [_meet_dict(meet, folded.meets.get(meet.number)) for meet in facts.meets],
        "standings": [
            _standing_dict(rank, standing, folded)
            for rank, standing in enumerate(folded.result.standings(), start=1)
        ],
    }


def _key_order(player: str) -> tuple[int, str]:
    return (int(player), player) if player.isdigit() else (0, player)


def _meet_dict(meet: MeetFacts, stored: m.Meet | None) -> dict[str, Any]:
    data: dict[str, Any] = {"number": meet.number}
    if stored is not None:
        data["date"] = stored.date.isoformat()
    data["status"] = "closed" if meet.closed else "open"
    data["announced_absences"] = sorted(meet.announced_absences, key=_key_order)
    data["violations"] = [
        {
            "player": v.player,
            **_violation_flags(v.violation),
            "current_game": v.current_game,
            "games_completed": v.games_completed,
            "target_game": v.target_game,
        }
        for v in meet.violations
    ]
    if meet.group_override:
        data["group_override"] = meet.group_override
    data["groups"] = [
        {"players": list(match.players), "games": [_game_dict(game) for game in match.games]}
        for match in meet.groups
    ]
    return data


def _violation_flags(violation: Violation) -> dict[str, Any]:
    flags: dict[str, Any] = {"kind": violation.kind}
    for name in ("last_allowable_ball", "slam_tilted", "lo_marked_not_serious"):
        if getattr(violation, name):
            flags[name] = True
    return flags


def _game_dict(game: GameFacts) -> dict[str, Any]:
    data: dict[str, Any] = {"machine": game.machine, "scores": dict(game.scores)}
    if game.tie_order:
        data["tie_order"] = [list(order) for order in game.tie_order]
    if game.compensatory:
        data["compensatory"] = {
            p: {
                "new": c.new,
                "leading_subtracted": c.leading_subtracted,
                "state_subtracted": c.state_subtracted,
            }
            for p, c in game.compensatory.items()
        }
    if game.reduced:
        data["reduced"] = sorted(game.reduced, key=_key_order)
    if game.zeroed:
        data["zeroed"] = dict(game.zeroed)
    if game.non_countable:
        data["non_countable"] = sorted(game.non_countable, key=_key_order)
    return data


def _standing_dict(rank: int, standing: Standing, folded: FoldedSeason) -> dict[str, Any]:
    first_name, last_name = folded.names[standing.player]
    return {
        "rank": rank,
        "player": standing.player,
        "first_name": first_name,
        "last_name": last_name,
        "league_points": str(Fraction(standing.league_points)),
        "league_points_decimal": decimal_points(standing.league_points),
        "games_played": standing.games_played,
        "forfeits": standing.forfeits,
        "countable_forfeits": standing.countable_forfeits,
        "offenses": standing.offenses,
        "credit_used_at": standing.credit_used_at,
        "season_forfeited_at": standing.season_forfeited_at,
    }


def decimal_points(points: Fraction | int) -> str:
    """Points as a plain decimal: exact when a decimal can be (179.5), else 6 places."""
    value = Fraction(points)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    if Fraction(exact) != value:
        exact = exact.quantize(ROUNDED_PLACES, rounding=ROUND_HALF_EVEN)
    text = f"{exact:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# --- CSV ---


def standings_csv(folded: FoldedSeason) -> str:
    """The standings table as CSV (header `STANDINGS_COLUMNS`), best first."""
    rows = []
    for rank, standing in enumerate(folded.result.standings(), start=1):
        first_name, last_name = folded.names[standing.player]
        rows.append(
            (
                rank,
                standing.player,
                first_name,
                last_name,
                decimal_points(standing.league_points),
                str(Fraction(standing.league_points)),
                standing.games_played,
                standing.forfeits,
                standing.countable_forfeits,
                standing.offenses,
                _blank(standing.credit_used_at),
                _blank(standing.season_forfeited_at),
            )
        )
    return csv_text(STANDINGS_COLUMNS, rows)


def roster_csv(season: m.Season) -> str:
    """The season's players as CSV (header `ROSTER_COLUMNS`), by name (1 query)."""
    entries = season.entries.select_related("player").order_by(
        "player__last_name", "player__first_name", "player_id"
    )
    rows = [
        (
            entry.player.first_name,
            entry.player.last_name,
            _blank(entry.player.ifpa_number),
            _blank(entry.ifpa_rank_at_start),
        )
        for entry in entries
    ]
    return csv_text(ROSTER_COLUMNS, rows)


def scores_csv(folded: FoldedSeason) -> str:
    """Every game's scores as CSV (header `SCORES_COLUMNS`), in meet, group, game order: each
    player's game line (`flipwell.rules.game_lines`: the score entered, the score that counts,
    place and game points)."""
    results = {meet.number: meet for meet in folded.result.meets}
    rows: list[Sequence[object]] = []
    for meet in folded.facts.meets:
        stored = folded.meets.get(meet.number)
        date = stored.date.isoformat() if stored is not None else ""
        matches = results[meet.number].matches
        for group_number, (match, scored) in enumerate(
            zip(meet.groups, matches, strict=True), start=1
        ):
            games = match_game_lines(
                match, scored, penalties=results[meet.number].penalties, ruleset=folded.ruleset
            )
            for game_number, (game, outcome, lines) in enumerate(
                zip(match.games, scored.games, games, strict=True), start=1
            ):
                for line in lines:
                    if line.player not in game.scores:
                        continue
                    first_name, last_name = folded.names[line.player]
                    forfeit = outcome.forfeits.get(line.player)
                    rows.append(
                        (
                            meet.number,
                            date,
                            group_number,
                            game_number,
                            game.machine,
                            line.player,
                            first_name,
                            last_name,
                            _blank(line.entered),
                            _blank(line.score),
                            _blank(line.place),
                            line.points,
                            "" if forfeit is None else "countable" if forfeit else "not countable",
                        )
                    )
    return csv_text(SCORES_COLUMNS, rows)


def _blank(value: object | None) -> object:
    return "" if value is None else value
