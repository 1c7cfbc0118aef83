"""A season: its meets folded, in order, into standings; and the next meet's ladder and groups.

Words:
- *season facts*: what happened: the entrants, when each joined, and for every meet its
  groups' matches, announced absences and violations. Nothing derived is stored in them.
- *night*: one player's line for one meet: game points, match bonus, the §2.4 credit,
  forfeits, and how he took part (played, absent, not yet joined, out of the league).
- *standing*: a player's season so far: league points (exact), games played, forfeits,
  countable forfeits, season forfeited and at which meet, credit used, offenses.
- *active*: joined, and neither season-forfeited (§2.5) nor suspended (§8.5, §8.8).

Folding is a pure function of the facts: change a fact and fold again (R3-e). The facts and
the results (`SeasonFacts`, `Night`, `Standing`, `SeasonResult`, ...) are `season_values`'.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError, about_players, listed
from flipwell.rules.forfeits import (
    match_forfeits,
    night_forfeit_credit,
    season_forfeited,
)
from flipwell.rules.grouping import group_sizes, initial_ladder, ranked_ladder, split_into_groups
from flipwell.rules.match import (
    GAMES_PER_MATCH,
    GameFacts,
    MatchFacts,
    PlayerMatch,
    match_as_played,
    score_checked_match,
)
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season_values import (
    MeetFacts,
    MeetResult,
    Night,
    NightStatus,
    SeasonFacts,
    SeasonResult,
    Standing,
    ViolationFacts,
)
from flipwell.rules.values import PlayerId
from flipwell.rules.violations import PenaltyDecision, penalty_decision


@dataclass
class _Tally:
    """Running totals for one player while the fold walks the meets."""

    nights: list[Night] = field(default_factory=list)
    points: Fraction | int = 0
    """Running sum of the nights' league points (kept so each meet's ladder is cheap)."""
    countable_forfeits: int = 0
    offenses: int = 0
    credit_used_at: int | None = None
    season_forfeited_at: int | None = None
    season_forfeited_game: int | None = None
    suspended_at: int | None = None

    @property
    def active(self) -> bool:
        return self.season_forfeited_at is None and self.suspended_at is None


def fold_season(
    facts: SeasonFacts,
    *,
    ruleset: Ruleset = FWPL_V1,
    explain: bool = False,
) -> SeasonResult:
    """Fold every meet of a season into standings and the next ladder (§2.4, §2.5, §3, §4, §8.5).

    explain: also write why each point was given (each game's and match bonus's `PointLine`s,
    `MatchResult.explanation`). Without it the result has the same numbers and no lines, for
    the many readers that only need points: the lines cost more than the points themselves.

    R3.3-a: match bonus counts like game points. R2.4-d/e: the all-night credit. R2.4-f: late
    entrants forfeit the games before they joined. R2.5-a: 12 countable forfeits forfeit the
    season. R8.5-b..f: serious violations are cumulative; the third (or violence, vandalism,
    cheating) forfeits the season and wipes the player's scores. R3.1-b, R4.3-c: each meet's
    ladder comes from the season's league points so far.
    """
    players = check_unique((e.player for e in facts.entrants), what="the entrants")
    joined = _joined_at(facts, players)
    meets_in_order = _in_order(facts.meets)  # each match was checked when made (MatchFacts)
    tallies = {p: _Tally() for p in players}
    suspended = _suspensions(facts, ruleset) if ruleset.third_offense_rescore_others else {}
    # A re-scored season still had the ladders it was played with: groups already drawn are
    # never redrawn (A45.3), so take each meet's ladder from the season as played.
    as_played = (
        fold_season(facts, ruleset=replace(ruleset, third_offense_rescore_others=False))
        if suspended
        else None
    )
    meets: list[MeetResult] = []
    previous: list[PlayerId] = []
    for index, meet in enumerate(meets_in_order):
        current = (
            list(as_played.meets[index].ladder)
            if as_played is not None
            else _meet_ladder(facts, meet.number, joined, tallies, previous, ruleset)
        )
        result = _fold_meet(facts, meet, current, joined, tallies, suspended, ruleset, explain)
        meets.append(result)
        previous = list(current)
    next_ladder = _active_ladder(tallies, previous, joined, len(meets) + 1, facts, ruleset)
    standings = {p: _standing(p, t) for p, t in tallies.items()}
    return SeasonResult(meets=tuple(meets), players=standings, ladder=tuple(next_ladder))


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


def may_play_game(standing: Standing, *, meet: int, game: int) -> bool:
    """Whether the player may still play game `game` of meet `meet` (§2.5, R2.5-b, A65).

    A season forfeit takes effect at the moment of the 12th countable forfeit, even mid-night:
    his games of that meet up to that forfeit stand, the later ones are not played.
    """
    at = standing.season_forfeited_at
    if at is None or at > meet:
        return True
    if at < meet or standing.season_forfeited_game is None:
        return False
    return game <= standing.season_forfeited_game


def scores_adjusted_at(facts: SeasonFacts, result: SeasonResult, meet: int) -> bool:
    """Whether a game of meet `meet` ranks a player by another score than the one entered: a
    compensatory game (R7.3-m), a 25% reduction (R8.1-b), a zero score (R8.2-a, R8.7-a) or a
    §8.5 penalty (R8.5-c) of `result`, the fold of `facts`.

    Only such a game's explained scoring says more about its scores than the numbers do (the
    reasons for each adjustment); without one, a reader of the meet's scores needs no
    explained fold (the meet board after every score)."""
    if not 1 <= meet <= len(facts.meets):
        return False
    penalized = meet <= len(result.meets) and any(result.meets[meet - 1].penalties.values())
    return penalized or any(
        game.adjusted for match in facts.meets[meet - 1].groups for game in match.games
    )


def _in_order(meets: Sequence[MeetFacts]) -> list[MeetFacts]:
    numbers = [check_count(m.number, what="meet number", minimum=1) for m in meets]
    if numbers != list(range(1, len(meets) + 1)):
        raise RuleError(f"meets must be numbered 1, 2, 3... in order; got {numbers}")
    return list(meets)


def _joined_at(facts: SeasonFacts, players: Sequence[PlayerId]) -> dict[PlayerId, int]:
    unknown = sorted(set(facts.joined_at) - set(players))
    if unknown:
        raise about_players("joined_at names {players}, who is not an entrant", "players", unknown)
    return {
        p: check_count(
            facts.joined_at.get(p, 1), what="{player}'s joining meet", player=p, minimum=1
        )
        for p in players
    }


def _meet_ladder(
    facts: SeasonFacts,
    number: int,
    joined: Mapping[PlayerId, int],
    tallies: Mapping[PlayerId, _Tally],
    previous: Sequence[PlayerId],
    ruleset: Ruleset,
) -> list[PlayerId]:
    if number == 1:
        starters = [e for e in facts.entrants if joined[e.player] <= 1]
        return initial_ladder(starters, ruleset=ruleset)
    return _active_ladder(tallies, previous, joined, number, facts, ruleset)


def _active_ladder(
    tallies: Mapping[PlayerId, _Tally],
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


def _fold_meet(
    facts: SeasonFacts,
    meet: MeetFacts,
    current: Sequence[PlayerId],
    joined: Mapping[PlayerId, int],
    tallies: dict[PlayerId, _Tally],
    suspended: Mapping[PlayerId, int],
    ruleset: Ruleset,
    explain: bool,
) -> MeetResult:
    grouped = _check_attendance(meet, current, tallies)
    matches = [
        _without_season_forfeited(
            _without_suspended(match_as_played(m), suspended, meet.number), tallies, ruleset
        )
        for m in meet.groups
    ]
    decisions, penalties = _penalty_decisions(meet, matches, tallies, ruleset)
    results = tuple(
        score_checked_match(
            m, penalties=_penalties_for(m, penalties), ruleset=ruleset, explain=explain
        )
        for m in matches
    )
    for result in results:
        finished = meet.closed or len(result.games) == GAMES_PER_MATCH
        for line in result.players.values():
            night = _played_night(meet.number, line, closed=meet.closed, finished=finished)
            _record_night(tallies[line.player], night, ruleset)
    for player, tally in tallies.items():
        if player not in grouped:
            absent = _absent_night(player, meet, joined, tally, facts, ruleset)
            if absent is not None:
                _record_night(tally, absent, ruleset)
    _apply_offenses(meet, decisions, tallies)
    expected = _expected_groups(current, meet, ruleset)
    return MeetResult(
        number=meet.number,
        ladder=tuple(current),
        expected_groups=expected,
        matches=results,
        penalties=penalties,
        decisions=tuple(decisions),
    )


def _check_attendance(
    meet: MeetFacts, current: Sequence[PlayerId], tallies: Mapping[PlayerId, _Tally]
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


def _expected_groups(
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


def _penalty_decisions(
    meet: MeetFacts,
    matches: Sequence[MatchFacts],
    tallies: Mapping[PlayerId, _Tally],
    ruleset: Ruleset,
) -> tuple[list[PenaltyDecision], dict[PlayerId, tuple[int, ...]]]:
    """Each violation's §8.5 decision in order, and player -> the games his penalties fall on.

    Offenses are counted as the meet goes (R8.5-b); a penalty's target game is chosen from the
    match as scored with the earlier penalties (R8.5-c, R8.5-d, A27).
    """
    decisions: list[PenaltyDecision] = []
    penalties: dict[PlayerId, tuple[int, ...]] = {}
    if not meet.violations:
        return decisions, penalties
    offenses = {p: t.offenses for p, t in tallies.items()}
    for facts in meet.violations:
        player = facts.player
        if player not in tallies:
            raise RuleError.about(
                "a violation names {player}, who is not an entrant", players={"player": player}
            )
        match = next((m for m in matches if player in m.players), None)
        decision = penalty_decision(
            facts.violation,
            prior_offenses=offenses[player],
            points_by_game=_completed_points(facts, match, penalties, ruleset),
            current_game=_current_game(facts, match, closed=meet.closed),
            ruleset=ruleset,
        )
        decisions.append(decision)
        offenses[player] = decision.offense or offenses[player]
        if decision.effect == "game_forfeit" and match is not None:
            game = decision.game or _untargeted_game(facts, match, decision)
            # While the meet is open, the game in progress may have no confirmed scores yet:
            # its penalty applies once the game is recorded.
            if game is not None and game <= len(match.games):
                penalties[player] = (*penalties.get(player, ()), game)
                decisions[-1] = replace(decision, game=game)
    return decisions, penalties


def _current_game(facts: ViolationFacts, match: MatchFacts | None, *, closed: bool) -> int | None:
    """The game in progress; an open meet's may be beyond the games recorded so far."""
    if facts.current_game is None or match is None:
        return None
    return _game_number(facts.current_game, len(match.games) if closed else GAMES_PER_MATCH)


