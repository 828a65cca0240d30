"""Tractor (拖拉机): the rule clauses TRC-03..TRC-50, the issue's listed cases, and
follow legality against the plain-Python statement in ``tractor_reference.py``."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import cardkit
from cardkit import IllegalActionError, InvalidCardError, games
from cardkit._core import (
    TractorActions,
    TractorDeal,
    TractorRound,
    tractor_action_text,
    tractor_card_points,
    tractor_follow_cards,
    tractor_is_legal_follow,
    tractor_lead_id,
    tractor_shape,
    tractor_trick_winner,
)
from cardkit.agents import RandomAgent
from cardkit.api import Action
from cardkit.games import tractor
from cardkit.games.tractor import Phase, TractorState, card_points, level_change

from . import tractor_reference as ref
from .test_conformance import _check_observations as check_observations

#: Each card type's index in the tensor's per-card slices.
CARD_INDEX = {str(c): i for i, c in enumerate(tractor.CARD_TYPES)}


def _order(hands: list[str], kitty: str = "") -> list[str]:
    """A whole 108-card deck order: each seat's hand begins with the given cards and
    is filled to 25 (the kitty to 8) from the rest of the double pack."""
    fixed = [[str(c) for c in cardkit.parse_cards(h)] for h in [*hands, kitty]]
    rest = Counter(str(c) for c in cardkit.deck("double108"))
    for cards in fixed:
        rest -= Counter(cards)
    pool = list(rest.elements())
    order: list[str] = []
    for i, cards in enumerate(fixed):
        need = (25 if i < 4 else 8) - len(cards)
        order += cards + pool[:need]
        pool = pool[need:]
    return order


def _state(hands: list[str], kitty: str = "", **options: object) -> TractorState:
    game = games.make("tractor", match=False, **options)
    state = game.new_state(seed=1, deal=_order(hands, kitty))
    assert isinstance(state, TractorState)
    return state


def _speak(state: TractorState, *speeches: str) -> None:
    for speech in speeches:
        state.apply(speech)


def _to_play(state: TractorState) -> None:
    """Bury the dealer's first eight listed cards."""
    while state.phase is Phase.BURY:
        state.apply(state.legal_actions()[0])


def _winner(plays: list[str], level: str = "2", trump: str | None = "s") -> int:
    return tractor_trick_winner(plays, level, trump)


# -- the table, the deal and the match -------------------------------------------------


@pytest.mark.rule("TRC-03", "TRC-04", "TRC-07")
def test_four_players_two_packs_partners_opposite() -> None:
    game = games.make("tractor", match=False)
    assert game.num_players == 4
    state = game.new_state(seed=3)
    zones = state.zones()
    assert [len(zones[f"hand{s}"]) for s in range(4)] == [25] * 4
    assert len(zones["kitty"]) == 8
    assert len(cardkit.deck(game.deck_name)) == 108
    assert Counter(cardkit.deck(game.deck_name))[cardkit.Card("RJ")] == 2
    done = cardkit.play(game, [RandomAgent(s) for s in range(4)], seed=3)
    r = done.returns()
    assert r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]


@pytest.mark.rule("TRC-05", "TRC-46", "TRC-47", "TRC-48", "TRC-50", "TRC-11")
def test_deals_rise_the_right_team_and_pass_the_deal() -> None:
    game = games.make("tractor", match=False)
    seen = set()
    for seed in range(40):
        done = cardkit.play(game, [RandomAgent(seed + s) for s in range(4)], seed=seed)
        deal = done.score_breakdown()["deals"][0]
        dealer, points = deal["dealer"], deal["attacker_points"]
        assert points == deal["trick_points"] + deal["kitty_bonus"]
        if points < 80:
            assert deal["rising_team"] == dealer % 2
            assert deal["next_dealer"] == (dealer + 2) % 4
        else:
            assert deal["rising_team"] == 1 - dealer % 2
            assert deal["next_dealer"] == (dealer + 1) % 4
        seen.add(points >= 80)
    assert seen == {True, False}


