"""Double dummy and par (cardkit.bridge) against endplay's DDS, cell for cell."""

from __future__ import annotations

import random

import pytest

from cardkit import Card, shuffled_deck
from cardkit.bridge import (
    DdTable,
    Par,
    ParContract,
    Position,
    dd_solve,
    dd_solve_many,
    dd_table,
    dd_tables,
    par,
)
from cardkit.bridge.pbn import format_deal
from cardkit.errors import (
    IllegalActionError,
    InvalidCardError,
    InvalidNotationError,
    RuleOptionError,
)

endplay_types = pytest.importorskip("endplay.types")
endplay_dds = pytest.importorskip("endplay.dds")

EDenom = endplay_types.Denom
EPlayer = endplay_types.Player

#: A deal from the README of every DD solver: each hand one whole suit.
SUITS_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def random_deal(seed: int) -> tuple[tuple[Card, ...], ...]:
    cards = shuffled_deck("standard52", seed)
    return tuple(tuple(cards[13 * k : 13 * k + 13]) for k in range(4))


def e_denom(strain: int) -> object:
    """endplay's Denom for a cardkit strain (endplay counts spades first)."""
    return EDenom(4 if strain == 4 else 3 - strain)


def e_card(card: Card) -> object:
    return endplay_types.Card(
        suit=EDenom("shdc".index(card.suit)), rank=endplay_types.Rank["R" + card.rank]
    )


def k_card(card: object) -> Card:
    return Card(card.rank.abbr + "shdc"[card.suit])  # type: ignore[attr-defined]


def endplay_table(deal: tuple[tuple[Card, ...], ...]) -> list[list[int]]:
    table = endplay_dds.calc_dd_table(endplay_types.Deal(format_deal(deal)))
    return [[table[e_denom(s), EPlayer(d)] for s in range(5)] for d in range(4)]


def test_suit_per_hand_table() -> None:
    table = dd_table(SUITS_DEAL)
    # The side holding the trumps ruffs everything; in notrump the opening
    # leader (declarer's left-hand opponent) runs a whole suit.
    assert table.rows == (
        (0, 13, 0, 13, 0),
        (13, 0, 13, 0, 0),
        (0, 13, 0, 13, 0),
        (13, 0, 13, 0, 0),
    )
    assert table.tricks("N", "S") == 13
    assert table.tricks(1, "NT") == 0
    assert table.to_list()[5 * 1 + 0] == 13
    assert str(table).splitlines()[0].split() == ["C", "D", "H", "S", "NT"]
    assert str(table).splitlines()[1].split() == ["N", "0", "13", "0", "13", "0"]


def check_tables_against_endplay(seeds: range) -> None:
    deals = [random_deal(s) for s in seeds]
    ours = dd_tables(deals)
    for deal, table in zip(deals, ours, strict=True):
        assert [list(r) for r in table.rows] == endplay_table(deal), format_deal(deal)


def test_tables_match_endplay_sample() -> None:
    check_tables_against_endplay(range(1000, 1050))


@pytest.mark.exhaustive
def test_tables_match_endplay_thousand_deals() -> None:
    check_tables_against_endplay(range(2000, 3000))


def test_single_and_batch_agree_for_any_threads() -> None:
    deals = [random_deal(s) for s in range(3)]
    one = dd_tables(deals, threads=1)
    assert dd_tables(deals, threads=2) == one
    assert dd_tables(deals, threads=7) == one
    assert dd_table(deals[0], threads=1) == one[0]
    assert dd_tables([]) == []


def test_deal_forms_agree() -> None:
    deal = random_deal(7)
    pbn = format_deal(deal)
    as_strings = [" ".join(str(c) for c in hand) for hand in deal]
    as_pbn_hands = pbn[2:].split()
    expected = dd_table(deal)
    assert dd_table(pbn) == expected
    assert dd_table(as_strings) == expected
    assert dd_table(as_pbn_hands) == expected
    # A PBN deal may start at any seat.
    rotated = "E:" + " ".join(as_pbn_hands[1:] + as_pbn_hands[:1])
    assert dd_table(rotated) == expected


def random_position(rng: random.Random, seed: int) -> tuple[Position, list[Card]]:
    """A deal played some random legal cards into: the position and the play."""
    deal = random_deal(seed)
    trump, leader = rng.randrange(5), rng.randrange(4)
    pos = Position.from_play(deal, trump, leader)
    played: list[Card] = []
    for _ in range(rng.randrange(0, 40)):
        hand = pos.hands[pos.to_act]
        led = pos.trick[0].suit if pos.trick else None
        legal = [c for c in hand if c.suit == led] or list(hand)
        played.append(rng.choice(sorted(legal)))
        pos = Position.from_play(deal, trump, leader, played)
    return pos, played


