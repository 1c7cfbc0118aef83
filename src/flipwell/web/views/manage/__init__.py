"""The official's console (``/manage/``): one module per area of a league's business.

Every page is a list and its forms. A page's view is decorated with `console_page(roles)`
(`flipwell.web.auth`); a POST parses one form, calls one service, and redirects back with a
message, or shows the form again with the service's messages next to the fields they name.
"""
