"""The playoff night as read from its facts (§6): qualification, every match, final places.

Words:
- *playoff facts*: what was recorded for the night: the qualifiers (division and seed, the
  bracket the night is played with), the no-shows of each match, each game's machine and
  results, and each match's tiebreakers. `load_playoff_facts` turns them into the rules'
  `PlayoffSeeding` and `PlayoffMatchRecord` values per division.
- *game in progress*: a playoff game started on a machine (its row exists) whose results are
  not recorded yet; the rules see only recorded games.
- *machine key*: a machine's database id as a string, how the rules name a machine here.
- *match table*: a match's players (best first once it is complete) with each game's PAPA
  points and the running total, as the games are recorded (R6.3-a, R6.3-c).
- *notes*: the rules' plain sentences on why the bracket went as it did where totals were
  equal or a player was missing (`flipwell.rules.match_notes`, `seed_playoff_notes`,
  `withdrawal_notes`); each ends with its rule id in brackets, for the page's "why".
- *final places*: from `flipwell.rules.playoff_bracket` once a division's final is complete:
  the final's order, then the eliminated of each earlier round sharing a place. They are
  derived, never stored (see `flipwell.league.models.playoffs`).

Qualification before the bracket is drawn comes from `playoff_qualification` (the season's
final standings, the recorded single-ball playoffs and the withdrawals).

The modules: `facts` (the recorded facts as the rules take them, qualification) and `bracket`
(the bracket, match tables, notes and final places as the pages show them).
"""
