"""The Bridge rule agent: the natural bidding system call by call, the rule card
play, and whole deals."""

from __future__ import annotations

from typing import Any

import pytest

import cardkit
from cardkit import Card, IllegalActionError
from cardkit.agents import RandomAgent, agent_factory
from cardkit.agents.bridge import (
    BridgeRuleAgent,
    BridgeSearchAgent,
    HandConstraint,
    auction_constraints,
    hand_shape,
    natural_call,
    rule_card,
)

# 17 points, 4333: a 1NT opening.
NT_HAND = "As Ks 3s Ah Qh 4h 5h Kd 6d 7d Jc 8c 9c"
# 12 points with five spades.
SPADE_HAND = "As Qs Js 8s 3s Kh 4h 5h Qd 6d 7d 8c 9c"
# 23 points.
STRONG_HAND = "As Ks Qs 3s Ah Kh Qh 4h Ad Kd 7d 8c 9c"
# 7 points and six hearts.
WEAK_TWO_HAND = "Kh Qh Th 8h 5h 4h 3s 4s 8d 7d 2c 3c Jc"


def _mask(text: str) -> int:
    return sum(1 << Card(c).index for c in text.split())


def bid(seat: int, level: int, strain: str) -> dict[str, Any]:
    return {"seat": seat, "call": "bid", "level": level, "strain": strain}


def passed(seat: int) -> dict[str, Any]:
    return {"seat": seat, "call": "pass"}


def call(hand: str, auction: list[dict[str, Any]], seat: int | None = None) -> str:
    """The system call of the seat after ``auction`` (from South)."""
    if seat is None:
        seat = (2 + len(auction)) % 4
    return natural_call({"seat": seat, "hand": hand.split(), "auction": auction})


def test_hand_shape() -> None:
    assert hand_shape(NT_HAND.split()) == (17, [3, 3, 4, 3], True)
    assert hand_shape(WEAK_TWO_HAND.split())[0] == 6


def test_openings() -> None:
    assert call(NT_HAND, []) == "1NT"
    assert call(SPADE_HAND, []) == "1S"
    assert call(STRONG_HAND, []) == "2C"
    assert call(WEAK_TWO_HAND, []) == "2H"
    assert call("2s 3s 4s 5h 6h 7h 8d 9d Td Jc Qc Kc 2c", []) == "pass"
    # No five-card major: the longer minor.
    assert call("As 2s 3s Ah 4h Kd 6d 7d 8d Jc 8c 9c Qc", []) == "1D"


def test_stayman_and_transfers_over_1nt() -> None:
    opened = [bid(2, 1, "NT"), passed(3)]
    # Five hearts: transfer with 2D, whatever the strength.
    assert call("2h 3h 4h 5h 6h 2s 3s 4d 5d 6d 2c 3c 4c", opened) == "2D"
    # Five spades: 2H.
    assert call("2s 3s 4s 5s 6s 2h 3h 4d 5d 6d 2c 3c 4c", opened) == "2H"
    # Ten points and four hearts: Stayman.
    stayman_hand = "Ah Kh 4h 5h Qs 3s 4s Kd 5d 6d 2c 3c 4c"
    assert call(stayman_hand, opened) == "2C"
    stayman = [*opened, bid(0, 2, "C"), passed(1)]
    assert call(NT_HAND, stayman) == "2H"
    assert call("As Ks 3s 9s Ah Qh 4h Kd 6d 7d Jc 8c 9c", stayman) == "2S"
    assert call("As Ks 3s Ah Qh 4h Kd 6d 7d 5d Jc 8c 9c", stayman) == "2D"
    # Responder with the fit and ten points bids game.
    answered = [*stayman, bid(2, 2, "H"), passed(3)]
    assert call(stayman_hand, answered) == "4H"
    # Opener completes a transfer.
    assert call(NT_HAND, [*opened, bid(0, 2, "D"), passed(1)]) == "2H"
    assert call(NT_HAND, [*opened, bid(0, 2, "H"), passed(1)]) == "2S"
    # Balanced 10-15 without a major: 3NT.
    assert call("Ad Kd 4d 5d Qc 3c Jc 9s 5s 6s 2h 3h 4h", opened) == "3NT"


