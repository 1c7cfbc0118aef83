"""Signing up for the next season (`flipwell.league.models.signups`): calls:
ask_next_season, set_signups_open; answers: answer_next_season (a player's link);
newcomers: sign_up (public), accept_signup, refuse_signup (and enter_newcomers, which
`start_next_season` calls when it builds the season from the answers)."""
