"""Score corrections (§3): a possible scoring error, the players' recollections, the outcome.

Words:
- *score sheet*: the machine scores as entered and confirmed for a game (R3-a).
- *correction request*: a claimed change to one player's machine score in one game, reported
  to the LO (R3-b).
- *response*: one player's recollection, agreeing with the claim or not (R3-c).
- *quorum*: the players whose agreement a correction needs: by default those who played the
  game, or the whole group (A45.1, `correction_quorum`).
- *outcome*: "applied" when every quorum player agrees, "refused" as soon as one does not (the
  score sheet stands), "pending" while responses are missing (R3-d).
- *LO override*: a league official's acceptance, with a reason, of a request made after the meet
  was closed (A45.2, `corrections_until`). Agreement is still needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_player, check_score, check_unique, fmt
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId, PointLine

CorrectionStatus = Literal["applied", "refused", "pending"]
CORRECTION_RULE = "R3-d"
"""The rule an applied correction's explanation line cites: applied only if all agree."""


@dataclass(frozen=True)
class CorrectionRequest:
    """A claimed scoring error: one player's machine score in one game, as recorded and as
    claimed, and who reported it (R3-b)."""

    game: str
    player: PlayerId
    recorded: int
    corrected: int
    requester: str


@dataclass(frozen=True)
class CorrectionResponse:
    """One player's recollection of a claimed error (R3-c)."""

    player: PlayerId
    agrees: bool


@dataclass(frozen=True)
class LoOverride:
    """A league official's acceptance of a late correction request, with his reason (A45.2)."""

    official: str
    reason: str


@dataclass(frozen=True)
class AppliedCorrection:
    """A machine score corrected after its game was confirmed, as it stands in the counted
    score sheet: the score first recorded, the corrected one, the players who agreed (R3-c,
    R3-d), and the league official who accepted a late request ("" when none was needed,
    A45.2). `recorded` is None when the correction replaced a forfeit."""

    player: PlayerId
    recorded: int | None
    corrected: int | None
    agreed: tuple[PlayerId, ...]
    official: str = ""


def correction_line(correction: AppliedCorrection) -> PointLine:
    """The explanation of an applied correction, a line of no points for the corrected player
    (R3-d): the old and new score, that it was corrected, and who agreed ("Ann's score was
    corrected from 5,120,000 to 51,200,000 after the game was confirmed: Ann, Ben and Cy
    agreed")."""
    c = correction
    fields = {f"agreed{i}": p for i, p in enumerate(c.agreed)}
    names = ["{" + f + "}" for f in fields]
    agreed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
    template = (
        "{player}'s score was corrected from {recorded} to {corrected} after the game was "
        "confirmed: " + (agreed + " agreed" if agreed else "no player had to be asked")
    )
    if c.official:
        template += ", and {official} accepted the late request"
    return PointLine(
        c.player,
        0,
        CORRECTION_RULE,
        template,
        {"player": c.player, **fields},
        {
            "recorded": _score_words(c.recorded),
            "corrected": _score_words(c.corrected),
            "official": c.official,
        },
    )


def _score_words(score: int | None) -> str:
    return "a forfeit" if score is None else fmt(score)


@dataclass(frozen=True)
class CorrectionOutcome:
    """What becomes of a correction request, the score that stands and who is still awaited."""

    status: CorrectionStatus
    score: int
    quorum: tuple[PlayerId, ...]
    awaiting: tuple[PlayerId, ...]
    disagreeing: tuple[PlayerId, ...]
    rule: str
    reason: str


def correction_quorum(
    *,
    group: Sequence[PlayerId],
    played: Sequence[PlayerId],
    ruleset: Ruleset = FWPL_V1,
) -> tuple[PlayerId, ...]:
    """The players who must all agree to a correction of a game's score (R3-c, A45.1).

    By default those who played the game (a player who forfeited it has nothing to recall);
    with `correction_quorum = "whole_group"`, every player of the group. Group order is kept.
    """
    members = check_unique(group, what="the group")
    players = check_unique(played, what="the game's players")
    for player in players:
        if player not in members:
            raise about_player("{player} played the game but is not in the group", player)
    if ruleset.correction_quorum == "whole_group":
        return tuple(members)
    return tuple(p for p in members if p in players)


