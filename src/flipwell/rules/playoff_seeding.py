"""Playoff qualification and seeding (§6.1, §6.2), and withdrawals before the playoffs (§6.6).

Words:
- *candidate*: a player in the final season standings, with his season league points and
  whether he may enter the playoffs (season-forfeited and suspended players may not, A05, A37).
- *league size*: the n that sizes the playoffs: eligible players by default (A05).
- *cut*: how many players qualify; the table's value, or an LO override (R6.2-b, A06).
- *order*: the eligible candidates best first, by season points, equal points settled by a
  recorded single-ball playoff (default, A39) or by the previous ladder.
- *seeding*: one division's seeds, seed 1 first; `None` is a vacant seed (A03).
- *reserve*: an eligible player below the cut, in order; the first one not withdrawn replaces a
  withdrawn qualifier (R6.6-b).
- *seed tie*: equal season points that the single-ball playoff must settle before seeds exist:
  across the cut, across a division line, or among qualifiers (R6.1-e, A39).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Literal

from flipwell.rules.checks import check_count, check_player, check_points, check_unique, fmt
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.playoffs import divisions_for_qualifiers, playoff_divisions
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.ties import tie_positions
from flipwell.rules.values import PlayerId, PlayoffCandidate, PlayoffDivision

TieLine = Literal["cut", "division", "seeding"]


@dataclass(frozen=True)
class SeedTie:
    """Players on equal season points whose order must be settled by a single-ball playoff.

    players: the tied players still in contention, in previous-ladder order.
    line: what the order decides: who makes the cut, who goes to which division, or seeds.
    """

    players: tuple[PlayerId, ...]
    points: Fraction
    line: TieLine

    @property
    def message(self) -> str:
        """The tie as an official reads it, with what to do about it (R6.1-e), naming the
        players by their keys (`render` names them)."""
        return self.render({})

    def render(self, names: Mapping[PlayerId, str]) -> str:
        """`message` with each player written as `names[key]` (the key when not in `names`)."""
        what = {
            "cut": "across the playoff cut",
            "division": "across a division line",
            "seeding": "for playoff seeds",
        }[self.line]
        tied = _names([names.get(p, p) for p in self.players])
        return (
            f"{tied} are tied at {fmt(self.points)} points {what}: settle by a single-ball "
            "playoff on a random machine (R6.1-e)"
        )


@dataclass(frozen=True)
class PlayoffSeeding:
    """One division's seeds, seed 1 first; None marks a vacant seed (A03, A42.4)."""

    division: PlayoffDivision
    seeds: tuple[PlayerId | None, ...]

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The seeded players, best seed first."""
        return tuple(p for p in self.seeds if p is not None)

    def seed_of(self, player: PlayerId) -> int:
        """The player's seed in this division (1 = best)."""
        if player not in self.seeds:
            raise about_player(
                "{player} is not seeded in division {division}",
                player,
                division=self.division.name,
            )
        return self.seeds.index(player) + 1


@dataclass(frozen=True)
class PlayoffQualification:
    """Who qualifies, with which seed; `seedings` and `reserves` stay empty while `ties` remain."""

    league_size: int
    cut: int
    divisions: tuple[PlayoffDivision, ...]
    seedings: tuple[PlayoffSeeding, ...]
    reserves: tuple[PlayerId, ...]
    ties: tuple[SeedTie, ...]
    withdrew: tuple[PlayerId, ...] = ()
    """Qualifiers who withdrew before the playoffs (R6.6-b), best first."""
    stepped_in: tuple[PlayerId, ...] = ()
    """Players below the cut who qualified in their place, best first (R6.6-b)."""

    @property
    def complete(self) -> bool:
        """True once every tie that matters is settled and the seeds are known."""
        return not self.ties


