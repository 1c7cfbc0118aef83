"""What a violation's notices say (§8): the violator's notice of a violation and its §8.5
penalty, and the notice to the player responsible for a restarted game (§8.6). The league
queues their facts (`flipwell.league.notices.PenaltyFacts`, `RestartFacts`); these put them in
words for `flipwell.web.emails`.

Words: *label* is the violation's kind as a person reads it ("Played an opponent's ball
(§8.2)"), the model's. Plain values in, text out: no query, no decision (the rules decided).
"""

from __future__ import annotations

from flipwell.league import models as m
from flipwell.league.notices import PenaltyFacts, RestartFacts


def penalty_notice(about: PenaltyFacts) -> tuple[str, list[str]]:
    """The violator's notice: what was recorded, and its §8.5 penalty."""
    label = m.Violation.Kind(about.kind).label
    details = [f"{label}, in group {about.group}."]
    if about.offense is not None:
        details.append(f"It is a serious violation: your offense {about.offense} this season.")
    if about.effect == "game_forfeit":
        which = f"game {about.game}" if about.game else "a game"
        details.append(f"Penalty: {which} of your match is forfeited (§8.5).")
    elif about.effect == "season_forfeit":
        details.append("Penalty: your season is forfeited (R8.5-e).")
    return f"a violation recorded at meet {about.meet}", details


def restart_notice(about: RestartFacts) -> tuple[str, list[str]]:
    """The notice to the player responsible for a restart (R8.6-c, R8.6-d)."""
    details = [
        f"{about.games_started} games were started for {about.players} players: the game "
        "was voided and restarted on the same machine (R8.6-c)."
    ]
    if about.charge_cents:
        cents = about.charge_cents
        details.append(
            f"You are charged {cents // 100}.{cents % 100:02d} for every player's game (R8.6-d)."
        )
    return f"game {about.game} of your group restarted at meet {about.meet}", details
