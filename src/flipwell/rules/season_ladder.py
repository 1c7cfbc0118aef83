"""The ladder a meet is played from and the groups it is cut into (§3.1, §4, R4.1-d, R4.2-b).

Words:
- *ladder*: the active players who have joined by a meet, by league points (R4.3-c, A18).
- *active*: joined, and neither season-forfeited (§2.5) nor suspended (§8.5, §8.8).
- *expected groups*: the ladder without announced absentees, cut by group size (R4.2-b);
  recorded groups may differ only with an LO reason (R4.1-d).
- *attendance*: every active player on the ladder is in exactly one group or announced absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError, about_players, listed
from flipwell.rules.grouping import group_sizes, initial_ladder, ranked_ladder, split_into_groups
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season_nights import Tally
from flipwell.rules.season_values import (
    MeetFacts,
    SeasonFacts,
    SeasonResult,
)
from flipwell.rules.values import PlayerId


def next_groups(
    result: SeasonResult,
    *,
    announced_absences: Iterable[PlayerId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> list[list[PlayerId]]:
    """The next meet's groups: the ladder without announced absentees, cut by group size.

    R3.1-a, R3.1-c, R3.1-d, R4.2-a, R4.2-b, A17: unannounced absentees keep their slot.
    """
    absent = set(announced_absences)
    unknown = sorted(absent - set(result.ladder))
    if unknown:
        raise about_players("{players} cannot be absent: not on the ladder", "players", unknown)
    present = [p for p in result.ladder if p not in absent]
    return split_into_groups(present, group_sizes(len(present), ruleset=ruleset))


def joined_at(facts: SeasonFacts, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
    unknown = sorted(set(facts.joined_at) - set(players))
    if unknown:
        raise about_players("joined_at names {players}, who is not an entrant", "players", unknown)
    return {
        p: check_count(
            facts.joined_at.get(p, 1), what="{player}'s joining meet", player=p, minimum=1
        )
        for p in players
    }


def meet_ladder(
    facts: SeasonFacts,
    number: int,
    joined: Mapping[PlayerId, int],
    tallies: Mapping[PlayerId, Tally],
    previous: Sequence[PlayerId],
    ruleset: Ruleset,
) -> list[PlayerId]:
    if number == 1:
        starters = [e for e in facts.entrants if joined[e.player] <= 1]
        return initial_ladder(starters, ruleset=ruleset)
    return active_ladder(tallies, previous, joined, number, facts, ruleset)


def active_ladder(
    tallies: Mapping[PlayerId, Tally],
    previous: Sequence[PlayerId],
    joined: Mapping[PlayerId, int],
    number: int,
    facts: SeasonFacts,
    ruleset: Ruleset,
) -> list[PlayerId]:
    """Active players who have joined by meet `number`, by league points (R4.3-c, A18).

    Newcomers enter below every existing player with equal points (A18.4), among themselves
    in IFPA-then-alphabetical order.
    """
    points = {p: t.points for p, t in tallies.items() if t.active and joined[p] <= number}
    fresh = points.keys() - set(previous)
    order = list(previous)
    if fresh:
        newcomers = [e for e in facts.entrants if e.player in fresh]
        order.extend(initial_ladder(newcomers, ruleset=ruleset))
    return ranked_ladder(points, order, ruleset=ruleset)


def check_attendance(
    meet: MeetFacts, current: Sequence[PlayerId], tallies: Mapping[PlayerId, Tally]
) -> set[PlayerId]:
    """Every active player on the ladder is in exactly one group or announced absent (R3.1-d)."""
    grouped: list[PlayerId] = [p for m in meet.groups for p in m.players]
    check_unique(grouped, what=f"the groups of meet {meet.number}")
    on_ladder = set(current)
    for player in grouped:
        if player not in tallies:
            raise _about_meet(meet, "{player} is in a group but is not an entrant", player)
        if player not in on_ladder:
            raise _about_meet(
                meet,
                "{player} may not play (not joined, season forfeited or suspended; R2.5-b)",
                player,
            )
    both = sorted(set(grouped) & meet.announced_absences)
    if both:
        raise _about_meet(meet, "{players} announced absent but in a group", *both)
    unplaced = sorted(on_ladder - set(grouped) - meet.announced_absences)
    if unplaced:
        raise _about_meet(
            meet,
            "{players} is in no group and not announced absent "
            "(an unannounced absentee keeps their group slot and forfeits, R3.1-e)",
            *unplaced,
        )
    return set(grouped)


def _about_meet(meet: MeetFacts, template: str, *players: PlayerId) -> RuleError:
    """A RuleError "meet N: ..." naming `players` ({player} for one, {players} for a list)."""
    names, fields = listed("player", players)
    template = "meet {meet}: " + template.replace("{players}", names)
    if len(players) == 1:
        fields["player"] = players[0]
    return RuleError.about(template, players=fields, values={"meet": str(meet.number)})


def expected_groups(
    current: Sequence[PlayerId], meet: MeetFacts, ruleset: Ruleset
) -> tuple[tuple[PlayerId, ...], ...]:
    """The groups the rules give (R4.2-b); recorded groups may differ only with an LO reason."""
    present = [p for p in current if p not in meet.announced_absences]
    try:
        expected = split_into_groups(present, group_sizes(len(present), ruleset=ruleset))
    except RuleError:
        if meet.group_override is None:
            raise
        return ()
    recorded = [list(m.players) for m in meet.groups]
    if recorded != expected and meet.group_override is None:
        raise _groups_differ(meet, recorded, expected)
    return tuple(tuple(g) for g in expected)


def _groups_differ(
    meet: MeetFacts, recorded: Sequence[Sequence[PlayerId]], expected: Sequence[Sequence[PlayerId]]
) -> RuleError:
    """R4.1-d: recorded groups that are not the ladder's, each group written as its players."""
    fields: dict[str, str] = {}
    parts = []
    for label, groups in (("recorded", recorded), ("expected", expected)):
        written = []
        for number, group in enumerate(groups, 1):
            names, named = listed(f"{label}_{number}_", group)
            fields.update(named)
            written.append(f"group {number}: {names}")
        parts.append("; ".join(written) or "none")
    return RuleError.about(
        "meet {meet}: the recorded groups ("
        + parts[0]
        + ") differ from the ladder's ("
        + parts[1]
        + "); an LO override needs a reason (R4.1-d)",
        players=fields,
        values={"meet": str(meet.number)},
    )
