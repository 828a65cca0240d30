"""The Guandan agent bench (benches/guandan_agents.py): its pairing and its rows."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from cardkit.agents import RandomAgent
from cardkit.agents.guandan import GuandanRuleAgent

from .scripts import load_script

BENCH = Path(__file__).resolve().parent.parent / "benches" / "guandan_agents.py"


def _bench() -> ModuleType:
    return load_script(BENCH, "guandan_agents_bench")


def test_equal_agents_gain_nothing_because_every_game_is_paired() -> None:
    bench = _bench()
    for factory in (lambda s: RandomAgent(s), lambda s: GuandanRuleAgent()):
        rows = bench.matchup(factory, factory, 3, 7)
        assert set(rows) == {"team", "seat 0", "seat 1", "seat 2", "seat 3", "any seat"}
        assert all(values == [0.0, 0.0, 0.0] for values in rows.values())


def test_rows_hold_one_gain_per_deal_within_the_climb() -> None:
    rows = _bench().matchup(lambda s: GuandanRuleAgent(), lambda s: RandomAgent(s), 2, 0)
    for values in rows.values():
        assert len(values) == 2
        # A deal pays at most 3 levels each way, so a paired gain is at most 6.
        assert all(-6.0 <= v <= 6.0 for v in values)
    assert all(v > 0 for v in rows["team"])


def test_the_return_matchup_scores_the_first_deal_with_tribute_of_each_match() -> None:
    rows = _bench().return_matchup(3, 0)
    assert set(rows) == {"team"} and len(rows["team"]) == 3
    # The plan team's mean levels over its two games: a deal pays at most 3 levels.
    assert all(-3.0 <= v <= 3.0 for v in rows["team"])
