"""One playoff match (§6.3, §6.5, §6.6): three PAPA games, advancement, tiebreakers, no-shows.

Words:
- *playoff game*: one game of a match on one machine, recorded either as a finishing order
  (winner first) or as machine scores plus the order of each machine-score tie's one-ball
  playoff (A54, R3.2-i).
- *no-show*: a player not present at the match start, disqualified from the match (R6.6-c);
  a vacant seed (A03) is simply not listed.
- *present players*: the match's players who are not no-shows; every game holds all of them.
- *total*: a present player's PAPA points over the match's three games (R6.3-c); earlier
  rounds never count (R6.3-f).
- *standing*: the present players best first by total, then by tiebreaker game, then (for
  ties that decide nothing) by original seed.
- *tiebreaker*: an extra game among tied players only, on a random machine, whose finishing
  order breaks their tie (R6.5-a, R6.5-b, A40).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby
from types import MappingProxyType
from typing import Literal

from flipwell.rules.checks import check_player, check_score, check_unique
from flipwell.rules.errors import RuleError, about_player, about_players, listed
from flipwell.rules.playoff_machines import playoff_machine_chooser, playoff_play_order
from flipwell.rules.playoffs import papa_points, round_name
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.scoring import finishing_order
from flipwell.rules.values import PlayerId

GAMES_PER_MATCH = 3
"""R6.3-c: every playoff match is three games."""
ADVANCING = 2
"""R6.3-d, R6.3-g: the top two of a quarterfinal or semifinal advance."""

MatchStatus = Literal["waiting", "ready", "tiebreaker_needed", "complete"]


@dataclass(frozen=True)
class PlayoffGame:
    """One recorded playoff game: its machine and either `order` or `scores` (+ `tie_order`)."""

    machine: str
    order: tuple[PlayerId, ...] = ()
    scores: Mapping[PlayerId, int] | None = None
    tie_order: tuple[tuple[PlayerId, ...], ...] = ()

    def finishing_order(self) -> tuple[PlayerId, ...]:
        """The players winner first; machine-score ties follow their one-ball playoff (A54)."""
        if not isinstance(self.machine, str) or not self.machine.strip():
            raise RuleError(f"a playoff game needs its machine, got {self.machine!r}")
        if self.scores is None:
            if self.tie_order:
                raise RuleError("a tie order goes with machine scores, not a finishing order")
            return tuple(check_unique(self.order, what="a playoff game's finishing order"))
        if self.order:
            raise RuleError("record a playoff game as a finishing order or as scores, not both")
        # A playoff game has no forfeits: every listed player needs a real machine score.
        scores = {
            check_player(p): check_score(s, what="{player}'s machine score", player=p)
            for p, s in self.scores.items()
        }
        return tuple(finishing_order(scores, tie_order=self.tie_order))


@dataclass(frozen=True)
class PlayoffMatchRecord:
    """What happened in one match: no-shows at its start, its games in order, any tiebreakers."""

    absent: tuple[PlayerId, ...] = ()
    games: tuple[PlayoffGame, ...] = ()
    tiebreakers: tuple[PlayoffGame, ...] = ()


EMPTY_RECORD = PlayoffMatchRecord()


@dataclass(frozen=True)
class PlayoffMatchState:
    """Where one match stands and what it still needs.

    players: everyone known to be in the match, by original seed (no-shows included).
    needed: what the match waits for, in words ("" when complete).
    next_game: the number (1-3) of the game to play next, None otherwise.
    play_order / machine_chooser: for the next game or tiebreaker; a chooser of None means
    the machine is drawn at random (game 1, R6.4-b; tiebreakers, R6.5-b).
    tied: the ties waiting for a tiebreaker game, each in seed order.
    standing: present players best first (only once the games are in).
    advancing / eliminated: for a quarterfinal or semifinal once complete.
    placing: for the final once complete: 1st to last, no-shows last (R6.3-e, A42.1).
    """

    match: str
    round: str
    players: tuple[PlayerId, ...]
    absent: tuple[PlayerId, ...]
    status: MatchStatus
    needed: str
    next_game: int | None = None
    play_order: tuple[PlayerId, ...] = ()
    machine_chooser: PlayerId | None = None
    totals: Mapping[PlayerId, int] = field(default_factory=lambda: MappingProxyType({}))
    tied: tuple[tuple[PlayerId, ...], ...] = ()
    standing: tuple[PlayerId, ...] = ()
    advancing: tuple[PlayerId, ...] = ()
    eliminated: tuple[PlayerId, ...] = ()
    placing: tuple[PlayerId, ...] = ()


def playoff_match_state(
    players: Sequence[PlayerId],
    record: PlayoffMatchRecord = EMPTY_RECORD,
    *,
    match: str = "F",
    ruleset: Ruleset = FWPL_V1,
) -> PlayoffMatchState:
    """Score one playoff match and say what it still needs (§6.3, §6.5, §6.6, "5.3", §6.4).

    players: the match's players by original playoff seed, best first (vacant seeds left out).
    record: the no-shows, the games played so far and any tiebreaker games.
    match: QF1, QF2, SF1, SF2 or F; the final places everyone, the others advance two.

    PAPA points per game, no bonus (R6.3-a, R6.3-b); three games (R6.3-c); top 2 advance and
    the rest are eliminated (R6.3-d, R6.3-g); the final's totals place 1st-4th (R6.3-e). A
    no-show is disqualified (R6.6-c): three present players play 4-2-1 and one is eliminated
    (R6.6-d), two present play 4-2 and both advance (A42.3), a no-show in the final is last
    (A42.1). Ties are broken by a tiebreaker game only where they decide advancement or a
    final place, or always under `playoff_tie_method = "tiebreaker_game_always"` (R6.5-a,
    A40). Play order: seeds for game 1, then the previous game's order (R5.3-a, R5.3-b);
    the loser of each game chooses the next machine (R6.4-c); no machine repeats (A44).
    """
    seeds = check_unique(players, what="the match's players")
    rnd = round_name(match)
    no_shows, present = _no_shows_and_present(seeds, record, match)
    final = match == "F"
    orders = _game_orders(record.games, present, match)
    totals = {p: sum(papa_points(o)[p] for o in orders) for p in present}
    base = PlayoffMatchState(
        match=match,
        round=rnd,
        players=tuple(seeds),
        absent=no_shows,
        status="ready",
        needed="",
        totals=MappingProxyType(totals),
    )
    walkover = len(present) <= 1 or (not final and len(present) <= ADVANCING)
    if walkover:
        if record.tiebreakers:
            raise RuleError(f"{match} needs no tiebreaker: every present player's place is settled")
        # Nobody can be eliminated, or nobody is left to play: no game decides anything.
        standing = tuple(sorted(present, key=lambda p: -totals[p]))
        return _complete(base, standing, no_shows, final)
    if len(orders) < GAMES_PER_MATCH:
        if record.tiebreakers:
            raise RuleError(f"{match} cannot have a tiebreaker before its {GAMES_PER_MATCH} games")
        return _next_game(base, orders, present)
    return _after_the_games(base, seeds, present, record, final=final, ruleset=ruleset)


def _after_the_games(
    base: PlayoffMatchState,
    seeds: Sequence[PlayerId],
    present: Sequence[PlayerId],
    record: PlayoffMatchRecord,
    *,
    final: bool,
    ruleset: Ruleset,
) -> PlayoffMatchState:
    """A match whose games are all played: the tiebreakers it still needs (R6.5-a, A40), or
    its standing by totals, tiebreakers, then seed."""
    totals = base.totals
    ties = _ties_to_break(present, totals, final=final, ruleset=ruleset)
    broken = _tiebreaker_orders(record.tiebreakers, ties, base.match)
    open_ties = tuple(t for t in ties if t not in broken)
    if open_ties:
        return replace(
            base,
            status="tiebreaker_needed",
            needed=tiebreakers_needed(open_ties),
            play_order=open_ties[0],
            tied=open_ties,
        )
    rank_in_tiebreaker = {p: i for order in broken.values() for i, p in enumerate(order)}
    standing = tuple(
        sorted(present, key=lambda p: (-totals[p], rank_in_tiebreaker.get(p, 0), seeds.index(p)))
    )
    return _complete(base, standing, base.absent, final)


def _no_shows_and_present(
    seeds: Sequence[PlayerId], record: PlayoffMatchRecord, match: str
) -> tuple[tuple[PlayerId, ...], list[PlayerId]]:
    """The match's no-shows (R6.6-c) and its present players, each by seed; RuleError for a
    no-show who is not a player of the match."""
    absent = check_unique(record.absent, what="the no-shows")
    for player in absent:
        if player not in seeds:
            raise about_player("no-show {player} is not a player of {match}", player, match=match)
    no_shows = tuple(p for p in seeds if p in absent)
    return no_shows, [p for p in seeds if p not in absent]


def _next_game(
    base: PlayoffMatchState, orders: Sequence[Sequence[PlayerId]], present: Sequence[PlayerId]
) -> PlayoffMatchState:
    """A match before its last game: the next game, its play order (R5.3-a, R5.3-b) and who
    chooses its machine (R6.4-c)."""
    number = len(orders) + 1
    previous = orders[-1] if orders else None
    return replace(
        base,
        status="ready",
        needed=f"the result of game {number}",
        next_game=number,
        play_order=tuple(playoff_play_order(present, previous)),
        machine_chooser=None if previous is None else playoff_machine_chooser(previous),
    )


def _complete(
    base: PlayoffMatchState,
    standing: tuple[PlayerId, ...],
    no_shows: tuple[PlayerId, ...],
    final: bool,
) -> PlayoffMatchState:
    if final:
        return replace(
            base,
            status="complete",
            needed="",
            standing=standing,
            placing=standing + no_shows,
        )
    return replace(
        base,
        status="complete",
        needed="",
        standing=standing,
        advancing=standing[:ADVANCING],
        eliminated=standing[ADVANCING:] + no_shows,
    )


def _game_orders(
    games: Sequence[PlayoffGame], present: Sequence[PlayerId], match: str
) -> list[tuple[PlayerId, ...]]:
    """Each game's finishing order, after checking it holds exactly the present players."""
    if len(games) > GAMES_PER_MATCH:
        raise RuleError(
            f"{match} has {len(games)} games; a playoff match is {GAMES_PER_MATCH} (R6.3-c)"
        )
    orders: list[tuple[PlayerId, ...]] = []
    machines: dict[str, int] = {}
    for number, game in enumerate(games, start=1):
        if not isinstance(game, PlayoffGame):
            raise RuleError(f"game {number} of {match} must be a PlayoffGame")
        order = game.finishing_order()
        for player in order:
            if player not in present:
                raise about_player(
                    "game {game} of {match} lists {player}, who is not a present player of "
                    "the match (a no-show is disqualified from it, R6.6-c)",
                    player,
                    game=str(number),
                    match=match,
                )
        missing = [p for p in present if p not in order]
        if missing:
            raise about_players(
                "game {game} of {match} is missing {players}",
                "players",
                missing,
                game=str(number),
                match=match,
            )
        if game.machine in machines:
            raise RuleError(
                f"machine {game.machine} is played twice in {match} (games "
                f"{machines[game.machine]} and {number}): no repeats within a match (A44, R6.4-a)"
            )
        machines[game.machine] = number
        orders.append(order)
    return orders


