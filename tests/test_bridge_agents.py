"""The Bridge rule agent: the natural bidding system call by call, the rule card
play, and whole deals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cardkit
from cardkit import Card, IllegalActionError
from cardkit.agents import RandomAgent, agent_factory
from cardkit.agents.bridge import (
    BridgeRuleAgent,
    BridgeSearchAgent,
    HandConstraint,
    _clear,
    _defence_likelihoods,
    _equal_cards,
    _fit_the_defence,
    auction_constraints,
    hand_shape,
    natural_call,
    rule_card,
)
from cardkit.api import Observation
from cardkit.bridge import dd_solve
from cardkit.games.bridge import STRAINS

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
    with pytest.raises(cardkit.RuleOptionError, match="max_samples"):
        BridgeSearchAgent(0, samples=8, max_samples=4)
    with pytest.raises(cardkit.RuleOptionError, match="read_defence"):
        BridgeSearchAgent(0, read_defence=1)  # type: ignore[arg-type]
    for floor in (0, 0.0, -0.1, 1.5, True, "0.1", float("nan")):
        with pytest.raises(cardkit.RuleOptionError, match="weigh_defence"):
            BridgeSearchAgent(0, weigh_defence=floor)  # type: ignore[arg-type]
    with pytest.raises(cardkit.RuleOptionError, match="pick one"):
        BridgeSearchAgent(0, read_defence=True, weigh_defence=0.1)
    with pytest.raises(cardkit.RuleOptionError, match="ties"):
        BridgeSearchAgent(0, ties="highest")
    for rival in ("second", "", None, 2):
        with pytest.raises(cardkit.RuleOptionError, match="rival"):
            BridgeSearchAgent(0, rival=rival)  # type: ignore[arg-type]
    for tricks in (0, 14, -1, 2.0, True, "13", None):
        with pytest.raises(cardkit.RuleOptionError, match="read_tricks"):
            BridgeSearchAgent(0, weigh_defence=0.3, read_tricks=tricks)  # type: ignore[arg-type]
    # How far back the defence is read means nothing without reading it.
    with pytest.raises(cardkit.RuleOptionError, match="read_tricks"):
        BridgeSearchAgent(0, read_tricks=13)
    assert BridgeSearchAgent(0, read_defence=True, read_tricks=13)._read_tricks == 13


def _first_search(seed: int) -> tuple[Any, Any, list[Any]]:
    """The state, declarer's observation and legal actions at declarer's first
    card decision that :class:`BridgeSearchAgent` searches (rule auction and
    play up to there)."""
    game = cardkit.games.make("bridge")
    state = game.new_state(seed=seed)
    rule = BridgeRuleAgent()
    while True:
        seat = state.current_player
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_actions()
        play = obs["phase"] == "play" and len(legal) > 1
        if play and seat == obs["contract"]["declarer"] and _equal_cards(obs, legal) is None:
            return state, obs, legal
        state.apply(rule.act(obs, legal))


def test_search_agent_decisions_depend_only_on_seed_and_observation() -> None:
    # Each decision draws its deals from a seed of its own: an agent that has
    # played the deal so far and a fresh one choose the same card.
    game = cardkit.games.make("bridge")
    state = game.new_state(seed=5)
    played = BridgeSearchAgent(9, samples=4)
    checked = 0
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_actions()
        action = played.act(obs, legal)
        if obs["phase"] == "play" and len(legal) > 1:
            assert BridgeSearchAgent(9, samples=4).act(obs, legal) == action
            checked += 1
        state.apply(action)
    assert checked > 20


def test_close_decisions_draw_more_deals() -> None:
    # One draw only when max_samples == samples; by default a close decision
    # draws again (up to four times samples), a clear one does not.
    game = cardkit.games.make("bridge")
    once = [BridgeSearchAgent(s, samples=4, max_samples=4) for s in range(4)]
    cardkit.play(game, once, seed=2)
    for agent in once:
        assert agent.stats["deals"] == 4 * agent.stats["decisions"]
    adaptive = [BridgeSearchAgent(s, samples=4) for s in range(4)]
    cardkit.play(game, adaptive, seed=2)
    deals = sum(a.stats["deals"] for a in adaptive)
    decisions = sum(a.stats["decisions"] for a in adaptive)
    assert 4 * decisions < deals < 16 * decisions
    for agent in adaptive:
        assert agent.stats["deals"] % 4 == 0
        assert agent.stats["deals"] <= 16 * agent.stats["decisions"]
    # Reading the defence, the deals its cards rule out are drawn again: at most
    # twice the draws, the last one of them possibly over max_samples.
    reading = [BridgeSearchAgent(s, samples=4, max_samples=4, read_defence=True) for s in range(4)]
    cardkit.play(game, reading, seed=2)
    assert sum(a.stats["rejected"] for a in reading) > 0
    for agent in reading:
        decisions, deals = agent.stats["decisions"], agent.stats["deals"]
        assert 4 * decisions <= deals + agent.stats["rejected"] <= 8 * decisions
        assert deals <= 7 * decisions
    # The rule: a lead of two root mean squares (paired), or no difference at all.
    one = [1.0] * 7
    assert _clear([1, 1, 1, 1], [0, 0, 0, 0], one[:4])
    assert _clear([3, 2], [3, 2], one[:2])
    assert not _clear([1, 0, 0, 0], [0, 0, 0, 0], one[:4])
    assert not _clear([2, 1, 1], [1, 1, 2], one[:3])
    assert _clear([2, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1], one) is False
    assert _clear([1] * 4 + [0], [0] * 5, one[:5])
    # Weighted: a deal of little weight moves the lead little.
    assert _clear([1] * 5 + [0], [0] * 5 + [5], [1.0] * 5 + [0.01])
    assert not _clear([1] * 5 + [0], [0] * 5 + [5], one[:6])


def test_close_decisions_against_the_best_cards_distinct_rival() -> None:
    # Cards 8 and 12 (touching, say) take the same tricks in every deal; card 20
    # takes one fewer in one deal of three. With rival="next" the best card leads its
    # equal, on no deal, and the draws stop; rival="distinct" puts card 20 up.
    taken_in = {8: [3, 2, 2], 12: [3, 2, 2], 20: [3, 2, 1]}
    ranked = [20, 12, 8]  # by merit, best last
    assert BridgeSearchAgent(0, rival="next")._rival_of(ranked, taken_in) == 12
    assert BridgeSearchAgent(0, rival="distinct")._rival_of(ranked, taken_in) == 20
    # When every card is the best one's equal, the next best: a clear decision.
    equal = {8: [1, 2], 12: [1, 2]}
    assert BridgeSearchAgent(0, rival="distinct")._rival_of([12, 8], equal) == 12
    assert _clear(taken_in[8], taken_in[12], [1.0] * 3)
    assert not _clear(taken_in[8], taken_in[20], [1.0] * 3)


def test_distinct_rival_plays_legal_cards_reproducibly_and_draws_more() -> None:
    # Whole deals to the end with legal cards (cardkit.play refuses others), the
    # same seeds giving the same play; on these deals the close rule against a
    # distinct card draws more deals than against the next best.
    game = cardkit.games.make("bridge")
    drawn = {}
    for rival in ("next", "distinct"):
        runs = []
        for _ in range(2):
            agents = [BridgeSearchAgent(s, samples=4, rival=rival) for s in range(4)]
            state = cardkit.play(game, agents, seed=2)
            assert state.is_terminal
            runs.append(state.history)
        assert runs[0] == runs[1]
        drawn[rival] = sum(a.stats["deals"] for a in agents) / sum(
            a.stats["decisions"] for a in agents
        )
    assert drawn["distinct"] > drawn["next"]


def test_search_agent_counts_relaxed_decisions() -> None:
    # East "opened 2C" (22+) but declarer and dummy hold 19+ of the 40 points:
    # no deal fits, the sampler drops the point ranges and the agent counts it.
    for seed in range(40):
        _, obs, legal = _first_search(seed)
        seen = obs["hand"] + obs["dummy_hand"]
        if obs["contract"]["declarer"] % 2 == 0 and hand_shape(seen)[0] >= 19:
            break
    else:
        pytest.fail("no deal with 19+ points for North-South")
    agent = BridgeSearchAgent(1, samples=4)
    agent.act({**obs, "auction": []}, legal)  # no evidence: nothing to drop
    assert agent.stats["decisions"] == 1 and agent.relaxed_decisions == 0
    agent.act({**obs, "auction": [bid(1, 2, "C")]}, legal)
    assert agent.stats["decisions"] == 2
    assert agent.stats["relaxed_points"] == agent.relaxed_decisions == 1
    assert agent.stats["relaxed_shapes"] == 0


def _between(obs: dict[str, Any], legal: list[Any]) -> bool:
    """Whether a card of the trick in progress lies between two legal cards."""
    ranks = sorted("23456789TJQKA".index(a.text[5]) for a in legal)
    suit = legal[0].text[6]
    return any(
        c[1] == suit and ranks[0] < "23456789TJQKA".index(c[0]) < ranks[-1] for c in obs["trick"]
    )


def test_equal_cards_take_the_same_tricks_in_every_deal() -> None:
    # Every position of 30 deals played by the rule agent where the shortcut
    # fires: every legal card takes the same tricks double dummy in the real deal
    # and in three deals the search agent samples. It fires at about one decision
    # in ten (160 times), 21 of them only through the cards of the trick in progress.
    from cardkit._core import dd_solve_many

    game = cardkit.games.make("bridge")
    rule = BridgeRuleAgent()
    fired = through_trick = 0
    for seed in range(30):
        state = game.new_state(seed=seed)
        searcher = BridgeSearchAgent(seed, samples=3)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs, legal = state.observation(seat), state.legal_actions()
            equal = _equal_cards(obs, legal) if obs["phase"] == "play" else None
            if equal is not None and len(legal) > 1:
                fired += 1
                through_trick += _between(obs, legal)
                truth = state.play_position()
                assert truth is not None
                hands, strain, leader, trick = truth
                worlds = [hands, *searcher._worlds(obs)[0]]
                solved = dd_solve_many(worlds, [strain] * 4, [leader] * 4, [trick] * 4, 1)
                for plays in solved:
                    assert len({taken for _, taken in plays}) == 1, (seed, obs["trick"], legal)
                assert equal.text[5:] == min(
                    (a.text[5:] for a in legal), key=lambda c: Card(c).index
                )
            state.apply(rule.act(obs, legal))
    assert fired > 100 and through_trick > 10


def _position(trick: list[str], strain: str = "NT") -> dict[str, Any]:
    return {"tricks": [], "trick": trick, "contract": {"strain": strain}}


def _plays(cards: str) -> list[Any]:
    from cardkit.api import Action

    return [Action(f"play {c}") for c in cards.split()]


def test_equal_cards_through_the_trick_in_progress() -> None:
    # Kh and Jh with the Qh played: alike when the trick is already won above
    # them (the Ah), not when the Kh would win it and the Jh would not.
    assert _equal_cards(_position(["Qh", "Ah"]), _plays("Kh Jh")) == _plays("Jh")[0]
    assert _equal_cards(_position(["Qh"]), _plays("Kh Jh")) is None
    assert _equal_cards(_position(["2s", "Qh"], "H"), _plays("Kh Jh")) is None
    # Ruffed above: the hearts followed are all losers.
    assert _equal_cards(_position(["Qs", "2h"], "H"), _plays("Ks Js")) == _plays("Js")[0]


def test_equal_cards_refuse_a_partners_card_between() -> None:
    # South holds Kh Jh, dummy (North) the singleton Qh and two spade winners
    # without another entry; East has led the 2h. The Jh lets the Qh win and
    # North cash the spades (3 tricks), the Kh blocks the suit (2): a card of
    # declarer's own side between two cards divides them too.
    from cardkit._core import dd_solve_many

    north, east, south, west = (_mask(h) for h in ("Qh As Ks", "3d 4d", "Kh Jh 2d", "3h 5d 6d"))
    (plays,) = dd_solve_many([[north, east, south, west]], [4], [1], [[Card("2h").index]])
    taken = {str(Card.from_index(c)): t for c, t in plays}
    assert taken == {"Kh": 2, "Jh": 3}
    assert _equal_cards(_position(["2h"]), _plays("Kh Jh")) is None


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


def _hands(*texts: str) -> list[int]:
    return [_mask(t) for t in texts]


#: A three-card ending at no trump: declarer South, West led the 4d into dummy's
#: Ad Qd (North), and North is to play; West holds the Kd in one deal, East in the other.
_ENDING_AFTER_THE_4D: dict[str, Any] = {
    "contract": {"declarer": 2, "strain": "NT"},
    "hand_to_play": 0,
    "leader": 3,
    "trick": ["4d"],
}
_DEAL_KD_WEST = _hands("Ad Qd As", "5d 6d 5s", "2d 3d 2c", "Kd 4s")
_DEAL_KD_EAST = _hands("Ad Qd As", "Kd 6d 5s", "2d 3d 2c", "5d 4s")


def test_deals_where_the_defence_gave_a_trick_away_are_left_out() -> None:
    # No trump, three cards each, West led the 4d into dummy's Ad Qd (North,
    # declarer South). Had West held the Kd (deal A), the 4s lead keeps the Kd
    # safe (dummy must then lead diamonds from the Ad Qd), the 4d lead gives it
    # away: a double-dummy defender does not lead it from there, so deal A is
    # left out and the finesse is no longer counted as winning. With the Kd in
    # East's hand (deal B) every lead takes the same tricks: kept.
    obs, deal_a, deal_b = _ENDING_AFTER_THE_4D, _DEAL_KD_WEST, _DEAL_KD_EAST
    assert _fit_the_defence(obs, [deal_a, deal_b], 4, 1) == [deal_b]
    # The defenders' own search reads nothing into their partner's card here.
    defending = {**obs, "hand_to_play": 1, "trick": ["4d", "Qd"]}
    east_a = _hands("Ad As", "5d 6d 5s", "2d 3d 2c", "Kd 4s")
    assert _fit_the_defence(defending, [east_a], 4, 1) == [east_a]


def test_deals_are_weighed_by_how_likely_the_defence_played_its_cards() -> None:
    # The three-card ending above: in deal A the 4d lead was no best card for
    # West (the floor); in deal B all three of West's cards take the same
    # tricks, so the 4d was one of three best cards (1/3).
    obs, deal_a, deal_b = _ENDING_AFTER_THE_4D, _DEAL_KD_WEST, _DEAL_KD_EAST
    assert _defence_likelihoods(obs, [deal_a, deal_b], 4, 1, 0.05) == [0.05, 1 / 3]
    assert _defence_likelihoods(obs, [deal_a, deal_b], 4, 1, 0.0) == [0.0, 1 / 3]
    # A defender's own search weighs every deal alike.
    defending = {**obs, "hand_to_play": 1, "trick": ["4d", "Qd"]}
    east_a = _hands("Ad As", "5d 6d 5s", "2d 3d 2c", "Kd 4s")
    assert _defence_likelihoods(defending, [east_a], 4, 1, 0.05) == [1.0]


def test_earlier_tricks_are_read_with_read_tricks() -> None:
    # The trick above played out: West led the 4d, dummy finessed the Qd, East
    # played the 5d and South the 2d; dummy, on lead, is to play. Deal A: West
    # held the Kd, so the 4d lead gave it away (the floor), and East's 5d was
    # one of its two equal diamonds (1/2). Deal C: East held the Kd and let the
    # Qd win (the floor), after a lead that cost nothing (one of three best,
    # 1/3). Reading the trick in progress alone (empty) weighs both deals 1.
    obs = {
        "contract": {"declarer": 2, "strain": "NT"},
        "hand_to_play": 0,
        "leader": 0,
        "trick": [],
        "tricks": [["4d", "Qd", "5d", "2d"]],
        "trick_leaders": [3],
    }
    deal_a = _hands("Ad As", "6d 5s", "3d 2c", "Kd 4s")
    deal_c = _hands("Ad As", "Kd 5s", "3d 2c", "6d 4s")
    assert _defence_likelihoods(obs, [deal_a, deal_c], 4, 1, 0.05) == [1.0, 1.0]
    for tricks in (2, 13):
        weights = _defence_likelihoods(obs, [deal_a, deal_c], 4, 1, 0.05, tricks)
        assert weights == pytest.approx([0.05 / 2, 0.05 / 3])
        assert _fit_the_defence(obs, [deal_a, deal_c], 4, 1, tricks) == []
    assert _fit_the_defence(obs, [deal_a, deal_c], 4, 1) == [deal_a, deal_c]


def _declarer_decisions(seed: int) -> Iterator[tuple[Any, Observation, list[Any], int]]:
    """Deal ``seed`` bid by the rule agents, then played out by double-dummy
    defenders and the rule agent for declarer: the state, observation, legal
    actions and strain at each of declarer's decisions (dummy's cards included),
    before the rule agent plays; nothing when the deal is passed out."""
    game = cardkit.games.make("bridge")
    state = game.new_state(seed=seed)
    rule = BridgeRuleAgent()
    while state.phase == "auction":
        seat = state.current_player
        assert seat is not None
        state.apply(rule.act(state.observation(seat), state.legal_actions()))
    contract = state.contract
    if contract is None:
        return
    sides = (contract["declarer"], contract["dummy"])
    strain = STRAINS.index(contract["strain"])
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_actions()
        if seat in sides:
            yield state, obs, legal, strain
            state.apply(rule.act(obs, legal))
            continue
        solved = dd_solve(state)
        best = max(solved.values())
        state.apply(
            f"play {min((c for c, t in solved.items() if t == best), key=lambda c: c.index)}"
        )


def test_the_real_deal_fits_the_whole_double_dummy_defence() -> None:
    # Reading every card of the play (read_tricks=13), the real deal still fits a
    # double-dummy defence at each of declarer's decisions, the opening lead
    # included; and an agent reading that far plays a legal card, the same one
    # each time for the same seed.
    checked = searched = 0
    for state, obs, legal, strain in _declarer_decisions(0):
        real = state._current_hands()
        assert _fit_the_defence(obs, [real], strain, 1, 13) == [real]
        checked += 1
        if len(obs["tricks"]) >= 6 and len(legal) > 1 and _equal_cards(obs, legal) is None:
            cards = [
                BridgeSearchAgent(9, samples=3, weigh_defence=0.3, read_tricks=13).act(obs, legal)
                for _ in range(2)
            ]
            assert cards[0] == cards[1] and cards[0] in legal
            searched += 1
    assert checked > 20 and searched > 0


def test_a_forced_follow_is_not_solved(monkeypatch: pytest.MonkeyPatch) -> None:
    # A defender's only card of the suit led weighs 1 without a solve: the weights
    # are those of solving every card read (the suit masks emptied), for fewer
    # solves, over a deal's declarer decisions reading the whole play.
    import cardkit.agents.bridge as bridge_agents

    solve = bridge_agents.dd_solve_many
    solved: list[int] = []

    def counted(hands: Any, *rest: Any) -> Any:
        solved.append(len(hands))
        return solve(hands, *rest)

    monkeypatch.setattr(bridge_agents, "dd_solve_many", counted)
    sampler = BridgeSearchAgent(3, samples=6)
    suits = bridge_agents._SUIT_MASKS
    counts = [0, 0]
    for _, obs, _, strain in _declarer_decisions(0):
        if len(obs["tricks"]) % 3 != 1:
            continue
        worlds, _ = sampler._worlds(obs)
        weights = []
        for k, masks in enumerate((suits, [0, 0, 0, 0])):
            monkeypatch.setattr(bridge_agents, "_SUIT_MASKS", masks)
            solved.clear()
            weights.append(_defence_likelihoods(obs, worlds, strain, 1, 0.3, 13))
            counts[k] += sum(solved)
        assert weights[0] == weights[1]
    assert 0 < counts[0] < counts[1], counts


def test_weighed_deals_decide_the_card() -> None:
    # Two deals, card 0 takes 3 tricks in the first and 1 in the second, card
    # 1 the other way round, so unweighted they tie and the lower card wins;
    # weighing the second deal less makes card 0 the better (weights other than
    # 1 come only from weigh_defence).
    agent = BridgeSearchAgent(0, weigh_defence=0.05)
    values = [0, 10, 20, 30]
    most = [3, 3]
    merits = {
        card: agent._merit(taken, values, card, [1.0, 1.0], most)
        for card, taken in ((0, [3, 1]), (1, [1, 3]))
    }
    assert merits[0][0] == merits[1][0] and merits[0] > merits[1]
    heavier = {
        card: agent._merit(taken, values, card, [1.0, 0.1], most)
        for card, taken in ((0, [3, 1]), (1, [1, 3]))
    }
    assert heavier[0] > heavier[1]
    lighter = {
        card: agent._merit(taken, values, card, [0.1, 1.0], most)
        for card, taken in ((0, [3, 1]), (1, [1, 3]))
    }
    assert lighter[1] > lighter[0]


def test_ties_by_the_deals_a_card_is_best_in() -> None:
    # Card 5 takes 2, 2, 2 tricks and card 9 takes 3, 3, 0: the same total; the
    # best card over the deals (3, 3, 2) is card 9 in two deals, card 5 in one.
    # By default the lower card wins the tie; with ties="most_best", card 9.
    values = [0, 1, 2, 3]
    most = [3, 3, 2]
    weights = [1.0, 1.0, 1.0]
    for ties, winner in (("lowest", 5), ("most_best", 9)):
        agent = BridgeSearchAgent(0, ties=ties)
        merits = {
            card: agent._merit(taken, values, card, weights, most)
            for card, taken in ((5, [2, 2, 2]), (9, [3, 3, 0]))
        }
        assert max(merits, key=lambda c: merits[c]) == winner


def test_the_real_deal_fits_the_double_dummy_defence() -> None:
    # Declarer's search against double-dummy defenders (the bench's): the real
    # deal is never left out, since each defender's card in it was a best one.
    checked = 0
    for seed in range(3):
        searcher = BridgeSearchAgent(seed, samples=4, read_defence=True)
        for state, obs, legal, strain in _declarer_decisions(seed):
            if obs["trick"] and len(legal) > 1:
                worlds, _ = searcher._worlds(obs)
                masks = [state._current_hands(), *worlds]
                kept = _fit_the_defence(obs, masks, strain, 1)
                assert kept and kept[0] == masks[0]
                declarer = obs["contract"]["declarer"]
                checked += len(obs["trick"]) > 1 or obs["leader"] % 2 != declarer % 2
    assert checked > 20


def test_each_draw_of_a_decision_deals_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    # A close decision's further draws must be new deals: each draw asks the
    # sampler with a seed of its own (the same seed would repeat the first
    # draw's deals and only weigh them again).
    import cardkit.agents.bridge as bridge_agents

    seeds: list[int] = []
    sample = bridge_agents.bridge_sample_deals

    def spy(*args: Any) -> Any:
        seeds.append(args[-1])
        return sample(*args)

    monkeypatch.setattr(bridge_agents, "bridge_sample_deals", spy)
    for read_defence in (False, True):
        for seed in range(10):
            _, obs, legal = _first_search(seed)
            agent = BridgeSearchAgent(seed, samples=2, read_defence=read_defence)
            seeds.clear()
            agent.act(obs, legal)
            assert len(set(seeds)) == len(seeds)
            if len(seeds) > 1:
                break
        else:
            pytest.fail("no decision drew twice")
