"""The forms of a group's score sheet page (`flipwell.web.views.scoresheet`), unbound, built
from what the sheet shows (`flipwell.league.selectors.scoresheet.ScoreSheet`): who may enter,
confirm, pick, correct, answer or attach a photo, and the entry form filled in as far as the
sheet already says (a pending version's scores, the recorded forfeits)."""

from __future__ import annotations

import uuid
from typing import Any

from flipwell.league.selectors.scoresheet import ScoreSheet
from flipwell.web.forms.corrections import CorrectionAnswerForm, CorrectionRequestForm
from flipwell.web.forms.sheet import ConfirmForm, NextMachineForm, PhotoForm, ScoreEntryForm


def sheet_forms(sheet: ScoreSheet) -> dict[str, Any]:
    """The page's forms, unbound."""
    players = sheet.players

    entry_initial: dict[str, Any] = {
        "idempotency_key": uuid.uuid4().hex,
        "game": sheet.current.id if sheet.current is not None else None,
        "seen_version": sheet.pending.version if sheet.pending is not None else 0,
    }
    if sheet.pending is not None:
        for line in sheet.pending.lines:
            if line.machine_score is None:
                entry_initial[f"forfeit_{line.player_id}"] = True
            else:
                entry_initial[f"score_{line.player_id}"] = f"{line.machine_score:,}"
    for pid in sheet.forfeits:
        entry_initial[f"forfeit_{pid}"] = True
    return {
        "entry_form": ScoreEntryForm(
            players=entry_players(sheet),
            forfeits=sheet.forfeits,
            enterers=sheet.enterers,
            absent=absent_now(sheet),
            initial=entry_initial,
        ),
        "confirm_form": ConfirmForm(
            # Who may confirm is the rules' (R3-a): never the enterer, a player who played.
            players=sheet.pending.confirmers if sheet.pending is not None else (),
            initial={"submission": sheet.pending.submission_id if sheet.pending else None},
        ),
        "next_form": NextMachineForm(
            machines=sheet.selectable,
            initial={"chosen_by": sheet.next_picker[0] if sheet.next_picker else None},
        ),
        "correction_form": CorrectionRequestForm(
            players=players,
            games=[(g.id, f"Game {g.number}: {g.machine}") for g in sheet.correctable],
        ),
        "answer_form": CorrectionAnswerForm(players=players),
        "photo_form": PhotoForm(players=players, initial={"game": _photo_game(sheet)}),
    }


def entry_players(sheet: ScoreSheet) -> list[tuple[int, str]]:
    """The entry form's rows: the play order, then the players who have no turn in it (absent
    for the rest of the match, R2.4-a), whose line says so and takes no score."""
    order = list(sheet.play_order or sheet.players)
    listed = {pid for pid, _ in order}
    return order + [(pid, name) for pid, name in sheet.players if pid not in listed]


def absent_now(sheet: ScoreSheet) -> frozenset[int]:
    """The players absent for the rest of the match at the game in play (R2.4-a)."""
    if sheet.current is None:
        return frozenset()
    return frozenset(pid for pid, _, first in sheet.gone if first <= sheet.current.number)


def _photo_game(sheet: ScoreSheet) -> int | None:
    """The game a photo goes with: the current one, else the last one played."""
    if sheet.current is not None:
        return sheet.current.id
    return sheet.games[-1].id if sheet.games else None
