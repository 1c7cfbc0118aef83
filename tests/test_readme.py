"""The README says what the product does: its example of the rules library runs and prints
what it says, and its first night uses the commands and buttons that exist."""

import doctest
import re
import subprocess
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


ROOT = README.parent


def _make_dry_run(target: str, *variables: str) -> str:
    """The commands `make TARGET` would run, without running them (nor the install step)."""
    return subprocess.run(
        ["make", "--no-print-directory", "-n", "-o", ".venv/.installed", target, *variables],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_readme_first_night_uses_only_make_run_on_the_production_server():
    """issue 23 §1: the first night's steps served the venue's Wi-Fi with Django's
    development server and DEBUG on (tracebacks and the URL list for any phone)."""
    section = README.read_text().split("## Your first league night", 1)[1].split("\n## ", 1)[0]
    run = _make_dry_run("run", "HOST=0.0.0.0")

    assert set(re.findall(r"`(make \w+)", section)) == {"make run"}
    assert "make run HOST=0.0.0.0" in section
    assert [word for word in ("runserver", "DEBUG=1", "make dev") if word in section] == []
    assert "flipwell serve --bind 0.0.0.0:8000" in run
    assert "runserver" not in run
    assert "DEBUG=1" not in run


def test_readme_createofficial_command_is_the_one_make_run_prints():
    section = README.read_text().split("## Your first league night", 1)[1].split("\n## ", 1)[0]
    (data, _address, command) = re.findall(
        r"`([A-Z_]+=\S+) FLIPWELL_SITE_URL=(\S+) (\S+/flipwell createofficial YOURNAME)`", section
    )[0]
    # make prints the address it serves (flipwell.venue), so the official's sign-in address
    # createofficial names is the real one.
    address = "$(env FLIPWELL_DATA_DIR=var $(.venv/bin/python -m flipwell.venue env 127.0.0.1 8000)"
    printed = f'echo "  {data} FLIPWELL_SITE_URL={address} printenv FLIPWELL_SITE_URL) {command}"'

    assert printed in _make_dry_run("run")
