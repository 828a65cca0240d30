"""``cardkit/_core.pyi`` documents every public binding, and each docstring's summary
line is the first line of the binding's runtime ``__doc__`` (its Rust ``///``
comment), so the stub and the extension cannot drift apart unnoticed.

Dunder methods are left out: their runtime docs are CPython's generic slot texts
(``__new__`` included, since PyO3 does not expose the ``#[new]`` doc comment), so
constructors are documented in the class docstring.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import cardkit
from cardkit import _core

STUB = Path(cardkit.__file__).with_name("_core.pyi")


def _is_public(name: str) -> bool:
    return not name.startswith("_")


def _documented(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.ClassDef]:
    """Every public function, class and class member of the stub, by dotted name."""
    found: dict[str, ast.FunctionDef | ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and _is_public(node.name):
            found[node.name] = node
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and _is_public(member.name):
                    found[f"{node.name}.{member.name}"] = member
    return found


def _constants(tree: ast.Module) -> set[str]:
    """Every public class constant of the stub (``VectorEnv.MAX_ENVS: ClassVar[int]``):
    values, so they carry a ``#:`` comment instead of a docstring."""
    return {
        f"{node.name}.{member.target.id}"
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        for member in node.body
        if isinstance(member, ast.AnnAssign)
        and isinstance(member.target, ast.Name)
        and _is_public(member.target.id)
    }


TREE = ast.parse(STUB.read_text(encoding="utf-8"))
STUBBED = _documented(TREE)
CONSTANTS = _constants(TREE)


def _runtime(dotted: str) -> object:
    obj: object = _core
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _summary(doc: str) -> str:
    """The first line of a docstring, with rST ````code```` read as Markdown ```code```
    (the stub uses the Python docs' double backticks, the Rust comments single ones)."""
    return inspect.cleandoc(doc).splitlines()[0].replace("``", "`")


def test_the_stub_covers_the_whole_public_surface() -> None:
    """Every public name of ``_core`` and of its classes is in the stub (stubtest checks
    signatures, not that each method appears), so no binding can dodge the docstring
    checks below by being left out."""
    runtime: set[str] = set()
    for name in _core.__all__:
        obj = getattr(_core, name)
        if inspect.isclass(obj) or inspect.isroutine(obj):
            runtime.add(name)
        if inspect.isclass(obj):
            runtime.update(f"{name}.{m}" for m in vars(obj) if _is_public(m))
    assert runtime == set(STUBBED) | CONSTANTS


@pytest.mark.parametrize("name", sorted(STUBBED))
def test_stub_docstring_opens_with_the_runtime_summary(name: str) -> None:
    stub_doc = ast.get_docstring(STUBBED[name])
    assert stub_doc, f"{name} has no docstring in _core.pyi"
    runtime_doc = _runtime(name).__doc__
    assert runtime_doc, f"{name} has no Rust doc comment"
    assert _summary(stub_doc) == _summary(runtime_doc)


def test_summaries_are_whole_sentences() -> None:
    """A summary line is a sentence of its own: a Rust comment wrapped mid-sentence
    would give a runtime first line that stops halfway."""
    cut = [
        name
        for name in STUBBED
        if (doc := _runtime(name).__doc__)
        and len(lines := inspect.cleandoc(doc).splitlines()) > 1
        and lines[1].strip()
    ]
    assert cut == []
