"""The Tractor rule agent: legal, deterministic, and ahead of random players."""

from __future__ import annotations

import cardkit
from cardkit.agents import RandomAgent, agent_factory
from cardkit.agents.tractor import TractorRuleAgent, TractorSearchAgent, card_order
from cardkit.api import Action


def test_rule_agent_plays_whole_matches_and_replays_identically() -> None:
    game = cardkit.games.make("tractor", level="Q")
    for seed in range(2):
        a = cardkit.play(game, [TractorRuleAgent(s) for s in range(4)], seed=seed)
        b = cardkit.play(game, [TractorRuleAgent(s) for s in range(4)], seed=seed)
        assert a.is_terminal and a.history == b.history
    assert isinstance(agent_factory("tractor", "rule")(3), TractorRuleAgent)


def test_rule_agent_beats_random_players() -> None:
    game = cardkit.games.make("tractor", match=False)
    total = 0.0
    for seed in range(40):
        team = seed % 2
        agents = [
            TractorRuleAgent(seed) if s % 2 == team else RandomAgent(seed + s) for s in range(4)
        ]
        total += cardkit.play(game, agents, seed=seed).returns()[team]
    assert total > 0


def test_rule_agent_declares_a_long_suit_and_buries_short_suits() -> None:
    agent = TractorRuleAgent(0)
    hand = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh 3c 4c 5c 6c 7c 8c 9c Tc Jc 3d 4d 5d 6d 7d 3s"
    obs = {"phase": "declare", "level": "2", "hand": hand.split()}
    legal = [Action("pass"), Action("declare 2h")]
    assert agent.act(obs, legal) == "declare 2h"
    weak = {"phase": "declare", "level": "2", "hand": ["2h", "3c", "4d", "5s"]}
    assert agent.act(weak, legal) == "pass"
    bury = {"phase": "bury", "level": "2", "trump": "h", "hand": [*hand.split(), "Ks"]}
    legal = [Action(f"bury {c}") for c in ("3h", "3c", "3s", "Ks")]
    assert agent.act(bury, legal) == "bury Ks"  # the shortest side suit, points first
    assert card_order(cardkit.Card("2c"), "2", "h") < card_order(cardkit.Card("2h"), "2", "h")


def test_search_agent_plays_legal_deals_and_replays_identically() -> None:
    game = cardkit.games.make("tractor", match=False)
    for seed in range(2):
        runs = [
            cardkit.play(
                game,
                [
                    TractorSearchAgent(s, worlds=2) if s % 2 else TractorRuleAgent(s)
                    for s in range(4)
                ],
                seed=seed,
            )
            for _ in range(2)
        ]
        assert runs[0].is_terminal and runs[0].history == runs[1].history
    assert isinstance(agent_factory("tractor", "search")(3), TractorSearchAgent)
