"""Card play shared by the three-player climbing games (Dou Dizhu, Zheng Shangyou).

Plays are written as ranks, weakest first (``play 33344``, ``play TJQKA``, ``play BR``;
``T`` is the ten, ``B``/``R`` the black and red joker); suits never decide strength.
The Rust engine lists the legal plays; this module keeps hands, the table, turn
order and round ends, and the game modules add bidding and scoring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from cardkit._core import (
    Card,
    Combination,
    climbing_beats,
    climbing_classify,
    climbing_leads,
    climbing_play_texts,
    climbing_responses,
    deck,
)
from cardkit.api import Action
from cardkit.errors import IllegalActionError
from cardkit.games._base import BaseGame, BaseState

__all__ = [
    "PASS",
    "RANK_ORDER",
    "ClimbingGame",
    "ClimbingState",
    "classify",
    "legal_leads",
    "legal_responses",
    "normalize_ranks",
    "rank_char",
    "rank_text",
]

#: Climbing ranks, weakest first.
RANK_ORDER = "3456789TJQKA2BR"
_POSITION = {r: i for i, r in enumerate(RANK_ORDER)}
_CARD_RANK = {"BJ": "B", "RJ": "R"}
PASS = Action("pass")


def _rank_of(card: Card) -> str:
    r = card.rank
    return _CARD_RANK.get(r, r)


# Looked up per card in every play, so computed once for the whole pack.
_RANK_CHAR = {card: _rank_of(card) for card in deck("french54")}


def rank_char(card: Card) -> str:
    """The climbing rank letter of ``card`` (``B``/``R`` for the jokers)."""
    return _RANK_CHAR[card]


def rank_text(cards: Sequence[Card]) -> str:
    """The ranks of ``cards``, weakest first: ``"33344BR"``."""
    return "".join(sorted((rank_char(c) for c in cards), key=_POSITION.__getitem__))


def _rank_sort_key(card: Card) -> tuple[int, int]:
    return (_POSITION[rank_char(card)], card.index)


def normalize_ranks(text: str) -> str | None:
    """Rank text in canonical order, or ``None`` if it holds a non-rank character."""
    text = text.upper().replace("10", "T")
    if not text or any(ch not in _POSITION for ch in text):
        return None
    return "".join(sorted(text, key=_POSITION.__getitem__))


class ClimbingGame(BaseGame):
    """A three-player climbing game: plays are rank texts, ``pass`` passes."""

    #: The rules name the Rust engine knows.
    rules: ClassVar[str]

    def parse_action(self, text: Action | str) -> Action:
        """``pass``, ``bid N``, or a play: ``play 3334`` or just ``3334`` (any order)."""
        if isinstance(text, Action):
            text = text.text
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is a string or Action, got {text!r}")
        words = text.split()
        if not words:
            raise IllegalActionError("an empty action names nothing")
        if words[0].lower() == "play":
            words = words[1:]
            if not words:
                raise IllegalActionError("play needs ranks, such as 'play 33344'")
        elif words[0].lower() in ("pass", "bid"):
            return Action(" ".join(w.lower() if i == 0 else w for i, w in enumerate(words)))
        ranks = normalize_ranks("".join(words))
        if ranks is None:
            raise IllegalActionError(
                f"{text!r} is not an action: expected pass, bid N or ranks such as 33344"
            )
        return Action(f"play {ranks}")


class ClimbingState(BaseState):
    """Hands, table and turn order of the card play of a climbing deal."""

    _game: ClimbingGame

    #: Seats in the game.
    SEATS: ClassVar[int] = 3

    def _start_play(self, hands: list[list[Card]], leader: int) -> None:
        self.hands = [sorted(h, key=_rank_sort_key) for h in hands]
        self.hand_ranks = [rank_text(h) for h in self.hands]
        self.played: list[list[Card]] = [[] for _ in range(self.SEATS)]
        self.plays_made = [0] * self.SEATS
        self.to_move: int | None = leader
        self.table: Combination | None = None
        self.table_owner = leader
        self.passes = 0
        self.winner: int | None = None
        #: (seat, action text) of every card-play action of this deal.
        self.play_log: list[tuple[int, str]] = []
        self._legal: list[Action] | None = None
        self._legal_texts: set[str] = set()

    # -- hooks the games fill in --------------------------------------------------

    def _opening(self) -> bool:
        """Whether the next play is the deal's opening play (Zheng Shangyou)."""
        return False

    def _can_pass(self) -> bool:
        """Whether the follower may pass now (Dou Dizhu: always)."""
        return True

    def _take_cards(self, seat: int, ranks: str) -> list[Card]:
        """Remove and return cards of ``ranks`` from ``seat``'s hand (lowest suits first)."""
        hand = self.hands[seat]
        taken: list[Card] = []
        for r in ranks:
            for i, card in enumerate(hand):
                if _RANK_CHAR[card] == r:
                    taken.append(hand.pop(i))
                    break
        return taken

    def _on_play(self, seat: int, combo: Combination, response: bool) -> None:
        """Called after a play (bomb counting, bomb bonuses)."""

    def _on_round_end(self) -> None:
        """Called when everyone else passed and the table owner leads again."""

    def _on_out(self, seat: int) -> None:
        """Called when ``seat`` goes out, ending the deal."""

    # -- card play ----------------------------------------------------------------

    def _play_actions(self) -> list[Action]:
        if self._legal is None:
            seat = self.to_move
            assert seat is not None
            texts = climbing_play_texts(
                self._game.rules, self.hand_ranks[seat], self.table, self._opening()
            )
            legal = [Action(f"play {t}") for t in texts]
            if self.table is not None and (self._can_pass() or not legal):
                legal.append(PASS)
            self._legal = legal
            self._legal_texts = {a.text for a in legal}
        return list(self._legal)

    def _play_reason(self, action: Action) -> str | None:
        """Why the card-play ``action`` is illegal now, or ``None``."""
        self._play_actions()
        if action.text in self._legal_texts:
            return None
        seat = self.to_move
        assert seat is not None
        if action == PASS:
            if self.table is None:
                return "a leader must play and cannot pass"
            return f"you must beat {self.table.cards} when you can"
        if action.kind != "play" or len(action.args) != 1:
            return f"{action} is not an action of this phase: play ranks or pass"
        ranks = action.args[0]
        if Counter(ranks) - Counter(self.hand_ranks[seat]):
            return f"seat {seat} does not hold {ranks}"
        readings = climbing_classify(self._game.rules, ranks, self._opening())
        if not readings:
            return f"{ranks} is not a {self._game.name} combination"
        if self.table is None:
            return f"{ranks} cannot open this deal (the first play must hold the heart three)"
        table = self.table
        return f"a {readings[0].type} {ranks} does not beat the {table.type} {table.cards}"

    def _apply_play(self, action: Action) -> None:
        seat = self.to_move
        assert seat is not None
        self._legal = None
        self.play_log.append((seat, action.text))
        if action == PASS:
            self.passes += 1
            nxt = (seat + 1) % self.SEATS
            if self.passes >= self.SEATS - 1:
                self._on_round_end()
                self.table = None
                self.passes = 0
                nxt = self.table_owner
            self.to_move = nxt
            return
        ranks = action.args[0]
        readings = climbing_classify(self._game.rules, ranks, self._opening())
        combo = readings[0]
        if self.table is not None:
            table = self.table
            combo = next(c for c in readings if climbing_beats(self._game.rules, c, table))
        response = self.table is not None
        self.played[seat].extend(self._take_cards(seat, ranks))
        remaining = self.hand_ranks[seat]
        for r in ranks:
            remaining = remaining.replace(r, "", 1)
        self.hand_ranks[seat] = remaining
        self.plays_made[seat] += 1
        self.table = combo
        self.table_owner = seat
        self.passes = 0
        self._on_play(seat, combo, response)
        if not self.hands[seat]:
            self.winner = seat
            self.to_move = None
            self._on_out(seat)
        else:
            self.to_move = (seat + 1) % self.SEATS

    def _play_observation(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "hand": [str(c) for c in self.hands[seat]],
            "hand_ranks": self.hand_ranks[seat],
            "card_counts": [len(h) for h in self.hands],
            "plays_made": list(self.plays_made),
            "played_ranks": [rank_text(p) for p in self.played],
            "table": None if self.table is None else self.table.cards,
            "table_type": None if self.table is None else self.table.type,
            "table_owner": self.table_owner if self.table is not None else None,
            "passes": self.passes,
            "play_history": [[s, a] for s, a in self.play_log],
            "to_act": self.to_move,
            "winner": self.winner,
        }

    def clone(self) -> ClimbingState:
        """An independent copy (hands and logs copied; combinations are immutable)."""
        new = object.__new__(type(self))
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else v for v in value]
            new.__dict__[key] = value
        return new


def classify(
    rules: str, cards: str | Sequence[Card | str], opening: bool = False
) -> list[Combination]:
    """Every reading of ``cards`` under ``rules`` (see the game modules)."""
    return climbing_classify(rules, cards, opening)


def legal_leads(
    rules: str, hand: str | Sequence[Card | str], opening: bool = False
) -> list[Combination]:
    """Every legal lead from ``hand`` under ``rules``."""
    return climbing_leads(rules, hand, opening)


def legal_responses(
    rules: str,
    hand: str | Sequence[Card | str],
    table: Combination | str | Sequence[Card | str],
    opening: bool = False,
) -> list[Combination]:
    """Every play from ``hand`` that beats ``table`` under ``rules``."""
    return climbing_responses(rules, hand, table, opening)