def test_responses_to_one_of_a_suit() -> None:
    opened = [bid(2, 1, "S"), passed(3)]
    assert call("Ks 4s 5s 6s Ah 2h 3h 4d 5d 6d 2c 3c 4c", opened) == "2S"
    assert call("Ks 4s 5s 6s Ah Kh 3h 4d 5d 6d 2c 3c 4c", opened) == "3S"
    over_club = [bid(2, 1, "C"), passed(3)]
    assert call("Ks 4s 5s 6s Ah 2h 3h 4d 5d 6d 2c 3c 4c", over_club) == "1S"
    assert call("2s 3s 4s 5h 6h 7h 8d 9d Td Jc Qc 4c 2c", [bid(2, 1, "D"), passed(3)]) == "pass"


def test_competitive_calls() -> None:
    # West over South's 1C: an overcall of a five-card suit, or a takeout double.
    assert call(SPADE_HAND, [bid(2, 1, "C")]) == "1S"
    assert call("As Ks 3s 4s Ah Qh 4h 5h Kd 6d 7d 8d 9c", [bid(2, 1, "C")]) == "X"
    # Penalty double of a three-level contract with four trumps and two honours.
    auction = [bid(2, 1, "H"), passed(3), bid(0, 2, "H"), bid(1, 3, "C")]
    assert call("Ac Kc Tc 9c 2s 3s 4s 5h 6h 7d 8d 9d Td", auction) == "X"


def test_rule_card_play() -> None:
    base: dict[str, Any] = {
        "contract": {"level": 4, "strain": "S", "doubling": "", "declarer": 0, "dummy": 2},
        "leader": 1,
    }
    # Partner (seat 1's partner is 3) leads; seat 2 plays second: low.
    obs = {**base, "hand_to_play": 2, "trick": ["Kh"]}
    assert rule_card(obs, ["2h", "Ah", "Qh"]) == "2h"
    # Third hand: partner of the leader wins cheaply over the second hand's card.
    obs = {**base, "hand_to_play": 3, "trick": ["5h", "9h"]}
    assert rule_card(obs, ["2h", "Th", "Ah"]) == "Th"
    # Partner winning: low.
    obs = {**base, "hand_to_play": 3, "trick": ["Ah", "9h"]}
    assert rule_card(obs, ["2h", "Kh"]) == "2h"
    # Void: the lowest trump wins.
    obs = {**base, "hand_to_play": 0, "trick": ["Ah", "9h", "Kh"]}
    assert rule_card(obs, ["2s", "Ks", "3d"]) == "2s"
    # Leads: the top of a sequence.
    obs = {**base, "hand_to_play": 1, "trick": []}
    assert rule_card(obs, ["Kd", "Qd", "4d", "7c", "8c"]) == "Kd"


def test_agent_is_registered_and_refuses_nothing_to_choose() -> None:
    assert isinstance(agent_factory("bridge", "rule")(0), BridgeRuleAgent)
    with pytest.raises(IllegalActionError):
        BridgeRuleAgent().act({}, [])


def test_whole_deals_with_rule_agents() -> None:
    game = cardkit.games.make("bridge", vulnerability="both")
    contracts = set()
    margin = 0.0
    for seed in range(60):
        state = cardkit.play(game, [BridgeRuleAgent() for _ in range(4)], seed=seed)
        assert state.is_terminal
        contracts.add(state.contract_text())
        agents = [BridgeRuleAgent(), RandomAgent(seed), BridgeRuleAgent(), RandomAgent(seed + 1)]
        margin += cardkit.play(game, agents, seed=seed).returns()[0]
    # Sensible auctions end in many different contracts, rarely doubled.
    assert len(contracts) >= 10
    assert sum(1 for c in contracts if c and c.endswith("XX")) == 0
    # Against random calls and cards the system wins by a wide margin.
    assert margin / 60 > 300


