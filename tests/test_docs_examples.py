"""Every code example in README.md and docs/*.md runs here, its printed results checked.

The convention, for whoever writes a page (a new docs/*.md is picked up by itself):

- A fenced block's language says what it is. ```` ```python ```` blocks are doctest
  sessions (``>>>`` and ``...`` lines, each followed by exactly what it prints), run
  with the standard library's :mod:`doctest` with ELLIPSIS and NORMALIZE_WHITESPACE.
  The blocks of one page share one namespace, in page order, as
  ``python -m doctest page.md`` would run them; ``# doctest: +SKIP`` is refused.
- ```` ```console ```` blocks are ``$ cardkit ...`` command lines, each followed by
  what it prints on stdout; every command runs in this process through
  :func:`cardkit.cli.main`, must exit with status 0 and is checked with the same
  doctest flags (``...`` stands for timings and the like).
- ```` ```text ```` blocks are not code (a file tree, a diagram) and may hold no
  ``>>>`` or ``$`` prompt.
- Anything else, or a block that must not run here (installs, CI, fuzzing for
  minutes), has ``<!-- not run: the reason -->`` on the line right before its fence.
  Such blocks are few (:data:`MAX_NOT_RUN`) and each names its reason.

Each runnable block is its own test case, named ``page:line`` of its opening fence.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardkit import games
from cardkit.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# Blocks kept out of the run: installs, the CI entry point, fuzzing campaigns. A
# growing count means examples are drifting out of the tests.
MAX_NOT_RUN = 6
RUNNABLE = ("python", "console")

_FENCE = re.compile(r"^\s*```(.*)$")
_NOT_RUN = re.compile(r"^\s*<!--\s*not run:(.*?)-->\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: where it opens, its language and its text."""

    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    not_run: str | None  # the marker's reason, None when the block is unmarked

    @property
    def name(self) -> str:
        return _where(self.page, self.line)


def _where(page: Path, line: int) -> str:
    return f"{page.relative_to(ROOT)}:{line}"


def _blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    found = []
    opened: tuple[int, str] | None = None
    body: list[str] = []
    for i, line in enumerate(lines):
        fence = _FENCE.match(line)
        if fence is None:
            if opened is not None:
                body.append(line)
            continue
        if opened is None:
            opened, body = (i, fence.group(1).strip()), []
            continue
        assert not fence.group(1).strip(), f"{_where(page, i + 1)}: a fence opens inside a block"
        start, lang = opened
        marker = _NOT_RUN.match(lines[start - 1]) if start else None
        reason = marker.group(1).strip() if marker else None
        found.append(Block(page, start + 1, lang, "\n".join(body) + "\n", reason))
        opened = None
    assert opened is None, f"{_where(page, opened[0] + 1)}: the block never closes"
    return found


BLOCKS = [b for page in PAGES for b in _blocks(page)]
RUN = [b for b in BLOCKS if b.not_run is None and b.lang in RUNNABLE]


def _doctest(block: Block, globs: dict[str, Any]) -> doctest.DocTest:
    """A python block as a doctest starting from (a copy of) ``globs``."""
    return doctest.DocTestParser().get_doctest(
        block.text, globs, block.name, str(block.page), block.line
    )


def _run(test: doctest.DocTest) -> tuple[int, str]:
    """Run a doctest; the failure count and doctest's report."""
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    result = runner.run(test, out=report.write, clear_globs=False)
    return result.failed, report.getvalue()


def _python_blocks(page: Path) -> list[Block]:
    return [b for b in RUN if b.page == page and b.lang == "python"]


# Each page's namespace after its first n python blocks, so a block run on its own
# (pytest -k) still sees what the blocks before it defined.
_NAMESPACES: dict[Path, tuple[int, dict[str, Any]]] = {}


