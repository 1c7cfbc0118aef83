"""The console's playoffs page gives each match's forms ids of their own, so every label
names its own field (issue #11, item 14: a label of QF2 led to QF1's machine)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client

from flipwell.league import models as m
from flipwell.league.services import qualify_for_playoffs, record_seed_playoff
from tests.playoff_night import NIGHT, player

pytestmark = pytest.mark.django_db


def test_playoffs_console_page_has_no_id_twice(golden, official):
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)
    record_seed_playoff(season=golden, order=[player("Dee"), player("Bea")], actor=official.user)
    record_seed_playoff(season=golden, order=[player("Pia"), player("Hal")], actor=official.user)
    client = Client()
    client.force_login(official.user)
    league = m.League.objects.get(pk=golden.league_id)

    page = client.get(f"/manage/{league.slug}/seasons/{golden.pk}/playoffs/")

    ids = Counter(re.findall(r'\bid="([^"]+)"', page.content.decode()))
    assert page.status_code == 200
    assert [i for i, n in ids.items() if n > 1] == []
