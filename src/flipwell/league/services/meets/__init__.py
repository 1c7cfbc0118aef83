"""League-night use cases for a meet as a whole, a module per use case:

=================  ==========================================================================
schedule           schedule_meet, reschedule_meet, cancel_meet (a meet not yet started)
announcements      announce_absence, announce_lateness, withdraw_announcement (and the same
                   writes for a player's link, `flipwell.league.services.player_links`)
start              start_meet: the ladder, the groups, the first machines' draw
close              close_meet: its results from the season's fold
dates              a meet's number and date checked, shared by scheduling and the start
=================  ==========================================================================

Each next machine is chosen in `flipwell.league.services.meet_machines`. The ladder, the groups
and the draw all come from flipwell.rules; these services only load facts, call the rules,
store the new facts and go through the write protocol
(`flipwell.league.services._protocol.official_write`).
"""
