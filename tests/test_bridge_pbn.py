"""PBN (cardkit.bridge.pbn): deals and played boards, round trips with endplay."""

from __future__ import annotations

import io
import random

import pytest

from cardkit import Card, shuffled_deck
from cardkit.bridge import Position
from cardkit.bridge.pbn import Board, dump, dumps, format_deal, load, loads, parse_deal
from cardkit.errors import InvalidCardError, InvalidNotationError

endplay_types = pytest.importorskip("endplay.types")
endplay_pbn = pytest.importorskip("endplay.parsers.pbn")

EDenom = endplay_types.Denom


def random_deal(seed: int) -> tuple[tuple[Card, ...], ...]:
    cards = shuffled_deck("standard52", seed)
    return tuple(tuple(sorted(cards[13 * k : 13 * k + 13], reverse=True)) for k in range(4))


def random_play(
    deal: tuple[tuple[Card, ...], ...], trump: int, leader: int, n: int, seed: int
) -> list[Card]:
    rng = random.Random(seed)
    play: list[Card] = []
    pos = Position.from_play(deal, trump, leader)
    for _ in range(n):
        hand = pos.hands[pos.to_act]
        led = pos.trick[0].suit if pos.trick else None
        play.append(rng.choice(sorted([c for c in hand if c.suit == led] or hand)))
        pos = Position.from_play(deal, trump, leader, play)
    return play


def played_board(seed: int, cards: int = 52, claimed: bool = False) -> Board:
    """A board bid to 4S by East (dealer North) and played ``cards`` cards."""
    deal = random_deal(seed)
    play = random_play(deal, 3, 2, cards, seed)
    return Board(
        deal=deal,
        board=seed % 32 + 1,
        dealer=0,
        vulnerability=["none", "ns", "ew", "both"][seed % 4],
        auction=["pass", "1S", "X", "2S", "pass", "4S", "pass", "pass", "pass"],
        contract="4S",
        declarer=1,
        result=9,
        play=play,
        claimed=claimed,
        tags={"Event": "cardkit test", "Site": "here"},
    )


def k_card(card: object) -> Card:
    return Card(card.rank.abbr + "shdc"[card.suit])  # type: ignore[attr-defined]


def e_call(bid: object) -> str:
    if isinstance(bid, endplay_types.ContractBid):
        strain = "NT" if bid.denom == EDenom.nt else "SHDC"[int(bid.denom)]
        return f"{bid.level}{strain}"
    return {"passed": "pass", "doubled": "X", "redoubled": "XX"}[bid.penalty.name]


def assert_same(ours: Board, theirs: object) -> None:
    """An endplay board holds what a cardkit board holds."""
    assert parse_deal(theirs.deal.to_pbn()) == ours.deal  # type: ignore[attr-defined]
    assert int(theirs.dealer) == ours.dealer  # type: ignore[attr-defined]
    vul = {"none": "none", "both": "both", "ns": "ns", "ew": "ew"}[theirs.vul.name]  # type: ignore[attr-defined]
    assert vul == ours.vulnerability
    assert theirs.board_num == ours.board  # type: ignore[attr-defined]
    assert [e_call(b) for b in theirs.auction] == ours.auction  # type: ignore[attr-defined]
    contract = theirs.contract  # type: ignore[attr-defined]
    strain = "NT" if contract.denom == EDenom.nt else "SHDC"[int(contract.denom)]
    doubling = {"passed": "", "doubled": "X", "redoubled": "XX"}[contract.penalty.name]
    assert f"{contract.level}{strain}{doubling}" == ours.contract
    assert int(contract.declarer) == ours.declarer
    assert contract.level + 6 + contract.result == ours.result
    assert [k_card(c) for c in theirs.play if int(c.suit) != 4] == ours.play  # type: ignore[attr-defined]
    assert bool(theirs.claimed) == ours.claimed  # type: ignore[attr-defined]
    for tag, value in ours.tags.items():
        assert theirs.info[tag] == value  # type: ignore[attr-defined]