def _completed_points(
    facts: ViolationFacts,
    match: MatchFacts | None,
    earlier: Mapping[PlayerId, tuple[int, ...]],
    ruleset: Ruleset,
) -> list[int | None]:
    """His league points in the games his group had completed (None where he forfeited)."""
    completed = check_count(facts.games_completed, what="games completed")
    if match is None or facts.current_game is not None or completed == 0:
        return []
    if completed > len(match.games):
        raise RuleError.about(
            "{player}'s group completed at most {games} games",
            players={"player": facts.player},
            values={"games": str(len(match.games))},
        )
    scored = score_checked_match(
        match, penalties=_penalties_for(match, earlier), ruleset=ruleset, explain=False
    )
    line = scored.players[facts.player]
    return [
        None if facts.player in scored.games[i].forfeits else line.game_points[i]
        for i in range(completed)
    ]


def _untargeted_game(
    facts: ViolationFacts, match: MatchFacts, decision: PenaltyDecision
) -> int | None:
    """A27.2 and A27.4: before his first game, his next game, or the LO's choice."""
    if facts.target_game is not None:
        return _game_number(facts.target_game, len(match.games))
    if decision.target == "lo_decision":
        raise RuleError.about(
            "{player}'s violation came before their first game: the LO must choose the game the "
            "penalty falls on (A27)",
            players={"player": facts.player},
        )
    return next(
        (i for i, g in enumerate(match.games, 1) if g.scores.get(facts.player) is not None),
        None,
    )


