"""Poker hand evaluation: categories, tie rules, front hands, errors, peers (issue 3)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import eval7
import phevaluator
import pytest
import treys

from cardkit import Card, CardkitError, InvalidCardError, deck
from cardkit.poker import HandRank, compare, evaluate, winners


def ranks_of(hand: HandRank) -> str:
    return " ".join(str(c) for c in hand.best_five)


@pytest.mark.rule("PKR-01", "PKR-02")
def test_royal_flush_and_split() -> None:
    royal = evaluate("AsKsQsJsTs")
    assert royal.category == "straight_flush"
    assert royal.describe() == "Royal Flush"
    assert royal == evaluate("Ah Kh Qh Jh Th")
    assert compare("AsKsQsJsTs", "AhKhQhJhTh") == 0
    assert winners(["As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "9c 9d 9h 9s Ac"]) == [0, 1]


@pytest.mark.rule("PKR-03", "PKR-04")
def test_straight_flush_by_top_card() -> None:
    assert evaluate("9h8h7h6h5h").category == "straight_flush"
    assert evaluate("9h8h7h6h5h").describe() == "Straight Flush, Nine high"
    assert evaluate("Th9h8h7h6h") > evaluate("9c8c7c6c5c")
    assert evaluate("5d4d3d2dAd") < evaluate("6c5c4c3c2c")
    assert evaluate("5d4d3d2dAd").describe() == "Straight Flush, Five high"
    # A straight flush beats four of a kind.
    assert evaluate("5d4d3d2dAd") > evaluate("AcAhAsAdKc")


@pytest.mark.rule("PKR-05", "PKR-06", "PKR-07")
def test_four_of_a_kind_then_kicker() -> None:
    quads = evaluate("7c7d7h7s2c")
    assert quads.category == "four_of_a_kind"
    assert quads.describe() == "Four of a Kind, Sevens"
    assert evaluate("8c8d8h8s2c") > evaluate("7c7d7h7sAc")
    # Community cards: same four of a kind on the board, the kicker decides.
    assert winners(["Kc 2d", "Qc Jd"], board="7c 7d 7h 7s 3c") == [0]
    assert winners(["Kc 2d", "Kd Jd"], board="7c 7d 7h 7s 3c") == [0, 1]


@pytest.mark.rule("PKR-08", "PKR-09", "PKR-10")
def test_full_house_by_trips_then_pair() -> None:
    boat = evaluate("Kh Kd Ks 5c 5d")
    assert boat.category == "full_house"
    assert boat.describe() == "Full House, Kings full of Fives"
    assert evaluate("KcKdKh2s2c") > evaluate("QcQdQhAsAc")
    assert winners(["6s 6c", "5s 2c"], board="Kc Kd Kh 5d 9c") == [0]
    # Two sets of trips: the lower one serves as the pair.
    seven = evaluate("KcKdKh 5s5c5d 2c")
    assert seven.describe() == "Full House, Kings full of Fives"
    assert ranks_of(seven) == "Kh Kd Kc 5s 5d"
    assert seven == evaluate("KcKdKh5s5d")


@pytest.mark.rule("PKR-11", "PKR-12", "PKR-13")
def test_flush_card_by_card() -> None:
    assert evaluate("Ah9h7h4h2h").category == "flush"
    assert evaluate("Ah9h7h4h2h").describe() == "Flush, Ace high"
    assert evaluate("AhKh3h4h2h") > evaluate("AsQsJs9s7s")
    assert evaluate("AhKhQh4h2h") > evaluate("AsKsJs9s7s")
    assert evaluate("AhKhQhJh2h") > evaluate("AsKsQsTs9s")
    assert evaluate("Ah9h7h4h3h") > evaluate("As9s7s4s2s")
    assert evaluate("Ah9h7h4h2h") == evaluate("Ac9c7c4c2c")
    # With six suited cards the best five count.
    assert ranks_of(evaluate("Ah9h7h4h3h2h Kc")) == "Ah 9h 7h 4h 3h"


@pytest.mark.rule("PKR-14", "PKR-15", "PKR-16")
def test_straight_with_ace_high_or_low() -> None:
    wheel = evaluate("Ac2d3h4s5c")
    assert wheel.category == "straight"
    assert wheel.describe() == "Straight, Five high"
    assert ranks_of(wheel) == "5c 4s 3h 2d Ac"
    assert evaluate("AcKdQhJsTc").describe() == "Straight, Ace high"
    assert evaluate("2c3d4h5s6c") > wheel
    assert evaluate("AcKdQhJsTc") > evaluate("KcQdJhTs9c")
    # The ace is the only card that turns the corner: Q-K-A-2-3 is no straight.
    assert evaluate("QcKdAh2s3c").category == "high_card"
    # Equal straights split whatever the suits.
    assert evaluate("9c8d7h6s5c") == evaluate("9d8h7s6c5d")


@pytest.mark.rule("PKR-17", "PKR-18", "PKR-19")
def test_three_of_a_kind_then_side_cards() -> None:
    assert evaluate("9c9d9hAsKc").describe() == "Three of a Kind, Nines"
    assert evaluate("9c9d9hAsKc") < evaluate("TcTdTh3s2c")
    assert winners(["As 2c", "Ks Qc"], board="9c 9d 9h 4s 3d") == [0]
    assert winners(["As Qc", "Ad Jc"], board="9c 9d 9h 4s 3d") == [0]


@pytest.mark.rule("PKR-20", "PKR-21", "PKR-22", "PKR-23")
def test_two_pair() -> None:
    assert evaluate("AcAd3h3s5c").describe() == "Two Pair, Aces and Threes"
    assert evaluate("AcAd2h2s3c") > evaluate("KcKdQhQsJc")
    assert evaluate("AcAd3h3s2c") > evaluate("AcAd2h2sKc")
    assert evaluate("AcAd3h3s5c") > evaluate("AsAh3d3c4c")
    assert evaluate("AcAd3h3s5c") == evaluate("AsAh3d3c5d")
    # Three pairs: the best two plus the best remaining card.
    assert ranks_of(evaluate("AcAd Kh Ks 2c 2d 3c")) == "Ad Ac Ks Kh 3c"


@pytest.mark.rule("PKR-24", "PKR-25", "PKR-26")
def test_one_pair() -> None:
    assert evaluate("AcAd9h7s5c").describe() == "Pair of Aces"
    assert evaluate("AcAd4h3s2c") > evaluate("KcKdAhQsJc")
    assert evaluate("AcAdKh3s2c") > evaluate("AsAhQdJcTc")
    assert evaluate("AcAdKhQs3c") > evaluate("AsAhKdQc2c")
    assert evaluate("AcAdKhQs4c") > evaluate("AsAhKdQc3c")


@pytest.mark.rule("PKR-27")
def test_high_card_down_to_the_smallest() -> None:
    assert evaluate("AcJd9h7s4c").describe() == "High Card, Ace"
    assert evaluate("AcJd9h7s4c") > evaluate("KcQdJh9s7c")
    assert evaluate("AcJd9h7s4c") > evaluate("AsJh9d7c3c")
    assert evaluate("AcJd9h7s4c") == evaluate("AsJh9d7c4d")
    assert evaluate("7c5d4h3s2c") < evaluate("2c2d3h4s6c")


def test_categories_are_ordered() -> None:
    ladder = [
        "7c5d4h3s2c",
        "2c2d3h4s6c",
        "2c2d3h3s4c",
        "2c2d2h3s4c",
        "Ac2d3h4s5c",
        "2c3c4c5c7c",
        "2c2d2h3s3c",
        "2c2d2h2s3c",
        "Ac2c3c4c5c",
    ]
    ranks = [evaluate(h) for h in ladder]
    assert [r.category for r in ranks] == [
        "high_card",
        "one_pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
    ]
    assert ranks == sorted(ranks)
    assert len({r.value for r in ranks}) == len(ranks)


def test_front_hands_share_the_five_card_scale() -> None:
    front = evaluate("5c 5d Kh")
    assert front.is_front
    assert front.category == "one_pair"
    assert front.describe() == "Pair of Fives"
    assert len(front.best_five) == 3
    # The two missing cards count below any card.
    assert front < evaluate("5s 5h Kd 3c 2c")
    assert front > evaluate("5s 5h Qd Jc Tc")
    assert evaluate("AhKhQh").category == "high_card"
    assert evaluate("2c3c4c").describe() == "High Card, Four"
    assert evaluate("AcAdAh").describe() == "Three of a Kind, Aces"
    assert evaluate("AcAdAh") < evaluate("AsAhAd2c3c")
    assert evaluate("2c2d3h") < evaluate("2c2d4h") < evaluate("2s2h5d4c3c")


def test_inputs_and_value_semantics() -> None:
    by_string = evaluate("As Ks Qs Js Ts")
    by_cards = evaluate([Card("As"), "Ks", Card("Qs"), "Js", "10s"])
    assert by_string == by_cards
    assert hash(by_string) == hash(by_cards)
    assert isinstance(by_string.value, int)
    assert {by_string, by_cards} == {by_string}
    assert str(by_string) == "Royal Flush"
    assert "Royal Flush" in repr(by_string)
    assert (by_string == 5) is False
    assert sorted([evaluate("AsAd2c3c4c"), evaluate("7c5d4h3s2c")])[0].category == "high_card"
    with pytest.raises(TypeError):
        _ = by_string < 5  # type: ignore[operator]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("AsKs", "got 2"),
        ("AsKsQsJs", "got 4"),
        ("AsKsQsJsTs9s8s7s", "got 8"),
        ("AsAsQsJsTs", "duplicate card As"),
        ("AsKsQsJsBJ", "jokers"),
        ("AsKx2c3c4c", "Kx"),
        ("", "got 0"),
    ],
)
def test_bad_hands_raise_typed_errors(cards: str, message: str) -> None:
    with pytest.raises(InvalidCardError, match=message) as info:
        evaluate(cards)
    assert isinstance(info.value, CardkitError)
    assert isinstance(info.value, ValueError)


def test_bad_arguments() -> None:
    with pytest.raises(InvalidCardError):
        evaluate(12)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        evaluate([1, 2, 3])  # type: ignore[list-item]
    with pytest.raises(InvalidCardError, match="duplicate card As"):
        winners(["As Ks", "As Qs"], board="2c 3c 4d")
    with pytest.raises(InvalidCardError, match="duplicate card 2c"):
        winners(["As Ks"], board="2c 2c 4d 5d 6d")
    with pytest.raises(InvalidCardError, match="got 4"):
        compare("AsKsQsJs", "AsKsQsJsTs")
    assert winners([]) == []


# --- cross-checks against peers -------------------------------------------------

Scorer = Callable[[Sequence[str]], int]


def _treys() -> Scorer:
    evaluator = treys.Evaluator()

    def score(cards: Sequence[str]) -> int:
        ints = [treys.Card.new(c) for c in cards]
        return -int(evaluator.evaluate(ints[:2], ints[2:]))

    return score


def _eval7() -> Scorer:
    return lambda cards: int(eval7.evaluate([eval7.Card(c) for c in cards]))


def _phevaluator() -> Scorer:
    return lambda cards: -int(phevaluator.evaluate_cards(*cards))


PEERS = {"treys": _treys, "eval7": _eval7, "phevaluator": _phevaluator}


def check_same_order(peer: Scorer, hands: list[list[str]]) -> None:
    """Every pair of hands is ordered the same way by cardkit and the peer.

    Sorting by cardkit's value, the peer's score must be constant on each group of
    equal cardkit values and strictly increase between groups; that holds exactly
    when all pairs agree.
    """
    scored = sorted((evaluate(h).value, peer(h), i) for i, h in enumerate(hands))
    for (v1, p1, i1), (v2, p2, i2) in itertools.pairwise(scored):
        assert (v1 < v2) == (p1 < p2) and (v1 == v2) == (p1 == p2), (hands[i1], hands[i2])


def random_hands(count: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    cards = [str(c) for c in deck("standard52")]
    return [rng.sample(cards, 5 + i % 3) for i in range(count)]


@pytest.mark.parametrize("peer", sorted(PEERS))
def test_order_agrees_with_peers_sample(peer: str) -> None:
    check_same_order(PEERS[peer](), random_hands(20_000, seed=3))


@pytest.mark.exhaustive
@pytest.mark.parametrize("peer", sorted(PEERS))
def test_order_agrees_with_peers_million(peer: str) -> None:
    check_same_order(PEERS[peer](), random_hands(1_000_000, seed=4))