def test_deal_round_trip() -> None:
    for seed in range(20):
        deal = random_deal(seed)
        text = format_deal(deal)
        assert parse_deal(text) == deal
        for first in range(4):
            assert parse_deal(format_deal(deal, first)) == deal
        assert endplay_types.Deal(text).to_pbn() == text


def test_deal_reads_endplay_deals() -> None:
    for seed in range(10):
        deal = random_deal(seed)
        theirs = endplay_types.Deal(format_deal(deal, "W"))
        assert parse_deal(theirs.to_pbn()) == deal


def test_partial_deal_has_unknown_hands() -> None:
    deal = parse_deal("S:- AK.Q.J.T - -")
    assert deal[3] == (Card("As"), Card("Ks"), Card("Qh"), Card("Jd"), Card("Tc"))
    assert deal[0] == deal[1] == deal[2] == ()
    assert format_deal(deal, "S") == "S:- AK.Q.J.T - -"


@pytest.mark.parametrize("cards", [52, 23, 0])
def test_boards_round_trip_through_endplay(cards: int) -> None:
    boards = [played_board(s, cards) for s in range(6)]
    text = dumps(boards)
    assert loads(text) == boards
    theirs = endplay_pbn.loads(text)
    assert len(theirs) == len(boards)
    for ours, their in zip(boards, theirs, strict=True):
        assert_same(ours, their)
    # endplay's writer, read back by cardkit: the same boards.
    back = loads(endplay_pbn.dumps(theirs))
    for ours, again in zip(boards, back, strict=True):
        assert again.deal == ours.deal and again.play == ours.play
        assert again.auction == ours.auction and again.contract == ours.contract
        assert (again.declarer, again.result, again.dealer) == (
            ours.declarer,
            ours.result,
            ours.dealer,
        )
        assert again.vulnerability == ours.vulnerability and again.board == ours.board


def test_claimed_play_round_trips() -> None:
    board = played_board(3, 30, claimed=True)
    text = dumps([board])
    assert loads(text) == [board]
    (theirs,) = endplay_pbn.loads(text)
    assert theirs.claimed
    assert loads(endplay_pbn.dumps([theirs]))[0].claimed


def test_file_functions() -> None:
    boards = [played_board(1), played_board(2, 10)]
    buf = io.StringIO()
    dump(boards, buf)
    buf.seek(0)
    assert load(buf) == boards


HAND_WRITTEN = """% PBN 2.1
% EXPORT
[Event "Club night"]
[Board "7"]
[Dealer "S"]
[Vulnerable "All"]  ; both sides
[Deal "N:AQT64.J72.AJ943. KJ75.AK8.87.QT75 82.QT654.KT62.K2 93.93.Q5.AJ98643"]
[Declarer "N"]
[Contract "4SX"]
[Result "10"]
{ a comment
  over two lines }
[Auction "S"]
Pass 1C! =1= 1S 2C
2D? Pass 4S X
AP
[Note "1:could be short"]
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N  S 7
N NT 4
[Play "E"]
CQ CK CA S6
S5 S2 S3 SA
-  -  -  DA
*
"""


def test_reads_a_hand_written_file() -> None:
    (board,) = loads(HAND_WRITTEN)
    assert board.board == 7 and board.dealer == 2 and board.vulnerability == "both"
    assert board.auction == [
        "pass",
        "1C",
        "1S",
        "2C",
        "2D",
        "pass",
        "4S",
        "X",
        "pass",
        "pass",
        "pass",
    ]
    assert (board.contract, board.declarer, board.result, board.trump) == ("4SX", 0, 10, 3)
    # Trick 1 (E leads): CQ, then S's CK, W's CA, N ruffs with the S6 and leads.
    assert [str(c) for c in board.play] == ["Qc", "Kc", "Ac", "6s", "As", "5s", "2s", "3s", "Ad"]
    assert board.claimed
    assert board.tags == {
        "Event": "Club night",
        "Note": "1:could be short",
        "OptimumResultTable": "Declarer;Denomination\\2R;Result\\2R",
    }
    assert board.tables == {"OptimumResultTable": ["N  S 7", "N NT 4"]}
    assert loads(dumps([board])) == [board]
    (theirs,) = endplay_pbn.loads(dumps([board]))
    assert theirs.info["OptimumResultTable"]["rows"] == [["N", "S", "7"], ["N", "NT", "4"]]
    assert loads(endplay_pbn.dumps([theirs]))[0].tables["OptimumResultTable"][1].split() == [
        "N",
        "NT",
        "4",
    ]


