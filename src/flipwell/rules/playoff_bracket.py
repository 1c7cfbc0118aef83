"""A whole playoff division on the playoff night (§6.3): every match, what it needs, final places.

Words:
- *bracket state*: every match of one division in playing order (QF1, QF2, SF1, SF2, F) with
  its status: *waiting* for an earlier match, *ready* for its next game, waiting for a
  *tiebreaker*, or *complete*.
- *results*: the recorded `PlayoffMatchRecord` of each match that has started, by match id.
- *places*: once the final is complete, every seeded player's place in the division, 1 = champion.

Places below the final (a flipwell decision; the rulebook ranks only the final, R6.3-e): the
players eliminated in one round share a place, the best one left (an 8-bracket's semifinal
losers are all 5th; a 12-bracket's quarterfinal losers all 9th), because their totals come from
different matches and A40 breaks no tie that decides nothing. A no-show of a round (R6.6-c)
is placed after that round's players who played, mirroring "a no-show in the final is placed
last" (A42.1); several no-shows of one round share their place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from flipwell.rules.errors import RuleError
from flipwell.rules.playoff_matches import (
    EMPTY_RECORD,
    PlayoffMatchRecord,
    PlayoffMatchState,
    playoff_match_state,
)
from flipwell.rules.playoff_seeding import PlayoffSeeding
from flipwell.rules.playoffs import BRACKET_MATCHES, round_name
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

ROUND_ORDER = ("final", "semifinal", "quarterfinal")


@dataclass(frozen=True)
class PlayoffBracketState:
    """One division's playoffs: each match's state in playing order, and places when complete."""

    division: str
    matches: tuple[PlayoffMatchState, ...]
    places: Mapping[PlayerId, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def complete(self) -> bool:
        """True once the final is complete and every seeded player has a place."""
        return all(m.status == "complete" for m in self.matches)

    @property
    def playable(self) -> tuple[PlayoffMatchState, ...]:
        """Matches that can be played now: ready for a game or for a tiebreaker."""
        return tuple(m for m in self.matches if m.status in ("ready", "tiebreaker_needed"))

    @property
    def needed(self) -> tuple[str, ...]:
        """What the division waits for, one line per unfinished match ("SF1: ...")."""
        return tuple(f"{m.match}: {m.needed}" for m in self.matches if m.status != "complete")

    def match(self, match: str) -> PlayoffMatchState:
        """The state of one match by id (QF1, QF2, SF1, SF2, F)."""
        for state in self.matches:
            if state.match == match:
                return state
        raise RuleError(f"division {self.division} has no match {match}")


def playoff_bracket_state(
    seeding: PlayoffSeeding,
    *,
    results: Mapping[str, PlayoffMatchRecord] | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> PlayoffBracketState:
    """The state of a division's bracket from its seeds and every recorded game (§6.3-§6.6).

    seeding: the division's seeds (vacant seeds as None, treated as announced no-shows, A42.4).
    results: each started match's record by id; a match whose players are not all known yet
    must have no record.

    8 seeds: semifinals 1-4-5-8 and 2-3-6-7, then the final (R6.3-h, R6.3-d). 12 seeds:
    quarterfinals 5-8-9-12 and 6-7-10-11 while seeds 1-4 have a bye, semifinals of seeds 1 and 4
    with the top 2 of QF1 and of seeds 2 and 3 with the top 2 of QF2, then the final (R6.3-i,
    R6.3-g, R6.3-j). Each match starts afresh (R6.3-f) and lists its players by original seed
    (A43). See the module docstring for how the eliminated are placed.
    """
    records = dict(results or {})
    layout = BRACKET_MATCHES.get(seeding.division.bracket)
    if layout is None or len(seeding.seeds) != seeding.division.bracket:
        raise RuleError(
            f"division {seeding.division.name} needs 4, 8 or 12 seeds, got {len(seeding.seeds)}"
        )
    ids = [m for m, _ in layout]
    unknown = sorted(set(records) - set(ids))
    if unknown:
        raise RuleError(
            f"division {seeding.division.name} has no match {unknown[0]}; its matches: "
            + ", ".join(ids)
        )
    seed_of = {p: i for i, p in enumerate(seeding.seeds) if p is not None}
    states: dict[str, PlayoffMatchState] = {}
    for match, slots in layout:
        players, waiting_for = _match_players(slots, seeding, states)
        players.sort(key=seed_of.__getitem__)
        if waiting_for:
            if match in records:
                earlier = " and ".join(waiting_for)
                raise RuleError(
                    f"{match} has a record, but its players are not known until {earlier} "
                    f"{'is' if len(waiting_for) == 1 else 'are'} complete"
                )
            states[match] = PlayoffMatchState(
                match=match,
                round=round_name(match),
                players=tuple(players),
                absent=(),
                status="waiting",
                needed="the top 2 of " + " and of ".join(waiting_for),
            )
            continue
        states[match] = playoff_match_state(
            players, records.get(match, EMPTY_RECORD), match=match, ruleset=ruleset
        )
    matches = tuple(states[m] for m in ids)
    if any(m.status != "complete" for m in matches):
        return PlayoffBracketState(seeding.division.name, matches)
    return PlayoffBracketState(seeding.division.name, matches, MappingProxyType(_places(matches)))


def _match_players(
    slots: Sequence[int | str],
    seeding: PlayoffSeeding,
    states: Mapping[str, PlayoffMatchState],
) -> tuple[list[PlayerId], list[str]]:
    """A match's players known so far (its seeds, vacant ones left out, and the top 2 of each
    complete earlier match) and the earlier matches it still waits for (R6.3-d..j)."""
    players: list[PlayerId] = []
    waiting_for = []
    for slot in slots:
        if isinstance(slot, int):
            player = seeding.seeds[slot - 1]
            if player is not None:
                players.append(player)
        elif states[slot].status == "complete":
            players.extend(states[slot].advancing)
        else:
            waiting_for.append(slot)
    return players, waiting_for


def _places(matches: tuple[PlayoffMatchState, ...]) -> dict[PlayerId, int]:
    """Final places: the final's order, then each earlier round's band (module docstring)."""
    places: dict[PlayerId, int] = {}
    final = next(m for m in matches if m.match == "F")
    for player in final.placing:
        places[player] = len(places) + 1
    for rnd in ROUND_ORDER[1:]:
        in_round = [m for m in matches if m.round == rnd]
        played = [p for m in in_round for p in m.eliminated if p not in m.absent]
        no_shows = [p for m in in_round for p in m.absent]
        for band in (played, no_shows):
            place = len(places) + 1
            places.update(dict.fromkeys(band, place))
    return places