def test_game_tries_after_a_major_raise() -> None:
    raised = [bid(2, 1, "S"), passed(3), bid(0, 2, "S"), passed(1)]
    # 19 points: game; 16: an invitation; 13: pass.
    assert call("As Ks Qs 8s 3s Ah Kh 5h Qd 6d 7d Jc 9c", raised) == "4S"
    assert call("As Ks Qs 8s 3s Ah 4h 5h Qd 6d 7d Qc 9c", raised) == "3S"
    assert call(SPADE_HAND, raised) == "pass"
    invited = [*raised, bid(2, 3, "S"), passed(3)]
    assert call("Ks 4s 5s 6s Ah 2h 3h 4d 5d 6d Jc 3c 4c", invited, seat=0) == "4S"
    assert call("Ks 4s 5s 6s 2h 3h 9h 4d 5d 6d Jc 3c 4c", invited, seat=0) == "pass"
    # An opened 2NT raised to 3NT stays there.
    assert (
        call(
            "As Ks 3s Ah Kh 4h Ad Kd 6d Qc Jc 8c 9c",
            [bid(2, 2, "NT"), passed(3), bid(0, 3, "NT"), passed(1)],
        )
        == "pass"
    )


def _hand_of(mask: int) -> list[str]:
    return [str(Card.from_index(i)) for i in range(52) if mask >> i & 1]


def test_search_agent_samples_deals_exactly_consistent_with_the_play_and_auction() -> None:
    # Every position of 24 deals bid by the system and played by the rule agent,
    # as each seat to play sees it: every sampled deal keeps the seen hands, gives
    # each hidden seat its number of cards, none of a suit it has shown out of, no
    # card twice or already played, and fits every constraint of the auction
    # (hand as dealt: its played cards count) unless the sampler says it relaxed
    # them (then the shapes still hold when only the points went).
    game = cardkit.games.make("bridge")
    rule = BridgeRuleAgent()
    checked = relaxed_any = 0
    for seed in range(24):
        state = game.new_state(seed=seed)
        searcher = BridgeSearchAgent(seed=seed, samples=8)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observation(seat)
            if obs["phase"] == "play":
                truth = state.play_position()
                assert truth is not None
                tricks = [*obs["tricks"], obs["trick"]]
                leaders = [*obs["trick_leaders"], obs["leader"]]
                by_seat: list[list[str]] = [[], [], [], []]
                shown_out: list[set[str]] = [set(), set(), set(), set()]
                for t, lead in zip(tricks, leaders, strict=True):
                    for k, c in enumerate(t):
                        by_seat[(lead + k) % 4].append(c)
                        if c[1] != t[0][1]:
                            shown_out[(lead + k) % 4].add(t[0][1])
                seen = {obs["hand_to_play"], seat}
                if obs["dummy_hand"]:
                    seen.add(obs["contract"]["dummy"])
                shows = auction_constraints(obs["auction"])
                worlds, relaxed = searcher._worlds(obs)
                relaxed_any += relaxed > 0
                assert len(worlds) == 8
                for hands in worlds:
                    cards = [c for h in hands for c in _hand_of(h)]
                    assert len(set(cards)) == len(cards) == 52 - sum(map(len, by_seat))
                    for s in range(4):
                        mine = _hand_of(hands[s])
                        assert len(mine) == bin(truth[0][s]).count("1")
                        if s in seen:
                            assert hands[s] == truth[0][s]
                            continue
                        assert not {c[1] for c in mine} & shown_out[s]
                        dealt = [*by_seat[s], *mine]
                        if relaxed == 0:
                            assert shows[s].admits(dealt)
                        elif relaxed == 1:
                            loose = HandConstraint((0, 37), shows[s].lengths, shows[s].balanced)
                            assert loose.admits(dealt)
                checked += 1
            state.apply(rule.act(obs, state.legal_actions()))
    assert checked > 1000 and relaxed_any < checked // 4


def test_sampler_is_uniform_over_admitted_deals() -> None:
    # Eight unseen cards, four to each of two hidden seats that played nine cards
    # each; the first showed 13-14 points with 10 in its played hearts, so its four
    # cards hold Kc or Ac and three of the five small cards: 20 deals, each equally
    # likely. Chi-square over 20,000 draws (fixed seed), 99.9% point 43.8 (19 df).
    from cardkit._core import bridge_sample_deals

    unseen = _mask("Ac Kc 2c 3c 4c Qd 2d 3d")
    played = [_mask("Ah Kh Qh Jh Th 9h 8h 7h 6h"), _mask("As Ks Qs Js Ts 9s 8s 7s 6s")]
    any_length = [(0, 13)] * 4
    draws = 20_000
    deals, relaxed = bridge_sample_deals(
        unseen, played, [0, 0], [(13, 14), (0, 37)], [any_length] * 2, [False] * 2, draws, 7
    )
    assert relaxed == 0
    counts: dict[int, int] = {}
    for first, second in deals:
        assert first | second == unseen and not first & second
        assert hand_shape(_hand_of(first | played[0]))[0] in (13, 14)
        counts[first] = counts.get(first, 0) + 1
    assert len(counts) == 20
    expected = draws / 20
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 43.8


