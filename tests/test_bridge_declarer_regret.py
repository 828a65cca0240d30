"""The declarer regret screen (benches/bridge_declarer_regret.py)."""

from __future__ import annotations

from types import ModuleType

from .scripts import load_bench


def _bench() -> ModuleType:
    return load_bench("bridge_declarer_regret")


def test_main_loses_exactly_its_screened_regret() -> None:
    # Against double-dummy defenders every trick main loses is one decision's
    # regret, and every decision it loses one on is screened: the regrets of the
    # screened rows add up to the deal's tricks lost (seed 70004: two, as in the
    # 1,000-deal paired run). Each weighing's card is scored in the real deal.
    bench = _bench()
    rows = bench.deal(70004, 8, 0.0, [(0.3, 13)])
    decisions, last = rows[:-1], rows[-1]
    assert last == {"seed": 70004, "lost": 2}
    assert decisions and all(r["main"] > 0 for r in decisions)
    assert sum(r["main"] for r in decisions) == 2
    for r in decisions:
        assert {"uniform", "0.3:13"} <= set(r) and r["uniform"] >= 0 and r["0.3:13"] >= 0
    text = bench.report(rows, 0.1)
    assert text.startswith("1 deals with a contract, 2 tricks lost by main")
    assert "main: 2 on the losing decisions, 0 on the controls" in text


def test_a_deal_without_a_contract_is_one_row() -> None:
    # Seed 40 is passed out by the natural system.
    assert _bench().deal(40, 2, 0.0, []) == [{"seed": 40}]
