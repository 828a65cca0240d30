"""The Tractor agents: legal, deterministic, the rule agent ahead of random players,
and declaring from search (seeded, listed speeches, clear hands, its options)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardkit
from cardkit import _core
from cardkit.agents import RandomAgent, agent_factory
from cardkit.agents.tractor import (
    TractorRuleAgent,
    TractorSearchAgent,
    card_order,
    declare_values,
)
from cardkit.api import Action
from cardkit.errors import IllegalActionError, InvalidCardError, RuleOptionError


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


# -- declaring from search -----------------------------------------------------------

#: Eighteen hearts with the level card 2h: with hearts trumps, 18 of 25 cards.
LONG_HEARTS = "2h 3h 3h 4h 4h 5h 5h 6h 6h 7h 7h 8h 9h Th Jh Qh Kh Ah 3c 4c 5c 3d 4d 3s 4s"
#: Low cards and one level card, 2c, without another club: clubs trumps would
#: give it one trump.
WEAK_CLUBS = "2c 3d 4d 5d 6d 7d 8d 9d Td 3h 4h 5h 6h 7h 8h 9h Th 3s 4s 5s 6s 7s 8s 9s Ts"


def _declaring(hand: str, first_speaker: int = 0, seed: int = 5) -> tuple[Any, list[Action]]:
    """Seat 0's first declaring observation and listed speeches with ``hand`` dealt
    to it, the seats from ``first_speaker`` on passing until its turn."""
    game = cardkit.games.make("tractor", match=False, first_speaker=first_speaker)
    state = game.new_state(seed=seed, deal=hand.split())
    while state.current_player != 0:
        state.apply("pass")
    return state.observation(0), state.legal_actions()


def _searcher(seed: int = 1, worlds: int = 48) -> TractorSearchAgent:
    return TractorSearchAgent(seed, declaring="search", declare_worlds=worlds)


def test_search_declaring_is_seeded_and_plays_legal_deals() -> None:
    game = cardkit.games.make("tractor", match=False)
    for seed in range(3):
        runs = [
            cardkit.play(
                game, [_searcher(4 * seed + s, worlds=4) for s in range(4)], seed=seed
            ).history
            for _ in range(2)
        ]
        assert runs[0] == runs[1]
    observation, legal = _declaring(LONG_HEARTS)
    a = declare_values(observation, legal, 16, 9)
    assert a == declare_values(observation, legal, 16, 9) and len(a) == len(legal)


def test_search_declaring_answers_a_listed_speech_in_every_declaring_state() -> None:
    # Every speech of seeded declarings, overcalls and all: the answer is listed.
    agent = _searcher(worlds=4)
    game = cardkit.games.make("tractor", match=False, first_speaker=2)
    rng = random.Random(3)
    seen = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        while state.phase == "declare":
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            assert agent.act(state.observation(seat), legal) in legal
            seen += 1
            state.apply(legal[rng.randrange(len(legal))])
    assert seen >= 24


def test_a_long_suit_declares_and_a_weak_hand_passes() -> None:
    observation, legal = _declaring(LONG_HEARTS)
    assert legal == ["pass", "declare 2h"]
    assert _searcher().act(observation, legal) == "declare 2h"
    # Speaking first: declaring clubs makes seat 0 deal with one trump of its own;
    # a pass leaves the trumps to the others' declarations or the exposed kitty.
    observation, legal = _declaring(WEAK_CLUBS)
    assert legal == ["pass", "declare 2c"]
    values = declare_values(observation, legal, 96, 2)
    assert values[0] > values[1]
    assert _searcher().act(observation, legal) == "pass"


def test_the_default_declaring_is_the_rule_agents() -> None:
    for hand in (LONG_HEARTS, WEAK_CLUBS):
        observation, legal = _declaring(hand)
        rule = TractorRuleAgent(0).act(observation, legal)
        assert TractorSearchAgent(0).act(observation, legal) == rule


@pytest.mark.parametrize(
    "options",
    [
        {"declaring": "points"},
        {"declaring": None},
        {"declare_worlds": 0},
        {"declare_worlds": "8"},
        {"declare_worlds": True},
    ],
)
def test_bad_declaring_options_raise_rule_option_errors(options: dict[str, Any]) -> None:
    with pytest.raises(RuleOptionError):
        TractorSearchAgent(0, **options)


def test_declare_values_refuses_bad_input() -> None:
    observation, legal = _declaring(LONG_HEARTS)
    with pytest.raises(RuleOptionError):
        declare_values(observation, legal, 0, 1)
    with pytest.raises(RuleOptionError):
        declare_values(observation, legal, 4, -1)
    with pytest.raises(IllegalActionError):
        declare_values(observation, [Action("bury 3c")], 4, 1)
    with pytest.raises(IllegalActionError):
        declare_values({**observation, "phase": "play"}, legal, 4, 1)
    # A declaration this seat could not have followed in turn.
    with pytest.raises(IllegalActionError):
        declare_values(
            {**observation, "declarations": [{"seat": 0, "declared": "level card", "suit": "s"}]},
            legal,
            4,
            1,
        )
    with pytest.raises(InvalidCardError):
        declare_values({**observation, "hand": observation["hand"][:24]}, legal, 4, 1)


def test_the_observation_names_the_first_speaker() -> None:
    game = cardkit.games.make("tractor", first_speaker=3)
    state = game.new_state(seed=2)
    assert state.observation(1)["first_speaker"] == 3
    agent = TractorRuleAgent(0)
    while state.deal_number == 0:
        seat = state.current_player
        assert seat is not None
        state.apply(agent.act(state.observation(seat), state.legal_actions()))
    assert state.observation(0)["first_speaker"] == state.dealer


def _reference_declare(observation: dict[str, Any], legal: list[Action]) -> Action:
    """The rule agent's declaring, stated plainly: the suit with the most trumps it
    would give when at least ten (level cards and jokers count for every suit), joker
    pairs with six or more level cards and jokers scored as four more; first of equals."""
    hand = [cardkit.Card(c) for c in observation["hand"]]
    level = observation["level"]
    always = sum(1 for c in hand if c.suit is None or c.rank == level)
    best: tuple[int, Action] | None = None
    for action in legal:
        if action.kind != "declare":
            continue
        suit = cardkit.parse_cards(action.args[0])[0].suit
        if suit is None:
            score = always + 4 if always >= 6 else 0
        else:
            score = always + sum(1 for c in hand if c.suit == suit and c.rank != level)
        if score >= 10 and (best is None or score > best[0]):
            best = (score, action)
    return best[1] if best is not None else Action("pass")


def _reference_bury(observation: dict[str, Any], legal: list[Action]) -> Action:
    """The rule agent's next burial, stated plainly: no trump, ace or pair while
    others remain, then the shortest side suit, more points, weaker, lower index."""
    hand = [cardkit.Card(c) for c in observation["hand"]]
    level, trump = observation["level"], observation["trump"]
    counts = Counter(hand)
    lengths = Counter(c.suit or "" for c in hand if card_order(c, level, trump)[0] == 0)

    def cost(action: Action) -> tuple[int, int, int, int, int]:
        card = cardkit.Card(action.args[0])
        is_trump, strength = card_order(card, level, trump)
        keep = int(card.rank == "A") + int(counts[card] == 2)
        length = 99 if is_trump else lengths[card.suit or ""]
        points = 5 if card.rank == "5" else 10 if card.rank in ("T", "K") else 0
        return (is_trump, keep, length, -points, strength)

    return min(legal, key=cost)


def test_the_rule_agent_declares_and_buries_by_the_stated_rule() -> None:
    # The rule lives in Rust (tractor_rule_declare, tractor_rule_burial), shared by
    # the rule agent and the declaring search's playouts; hold it to a plain
    # statement on many real positions.
    game = cardkit.games.make("tractor", match=False)
    agent = TractorRuleAgent(0)
    rng = random.Random(7)
    declared = buried = 0  # speeches that declare, burials compared
    for seed in range(150):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            observation = state.observation(seat)
            legal = state.legal_actions()
            if observation["phase"] == "declare":
                want = _reference_declare(observation, legal)
                assert agent.act(observation, legal) == want, (seed, observation["hand"])
                declared += want.kind == "declare"
                # a random speech, so later speakers face overcalls too
                state.apply(legal[rng.randrange(len(legal))])
            elif observation["phase"] == "bury":
                want = _reference_bury(observation, legal)
                assert agent.act(observation, legal) == want, (seed, observation["hand"])
                state.apply(want)
                buried += 1
            else:
                break
    assert declared > 50 and buried > 800


def test_the_rule_bindings_refuse_bad_input() -> None:
    hand = _core.deck("double108")[:25]
    with pytest.raises(IllegalActionError, match="not a speech"):
        _core.tractor_rule_declare(hand, "2", [0, 11])
    with pytest.raises(RuleOptionError):
        _core.tractor_rule_declare(hand, "1", [0])
    with pytest.raises(InvalidCardError):
        _core.tractor_rule_burial(["As"] * 3, "2", "h")
    assert len(_core.tractor_rule_burial(hand, "2", None)) == 8


# -- the endgame solver -------------------------------------------------------------


def _positions(seeds: range, left: int) -> list[tuple[_core.TractorDeal, list[str]]]:
    """Random card plays stopped once at most ``left`` cards are in the hands (a
    follow possibly part-chosen), with random kitties of the rest of the pack."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        pack = [r + s for r in "23456789TJQKA" for s in "cdhs"] * 2 + ["BJ", "RJ"] * 2
        rng.shuffle(pack)
        deal = _core.TractorDeal(
            [pack[25 * i : 25 * i + 25] for i in range(4)], "2", rng.choice("cdhs"), seed % 4
        )
        while sum(len(deal.hand(s)) for s in range(4)) > left:
            deal.apply_id(rng.choice(deal.legal_ids()))
        out.append((deal, pack[100:]))
    return out


