"""Special rulings (Appendix A: RA-a..RA-e, RA.1-a..RA.4-a, A56)."""

import re
from pathlib import Path

import pytest

from flipwell.rules.errors import RuleError
from flipwell.rules.special_rulings import (
    APPENDIX_A,
    SpecialRuling,
    amend_rulings,
    check_score_adjustment,
    rulings_for,
    same_title,
)

RULEBOOK = Path(__file__).resolve().parents[2] / "docs" / "rules" / "fwpl-official-rules-v1.0.txt"


def ruling(**kw):
    fields = {
        "ruling_id": "RX.1-a",
        "machine": "Medieval Madness",
        "kind": "major_malfunction",
        "text": "Ball stuck behind the castle drawbridge.",
        "reproducible": True,
        "reproduction": "Shoot the drawbridge while it closes; happens 1 in 3 tries.",
        "cause_and_effect": "Worn drawbridge motor stalls half-open and traps the ball.",
    }
    return SpecialRuling(**(fields | kw))


def test_appendix_a_seed_holds_every_printed_ruling():
    """RA.1-a..RA.4-a: the rulebook's eight rulings, with their kinds."""
    assert [(r.ruling_id, r.machine, r.kind) for r in APPENDIX_A] == [
        ("RA.1-a", "The Addams Family", "not_a_malfunction"),
        ("RA.1-b", "The Addams Family", "major_malfunction"),
        ("RA.1-c", "The Addams Family", "positive_malfunction"),
        ("RA.2-a", "Demolition Man", "not_a_malfunction"),
        ("RA.2-b", "Demolition Man", "major_malfunction"),
        ("RA.3-a", "F-14 Tomcat", "not_an_extra_ball"),
        ("RA.3-b", "F-14 Tomcat", "not_a_malfunction"),
        ("RA.4-a", "Ghostbusters", "major_malfunction"),
    ]


def test_appendix_a_seed_text_is_the_rulebook_text():
    """RA.1-a..RA.4-a: each ruling's text appears word for word in the rulebook (A20)."""
    book = " ".join(RULEBOOK.read_text().split())

    missing = [r.ruling_id for r in APPENDIX_A if " ".join(r.text.split()) not in book]

    assert missing == []


def test_rulings_for_matches_title_loosely():
    """RA-a: the rulings shown for a machine, matched on title without case or leading "The"."""
    found = rulings_for("addams  FAMILY")

    assert [r.ruling_id for r in found] == ["RA.1-a", "RA.1-b", "RA.1-c"]


def test_rulings_for_machine_without_rulings_is_empty():
    assert rulings_for("Medieval Madness") == ()


def test_rulings_for_f14_insurance_is_not_an_extra_ball():
    """RA.3-a: F-14 Tomcat's insurance ruling is on the books as "not an extra ball"."""
    kinds = {r.ruling_id: r.kind for r in rulings_for("F-14 Tomcat")}

    assert kinds["RA.3-a"] == "not_an_extra_ball"


def test_rulings_for_ghostbusters_pke_ramp_major():
    """RA.4-a: a ball stuck on the PKE ramp is a major malfunction."""
    (pke,) = rulings_for("Ghostbusters")

    assert (pke.kind, pke.text) == (
        "major_malfunction",
        "Ball becomes stuck on the PKE ramp, and cannot be freed without tilting.",
    )


def test_rulings_for_latest_version_only():
    """RA-a: an amended ruling replaces its earlier version."""
    first = ruling()
    second = ruling(version=2, text="Ball stuck behind the drawbridge; plunge a new ball.")
    rulings = amend_rulings(amend_rulings((), first), second)

    assert rulings_for("medieval madness", rulings=rulings) == (second,)


def test_amend_rulings_skipping_a_version_refused():
    """RA-a: amendments are versioned one after another."""
    with pytest.raises(RuleError, match="must be version 2, got 3"):
        amend_rulings((ruling(),), ruling(version=3))


def test_amend_rulings_other_title_refused():
    with pytest.raises(RuleError, match="is about Medieval Madness, not Attack from Mars"):
        amend_rulings((ruling(),), ruling(version=2, machine="Attack from Mars"))


def test_special_ruling_not_reproducible_refused():
    """RA-e: no special ruling without a reproducible glitch."""
    with pytest.raises(RuleError, match=r"must be reproducible.*\(RA-e\)"):
        ruling(reproducible=False)


def test_special_ruling_without_reproduction_notes_refused():
    """RA-e: the reproduction must be written down."""
    with pytest.raises(RuleError, match=r"\(RA-e\)"):
        ruling(reproduction=" ")


def test_special_ruling_cause_not_understood_refused():
    """RA-e: the cause and effect must be clearly understood."""
    with pytest.raises(
        RuleError, match=r"cause and effect must be clearly understood and written down \(RA-e\)"
    ):
        ruling(cause_and_effect="")


def test_special_ruling_unknown_kind_refused():
    """RA-a: the four kinds of ruling only."""
    with pytest.raises(RuleError, match="unknown special ruling kind 'bonus'"):
        ruling(kind="bonus")


def test_check_score_adjustment_malfunction_without_ruling_refused():
    """RA-c, RA-d: no malfunction score adjustment without a ruling; the displayed score stands."""
    with pytest.raises(RuleError, match=r"must cite a special ruling.*\(RA-c, RA-d\)"):
        check_score_adjustment(kind="malfunction", machine="Medieval Madness")


def test_check_score_adjustment_cites_ruling_on_the_books():
    """RA-c: a malfunction adjustment citing a ruling in force for that title is accepted."""
    cited = check_score_adjustment(kind="malfunction", machine="Addams Family", ruling_id="RA.1-c")

    assert cited is not None
    assert cited.ruling_id == "RA.1-c"


def test_check_score_adjustment_ruling_of_another_title_refused():
    """RA-c: the ruling must be on the books for this machine title."""
    with pytest.raises(RuleError, match=re.escape("rulings on the books: RA.4-a (RA-c)")):
        check_score_adjustment(kind="malfunction", machine="Ghostbusters", ruling_id="RA.1-b")


def test_check_score_adjustment_not_a_malfunction_ruling_refused():
    """RA-c: a "not a malfunction" ruling cannot justify a malfunction adjustment."""
    with pytest.raises(RuleError, match="says not a malfunction"):
        check_score_adjustment(kind="malfunction", machine="Demolition Man", ruling_id="RA.2-a")


@pytest.mark.parametrize("kind", ["compensatory_game", "reduction", "zero_score", "correction"])
def test_check_score_adjustment_other_kinds_need_no_ruling(kind):
    """A56, RA-c: compensatory games, reductions, zeros and agreed corrections are other paths."""
    assert check_score_adjustment(kind=kind, machine="Medieval Madness") is None


def test_same_title_ignores_case_spacing_and_leading_the():
    assert same_title("The Addams Family", " addams   family") is True
    assert same_title("Addams Family", "Family Guy") is False
