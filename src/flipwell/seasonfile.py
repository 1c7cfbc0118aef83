"""Season files: a season's facts as JSON, read into `flipwell.rules.season.SeasonFacts`.

The format (used by the golden season in tests/data and by `flipwell standings FILE`):

    {"name": ..., "entrants": [{"player", "first_name", "last_name", "ifpa_rank"}],
     "joined_at": {player: meet}, "late_join_non_countable": [player],
     "meets": [{"number", "date", "status": "closed"|"open", "announced_absences": [player],
                "group_override": reason,
                "violations": [{"player", "kind", "current_game", "games_completed", ...}],
                "groups": [{"players": [...], "games": [{"machine", "scores": {player: int|null},
                            "tie_order": [[player, ...]], "compensatory": {player: {"new", ...}},
                            "reduced": [player], "zeroed": {player: reason},
                            "non_countable": [player]}]}]}]},
     "readings": {setting: value}}

``"readings"`` are the season's readings of the rules (`flipwell.rules.Ruleset` settings that
differ from FWPL v1.0, as a season's export writes them); without it the season is read under
FWPL v1.0. Standard library only, so the rules stay usable without the web application.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from flipwell.rules import (
    Compensatory,
    Entrant,
    GameFacts,
    MatchFacts,
    MeetFacts,
    RuleError,
    Ruleset,
    SeasonFacts,
    Violation,
    ViolationFacts,
    ruleset_from_overrides,
)


class SeasonFile(NamedTuple):
    """What a season file holds: the season's name, its facts and its readings."""

    name: str
    facts: SeasonFacts
    ruleset: Ruleset


def load_season_file(path: str | Path) -> SeasonFile:
    """Read a season file whole. Bad content raises RuleError naming the file (and the
    setting, for readings the rules do not allow)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise RuleError(f"{path}: not valid JSON ({error})") from error
    try:
        name, facts = str(data.get("name", Path(path).stem)), season_from_dict(data)
        readings = data.get("readings", {})
        if not isinstance(readings, Mapping):
            raise RuleError(f'{path}: "readings" must be an object of settings')
        return SeasonFile(name, facts, ruleset_from_overrides(readings))
    except (KeyError, TypeError, AttributeError) as error:
        raise RuleError(f"{path}: malformed season file ({error!r})") from error
    except RuleError as error:
        raise RuleError(f"{path}: {error}") from error


def load_season(path: str | Path) -> tuple[str, SeasonFacts]:
    """Read a season file: its name and its facts. Bad content raises RuleError naming it."""
    name, facts, _ruleset = load_season_file(path)
    return name, facts


def season_from_dict(data: Mapping[str, Any]) -> SeasonFacts:
    """Build SeasonFacts from the parsed JSON of a season file."""
    return SeasonFacts(
        entrants=tuple(Entrant(**e) for e in data["entrants"]),
        meets=tuple(_meet(m) for m in data["meets"]),
        joined_at=dict(data.get("joined_at", {})),
        late_join_non_countable=frozenset(data.get("late_join_non_countable", ())),
    )


def _meet(data: Mapping[str, Any]) -> MeetFacts:
    return MeetFacts(
        number=data["number"],
        groups=tuple(_match(g) for g in data["groups"]),
        announced_absences=frozenset(data.get("announced_absences", ())),
        violations=tuple(_violation(v) for v in data.get("violations", ())),
        group_override=data.get("group_override"),
        closed=data.get("status", "closed") == "closed",  # an export of a season in progress
    )


def _violation(data: Mapping[str, Any]) -> ViolationFacts:
    """{"player", "kind", flags of `Violation`, and "current_game" / "games_completed" /
    "target_game"} -> ViolationFacts."""
    timing = ("current_game", "games_completed", "target_game")
    flags = {k: v for k, v in data.items() if k not in (*timing, "player")}
    return ViolationFacts(
        violation=Violation(violator=data["player"], **flags),
        **{k: data[k] for k in timing if k in data},
    )


def _match(data: Mapping[str, Any]) -> MatchFacts:
    return MatchFacts(players=tuple(data["players"]), games=tuple(_game(g) for g in data["games"]))


def _game(data: Mapping[str, Any]) -> GameFacts:
    return GameFacts(
        machine=data["machine"],
        scores=dict(data["scores"]),
        tie_order=tuple(tuple(order) for order in data.get("tie_order", ())),
        compensatory={p: Compensatory(**c) for p, c in data.get("compensatory", {}).items()},
        reduced=frozenset(data.get("reduced", ())),
        zeroed=dict(data.get("zeroed", {})),
        non_countable=frozenset(data.get("non_countable", ())),
    )
