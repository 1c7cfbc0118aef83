"""Score corrections after confirmation (§3, R3-b..R3-e, A45), a module per use case:

=================  ==========================================================================
request            request_correction: a player claims other scores for a confirmed game
                   (after the meet is closed, with a league official's override, A45.2)
answer             respond_to_correction: a player of the quorum agrees or not; all agree:
                   applied (R3-e), one does not: refused (R3-d)
proposal           the proposed sheet, its tie orders and claims, and who is asked (A45.1)
=================  ==========================================================================

A playoff match's corrections are `flipwell.league.services.playoff_sheets.corrections`. Each
module's docstring defines its words.
"""
