"""13-card Chinese Poker: deal, sets, automatic wins, the four point systems, agents.

Clauses: CP-* of ../shared/seeds/clauses.md (004_b4f6f7483e8a959c.txt); segment
comparisons rely on the poker rankings (PKR-*) of the same file.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

import cardkit
from cardkit import Card, IllegalActionError, RuleOptionError, games
from cardkit._core import (
    ChinesePokerRules,
    _bench,  # unstable helpers, for benches and tests only
    chinese_poker_automatic_wins,
    chinese_poker_rank_set,
    chinese_poker_sample_sets,
    chinese_poker_score,
)
from cardkit.agents import RandomAgent
from cardkit.agents.chinese_poker import (
    GreedyAgent,
    RandomSetAgent,
    SolverAgent,
    greedy_set,
    random_set,
    solve,
)
from cardkit.games.chinese_poker import (
    AUTOMATIC_WINS,
    VARIANTS,
    ChinesePoker,
    ChinesePokerState,
    breakdown,
    parse_set,
    score,
)

# Four disjoint sets (all 52 cards): A-high / two pair / royal flush, and so on.
A = "AhKdQd / 9s9h5d5c2s / TcJcQcKcAc"  # high card / two pair / royal flush
B = "2h2d3c / 8s8h7d7c4s / 6s6h6d3h3s"  # pair / two pair / full house
C = "4h5h7h / 4d4cJd9d8d / JhJsThTs2c"  # suited 7-high / pair / two pair
D = "QsQh3d / KsKh9c8c7s / AsAdTd6c5s"  # pair Q / pair K / pair A

# A bonus-laden set and three sets it sweeps (all 52 cards).
E = "QsQhQd / 8s8h8d2c2d / 5s5h5d5c3c"  # trips / full house / four of a kind
F = "2s3d4c / 6c7d9hJcKd / AcAdKhJsTh"
G = "AsKs2h / 7s7h7c6s6h / TsTdTc3s3h"
H = "Qc8c6d / 4s4h4dAhKc / 9s9d9cJhJd"

DRAGON = "As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s"
SIX_PAIRS = "Ah Ad Ks Kh Qs Qh Js Jd Th Td 9s 9h 2c"


def _cards(text: str) -> list[Card]:
    return cardkit.parse_cards(text.replace("/", " "))


def _deal_for(hands: list[str]) -> list[Card]:
    """A deck order that deals ``hands[p]`` to position ``p`` (one card at a time)."""
    chosen = [_cards(h) for h in hands]
    used = {c for h in chosen for c in h}
    rest = [c for c in cardkit.deck("standard52") if c not in used]
    while len(chosen) < 4:
        chosen.append(rest[:13])
        rest = rest[13:]
    return [chosen[p][i] for i in range(13) for p in range(4)]


# -- deal and setting ---------------------------------------------------------------


@pytest.mark.rule("CP-01", "CP-02", "CP-03", "CP-04")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_thirteen_cards_to_all_four_positions(players: int) -> None:
    game = games.make("chinese_poker", players=players)
    state = game.new_state(seed=11)
    zones = state.zones()
    assert sorted(zones) == ["position0", "position1", "position2", "position3"]
    assert all(len(cards) == 13 for cards in zones.values())
    assert sorted(c for cards in zones.values() for c in cards) == cardkit.deck("standard52")
    assert game.num_players == players
    # One card at a time in rotation: the deck's first four cards go to positions 0..3.
    order = state.deck_order()
    for p in range(4):
        assert order[p] in zones[f"position{p}"]
        assert sorted(order[p:52:4]) == zones[f"position{p}"]


@pytest.mark.rule("CP-02")
@pytest.mark.parametrize("bad", [1, 5, "4", True])
def test_two_to_four_players(bad: Any) -> None:
    with pytest.raises(RuleOptionError):
        games.make("chinese_poker", players=bad)


@pytest.mark.rule("CP-05")
def test_set_text_spaces_optional_and_canonical() -> None:
    game = ChinesePoker()
    a = game.parse_action("set AhKdQd / 9s9h5d5c2s / TcJcQcKcAc")
    b = game.parse_action("set Ah Kd Qd/9s 9h 5d 5c 2s/Tc Jc Qc Kc Ac")
    assert a == b == "set AhKdQd / 9s9h5d5c2s / AcKcQcJcTc"
    assert game.parse_action(str(a)) == a
    assert parse_set("AhKdQd/9s9h5d5c2s/TcJcQcKcAc").text == str(a)[len("set ") :]
    for junk in ("set AhKdQd", "set Xx / 9s / Tc", "fold", "set a/b/c/d"):
        with pytest.raises(IllegalActionError):
            game.parse_action(junk)


@pytest.mark.rule("CP-05", "CP-29")
def test_wrong_counts_and_foreign_cards_are_rejected() -> None:
    state = ChinesePoker(players=2).new_state(deal=_deal_for([A, B]))
    before = state.to_json()
    for bad, why in (
        ("set AhKdQd9s / 9h5d5c2s / TcJcQcKcAc", "front must hold 3"),
        ("set AhKd / Qd9s9h5d5c2s / TcJcQcKcAc", "front must hold 3"),
        ("set AhKdQd / 9s9h5d5c / 2sTcJcQcKcAc", "middle must hold 5"),
        ("set AhKdQd / 9s9h5d5c2h / TcJcQcKcAc", "2h not in the hand"),
        ("declare dragon", "does not qualify"),
        ("declare royal", "declare one of"),
    ):
        assert not state.is_legal(bad)
        with pytest.raises(IllegalActionError, match=why):
            state.apply(bad)
    assert state.to_json() == before
    state.apply(f"set {A}")
    assert state.current_player == 1


def test_sets_are_simultaneous_in_observations() -> None:
    # Not a clause: how the engine keeps simultaneous sets private until all have acted.
    state = ChinesePoker(players=3).new_state(deal=_deal_for([A, B, C]))
    state.apply(f"set {A}")
    obs1 = state.observation(1)
    assert obs1["acted"] == [True, False, False]
    assert "showdown" not in obs1
    assert parse_set(A).text not in json.dumps(obs1)
    assert not set(obs1["hand"]) & {str(c) for c in _cards(A)}
    assert state.observation(0)["set"] == parse_set(A).text
    state.apply(f"set {B}")
    state.apply(f"set {C}")
    assert state.is_terminal
    shown = state.observation(2)["showdown"]
    assert [e["set"] for e in shown] == [parse_set(s).text for s in (A, B, C)]
    assert state.private_cards(0) == []


@pytest.mark.rule("CP-05")
def test_legal_actions_are_a_representative_list() -> None:
    state = ChinesePoker().new_state(seed=3)
    legal = state.legal_actions()
    assert 2 <= len(legal) <= 11
    statuses = []
    for action in legal:
        if action.kind == "declare":
            assert action.args[0] in AUTOMATIC_WINS
            continue
        f, m, b = parse_set(action.text).segments
        statuses.append(chinese_poker_rank_set(f, m, b)[3])
    assert statuses.count(False) == 1  # one misordered set, to exercise the penalty
    # Any proper set of the hand is legal, listed or not.
    hand = state.hands[0]
    other = random_set(hand, seed=99)
    assert state.is_legal(other)


# -- ordering (properness) ----------------------------------------------------------


@pytest.mark.rule("CP-05", "CP-06", "CP-07", "PKR-11", "PKR-14")
def test_front_straights_and_flushes_do_not_count() -> None:
    values, cats, _, proper = chinese_poker_rank_set("QhJhTh", "AsKd7c5c3d", "2c2d2h4s4d")
    assert proper  # the suited run in front is only queen-high, below ace-high
    pair_front = chinese_poker_rank_set("2s2h3c", "AcKh8d6s4c", "9s9c9d7h7d")[0]
    assert values[0] < pair_front[0]
    assert cats[0] == chinese_poker_rank_set("QcJd9s", "AsKd7c5c3d", "2c2d2h4s4d")[1][0]
    # A pair in front above a high-card middle is misordered.
    assert not chinese_poker_rank_set("AsAd3c", "KsQs9d7c2h", "JhJcJd5s5h")[3]


@pytest.mark.rule("CP-05", "PKR-27")
def test_back_equal_to_middle_is_proper_but_not_lower() -> None:
    assert chinese_poker_rank_set("2c3d4h", "AsKdQcJh9d", "AcKhQdJs9c")[3]
    assert not chinese_poker_rank_set("2c3d4h", "AsKdQcJh9d", "AcKhQdJs8c")[3]


def test_count_of_splits() -> None:
    total, proper = _bench.chinese_poker_count_sets(_cards(A))
    assert total == 72_072
    assert 0 < proper < total


# -- basic scoring --------------------------------------------------------------------


@pytest.mark.rule("CP-08", "CP-09", "CP-11", "CP-12", "CP-13", "CP-14", "CP-15", "CP-16")
@pytest.mark.rule("PKR-01", "PKR-08", "PKR-20", "PKR-21", "PKR-24", "PKR-27")
def test_two_of_three_nets_two() -> None:
    # A loses the front (ace-high to a pair of twos) and wins middle and back.
    assert score([A, B]) == [2, -2]
    detail = breakdown([A, B])["pairs"][0]
    assert [s["winner"] for s in detail["segments"]] == [1, 0, 0]
    assert detail["sides"][0] == {
        "segments_won": ["middle", "back"],
        "regular": 2,
        "bonus": 0,
        "majority": 1,
        "total": 3,
    }


@pytest.mark.rule("CP-17", "CP-18")
def test_three_of_three_nets_four() -> None:
    assert score([A, C]) == [4, -4]


@pytest.mark.rule("CP-10")
def test_each_game_gives_a_point_its_value() -> None:
    sets = [A, B, C, D]
    cheap = ChinesePoker().new_state(deal=_deal_for(sets))
    dear = ChinesePoker(point_value=5).new_state(deal=_deal_for(sets))
    for s in sets:
        cheap.apply(f"set {s}")
        dear.apply(f"set {s}")
    assert cheap.returns() == [8.0, 4.0, -10.0, -2.0]
    assert dear.returns() == [40.0, 20.0, -50.0, -10.0]
    # The score itself stays in points; only what they are worth changes.
    assert dear.score_breakdown() == cheap.score_breakdown()
    for bad in (0, -1, 1.5, True):
        with pytest.raises(RuleOptionError):
            ChinesePoker(point_value=bad)  # type: ignore[arg-type]


@pytest.mark.rule("CP-08", "CP-11")
def test_every_pair_is_compared_and_points_are_whole() -> None:
    assert score([A, B, C, D]) == [8, 4, -10, -2]
    pairs = breakdown([A, B, C, D])["pairs"]
    assert [p["seats"] for p in pairs] == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    state = ChinesePoker().new_state(deal=_deal_for([A, B, C, D]))
    for s in (A, B, C, D):
        state.apply(f"set {s}")
    # Points are whole numbers; their monetary value is set by the players.
    assert state.returns() == [8.0, 4.0, -10.0, -2.0]


@pytest.mark.rule("CP-12")
def test_tied_segment_and_majority_option() -> None:
    # Same-ranked fronts and middles tie: only the back decides.
    x = "2c3d4h / AsKdQcJh9d / 5s5h5c7h7d"
    y = "2d3c4s / AcKhQdJs9c / 6s6h6c8h8d"
    assert score([x, y]) == [-1, 1]
    assert score([x, y], majority="more_segments") == [-2, 2]


# -- improper sets --------------------------------------------------------------------


@pytest.mark.rule("CP-29", "CP-30")
def test_improper_set_pays_four_to_everyone() -> None:
    misordered = "JhJsTh / 4d4cJd9d8d / 4h5h7hTs2c"  # C's cards, front pair above middle
    assert score([A, B, misordered]) == [6, 2, -8]
    wrong_sizes = "4h5h7h4d / 4cJd9d8d / JhJsThTs2c"  # 4 / 4 / 5 cards
    assert score([A, B, wrong_sizes]) == [6, 2, -8]
    detail = breakdown([A, misordered])
    assert detail["entries"][1]["status"] == "improper"
    assert detail["pairs"][0]["settled_by"] == "improper_set"
    # Two improperly set hands exchange nothing (each pays the other four).
    also_misordered = "KsKh3d / QsQh9c8c7s / AsAdTd6c5s"  # D's cards, pair K above pair Q
    assert score([misordered, also_misordered]) == [0, 0]


@pytest.mark.rule("CP-29", "CP-30")
def test_improper_set_in_a_game() -> None:
    state = ChinesePoker(players=2).new_state(deal=_deal_for([A, B]))
    state.apply("set 9s9h2s / AhKdQd5d5c / TcJcQcKcAc")  # pair of nines above fives
    state.apply(f"set {B}")
    assert state.score_breakdown()["entries"][0]["status"] == "improper"
    assert state.returns() == [-4.0, 4.0]


@pytest.mark.rule("CP-30", "CP-19")
def test_an_improper_set_pays_its_four_to_a_declarer_too() -> None:
    misordered = "AcAs2s / KcQdJh9c7h / TcTs8c8d4h"  # a pair of aces over a king high
    sets = [f"declare six_pairs {SIX_PAIRS}", misordered, B]
    # The declarer takes its automatic win (3) from both and the improper set's four;
    # the player who set properly takes the four too.
    assert score(sets) == [3 + 4 + 3, -3 - 4 - 4, -3 + 4]
    assert score(sets, automatic_win_points=0) == [4, -8, 4]
    pair = breakdown(sets)["pairs"][0]
    assert pair == {"seats": [0, 1], "settled_by": "automatic_win", "net": 7}
    also_misordered = "AhAc2h / KsQsJs9h7s / ThTc8s8h4s"  # the Dragon's cards are taken
    assert score([f"declare dragon {DRAGON}", also_misordered]) == [13 + 4, -13 - 4]


# -- variants ---------------------------------------------------------------------------


@pytest.mark.rule("CP-31", "CP-32", "CP-33", "CP-34", "CP-35", "CP-37")
@pytest.mark.rule("PKR-03", "PKR-05", "PKR-08", "PKR-17")
def test_eastern_bonus_hands_earn_only_their_bonus() -> None:
    assert score([E, F], "eastern") == [9, -9]  # trips 3 + full house 2 + quads 4
    assert score([A, B], "eastern") == [5, -5]  # royal flush 5 + middle 1 - front 1
    g = "2h2s3d / 9h9s9d9c5h / 8s7s6s5s4s"  # quads in the middle, straight flush in back
    h = "4h3h2c / 6d7dTcJdQc / AhKdKcQsJs"
    assert score([g, h], "eastern") == [14, -14]  # 1 + 8 + 5
    i = "2h2s3d / 9h8h7h6h5h / KsQsJsTs9s"  # straight flushes in middle and back
    j = "4h3h2c / 6d7dTcJdQc / AdKdKcQhJc"
    assert score([i, j], "eastern") == [16, -16]  # 1 + 10 + 5
    sides = breakdown([i, j], "eastern")["pairs"][0]["sides"]
    assert sides[0]["regular"] == 16


@pytest.mark.rule("CP-36")
def test_eastern_two_of_three_nets_one() -> None:
    assert score([B, D], "eastern") == [1, -1]
    assert score([B, D], "basic") == [2, -2]


@pytest.mark.rule("CP-38", "CP-39", "CP-40")
def test_western_majority_point_and_bonus_option() -> None:
    assert score([B, D], "western") == [2, -2]
    assert score([A, C], "western") == [4, -4]
    assert score([E, F], "western") == [4, -4]
    assert score([E, F], "western", western_bonus=True) == [10, -10]


@pytest.mark.rule("CP-41", "CP-42", "CP-43", "CP-44", "CP-45", "CP-46", "CP-47")
def test_mandarin_front_trips_bonuses_and_shot() -> None:
    assert score([B, D], "mandarin") == [1, -1]  # one point per hand, no majority point
    # Shot: regular 3 (trips) + 1 + 1 doubled, then full house 2 and quads 4 added.
    assert score([E, F], "mandarin") == [16, -16]
    assert score([E, F], "mandarin", shot="add") == [21, -21]
    side = breakdown([E, F], "mandarin")["pairs"][0]["sides"][0]
    assert side["shot"] and not side["home_run"]
    assert (side["regular"], side["bonus"]) == (5, 6)
    # Front trips won without a shot: 3 for the front against 1 + 1 for the rest.
    trips = "QsQhQd / 2c3d4h5s6c / AcKcJcTc8c"
    flush = "AsAh3s / KhJh9h7h2h / 5h5d5c9s9d"
    assert score([trips, flush], "mandarin") == [1, -1]
    assert score([trips, flush], "basic") == [-2, 2]


@pytest.mark.rule("CP-48", "CP-49")
def test_mandarin_home_run_needs_four_hands() -> None:
    detail = breakdown([E, F, G, H], "mandarin")
    assert detail["home_runs"] == [True, False, False, False]
    assert [p["net"] for p in detail["pairs"][:3]] == [21, 21, 21]  # 5 x 3 + 6
    assert breakdown([E, F, G, H], "mandarin", shot="add")["pairs"][0]["net"] == 26
    three = breakdown([E, F, G], "mandarin")
    assert three["home_runs"] == [False, False, False]
    assert three["points"][0] == 32


# -- automatic wins -------------------------------------------------------------------


@pytest.mark.rule("CP-19", "CP-20", "CP-21", "CP-22")
def test_declaring_the_dragon_in_a_game() -> None:
    state = ChinesePoker().new_state(deal=_deal_for([DRAGON]))
    assert "declare dragon" in state.legal_actions()
    assert "declare six_pairs" not in state.legal_actions()
    state.apply("declare dragon")
    assert state.observation(1)["acted"][0]
    while not state.is_terminal:
        state.apply(state.legal_actions()[-2])
    assert state.returns()[0] == 39.0
    assert state.score_breakdown()["pairs"][0]["settled_by"] == "automatic_win"


@pytest.mark.rule("CP-20")
def test_an_undeclared_automatic_win_plays_as_set() -> None:
    dragon_set = "AsKdQc / 6s5d4c3h2s / JhTs9d8c7h"  # the Dragon's cards, set
    assert "dragon" in chinese_poker_automatic_wins(_cards(dragon_set))
    other = "2h2d3c / 8s8h7d7c4s / 6h6d6c3d3s"
    assert score([dragon_set, other]) == [-2, 2]
    assert breakdown([dragon_set, other])["pairs"][0]["settled_by"] == "showdown"


@pytest.mark.rule("CP-23", "CP-24")
def test_dragon_beats_other_automatic_wins() -> None:
    assert score([f"declare dragon {DRAGON}", f"declare six_pairs {SIX_PAIRS}"]) == [13, -13]
    assert score(
        [f"declare dragon {DRAGON}", f"declare six_pairs {SIX_PAIRS}"],
        dragon_points=26,
        automatic_win_points=6,
    ) == [26, -26]
    # Six pairs against a set hand earns the automatic-win points.
    rest = [c for c in cardkit.deck("standard52") if c not in _cards(SIX_PAIRS)]
    arranged = greedy_set(rest[:13]).text[len("set ") :]
    assert score([f"declare six_pairs {SIX_PAIRS}", arranged]) == [3, -3]
    assert score([f"declare six_pairs {SIX_PAIRS}", arranged], automatic_win_points=5) == [5, -5]


@pytest.mark.rule("CP-24", "CP-25", "CP-26", "CP-27", "CP-28")
def test_automatic_win_kinds() -> None:
    assert chinese_poker_automatic_wins(_cards(SIX_PAIRS)) == ["six_pairs"]
    quads = "Ah Ad Ac As Ks Kh Qs Qh Js Jd Th Td 2c"  # four of a kind counts as two pairs
    assert chinese_poker_automatic_wins(_cards(quads)) == ["six_pairs"]
    flushes = "2h 7h Kh 3s 5s 8s Ts Qs 2d 4d 6d 9d Jd"
    assert chinese_poker_automatic_wins(_cards(flushes)) == ["three_flushes"]
    straights = "Qc Kd Ah 2s 3s 4s 5s 6s 5c 6d 7h 8s 9c"  # 2-6 of spades is a straight flush
    assert chinese_poker_automatic_wins(_cards(straights)) == ["three_straights"]
    assert chinese_poker_automatic_wins(_cards(A)) == []
    assert chinese_poker_automatic_wins(_cards(DRAGON)) == ["dragon", "three_straights"]


@pytest.mark.rule("CP-23")
def test_equal_automatic_wins_exchange_nothing() -> None:
    flushes = "2h 7h Kh 3s 5s 8s Ts Qs 2d 4d 6d 9d Jd"
    straights = "Ac 2c 3c 3d 4c 5c 6c 7c 8h 9h Tc Jc Qc"
    assert chinese_poker_automatic_wins(_cards(straights)) == ["three_straights"]
    points = score([f"declare three_flushes {flushes}", f"declare three_straights {straights}"])
    assert points == [0, 0]
    with pytest.raises(IllegalActionError, match="does not qualify"):
        score([f"declare dragon {flushes}", A])


# -- errors, zero-sum, cross-checks ------------------------------------------------------


def test_score_input_errors() -> None:
    with pytest.raises(RuleOptionError):
        score([A])
    with pytest.raises(RuleOptionError):
        score(A)
    with pytest.raises(RuleOptionError):
        score([A, B], "klondike")
    with pytest.raises(RuleOptionError):
        score([A, B], no_such_option=1)
    with pytest.raises(IllegalActionError, match="share a card"):
        score([A, A])
    with pytest.raises(IllegalActionError):
        score([A, "AhKd / 9s"])
    with pytest.raises(IllegalActionError):
        chinese_poker_rank_set("AhKd", "9s9h5d5c2s", "TcJcQcKcAc")
    with pytest.raises(RuleOptionError):
        ChinesePokerRules(shot="both")


def _random_table(rng: random.Random, players: int) -> list[str]:
    deck = cardkit.shuffled_deck("standard52", rng.getrandbits(64))
    sets = []
    for p in range(players):
        hand = deck[13 * p : 13 * p + 13]
        if rng.random() < 0.2:
            f, m, b = chinese_poker_sample_sets(hand, 1, improper=True)[-1]
        else:
            f, m, b = random_set(hand, rng.getrandbits(64)).text[len("set ") :].split(" / ")
        sets.append(f"{f} / {m} / {b}")
    return sets


_OPTION_GRID = [
    {"variant": v, **extra}
    for v in VARIANTS
    for extra in ({}, {"majority": "more_segments"}, {"western_bonus": True}, {"shot": "add"})
]


# A guard of the Python/Rust scoring twins, not a clause test (the clauses have theirs).
@pytest.mark.parametrize("options", _OPTION_GRID, ids=lambda o: "-".join(map(str, o.values())))
def test_python_scoring_matches_rust_kernel_and_is_zero_sum(
    options: dict[str, Any], exhaustive: bool
) -> None:
    rng = random.Random(json.dumps(options))
    rules = ChinesePokerRules(**options)
    for _ in range(2000 if exhaustive else 50):
        sets = _random_table(rng, rng.randint(2, 4))
        points = score(sets, **options)
        assert sum(points) == 0
        entries = [tuple(s.split(" / ")) for s in sets]
        assert chinese_poker_score(entries, rules) == points


# A guard of the same twins for declarations: every pairing of a declaration with
# another declaration, a proper set and an improper set, in both orders.
def test_python_and_rust_score_declarations_alike() -> None:
    # Four hands of one deck: the Dragon, six pairs, and two hands of what is left.
    proper = "2h2d3s / 4s4h4d5s5h / 6h6d6c7s7d"
    misordered = "8s8h8d / AcKcQdJcTc / 9c7c5c3d3c"  # trips over a straight over a pair
    python_entry = {
        "dragon": f"declare dragon {DRAGON}",
        "six_pairs": f"declare six_pairs {SIX_PAIRS}",
        "set": proper,
        "improper": misordered,
    }
    rust_entry: dict[str, Any] = {
        "dragon": "dragon",
        "six_pairs": "six_pairs",
        "set": tuple(proper.split(" / ")),
        "improper": tuple(misordered.split(" / ")),
    }
    rules = ChinesePokerRules()
    for a in python_entry:
        for b in python_entry:
            if a == b:
                continue  # one deck cannot deal a hand twice
            points = score([python_entry[a], python_entry[b]])
            assert chinese_poker_score([rust_entry[a], rust_entry[b]], rules) == points, (a, b)


def test_rust_kernel_handles_declarations() -> None:
    rules = ChinesePokerRules()
    assert chinese_poker_score(["dragon", "six_pairs", tuple(A.split(" / "))], rules) == [
        26,
        -10,
        -16,
    ]


# -- agents ----------------------------------------------------------------------------


@pytest.mark.rule("CP-05")
def test_solver_greedy_and_random_sets_are_always_proper() -> None:
    rng = random.Random(5)
    for k in range(12):
        deck = cardkit.shuffled_deck("standard52", k)
        hand = deck[:13]
        for action in (
            solve(hand, players=rng.randint(2, 4), samples=40, seed=k).action,
            greedy_set(hand),
            random_set(hand, k),
        ):
            if action.kind == "declare":
                continue
            assert chinese_poker_rank_set(*parse_set(action.text).segments)[3], action


def test_solver_declares_when_it_pays_more() -> None:
    # The solver's choice, not a clause: declaring itself is tested above.
    sol = solve(_cards(DRAGON), samples=40)
    assert sol.declare == "dragon" and sol.action == "declare dragon"
    assert sol.declare_value == 39.0
    cheap = solve(_cards(SIX_PAIRS), samples=40, automatic_win_points=0)
    assert cheap.declare is None and cheap.action.kind == "set"


def test_solver_is_seeded_and_checks_its_options() -> None:
    hand = cardkit.shuffled_deck("standard52", 21)[:13]
    a = solve(hand, samples=60, seed=4)
    assert a == solve(hand, samples=60, seed=4)
    assert a.proper == _bench.chinese_poker_count_sets(hand)[1]
    with pytest.raises(RuleOptionError):
        solve(hand, players=5)
    with pytest.raises(RuleOptionError):
        solve(hand, samples=0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_agents_play_full_games(variant: str) -> None:
    game = games.make("chinese_poker", variant=variant)
    agents = [SolverAgent(1, samples=30), GreedyAgent(), RandomSetAgent(2), RandomAgent(3)]
    state = cardkit.play(game, agents, seed=17)
    assert isinstance(state, ChinesePokerState)
    assert sum(state.returns()) == 0
    fresh = cardkit.play(
        game, [SolverAgent(1, samples=30), GreedyAgent(), RandomSetAgent(2), RandomAgent(3)], 17
    )
    assert fresh.history == state.history


# -- the learning interface (issue 15) -------------------------------------------------

SPLITS = 72_072


def _set_text(*segments: list[Card]) -> str:
    return "set " + " / ".join("".join(str(c) for c in sorted(s, reverse=True)) for s in segments)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_action_index_size_is_fixed_and_tensors_follow_players(players: int, variant: str) -> None:
    game = games.make("chinese_poker", players=players, variant=variant)
    assert game.num_actions == SPLITS + len(AUTOMATIC_WINS) == 72_076
    assert game.observation_shape == (52 + 163 * players,)
    assert game.info.num_actions == game.num_actions


def test_split_ids_rank_the_front_then_the_middle_over_the_sorted_hand() -> None:
    state = ChinesePoker(players=2).new_state(deal=_deal_for([A, B]))
    hand = state.hands[0]
    assert hand == sorted(_cards(A))

    def split(front: list[int], middle: list[int]) -> str:
        back = [p for p in range(13) if p not in front + middle]
        return _set_text(*([hand[p] for p in seg] for seg in (front, middle, back)))

    assert state.id_to_action(0) == split([0, 1, 2], [3, 4, 5, 6, 7])
    assert state.id_to_action(1) == split([0, 1, 2], [3, 4, 5, 6, 8])
    assert state.id_to_action(252) == split([0, 1, 3], [2, 4, 5, 6, 7])
    assert state.id_to_action(SPLITS - 1) == split([10, 11, 12], [5, 6, 7, 8, 9])
    rng = random.Random(5)
    for i in [*rng.sample(range(SPLITS), 300), 0, SPLITS - 1]:
        act = state.id_to_action(i)
        assert state.action_to_id(act) == i
        # Any spelling of the same set: segment order inside, spaces, no canonical form.
        front, middle, back = (seg.split() for seg in str(act)[4:].replace("/", " / ").split("/"))
        cards = [list(reversed(_cards(" ".join(s)))) for s in (front, middle, back)]
        text = "set" + "/".join(" ".join(str(c) for c in seg) for seg in cards)
        assert state.action_to_id(text) == i


def test_split_ids_follow_the_engines_split_table_order() -> None:
    hand = cardkit.shuffled_deck("standard52", 8)[:13]
    state = ChinesePoker(players=2).new_state(deal=_deal_for(["".join(map(str, hand))]))
    spread = chinese_poker_sample_sets(hand, 60, improper=False)
    ids = [state.action_to_id(f"set {f} / {m} / {b}") for f, m, b in spread]
    assert ids == sorted(ids) and len(set(ids)) == len(ids) > 1


def test_declarations_have_fixed_ids() -> None:
    game = ChinesePoker(players=2)
    assert [game.action_to_id(f"declare {w}") for w in AUTOMATIC_WINS] == list(
        range(SPLITS, SPLITS + 4)
    )
    assert game.id_to_action(SPLITS + 1) == "declare six_pairs"
    state = game.new_state(deal=_deal_for([DRAGON]))
    ids = state.legal_action_ids()
    assert SPLITS in ids and SPLITS + 3 in ids and SPLITS + 1 not in ids
    assert state.id_to_action(SPLITS) == "declare dragon"
    mask = state.legal_action_mask()
    assert mask.shape == (72_076,) and mask.sum() == len(state.legal_actions())


def test_sets_have_ids_only_in_a_position() -> None:
    game = ChinesePoker(players=2)
    with pytest.raises(IllegalActionError, match="position"):
        game.action_to_id(f"set {A}")
    with pytest.raises(IllegalActionError, match="position"):
        game.id_to_action(17)
    state = game.new_state(deal=_deal_for([A, B]))
    before = state.to_json()
    for bad in (
        f"set {B}",  # another seat's cards
        "set AhKdQd9s / 9h5d5c2s / TcJcQcKcAc",  # a front of four
        "declare nothing",
    ):
        with pytest.raises(IllegalActionError, match="no action id"):
            state.action_to_id(bad)
    # A declaration keeps its fixed id where the hand does not qualify (its mask bit
    # is off), as fold does in Hold'em when nothing is owed.
    assert state.action_to_id("declare dragon") == SPLITS
    assert not state.legal_action_mask()[SPLITS]
    assert state.to_json() == before
    state.apply(f"set {A}")
    state.apply(f"set {B}")
    with pytest.raises(IllegalActionError, match="already set"):
        state.action_to_id(f"set {A}")
    with pytest.raises(IllegalActionError):
        state.id_to_action(0)
    assert state.id_to_action(SPLITS) == "declare dragon"


def test_tensor_shows_other_sets_only_at_the_showdown() -> None:
    game = ChinesePoker(players=3)
    state = game.new_state(deal=_deal_for([A, B, C]))
    block = 163

    def seats(tensor: Any) -> Any:
        return tensor[52:].reshape(3, block)

    start = state.observation_tensor(0)
    assert np.flatnonzero(start[:52]).tolist() == sorted(c.index for c in _cards(A))
    assert not seats(start).any()
    state.apply(f"set {A}")
    state.apply(f"set {B}")
    mine, theirs = state.observation_tensor(0), state.observation_tensor(1)
    # Seat 0 sees its own set and that seat 1 acted; seat 1 (its own block first)
    # sees seat 0 acted, nothing of how.
    assert seats(mine)[0, 0] == 1 and seats(mine)[0, 1:157].sum() == 13
    assert seats(mine)[1, 0] == 1 and not seats(mine)[1, 1:].any()
    assert seats(theirs)[2, 0] == 1 and not seats(theirs)[2, 1:].any()
    front = parse_set(A).front
    assert [seats(mine)[0, 1 + c.index] for c in front] == [1.0] * 3
    state.apply(f"set {C}")
    end = seats(state.observation_tensor(1))
    points = state.score_breakdown()["points"]
    scale = game.pair_bound() * 2
    for k, seat in enumerate((1, 2, 0)):
        assert end[k, 0] == 1 and end[k, 1:157].sum() == 13
        assert end[k, 162] == np.float32(points[seat] / scale)


def test_declarations_and_improper_sets_in_the_tensor() -> None:
    game = ChinesePoker(players=2)
    state = game.new_state(deal=_deal_for([DRAGON]))
    state.apply("declare dragon")
    rest = state.hands[1]
    misordered = _set_text(rest[-3:], rest[:5], rest[5:10])
    assert not chinese_poker_rank_set(*parse_set(misordered).segments)[3]
    before = state.observation_tensor(1)[52 + 163 :]
    assert before[0] == 1 and not before[1:].any()  # seat 0 acted; no declaration shown
    state.apply(misordered)
    end = state.observation_tensor(1)[52:].reshape(2, 163)
    assert end[1, 157] == 1 and end[1, 1:157].sum() == 0  # the dragon, no set
    assert end[0, 161] == 1  # seat 1's own set was improper


def test_utility_bounds_follow_the_scoring_rules() -> None:
    bounds: list[tuple[str, dict[str, Any], int]] = [
        ("basic", {}, 17),  # a Dragon's 13 + an improper set's 4
        ("basic", {"dragon_points": 2, "automatic_win_points": 1}, 6),
        ("basic", {"dragon_points": 0, "automatic_win_points": 0}, 4),
        ("eastern", {}, 18),
        ("western", {"western_bonus": True}, 19),
        ("mandarin", {}, 25),  # (3 + 1 + 1) x 2 + 10 + 5 with three players
        ("mandarin", {"shot": "add"}, 30),
    ]
    for variant, options, bound in bounds:
        game = ChinesePoker(players=3, variant=variant, **options)
        assert game.pair_bound() == bound
        assert game.utility_range == (-2.0 * bound, 2.0 * bound)
    assert ChinesePoker(players=4, variant="mandarin").pair_bound() == 30  # home run x 3
    assert ChinesePoker(players=2, point_value=5).utility_range == (-85.0, 85.0)
    # The eastern bound is reached: trips, straight flush, straight flush.
    best = "2h2s2d / 9h8h7h6h5h / KsQsJsTs9s"
    weak = "4h3h5c / 6d7dTcJdQc / AdKdKcQhJc"
    assert score([best, weak], "eastern") == [18, -18]


@pytest.mark.parametrize("variant", VARIANTS)
def test_returns_stay_within_the_utility_range(variant: str) -> None:
    for players in (2, 4):
        game = games.make("chinese_poker", players=players, variant=variant)
        low, high = game.utility_range
        for seed in range(15):
            agents = [RandomSetAgent(seed), GreedyAgent(), RandomAgent(seed), GreedyAgent()]
            state = cardkit.play(game, agents[:players], seed=seed)
            assert all(low <= r <= high for r in state.returns())