@pytest.mark.parametrize(
    "text",
    [
        '[Deal "N:AKQ"]\n',
        '[Deal "X:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n',
        '[Dealer "Q"]\n',
        '[Vulnerable "Some"]\n',
        '[Contract "8S"]\n',
        '[Result "14"]\n',
        '[Board "seven"]\n',
        '[Auction "N"]\n1S 9Z\n',
        '[Contract "4S"]\n[Play "N"]\nSA ZZ\n',
        '[Play "N"]\nSA SK SQ SJ\n',
        "just text\n",
        "[Event\n",
    ],
)
def test_bad_pbn_raises_notation_errors(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        loads(text)


def test_bad_inputs_to_writers() -> None:
    with pytest.raises(InvalidNotationError):
        parse_deal(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError):
        loads(b"[Board 1]")  # type: ignore[arg-type]
    with pytest.raises(InvalidNotationError):
        format_deal(["As"])
    with pytest.raises(InvalidNotationError):
        format_deal(["As", "", "", ""], "Q")
    with pytest.raises(InvalidCardError):
        format_deal(["Zz", "", "", ""])
    with pytest.raises(InvalidNotationError, match="dealer"):
        dumps([Board(auction=["pass"])])
    with pytest.raises(InvalidNotationError, match="declarer"):
        dumps([Board(play=[Card("As")], contract="4S")])
    with pytest.raises(InvalidNotationError, match="vulnerability"):
        dumps([Board(vulnerability="all")])


def test_quotes_in_tag_values_round_trip() -> None:
    board = Board(tags={"Event": 'The "big" one', "Site": "C:\\club"})
    assert loads(dumps([board])) == [board]


def test_the_auction_tag_names_the_dealer() -> None:
    # Without a Dealer tag the Auction's seat is the dealer; a contradicting one
    # would read every call as another seat's, so it is refused.
    (board,) = loads('[Auction "E"]\n1S Pass Pass Pass\n')
    assert board.dealer == 1 and board.auction == ["1S", "pass", "pass", "pass"]
    assert loads(dumps([board])) == [board]
    with pytest.raises(InvalidNotationError, match="starts with N, but the dealer is S"):
        loads('[Dealer "S"]\n[Auction "N"]\n1S AP\n')
    with pytest.raises(InvalidNotationError, match="first seat"):
        loads('[Dealer "S"]\n[Auction "Q"]\n')


def test_the_play_tag_names_the_opening_leader() -> None:
    # The Play's seat is declarer's left-hand opponent: it gives a missing Declarer
    # and must agree with a present one.
    (board,) = loads('[Contract "4S"]\n[Play "E"]\nCQ CK CA S6\n')
    assert board.declarer == 0 and [str(c) for c in board.play] == ["Qc", "Kc", "Ac", "6s"]
    assert loads(dumps([board])) == [board]
    with pytest.raises(InvalidNotationError, match="left-hand opponent is E"):
        loads('[Declarer "N"]\n[Contract "4S"]\n[Play "W"]\nCQ CK CA S6\n')
    with pytest.raises(InvalidNotationError, match="first seat"):
        loads('[Contract "4S"]\n[Play "?"]\n*\n')
    with pytest.raises(InvalidNotationError, match="first seat"):
        loads('[Contract "4S"]\n[Play "Z"]\n')
