"""What each `Ruleset` setting reads: its rulebook passage and its interpretation (§1-§9).

Words: a *reading* is one setting's explanation for the official who may change it: the rule
IDs of RULES.md it reads (``R2.5-a``), the rulebook sections, the INTERPRETATIONS.md entries
(``A14.1``; none for a plain number of the rulebook the league may change), the entry's title
and its text (the question and flipwell's default). `READINGS` has one reading per field, in
the fields' order (tests/rules/test_readings.py checks it against both documents).

The text, as INTERPRETATIONS.md words it, names settings in code (``Setting playoff_cut_rule =
"table_round_up"``); its *plain text* leaves those out for a person, who reads the setting's
value in words beside it.
"""

from __future__ import annotations

from flipwell.rules.reading import Reading
from flipwell.rules.readings_groups import GROUPS_READINGS
from flipwell.rules.readings_playoffs import PLAYOFF_CUT_READINGS, PLAYOFF_PLAY_READINGS
from flipwell.rules.readings_points import POINTS_READINGS
from flipwell.rules.readings_season import SEASON_READINGS
from flipwell.rules.readings_violations import VIOLATION_READINGS

READINGS: dict[str, Reading] = {
    **PLAYOFF_CUT_READINGS,
    **POINTS_READINGS,
    **GROUPS_READINGS,
    **SEASON_READINGS,
    **VIOLATION_READINGS,
    **PLAYOFF_PLAY_READINGS,
}
"""Every setting's reading, in the order of `Ruleset`'s fields (the groups are written in
``readings_*`` modules, one per part of the rulebook)."""
