"""The golden season file (tests/data/golden_season.json) imported into a league, for tests
that need a whole played season."""

import datetime
import json
from pathlib import Path

from flipwell.league import models as m
from flipwell.league.services.season_files import import_season_file
from tests import factories as f

FILE = Path(__file__).parent / "data" / "golden_season.json"
GOLDEN = json.loads(FILE.read_text())


def golden_data() -> dict[str, object]:
    """A fresh copy of the golden season file's data, for a module that changes its own."""
    data: dict[str, object] = json.loads(FILE.read_text())
    return data


FIRST_MEET = datetime.date(2026, 1, 7)


def import_golden(
    official: m.LeagueOfficial, name: str, first_meet: datetime.date = FIRST_MEET
) -> m.Season:
    """The golden season imported into `official`'s league as `name`."""
    return import_season_file(
        league=official.league, name=name, data=GOLDEN, first_meet=first_meet, actor=official.user
    )


def tuesday_season() -> m.Season:
    """The golden season as "Winter 2026" of a new league "Tuesday Flippers" (slug tuesday)."""
    official = f.LeagueOfficialFactory(league__slug="tuesday", league__name="Tuesday Flippers")
    return import_golden(official, "Winter 2026")


def import_golden_in_progress(
    official: m.LeagueOfficial, name: str = "Winter 2026", *, played: int = 3
) -> m.Season:
    """The golden season's first `played` meets (closed) imported as a season of all ten
    meets still in progress: the rest are still to play (zoe joins at meet 4, so she has
    played no game yet)."""
    data = {**golden_data(), "number_of_meets": len(GOLDEN["meets"])}
    data["meets"] = GOLDEN["meets"][:played]
    data.pop("expected_standings", None)
    return import_season_file(
        league=official.league, name=name, data=data, first_meet=FIRST_MEET, actor=official.user
    )
