"""A Tractor rule agent: declares on strength, buries short side suits and their
points, leads tractors and pairs, feeds points to a partner who is winning the
trick and trumps tricks worth points. It reads only its observation and the
listed actions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardkit._core import Card, parse_cards, tractor_trick_winner
from cardkit._validate import check_agent_seed, check_legal_actions
from cardkit.api import Action, Observation

__all__ = ["TractorRuleAgent", "card_order"]

_RANKS = "23456789TJQKA"


def card_order(card: Card, level: str, trump: str | None) -> tuple[int, int]:
    """``(is trump, strength)``: how strong a card is once trumps are known (trump
    suits as in docs/tractor.md; equal level cards share a strength)."""
    text = str(card)
    if text == "RJ":
        return (1, 100)
    if text == "BJ":
        return (1, 99)
    if text[0] == level:
        return (1, 98 if text[1] == trump else 97)
    return (int(text[1] == trump), _RANKS.index(text[0]))


def _points(card: Card) -> int:
    return 5 if card.rank == "5" else 10 if card.rank in ("T", "K") else 0


class TractorRuleAgent:
    """Rules of thumb for every phase of a Tractor deal (see the module docstring)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(check_agent_seed(seed))

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The chosen action among ``legal_actions``."""
        check_legal_actions(legal_actions)
        phase = observation.get("phase")
        if phase == "declare":
            return self._declare(observation, legal_actions)
        if phase == "bury":
            return self._bury(observation, legal_actions)
        if phase == "play":
            if not observation.get("trick") and not observation.get("chosen"):
                return self._lead(observation, legal_actions)
            return self._follow(observation, legal_actions)
        return legal_actions[self._rng.randrange(len(legal_actions))]

    # -- declaring and burying -----------------------------------------------------

    @staticmethod
    def _declare(observation: Observation, legal: Sequence[Action]) -> Action:
        """Declare the suit with the most trumps it would give, when that is at least
        ten of 25 cards (level cards and jokers count for every suit); joker pairs
        (no-trump) with six or more level cards and jokers."""
        hand = [Card(c) for c in observation["hand"]]
        level = observation["level"]
        always = sum(1 for c in hand if c.suit is None or c.rank == level)
        best: tuple[int, Action] | None = None
        for action in legal:
            if action.kind != "declare":
                continue
            cards = parse_cards(action.args[0])
            suit = cards[0].suit
            if suit is None:
                score = 10 + always - 6 if always >= 6 else 0
            else:
                score = always + sum(1 for c in hand if c.suit == suit and c.rank != level)
            if score >= 10 and (best is None or score > best[0]):
                best = (score, action)
        return best[1] if best is not None else Action("pass")

    @staticmethod
    def _bury(observation: Observation, legal: Sequence[Action]) -> Action:
        """Bury from the shortest side suit, its point cards first, then its low cards;
        never trumps, aces or pairs while other cards remain."""
        hand = [Card(c) for c in observation["hand"]]
        level, trump = observation["level"], observation["trump"]
        counts = Counter(hand)
        lengths = Counter(c.suit or "" for c in hand if card_order(c, level, trump)[0] == 0)

        def cost(action: Action) -> tuple[int, int, int, int, int]:
            card = Card(action.args[0])
            is_trump, strength = card_order(card, level, trump)
            keep = int(card.rank == "A") + int(counts[card] == 2)
            length = 99 if is_trump else lengths[card.suit or ""]
            return (is_trump, keep, length, -_points(card), strength)

        return min(legal, key=cost)

    # -- the card play ---------------------------------------------------------------

    @staticmethod
    def _lead(observation: Observation, legal: Sequence[Action]) -> Action:
        """A tractor if it has one (side suits first), else a high pair, else a side
        ace or king, else the lowest side card without points, else the lowest card."""
        level, trump = observation["level"], observation["trump"]

        def shape_key(action: Action) -> tuple[int, int, int, int]:
            cards = parse_cards(action.args[0])
            is_trump, strength = card_order(cards[0], level, trump)
            size = len(cards)
            if size > 2:
                return (0, is_trump, -size, -strength)
            if size == 2:
                return (1, is_trump, 0, -strength) if strength >= 8 or is_trump else (4, 0, 0, 0)
            if not is_trump and strength >= 11:
                return (2, 0, 0, -strength)
            return (3, is_trump, _points(cards[0]), strength)

        return min(legal, key=shape_key)

    @staticmethod
    def _follow(observation: Observation, legal: Sequence[Action]) -> Action:
        """Feed points to a partner who is winning; trump or beat a single worth
        points when it can; otherwise the cheapest card."""
        seat = observation["seat"]
        level, trump = observation["level"], observation["trump"]
        trick = observation["trick"]
        plays = [cards for _, cards in trick]
        winner = trick[tractor_trick_winner(plays, level, trump)][0] if trick else None
        partner_wins = winner is not None and winner % 2 == seat % 2
        points = sum(_points(c) for cards in plays for c in parse_cards(cards))
        cards = [Card(a.args[0]) for a in legal]

        def cheap(card: Card) -> tuple[int, int, int]:
            is_trump, strength = card_order(card, level, trump)
            return (_points(card), is_trump, strength)

        if partner_wins:
            best = max(cards, key=lambda c: (_points(c), -card_order(c, level, trump)[0]))
            if _points(best) > 0:
                return Action(f"play {best}")
        single_led = len(parse_cards(plays[0])) == 1 if plays else False
        if single_led and not partner_wins and (points > 0 or len(plays) == 3):
            winning = [
                c
                for c in cards
                if tractor_trick_winner([*plays, str(c)], level, trump) == len(plays)
            ]
            if winning:
                chosen = min(winning, key=lambda c: card_order(c, level, trump))
                return Action(f"play {chosen}")
        return Action(f"play {min(cards, key=cheap)}")