def _ties_to_break(
    present: Sequence[PlayerId], totals: Mapping[PlayerId, int], *, final: bool, ruleset: Ruleset
) -> list[tuple[PlayerId, ...]]:
    """Groups of equal totals that need a tiebreaker game (R6.5-a, A40), each in seed order."""
    ranked = sorted(present, key=lambda p: -totals[p])
    ties, start = [], 0
    for _, group in groupby(ranked, key=totals.__getitem__):
        tied = tuple(group)
        end = start + len(tied) - 1
        straddles_cut = start < ADVANCING <= end
        relevant = final or straddles_cut or ruleset.playoff_tie_method == "tiebreaker_game_always"
        if len(tied) > 1 and relevant:
            ties.append(tuple(p for p in present if p in tied))
        start = end + 1
    return ties


def _tiebreaker_orders(
    tiebreakers: Sequence[PlayoffGame], ties: Collection[tuple[PlayerId, ...]], match: str
) -> dict[tuple[PlayerId, ...], tuple[PlayerId, ...]]:
    """Each needed tie with the finishing order of the tiebreaker game that broke it."""
    broken: dict[tuple[PlayerId, ...], tuple[PlayerId, ...]] = {}
    for game in tiebreakers:
        if not isinstance(game, PlayoffGame):
            raise RuleError(f"a tiebreaker of {match} must be a PlayoffGame")
        order = game.finishing_order()
        tie = next((t for t in ties if sorted(t) == sorted(order)), None)
        if tie is None:
            raise _unneeded_tiebreaker(order, ties, match)
        if tie in broken:
            raise about_players(
                "the tie between {players} in {match} has two tiebreakers",
                "players",
                tie,
                match=match,
            )
        broken[tie] = order
    return broken