@pytest.mark.rule("TRC-06", "TRC-08", "TRC-11")
def test_match_levels_and_the_end_beyond_the_ace() -> None:
    game = games.make("tractor")
    state = game.new_state(seed=5)
    assert state.team_levels == ["2", "2"] and state.level == "2"
    done = cardkit.play(game, [RandomAgent(s) for s in range(4)], seed=5)
    sb = done.score_breakdown()
    assert sb["match_winner"] is not None
    assert sb["team_levels"][sb["match_winner"]] == "beyond A"
    deals = sb["deals"]
    assert len(deals) > 1 and deals[0]["level"] == "2"
    for before, after in itertools.pairwise(deals):
        # TRC-08, TRC-11: the next deal is dealt by the previous result's dealer, at
        # that dealer's team level.
        assert after["dealer"] == before["next_dealer"]
        assert after["level"] == before["team_levels_after"][after["dealer"] % 2]
    assert [d["match_won"] for d in deals] == [False] * (len(deals) - 1) + [True]


# -- declaring -----------------------------------------------------------------------


@pytest.mark.rule("TRC-09", "TRC-12", "TRC-18", "TRC-10")
def test_a_level_card_declares_its_suit_and_three_passes_fix_it() -> None:
    state = _state(["3c", "2h", "4c", "5c"])
    assert state.phase is Phase.DECLARE and state.current_player == 0
    assert "pass" in [a.text for a in state.legal_actions()]
    _speak(state, "pass", "declare 2h", "pass", "pass")
    assert state.phase is Phase.DECLARE
    state.apply("pass")
    assert state.phase is Phase.BURY
    assert state.trump == "h" and state.dealer == 1


@pytest.mark.rule("TRC-13", "TRC-14", "TRC-10", "TRC-15")
def test_overcalls_climb_to_red_jokers_and_the_first_declarer_deals() -> None:
    state = _state(["2c", "2d2d", "BJBJ", "RJRJ"])
    _speak(state, "declare 2c", "declare 2d2d", "declare BJBJ", "declare RJRJ")
    _speak(state, "pass", "pass", "pass")
    assert state.trump == "nt"
    assert state.dealer == 0
    decl = state.observation(2)["declarations"]
    assert [d["declared"] for d in decl] == [
        "level card",
        "level pair",
        "black jokers",
        "red jokers",
    ]


@pytest.mark.rule("TRC-15", "TRC-29")
def test_no_trump_keeps_level_cards_and_jokers_as_trumps() -> None:
    assert _winner(["Ah", "2c", "3h", "4h"], trump=None) == 1
    assert _winner(["2c", "BJ", "RJ", "Ah"], trump=None) == 2
    assert ref.suit_of("Ah", "2", None) == "h"
    # At no-trump a level pair and the black jokers are consecutive.
    assert tractor_shape("2d2dBJBJ", "2", None) == ("tractor", 2)


@pytest.mark.rule("TRC-16")
def test_an_equal_strength_overcall_is_rejected() -> None:
    state = _state(["2c", "2d", "2h2h", "2s2s"])
    _speak(state, "declare 2c")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="equal strength"):
        state.apply("declare 2d")
    assert state.to_json() == before
    state.apply("pass")
    state.apply("declare 2h2h")
    with pytest.raises(IllegalActionError):
        state.apply("declare 2s2s")
    assert "declare 2s2s" not in [a.text for a in state.legal_actions()]


@pytest.mark.rule("TRC-17")
def test_no_reinforcing_outside_the_turn_sequence() -> None:
    state = _state(["2c2c", "3c", "4c", "5c"])
    _speak(state, "declare 2c", "pass", "pass", "pass")
    # Fixed: the declarer's second 2c comes too late.
    assert state.phase is Phase.BURY
    with pytest.raises(IllegalActionError):
        state.apply("declare 2c2c")
    # Inside the sequence a player may overcall its own declaration on its turn.
    state = _state(["2c2c", "3c", "4c", "5c"])
    _speak(state, "declare 2c", "pass", "pass")
    assert state.phase is Phase.DECLARE and state.current_player == 3
    _speak(state, "pass")
    assert state.phase is Phase.BURY


