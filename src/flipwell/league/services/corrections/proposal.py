"""The proposed sheet of a correction, and what the rules take of its claims (R3-b, R3.2-i).

Words:
- *correction request*: a claim that machine scores in a confirmed game were recorded wrongly
  (see `flipwell.rules.corrections`); its *proposed sheet* is the confirmed sheet with the
  claimed scores, stored as an unconfirmed correction version.
- *quorum*: the players the LO asks (by default those who played the game, A45.1).
- *claim*: one player's recorded machine score and the one claimed instead.
- *counted sheet*: the game's latest confirmed version, the one the correction corrects.

The proposed sheet carries its own tie orders (R3.2-i): those given with the request, and the
counted sheet's orders among players still tied on the proposed sheet. The standings use the
orders of the counted version only (`league.adapters.season_facts.counted_tie_orders`), so a
correction that breaks, keeps or creates a tie is scored with the right orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import counted_tie_orders
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import rules_edge
from flipwell.league.services.scores.sheet_points import game_points_of
from flipwell.rules import CorrectionRequest as ClaimedError
from flipwell.rules import LoOverride, decide_correction
from flipwell.rules.corrections import correction_quorum


@dataclass(frozen=True)
class Asked:
    """A correction as asked: the game, who asks and why, the claimed scores and the new tie
    orders by player id, and the group's players in ladder order."""

    game: m.Game
    requested_by: m.Player
    why: str
    scores: dict[int, int]
    ties: list[list[int]]
    members: list[int]


@dataclass(frozen=True)
class Proposal:
    """The proposed sheet: the counted version it corrects, its scores, who is asked (the
    quorum, A45.1) and its tie orders (R3.2-i)."""

    base: m.ScoreSubmission
    sheet: dict[int, int | None]
    quorum: tuple[str, ...]
    carried: list[list[int]]


def propose(asked: Asked, *, lo: LoOverride | None) -> Proposal:
    """The proposed sheet: the counted one with the claimed scores, each claim as the rules
    take it before anyone answers (R3-b, A45.2), scoring with its tie orders (R3.2-i)."""
    game = asked.game
    _check_no_discarded_score(game)
    base = _counted(game)
    base_sheet = dict(base.lines.values_list("player_id", "machine_score"))
    proposed_sheet = _proposed(base_sheet, asked.scores)
    claims = claims_of(game, base_sheet, proposed_sheet, asked.requested_by)
    quorum = quorum_of(asked.members, base_sheet, game.group.meet.season)
    for claim in claims:
        with rules_edge("scores", code="correction_refused"):
            decide_correction(
                claim,
                (),
                quorum=quorum,
                meet_closed=lo is not None,
                override=lo,
                ruleset=season_ruleset(game.group.meet.season),
            )
    carried = _proposed_tie_orders(game, proposed_sheet, asked.ties)
    return Proposal(base=base, sheet=proposed_sheet, quorum=quorum, carried=carried)


def _proposed_tie_orders(
    game: m.Game, sheet: Mapping[int, int | None], ties: list[list[int]]
) -> list[list[int]]:
    """The proposed sheet's tie orders: those given, and the counted sheet's among players
    still tied (R3.2-i). The sheet must score with them; a recorded one-ball playoff keeps
    its order (a correction changes machine scores only)."""
    stored_ties = [list(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())]
    carried = [*ties, *carried_tie_orders(stored_ties, sheet, given=ties)]
    game_points_of(game, sheet, carried)  # the proposed sheet must score (R3.2-i)
    for order in ties:
        if order not in stored_ties and any(set(order) == set(s) for s in stored_ties):
            raise Refusal(
                {
                    "tie_order": "The one-ball playoff between these players is already "
                    "recorded in another order; a correction changes machine scores only."
                },
                code="tie_order_recorded",
            )
    return carried


def carried_tie_orders(
    orders: Sequence[Sequence[int]],
    sheet: Mapping[int, int | None],
    *,
    given: Sequence[Sequence[int]],
) -> list[list[int]]:
    """The parts of the counted sheet's tie orders whose players are still tied on `sheet`
    (R3.2-i), leaving out players a new order given with the request names."""
    named = {p for order in given for p in order}
    carried: list[list[int]] = []
    for order in orders:
        by_score: dict[int, list[int]] = {}
        for player in order:
            score = sheet.get(player)
            if score is not None and player not in named:
                by_score.setdefault(score, []).append(player)
        carried.extend(players for players in by_score.values() if len(players) > 1)
    return carried


def _counted(game: m.Game) -> m.ScoreSubmission:
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .first()
    )
    if counted is None:
        raise ConflictError(
            {
                "game": f"Game {game.number} has no confirmed scores: enter a new sheet instead "
                "(R3-a)."
            },
            code="game_not_confirmed",
        )
    return counted


def _proposed(base: Mapping[int, int | None], changes: Mapping[int, int]) -> dict[int, int | None]:
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=list(changes))}
    proposed = dict(base)
    for player, score in changes.items():
        name = names.get(player, f"player #{player}")
        if player not in base:
            raise Refusal(
                {"scores": f"{name} is not in this game."}, code="not_in_game", players=[player]
            )
        if base[player] is None:
            raise Refusal(
                {
                    "scores": f"{name} did not play this game (a forfeit): a correction changes "
                    "a recorded machine score (R3-b)."
                },
                code="forfeit_not_correctable",
                players=[player],
            )
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise Refusal(
                {"scores": f"{name}'s score must be a whole number of 0 or more, got {score!r}."},
                code="invalid_score",
                players=[player],
                part="machine_score",
            )
        proposed[player] = score
    return proposed


def _check_no_discarded_score(game: m.Game) -> None:
    """A game with a discarded score waits for its replay, not a correction (R7.4-c, A58)."""
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    if counted is not None and m.DiscardedScore.objects.filter(game=game, version=counted).exists():
        raise ConflictError(
            {
                "game": f"Game {game.number}'s scores were discarded after a positive malfunction "
                "(R7.4-c): record the replay, not a correction."
            },
            code="scores_discarded",
        )


def claims_of(
    game: m.Game,
    base: Mapping[int, int | None],
    proposed: Mapping[int, int | None],
    requested_by: m.Player,
) -> list[ClaimedError]:
    claims = []
    for player, old in base.items():
        new = proposed[player]
        if old is not None and new is not None and new != old:
            claims.append(
                ClaimedError(
                    game=str(game.pk),
                    player=player_key(player),
                    recorded=old,
                    corrected=new,
                    requester=player_key(requested_by.pk),
                )
            )
    if not claims:
        raise Refusal(
            {"scores": "These are the scores already recorded: there is nothing to correct."},
            code="no_change",
        )
    return claims


def quorum_of(
    members: Sequence[int], sheet: Mapping[int, int | None], season: m.Season
) -> tuple[str, ...]:
    with rules_edge(code="correction_refused"):
        return correction_quorum(
            group=[player_key(p) for p in members],
            played=[player_key(p) for p in members if sheet.get(p) is not None],
            ruleset=season_ruleset(season),
        )
