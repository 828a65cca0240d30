"""Importing the repository's scripts (benches/, examples/, fuzz/), which are files
to run, not modules of a package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` imported as module ``name``. It is put in
    ``sys.modules`` first, as an import would: dataclasses resolve a module's
    annotations through it."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_bench(name: str) -> ModuleType:
    """``benches/NAME.py`` imported as module ``name``, with ``benches/`` on the path
    while it loads, as running it from there would (benches import their siblings)."""
    benches = ROOT / "benches"
    sys.path.insert(0, str(benches))
    try:
        return load_script(benches / f"{name}.py", name)
    finally:
        sys.path.remove(str(benches))
