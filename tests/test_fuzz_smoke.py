"""A short run of every fuzz target (fuzz/targets.py) without atheris: the committed
seed corpus, each seed with a few random byte edits, and random byte strings, all from
fixed seeds. The targets check the contract themselves (typed errors only, rejected
actions change nothing, states round-trip exactly), so a violation fails here as the
exception or assertion the target raised. The long coverage-guided runs are
``python fuzz/run.py TARGET`` (docs/reliability.md)."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load_script

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"


def _load(name: str, module_name: str) -> ModuleType:
    """fuzz/``name``.py imported as ``module_name`` (fuzz/ is scripts, not a package)."""
    return load_script(FUZZ / f"{name}.py", module_name)


# run.py imports the targets as ``targets``; one module object serves both.
targets = _load("targets", "targets")
#: Random inputs per target beyond the seeds; the apply targets cost about 1 ms each.
RANDOM_INPUTS = 1500


def _mutated(seed: bytes, rng: random.Random) -> bytes:
    """``seed`` with a few bytes overwritten, inserted or cut, as libFuzzer would."""
    data = bytearray(seed)
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(data) + 1)
        edit = rng.randrange(3)
        if edit == 0 and at < len(data):
            data[at] = rng.randrange(256)
        elif edit == 1:
            data[at:at] = rng.randbytes(rng.randrange(1, 8))
        else:
            del data[at : at + rng.randrange(1, 8)]
    return bytes(data)


def _inputs(name: str) -> list[bytes]:
    seeds = [path.read_bytes() for path in sorted((FUZZ / "corpus" / name).iterdir())]
    rng = random.Random(f"cardkit-fuzz-{name}")
    mutants = [_mutated(rng.choice(seeds), rng) for _ in range(RANDOM_INPUTS // 2)]
    noise = [rng.randbytes(rng.randrange(64)) for _ in range(RANDOM_INPUTS // 2)]
    return seeds + mutants + noise


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_target_holds_its_contract(name: str) -> None:
    target = targets.TARGETS[name]
    for data in _inputs(name):
        target(data)


def test_every_target_has_seeds_and_the_runner_lists_it() -> None:
    runner = _load("run", "cardkit_fuzz_run")
    assert runner._names() == list(targets.TARGETS)
    for name in targets.TARGETS:
        assert any((FUZZ / "corpus" / name).iterdir()), name


def test_an_untyped_error_is_a_finding() -> None:
    def broken(data: bytes) -> None:
        raise KeyError(data)

    with pytest.raises(KeyError):
        targets._guard(broken)(b"x")
