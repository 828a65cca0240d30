"""The Rust play phase of the State API against a plain-Python reference of the rules.

Hearts and Spades step their play phase through a Rust ``TrickDeal``. This file
keeps the rules written out in Python, one line per clause, and drives both on
the same seeds: every legal set, trick and deal result must be identical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from cardkit import IllegalActionError
from cardkit._core import ActionTable, TrickDeal, trick_winner
from cardkit.games._tricks import NAMES, PLAY_ACTIONS, PLAY_TABLE, SUIT_MASKS, bits
from cardkit.games.hearts import Hearts, HeartsState, penalty_points
from cardkit.games.spades import Spades, SpadesState

HEARTS = SUIT_MASKS[2]
PENALTY = HEARTS | 1 << 43  # every heart and Q♠


def reference_winner(cards: list[int], trump: int | None) -> int:
    """Position of the highest trump if one was played, else of the highest card led."""
    best = 0
    for pos in range(1, len(cards)):
        card, top = cards[pos], cards[best]
        same = card & 3 == top & 3
        if (same and card > top) or (not same and card & 3 == trump):
            best = pos
    return best


@dataclass
class ReferenceDeal:
    """The play phase as the seeds state it, in plain Python."""

    game: str
    hands: list[int]
    leader: int
    two_of_clubs_leads: bool = False
    trick: list[int] = field(default_factory=list)
    tricks: list[tuple[int, list[int], int]] = field(default_factory=list)
    broken: bool = False

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def legal(self) -> int:
        hand = self.hands[self.to_act]
        first_trick = not self.tricks
        restricted = SUIT_MASKS[2] if self.game == "hearts" else SUIT_MASKS[3]
        if self.trick:
            follow = hand & SUIT_MASKS[self.trick[0] & 3]
            if follow:
                return follow
            # Hearts: no heart or Q♠ on the first trick while a safe card remains.
            if self.game == "hearts" and first_trick and hand & ~PENALTY:
                return hand & ~PENALTY
            return hand
        two_of_clubs = self.game == "hearts" or self.two_of_clubs_leads
        if two_of_clubs and first_trick and hand & 1:
            return 1
        if not self.broken and hand & ~restricted:
            return hand & ~restricted
        return hand

    def play(self, card: int) -> None:
        self.hands[self.to_act] &= ~(1 << card)
        if card & 3 == (2 if self.game == "hearts" else 3):
            self.broken = True
        self.trick.append(card)
        if len(self.trick) == 4:
            trump = 3 if self.game == "spades" else None
            winner = (self.leader + reference_winner(self.trick, trump)) % 4
            self.tricks.append((self.leader, self.trick, winner))
            self.trick = []
            self.leader = winner


def check_play_phase(
    state: HeartsState | SpadesState, ref: ReferenceDeal, rng: random.Random
) -> None:
    """Play the deal out at random, comparing the state with ``ref`` before every card."""
    while not state.is_terminal:
        legal = ref.legal()
        assert state.current_player == ref.to_act
        assert state.legal_plays() == legal
        actions = state.legal_actions()
        assert actions == [PLAY_ACTIONS[c] for c in bits(legal)]
        obs = state.observation(ref.to_act)
        assert obs["trick"] == [NAMES[c] for c in ref.trick]
        assert obs["trick_winners"] == [t[2] for t in ref.tricks]
        # An illegal card from the hand is refused and changes nothing.
        refused = bits(ref.hands[ref.to_act] & ~legal)
        if refused:
            before = state.to_json()
            with pytest.raises(IllegalActionError):
                state.apply(NAMES[rng.choice(refused)])
            assert state.to_json() == before
        action = rng.choice(actions)
        ref.play(_index(action))
        state.apply(action)


def _index(text: str) -> int:
    """Card index of a card text or of a ``play`` action."""
    return NAMES.index(text.split()[-1])


def won_cards(ref: ReferenceDeal) -> list[int]:
    taken = [0, 0, 0, 0]
    for _, cards, winner in ref.tricks:
        for c in cards:
            taken[winner] |= 1 << c
    return taken


@pytest.mark.rule("HRT-06", "HRT-07", "HRT-08", "HRT-09", "HRT-10", "HRT-11")
def test_hearts_play_phase_matches_the_reference() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        state, hands = to_first_lead(Hearts(match=False), seed, rng)
        ref = ReferenceDeal("hearts", hands, leader=next(s for s in range(4) if hands[s] & 1))
        check_play_phase(state, ref, rng)
        taken = [penalty_points(t) for t in won_cards(ref)]
        assert state.score_breakdown()["deals"][0]["taken"] == taken
        assert len(ref.tricks) == 13


@pytest.mark.rule("SPD-04", "SPD-05", "SPD-06", "SPD-07", "SPD-11")
@pytest.mark.parametrize("first_lead", ["left_of_dealer", "two_of_clubs"])
def test_spades_play_phase_matches_the_reference(first_lead: str) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        state, hands = to_first_lead(Spades(match=False, first_lead=first_lead), seed, rng)
        two = first_lead == "two_of_clubs"
        leader = next(s for s in range(4) if hands[s] & 1) if two else 0
        ref = ReferenceDeal("spades", hands, leader=leader, two_of_clubs_leads=two)
        check_play_phase(state, ref, rng)
        won = [sum(1 for t in ref.tricks if t[2] == s) for s in range(4)]
        assert state.score_breakdown()["deals"][0]["tricks"] == won


def to_first_lead(
    game: Hearts | Spades, seed: int, rng: random.Random
) -> tuple[HeartsState | SpadesState, list[int]]:
    """A new deal passed or bid at random up to the first lead, and the four hands then."""
    state = game.new_state(seed=seed)
    while state.phase != "play":
        state.apply(rng.choice(state.legal_actions()))
    hands = [sum(1 << _index(c) for c in state.observation(s)["hand"]) for s in range(4)]
    return state, hands


def test_rust_and_reference_trick_winners_agree() -> None:
    rng = random.Random(1)
    for _ in range(500):
        cards = rng.sample(range(52), 4)
        for trump in (None, 0, 3):
            letter = None if trump is None else "cdhs"[trump]
            names = [NAMES[c] for c in cards]
            assert reference_winner(cards, trump) == trick_winner(names, trump=letter)


def test_trick_deal_refuses_bad_input_and_copies_independently() -> None:
    from cardkit import RuleOptionError

    full = [sum(1 << (13 * s + i) for i in range(13)) for s in range(4)]
    with pytest.raises(RuleOptionError):
        TrickDeal.hearts([full[0], full[0], full[2], full[3]], PLAY_TABLE)
    with pytest.raises(RuleOptionError):
        TrickDeal.hearts([full[0], full[1], full[2], 1 << 60], PLAY_TABLE)
    with pytest.raises(RuleOptionError):
        TrickDeal.spades(full, [3, 3, 3, 14], 0, PLAY_TABLE)
    with pytest.raises(RuleOptionError):
        ActionTable(PLAY_ACTIONS[:51])
    with pytest.raises(RuleOptionError):
        PLAY_TABLE.of(1 << 52)
    deal = TrickDeal.hearts(full, PLAY_TABLE)
    assert deal.play(-1) is None and deal.play(52) is None and deal.play(4) is None
    with pytest.raises(IllegalActionError):
        deal.play("2c")  # type: ignore[arg-type]
    copy = deal.copy()
    assert deal.play(0) is False
    assert deal.trick == [0] and copy.trick == [] and copy.legal() == 1
    assert len(PLAY_TABLE) == 52 and PLAY_TABLE.of(0b101) == [PLAY_ACTIONS[0], PLAY_ACTIONS[2]]


def test_trick_deal_plays_only_the_listed_action_objects() -> None:
    full = [sum(1 << (13 * s + i) for i in range(13)) for s in range(4)]
    deal = TrickDeal.hearts(full, PLAY_TABLE)
    history: list[str] = []
    listed = deal.legal_actions()
    assert listed == [PLAY_ACTIONS[0]]
    # Equal text that is not the listed object, and a listed object of a card that
    # is not legal now, are refused and change nothing.
    assert deal.play_listed("play " + NAMES[0], history) is None
    assert deal.play_listed(PLAY_ACTIONS[1], history) is None
    assert history == [] and deal.trick == []
    assert deal.play_listed(listed[0], history) is False
    assert history == [listed[0]] and history[0] is listed[0] and deal.trick == [0]
