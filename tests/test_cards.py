"""Cards, parsing, decks and the seeded shuffle (issue 2)."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardkit
from cardkit import Card, InvalidCardError, parse_cards
from cardkit._core import shuffled_deck_indices


@pytest.mark.parametrize(
    ("text", "canonical", "pretty"),
    [
        ("As", "As", "A♠"),
        ("10h", "Th", "10♥"),
        ("Th", "Th", "10♥"),
        ("A♠", "As", "A♠"),
        ("2♣", "2c", "2♣"),
        ("kd", "Kd", "K♦"),
        ("BJ", "BJ", "BJ"),
        ("RJ", "RJ", "RJ"),
        ("rj", "RJ", "RJ"),
    ],
)
def test_parse_every_spelling(text: str, canonical: str, pretty: str) -> None:
    card = Card(text)
    assert str(card) == canonical
    assert card.pretty == pretty
    assert Card(card) == card
    assert repr(card) == f"Card('{canonical}')"


def test_attributes_and_index_layout() -> None:
    ace = Card("As")
    assert (ace.rank, ace.suit, ace.index, ace.rank_index) == ("A", "s", 51, 12)
    assert Card("2c").index == 0
    assert Card("2s").index == 3
    assert Card("BJ").index == 52 and Card("BJ").suit is None and Card("BJ").is_joker
    assert Card("RJ").index == 53 and Card("RJ").rank == "RJ"
    assert all(Card.from_index(i).index == i for i in range(54))


def test_ordering_hashing_and_pickling() -> None:
    cards = parse_cards("RJ As 2c Kd BJ 2s")
    assert [str(c) for c in sorted(cards)] == ["2c", "2s", "Kd", "As", "BJ", "RJ"]
    assert Card("As") == Card("A♠") and hash(Card("As")) == hash(Card("A♠"))
    assert len({Card("As"), Card("A♠"), Card("Ah")}) == 2
    assert Card("As") != "As"  # a card is not its string
    assert pickle.loads(pickle.dumps(Card("Td"))) == Card("Td")
    with pytest.raises(TypeError):
        _ = Card("As") < "Kd"  # type: ignore[operator]


@pytest.mark.parametrize(
    "bad",
    [
        "",
        " ",
        "1s",
        "Ax",
        "10",
        "RJs",
        "A",
        "s",
        "AsKd",
        "11h",
        "0h",
        "Zs",
        "BJx",
        "é",
        "🂡",
        "A\x00",
    ],
)
def test_malformed_strings_name_the_input(bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card(bad)
    message = str(info.value)
    assert message.startswith("invalid card")
    # The input is quoted (Rust-escaped when it is not printable).
    assert bad.strip() in message or not bad.isprintable()
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [None, 5, 1.5, b"As", ["As"], object()])
def test_wrong_types(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        Card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 54, 2**70, 1.0, "3", None, True])
def test_bad_index(bad: int) -> None:
    with pytest.raises(InvalidCardError, match="index"):
        Card.from_index(bad)


def test_parse_cards_forms() -> None:
    expect = [Card("As"), Card("Kd"), Card("Th"), Card("BJ")]
    assert parse_cards("As Kd Th BJ") == expect
    assert parse_cards("AsKd10hBJ") == expect
    assert parse_cards("As,Kd, Th,BJ") == expect
    assert parse_cards(["As", Card("Kd"), "10h", "BJ"]) == expect
    assert parse_cards("") == []
    with pytest.raises(InvalidCardError, match="Kx"):
        parse_cards("As Kx")
    with pytest.raises(InvalidCardError):
        parse_cards(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        parse_cards(["As", 3])  # type: ignore[list-item]


@given(st.text(max_size=12))
def test_fuzz_parser_raises_only_invalid_card(text: str) -> None:
    try:
        card = Card(text)
    except InvalidCardError:
        pass
    else:
        assert Card(str(card)) == card
    try:
        cards = parse_cards(text)
    except InvalidCardError:
        pass
    else:
        assert parse_cards(" ".join(map(str, cards))) == cards


@given(st.integers(min_value=0, max_value=53))
def test_text_round_trip(i: int) -> None:
    card = Card.from_index(i)
    assert Card(str(card)) == card
    assert Card(card.pretty) == card


@pytest.mark.rule("ZSY-06")
def test_decks() -> None:
    sizes = {"standard52": 52, "french54": 54, "double104": 104, "double108": 108}
    sizes["zhengshangyou48"] = 48
    assert sorted(cardkit.deck_names()) == sorted(sizes)
    for name, n in sizes.items():
        assert len(cardkit.deck(name)) == n
    double = Counter(cardkit.deck("double108"))
    assert set(double.values()) == {2} and len(double) == 54
    zsy = set(map(str, cardkit.deck("zhengshangyou48")))
    assert "2s" in zsy and not zsy & {"2c", "2d", "2h", "Ah", "BJ", "RJ"}
    with pytest.raises(cardkit.RuleOptionError, match="tarot"):
        cardkit.deck("tarot")


# The shuffle is part of the public contract: recorded seeds must replay forever.
PINNED = {
    ("standard52", 0): "3s Kd Qc 8c 9h 6s 7h Ad 4c Qs 6h 4d",
    ("standard52", 7): "Tc Ks Kc Jh Th 7s Kd 9d 5s Kh 7h Jd",
    ("french54", 0): "5h 8h 6s 4c 6c 7d Ad 7c 8c As 4d Ac",
    ("french54", 7): "Kh 6c 5h 7s Td 3d 5c 8d Tc 4h BJ Ad",
    ("zhengshangyou48", 7): "Qd Kc 9c Kd Ad 8c 7d Jc 8d 7s Jd Tc",
}


@pytest.mark.parametrize(("deck", "seed"), sorted(PINNED))
def test_shuffle_is_pinned(deck: str, seed: int) -> None:
    order = cardkit.shuffled_deck(deck, seed)
    assert " ".join(map(str, order[:12])) == PINNED[deck, seed]
    assert sorted(order) == sorted(cardkit.deck(deck))


@pytest.mark.parametrize("deck", cardkit.deck_names())
def test_shuffled_deck_indices_name_the_shuffled_cards(deck: str) -> None:
    for seed in (0, 7, 2**64 - 1):
        indices = shuffled_deck_indices(deck, seed)
        assert indices == bytes(c.index for c in cardkit.shuffled_deck(deck, seed))
    with pytest.raises(cardkit.RuleOptionError, match="seed"):
        shuffled_deck_indices(deck, -1)


def test_seeds() -> None:
    assert cardkit.derive_seed(7, 0) == 7259628554680249319
    assert cardkit.derive_seed(7, 1) == 8581286081765471666
    assert cardkit.shuffled_deck("standard52", 2**64 - 1) != cardkit.shuffled_deck("standard52", 0)
    for bad in (-1, 2**64, 1.0, "7", None, True):
        with pytest.raises(cardkit.RuleOptionError, match="seed"):
            cardkit.shuffled_deck("standard52", bad)  # type: ignore[arg-type]
        with pytest.raises(cardkit.RuleOptionError, match="seed"):
            cardkit.derive_seed(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(cardkit.RuleOptionError, match="stream"):
        cardkit.derive_seed(0, -5)
