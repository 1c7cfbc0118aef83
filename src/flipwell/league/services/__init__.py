"""Services: one use case per function, the only code that writes league data.

Each service takes keyword-only, typed arguments, does its work inside one
``transaction.atomic`` and writes the audit log. A user's mistake raises Django's
``ValidationError`` (or a more specific error the service documents) naming the field and what
is allowed; nothing is then written.
"""

from flipwell.league.services.leagues import create_league
from flipwell.league.services.players import ImportResult, import_players_csv, register_player
from flipwell.league.services.seasons import create_season

__all__ = [
    "ImportResult",
    "create_league",
    "create_season",
    "import_players_csv",
    "register_player",
]