def _game_number(number: int, games: int) -> int:
    check_count(number, what="game number", minimum=1)
    if number > games:
        raise RuleError(f"game {number} is not in a match of {games} games")
    return number


def _penalties_for(
    match: MatchFacts, penalties: Mapping[PlayerId, tuple[int, ...]]
) -> dict[int, frozenset[PlayerId]]:
    if not penalties:
        return {}
    by_game: dict[int, set[PlayerId]] = {}
    for player, games in penalties.items():
        if player in match.players:
            for game in games:
                by_game.setdefault(game, set()).add(player)
    return {g: frozenset(ps) for g, ps in by_game.items()}


def _apply_offenses(
    meet: MeetFacts, decisions: Sequence[PenaltyDecision], tallies: dict[PlayerId, _Tally]
) -> None:
    """Count serious violations; a third offense forfeits the season and wipes his scores."""
    for decision in decisions:
        tally = tallies[decision.violator]
        if decision.offense is not None:
            tally.offenses = decision.offense
        if decision.suspended and tally.suspended_at is None:
            tally.suspended_at = meet.number
            _wipe(tally)  # R8.5-e: "the player's scores are wiped"


def _suspensions(facts: SeasonFacts, ruleset: Ruleset) -> dict[PlayerId, int]:
    """Player -> meet of his third offense. Offense counts depend on no points (R8.5-b), so
    they can be found before the fold, as `third_offense_rescore_others` needs (A36)."""
    counts: dict[PlayerId, int] = {}
    suspended: dict[PlayerId, int] = {}
    for meet in facts.meets:
        for facts_ in meet.violations:
            decision = penalty_decision(
                facts_.violation, prior_offenses=counts.get(facts_.player, 0), ruleset=ruleset
            )
            counts[facts_.player] = decision.offense or counts.get(facts_.player, 0)
            if decision.suspended:
                suspended.setdefault(facts_.player, meet.number)
    return suspended


