"""The double-dummy bench (benches/bridge_dd.py): its rounds and its rows."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from .scripts import load_script

pytest.importorskip("endplay.dds")

BENCH = Path(__file__).resolve().parent.parent / "benches" / "bridge_dd.py"


def _bench() -> ModuleType:
    return load_script(BENCH, "bridge_dd_bench")


def test_timing_keeps_the_fastest_round_with_its_cpu_time() -> None:
    timing = _bench().Timing()
    timing.add(2.0, 3.0)
    timing.add(1.0, 1.5)
    timing.add(1.5, 0.1)
    assert (timing.wall, timing.cpu) == (1.0, 1.5)
    # Two deals: 500 ms each, 750 ms of CPU each, 1.5 cores busy.
    assert timing.row(2) == "500.0 ms | 750.0 ms | 1.50"


def test_bench_prints_both_tables_for_alternating_thread_counts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench()
    monkeypatch.setattr(
        sys, "argv", ["bridge_dd.py", "--deals", "2", "--threads", "2", "--rounds", "2"]
    )
    calls: list[int] = []
    run = bench.batch_run

    def counted(pbns: list[str], threads: int) -> tuple[float, float]:
        calls.append(threads)
        return run(pbns, threads)

    monkeypatch.setattr(bench, "batch_run", counted)
    bench.main()  # exits if a table differs from DDS's
    out = capsys.readouterr().out
    assert calls == [1, 2, 2, 1]
    rows = [line for line in out.splitlines() if line.startswith("| ") and "ms |" in line]
    assert [row.split(" | ")[0] for row in rows] == [
        "| cardkit dd_table",
        "| endplay calc_dd_table (DDS)",
        "| 1",
        "| 2",
    ]
    assert all(len(row.split(" | ")) == 5 for row in rows)