def _run_python(block: Block) -> None:
    blocks = _python_blocks(block.page)
    index = blocks.index(block)
    done, globs = _NAMESPACES.get(block.page, (0, {}))
    if done == 0 or done > index:
        done, globs = 0, {"__name__": "__main__"}
    for earlier in blocks[done:index]:
        test = _doctest(earlier, globs)
        _run(test)  # its own case reports its failures
        globs = test.globs
    test = _doctest(block, globs)
    assert test.examples, f"{block.name}: a python block must be a >>> session"
    skipped = [e.source for e in test.examples if e.options.get(doctest.SKIP)]
    assert not skipped, f"{block.name}: +SKIP hides an example from the run: {skipped}"
    failed, report = _run(test)
    _NAMESPACES[block.page] = (index + 1, test.globs)
    assert failed == 0, f"{block.name}: {failed} example(s) failed\n{report}"


def _commands(block: Block) -> list[tuple[int, str, str]]:
    """The ``$`` commands of a console block: (line, command, expected stdout)."""
    out: list[tuple[int, str, str]] = []
    for offset, line in enumerate(block.text.splitlines(), start=block.line + 1):
        if line.startswith("$ "):
            out.append((offset, line[2:], ""))
        else:
            assert out, f"{block.name}: output before the first $ command"
            line_no, command, want = out[-1]
            out[-1] = (line_no, command, want + line + "\n")
    assert out, f"{block.name}: a console block needs a $ command"
    return out


def _run_console(block: Block) -> None:
    checker = doctest.OutputChecker()
    for line, command, want in _commands(block):
        where = f"{_where(block.page, line)}: $ {command}"
        argv = shlex.split(command)
        assert argv[0] == "cardkit", f"{where}: only cardkit commands run"
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            status = cli_main(argv[1:])
        assert status == 0, f"{where} exited with {status}: {stderr.getvalue()}"
        got = stdout.getvalue()
        if not checker.check_output(want, got, FLAGS):
            diff = checker.output_difference(doctest.Example(command, want), got, FLAGS)
            pytest.fail(f"{where}\n{diff}")


@pytest.mark.parametrize("block", RUN, ids=[b.name for b in RUN])
def test_example_runs_as_shown(block: Block) -> None:
    if block.lang == "python":
        _run_python(block)
    else:
        _run_console(block)


def test_every_page_is_read() -> None:
    # README, the game pages and whatever docs/*.md is added later: a parser that
    # found nothing would pass every case vacuously.
    assert len(PAGES) >= 10
    assert len(RUN) >= 15, [b.name for b in RUN]


@pytest.mark.parametrize("name", games.available())
def test_every_game_page_shows_its_event_log(name: str) -> None:
    # The README promises each game's page an "Event log" section with an example.
    page = ROOT / "docs" / f"{name}.md"
    text = page.read_text(encoding="utf-8")
    section = re.search(r"^## Event log\n.*?(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert section, f"{page.name} has no '## Event log' section"
    first = text[: section.start()].count("\n") + 1
    last = first + section.group(0).count("\n")
    examples = [b for b in _python_blocks(page) if first < b.line < last]
    assert any("events(" in b.text for b in examples), f"{page.name}: no event log example"


def test_every_block_has_a_known_kind() -> None:
    unknown = [
        f"{b.name} ({b.lang or 'no language'})"
        for b in BLOCKS
        if b.not_run is None and b.lang not in (*RUNNABLE, "text")
    ]
    assert not unknown, (
        "use python (>>> session), console ($ cardkit ...) or text, "
        f"or mark the block <!-- not run: reason -->: {unknown}"
    )


def test_text_blocks_hold_no_code() -> None:
    prompts = [
        b.name
        for b in BLOCKS
        if b.lang == "text" and re.search(r"^\s*(>>>|\$ )", b.text, re.MULTILINE)
    ]
    assert not prompts, f"a text block with prompts is an example that never runs: {prompts}"


def test_blocks_not_run_are_few_and_explained() -> None:
    kept_out = [b for b in BLOCKS if b.not_run is not None]
    assert len(kept_out) <= MAX_NOT_RUN, [b.name for b in kept_out]
    unexplained = [b.name for b in kept_out if len(b.not_run or "") < 10]
    assert not unexplained, f"give each not-run block its reason: {unexplained}"
