"""The meet board: what a league night looks like right now, for the LO's screen and the TV.

Words:
- *board*: every group of a meet with its players (ladder order), its games (machine, who chose
  it, confirmed scores, finishing order), who picks the next machine and the play order of the
  game being played or about to be.
- *in use*: a machine with a game of the open meet whose scores are not confirmed yet (flipwell
  does not track the ball being played, so such a machine is never "on its final ball", R5-d).
- *late player*: a player who arrived after their group began play (§2.3): they joined a game
  in progress (a `LateJoin`) or forfeited one as late.
- *ranking score*: the machine score a game ranks a player by (R3.2-a): the score entered, plus
  a compensatory game's (R7.3-m, less what the LO subtracted, R7.3-n/o), reduced by 25%
  (R8.1-b) or set to zero (R8.2-a, R8.7-a) as the season fold says. It differs from the score
  entered only when such an adjustment applies; `adjustments` say why, in words with names.

- *game line* (`RankingLine`): one player's line of a confirmed game, the fold's
  (`flipwell.rules.game_lines`): the score that counts, the score entered, each adjustment
  between them (compensatory, subtracted, reduced, zeroed, penalty, forfeited) in plain words
  with its rule apart, the place and the game points.

The meet board is THE derived view of a meet's games: every screen and API read that shows a
game's scores, places or points (public board and TV, score sheet, console, printed sheets
and results, the API's meet and game reads, exports) reads them here, never from the stored
sheet lines (tests/test_one_view.py holds that rule). Everything derived (finishing orders, game
lines, the picker, the play order) comes from flipwell.rules: the finishing orders and game
lines from the season fold, so compensatory games, zero scores and penalties count.
`meet_board` runs a fixed number of queries whatever the meet's size.

The modules: `board` (a meet's board, one game of it, the fold they read), `values` (what the
board shows), `queries` (its compiled queries and their rows) and `next_games` (who picks the
next machine, the play order, the machines' states, late players, open compensatory games).
"""