def _without_suspended(
    match: MatchFacts, suspended: Mapping[PlayerId, int], meet: int
) -> MatchFacts:
    """With `third_offense_rescore_others`, a suspended player's games count as his forfeits
    up to his suspension, so the others are re-scored without him (A36 alternative)."""
    if not suspended:
        return match
    wiped = {p for p, at in suspended.items() if at >= meet and p in match.players}
    if not wiped:
        return match
    games = tuple(
        replace(
            g,
            scores={p: (None if p in wiped else s) for p, s in g.scores.items()},
            tie_order=tuple(tuple(p for p in o if p not in wiped) for o in g.tie_order),
            compensatory={p: c for p, c in g.compensatory.items() if p not in wiped},
            reduced=g.reduced - wiped,
            zeroed={p: z for p, z in g.zeroed.items() if p not in wiped},
            non_countable=g.non_countable | wiped,
            corrections=tuple(c for c in g.corrections if c.player not in wiped),
        )
        for g in match.games
    )
    return replace(match, games=games)


def _without_season_forfeited(
    match: MatchFacts, tallies: Mapping[PlayerId, _Tally], ruleset: Ruleset
) -> MatchFacts:
    """R2.5-b, A65: once a game's forfeit is a player's last allowed countable one (the
    ruleset's `season_forfeit_limit`-th, 12th in the rulebook), his later games of
    the match are not played: his score there (if any was recorded) is dropped, the forfeit is
    not countable, and the game is scored among the players who remain (R2.4-c)."""
    games = match.games
    for player in match.players:
        if tallies[player].countable_forfeits + len(games) < ruleset.season_forfeit_limit:
            continue  # even forfeiting every game of the match cannot reach it (R2.5-a)
        countable = [g.scores.get(player) is None and player not in g.non_countable for g in games]
        counted = match_forfeits(tallies[player].countable_forfeits, countable, ruleset=ruleset)
        at = counted.season_forfeit_game
        if at is None:
            continue
        tallies[player].season_forfeited_game = at
        games = tuple(
            _without_player(g, player) if number > at else g
            for number, g in enumerate(games, start=1)
        )
    return replace(match, games=games) if games != match.games else match


def _without_player(game: GameFacts, player: PlayerId) -> GameFacts:
    """The game with `player` taking no part: no score, a forfeit that is not countable."""
    return replace(
        game,
        scores={**game.scores, player: None},
        tie_order=tuple(tuple(p for p in o if p != player) for o in game.tie_order),
        compensatory={p: c for p, c in game.compensatory.items() if p != player},
        reduced=game.reduced - {player},
        zeroed={p: z for p, z in game.zeroed.items() if p != player},
        non_countable=game.non_countable | {player},
        corrections=tuple(c for c in game.corrections if c.player != player),
    )


def _played_night(meet: int, line: PlayerMatch, *, closed: bool, finished: bool) -> Night:
    """A grouped player's night; while the meet is open it is provisional (`in_progress`)."""
    status: NightStatus = "absent_unannounced" if line.absent else "played"
    if not closed:
        status = "in_progress"
    return Night(
        meet=meet,
        status=status,
        game_points=line.game_points,
        match_bonus=line.match_bonus if finished else 0,
        credit=_NO_CREDIT,
        games_played=line.games_played,
        forfeits=line.forfeits,
        countable_forfeits=line.countable_forfeits,
    )


_NO_CREDIT = Fraction(0)