@pytest.mark.rule("TRC-19")
def test_all_pass_exposes_the_kitty_and_a_joker_first_is_skipped() -> None:
    state = _state(["3c", "4c", "5c", "6c"], kitty="RJ BJ 9d Ah 3s 4s 5s 6s", first_speaker=2)
    _speak(state, "pass", "pass", "pass", "pass")
    assert state.trump == "d"
    assert state.dealer == 2  # the initial dealer keeps the deal
    assert state.observation(0)["kitty_exposed"] is True
    assert Counter(state.hands[2]) >= Counter(cardkit.parse_cards("RJ BJ 9d Ah"))
    # The exposed cards are known to all, so they are not the dealer's secret.
    known = Counter(state.hands[2]) - Counter(state.private_cards(2))
    assert not Counter(cardkit.parse_cards("RJ BJ 9d Ah 3s 4s 5s 6s")) - known
    exposed = [e for e in state.events(0) if e["type"] == "kitty_exposed"]
    assert exposed[0]["cards"][:3] == ["RJ", "BJ", "9d"]


@pytest.mark.rule("TRC-19")
def test_an_exposed_kitty_is_public_and_named_once() -> None:
    kitty = "RJ BJ 9d Ah 3s 4s 5s 5s"
    state = _state(["3c", "4c", "5c", "6c"], kitty=kitty, first_speaker=2)
    assert all(state.observation(s)["exposed_kitty"] is None for s in range(4))
    _speak(state, "pass", "pass", "pass", "pass")
    exposed = sorted(str(c) for c in cardkit.parse_cards(kitty))
    game = state.game
    names = [name for name, _ in tractor.OBSERVATION_LAYOUT]
    at = sum(length for _, length in tractor.OBSERVATION_LAYOUT[: names.index("kitty")])
    for seat in (0, 1, 3):
        assert sorted(state.observation(seat)["exposed_kitty"]) == exposed
        tensor = state.observation_tensor(seat)[at : at + 54]
        assert tensor.sum() == 8 and tensor[CARD_INDEX["5s"]] == 2
    # The dealer's hand names them; its tensor's kitty slice is what it buries.
    assert state.observation(2)["exposed_kitty"] is None
    _to_play(state)
    dealer_tensor = state.observation_tensor(2)[at : at + 54]
    for card in state.buried:
        assert dealer_tensor[CARD_INDEX[str(card)]] >= 1
    assert dealer_tensor.sum() == 8
    rng = random.Random(5)
    while not state.is_terminal:
        # The dealer's plays leave the list: each card is named once, where it is.
        left = Counter(cardkit.parse_cards(kitty)) - Counter(state.zones()["played2"])
        for seat in (0, 1, 3):
            shown = Counter(cardkit.parse_cards(" ".join(state.observation(seat)["exposed_kitty"])))
            assert shown == left
        check_observations(game, state)
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.rule("TRC-20")
def test_the_dealer_takes_the_kitty_buries_eight_and_leads() -> None:
    state = _state(["2c", "3c", "4c", "5c"])
    _speak(state, "declare 2c", "pass", "pass", "pass")
    assert state.current_player == 0 and len(state.hands[0]) == 33
    state.apply("bury " + " ".join(str(c) for c in state.hands[0][:3]))
    assert len(state.buried) == 3
    with pytest.raises(IllegalActionError):
        state.apply("bury " + " ".join(str(c) for c in state.hands[0][:6]))
    _to_play(state)
    assert len(state.buried) == 8 and len(state.hands[0]) == 25
    assert state.phase is Phase.PLAY and state.current_player == 0
    # The buried cards are the dealer's alone.
    assert state.observation(0)["buried"] is not None
    assert state.observation(1)["buried"] is None


# -- the card play ---------------------------------------------------------------------


