"""Which league a restored row belongs to: the check that a row's references reach one league,
and the league given to rows of older backups that had none (the package's words apply:
`flipwell.league.exchange.backup`, *legacy values*).

Words:
- *relation*: a foreign key of a model and the label of the model it points to.
- *a row's league*: the league its references reach (None: none); a row whose references reach
  two leagues is refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.db import models

from flipwell.league.exchange.backup.format import BackupError
from flipwell.rules.special_rulings import title_key


def _relations(model: type[models.Model]) -> list[tuple[str, str]]:
    """(field, label of the model it points to) of each foreign key of `model`."""
    return [
        (f.name, f.related_model._meta.label_lower)
        for f in model._meta.concrete_fields
        if f.is_relation and isinstance(f.related_model, type)
    ]


def check_leagues(
    path: Path, ordered: list[type[models.Model]], rows_by_label: dict[str, list[dict[str, Any]]]
) -> None:
    """Refuse a row whose references reach two leagues (a league-B ledger entry on league A's
    season), or that names a player who is not one of its league's (entered in one of its
    seasons, or one person with such a row): no write of the services stores either.

    A row's league is the league its references reach (a ``league`` key, or a row of a model
    that has one); a row that reaches none (a player, an account) belongs to no league.
    """
    league_of: dict[str, dict[int, int | None]] = {}
    players = _league_players(rows_by_label)
    for model in ordered:
        label = model._meta.label_lower
        relations = _relations(model)
        rows = list(enumerate(rows_by_label.get(label, []), start=1))
        # A row's league from the tables before it, then checked again with its own table's
        # (a reversing ledger entry names the entry it reverses).
        league_of[label] = {
            row["pk"]: _row_league(path, label, n, row, relations, league_of) for n, row in rows
        }
        named = [name for name, target in relations if target == "league.player"]
        for number, row in rows:
            league = league_of[label][row["pk"]]
            if league is None:
                continue
            _row_league(path, label, number, row, relations, league_of)
            if label == "league.seasonentry":
                continue  # an entry is what makes a player the league's
            for player in (row["fields"].get(name) for name in named):
                if player is not None and player not in players.get(league, set()):
                    raise BackupError(
                        f"{path}: {label} row {number} (pk {row['pk']}) of league {league} names "
                        f"player {player}, who is not a player of that league (entered in none "
                        "of its seasons); nothing was restored"
                    )


def _row_league(
    path: Path,
    label: str,
    number: int,
    row: Mapping[str, Any],
    relations: list[tuple[str, str]],
    league_of: Mapping[str, Mapping[int, int | None]],
) -> int | None:
    """The league a row's references reach (None: none); BackupError when they reach two."""
    reached: dict[str, int] = {}
    for name, target in relations:
        value = row["fields"].get(name)
        if value is None:
            continue
        league = value if target == "league.league" else league_of.get(target, {}).get(value)
        if isinstance(league, int):
            reached[name] = league
    if len(set(reached.values())) > 1:
        named = ", ".join(f"{name} in league {league}" for name, league in reached.items())
        raise BackupError(
            f"{path}: {label} row {number} (pk {row['pk']}) crosses leagues ({named}): a row "
            "of one league may refer only to rows of the same league; nothing was restored"
        )
    return next(iter(reached.values()), None)


def _league_players(rows_by_label: Mapping[str, list[dict[str, Any]]]) -> dict[int, set[object]]:
    """Each league's players: the rows entered in one of its seasons, and every row of the
    same person (merged into one of them, or the row one of them is merged into)."""
    league_of_season = {
        row["pk"]: row["fields"].get("league") for row in rows_by_label.get("league.season", [])
    }
    person = {
        row["pk"]: row["fields"].get("merged_into") or row["pk"]
        for row in rows_by_label.get("league.player", [])
    }
    persons: dict[object, set[object]] = defaultdict(set)
    for row in rows_by_label.get("league.seasonentry", []):
        league = league_of_season.get(row["fields"].get("season"))
        player = row["fields"].get("player")
        persons[league].add(person.get(player, player))
    players: dict[int, set[object]] = {}
    for league, kept in persons.items():
        if isinstance(league, int):
            players[league] = {pk for pk, who in person.items() if who in kept}
    return players


def seasons_read_as_their_leagues(rows_by_label: dict[str, list[dict[str, Any]]]) -> None:
    """Give each season of an older backup (no ``ruleset_overrides``: it was folded under its
    league's readings) its league's readings, as league migration 0022 does. Changes
    `rows_by_label` in place."""
    readings = {
        row["pk"]: row["fields"].get("ruleset_overrides", {})
        for row in rows_by_label.get("league.league", [])
    }
    for row in rows_by_label.get("league.season", []):
        fields = row["fields"]
        if "ruleset_overrides" not in fields:
            row["fields"] = {**fields, "ruleset_overrides": readings.get(fields.get("league"), {})}