def decide_correction(
    request: CorrectionRequest,
    responses: Sequence[CorrectionResponse],
    *,
    quorum: Sequence[PlayerId],
    meet_closed: bool = False,
    override: LoOverride | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> CorrectionOutcome:
    """Apply a correction only if every quorum player agrees; otherwise the sheet stands.

    R3-d: "If all players agree, then the scoring will be corrected. However, if not all players
    of the group concur ... the scores as written on the score sheet shall stand." One
    disagreement refuses it; missing responses leave it pending.
    R3-b, R3-c: one response per player, from the quorum only (`correction_quorum`).
    A45.2: after the meet is closed (`corrections_until = "meet_closed"`), a request is
    considered only with an LO override that gives a reason.
    """
    _check_request(request)
    members = _checked_quorum(request, quorum)
    if meet_closed and ruleset.corrections_until == "meet_closed":
        _check_override(override)
    answered = _checked_responses(responses, members)
    disagreeing = tuple(r.player for r in responses if not r.agrees)
    awaiting = tuple(p for p in members if p not in answered)
    change = f"{request.player}'s score {fmt(request.recorded)} → {fmt(request.corrected)}"
    if disagreeing:
        return CorrectionOutcome(
            "refused",
            request.recorded,
            tuple(members),
            awaiting,
            disagreeing,
            "R3-d",
            f"{', '.join(disagreeing)} did not agree to {change}: the score sheet stands",
        )
    if awaiting:
        return CorrectionOutcome(
            "pending",
            request.recorded,
            tuple(members),
            awaiting,
            (),
            "R3-c",
            f"waiting for {', '.join(awaiting)} to respond about {change}",
        )
    return CorrectionOutcome(
        "applied",
        request.corrected,
        tuple(members),
        (),
        (),
        "R3-d",
        f"every player agreed: {change}",
    )


def _checked_quorum(request: CorrectionRequest, quorum: Sequence[PlayerId]) -> list[PlayerId]:
    """The quorum's players, the requester among them (R3-c); RuleError otherwise."""
    members = check_unique(quorum, what="the correction quorum")
    if not members:
        raise RuleError("a correction needs at least one player to agree (R3-c)")
    if request.player not in members:
        raise about_player(
            "{player} is not among the players asked about this game", request.player
        )
    return members


def _checked_responses(
    responses: Sequence[CorrectionResponse], members: Sequence[PlayerId]
) -> list[PlayerId]:
    """The players who answered: one response each, from the quorum only (R3-b, A45)."""
    answered = check_unique((r.player for r in responses), what="the responses")
    for response in responses:
        if response.player not in members:
            raise about_player("{player} is not among the players asked (A45)", response.player)
        if not isinstance(response.agrees, bool):
            raise about_player("{player}'s response must be agree or disagree", response.player)
    return answered


def _check_request(request: CorrectionRequest) -> None:
    if not isinstance(request.game, str) or not request.game.strip():
        raise RuleError(f"a correction request must name its game, got {request.game!r}")
    check_player(request.player)
    check_score(request.recorded, what="recorded score")
    check_score(request.corrected, what="corrected score")
    if not isinstance(request.requester, str) or not request.requester.strip():
        raise RuleError("a correction request must name who reported the error (R3-b)")
    if request.recorded == request.corrected:
        raise RuleError(
            f"the claimed score {fmt(request.corrected)} is the one already recorded: "
            "nothing to correct"
        )


def _check_override(override: LoOverride | None) -> None:
    if override is None:
        raise RuleError(
            "the meet is closed: a correction now needs a league official's override with a "
            "reason (A45.2)"
        )
    if not override.official.strip():
        raise RuleError("a correction override must name the league official (A45.2)")
    if not override.reason.strip():
        raise RuleError("a correction override needs a reason (A45.2)")
