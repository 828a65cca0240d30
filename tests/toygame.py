"""A tiny test-only game that exercises the conformance suite.

Two players get three cards each from a 52-card deck; the leader plays a card,
the other answers (following suit if able), the higher card of the led suit
wins the trick and leads next. Each trick is a point; returns are the point
difference, so the game is zero-sum. Delete this once real games are registered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardkit import Card
from cardkit.api import Action, Observation
from cardkit.games._base import BaseGame, BaseState, check_int


class HighCard(BaseGame):
    name = "test_highcard"
    zero_sum = True
    deck_name = "standard52"

    def __init__(self, cards: int = 3) -> None:
        self.cards = check_int("cards", cards, 1, 26)
        self.num_players = 2

    @property
    def options(self) -> dict[str, Any]:
        return {"cards": self.cards}

    def new_state(
        self, seed: int | None = None, deal: str | Sequence[Any] | None = None
    ) -> HighCardState:
        return HighCardState(self, seed, deal)


class HighCardState(BaseState):
    _game: HighCard

    def _start(self) -> None:
        order = self.deck_order()
        n = self._game.cards
        self.hands = [sorted(order[:n]), sorted(order[n : 2 * n])]
        self.stock = order[2 * n :]
        self.trick: list[Card] = []
        self.won: list[list[Card]] = [[], []]
        self.leader = 0

    @property
    def current_player(self) -> int | None:
        if self.is_terminal:
            return None
        return (self.leader + len(self.trick)) % 2

    @property
    def is_terminal(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal_actions(self) -> list[Action]:
        seat = self.current_player
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.trick:
            follow = [c for c in hand if c.suit == self.trick[0].suit]
            hand = follow or hand
        return [Action(f"play {c}") for c in hand]

    def _apply(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None
        card = Card(action.args[0])
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) == 2:
            lead, answer = self.trick
            wins_answer = answer.suit == lead.suit and answer > lead
            winner = (self.leader + 1) % 2 if wins_answer else self.leader
            self.won[winner].extend(self.trick)
            self.trick = []
            self.leader = winner

    def returns(self) -> list[float]:
        a, b = len(self.won[0]) // 2, len(self.won[1]) // 2
        return [float(a - b), float(b - a)] if self.is_terminal else [0.0, 0.0]

    def observation(self, seat: int) -> Observation:
        seat = self.check_seat(seat)
        return {
            "seat": seat,
            "hand": [str(c) for c in self.hands[seat]],
            "trick": [str(c) for c in self.trick],
            "tricks_won": [len(w) // 2 for w in self.won],
            "won_cards": [[str(c) for c in w] for w in self.won],
            "to_act": self.current_player,
        }

    def private_cards(self, seat: int) -> list[Card]:
        return list(self.hands[self.check_seat(seat)])

    def zones(self) -> dict[str, list[Card]]:
        return {
            "hand0": list(self.hands[0]),
            "hand1": list(self.hands[1]),
            "trick": list(self.trick),
            "won0": list(self.won[0]),
            "won1": list(self.won[1]),
            "stock": list(self.stock),
        }

    def score_breakdown(self) -> dict[str, Any]:
        return {"tricks": [len(w) // 2 for w in self.won], "returns": self.returns()}
