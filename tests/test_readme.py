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
