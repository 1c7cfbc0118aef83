"""Security headers on every response, and a production configuration `check --deploy` passes."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from flipwell.env import env_int
from flipwell.web.middleware import CONTENT_SECURITY_POLICY
from tests import factories as f

ROOT = Path(__file__).parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/", "/leagues/nope/", "/manage/login/"])
def test_every_response_carries_the_security_headers(client, url):
    response = client.get(url)

    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_content_security_policy_allows_only_this_site():
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))

    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


@pytest.mark.django_db
def test_public_pages_use_no_inline_style_or_script(client):
    """The CSP would block them: every look is a CSS class, every script a static file."""
    f.LeagueFactory(slug="arcade")
    for url in ("/", "/leagues/arcade/", "/leagues/arcade/machines/", "/tv/arcade/"):
        text = client.get(url).text

        assert " style=" not in text
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", text) == []


TEMPLATES = ROOT / "src" / "flipwell" / "web" / "templates"
SCRIPTS = ROOT / "src" / "flipwell" / "web" / "static" / "flipwell"
INLINE_STYLE = re.compile(r"\sstyle=|<style\b", re.IGNORECASE)
STYLE_FROM_SCRIPT = re.compile(
    r"\.style\b|setAttribute\(\s*[\"']style|cssText|insertRule|<style", re.IGNORECASE
)


def test_templates_have_no_inline_style():
    """Issue #11, item 12: the CSP (style-src 'self') refuses a style attribute or element,
    in a page and in every fragment an in-page update swaps in."""
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}: {line.strip()}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if INLINE_STYLE.search(line)
    ]

    assert found == []


def test_templates_comments_fit_on_one_line():
    """Django's `{# #}` comment is one line only: spread over two, it is printed, and text
    before <title> ends the page's head early (the favicon and the htmx configuration then
    sit in its body). Longer comments use {% comment %}."""
    found = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if line.count("{#") != line.count("#}")
    ]

    assert found == []


def test_own_scripts_set_no_inline_style():
    """The sheet's and the TV's scripts show and hide things with classes and `hidden`, never
    with a style the CSP would refuse (htmx, vendored, is configured in base.html)."""
    own = sorted(p for p in SCRIPTS.glob("*.js") if p.name != "htmx.min.js")
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in own
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if STYLE_FROM_SCRIPT.search(line) and not line.lstrip().startswith(("*", "//", "/*"))
    ]

    assert own
    assert found == []


def test_htmx_adds_no_inline_style_or_eval():
    """htmx's defaults would break the CSP: a <style> for its indicators, eval, and settling
    a swapped element's style attribute; base.html's configuration turns each off."""
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    config = json.loads(re.search(r'name="htmx-config" content=\'([^\']+)\'', base)[1])

    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    assert "style" not in config["attributesToSettle"]


def _check_deploy(tmp_path, **extra):
    environ = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "flipwell.settings",
        "FLIPWELL_DATA_DIR": str(tmp_path),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "league.example.org",
        "FLIPWELL_HTTPS": "yes",
        "BEHIND_PROXY": "yes",
        "CSRF_TRUSTED_ORIGINS": "https://league.example.org",
        **extra,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = _check_deploy(tmp_path)

    assert (result.returncode, result.stderr) == (0, "")
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_when_served_without_https(tmp_path):
    result = _check_deploy(tmp_path, FLIPWELL_HTTPS="no")

    assert result.returncode != 0
    assert "security.W008" in result.stderr  # SECURE_SSL_REDIRECT


def test_production_settings_make_cookies_secure_and_trust_the_proxy(tmp_path):
    script = (
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.SECURE_PROXY_SSL_HEADER, s.SESSION_COOKIE_HTTPONLY)"
    )
    environ = {
        "PATH": os.environ.get("PATH", ""),
        "DJANGO_SETTINGS_MODULE": "flipwell.settings",
        "FLIPWELL_DATA_DIR": str(tmp_path),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "FLIPWELL_HTTPS": "yes",
        "BEHIND_PROXY": "yes",
    }
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {script}"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )

    assert result.stdout.split() == [
        "True",
        "True",
        "True",
        "31536000",
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
        "True",
    ]


def test_env_int_refuses_a_value_that_is_not_a_whole_number():
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="SECURE_HSTS_SECONDS='soon'"):
        env_int("SECURE_HSTS_SECONDS", 0, environ={"SECURE_HSTS_SECONDS": "soon"})
    assert env_int("X", 5, environ={}) == 5
    assert env_int("X", 5, environ={"X": "60"}) == 60