@pytest.mark.rule("TRC-21", "TRC-39")
def test_turns_go_round_and_the_winner_leads() -> None:
    state = _state(["3c", "4c", "5c", "6c"])
    _speak(state, "pass", "pass", "pass", "pass")
    _to_play(state)
    rng = random.Random(0)
    for _ in range(5):
        leader = state.current_player
        assert leader is not None
        tricks = len(state.observation(0)["tricks"])
        seen = []
        while len(state.observation(0)["tricks"]) == tricks:
            seat = state.current_player
            if not seen or seen[-1] != seat:
                seen.append(seat)
            state.apply(rng.choice(state.legal_actions()))
        assert seen == [(leader + k) % 4 for k in range(4)]
        trick = state.observation(0)["tricks"][-1]
        sizes = {len(cardkit.parse_cards(c)) for c in trick["cards"]}
        assert len(sizes) == 1
        assert state.current_player == trick["winner"]


@pytest.mark.rule("TRC-22", "TRC-23", "TRC-29")
def test_trump_order() -> None:
    # Level 7, hearts trumps: RJ > BJ > 7h > 7s = 7c > Ah > ... > 2h; side suits A..2.
    order = ["2h", "Ah", "7s", "7h", "BJ", "RJ"]
    for low, high in itertools.pairwise(order):
        assert _winner([low, high], "7", "h") == 1, (low, high)
        assert _winner([high, low], "7", "h") == 0
    assert _winner(["As", "2h"], "7", "h") == 1  # any trump beats a side suit
    assert _winner(["8s", "6s"], "7", "h") == 0
    assert _winner(["7s", "As"], "7", "h") == 0  # the 7s is a trump, not a spade
    assert ref.suit_of("7s", "7", "h") == "T"


@pytest.mark.rule("TRC-24", "TRC-27")
def test_equal_strength_favours_the_earlier_play() -> None:
    assert _winner(["3h", "7c", "7d"], "7", "h") == 1
    assert _winner(["7d", "7c", "7s"], "7", "h") == 0
    assert _winner(["Ac", "As", "Ac"], "7", "h") == 0


@pytest.mark.rule("TRC-25", "TRC-26")
def test_lead_shapes_and_the_closed_gap() -> None:
    assert tractor_shape("9s", "7", "h") == ("single", 0)
    assert tractor_shape("9s9s", "7", "h") == ("pair", 1)
    assert tractor_shape("6s6s8s8s", "7", "h") == ("tractor", 2)  # 66-88 at level 7
    assert tractor_shape("6s6s8s8s", "2", "h") is None
    assert tractor_shape("9s9sTsTsJsJs", "2", "h") == ("tractor", 3)
    assert tractor_shape("9s9sTdTd", "2", "h") is None  # one effective suit only
    assert tractor_shape("9s8s", "2", "h") is None
    state = _state(["3c", "4c", "5c", "6c"])
    _speak(state, "pass", "pass", "pass", "pass")
    _to_play(state)
    kinds = {state.action_to_id(a) for a in state.legal_actions()}
    assert len(kinds) == len(state.legal_actions())
    with pytest.raises(IllegalActionError):
        held = [str(c) for c in state.hands[0]]
        two = next(
            (a, b)
            for a in held
            for b in held
            if a != b and tractor_shape(a + b, "2", state.trump) is None
        )
        state.apply("play " + "".join(two))


@pytest.mark.rule("TRC-27")
def test_off_suit_level_pairs_are_no_tractor() -> None:
    assert tractor_shape("7s7s7d7d", "7", "h") is None
    assert tractor_shape("7s7s7h7h", "7", "h") == ("tractor", 2)
    # Trump tractors through the level cards and jokers.
    assert tractor_shape("AhAh7c7c", "7", "h") == ("tractor", 2)
    assert tractor_shape("AhAh7c7c7h7hBJBJRJRJ", "7", "h") == ("tractor", 5)
    assert tractor_shape("7h7hRJRJ", "7", "h") is None


