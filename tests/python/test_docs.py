"""Every Python block of README.md and docs/PYTHON.md runs as written (issue 44 item 6).

A fenced ```python block is run on its own, in a fresh namespace and an empty folder, as a reader
would paste it; one that starts with ``>>>`` is a doctest (its printed lines and exceptions are
compared, ``...`` matching anything). A block that imports an optional package this machine
lacks (tqdm) is skipped, saying which.
"""
import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "docs" / "PYTHON.md"]


def python_blocks():
    """(id, code) of every ```python block, the id naming the file and the block's line."""
    blocks = []
    for doc in DOCS:
        text = doc.read_text()
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, m.start()) + 1
            blocks.append(pytest.param(m.group(1), id=f"{doc.name}:{line}"))
    return blocks


def test_the_docs_have_python_blocks():
    assert len(python_blocks()) >= 5


@pytest.mark.parametrize("code", python_blocks())
def test_python_block_runs_as_written(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        if code.lstrip().startswith(">>>"):
            parser = doctest.DocTestParser()
            test = parser.get_doctest(code, {}, "block", None, 0)
            runner = doctest.DocTestRunner(
                optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
                | doctest.IGNORE_EXCEPTION_DETAIL)
            runner.run(test)
            assert runner.summarize(verbose=False).failed == 0
        else:
            exec(compile(code, "block", "exec"), {"__name__": "__docs__"})
    except ModuleNotFoundError as e:
        if e.name and not e.name.startswith("gvflab"):
            pytest.skip(f"the block imports {e.name}, which is not installed here")
        raise


def test_the_install_command_names_its_interpreter_and_shows_progress():
    # A pyenv python3 first on PATH has no NumPy: the command names Debian's; pip is silent
    # for minutes while CMake builds unless -v.
    for doc in DOCS:
        lines = [l.strip() for l in doc.read_text().splitlines() if "-m venv" in l]
        assert lines, doc.name
        for line in lines:
            assert line.startswith("/usr/bin/python3 -m venv"), (doc.name, line)
            assert "pip install -v " in line, (doc.name, line)
