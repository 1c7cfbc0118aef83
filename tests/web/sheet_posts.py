"""Posting the phone score sheet's entry form as a phone does: the fields the freshly loaded
sheet names (its game, the version seen), a score or a ticked forfeit per player, tie places.

Words:
- *night*: the ``sheet_night`` fixture of tests/web/conftest.py (its players and sheet URL).
"""

from flipwell.league import models as m


def shown(night):
    """What a freshly loaded sheet's entry names: the group's latest game, its latest version."""
    game = m.Game.objects.filter(group=night.group).order_by("-number").first()
    version = max(game.submissions.values_list("version", flat=True), default=0)
    return {"game": str(game.pk), "seen_version": str(version)}


def entry_data(night, scores, *, entered_by=None, key="key-1", ties=None):
    data = {
        "idempotency_key": key,
        "entered_by": str((entered_by or night.players[0]).pk),
        **shown(night),
    }
    for player, score in zip(night.players, scores, strict=True):
        if score is None:
            data[f"forfeit_{player.pk}"] = "on"
        else:
            data[f"score_{player.pk}"] = score
    for player, place in (ties or {}).items():
        data[f"tie_{player.pk}"] = str(place)
    return data


def enter(client, night, scores, **kwargs):
    return client.post(night.url + "enter/", entry_data(night, scores, **kwargs))