def test_sampler_relaxes_in_order_and_never_spins() -> None:
    from cardkit._core import bridge_sample_deals

    # West shows 20+ points and six spades but has shown out of spades: the
    # lengths cannot hold, so the sampler drops points, then shapes, and deals.
    clubs_diamonds = (1 << 52) - 1 & sum(1 << i for i in range(52) if i % 4 < 2)
    six_spades = [(0, 13), (0, 13), (0, 13), (6, 13)]
    any_length = [(0, 13)] * 4
    deals, relaxed = bridge_sample_deals(
        clubs_diamonds, [0, 0], [0, 1 << 3], [(0, 37), (20, 37)], [any_length, six_spades],
        [False, False], 5, 1,
    )  # fmt: skip
    assert relaxed == 2
    assert all(a | b == clubs_diamonds and bin(b).count("1") == 13 for a, b in deals)
    # Points alone that cannot hold: only the points go, after the budget.
    _, relaxed = bridge_sample_deals(
        clubs_diamonds, [0, 0], [0, 0], [(30, 37)] * 2, [any_length] * 2, [False] * 2, 5, 1,
        budget=50,
    )  # fmt: skip
    assert relaxed == 1
    # Both hidden hands void in clubs: no deal, a typed error rather than a spin.
    with pytest.raises(cardkit.RuleOptionError, match="do not fit"):
        bridge_sample_deals(
            clubs_diamonds, [0, 0], [1, 1], [(0, 37)] * 2, [any_length] * 2, [False] * 2, 5, 1
        )
    with pytest.raises(cardkit.RuleOptionError, match="places"):
        bridge_sample_deals(clubs_diamonds, [0], [0], [(0, 37)], [any_length], [False], 5, 1)


def test_search_agent_is_registered_and_reproducible() -> None:
    # The same seeds give the same play on one solver thread or two.
    assert isinstance(agent_factory("bridge", "search")(0), BridgeSearchAgent)
    game = cardkit.games.make("bridge")
    runs = [
        cardkit.play(
            game, [BridgeSearchAgent(7 + s, samples=6, threads=t) for s in range(4)], seed=3
        ).history
        for t in (1, 2)
    ]
    assert runs[0] == runs[1]
    with pytest.raises(cardkit.RuleOptionError):
        BridgeSearchAgent(0, samples=0)
    with pytest.raises(cardkit.RuleOptionError):
        BridgeSearchAgent(0, objective="imps")


def test_search_objectives_play_legal_cards() -> None:
    # Both objectives play whole deals to the end with legal cards.
    game = cardkit.games.make("bridge", vulnerability="both")
    for objective in ("tricks", "score"):
        agents = [BridgeSearchAgent(s, samples=3, objective=objective) for s in range(4)]
        state = cardkit.play(game, agents, seed=11)
        assert state.is_terminal and sum(state.returns()) == 0


def shows(
    auction: list[dict[str, Any]],
) -> list[tuple[tuple[int, int], list[tuple[int, int]], bool]]:
    """Each seat's inferred (points, lengths c d h s, balanced) after ``auction``."""
    return [(c.hcp, list(c.lengths), c.balanced) for c in auction_constraints(auction)]


ANY_LENGTHS = [(0, 13)] * 4


def test_inference_of_the_1nt_opening_and_passes() -> None:
    found = shows([bid(2, 1, "NT")])
    assert found[2] == ((15, 17), ANY_LENGTHS, True)
    assert found[0] == ((0, 37), ANY_LENGTHS, False)
    # Passes before the opening deny opening strength; after it they show nothing.
    found = shows([passed(2), passed(3), bid(0, 1, "S"), passed(1)])
    assert found[2][0] == found[3][0] == (0, 11)
    assert found[0] == ((12, 21), [(0, 13), (0, 13), (0, 13), (5, 13)], False)
    assert found[1] == ((0, 37), ANY_LENGTHS, False)


