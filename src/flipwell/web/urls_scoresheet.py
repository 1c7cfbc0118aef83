"""URLs of the score sheet at the machine: ``/sheet/<token>/`` and its actions."""

from django.urls import URLPattern, URLResolver, path

from flipwell.web.views import playoff_sheet, scoresheet, service_worker

urlpatterns: list[URLPattern | URLResolver] = [
    # Its folder is its scope: every sheet (flipwell.web.views.service_worker).
    path(
        "service-worker.js",
        service_worker.service_worker,
        name="scoresheet_service_worker",
    ),
    path("<str:token>/", scoresheet.sheet, name="scoresheet"),
    path("<str:token>/state/", scoresheet.state, name="scoresheet_state"),
    path("<str:token>/enter/", scoresheet.enter, name="scoresheet_enter"),
    path("<str:token>/confirm/", scoresheet.confirm, name="scoresheet_confirm"),
    path("<str:token>/next/", scoresheet.choose, name="scoresheet_next"),
    path("<str:token>/correction/", scoresheet.correct, name="scoresheet_correct"),
    path("<str:token>/photos/", scoresheet.attach_photo, name="scoresheet_attach_photo"),
    path("<str:token>/photos/<str:key>/", scoresheet.photo, name="scoresheet_photo"),
    path(
        "<str:token>/correction/<id:request_id>/answer/",
        scoresheet.answer,
        name="scoresheet_answer",
    ),
]

# A playoff match's sheet (§6): the same actions, under match/ (flipwell.web.views.playoff_sheet).
urlpatterns += [
    path("match/<str:token>/", playoff_sheet.sheet, name="playoff_sheet"),
    path("match/<str:token>/state/", playoff_sheet.state, name="playoff_sheet_state"),
    path("match/<str:token>/start/", playoff_sheet.start, name="playoff_sheet_start"),
    path("match/<str:token>/enter/", playoff_sheet.enter, name="playoff_sheet_enter"),
    path("match/<str:token>/confirm/", playoff_sheet.confirm, name="playoff_sheet_confirm"),
    path("match/<str:token>/correction/", playoff_sheet.correct, name="playoff_sheet_correct"),
    path(
        "match/<str:token>/correction/<id:request_id>/answer/",
        playoff_sheet.answer,
        name="playoff_sheet_answer",
    ),
]
