"""A playoff match's score sheet, written by its players from their phones (§6.3-§6.5, §3), a
module per use case:

=================  ==========================================================================
game_start         start_playoff_game_on_sheet: a player starts the match's next game (§6.4)
entry              submit_playoff_scores: a present player enters a game's scores (R3-a)
confirmation       confirm_playoff_scores: another confirms them; they count at once
corrections        request_playoff_correction, answer_playoff_correction (R3-b..R3-d)
match_sheet        what each shares: the write, the match's facts, who is present, the sheet
=================  ==========================================================================

The sheet's signed link is the key: no actor is needed. Playoff results are no season's facts:
nothing is refolded; the league gets a new revision. Each module's docstring defines its words.
"""