def test_action_points_with_the_solver_off_are_the_heuristic_playouts() -> None:
    # endgame=0 values every world as TractorSearchAgent always did: each action
    # played on a copy, then the heuristic playout with its seed, scored by
    # attacker_points.
    for i, (deal, kitty) in enumerate(_positions(range(30), 100 - 3 * 30)):
        ids = deal.legal_ids()[:6]
        seeds = [1000 * i + k for k in range(len(ids))]
        for dealer in range(4):
            want = []
            for action, seed in zip(ids, seeds, strict=True):
                twin = deal.copy()
                twin.apply_id(action)
                twin.heuristic_playout(seed)
                want.append(twin.attacker_points(dealer, kitty))
            assert deal.action_points(ids, seeds, dealer, kitty) == want
            assert deal.action_points(ids, seeds, dealer, kitty, 0, 1) == want


def test_action_points_solved_share_a_solver_and_stay_exact() -> None:
    # TRC-42, TRC-43: exact values, the best both teams can do, whatever the seeds
    # and whether the actions share one solver (all at once) or not (one a call).
    for deal, kitty in _positions(range(40), 11):
        ids = deal.legal_ids()
        together = deal.action_points(ids, [0] * len(ids), 1, kitty, 10, 10**8)
        alone = [deal.action_points([a], [7], 1, kitty, 10, 10**8)[0] for a in ids]
        assert together == alone
        assert deal.action_points(ids, list(range(len(ids))), 1, kitty, 10, 10**8) == together
        assert all(0 <= p <= 200 + 8 * 5 * 10 * 2 for p in together)


