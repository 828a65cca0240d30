"""The engine's card play (the Rust ``ClimbingDeal`` the game states step) against a
plain-Python reference of the same rules, driven on the same seeds and choices.

The reference is the card-play flow as the rule texts state it, written with only
the combination functions (leads, responses, readings, comparison): who leads, who
may pass, when a round ends, which cards a play takes, bombs, bonuses and the end of
the deal. Every step must agree: the legal actions in order, hands card by card,
played piles, the table, passes, plays per seat, bombs and bonuses, and the returns.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import cardkit
from cardkit._core import Card, Combination, climbing_beats, climbing_classify
from cardkit.games import doudizhu, zhengshangyou
from cardkit.games._climbing import (
    RANK_ORDER,
    legal_leads,
    legal_responses,
    rank_char,
    rank_text,
)
from cardkit.games.doudizhu import DouDizhuState
from cardkit.games.zhengshangyou import HEART_THREE, SPADE_TWO, ZhengShangyouState

_ZSY = zhengshangyou.RULES


def _hand_order(card: Card) -> tuple[int, int]:
    return (RANK_ORDER.index(rank_char(card)), card.index)


class ReferencePlay:
    """The card play of one climbing deal in plain Python (the test oracle)."""

    def __init__(self, rules: str, hands: list[list[Card]], leader: int) -> None:
        self.rules = rules
        self.hands = [sorted(h, key=_hand_order) for h in hands]
        self.played: list[list[Card]] = [[], [], []]
        self.plays = [0, 0, 0]
        self.to_move = leader
        self.table: Combination | None = None
        self.owner = leader
        self.passes = 0
        self.winner: int | None = None
        self.opening = rules == _ZSY
        self.bombs = 0
        self.rockets = 0
        self.bonus = [0, 0, 0]
        self.pending = False
        self.bonus_log: list[tuple[int, str]] = []

    def legal(self) -> list[str]:
        ranks = rank_text(self.hands[self.to_move])
        if self.table is None:
            plays = legal_leads(self.rules, ranks, self.opening)
        else:
            plays = legal_responses(self.rules, ranks, self.table)
        texts = [f"play {c.cards}" for c in plays]
        # DDZ-13: followers may pass; ZSY-14: only when nothing beats the table.
        if self.table is not None and (self.rules != _ZSY or not texts):
            texts.append("pass")
        return texts

    def _settle(self) -> None:
        # ZSY-28, ZSY-31: an unbeaten response bomb earns 20, 10 from each opponent.
        if self.pending and self.table is not None:
            for s in range(3):
                self.bonus[s] += 20 if s == self.owner else -10
            self.bonus_log.append((self.owner, self.table.cards))
        self.pending = False

    def apply(self, text: str) -> None:
        seat = self.to_move
        if text == "pass":
            self.passes += 1
            self.to_move = (seat + 1) % 3
            if self.passes == 2:  # DDZ-15, ZSY-15: the last player leads again
                self._settle()
                self.table, self.passes, self.to_move = None, 0, self.owner
            return
        ranks = text.removeprefix("play ")
        readings = climbing_classify(self.rules, ranks, self.opening)
        table = self.table
        combo = (
            readings[0]
            if table is None
            else next(c for c in readings if climbing_beats(self.rules, c, table))
        )
        hand = self.hands[seat]
        need = Counter(ranks)
        if self.opening and HEART_THREE in hand:  # ZSY-08: the heart three goes first
            hand.remove(HEART_THREE)
            self.played[seat].append(HEART_THREE)
            need["3"] -= 1
        for r in sorted(need.elements(), key=RANK_ORDER.index):
            card = next(c for c in hand if rank_char(c) == r)
            hand.remove(card)
            self.played[seat].append(card)
        self.bombs += combo.type == "bomb"
        self.rockets += combo.type == "rocket"
        # ZSY-29, ZSY-30: only a bomb over another player's play can earn the bonus.
        self.pending = self.rules == _ZSY and table is not None and combo.is_bomb
        self.opening = False
        self.table, self.owner, self.passes = combo, seat, 0
        self.plays[seat] += 1
        self.to_move = (seat + 1) % 3
        if not hand:  # DDZ-35, ZSY-04: the deal ends when a hand is empty
            self._settle()
            self.winner = seat

    def ddz_returns(self, landlord: int, bid: int) -> list[float]:
        winner = self.winner
        assert winner is not None
        farmers_played = sum(n for s, n in enumerate(self.plays) if s != landlord)
        spring = winner == landlord and farmers_played == 0
        reverse = winner != landlord and self.plays[landlord] == 1
        unit = bid * 2 ** (self.bombs + self.rockets + int(spring or reverse))
        sign = 1 if winner == landlord else -1
        return [float(2 * sign * unit if s == landlord else -sign * unit) for s in range(3)]

    def zsy_returns(self) -> list[float]:
        winner = self.winner
        assert winner is not None
        out = [float(b) for b in self.bonus]
        for s in range(3):
            if s == winner:
                continue
            hand = rank_text(self.hands[s])
            penalty = len(hand) * (2 if self.plays[s] == 0 else 1)
            penalty += 10 * (SPADE_TWO in self.hands[s]) + 10 * zhengshangyou.held_bombs(hand)
            out[s] -= penalty
            out[winner] += penalty
        return out


def _agree(state: DouDizhuState | ZhengShangyouState, ref: ReferencePlay) -> None:
    assert state.hands == ref.hands
    assert state.played == ref.played
    assert state.plays_made == ref.plays
    assert state.passes == ref.passes
    assert state.winner == ref.winner
    assert state.current_player == (None if ref.winner is not None else ref.to_move)
    assert state.table == ref.table
    if ref.table is not None:
        assert state.table_owner == ref.owner
    if isinstance(state, DouDizhuState):
        assert (state.bombs, state.rockets) == (ref.bombs, ref.rockets)
    else:
        assert state.bomb_bonus == ref.bonus
        assert state.pending_bomb == ref.pending
        assert state.bonus_log == ref.bonus_log


def _shorthand(action: str, rng: random.Random) -> str:
    """The same play written loosely (no ``play``, ranks shuffled) for the parsing path."""
    ranks = list(action.removeprefix("play "))
    rng.shuffle(ranks)
    return "".join(ranks)


def _play_out(
    state: DouDizhuState | ZhengShangyouState, ref: ReferencePlay, rng: random.Random
) -> None:
    """Play the deal out with the same random choices in the game and the reference,
    checking that they agree after every move; a fifth of the plays are written loosely."""
    while not state.is_terminal:
        assert [str(a) for a in state.legal_actions()] == ref.legal()
        action = rng.choice(state.legal_actions())
        loose = action != "pass" and rng.random() < 0.2
        state.apply(_shorthand(action, rng) if loose else action)
        ref.apply(action)
        _agree(state, ref)


@pytest.mark.rule("DDZ-12", "DDZ-13", "DDZ-15", "DDZ-35", "DDZ-36")
@pytest.mark.parametrize("bidding", doudizhu.BIDDING_STYLES)
def test_doudizhu_engine_play_matches_the_reference(bidding: str) -> None:
    game = doudizhu.DouDizhu(bidding=bidding)
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while state.phase == "bid":
            state.apply(rng.choice(state.legal_actions()))
        landlord = state.landlord
        assert landlord is not None
        order = state.deck_order(state.deal_number)
        hands = [order[0:17], order[17:34], order[34:51]]
        hands[landlord] += order[51:54]
        ref = ReferencePlay(doudizhu.RULES, hands, landlord)
        _play_out(state, ref, rng)
        assert state.legal_actions() == []
        assert state.returns() == ref.ddz_returns(landlord, state.bid)


@pytest.mark.rule("ZSY-08", "ZSY-13", "ZSY-14", "ZSY-15", "ZSY-16", "ZSY-28", "ZSY-30")
def test_zhengshangyou_engine_play_matches_the_reference() -> None:
    game = zhengshangyou.ZhengShangyou()
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        order = state.deck_order()
        hands = [order[0:16], order[16:32], order[32:48]]
        leader = next(s for s in range(3) if HEART_THREE in hands[s])
        ref = ReferencePlay(_ZSY, hands, leader)
        _agree(state, ref)
        _play_out(state, ref, rng)
        assert state.returns() == ref.zsy_returns()


def test_listed_actions_are_shared_and_rejected_moves_change_nothing() -> None:
    state = doudizhu.DouDizhu().new_state(seed=5)
    while state.phase == "bid":
        state.apply(state.legal_actions()[-1])
    first = state.legal_actions()
    assert all(a is b for a, b in zip(first, state.legal_actions(), strict=True))
    before = (state.to_json(), state.hands, state.played, state.current_player)
    for bad in ("pass", "play 3333333", "bid 2", 42, "play BR" * 2):
        with pytest.raises(cardkit.IllegalActionError):
            state.apply(bad)  # type: ignore[arg-type]
        assert (state.to_json(), state.hands, state.played, state.current_player) == before
    clone = state.clone()
    clone.apply(first[0])
    assert state.legal_actions() == first and clone.history != state.history
