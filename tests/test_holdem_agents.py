"""Hold'em agents: legal, seeded, and sensible on clear spots."""

from __future__ import annotations

import cardkit
from cardkit import Card, games
from cardkit.agents import RandomAgent
from cardkit.agents.holdem import CallingStationAgent, EquityAgent, starting_hand_score
from cardkit.api import Action


def test_equity_agent_plays_a_match_reproducibly() -> None:
    game = games.make("holdem", players=3)
    agents = [EquityAgent(1, samples=30), CallingStationAgent(), RandomAgent(3)]
    a = cardkit.play(game, agents, seed=4)
    again = [EquityAgent(1, samples=30), CallingStationAgent(), RandomAgent(3)]
    b = cardkit.play(game, again, seed=4)
    assert a.history == b.history and a.is_terminal


def test_equity_estimates() -> None:
    agent = EquityAgent(0, samples=600)
    aces = agent.equity([Card("As"), Card("Ah")], [], [0])
    assert 0.78 < aces < 0.92  # AA against a random hand: about 85%
    trash = agent.equity([Card("7c"), Card("2d")], [], [2])
    assert trash < 0.35  # 7-2 against a two-time raiser
    nuts = agent.equity([Card("As"), Card("Ks")], [Card(c) for c in ("Qs", "Js", "Ts")], [0, 0])
    assert nuts == 1.0
    assert starting_hand_score(Card("As"), Card("Ad")) > starting_hand_score(Card("7c"), Card("2d"))


def test_equity_agent_decisions() -> None:
    state = games.make("holdem", players=2, match=False).new_state(seed=2)
    agent = EquityAgent(5, samples=200)
    obs = state.observation(0)
    obs["hole"] = ["As", "Ad"]
    choice = agent.act(obs, state.legal_actions())
    assert choice.kind == "raise"  # aces open
    obs["hole"] = ["7c", "2d"]
    obs["to_call"] = 500
    obs["pot"] = 530
    assert agent.act(obs, [Action("fold"), Action("call")]) == "fold"


def test_calling_station_never_folds_or_raises() -> None:
    station = CallingStationAgent()
    assert station.act({}, [Action("fold"), Action("call"), Action("raise 40")]) == "call"
    assert station.act({}, [Action("check"), Action("bet 20")]) == "check"
