"""Run one cardkit fuzz target under atheris (libFuzzer), or all of them briefly.

    python fuzz/run.py TARGET [libFuzzer flags]   e.g. -runs=1000000 -max_total_time=600
    python fuzz/run.py --smoke [-runs=N]          every target, N runs each (default 2000)
    python fuzz/run.py --list                     the target names

New corpus entries go to fuzz/out/TARGET/corpus and crash artifacts to fuzz/out/TARGET/
(both ignored by git); fuzz/corpus/TARGET holds the small committed seeds, read only.
The cardkit Python package and the targets are instrumented for coverage; the Rust
extension is not, so coverage figures count Python edges (see docs/reliability.md).
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Flags every run gets unless the command line repeats them: a hang is an input that
#: takes 10 s, a memory blow-up one that passes 2 GB, inputs stay under 4 KB (issue 13
#: already covers super-linear parsing of huge texts), and the shared token dictionary.
DEFAULTS = ["-timeout=10", "-rss_limit_mb=2048", "-max_len=4096", f"-dict={HERE / 'cardkit.dict'}"]


def _names() -> list[str]:
    """The target names, read without importing the targets (which import cardkit)."""
    source = (HERE / "targets.py").read_text()
    names = re.findall(r"^def (\w+)\(data: bytes\)", source, flags=re.M)
    games = re.search(r"^GAMES = \(([^)]*)\)", source, flags=re.M)
    assert games is not None
    return [*names, *(f"apply_{game}" for game in re.findall(r'"(\w+)"', games.group(1)))]


def _share_libfuzzer() -> None:
    """Make atheris' libFuzzer symbols global. An extension built with sancov coverage
    (docs/reliability.md) calls libFuzzer's hooks as it loads; atheris loads libFuzzer
    privately when fuzzing starts, so this runs after that and before cardkit loads.
    A plain build needs none of it and is unaffected."""
    import atheris

    library = next(Path(atheris.__file__).parent.glob("core_with_libfuzzer*.so"))
    ctypes.CDLL(str(library), mode=os.RTLD_GLOBAL | os.RTLD_NOLOAD)


def fuzz(name: str, flags: list[str], work: Path) -> None:
    """Hand control to libFuzzer on target ``name``; returns only through exit()."""
    import atheris

    sys.path.insert(0, str(HERE))
    if name not in _names():
        sys.exit(f"unknown target {name!r}: choose from {', '.join(_names())}")
    corpus = work / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    given = {flag.split("=", 1)[0] for flag in flags}
    defaults = [flag for flag in DEFAULTS if flag.split("=", 1)[0] not in given]
    argv = [
        sys.argv[0],
        *defaults,
        f"-artifact_prefix={work}/",
        *flags,
        str(corpus),
        str(HERE / "corpus" / name),
    ]
    loaded: list[Callable[[bytes], None]] = []

    def one_input(data: bytes) -> None:
        # cardkit is imported on the first input, once libFuzzer is loaded (see above).
        if not loaded:
            _share_libfuzzer()
            with atheris.instrument_imports(include=["cardkit", "targets"]):
                from targets import TARGETS
            loaded.append(TARGETS[name])
        loaded[0](data)

    atheris.Setup(argv, one_input)
    atheris.Fuzz()


def smoke(flags: list[str]) -> int:
    """Run every target in its own process; the number of targets that failed."""
    runs = [flag for flag in flags if flag.startswith("-runs=")] or ["-runs=2000"]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in _names():
            command = [sys.executable, __file__, "--work", f"{tmp}/{name}", name, *runs]
            result = subprocess.run(command, capture_output=True, text=True, check=False)
            status = "ok" if result.returncode == 0 else f"FAILED ({result.returncode})"
            print(f"{name}: {status}", flush=True)
            if result.returncode:
                print(result.stderr[-4000:], file=sys.stderr)
                failed += 1
    return failed


def main(args: list[str]) -> int:
    """Parse the command line described in the module docstring."""
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if args[0] == "--list":
        print("\n".join(_names()))
        return 0
    if args[0] == "--smoke":
        return 1 if smoke(args[1:]) else 0
    work = None
    if args[0] == "--work" and len(args) > 2:
        work, args = Path(args[1]), args[2:]
    name = args[0]
    fuzz(name, args[1:], work or HERE / "out" / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
