"""The paired declarer bench (benches/bridge_declarer_pair.py): B's reused
decisions, the solves B shares with A, and the paired report."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from .scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("bridge_declarer_pair")


def test_a_variant_reuses_only_the_decisions_it_cannot_change() -> None:
    # Seed 1002: weighing changes no card there, and B reuses A's searches of
    # the decisions with no defender's card in the trick (leads, and declarer's
    # side following its own lead), so B searched as many decisions, fewer of
    # them itself.
    row = _bench().pair(1002, {"weigh_defence": 0.3}, 1, True)
    a, b = row["A"], row["B"]
    assert a["lost"] == b["lost"] == 0
    assert a["reused"] == 0 < b["reused"] < b["searched"] == a["searched"]


def test_the_report_pairs_the_deals() -> None:
    rows = [
        {"seed": 1},
        {
            "seed": 2,
            "A": {"lost": 1, "cpu": 1.0, "searched": 10},
            "B": {"lost": 0, "cpu": 2.0, "searched": 10},
        },
        {
            "seed": 3,
            "A": {"lost": 0, "cpu": 1.0, "searched": 10},
            "B": {"lost": 0, "cpu": 2.0, "searched": 10},
        },
    ]
    text = _bench().report(rows)
    assert text.splitlines()[0] == "2 deals with a contract"
    assert (
        "A: lost +0.500" in text
        and "20 searched decisions, 100 ms CPU each" in text
        and "200 ms CPU each" in text
    )
    assert "B better on 1, worse on 0, alike on 1" in text


def test_shared_solves_change_nothing_but_the_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # With --share-solves B takes the positions A solved: the same cards, tricks
    # lost and deals per decision as solving them again, for fewer solves.
    import cardkit.agents.bridge as search_module

    bench = _bench()
    variant = {"samples": 4, "rival": "distinct"}
    alone = bench.pair(1002, variant, 1, False)
    shared = bench._SharedSolves()
    solve = shared.solve
    positions: list[int] = []

    def counted(hands: Any, *rest: Any) -> Any:
        positions.append(len(hands))
        return solve(hands, *rest)

    shared.solve = counted
    monkeypatch.setattr(search_module, "dd_solve_many", shared)
    together = bench.pair(1002, variant, 1, False)
    for name in "AB":
        for key in ("lost", "searched", "deals"):
            assert together[name][key] == alone[name][key]
    assert sum(positions) < together["A"]["deals"] + together["B"]["deals"]
