"""The pages of a request that failed, as every visitor of the venue's network may see them.

With ``DEBUG`` off (``make run``, ``flipwell serve``) Django shows no traceback, settings or
URL list; these pages say plainly what happened. The 500 page names the request id
(`flipwell.web.request_id`): the visitor tells the official, who finds that id in the log,
where the traceback is (`flipwell.logs`). The page is built without templates, the database
or the session: whatever failed must not make the error page fail too.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseServerError
from django.utils.html import format_html

SERVER_ERROR_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Something went wrong · flipwell</title></head>
<body>
<h1>Something went wrong</h1>
<p>flipwell could not answer this request. Nothing you entered is lost once it was saved: go
back and try again in a moment.</p>
<p>If it happens again, tell the league official this request id: <code>{}</code>.
The server's log has what went wrong under it.</p>
<p><a href="/">Home</a></p>
</body>
</html>
"""


def server_error(request: HttpRequest) -> HttpResponseServerError:
    """Django's ``handler500``: a plain page with the request id and nothing of the error."""
    request_id = str(getattr(request, "id", "") or "unknown")
    return HttpResponseServerError(format_html(SERVER_ERROR_PAGE, request_id))
