"""One Poker's SignalAgent: locking by the signals and 2-beats-A, betting by win chance."""

from __future__ import annotations

import cardkit
from cardkit import Card, games
from cardkit.agents import RandomAgent
from cardkit.agents.onepoker import SignalAgent, win_chance


def test_signal_agent_locks_with_the_signals_and_two_beats_ace() -> None:
    state = games.make("onepoker").new_state(seed=1, deal="2c Ah 7d Kd")
    obs = state.observation(0)
    assert obs["signals"][1] == {"up": 2, "down": 0}
    # Against two UP cards a 2 (beats only an ace) is still better than a 7.
    assert SignalAgent(0).act(obs, state.legal_actions()) == "lock 2c"
    assert win_chance(Card("2c"), 2) > win_chance(Card("7d"), 2)
    assert win_chance(Card("Kd"), 0) == 1.0


def test_signal_agent_bets_strong_and_folds_weak() -> None:
    state = games.make("onepoker").new_state(seed=1, deal="Kc 3h Kd 4d")
    state.apply("lock Kc")
    state.apply("lock 3h")
    agent = SignalAgent(0, bluff=0.0)
    assert agent.act(state.observation(0), state.legal_actions()).kind == "bet"
    state.apply("bet 10")
    assert agent.act(state.observation(1), state.legal_actions()) == "fold"


def test_signal_agent_beats_random_over_matches() -> None:
    game = games.make("onepoker")
    wins = 0
    for seed in range(60):
        hero = seed % 2
        agents = [SignalAgent(seed), RandomAgent(seed + 1)]
        if hero:
            agents.reverse()
        wins += cardkit.play(game, agents, seed=seed).returns()[hero] > 0
    assert wins > 40