@pytest.mark.rule("TRC-28", "TRC-32")
def test_follow_the_led_suit_and_fill_when_short() -> None:
    hand = "3h 9h Kc Qd"
    assert tractor_is_legal_follow(hand, "5h5h", "3h9h", "2", "s")
    assert not tractor_is_legal_follow(hand, "5h5h", "3hKc", "2", "s")
    short = "3h Kc Qd"
    assert tractor_is_legal_follow(short, "5h5h", "3hKc", "2", "s")
    assert tractor_is_legal_follow(short, "5h5h", "3hQd", "2", "s")
    assert not tractor_is_legal_follow(short, "5h5h", "KcQd", "2", "s")


@pytest.mark.rule("TRC-29")
def test_level_cards_and_jokers_follow_a_trump_lead() -> None:
    # Spades trumps at level 2: 2h and the black joker are trumps and must follow.
    hand = "2h BJ Ah Kd"
    assert tractor_follow_cards(hand, "3s", "", "2", "s") == cardkit.parse_cards("2h BJ")
    assert not tractor_is_legal_follow(hand, "3s", "Ah", "2", "s")


@pytest.mark.rule("TRC-30", "TRC-31")
def test_following_a_tractor_with_pairs_but_no_tractor() -> None:
    lead = "5h5h6h6h"
    hand = "9h9h JhJh 3h 4h Kc"
    assert tractor_is_legal_follow(hand, lead, "9h9hJhJh", "2", "s")
    assert not tractor_is_legal_follow(hand, lead, "9h9h3h4h", "2", "s")
    # Holding a tractor, disconnected pairs are still a legal follow (TRC-31).
    hand = "9h9h TsTs JhJh QhQh"
    assert tractor_is_legal_follow(hand, lead, "9h9hQhQh", "2", "d")
    # Pairs that cannot beat it: disconnected pairs lose to the tractor (TRC-37).
    assert _winner([lead, "9h9hJhJh", "3c3c4c4c", "7d8d9dTd"]) == 0


@pytest.mark.rule("TRC-33", "TRC-34")
def test_a_void_follower_may_discard_or_trump() -> None:
    hand = "3s 4c Kd"
    assert tractor_is_legal_follow(hand, "Ah", "3s", "2", "s")
    assert tractor_is_legal_follow(hand, "Ah", "4c", "2", "s")
    assert tractor_is_legal_follow(hand, "Ah", "Kd", "2", "s")
    assert _winner(["Ah", "3s"]) == 1 and _winner(["Ah", "4c"]) == 0


@pytest.mark.rule("TRC-35", "TRC-36", "TRC-38")
def test_only_a_matching_shape_wins() -> None:
    # A pair led, two unmatched higher cards lose; a trump pair wins; two single
    # trumps lose.
    assert _winner(["5h5h", "AhKh"]) == 0
    assert _winner(["5h5h", "3s3s"]) == 1
    assert _winner(["5h5h", "3s4s"]) == 0
    assert _winner(["5h5h", "AhKh", "3s4s", "3s3s"]) == 3
    assert _winner(["5h5h", "6h6h", "AsAs"]) == 2
    assert _winner(["5h5h", "AsAs", "BJBJ"]) == 2
    # A trump tractor beats a side-suit tractor only as a tractor.
    assert _winner(["5h5h6h6h", "3s3s4s4s"]) == 1
    assert _winner(["5h5h6h6h", "3s3s5s5s"]) == 0


@pytest.mark.rule("TRC-37")
def test_disconnected_pairs_cannot_beat_a_tractor() -> None:
    assert _winner(["5h5h6h6h", "QhQhAhAh"]) == 0
    assert _winner(["5h5h6h6h", "QhQhKhKh"]) == 1


# -- scoring and levels ------------------------------------------------------------------


@pytest.mark.rule("TRC-40", "TRC-41")
def test_card_points_total_two_hundred() -> None:
    assert card_points(cardkit.parse_cards("5h Ts Kd Ac")) == 25
    assert card_points(cardkit.deck("double108")) == 200