def _unneeded_tiebreaker(
    order: Sequence[PlayerId], ties: Collection[tuple[PlayerId, ...]], match: str
) -> RuleError:
    """R6.5-a: a tiebreaker game whose players are not a tie that needs breaking."""
    between, fields = listed("player", order, last=" and ")
    needed = []
    for number, tie in enumerate(ties):
        names, tied = listed(f"tie{number}_", tie, last=" and ")
        needed.append(names)
        fields.update(tied)
    return RuleError.about(
        "the tiebreaker between " + between + " in {match} does not match a tie that needs "
        "breaking (R6.5-a); ties needing one: " + ("; ".join(needed) or "none"),
        players=fields,
        values={"match": match},
    )


def tiebreakers_needed(
    ties: Sequence[Sequence[PlayerId]], names: Mapping[PlayerId, str] | None = None
) -> str:
    """What a match waits for while ties need a tiebreaker game (R6.5-a): "tiebreaker needed
    between A and B", each player written as `names[key]` (the key when not in `names`)."""
    names = names or {}
    return "; ".join(
        "tiebreaker needed between " + _names([names.get(p, p) for p in tie]) for tie in ties
    )


def _names(players: Sequence[PlayerId]) -> str:
    return ", ".join(players[:-1]) + " and " + players[-1] if len(players) > 1 else players[0]


