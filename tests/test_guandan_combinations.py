"""Guandan combinations (issue 16): the Rust engine (``cardkit._core.guandan_*``) held to
the rule clauses GD-30..GD-44 and, on thousands of random hands, to the plain-Python
reference enumeration in ``tests/guandan_reference.py``.

Every rule test checks the Rust answer against the hand-worked expectation written in the
test and against the reference, so one set of examples vouches for both. Notation is the
one of GUANDAN_SPEC.md: rank text for naturals, ``W=<stand-in>`` per wild.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import _core as core
from cardkit.errors import IllegalActionError

from . import guandan_reference as ref

PACK = [str(card) for card in cardkit.deck("double108")]


def _cards(hand: str) -> list[str]:
    return hand.split()


def _fields(play: ref.Play | core.GuandanPlay) -> tuple[object, ...]:
    return (
        play.text,
        play.type,
        play.main_rank,
        play.suit,
        play.size,
        play.wilds,
        play.naturals,
        play.is_bomb,
    )


def _check_listing(rust: Sequence[core.GuandanPlay], reference: Sequence[ref.Play]) -> set[str]:
    """The two listings hold the same plays with the same fields; Rust lists each once."""
    texts = [play.text for play in rust]
    assert len(texts) == len(set(texts)), sorted(t for t, n in Counter(texts).items() if n > 1)
    assert {_fields(p) for p in rust} == {_fields(p) for p in reference}
    return set(texts)


def _leads(hand: str, level: str) -> set[str]:
    cards = _cards(hand)
    return _check_listing(core.guandan_leads(cards, level), ref.leads(cards, level))


def _readings(hand: str, level: str) -> dict[str, tuple[str, str, str | None]]:
    """Every reading of playing exactly these cards: {text: (type, main rank, suit)}."""
    cards = _cards(hand)
    _leads(hand, level)
    rust = {
        p.text: (p.type, p.main_rank, p.suit)
        for p in core.guandan_leads(cards, level)
        if p.size == len(cards)
    }
    assert rust == {p.text: (p.type, p.main_rank, p.suit) for p in ref.readings(cards, level)}
    return rust


def _play(text: str, level: str) -> core.GuandanPlay:
    play = core.guandan_parse(text, level)
    assert _fields(play) == _fields(ref.parse(text, level))
    return play


def _beats(play: str, table: str, level: str) -> bool:
    answer = core.guandan_beats(_play(play, level), _play(table, level), level)
    assert answer == ref.beats(ref.parse(play, level), ref.parse(table, level), level)
    return answer


def _responses(hand: str, level: str, table: str) -> set[str]:
    cards = _cards(hand)
    rust = core.guandan_responses(cards, level, _play(table, level))
    return _check_listing(rust, ref.responses(cards, level, ref.parse(table, level)))


# --- Pack, level and wilds ----------------------------------------------------------------


@pytest.mark.rule("GD-10")
def test_the_pack_is_two_full_packs_with_jokers() -> None:
    counts = Counter(PACK)
    assert len(PACK) == 108
    assert len(counts) == 54 and set(counts.values()) == {2}
    assert counts["BJ"] == counts["RJ"] == 2


@pytest.mark.rule("GD-11", "GD-12")
def test_the_level_rank_hearts_are_the_wilds() -> None:
    assert _leads("7h 7s", "7") == {"7", "W=7", "7 W=7"}
    assert _leads("7h 7s", "2") == {"7", "77"}  # at level 2 a 7h is a natural card
    assert _leads("Th Th", "T") == {"W=T", "W=T W=T"}
    assert _leads("Tc Ts", "T") == {"T", "TT"}  # only the hearts are wild


@pytest.mark.rule("GD-10")
def test_a_hand_holds_at_most_two_of_a_card() -> None:
    with pytest.raises(cardkit.InvalidCardError, match="7s"):
        core.guandan_leads(["7s", "7s", "7s"], "2")
    with pytest.raises(cardkit.RuleOptionError, match='"1"'):
        core.guandan_leads(["7s"], "1")


# --- Order of ranks -----------------------------------------------------------------------


@pytest.mark.rule("GD-30")
def test_singles_and_groups_order_with_the_level_rank_above_the_ace() -> None:
    order = ["2s", "3d", "4c", "6s", "Ts", "Kd", "As", "5c", "BJ", "RJ"]
    strengths = [core.guandan_strength(card, "5") for card in order]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(order)
    expected = [ref.strength(ref.rank_of(card), "5") for card in order]
    assert expected == sorted(set(expected))
    assert core.guandan_strength("5h", "5") == core.guandan_strength("5c", "5")
    assert _responses("2s 5c 5h As Kd BJ RJ", "5", "A") == {"5", "W=5", "B", "R"}
    assert _beats("55", "AA", "5") and not _beats("AA", "55", "5")
    assert _beats("BB", "55", "5") and _beats("RR", "BB", "5")
    assert _beats("555", "AAA", "5") and _beats("5555", "AAAA", "5")
    assert _beats("555KK", "AAA22", "5")  # a full house by its triple
    assert _beats("A", "K", "5") and not _beats("4", "6", "5")


@pytest.mark.rule("GD-31")
def test_suits_have_no_order() -> None:
    assert _responses("7h 7s 7d", "2", "7") == set()
    assert not _beats("7", "7", "2")
    assert not _beats("3s4s5s6s7s", "3h4h5h6h7h", "2")
    assert not _beats("3h4h5h6h7h", "3s4s5s6s7s", "2")


@pytest.mark.rule("GD-32")
def test_ordinary_plays_answer_only_the_same_shape_and_size_higher() -> None:
    assert _responses("3s 3c 5d 5c 6s 7d 7c", "2", "44") == {"55", "77"}
    assert not _beats("44", "3", "2") and not _beats("444", "33", "2")
    assert not _beats("34567", "33", "2") and not _beats("334455", "333444", "2")
    assert _beats("44433", "333AA", "2")  # the triple decides
    assert not _beats("333AA", "33344", "2") and not _beats("33344", "333AA", "2")
    assert _beats("23456", "A2345", "9") and _beats("TJQKA", "9TJQK", "9")
    assert not _beats("9TJQK", "TJQKA", "9")
    assert not _beats("TJQKA", "3s4s5s6s7s", "9")  # an ordinary play never beats a bomb
    assert _beats("3s4s5s6s7s", "TJQKA", "9")


# --- Shapes -------------------------------------------------------------------------------


@pytest.mark.rule("GD-33", "GD-41")
def test_the_supported_shapes_and_nothing_else() -> None:
    level = "9"
    assert _readings("3s", level) == {"3": ("single", "3", None)}
    assert _readings("3s 3d", level) == {"33": ("pair", "3", None)}
    assert _readings("3s 3d 3c", level) == {"333": ("triple", "3", None)}
    assert _readings("3s 3d 3c Ks Kd", level) == {"333KK": ("full_house", "3", None)}
    assert _readings("3s 4d 5c 6h 7s", level) == {"34567": ("straight", "7", None)}
    assert _readings("3s 3d 4s 4d 5s 5d", level) == {"334455": ("pair_run", "5", None)}
    assert _readings("3s 3d 3c 4s 4d 4c", level) == {"333444": ("plate", "4", None)}
    assert _readings("3s 3d 3c 3h", level) == {"3333": ("bomb", "3", None)}
    assert _readings("3s 3d 3c 3h 3s", level) == {"33333": ("bomb", "3", None)}  # not 3+2
    assert _readings("3s 4s 5s 6s 7s", level) == {
        "34567": ("straight", "7", None),
        "3s4s5s6s7s": ("straight_flush", "7", "s"),
    }
    for exactly in (
        "3s 4d 5c 6h 7s 8s",  # straights are exactly five
        "3s 3d 4s 4d",  # pair runs are exactly three pairs
        "3s 3d 4s 4d 5s 5d 6s 6d",
        "3s 3d 3c 4s 4d 4c 5s 5d 5c",  # plates are exactly two triples
        "3s 3d 4s",
        "3s 3d 3c 4s 4d 5s",
    ):
        assert _readings(exactly, level) == {}, exactly
    assert not _play("333", level).is_bomb and _play("3333", level).is_bomb


@pytest.mark.rule("GD-34")
def test_a_full_house_pair_may_be_identical_jokers_never_mixed() -> None:
    assert _readings("3s 3d 3c BJ BJ", "9") == {"333BB": ("full_house", "3", None)}
    assert _readings("3s 3d 3c RJ RJ", "9") == {"333RR": ("full_house", "3", None)}
    assert _readings("3s 3d 3c BJ RJ", "9") == {}
    assert _readings("BJ BJ", "9") == {"BB": ("pair", "B", None)}
    assert _readings("RJ RJ", "9") == {"RR": ("pair", "R", None)}
    assert _readings("BJ RJ", "9") == {}
    assert _leads("BJ RJ", "9") == {"B", "R"}
    assert _readings("3s 3d BJ BJ 2h", "2") == {"33BB W=3": ("full_house", "3", None)}
    assert _readings("3s 3d 3c BJ 2h", "2") == {}  # the wild cannot pair the joker


@pytest.mark.rule("GD-35")
def test_no_triple_with_single_and_no_winged_airplanes() -> None:
    for hand in (
        "3s 3d 3c 4s",
        "3s 3d 3c 4s 4d 4c 5s 6s",
        "3s 3d 3c 4s 4d 4c 5s 5d 6s 6d",
        "3s 3d 3c 4s 4d 4c 5s 2h",
    ):
        assert _readings(hand, "2") == {}, hand


# --- Sequences ----------------------------------------------------------------------------


@pytest.mark.rule("GD-36")
def test_sequences_keep_the_level_rank_in_its_natural_place() -> None:
    assert _readings("3s 4d 5c 6h 7s", "7") == {"34567": ("straight", "7", None)}
    assert _readings("7s 8d 9c Th Js", "7") == {"789TJ": ("straight", "J", None)}
    assert _beats("45678", "34567", "7") and _beats("89TJQ", "789TJ", "7")
    assert _beats("778899", "667788", "7") and _beats("888999", "777888", "7")
    assert _beats("7", "A", "7") and _beats("77", "AA", "7") and _beats("7777", "AAAA", "7")
    # the wild is the 7 of hearts at level 7, and stands in the run by position
    assert _readings("3s 4d 5c 6c 7h", "7") == {
        "3456 W=2": ("straight", "6", None),
        "3456 W=7": ("straight", "7", None),
    }


@pytest.mark.rule("GD-37")
def test_the_ace_is_low_or_high_but_never_wraps() -> None:
    level = "9"
    assert _readings("As 2d 3c 4h 5s", level) == {"A2345": ("straight", "5", None)}
    assert _readings("Ts Jd Qc Kh As", level) == {"TJQKA": ("straight", "A", None)}
    assert _readings("Qs Kd Ac 2h 3s", level) == {}
    assert _readings("Js Qd Kc Ah 2s", level) == {}
    assert _readings("As Ad 2s 2d 3s 3d", level) == {"AA2233": ("pair_run", "3", None)}
    assert _readings("Qs Qd Ks Kd As Ad", level) == {"QQKKAA": ("pair_run", "A", None)}
    assert _readings("Ks Kd As Ad 2s 2d", level) == {}
    assert _readings("As Ad Ac 2s 2d 2c", level) == {"AAA222": ("plate", "2", None)}
    assert _readings("Ks Kd Kc As Ad Ac", level) == {"KKKAAA": ("plate", "A", None)}
    assert _readings("As 2s 3s 4s 5s", level)["As2s3s4s5s"] == ("straight_flush", "5", "s")
    assert _beats("23456", "A2345", level) and not _beats("A2345", "23456", level)
    assert _beats("223344", "AA2233", level) and _beats("222333", "AAA222", level)
    assert _beats("KKKAAA", "QQQKKK", level) and _beats("QQKKAA", "JJQQKK", level)
    # a wild completes a run at either end of the ace but not across it
    assert _readings("Js Qd Kc Ac 2h", "2") == {"JQKA W=T": ("straight", "A", None)}
    assert _readings("As 3d 4c 5s 2h", "2") == {"A345 W=2": ("straight", "5", None)}
    assert _readings("Qs Kd Ac 3s 2h", "2") == {}


# --- Wilds --------------------------------------------------------------------------------


@pytest.mark.rule("GD-38")
def test_a_wild_completes_any_shape_but_never_stands_for_a_joker() -> None:
    assert _leads("BJ 2h", "2") == {"B", "W=2"}
    assert _leads("BJ BJ RJ 2h", "2") == {"B", "R", "W=2", "BB"}  # no joker bomb
    assert _readings("3s 3d 3c RJ 2h", "2") == {}
    assert _readings("3s 4d 6c 7s 2h", "2") == {"3467 W=5": ("straight", "7", None)}
    assert _readings("3s 4s 6s 7s 2h", "2") == {
        "3467 W=5": ("straight", "7", None),
        "3s4s6s7s W=5s": ("straight_flush", "7", "s"),
    }
    assert _readings("5s 5d 5c 2h", "2") == {"555 W=5": ("bomb", "5", None)}
    assert _readings("5s 5d 5c 5h 2h", "2") == {"5555 W=5": ("bomb", "5", None)}
    assert _readings("5s 5d 5c 6s 2h", "2") == {"5556 W=6": ("full_house", "5", None)}
    assert _readings("5s 5d 5c 2h 2h", "2") == {
        "555 W=5 W=5": ("bomb", "5", None),
        **{f"555 W={r} W={r}": ("full_house", "5", None) for r in ref.RANKS if r != "5"},
    }
    assert _readings("5s 2h", "2") == {"5 W=5": ("pair", "5", None)}
    # the level heart in a hearts straight flush stands for itself
    assert _readings("3h 4h 6h 7h 5h", "5") == {
        "3467 W=5": ("straight", "7", None),
        "3h4h6h7h W=5h": ("straight_flush", "7", "h"),
    }


@pytest.mark.rule("GD-39")
def test_a_lone_wild_is_a_single_of_the_level_rank() -> None:
    assert _leads("9h", "9") == {"W=9"}
    assert _readings("9h", "9") == {"W=9": ("single", "9", None)}
    assert _readings("9h 9h", "9") == {"W=9 W=9": ("pair", "9", None)}
    assert _beats("W=9", "A", "9") and _beats("B", "W=9", "9")
    assert not _beats("W=9", "9", "9") and not _beats("9", "W=9", "9")
    for text in ("W=3", "W=3 W=3", "W=B"):
        with pytest.raises(IllegalActionError):
            core.guandan_parse(text, "9")


@pytest.mark.rule("GD-40")
def test_each_reading_of_an_ambiguous_set_is_its_own_action() -> None:
    assert _readings("3s 4d 5c 6s 2h", "2") == {
        "3456 W=2": ("straight", "6", None),
        "3456 W=7": ("straight", "7", None),
    }
    assert _readings("5s 5d 6s 6d 2h", "2") == {
        "5566 W=5": ("full_house", "5", None),
        "6655 W=6": ("full_house", "6", None),
    }
    assert _responses("5s 5d 6s 6d 2h", "2", "44433") == {"5566 W=5", "6655 W=6"}
    assert _responses("5s 5d 6s 6d 2h", "2", "555KK") == {"6655 W=6"}
    # every way of using the wilds in one reading is listed too
    straights = {
        p.text
        for p in core.guandan_leads(_cards("3s 4d 5c 6s 7d 2h 2h"), "2")
        if p.type == "straight" and p.main_rank == "7"
    }
    assert len(straights) == 16  # 1 + 5 + 10 ways to put at most two wilds in five places
    assert {"34567", "3456 W=7", "3567 W=4", "345 W=6 W=7", "567 W=3 W=4"} <= straights


# --- Bombs --------------------------------------------------------------------------------


@pytest.mark.rule("GD-41", "GD-42")
def test_bombs_compare_size_before_rank() -> None:
    hand = " ".join(["5s", "5s", "5d", "5d", "5c", "5c", "5h", "5h", "2h", "2h"])
    bombs = [p for p in core.guandan_leads(_cards(hand), "2") if p.type == "bomb"]
    assert {p.size for p in bombs} == set(range(4, 11))
    assert "55555555 W=5 W=5" in {p.text for p in bombs}
    _leads(hand, "2")
    assert _beats("33333", "AAAA", "2") and not _beats("AAAA", "33333", "2")
    assert _beats("2222", "AAAA", "2") and _beats("AAAA", "2222", "3")
    assert _beats("333333", "AAAAA", "2") and _beats("3333333", "AAAAAA", "2")
    assert _beats("3333333 W=3 W=3", "AAAAAAAA", "2")  # nine beats eight
    assert not _beats("5555", "5555", "2")


@pytest.mark.rule("GD-43")
def test_a_straight_flush_sits_between_five_and_six_card_bombs() -> None:
    lowest, highest = "As2s3s4s5s", "TsJsQsKsAs"
    assert _beats(lowest, "AAAAA", "9") and _beats(lowest, "9999", "9")
    assert _beats(lowest, "99999", "9")  # the level rank's five-card bomb too
    assert not _beats(highest, "222222", "9") and _beats("222222", highest, "9")
    assert _beats("ThJhQhKhAh", "9s10sJsQsKs", "9") and not _beats(highest, "ThJhQhKhAh", "9")
    assert _responses("3s 3s 3d 3d 3c 3c", "9", "3h4h5h6h7h") == {"333333"}
    assert _responses("3s 3s 3d 3d 3c 3c", "9", "AAAAA") == {"333333"}
    assert _responses("3s 3s 3d 3d 3c 3c", "9", "AAAA") == {"33333", "333333"}
    assert _responses("3s 3s 3d 3d 3c 3c", "9", "2222") == {"3333", "33333", "333333"}


@pytest.mark.rule("GD-44")
def test_the_joker_bomb_beats_everything() -> None:
    assert _readings("BJ BJ RJ RJ", "2") == {"BBRR": ("joker_bomb", "R", None)}
    assert _beats("BBRR", "55555555 W=5 W=5", "2")
    assert _beats("BBRR", "TsJsQsKsAs", "2") and _beats("BBRR", "3", "2")
    hand = "BJ BJ RJ RJ 5s 5s 5d 5d 5c 5c 5h 5h 2h 2h 9s Ts Js Qs Ks"
    assert _responses(hand, "2", "BBRR") == set()
    assert _responses(hand, "2", "55555555 W=5 W=5") == {"BBRR"}


# --- Differential: Rust against the reference on random hands ------------------------------


def _random_hand(rng: random.Random, level: str) -> list[str]:
    """A random hand of 1..27 cards holding 0, 1 or 2 wilds. Half the hands come from a
    few neighbouring ranks (and the jokers), so big bombs, plates, pair runs and straight
    flushes turn up often."""
    wild = ref.wild_card(level)
    wilds = rng.choice((0, 1, 2))
    pool = [card for card in PACK if card != wild]
    if rng.random() < 0.5:
        start, width = rng.randrange(14), rng.randint(2, 6)
        window = set((ref.RUN_POSITIONS * 2)[start : start + width])
        pool = [c for c in pool if c in ref.JOKERS or c[0] in window]
    size = rng.randint(max(1, wilds), min(27, len(pool) + wilds))
    return rng.sample(pool, size - wilds) + [wild] * wilds


def _random_table(rng: random.Random, level: str) -> str:
    """A lead of another random hand, its type chosen first so rare types show up."""
    by_type: dict[str, list[str]] = {}
    for play in ref.leads(_random_hand(rng, level), level):
        by_type.setdefault(play.type, []).append(play.text)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def _differential(seed: int, hands: int) -> None:
    rng = random.Random(seed)
    for _ in range(hands):
        level = rng.choice(ref.RANKS)
        hand = _random_hand(rng, level)
        reference = ref.leads(hand, level)
        _check_listing(core.guandan_leads(hand, level), reference)
        for as_text in (False, True):  # the table may be given as a play or as its text
            text = _random_table(rng, level)
            table = ref.parse(text, level)
            rust = core.guandan_responses(hand, level, text if as_text else _play(text, level))
            expected = [p for p in reference if ref.beats(p, table, level)]
            _check_listing(rust, expected)


@pytest.mark.rule("GD-32", "GD-38", "GD-40", "GD-41", "GD-42", "GD-43", "GD-44")
def test_leads_and_responses_match_the_reference(exhaustive: bool) -> None:
    _differential(seed=16, hands=50_000 if exhaustive else 2_500)


def test_beats_matches_the_reference_on_every_pair_of_a_ladder() -> None:
    level = "6"
    texts = [
        "5", "6", "W=6", "A", "B", "R", "66", "AA", "BB", "RR", "666", "AAA", "666KK",
        "A2345", "TJQKA", "AA2233", "QQKKAA", "AAA222", "KKKAAA", "333BB", "AAA66",
        "4444", "AAAA", "6666", "44444", "AAAAA", "As2s3s4s5s", "TcJcQcKcAc",
        "444444", "AAAAAA", "4444444", "44444444", "444444 W=4 W=4", "55555555 W=5 W=5",
        "BBRR",
    ]  # fmt: skip
    for play in texts:
        for table in texts:
            _beats(play, table, level)


# --- Parsing ------------------------------------------------------------------------------


def test_every_listed_text_parses_back_to_its_play_and_has_an_action_id() -> None:
    rng = random.Random(1616)
    for _ in range(300):
        level = rng.choice(ref.RANKS)
        for play in core.guandan_leads(_random_hand(rng, level), level):
            assert core.guandan_parse(play.text, level) == play
            action = core.guandan_play_id(play.text)
            assert action is not None and core.guandan_play_of_id(action) == play


@pytest.mark.parametrize(
    ("variant", "canonical", "level"),
    [
        ("3456 2h=7", "3456 W=7", "2"),
        ("6543 w=7", "3456 W=7", "2"),
        ("6354 2H=7", "3456 W=7", "2"),
        ("345 W=7 W=6", "345 W=6 W=7", "2"),
        ("tjqka", "TJQKA", "2"),
        ("10JQKA", "TJQKA", "2"),
        ("KK333", "333KK", "2"),
        ("6565 W=5", "5566 W=5", "2"),
        ("5656 W=6", "6655 W=6", "2"),
        ("JQKA W=10", "JQKA W=T", "2"),
        ("bb333", "333BB", "2"),
        ("rrbb", "BBRR", "2"),
        ("w=2", "W=2", "2"),
        ("2h=2 2h=2", "W=2 W=2", "2"),
        ("6s5s4s3s W=7s", "3s4s5s6s W=7s", "2"),
        ("3S4S5S6S w=7S", "3s4s5s6s W=7s", "2"),
        ("JQKA Th=T", "JQKA W=T", "T"),
        ("jqka 10h=10", "JQKA W=T", "T"),
    ],
)
def test_parse_accepts_the_documented_variants(variant: str, canonical: str, level: str) -> None:
    play = core.guandan_parse(variant, level)
    assert play == core.guandan_parse(canonical, level)
    assert play.text == canonical == ref.parse(variant, level).text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "X",
        "3456 W=",
        "W=B",
        "B W=B",
        "3456 W=7 W=8 W=9",
        "34567 W=8",
        "BR",
        "333BR",
        "3h=7 3456",
        "W=7",
        "W=7 W=7",
        "QKA23",
        "3334",
        "3456 Z=7",
        "3s4d5s6s7s",
        "W=7s",
        "3s4s5s6s W=8s",
        "W=7 3456",  # the wild tokens follow the naturals
        "555555555",  # the two packs hold eight of a rank
        "2h3h4h5h6h",  # the level heart is a wild, never a natural
        "2222222",  # six natural 2s at level 2: its two hearts are the wilds
        "BBB",
    ],
)
def test_malformed_text_is_an_illegal_action_naming_it(text: str) -> None:
    with pytest.raises(IllegalActionError) as raised:
        core.guandan_parse(text, "2")
    assert text in str(raised.value)
    with pytest.raises(ValueError):
        ref.parse(text, "2")


def test_a_word_is_not_read_as_straight_flush_cards() -> None:
    with pytest.raises(IllegalActionError, match="naturals are ranks"):
        core.guandan_parse("pass", "2")


def test_take_refuses_a_play_the_hand_cannot_make() -> None:
    hand = _cards("3s 4d 5c 6s 2h")
    with pytest.raises(IllegalActionError):
        core.guandan_take(hand, "2", core.guandan_parse("33", "2"))
    with pytest.raises(IllegalActionError):
        core.guandan_take(hand, "2", core.guandan_parse("345 W=6 W=7", "2"))


@pytest.mark.parametrize(
    ("hand", "level", "text", "taken"),
    [
        ("3s 4s 5s 6s 7s 7c", "9", "7", ["7c"]),  # spare the spade straight flush
        ("7c 7d", "9", "7", ["7c"]),  # a tie goes clubs, diamonds, spades, hearts
        ("7s 7d 8d 9d", "9", "7", ["7s"]),
        ("7c 7c 7d 8c", "9", "77", ["7d", "7c"]),  # suit by suit
        ("As Ad Ks Qs 2d", "9", "A", ["Ad"]),  # the ace counts neighbours at both ends
        ("As Ad 2s 3s Kd", "9", "A", ["Ad"]),
        ("3s 3c 4s 5s 6s 2h", "2", "3456 W=7", ["3c", "4s", "5s", "6s", "2h"]),
        ("3s 4s 5s 6s 2h", "2", "3s4s5s6s W=7s", ["3s", "4s", "5s", "6s", "2h"]),
    ],
)
def test_take_picks_copies_that_spare_straight_flushes(
    hand: str, level: str, text: str, taken: list[str]
) -> None:
    play = core.guandan_parse(text, level)
    assert sorted(map(str, core.guandan_take(_cards(hand), level, play))) == sorted(taken)
    assert sorted(ref.take(_cards(hand), level, ref.parse(text, level))) == sorted(taken)


# --- Property: responses beat the table, take removes what the play names -------------------


@st.composite
def _hand_and_level(draw: st.DrawFn) -> tuple[list[str], str]:
    level = draw(st.sampled_from(ref.RANKS))
    wild = ref.wild_card(level)
    naturals = [card for card in PACK if card != wild]
    wilds = draw(st.integers(0, 2))
    picks = draw(
        st.lists(
            st.integers(0, len(naturals) - 1),
            min_size=0 if wilds else 1,
            max_size=27 - wilds,
            unique=True,
        )
    )
    return [naturals[i] for i in picks] + [wild] * wilds, level


@settings(max_examples=60, deadline=None)
@given(_hand_and_level(), st.data())
def test_responses_beat_the_table_and_take_removes_their_cards(
    hand_and_level: tuple[list[str], str], data: st.DataObject
) -> None:
    hand, level = hand_and_level
    indices = st.lists(st.integers(0, len(PACK) - 1), min_size=1, max_size=27, unique=True)
    other = [PACK[i] for i in data.draw(indices)]
    table = data.draw(st.sampled_from(core.guandan_leads(other, level)))
    wild = ref.wild_card(level)
    for play in core.guandan_responses(hand, level, table):
        assert core.guandan_beats(play, table, level)
    for play in core.guandan_leads(hand, level):
        taken = [str(card) for card in core.guandan_take(hand, level, play)]
        assert len(taken) == play.size
        assert not Counter(taken) - Counter(hand)
        assert taken.count(wild) == play.wilds
        natural_ranks = [ref.rank_of(c) for c in taken if c != wild]
        assert Counter(natural_ranks) == Counter(play.naturals)
        if play.suit is not None:
            assert {c[1] for c in taken if c != wild} <= {play.suit}
        assert sorted(taken) == sorted(ref.take(hand, level, ref.parse(play.text, level)))
