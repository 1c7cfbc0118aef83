"""Score entry at a league night (§3), a module per use case:

=================  ==========================================================================
entry              submit_scores: a player enters a game's sheet, a new unconfirmed version
confirmation       confirm_scores: another player of the group confirms it (R3-a)
sheet_checks       what both check under the game's lock, and the fold with the new sheet
sheet_points       store_sheet, points_once_confirmed, game_points_of: a sheet stored and the
                   game points it gives (shared with corrections and discarded scores)
=================  ==========================================================================

Once confirmed, a sheet changes only through a correction
(`flipwell.league.services.corrections`). Each module's docstring defines its words.
"""
