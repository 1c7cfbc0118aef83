"""Reading a page's text in tests: the response body with the entities Django's escaping puts in
plain sentences (an apostrophe, a ">") turned back into their characters."""

from django.http import HttpResponse


def page_text(response: HttpResponse) -> str:
    return response.content.decode().replace("&#x27;", "'").replace("&gt;", ">")