def endplay_solve(pos: Position) -> dict[Card, int]:
    # endplay wants the hands at the start of the trick, then the trick played.
    hands = [list(h) for h in pos.hands]
    for k, card in enumerate(pos.trick):
        hands[(pos.leader + k) % 4].append(card)
    deal = endplay_types.Deal(format_deal(hands))
    deal.first = EPlayer(pos.leader)
    deal.trump = e_denom(pos.trump)
    for card in pos.trick:
        deal.play(e_card(card))
    return {k_card(c): t for c, t in endplay_dds.solve_board(deal)}


def test_solve_matches_endplay_mid_play() -> None:
    rng = random.Random(18)
    mid_trick = 0
    for seed in range(40):
        pos, _ = random_position(rng, 500 + seed)
        mid_trick += bool(pos.trick)
        ours = dd_solve(pos)
        assert ours == endplay_solve(pos), (pos, ours)
        hand = pos.hands[pos.to_act]
        led = pos.trick[0].suit if pos.trick else None
        assert set(ours) == set(c for c in hand if c.suit == led) or set(ours) == set(hand)
    assert mid_trick >= 10


def test_solve_many_matches_single_solves() -> None:
    rng = random.Random(4)
    positions = [random_position(rng, 700 + seed)[0] for seed in range(8)]
    single = [dd_solve(p) for p in positions]
    assert dd_solve_many(positions, threads=2) == single
    assert dd_solve_many(positions, threads=1) == single
    assert dd_solve_many([]) == []
    bad = Position.of(["As Kh", "2s 3h", "Qs 4h", "5h 6h"], "S", 0, "As")
    with pytest.raises(RuleOptionError, match="position 1"):
        dd_solve_many([positions[0], bad])
    with pytest.raises(RuleOptionError, match=r"positions\[1\]"):
        dd_solve_many([positions[0], "N:..."])  # type: ignore[list-item]


def test_solve_at_the_start_matches_the_table() -> None:
    deal = random_deal(3)
    table = dd_table(deal)
    for declarer in range(4):
        for strain in range(5):
            pos = Position.from_play(deal, strain, (declarer + 1) % 4)
            best = max(dd_solve(pos).values())
            assert best == 13 - table.rows[declarer][strain]


def test_position_of_parses_names_and_strings() -> None:
    pos = Position.of(["As Kh", "2s 3h", "Qs 4h", "5h 6h"], "NT", "N")
    assert pos.trump == 4 and pos.leader == 0 and pos.to_act == 0
    # Both winners cash: the Kh beats every other heart.
    assert dd_solve(pos) == {Card("Kh"): 2, Card("As"): 2}
    mid = Position.of(["Kh", "2s 3h", "Qs 4h", "5h 6h"], 4, 0, "As")
    assert mid.to_act == 1
    # E must follow with the 2s: the ace wins, then North's king: E-W take none.
    assert dd_solve(mid) == {Card("2s"): 0}


def endplay_par(deal: tuple[tuple[Card, ...], ...], vul: str, dealer: int) -> tuple[int, set]:
    result = endplay_dds.par(
        endplay_types.Deal(format_deal(deal)), endplay_types.Vul[vul], EPlayer(dealer)
    )
    contracts = set()
    for c in result:
        strain = 4 if c.denom == EDenom.nt else 3 - int(c.denom)
        doubling = {"passed": 0, "doubled": 1, "redoubled": 2}[c.penalty.name]
        contracts.add((c.level, strain, doubling, int(c.declarer), c.result))
    return result.score, contracts


def test_par_matches_endplay() -> None:
    rng = random.Random(5)
    deals = [random_deal(s) for s in range(900, 930)]
    for deal, table in zip(deals, dd_tables(deals), strict=True):
        vul = rng.choice(["none", "ns", "ew", "both"])
        dealer = rng.randrange(4)
        ours = par(table, vul, dealer)
        score, contracts = endplay_par(deal, vul, dealer)
        assert ours.score == score
        assert {
            (c.level, c.strain, c.doubling, c.declarer, c.overtricks) for c in ours.contracts
        } == contracts
    assert par(deals[0], "none", "N") == par(dd_table(deals[0]), "none", 0)


def test_par_of_a_laydown_grand() -> None:
    table = DdTable(((13,) * 5, (0,) * 5, (13,) * 5, (0,) * 5))
    result = par(table, "both", "E")
    assert result.score == 2220
    assert {str(c) for c in result.contracts} == {"7NT by N", "7NT by S"}
    assert isinstance(result, Par) and isinstance(result.contracts[0], ParContract)
    assert str(ParContract(4, 3, 1, 1, -2)) == "4SX by E -2"


