"""``{% form_key %}``: the hidden one-time key of a console form (`flipwell.web.once`).

A builtin of the templates (settings ``TEMPLATES``), so every form writes it beside
``{% csrf_token %}`` without a ``{% load %}``. Each rendering draws a new key, issued to the
signed-in user and session of the page's request: a form shown again after a refusal is a new
write once corrected.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from flipwell.web.once import FIELD, request_form_key

register = template.Library()


@register.simple_tag(takes_context=True)
def form_key(context: template.Context) -> SafeString:
    """A hidden input holding a new key issued to the page's user (`request_form_key`)."""
    key = request_form_key(context.get("request"))
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, key)