def check_playoff_cut(cut: int, *, league_size: int) -> int:
    """Validate an LO-overridden playoff cut (R6.2-b, A06): at least half the league, rounded up.

    The cut must also form brackets (see `divisions_for_qualifiers`) and not exceed the league.
    """
    check_count(cut, what="the playoff cut", minimum=1)
    half = -(-league_size // 2)
    if cut < half:
        raise RuleError(
            f"a cut of {cut} qualifies under 50% of {league_size} players: at least {half} "
            "must qualify (R6.2-b)"
        )
    if cut > league_size:
        raise RuleError(f"a cut of {cut} is more than the league's {league_size} players")
    divisions_for_qualifiers(cut)
    return cut


def playoff_qualification(
    candidates: Sequence[PlayoffCandidate],
    *,
    previous_ladder: Sequence[PlayerId],
    settled: Sequence[Sequence[PlayerId]] = (),
    withdrawn: Collection[PlayerId] = (),
    cut: int | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> PlayoffQualification:
    """Playoff divisions and seeds from the final season standings (§6.1, §6.2, §6.6).

    candidates: every player of the season with his league points (R6.1-d) and eligibility.
    previous_ladder: the last regular-season ladder; it orders equal points under
    `playoff_seed_tiebreak = "previous_ladder_position"` and lists tied players in messages.
    settled: recorded single-ball playoff orders, winner first; each lists every eligible
    player tied at those points (withdrawn players may be listed and are skipped).
    withdrawn: players who announced before the playoffs that they cannot attend (R6.6-b).
    cut: an LO override of the number of qualifiers, checked against R6.2-b (A06).

    R6.1-b, R6.1-d, R6.1-e, R6.2-a, R6.2-b, R6.6-b; A01-A06, A37, A39, A41. The league size
    counts eligible players by default (A05); eligibility (not season-forfeited, not
    suspended, at least one game played) is the caller's flag. Under the default
    `single_ball_playoff` any tie that touches a seed is returned in `ties` instead of seeds.
    """
    points, eligible = _check_candidates(candidates)
    position = {
        p: i for i, p in enumerate(check_unique(previous_ladder, what="the previous ladder"))
    }
    out = set(check_unique(withdrawn, what="the withdrawals"))
    unknown = sorted(out - set(points))
    if unknown:
        raise about_player("withdrawn player {player} is not in the season standings", unknown[0])
    size = len(eligible) if ruleset.playoff_league_size == "eligible_players" else len(points)
    divisions, qualifiers = _divisions(size, cut, ruleset)
    orders = _settled_positions(settled, points, eligible, out, ruleset)
    order = _ranked(eligible, points=points, out=out, orders=orders, position=position)
    original = tuple(
        PlayoffSeeding(d, _padded(order[d.first_rank - 1 : d.last_rank], d.bracket))
        for d in divisions
    )
    reserves = tuple(order[qualifiers:])
    seedings = apply_withdrawals(original, reserves=reserves, withdrawn=out, ruleset=ruleset)
    seeded = {p: s.division.name for s in seedings for p in s.players}
    ties = _open_ties(order, points, seeded, out, orders, position, ruleset)
    remaining = tuple(p for p in reserves if p not in out and p not in seeded)
    return PlayoffQualification(
        league_size=size,
        cut=qualifiers,
        divisions=tuple(divisions),
        seedings=() if ties else seedings,
        reserves=() if ties else remaining,
        ties=ties,
        withdrew=tuple(p for s in original for p in s.players if p in out),
        stepped_in=() if ties else tuple(p for p in reserves if p in seeded),
    )


def _ranked(
    eligible: Collection[PlayerId],
    *,
    points: Mapping[PlayerId, Fraction],
    out: Collection[PlayerId],
    orders: Mapping[PlayerId, int],
    position: Mapping[PlayerId, int],
) -> list[PlayerId]:
    """The eligible players by league points (R6.1-d), equals by their single-ball playoff
    (R6.1-e) and then the previous ladder (A39); a player who withdrew sorts last among his
    equals: he plays no single-ball playoff."""

    def rank_key(player: PlayerId) -> tuple[Fraction, bool, int, int, str]:
        return (
            -points[player],
            player in out,
            orders.get(player, 0),
            position.get(player, len(position)),
            player,
        )

    return sorted(eligible, key=rank_key)


def _divisions(size: int, cut: int | None, ruleset: Ruleset) -> tuple[list[PlayoffDivision], int]:
    """The playoff divisions of a league of `size` and how many qualify: the rules' cut
    (R6.1-b, R6.2-a, A01-A05), or the LO's, checked against R6.2-b (A06)."""
    if cut is None:
        divisions = playoff_divisions(size, ruleset=ruleset)
        return list(divisions), sum(d.size for d in divisions)
    qualifiers = check_playoff_cut(cut, league_size=size)
    return list(divisions_for_qualifiers(qualifiers)), qualifiers


def apply_withdrawals(
    seedings: Sequence[PlayoffSeeding],
    *,
    reserves: Sequence[PlayerId],
    withdrawn: Collection[PlayerId],
    ruleset: Ruleset = FWPL_V1,
) -> tuple[PlayoffSeeding, ...]:
    """Seeds after withdrawals announced before the playoffs (§6.6, R6.6-b, A41).

    Everyone seeded below a withdrawn player moves up one spot and the highest-ranked reserve
    qualifies; a reserve who also withdrew is passed over ("go on down the list"). By default
    seeds form one ladder across divisions (B's top seed moves up into A and the reserve enters
    the last division); under `withdrawal_shift = "within_division"` only the withdrawn
    player's division moves up and the reserve takes its last seed, top division first. With
    no reserve left the lowest seeds become vacant.
    """
    out = set(check_unique(withdrawn, what="the withdrawals"))
    listed = [p for s in seedings for p in s.seeds if p is not None]
    pool = check_unique([*listed, *reserves], what="the seeds and reserves")
    unknown = sorted(out - set(pool))
    if unknown:
        raise about_player("withdrawn player {player} is neither seeded nor a reserve", unknown[0])
    for seeding in seedings:
        if len(seeding.seeds) != seeding.division.bracket:
            raise RuleError(
                f"division {seeding.division.name} needs {seeding.division.bracket} seeds, "
                f"got {len(seeding.seeds)}"
            )
    fill = iter([r for r in reserves if r not in out])
    if ruleset.withdrawal_shift == "within_division":
        result = []
        for seeding in seedings:
            kept = [p for p in seeding.seeds if p is not None and p not in out]
            seats = sum(p is not None for p in seeding.seeds)
            kept += [p for _, p in zip(range(seats - len(kept)), fill, strict=False)]
            result.append(PlayoffSeeding(seeding.division, _padded(kept, seeding.division.bracket)))
        return tuple(result)
    ladder = [p for p in listed if p not in out]
    ladder += [p for _, p in zip(range(len(listed) - len(ladder)), fill, strict=False)]
    result, start = [], 0
    for seeding in seedings:
        seats = sum(p is not None for p in seeding.seeds)
        result.append(
            PlayoffSeeding(
                seeding.division, _padded(ladder[start : start + seats], seeding.division.bracket)
            )
        )
        start += seats
    return tuple(result)


def _check_candidates(
    candidates: Sequence[PlayoffCandidate],
) -> tuple[dict[PlayerId, Fraction], list[PlayerId]]:
    points: dict[PlayerId, Fraction] = {}
    eligible = []
    for candidate in candidates:
        if not isinstance(candidate, PlayoffCandidate):
            raise RuleError(f"each standing must be a PlayoffCandidate, got {candidate!r}")
        player = check_player(candidate.player)
        if player in points:
            raise about_player("{player} appears twice in the season standings", player)
        points[player] = check_points(
            candidate.points, what="{player}'s league points", player=player
        )
        if not isinstance(candidate.eligible, bool):
            raise about_player("{player}'s eligibility must be True or False", player)
        if candidate.eligible:
            eligible.append(player)
    return points, eligible


def _settled_positions(
    settled: Sequence[Sequence[PlayerId]],
    points: dict[PlayerId, Fraction],
    eligible: Sequence[PlayerId],
    out: set[PlayerId],
    ruleset: Ruleset,
) -> dict[PlayerId, int]:
    """Each player's place in his recorded single-ball playoff, after checking the tie is real."""
    if settled and ruleset.playoff_seed_tiebreak != "single_ball_playoff":
        raise RuleError(
            "this league settles playoff ties by previous ladder position (A39): "
            "no single-ball playoff order is used"
        )
    return tie_positions(
        {p: points[p] for p in eligible},
        settled,
        what="single-ball playoff order",
        unknown="who is not eligible",
        quantity="season points",
        unit=" points",
        optional=out,
    )


def _open_ties(
    order: Sequence[PlayerId],
    points: dict[PlayerId, Fraction],
    seeded: dict[PlayerId, str],
    out: set[PlayerId],
    orders: dict[PlayerId, int],
    position: dict[PlayerId, int],
    ruleset: Ruleset,
) -> tuple[SeedTie, ...]:
    """Unsettled equal points that decide a seed (R6.1-e, A39): every one under the default."""
    if ruleset.playoff_seed_tiebreak == "previous_ladder_position":
        return ()
    ties = []
    active = [p for p in order if p not in out]
    for value, group in groupby(active, key=points.__getitem__):
        players = list(group)
        if len(players) < 2 or all(p in orders for p in players):
            continue
        divisions = {seeded.get(p) for p in players}
        if divisions == {None}:
            continue  # every one of them is a reserve: their order decides nothing yet
        line: TieLine = (
            "cut" if None in divisions else "division" if len(divisions) > 1 else "seeding"
        )
        in_ladder_order = sorted(players, key=lambda p: (position.get(p, len(position)), p))
        ties.append(SeedTie(tuple(in_ladder_order), value, line))
    return tuple(ties)


def _padded(players: Sequence[PlayerId], bracket: int) -> tuple[PlayerId | None, ...]:
    return (*players, *([None] * (bracket - len(players))))


def _names(players: Sequence[PlayerId]) -> str:
    return ", ".join(players[:-1]) + " and " + players[-1] if len(players) > 1 else players[0]


# --- Why the seeds are what they are --------------------------------------------------------------


def seed_playoff_notes(
    settled: Sequence[Sequence[PlayerId]],
    *,
    points: Mapping[PlayerId, int | Fraction],
    seedings: Sequence[PlayoffSeeding],
    names: Mapping[PlayerId, str] | None = None,
    machines: Sequence[str | None] = (),
) -> tuple[str, ...]:
    """One plain sentence per recorded single-ball playoff: who tied on how many season
    points, who won, and the seed each one holds now ("... [R6.1-e]").

    settled: the recorded orders, winner first (as `playoff_qualification` takes them);
    points: season points by player; seedings: the seeds as drawn; machines: each order's
    machine title, or None (then unnamed). R6.1-e, A39; a withdrawn player's seed is
    "withdrew", a player below the cut "does not qualify" (R6.1-c, R6.6-b).
    """
    names = names or {}
    several = len(seedings) > 1
    seed_of = {
        p: (f"seed {i}" + (f" of division {s.division.name}" if several else ""))
        for s in seedings
        for i, p in enumerate(s.seeds, 1)
        if p is not None
    }
    notes = []
    for number, order in enumerate(settled):
        players = check_unique(order, what="a single-ball playoff order")
        if len(players) < 2:
            raise RuleError("a single-ball playoff order lists at least two players")
        value = points.get(players[0])
        if value is None:
            raise about_player("{player} has no season points", players[0])
        machine = machines[number] if number < len(machines) else None
        on = f" on {machine}" if machine else ""

        def fate(player: PlayerId) -> str:
            seed = seed_of.get(player)
            return f"is {seed}" if seed else "does not qualify"

        tied = _names([names.get(p, p) for p in players])
        head = f"{tied} tied on {fmt(value)} season points"
        if len(players) == 2:
            winner, loser = (names.get(p, p) for p in players)
            notes.append(
                f"{head}; {winner} won the single-ball playoff{on} and {fate(players[0])}; "
                f"{loser} {fate(players[1])} [R6.1-e]"
            )
        else:
            each = ", ".join(f"{names.get(p, p)} ({fate(p).removeprefix('is ')})" for p in players)
            notes.append(
                f"{head}; the single-ball playoff{on} put them in this order: {each} [R6.1-e]"
            )
    return tuple(notes)


def withdrawal_notes(
    qualification: PlayoffQualification,
    *,
    names: Mapping[PlayerId, str] | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> tuple[str, ...]:
    """One plain sentence on the qualifiers who withdrew before the playoffs and who took
    their places ("... [R6.6-b]"); none when nobody withdrew. A41 (across divisions or
    within one, `withdrawal_shift`).
    """
    if not qualification.withdrew:
        return ()
    names = names or {}
    gone = _names([names.get(p, p) for p in qualification.withdrew])
    said = "said" if len(qualification.withdrew) == 1 else "each said"
    below = "in the division " if ruleset.withdrawal_shift == "within_division" else ""
    note = (
        f"{gone} {said} before the playoffs that they could not come; everyone seeded "
        f"below {below}moved up one spot"
    )
    if qualification.stepped_in:
        came = _names([names.get(p, p) for p in qualification.stepped_in])
        note += f" and {came}, next below the cut, qualified"
    else:
        note += " and nobody was left below the cut to qualify"
    return (note + " [R6.6-b]",)