@pytest.mark.parametrize(
    ("deal", "error"),
    [
        ("N:AKQ", InvalidNotationError),
        (
            "Q:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432",
            InvalidNotationError,
        ),
        (
            "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543Z",
            InvalidNotationError,
        ),
        ("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", RuleOptionError),
        (
            "N:AKQJT98765432... AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432",
            InvalidNotationError,
        ),
        (["As"] * 4, RuleOptionError),
        (["As Ks", "Zz", "", ""], InvalidCardError),
        (["BJ", "", "", ""], RuleOptionError),
        (["As As", "", "", ""], RuleOptionError),
        (["As", "Kd"], RuleOptionError),
        (42, RuleOptionError),
    ],
)
def test_bad_deals_raise_typed_errors(deal: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        dd_table(deal)  # type: ignore[arg-type]


def test_bad_deal_in_a_batch_is_named() -> None:
    with pytest.raises(RuleOptionError, match=r"deals\[1\]|deal 1"):
        dd_tables([SUITS_DEAL, ["As", "Kd", "Qh", "Jc"]])
    with pytest.raises(RuleOptionError):
        dd_tables(SUITS_DEAL)
    with pytest.raises(RuleOptionError, match="threads"):
        dd_tables([SUITS_DEAL], threads=0)
    with pytest.raises(RuleOptionError, match="threads"):
        dd_table(SUITS_DEAL, threads=True)  # type: ignore[arg-type]


def test_bad_positions_raise_typed_errors() -> None:
    hands = ["As Kh", "2s 3h", "Qs 4h", "5h 6h"]
    with pytest.raises(RuleOptionError, match="trump"):
        Position.of(hands, "Z", "N")
    with pytest.raises(RuleOptionError, match="leader"):
        Position.of(hands, "S", 4)
    with pytest.raises(InvalidCardError):
        Position.of(hands, "S", 0, "Zz")
    with pytest.raises(RuleOptionError, match="played to the trick and held"):
        dd_solve(Position.of(hands, "S", 0, "As"))
    with pytest.raises(RuleOptionError, match="while holding"):
        dd_solve(Position.of(["Kh", "2s", "Qs 4h", "5h 6h"], "S", 0, "As 3h"))
    with pytest.raises(RuleOptionError, match="hand sizes"):
        dd_solve(Position.of(["As Kh", "2s 3h", "Qs", "5h 6h"], "S", 0))
    with pytest.raises(RuleOptionError, match="no card left"):
        dd_solve(Position.of(["", "", "", ""], "S", 0))
    with pytest.raises(RuleOptionError, match="Position"):
        dd_solve("N:...")  # type: ignore[arg-type]


def test_illegal_play_is_refused() -> None:
    hands = ["As Kh", "2s 3h", "Qs 4h", "5h 6h"]
    with pytest.raises(IllegalActionError, match="does not hold"):
        Position.from_play(hands, 4, 0, ["2s"])
    with pytest.raises(IllegalActionError, match="must follow"):
        Position.from_play(hands, 4, 0, ["As", "3h"])
    after = Position.from_play(hands, 4, 0, ["As", "2s", "Qs", "5h"])
    assert after.leader == 0 and after.trick == ()
    assert after.hands == ((Card("Kh"),), (Card("3h"),), (Card("4h"),), (Card("6h"),))


def test_bad_par_arguments() -> None:
    table = dd_table(SUITS_DEAL)
    with pytest.raises(RuleOptionError, match="vulnerability"):
        par(table, "all")
    with pytest.raises(RuleOptionError, match="dealer"):
        par(table, "none", "X")
    with pytest.raises(RuleOptionError, match=r"0\.\.13"):
        par(DdTable(((14,) * 5,) * 4), "none", 0)


def test_batch_stops_on_sigint() -> None:
    from tests.test_interrupts import LIVENESS, _interrupted

    setup = """
from cardkit import shuffled_deck
from cardkit.bridge import dd_tables
packs = [shuffled_deck("standard52", s) for s in range(3000)]
deals = [[p[13 * k : 13 * k + 13] for k in range(4)] for p in packs]
"""
    latency = _interrupted("dd_tables(deals, threads=2)", setup)
    assert latency < LIVENESS, f"dd_tables: {latency:.3f} s"


def test_a_game_state_is_solved_where_it_stands() -> None:
    # dd_solve(state) for a Bridge game mid-play, a trick in progress: the legal
    # cards of the hand to play, each with the tricks endplay's DDS gives it.
    from cardkit.agents import RandomAgent
    from cardkit.games import make

    rng = random.Random(3)
    for seed in range(40):
        state = make("bridge").new_state(seed=seed)
        agent = RandomAgent(seed)
        while state.phase == "auction":
            state.apply(agent.act(state.observation(state.current_player), state.legal_actions()))
        if state.phase != "play":
            continue
        for _ in range(rng.randrange(1, 20)):
            state.apply(rng.choice(state.legal_actions()))
        if state.play_position() is None:
            continue
        solved = dd_solve(state)
        legal = {Card(a.text.split()[-1]) for a in state.legal_actions()}
        assert set(solved) == legal
        masks, trump, leader, trick = state.play_position()  # type: ignore[misc]
        hands = tuple(tuple(Card.from_index(i) for i in range(52) if m >> i & 1) for m in masks)
        pos = Position(hands, trump, leader, tuple(Card.from_index(i) for i in trick))
        assert solved == endplay_solve(pos)
        return
    raise AssertionError("no deal reached the card play")