@pytest.mark.rule("TRC-42")
def test_the_kitty_bonus_with_a_tractor_on_the_last_trick() -> None:
    hands = ["JcQcKcAc", "5h5h6h6h", "3c3c4c4c", "7d8d9dTd"]
    deal = TractorDeal(hands, "2", "s", 1)
    lead = deal.lead_id("5h5h6h6h")
    assert lead is not None
    deal.apply_id(lead)
    while not deal.over:
        deal.apply_id(deal.legal_ids()[0])
    assert deal.points[1] == 30
    # Kitty K K 5 = 25 points, times twice the four cards each played.
    assert deal.attacker_points(0, "KcKc5d") == 30 + 25 * 2 * 4


@pytest.mark.rule("TRC-43")
def test_no_kitty_bonus_when_the_defenders_win_the_last_trick() -> None:
    deal = TractorDeal(["AhAh", "5h5h", "3c4c", "7d8d"], "2", "s", 1)
    deal.apply_id(deal.lead_id("5h5h") or 0)
    while not deal.over:
        deal.apply_id(deal.legal_ids()[0])
    assert deal.points[0] == 10
    assert deal.attacker_points(0, "KcKc") == 0


@pytest.mark.rule("TRC-44", "TRC-45", "TRC-46", "TRC-48", "TRC-49")
@pytest.mark.parametrize(
    ("points", "change"),
    [
        (0, ("defenders", 3)),
        (5, ("defenders", 2)),
        (35, ("defenders", 2)),
        (40, ("defenders", 1)),
        (75, ("defenders", 1)),
        (80, ("attackers", 0)),
        (115, ("attackers", 0)),
        (120, ("attackers", 1)),
        (155, ("attackers", 1)),
        (160, ("attackers", 2)),
    ],
)
def test_every_level_band_edge(points: int, change: tuple[str, int]) -> None:
    assert level_change(points) == change


@pytest.mark.rule("TRC-47", "TRC-50")
def test_the_next_dealer_by_the_result() -> None:
    game = games.make("tractor")
    dealt = set()
    for seed in range(6):
        state = game.new_state(seed=seed)
        agents = [RandomAgent(seed * 4 + s) for s in range(4)]
        while state.deal_number == 0 and not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
        first = state.score_breakdown()["deals"][0]
        assert state.dealer == first["next_dealer"]
        offset = 2 if first["attacker_points"] < 80 else 1
        assert state.dealer == (first["dealer"] + offset) % 4
        dealt.add(offset)
    assert dealt == {1, 2}


# -- follow legality against the reference ---------------------------------------------------


def _random_lead(rng: random.Random, level: str, trump: str | None) -> list[str]:
    suit = rng.choice("cdhs")
    plain = [r for r in ref.RANKS if r != level]
    kind = rng.choice(("single", "pair", "tractor"))
    if kind == "tractor":
        i = rng.randrange(len(plain) - 1)
        return [plain[i] + suit] * 2 + [plain[i + 1] + suit] * 2
    card = rng.choice(plain) + suit
    return [card] * (1 if kind == "single" else 2)


def _rust_follows(
    hand: list[str], lead: list[str], level: str, trump: str | None
) -> set[tuple[str, ...]]:
    """Every complete follow the engine's card-by-card listing reaches."""
    found: set[tuple[str, ...]] = set()

    def grow(chosen: list[str]) -> None:
        if len(chosen) == len(lead):
            found.add(tuple(sorted(chosen)))
            return
        for card in tractor_follow_cards(hand, lead, chosen, level, trump):
            grow([*chosen, str(card)])

    grow([])
    return found