# --- Why a match went the way it did --------------------------------------------------------------


def match_notes(
    state: PlayoffMatchState,
    record: PlayoffMatchRecord = EMPTY_RECORD,
    *,
    names: Mapping[PlayerId, str] | None = None,
    machines: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """One plain sentence for each place of a match decided other than by a clear total:
    equal totals (settled by a tiebreaker game, waiting for one, or deciding nothing) and
    no-shows. Each sentence ends with the rule it follows in brackets ("... [R6.5-a]").

    state: the match's `playoff_match_state`; record: the same record it was computed from.
    names: player key -> name (the key when missing); machines: machine key -> title (a
    tiebreaker's machine missing from it is left unnamed).

    R6.5-a, R6.5-b (tiebreaker game on a random machine), A40 (ties that decide nothing are
    not broken), R6.6-c, R6.6-d, A42.1, A42.3 (no-shows).
    """
    names = names or {}
    machines = machines or {}

    def who(players: Sequence[PlayerId]) -> str:
        return _names([names.get(p, p) for p in players])

    notes = list(_no_show_notes(state, who))
    if state.status not in ("complete", "tiebreaker_needed") or not record.games:
        return tuple(notes)  # no totals to compare (a walkover plays no game)
    present = [p for p in state.players if p not in state.absent]
    ranked = sorted(present, key=lambda p: -state.totals[p])
    for total, group in groupby(ranked, key=state.totals.__getitem__):
        members = set(group)
        tied = tuple(p for p in present if p in members)
        if len(tied) < 2:
            continue
        head = f"{who(tied)} tied on {_points(total)}"
        if tied in state.tied:
            stake = "their places" if state.match == "F" else "who goes through"
            notes.append(
                f"{head}; a tiebreaker game on a machine drawn at random decides {stake} [R6.5-b]"
            )
            continue
        if state.status != "complete":
            continue
        game = next(
            (g for g in record.tiebreakers if sorted(g.finishing_order()) == sorted(tied)), None
        )
        if game is None:
            notes.append(
                f"{head}; {_shared_fate(state, tied)}, so no tiebreaker game was needed [A40]"
            )
        else:
            notes.append(f"{head}; {_tiebreaker_result(state, game, who, machines)} [R6.5-a]")
    return tuple(notes)


def _no_show_notes(state: PlayoffMatchState, who: _Who) -> tuple[str, ...]:
    """R6.6-c, R6.6-d, A42: who was disqualified for not being there, and what it changed."""
    if not state.absent:
        return ()
    present = [p for p in state.players if p not in state.absent]
    were = "was" if len(state.absent) == 1 else "were"
    head = f"{who(state.absent)} {were} not there at the start of the {state.round}"
    if state.match == "F":
        return (f"{head}, so {_is(state.absent)} placed after everyone who played [A42.1]",)
    if len(present) == 3:
        return (
            f"{head} and {_is(state.absent)} out; the other three play for 4, 2 and 1 points "
            "a game and only one of them goes out [R6.6-d]",
        )
    goes = "goes" if len(present) == 1 else "go"
    through = f"; {who(present)} {goes} through without playing" if present else ""
    return (f"{head} and {_is(state.absent)} out{through} [A42.3]",)


def _tiebreaker_result(
    state: PlayoffMatchState, game: PlayoffGame, who: _Who, machines: Mapping[str, str]
) -> str:
    """How a recorded tiebreaker game ordered the tied players, and what that decided."""
    order = game.finishing_order()
    machine = machines.get(game.machine)
    on = f" on {machine}" if machine else ""
    if state.match == "F":
        place = {p: _ordinal(state.placing.index(p) + 1) for p in order}
        if len(order) == 2:
            return f"{who(order[:1])} won the tiebreaker game{on} and places {place[order[0]]}"
        return f"the tiebreaker game{on} placed " + _names(
            [f"{who((p,))} {place[p]}" for p in order]
        )
    through = [p for p in order if p in state.advancing]
    out = [p for p in order if p not in state.advancing]
    if len(order) == 2:
        result = f"{who(order[:1])} won the tiebreaker game{on}"
        return result + (" and goes through" if through and out else "")
    result = f"the tiebreaker game{on} went {', '.join(who((p,)) for p in order)}"
    if through and out:
        result += f", so {who(through)} {'goes' if len(through) == 1 else 'go'} through"
    return result


def _shared_fate(state: PlayoffMatchState, tied: Sequence[PlayerId]) -> str:
    """What equal totals that decide nothing share (A40): going through, or going out."""
    every = "both" if len(tied) == 2 else "all"
    if all(p in state.advancing for p in tied):
        return f"{every} go through"
    return f"{every} are out"


_Who = Callable[[Sequence[PlayerId]], str]


def _points(total: int) -> str:
    return f"{total} point" if total == 1 else f"{total} points"


def _is(players: Sequence[PlayerId]) -> str:
    return "is" if len(players) == 1 else "are"


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"