#: The id of playing the card of index 0 in a follow (``tractor_action_index``).
_PLAY_CARD = _core.tractor_action_index()[6]


class _PlayoutReference(TractorSearchAgent):
    """The search agent's card play as it was before ``action_points``: one
    heuristic playout a world and action, each with its own draw from the agent's
    generator, in the same order."""

    def act(self, observation: Any, legal_actions: Any) -> Action:
        if observation.get("phase") != "play" or len(legal_actions) == 1:
            return super().act(observation, legal_actions)
        dealer = observation["dealer"]
        attacking = observation["seat"] % 2 != dealer % 2
        totals = [0.0] * len(legal_actions)
        sampled = 0
        for _ in range(4 * self._worlds):
            found = self._world(observation)
            if found is None:
                continue
            world, kitty = found
            sampled += 1
            for i, action in enumerate(legal_actions):
                deal = world.copy()
                cards = cardkit.parse_cards(action.args[0])
                lead = deal.lead is None
                action_id = deal.lead_id(cards) if lead else _PLAY_CARD + cards[0].index
                assert action_id is not None
                deal.apply_id(action_id)
                deal.heuristic_playout(self._rng.getrandbits(64))
                points = deal.attacker_points(dealer, kitty)
                totals[i] += points if attacking else -points
            if sampled == self._worlds:
                break
        if not sampled:
            return self._rule.act(observation, legal_actions)
        return legal_actions[max(range(len(legal_actions)), key=totals.__getitem__)]


def test_search_agent_with_the_solver_off_chooses_as_the_playout_reference() -> None:
    # endgame=0: the same worlds, the same playout seeds drawn in the same order, so
    # the same choices in every seat of whole deals.
    game = cardkit.games.make("tractor", match=False)
    for seed in range(3):
        runs = [
            cardkit.play(game, [kind(s + 10 * seed, worlds=4) for s in range(4)], seed=seed)
            for kind in (TractorSearchAgent, _PlayoutReference)
        ]
        assert runs[0].is_terminal and runs[0].history == runs[1].history


def test_search_agent_with_the_endgame_solver_plays_legal_deals_and_replays() -> None:
    game = cardkit.games.make("tractor", match=False)
    runs = [
        cardkit.play(
            game,
            [TractorSearchAgent(s, worlds=3, endgame=16, endgame_nodes=5_000) for s in range(4)],
            seed=4,
        )
        for _ in range(2)
    ]
    assert runs[0].is_terminal and runs[0].history == runs[1].history


def test_search_agent_with_the_solver_off_is_unchanged_by_the_budget() -> None:
    # endgame=0 never solves, so endgame_nodes cannot change a choice.
    game = cardkit.games.make("tractor", match=False)
    runs = [
        cardkit.play(
            game,
            [TractorSearchAgent(s, worlds=2, endgame_nodes=n) for s in range(4)],
            seed=6,
        )
        for n in (1, 20_000)
    ]
    assert runs[0].history == runs[1].history


@pytest.mark.parametrize(
    "options",
    [
        {"endgame": -1},
        {"endgame": 101},
        {"endgame": "8"},
        {"endgame": True},
        {"endgame_nodes": 0},
        {"endgame_nodes": 10**9},
        {"endgame_nodes": 2.5},
    ],
)
def test_bad_endgame_options_raise_rule_option_errors(options: dict[str, Any]) -> None:
    with pytest.raises(RuleOptionError):
        TractorSearchAgent(0, **options)
