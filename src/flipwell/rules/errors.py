"""The one exception the rules library raises for bad input.

A `RuleError` is a user's mistake (a negative score, an unresolved tie, five players to group):
its message names the problem and, where it helps, what would be allowed.

Words: a *structured* error (`RuleError.about`) keeps its message as a `str.format` template
with the players it names as player keys (`players`) and the rest as written text (`values`),
like an explanation's `PointLine`, so a front end can write the players by name (`render`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

_NONE: Mapping[str, str] = MappingProxyType({})


class RuleError(ValueError):
    """Input that the FWPL rules cannot accept; the message says what is wrong."""

    template: str = ""
    players: Mapping[str, str] = _NONE
    values: Mapping[str, str] = _NONE

    @classmethod
    def about(
        cls,
        template: str,
        *,
        players: Mapping[str, str],
        values: Mapping[str, str] = _NONE,
    ) -> RuleError:
        """A RuleError whose message is `template` with the player keys of `players` (field ->
        key) and the text of `values` filled in; `render` writes the players by name."""
        error = cls(template.format_map({**values, **players}))
        error.template, error.players, error.values = template, dict(players), dict(values)
        return error

    def render(self, names: Mapping[str, str]) -> str:
        """The message with each player written as `names[key]` (the key when not in `names`);
        the plain message for an error that is not structured."""
        if not self.template:
            return str(self)
        players = {name: names.get(key, key) for name, key in self.players.items()}
        return self.template.format_map({**self.values, **players})


def listed(field: str, players: Sequence[str], *, last: str = ", ") -> tuple[str, dict[str, str]]:
    """A template part naming several players, "{field0}, {field1}", and its players; `last`
    joins the last two (" and " gives "{field0}, {field1} and {field2}")."""
    fields = {f"{field}{i}": p for i, p in enumerate(players)}
    parts = [f"{{{f}}}" for f in fields]
    if len(parts) < 2:
        return "".join(parts), fields
    return ", ".join(parts[:-1]) + last + parts[-1], fields


def about_player(template: str, player: str, **values: str) -> RuleError:
    """A structured RuleError naming one player as `{player}` (the rest of `values` as text)."""
    return RuleError.about(template, players={"player": player}, values=values)


def about_players(template: str, field: str, players: Sequence[str], **values: str) -> RuleError:
    """A structured RuleError naming `players` where `template` says `{field}` ("A and B")."""
    names, fields = listed(field, players, last=" and ")
    return RuleError.about(
        template.replace("{" + field + "}", names), players=fields, values=values
    )
