"""Hold'em agents: legal, seeded, and sensible on clear spots."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cardkit
from cardkit import Card, games
from cardkit.agents import RandomAgent
from cardkit.agents._trickview import BATCH_WORLDS
from cardkit.agents.holdem import (
    _COMBOS,
    _DECK,
    CallingStationAgent,
    EquityAgent,
    RangeAgent,
    _combo_index,
    _replay_streets,
    starting_hand_score,
)
from cardkit.api import Action, Agent
from cardkit.errors import CardkitError, RuleOptionError
from cardkit.games.holdem import Holdem, HoldemState, arrange_deal
from cardkit.poker import Range, equity


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


# -- RangeAgent ------------------------------------------------------------------------


def _play_hand(
    game: Holdem, agents: list[Agent], seed: int, deal: list[Card] | None = None
) -> HoldemState:
    """One hand, every chosen action checked legal before it is applied."""
    state = game.new_state(seed=seed, deal=deal)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        choice = agents[seat].act(state.observation(seat), state.legal_actions())
        assert state.illegal_reason(choice) is None, (seed, seat, choice)
        state.apply(choice)
    return state


@pytest.mark.parametrize("players", range(2, 10))
def test_range_agent_plays_only_legal_actions(players: int) -> None:
    rng = random.Random(players)
    for seed in range(6):
        # A third of the stacks short, so all-ins, side pots and run-outs come up.
        stacks = [rng.choice([1000, 1000, rng.randint(5, 300)]) for _ in range(players)]
        game = Holdem(players=players, match=False, stacks=stacks, button=seed % players)
        agents: list[Agent] = [
            RangeAgent(seed + s, samples=20) if s % 2 == 0 else EquityAgent(s, samples=20)
            for s in range(players)
        ]
        state = _play_hand(game, agents, seed)
        assert sum(state.returns()) == 0


def test_range_agent_replays_with_its_seed() -> None:
    game = Holdem(players=3, match=False)
    runs = []
    for _ in range(2):
        agents: list[Agent] = [RangeAgent(7, samples=30), RangeAgent(8, samples=30), RandomAgent(9)]
        runs.append([_play_hand(game, agents, seed).history for seed in range(8)])
    assert runs[0] == runs[1]


def test_range_agent_ignores_cards_it_cannot_see() -> None:
    # Seat 0 holds the same cards on the same board in both deals; the other seats'
    # cards and the burns differ. Opponents that always check or call act alike in
    # both, so seat 0 must too, up to the showdown.
    game = Holdem(players=3, match=False)
    board = "Kd 9s 4h 2c Jd"
    deals = [
        arrange_deal([1000] * 3, 0, {0: "Ah Qh", 1: "7c 7d", 2: "Ks 3s"}, board, "5c 6c 8c"),
        arrange_deal([1000] * 3, 0, {0: "Ah Qh", 1: "Tc 2d", 2: "As Js"}, board, "3c 6d 8h"),
    ]
    streams = []
    for deal in deals:
        agents: list[Agent] = [
            RangeAgent(3, samples=40),
            CallingStationAgent(),
            CallingStationAgent(),
        ]
        streams.append(_play_hand(game, agents, 0, deal).history)
    assert streams[0] == streams[1]
    assert any(a.kind in ("bet", "raise") for a in streams[0])  # it did more than check


def test_range_agent_counts_the_bets_before_each_action() -> None:
    # Seat 3 opens, seat 0 re-raises, the blinds fold, seat 3 calls; on the flop
    # seat 3 bets into seat 0. The big blind is the first pre-flop bet.
    state = Holdem(players=4, match=False).new_state(seed=1)
    for text in ("raise 50", "raise 150", "fold", "fold", "call", "bet 100"):
        state.apply(text)
    steps = _replay_streets(state.observation(0))
    assert [(s.street, s.seat, s.verb, s.raises_before) for s in steps] == [
        (0, 3, "raise", 1),
        (0, 0, "raise", 2),
        (0, 1, "fold", 3),
        (0, 2, "fold", 3),
        (0, 3, "call", 3),
        (1, 3, "bet", 0),
    ]
    # Other players yet to act since the last raise: the opener has three behind, the
    # re-raiser the two blinds (the opener acted before the re-raise), the folding
    # blinds the opener too, the flop bettor one.
    assert [s.behind for s in steps] == [3, 2, 2, 1, 0, 1]


def test_range_agent_narrows_ranges_by_the_betting() -> None:
    # Seat 3 opens under the gun, the button (seat 0) re-raises, the big blind (seat
    # 2) and seat 3 call: the re-raiser's range holds the most aces, the cold caller's
    # the fewest, and neither raiser keeps the weakest hands.
    game = Holdem(players=4, match=False)
    state = game.new_state(seed=1)
    for text in ("raise 50", "raise 150", "fold", "call", "call"):
        state.apply(text)
    obs = state.observation(1)
    ranges = RangeAgent(0).ranges(obs)
    aces = Range("AA, AKs").combos(dead=obs["hole"] + obs["board"])
    weakest = Range("72o, 83o, 32o").combos(dead=obs["hole"] + obs["board"])

    def share(seat: int, hands: list[tuple[Card, Card, float]]) -> float:
        w = ranges[seat]
        picked = [
            k
            for k, (hi, lo) in enumerate(_COMBOS.tolist())
            if any({hi, lo} == {a.index, b.index} for a, b, _ in hands)
        ]
        return float(w[picked].sum() / w.sum())

    assert sorted(ranges) == [0, 2, 3]
    assert share(0, aces) > share(3, aces) > share(2, aces)
    assert share(0, weakest) < 0.01 and share(3, weakest) < 0.01


def test_range_agent_equity_and_clear_spots() -> None:
    agent = RangeAgent(0, samples=400)
    everything = np.ones(len(_COMBOS))
    aces = agent.equity([Card("As"), Card("Ah")], [], [everything])
    assert 0.78 < aces < 0.92  # AA against any hand: about 85%
    board = [Card(c) for c in ("Qs", "Js", "Ts", "2d")]
    assert agent.equity([Card("As"), Card("Ks")], board, [everything]) == 1.0  # exact, turn
    state = Holdem(players=4, match=False).new_state(seed=2)
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    obs["hole"] = ["As", "Ad"]
    assert agent.act(obs, state.legal_actions()) == "raise 50"  # aces open 2.5 blinds
    obs["hole"] = ["7c", "2d"]
    assert agent.act(obs, state.legal_actions()) == "fold"  # 7-2 folds under the gun


def test_range_agent_honours_its_sample_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.agents.holdem as holdem

    asked: list[int | None] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("exact"):
            asked.append(kwargs.get("samples"))
        return equity(*args, **kwargs)

    monkeypatch.setattr(holdem, "equity", counted)
    game = Holdem(players=3, match=False)
    _play_hand(game, [RangeAgent(1, samples=37), RangeAgent(2, samples=37), RandomAgent(3)], 4)
    assert asked and set(asked) == {37}
    asked.clear()
    timed: list[Agent] = [RangeAgent(1, time_per_move=1e-9), CallingStationAgent()]
    _play_hand(Holdem(players=2, match=False), timed, 4)
    # A time budget searches whole batches, at least one per Monte Carlo decision.
    assert asked and set(asked) == {BATCH_WORLDS}


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"samples": 0}, "samples"),
        ({"samples": 2.5}, "samples"),
        ({"samples": True}, "samples"),
        ({"time_per_move": 0}, "time_per_move"),
        ({"time_per_move": -1.0}, "time_per_move"),
        ({"time_per_move": "fast"}, "time_per_move"),
        ({"bluff": 1.5}, "bluff"),
        ({"bluff": float("nan")}, "bluff"),
        ({"seed": -1}, "seed"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_range_agent_rejects_bad_options(options: dict[str, Any], word: str) -> None:
    with pytest.raises(RuleOptionError, match=word):
        RangeAgent(**options)


def test_range_agent_rejects_an_empty_listing() -> None:
    state = Holdem(players=2, match=False).new_state(seed=0)
    with pytest.raises(CardkitError):
        RangeAgent(0).act(state.observation(0), [])


def test_range_agent_indexes_every_starting_hand_once() -> None:
    # The weight axis: pairs of card indices lo < hi by lo then hi, either order in.
    assert len({frozenset(pair) for pair in _COMBOS.tolist()}) == len(_COMBOS) == 1326
    for k, (hi, lo) in enumerate(_COMBOS.tolist()):
        assert _combo_index([_DECK[hi], _DECK[lo]]) == _combo_index([_DECK[lo], _DECK[hi]]) == k
