"""Every COMPUTE and ENFORCE rule of RULES.md is named by at least one test."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "docs" / "rules" / "RULES.md"
ROW = re.compile(r"^\|\s*(R[0-9A.]+-[a-z])\s*\|[^|]*\|[^|]*\|\s*([^|]*)\|", re.MULTILINE)


def catalogued_rules() -> dict[str, str]:
    """Rule ID -> its class column, from the catalogue's tables."""
    return {m.group(1): m.group(2) for m in ROW.finditer(CATALOGUE.read_text())}


def named_in_tests() -> set[str]:
    text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
    return set(re.findall(r"R[0-9A.]+-[a-z](?![a-z])", text))


def test_catalogue_has_all_188_rules():
    assert len(catalogued_rules()) == 188


def test_every_compute_and_enforce_rule_is_named_by_a_test():
    required = {
        rule for rule, cls in catalogued_rules().items() if "COMPUTE" in cls or "ENFORCE" in cls
    }
    # This file's own regexes name no rule, so it cannot satisfy the check by itself.
    missing = sorted(required - named_in_tests(), key=_natural)
    assert missing == []


def test_catalogue_copy_matches_shared_rules_when_present():
    shared = ROOT.parent / "shared" / "rules" / "RULES.md"
    if shared.exists():
        assert shared.read_text() == CATALOGUE.read_text()


def _natural(rule: str) -> list[object]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", rule)]
