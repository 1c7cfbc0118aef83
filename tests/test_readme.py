"""The README's example of the rules library runs and prints what it says."""

import doctest
import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_readme_example_is_a_passing_doctest():
    (block,) = re.findall(r"```pycon\n(.*?)```", README.read_text(), flags=re.DOTALL)
    test = doctest.DocTestParser().get_doctest(block, {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert (runner.failures, runner.tries > 8) == (0, True)


TEMPLATES = README.parent / "src" / "flipwell" / "web" / "templates"


def test_readme_first_night_names_buttons_and_links_the_console_has():
    """Issue #11: the first-night steps name what a newcomer presses, as the console says it."""
    section = README.read_text().split("## Your first league night", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"\*\*(.+?)\*\*", section)
    pages = " ".join(
        " ".join(path.read_text(encoding="utf-8").split()).replace("&amp;", "&")
        for path in TEMPLATES.rglob("*.html")
    )

    missing = [name for name in named if " ".join(name.split()) not in pages]

    assert len(named) >= 10
    assert missing == []