def _absent_night(
    player: PlayerId,
    meet: MeetFacts,
    joined: Mapping[PlayerId, int],
    tally: _Tally,
    facts: SeasonFacts,
    ruleset: Ruleset,
) -> Night | None:
    """A night for a player in no group: announced absent, not yet joined, or out."""
    if not tally.active:
        return None  # out of the league: no more forfeits (R2.5-b)
    if meet.number < joined[player]:
        countable = (
            ruleset.late_join_forfeits_countable and player not in facts.late_join_non_countable
        )
        status: NightStatus = "not_joined"  # R2.4-f, A46
    else:
        countable = True  # R2.4-h: countable unless the LO says otherwise
        status = "absent_announced"
    # R2.5-a, A65: counted as game by game, it stops at his 12th countable forfeit. He is out
    # for the whole night (no game of it is his), so no season-forfeiting game is kept.
    counted = match_forfeits(
        tally.countable_forfeits, [countable] * GAMES_PER_MATCH, ruleset=ruleset
    )
    return Night(
        meet=meet.number,
        status=status,
        forfeits=GAMES_PER_MATCH,
        countable_forfeits=counted.countable,
    )


def _record_night(tally: _Tally, night: Night, ruleset: Ruleset) -> None:
    """Add a night, granting the §2.4 credit to an all-night forfeit, and check §2.5."""
    status = night.status
    if status == "played" or status == "in_progress":
        points: Fraction | int = sum(night.game_points) + night.match_bonus  # no credit: played
    else:
        if status in ("absent_announced", "absent_unannounced"):
            night = _with_credit(night, tally, ruleset)
        elif status == "not_joined" and ruleset.late_join_forfeits_use_credit:
            # A14.5 alternative: a night before joining is his (unpaid) all-night forfeit.
            tally.credit_used_at = tally.credit_used_at or night.meet
        points = night.league_points
    tally.nights.append(night)
    tally.points += points
    tally.countable_forfeits += night.countable_forfeits
    counted = night.countable_forfeits > 0  # only a new countable forfeit can make the 12th
    if (
        counted
        and tally.season_forfeited_at is None
        and season_forfeited(tally.countable_forfeits, ruleset=ruleset)
    ):
        tally.season_forfeited_at = night.meet  # R2.5-a
        if not ruleset.season_forfeit_keeps_points:  # A37 alternative
            _wipe(tally)


def _with_credit(night: Night, tally: _Tally, ruleset: Ruleset) -> Night:
    """R2.4-d, R2.4-e, A14: the ruleset's credit share (50%) of his average night so far, once
    a season by default."""
    played = [n for n in tally.nights if n.games_played > 0]
    credit = night_forfeit_credit(
        _credit_basis(played, ruleset),
        credit_used=tally.credit_used_at is not None,
        ruleset=ruleset,
    )
    if tally.credit_used_at is None and (played or ruleset.zero_credit_without_history_uses_credit):
        tally.credit_used_at = night.meet
    return replace(night, credit=credit)


def _credit_basis(played: Sequence[Night], ruleset: Ruleset) -> list[Fraction | int]:
    """The nightly values averaged for the credit (A14.1)."""
    basis = ruleset.forfeit_credit_basis
    if basis == "game_points_excl_match_bonus":
        return [sum(n.game_points) for n in played]
    if basis == "per_game_times_4" and played:
        games = sum(n.games_played for n in played)
        total = sum(n.league_points for n in played)
        return [Fraction(GAMES_PER_MATCH * total, games)]
    return [n.league_points for n in played]


def _wipe(tally: _Tally) -> None:
    """Zero every night's points, keeping its attendance and forfeits."""
    tally.nights = [
        replace(n, game_points=tuple(0 for _ in n.game_points), match_bonus=0, credit=Fraction(0))
        for n in tally.nights
    ]
    tally.points = 0


def _standing(player: PlayerId, tally: _Tally) -> Standing:
    return Standing(
        player=player,
        league_points=Fraction(tally.points),
        nights=tuple(tally.nights),
        games_played=sum(n.games_played for n in tally.nights),
        forfeits=sum(n.forfeits for n in tally.nights),
        countable_forfeits=tally.countable_forfeits,
        offenses=tally.offenses,
        credit_used_at=tally.credit_used_at,
        season_forfeited_at=tally.season_forfeited_at,
        season_forfeited_game=(
            tally.season_forfeited_game if tally.season_forfeited_at is not None else None
        ),
        suspended_at=tally.suspended_at,
    )