def subscriptions_to_leagues(rows_by_label: dict[str, list[dict[str, Any]]]) -> None:
    """Give each notice subscription of an older backup (no ``league``) its league, as league
    migration 0019 does (see its docstring): the league whose official last set the address,
    else that of the personal link carrying it, else a copy to each league the player is
    entered in; a player entered nowhere loses it. Changes `rows_by_label` in place."""
    subscriptions = rows_by_label.get("league.noticesubscription", [])
    if all("league" in row["fields"] for row in subscriptions):
        return
    league_of_season = {
        row["pk"]: row["fields"].get("league") for row in rows_by_label.get("league.season", [])
    }
    entered: dict[object, set[int]] = {}
    for row in rows_by_label.get("league.seasonentry", []):
        league = league_of_season.get(row["fields"].get("season"))
        if isinstance(league, int):
            entered.setdefault(row["fields"].get("player"), set()).add(league)
    set_by: dict[str, tuple[str, int, int]] = {}  # player id -> (when, pk, league)
    for row in rows_by_label.get("league.auditevent", []):
        fields = row["fields"]
        data = fields.get("data")
        if (
            fields.get("action") == "notices.preferences_set"
            and fields.get("object_type") == "league.Player"
            and isinstance(fields.get("league"), int)
            and isinstance(data, dict)
            and data.get("email_given") is True
        ):
            mark = (str(fields.get("created_at")), row["pk"], fields["league"])
            key = str(fields.get("object_id"))
            set_by[key] = max(set_by.get(key, mark), mark)
    linked: dict[tuple[object, str], tuple[str, int, int]] = {}
    for row in rows_by_label.get("league.playerlink", []):
        fields = row["fields"]
        league = league_of_season.get(fields.get("season"))
        if isinstance(league, int) and fields.get("email"):
            mark = (str(fields.get("created_at")), row["pk"], league)
            address = (fields.get("player"), str(fields["email"]).casefold())
            linked[address] = max(linked.get(address, mark), mark)
    next_pk = max((row["pk"] for row in subscriptions), default=0) + 1
    placed: list[dict[str, Any]] = []
    for row in subscriptions:
        fields = row["fields"]
        if "league" in fields:
            placed.append(row)
            continue
        player = fields.get("player")
        if str(player) in set_by:
            leagues = [set_by[str(player)][2]]
        elif (player, str(fields.get("email", "")).casefold()) in linked:
            leagues = [linked[(player, str(fields.get("email", "")).casefold())][2]]
        else:
            leagues = sorted(entered.get(player, set()))
        for number, league in enumerate(leagues):
            pk = row["pk"] if number == 0 else next_pk
            next_pk += number > 0
            placed.append({"pk": pk, "fields": {**fields, "league": league}})
    rows_by_label["league.noticesubscription"] = placed


def rulings_to_leagues(rows_by_label: dict[str, list[dict[str, Any]]]) -> None:
    """Give each special ruling of an older backup (no ``league``) its league, as league
    migration 0031 does (see its docstring): the league of the audit event that recorded it,
    else a copy to each league with a machine of that title, else it is dropped. Changes
    `rows_by_label` in place."""
    rulings = rows_by_label.get("league.specialruling", [])
    if all("league" in row["fields"] for row in rulings):
        return
    recorded: dict[str, int] = {}
    for row in rows_by_label.get("league.auditevent", []):
        fields = row["fields"]
        if (
            fields.get("action") in ("special_ruling.added", "special_ruling.amended")
            and fields.get("object_type") == "league.SpecialRuling"
            and isinstance(fields.get("league"), int)
        ):
            recorded[str(fields.get("object_id"))] = fields["league"]
    by_title: dict[str, list[int]] = {}
    for row in sorted(rows_by_label.get("league.machine", []), key=lambda r: r["pk"]):
        league = row["fields"].get("league")
        leagues = by_title.setdefault(title_key(str(row["fields"].get("title", ""))), [])
        if isinstance(league, int) and league not in leagues:
            leagues.append(league)
    next_pk = max((row["pk"] for row in rulings), default=0) + 1
    placed: list[dict[str, Any]] = []
    for row in rulings:
        fields = row["fields"]
        if "league" in fields:
            placed.append(row)
            continue
        if str(row["pk"]) in recorded:
            leagues = [recorded[str(row["pk"])]]
        else:
            leagues = sorted(by_title.get(title_key(str(fields.get("machine_title", ""))), []))
        for number, league in enumerate(leagues):
            pk = row["pk"] if number == 0 else next_pk
            next_pk += number > 0
            placed.append({"pk": pk, "fields": {**fields, "league": league}})
    rows_by_label["league.specialruling"] = placed
