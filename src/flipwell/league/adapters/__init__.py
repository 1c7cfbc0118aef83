"""Adapters: the stored facts of a league, as the plain values `flipwell.rules` computes on.

Words:
- *player key*: how the rules name a player: his database id as a string (`str(player.pk)`).
- *the scores that count*: a game's highest confirmed score submission (§3: a correction is a
  newer confirmed version; an unconfirmed entry is not a fact yet). A game whose counted
  version has a discarded score (R7.4-c, A58) has no scores that count until a newer
  confirmed version (the replay) exists.
- *the tie orders that count*: those entered with the counted version; a game whose counted
  version has none falls back to orders entered without a version (imported seasons).

Every loader runs a fixed number of queries whatever the season's size: rows are fetched per
kind for the whole season, then put together in Python (no query in a loop).

The modules: `keys` (how the rules name players and machines), `rulesets` (a league's and a
season's rules), `season_facts` and `season_queries` (a season's facts), `game_facts` (one
game's facts for a write or a sheet).
"""