@pytest.mark.rule("TRC-28", "TRC-30", "TRC-31", "TRC-32", "TRC-33")
def test_follow_listing_matches_the_reference_on_random_positions() -> None:
    rng = random.Random(17)
    for _ in range(300):
        level = rng.choice(ref.RANKS)
        trump = rng.choice(["c", "d", "h", "s", None])
        lead = _random_lead(rng, level, trump)
        assert tractor_shape("".join(lead), level, trump) is not None
        hand = ref.random_hand(rng, rng.randint(len(lead), 9))
        # Bias toward the led suit so that the pair rules are exercised.
        led = ref.suit_of(lead[0], level, trump)
        extra = [c for c in ref.random_hand(rng, 30) if ref.suit_of(c, level, trump) == led]
        hand = (hand + extra[:4])[:10]
        if any(n > 2 for n in Counter(hand).values()):
            continue
        expected = ref.legal_follows(hand, lead, level, trump)
        assert expected, (hand, lead)
        assert _rust_follows(hand, lead, level, trump) == expected, (hand, lead, level, trump)
        for follow in list(ref.multisets(hand, len(lead)))[:40]:
            got = tractor_is_legal_follow(hand, lead, list(follow), level, trump)
            assert got == ref.is_legal_follow(hand, lead, follow, level, trump)


def test_a_whole_follow_in_one_action_equals_its_cards_one_by_one() -> None:
    state = _state(["3c", "4c", "5c", "6c"])
    _speak(state, "pass", "pass", "pass", "pass")
    _to_play(state)
    state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    one_by_one = state.clone()
    follow = []
    lead = state.observation(seat)["trick"][0][1]
    for _ in cardkit.parse_cards(lead):
        action = one_by_one.legal_actions()[0]
        follow.append(action.args[0])
        one_by_one.apply(action)
    state.apply("play " + "".join(follow))
    assert state.observation(0) == one_by_one.observation(0)


# -- several cards as one action ------------------------------------------------------


def test_several_cards_to_bury_are_one_action_or_none() -> None:
    state = _state(["2c", "3c", "4c", "5c"])
    _speak(state, "declare 2c", "pass", "pass", "pass")
    cards = [str(c) for c in state.hands[0]]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="only 8 more"):
        state.apply("bury " + " ".join(cards[:9]))
    assert state.to_json() == before and state.buried == []
    state.apply("bury " + " ".join(cards[:5]))
    with pytest.raises(IllegalActionError, match="only 3 more"):
        state.apply("bury " + " ".join(cards[5:9]))
    assert len(state.buried) == 5


def test_a_follow_never_spills_into_the_next_seat() -> None:
    # A follow named with one card more than it takes is refused whole: checking it
    # card by card, the follow could complete and the extra card, legal for the next
    # seat and last in card-index order, be played for that seat.
    rng = random.Random(2)
    for seed in range(30):
        state = games.make("tractor", match=False).new_state(seed=seed)
        while state.phase is not Phase.PLAY:
            state.apply(rng.choice(state.legal_actions()))
        state.apply(state.legal_actions()[0])  # a lead
        seat = state.current_player
        twin = state.clone()
        follow = []
        while twin.current_player == seat:
            action = twin.legal_actions()[0]
            follow.append(action.args[0])
            twin.apply(action)
        # Legal for the next seat, and the highest such card.
        extra = max((a.args[0] for a in twin.legal_actions()), key=CARD_INDEX.__getitem__)
        before = state.to_json()
        with pytest.raises(IllegalActionError):
            state.apply("play " + "".join([*follow, extra]))
        assert state.to_json() == before and state.current_player == seat
        state.apply("play " + "".join(follow))
        assert state.observation(0) == twin.observation(0)


# -- card errors name the argument (issue 13) -------------------------------------------


def _deal() -> TractorDeal:
    return TractorDeal([["3c"], ["4c"], ["5c"], ["6c"]], "2", "s", 0)


PACK = [str(c) for c in cardkit.deck("double108")]


