"""URLs of the web app. Public pages live here; each other area has its own module.

Order: Django tries the patterns in turn, so the paths asked most often come first: a live
stream (opened by every viewer every few minutes) and the TV (refreshed after every score)
were tried after some forty others: resolving a TV path took 33 us, a third of what a
remembered TV page costs beyond the bare view (16 us now, 5 for the first pattern). No two
patterns here match one path, so the order changes nothing else.
"""

from django.urls import include, path

from flipwell.web.views import live, notices, public, signups
from flipwell.web.views import print as print_views

app_name = "web"

urlpatterns = [
    path("live/<slug:slug>/events/", live.events, name="live_events"),
    path("tv/", include("flipwell.web.urls_tv")),
    path("", public.league_list, name="league_list"),
    path("leagues/<slug:slug>/", public.league_home, name="league"),
    path("leagues/<slug:slug>/seasons/<id:season_id>/", public.season, name="season"),
    path("leagues/<slug:slug>/meets/<id:meet_id>/", public.meet, name="meet"),
    path("leagues/<slug:slug>/players/<id:player_id>/", public.player, name="player"),
    path("leagues/<slug:slug>/playoffs/", public.playoffs, name="playoffs"),
    path("leagues/<slug:slug>/machines/", public.machines, name="machines"),
    path("leagues/<slug:slug>/machines/<id:machine_id>/", public.machine, name="machine"),
    path(
        "leagues/<slug:slug>/machines/<id:machine_id>/report/",
        public.report_problem,
        name="report_problem",
    ),
    path("leagues/<slug:slug>/high-scores/", public.high_scores, name="high_scores"),
    path("leagues/<slug:slug>/ratings/", public.ratings_page, name="ratings"),
    path("leagues/<slug:slug>/maintenance/", public.maintenance, name="maintenance"),
    path("leagues/<slug:slug>/sign-up/", signups.signup, name="signup"),
    path(
        "print/<slug:slug>/meets/<id:meet_id>/sheets/",
        print_views.score_sheets,
        name="print_sheets",
    ),
    path(
        "print/<slug:slug>/meets/<id:meet_id>/results/",
        print_views.results,
        name="print_results",
    ),
    path(
        "print/<slug:slug>/seasons/<id:season_id>/playoff-sheets/",
        print_views.playoff_sheets,
        name="print_playoff_sheets",
    ),
    path(
        "print/<slug:slug>/seasons/<id:season_id>/links/",
        print_views.player_links,
        name="print_links",
    ),
    path("print/<slug:slug>/standings/", print_views.standings, name="print_standings"),
    path("print/<slug:slug>/maintenance/", print_views.maintenance, name="print_maintenance"),
    path("print/<slug:slug>/playoffs/", print_views.playoffs, name="print_playoffs"),
    path("notices/<str:token>/", notices.preferences, name="notice_preferences"),
    path("manage/", include("flipwell.web.urls_manage")),
    path("sheet/", include("flipwell.web.urls_scoresheet")),
    path("me/", include("flipwell.web.urls_me")),
]
