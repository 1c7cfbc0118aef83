"""`READINGS`: every `Ruleset` setting has its reading for the console's page, and each names
rule IDs of RULES.md and entries of INTERPRETATIONS.md that exist (§1-§9)."""

import re
from dataclasses import fields
from pathlib import Path

from flipwell.rules import READINGS, Ruleset

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
RULE_IDS = set(re.findall(r"^\| (R[\w.]+-[a-z]+) \|", (DOCS / "RULES.md").read_text(), re.M))
ENTRIES = set(re.findall(r"^### (A\d\d) ", (DOCS / "INTERPRETATIONS.md").read_text(), re.M))


def test_readings_one_per_setting_in_the_fields_order():
    assert list(READINGS) == [f.name for f in fields(Ruleset)]


def test_readings_name_rules_that_exist_in_rules_md():
    unknown = {n: r for n, x in READINGS.items() for r in x.rules if r not in RULE_IDS}

    assert unknown == {}
    assert [n for n, x in READINGS.items() if not x.rules] == []


def test_readings_name_interpretations_that_exist_in_interpretations_md():
    named = {n: i for n, x in READINGS.items() for i in x.interpretations}

    assert {n: i for n, i in named.items() if i.split(".")[0] not in ENTRIES} == {}


def test_readings_have_a_title_and_a_text_without_he_or_his():
    """A person reads them on the console: plain words, a player is "they" (test_wording)."""
    for name, reading in READINGS.items():
        assert reading.title, name
        assert reading.text, name
        assert not re.search(r"\b(he|his|him)\b", reading.text + reading.title, re.I), name


def test_readings_plain_text_names_no_setting_in_code():
    """The console's "Why" reads in words: "Setting playoff_cut_rule = ..." is left out."""
    names = [f.name for f in fields(Ruleset)]

    in_code = {
        setting: [n for n in names if re.search(rf"\b{n}\b", reading.plain_text)]
        for setting, reading in READINGS.items()
    }

    assert {setting: found for setting, found in in_code.items() if found} == {}
    assert READINGS["playoff_cut_rule"].plain_text.endswith(
        'The sentence is treated as a typo for "rounded up".'
    )
    assert "period configurable. Amounts" in READINGS["dues_period"].plain_text