@pytest.mark.parametrize(
    ("call", "argument", "quoted"),
    [
        (lambda: tractor_shape("3c3x", "2"), "cards", '"3x"'),
        (lambda: tractor_shape("3c3c3c", "2"), "cards", "3c"),
        (lambda: tractor_follow_cards("3c3c3c", "5c", "", "2"), "hand", "3c"),
        (lambda: tractor_follow_cards("3c", "5c5c5c", "", "2"), "lead", "5c"),
        (lambda: tractor_follow_cards("3c", "5c", "3x", "2"), "chosen", '"3x"'),
        (lambda: tractor_is_legal_follow("3c4c", "5c", "4c4c4c", "2"), "follow", "4c"),
        (lambda: tractor_trick_winner(["5c", "3c3c3c"], "2"), "plays", "3c"),
        (lambda: tractor_lead_id("9d9d9d", "2", "s"), "cards", "9d"),
        (lambda: TractorDeal([["3c"], ["4x"], [], []], "2", "s", 0), "hands", '"4x"'),
        (lambda: TractorDeal([["3c"] * 3, [], [], []], "2", "s", 0), "hands", "3c"),
        (lambda: TractorDeal("3c", "2", "s", 0), "hands", "'3c'"),
        (lambda: _deal().lead_id("3c3c3c"), "cards", "3c"),
        (lambda: _deal().attacker_points(0, "KcKcKc"), "kitty", "Kc"),
        (lambda: TractorRound(PACK[:-1], ["2", "2"], 0), "order", "107"),
        (lambda: TractorRound([*PACK[:-1], "2c"], ["2", "2"], 0), "order", "twice"),
        (lambda: TractorRound([*PACK[:-1], "Zz"], ["2", "2"], 0), "order", '"Zz"'),
        (lambda: tractor_card_points("5c5x"), "cards", '"5x"'),
    ],
)
def test_card_errors_name_the_argument(call: object, argument: str, quoted: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        call()  # type: ignore[operator]
    assert info.value.argument == argument
    assert str(info.value).startswith(f"{argument}: ")
    assert quoted in str(info.value)


# -- the listing of the per-move path (TractorActions) ------------------------------------


def _listing_round(seed: int) -> TractorRound:
    order = [str(c) for c in cardkit.deck("double108")]
    random.Random(seed).shuffle(order)
    return TractorRound(order, ["2", "2"], seed % 4, None, TractorActions(Action))


@pytest.mark.parametrize("seed", range(12))
def test_a_listed_action_plays_as_its_id_does(seed: int) -> None:
    """The table names each listed id as ``tractor_action_text`` does, in ``legal_ids``
    order, and ``apply_action`` (the object, or its text) plays exactly what
    ``apply_id`` plays on a copy: the same trick, the same position after."""
    rng = random.Random(seed)
    listing, by_id = _listing_round(seed), _listing_round(seed)
    history: list[Action] = []
    while listing.to_act is not None:
        ids = listing.legal_ids()
        legal = listing.legal_actions()
        trump = listing.trump if listing.phase == "play" else None
        assert legal == [tractor_action_text(i, listing.level, trump) for i in ids]
        k = rng.randrange(len(legal))
        chosen = legal[k] if rng.random() < 0.5 else str(legal[k])
        trick = listing.apply_action(chosen, history)
        assert trick == (by_id.apply_id(ids[k]) or ())
        assert history[-1] is legal[k]
        assert listing.legal_ids() == by_id.legal_ids()
        assert [listing.hand(s) for s in range(4)] == [by_id.hand(s) for s in range(4)]
        assert listing.trick == by_id.trick
    assert listing.outcome == by_id.outcome
    assert listing.legal_actions() == []


def test_apply_action_leaves_what_is_not_listed_to_the_caller() -> None:
    """A text or object naming no listed action returns None and changes nothing."""
    round_ = _listing_round(3)
    before = round_.legal_ids()
    history: list[Action] = []
    for other in ("play 2c", "bury As", "pass ", 0, None, "declare RJRJRJ"):
        assert round_.apply_action(other, history) is None
    assert history == [] and round_.legal_ids() == before
    copy = round_.copy()
    assert copy.legal_actions() == round_.legal_actions()
    assert copy.apply_action("pass", history) == ()
    assert history == ["pass"] and round_.legal_ids() == before


def test_a_round_without_a_table_lists_by_id_only() -> None:
    round_ = TractorRound(PACK, ["2", "2"], 0)
    assert round_.legal_ids()[0] == 0  # pass, listed by id
    for call in (round_.legal_actions, lambda: round_.apply_action("pass", [])):
        with pytest.raises(cardkit.RuleOptionError, match="no action table"):
            call()
