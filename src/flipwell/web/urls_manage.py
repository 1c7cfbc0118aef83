"""URLs of the official's console (``/manage/``): sign in and out, then one league's pages."""

from django.urls import URLPattern, URLResolver, path

from flipwell.web import auth
from flipwell.web.views.manage import (
    invitations,
    leagues,
    ledger,
    machines,
    meet_forfeits,
    meet_groups,
    meet_malfunctions,
    meet_rulings,
    meet_start,
    meets,
    next_season,
    photos,
    playoffs,
    readings,
    season_length,
)
from flipwell.web.views.manage import setup as setup_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("login/", auth.login_view, name="login"),
    path("logout/", auth.logout_view, name="logout"),
    path("forgot-password/", auth.forgot_password_view, name="forgot_password"),
    path("forgot-password/sent/", auth.forgot_password_sent_view, name="forgot_password_sent"),
    path("", leagues.home, name="manage_home"),
    path("leagues/new/", setup_views.new_league, name="manage_new_league"),
    path("invitations/<id:invitation_id>/", invitations.answer, name="manage_answer_invitation"),
    path("set-password/<str:uidb64>/<str:token>/", auth.set_password_view, name="set_password"),
    path("<slug:slug>/", leagues.league, name="manage_league"),
    path("<slug:slug>/seasons/", leagues.seasons, name="manage_seasons"),
    path("<slug:slug>/readings/", readings.readings, name="manage_readings"),
    path("<slug:slug>/players/merge/", leagues.merge_players, name="manage_merge_players"),
    path("<slug:slug>/seasons/<id:season_id>/roster/", leagues.roster, name="manage_roster"),
    path(
        "<slug:slug>/seasons/<id:season_id>/roster/<id:player_id>/notices/",
        leagues.player_notices,
        name="manage_player_notices",
    ),
    path("<slug:slug>/seasons/<id:season_id>/meets/", meets.meets, name="manage_meets"),
    path(
        "<slug:slug>/seasons/<id:season_id>/next/",
        next_season.next_season,
        name="manage_next_season",
    ),
    path(
        "<slug:slug>/seasons/<id:season_id>/length/",
        season_length.cut_season,
        name="manage_cut_season",
    ),
    path(
        "<slug:slug>/seasons/<id:season_id>/publish/",
        next_season.publish,
        name="manage_publish_season",
    ),
    path(
        "<slug:slug>/seasons/<id:season_id>/ifpa-ranks/",
        next_season.ifpa_ranks,
        name="manage_ifpa_ranks",
    ),
    path(
        "<slug:slug>/seasons/<id:season_id>/roster.csv",
        next_season.roster_file,
        name="manage_roster_csv",
    ),
    path(
        "<slug:slug>/seasons/<id:season_id>/standings.csv",
        next_season.standings_file,
        name="manage_standings_csv",
    ),
    path("<slug:slug>/seasons/<id:season_id>/ifpa/", leagues.ifpa, name="manage_ifpa"),
    path(
        "<slug:slug>/seasons/<id:season_id>/playoffs/",
        playoffs.playoffs,
        name="manage_playoffs",
    ),
    path("<slug:slug>/meets/<id:meet_id>/", meets.meet, name="manage_meet"),
    path(
        "<slug:slug>/meets/<id:meet_id>/groups/<id:number>/",
        meet_groups.group,
        name="manage_meet_group",
    ),
    path(
        "<slug:slug>/meets/<id:meet_id>/attendance/",
        meet_start.attendance,
        name="manage_attendance",
    ),
    path("<slug:slug>/meets/<id:meet_id>/start/", meet_start.start, name="manage_start"),
    path(
        "<slug:slug>/meets/<id:meet_id>/reschedule/",
        meets.reschedule,
        name="manage_reschedule_meet",
    ),
    path("<slug:slug>/meets/<id:meet_id>/close/", meets.close, name="manage_close_meet"),
    path(
        "<slug:slug>/meets/<id:meet_id>/photos/remove/",
        photos.remove,
        name="manage_remove_photos",
    ),
    path("<slug:slug>/photos/<str:key>/", photos.photo, name="manage_photo"),
    path(
        "<slug:slug>/meets/<id:meet_id>/forfeits/", meet_forfeits.forfeits, name="manage_forfeits"
    ),
    path(
        "<slug:slug>/meets/<id:meet_id>/malfunctions/",
        meet_malfunctions.malfunctions,
        name="manage_malfunctions",
    ),
    path(
        "<slug:slug>/meets/<id:meet_id>/violations/",
        meet_rulings.violations,
        name="manage_violations",
    ),
    path(
        "<slug:slug>/meets/<id:meet_id>/corrections/",
        meet_rulings.corrections,
        name="manage_corrections",
    ),
    path("<slug:slug>/machines/", machines.machines, name="manage_machines"),
    path("<slug:slug>/special-rulings/", machines.special_rulings, name="manage_special_rulings"),
    path("<slug:slug>/ledger/", ledger.ledger, name="manage_ledger"),
    path("<slug:slug>/machines/pool/", setup_views.machines, name="manage_machine_pool"),
    path("<slug:slug>/machines/<id:machine_id>/", setup_views.machine, name="manage_machine"),
    path("<slug:slug>/officials/", setup_views.officials, name="manage_officials"),
    path(
        "<slug:slug>/officials/<id:official_id>/",
        setup_views.official_page,
        name="manage_official",
    ),
    path("<slug:slug>/api-tokens/", setup_views.api_tokens, name="manage_api_tokens"),
    path("<slug:slug>/notices/", leagues.notices, name="manage_notices"),
]
