"""``{% form_key %}``: the hidden one-time key of a console form (`flipwell.web.once`).

A builtin of the templates (settings ``TEMPLATES``), so every form writes it beside
``{% csrf_token %}`` without a ``{% load %}``. Each rendering draws a new key: a form shown
again after a refusal is a new write once corrected.
"""

from __future__ import annotations

import secrets

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from flipwell.web.once import FIELD

register = template.Library()


@register.simple_tag
def form_key() -> SafeString:
    """A hidden input holding a new random key (128 bits, URL-safe)."""
    return format_html(
        '<input type="hidden" name="{}" value="{}">', FIELD, secrets.token_urlsafe(16)
    )
