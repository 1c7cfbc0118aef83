"""URLs of the score sheet at the machine: ``/sheet/<token>/`` and its actions."""

from django.urls import URLPattern, URLResolver, path

from flipwell.web.views import scoresheet, service_worker

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
    path(
        "<str:token>/correction/<id:request_id>/answer/",
        scoresheet.answer,
        name="scoresheet_answer",
    ),
]
