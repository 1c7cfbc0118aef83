"""The web app: public pages, the score sheet at the machine, the official's console, the TV
and printable sheets. Server-rendered templates with htmx; every asset is served by the app.

Views parse input, call one service or selector, and render (STYLE.md convention 7).
"""