def test_inference_of_a_single_raise() -> None:
    found = shows([bid(2, 1, "S"), passed(3), bid(0, 2, "S"), passed(1), passed(2)])
    assert found[0] == ((6, 9), [(0, 13), (0, 13), (0, 13), (4, 13)], False)
    # Opener passing the single raise: no game try, 15 or fewer.
    assert found[2] == ((12, 15), [(0, 13), (0, 13), (0, 13), (5, 13)], False)


def test_inference_of_stayman() -> None:
    found = shows([bid(2, 1, "NT"), passed(3), bid(0, 2, "C"), passed(1), bid(2, 2, "H")])
    assert found[0] == ((8, 37), [(0, 13), (0, 13), (0, 4), (0, 4)], False)
    assert found[2] == ((15, 17), [(0, 13), (0, 13), (4, 13), (0, 13)], True)
    found = shows([bid(2, 1, "NT"), passed(3), bid(0, 2, "C"), passed(1), bid(2, 2, "D")])
    assert found[2][1][2:] == [(0, 3), (0, 3)]


def test_inference_of_a_transfer() -> None:
    auction = [bid(2, 1, "NT"), passed(3), bid(0, 2, "D"), passed(1), bid(2, 2, "H"), passed(3)]
    found = shows([*auction, passed(0)])
    assert found[0] == ((0, 7), [(0, 13), (0, 13), (5, 13), (0, 13)], False)
    assert found[2] == ((15, 17), ANY_LENGTHS, True)
    found = shows([*auction, bid(0, 4, "H")])
    assert found[0] == ((10, 37), [(0, 13), (0, 13), (6, 13), (0, 13)], False)


def test_inference_of_responses_and_competition() -> None:
    found = shows([bid(2, 1, "H"), passed(3), bid(0, 1, "S")])
    assert found[0] == ((6, 37), [(0, 13), (0, 13), (0, 3), (4, 13)], False)
    found = shows([bid(2, 1, "C"), passed(3), bid(0, 1, "NT")])
    assert found[0] == ((6, 10), [(0, 13), (0, 13), (0, 3), (0, 3)], False)
    found = shows([bid(2, 1, "D"), bid(3, 1, "S")])
    assert found[3] == ((8, 16), [(0, 13), (0, 13), (0, 13), (5, 13)], False)
    found = shows([bid(2, 1, "H"), {"seat": 3, "call": "double"}])
    assert found[3] == ((12, 37), [(0, 13), (0, 13), (0, 2), (0, 13)], False)
    found = shows([bid(2, 1, "D"), bid(3, 1, "NT")])
    assert found[3] == ((15, 18), ANY_LENGTHS, True)


def test_every_system_call_reads_back_to_the_hand_that_made_it() -> None:
    # Seeded auctions bid by the system: each call's reading admits the hand that
    # made it, but for the documented exception (16+ passing partner's 1NT).
    from cardkit.agents.bridge import call_constraint

    game = cardkit.games.make("bridge")
    agent = BridgeRuleAgent()
    words = {"pass": "pass", "double": "X", "redouble": "XX"}
    for seed in range(300):
        state = game.new_state(seed=seed)
        hands = [[str(c) for c in state.private_cards(s)] for s in range(4)]
        while state.phase == "auction":
            seat = state.current_player
            assert seat is not None
            state.apply(agent.act(state.observation(seat), state.legal_actions()))
        auction = state.observation(0)["auction"]
        for k, record in enumerate(auction):
            seat = record["seat"]
            text = words.get(record["call"]) or f"{record.get('level')}{record.get('strain')}"
            if not call_constraint(seat, auction[:k], text).admits(hands[seat]):
                before = [c for c in auction[:k] if c["call"] == "bid"]
                assert text == "pass" and hand_shape(hands[seat])[0] >= 16
                assert [(b["level"], b["strain"]) for b in before] == [(1, "NT")]
