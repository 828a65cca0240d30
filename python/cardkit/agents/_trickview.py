"""What a trick-taking agent can infer from its observation: the cards played,
who has shown out of which suit, hand sizes and the cards each seat won. Shared
by the Hearts and Spades agents; reads only the observation, never hidden state."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardkit._validate import check_real
from cardkit.errors import RuleOptionError
from cardkit.games._tricks import NAMES

__all__ = [
    "ALL_CARDS",
    "BATCH_WORLDS",
    "INDEX",
    "TrickView",
    "check_time_per_move",
    "mask_of_names",
    "search_values",
]

#: Worlds per search call when an agent searches to a time budget: a call of 16
#: worlds takes a few milliseconds, so the budget is overrun by at most one of them.
BATCH_WORLDS = 16

INDEX: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
ALL_CARDS = (1 << 52) - 1


def mask_of_names(names: list[str]) -> int:
    """The bitset of card texts ``names``."""
    mask = 0
    for n in names:
        mask |= 1 << INDEX[n]
    return mask


@dataclass
class TrickView:
    """Public facts of a deal in play, seen by ``seat``."""

    seat: int
    hand: int
    leader: int
    trick: list[int]
    played: int = 0
    voids: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    won_cards: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    tricks_played: int = 0

    @classmethod
    def from_observation(cls, obs: dict[str, Any]) -> TrickView:
        """Read hand, trick history and voids from a Hearts or Spades observation."""
        view = cls(
            seat=obs["seat"],
            hand=mask_of_names(obs["hand"]),
            leader=obs["leader"],
            trick=[INDEX[n] for n in obs["trick"]],
        )
        history = zip(obs["tricks"], obs["trick_leaders"], obs["trick_winners"], strict=True)
        for cards, leader, winner in history:
            indices = [INDEX[n] for n in cards]
            view._note(leader, indices)
            for c in indices:
                view.won_cards[winner] |= 1 << c
            view.tricks_won[winner] += 1
            view.tricks_played += 1
        view._note(view.leader, view.trick)
        return view

    def _note(self, leader: int, cards: list[int]) -> None:
        if not cards:
            return
        led = cards[0] & 3
        for pos, c in enumerate(cards):
            self.played |= 1 << c
            if c & 3 != led:
                self.voids[(leader + pos) % 4] |= 1 << led

    def sizes(self) -> list[int]:
        """Cards each seat still holds."""
        base = 13 - self.tricks_played
        in_trick = {(self.leader + i) % 4 for i in range(len(self.trick))}
        return [base - (1 if s in in_trick else 0) for s in range(4)]

    def hidden(self, known: list[int]) -> tuple[list[int], int, list[int]]:
        """``(known, unknown, sizes)`` for the Rust samplers: ``known`` per seat (own
        hand included), the unseen cards whose holder is open, and hand sizes."""
        known = list(known)
        known[self.seat] = self.hand
        placed = self.played
        for k in known:
            placed |= k
        return known, ALL_CARDS & ~placed, self.sizes()


def check_time_per_move(value: object) -> float | None:
    """``value`` as a time budget in seconds (``0 < t <= 3600``), or ``None``."""
    if value is None:
        return None
    seconds = check_real("time_per_move", value, 0.0, 3600.0)
    if seconds == 0.0:
        raise RuleOptionError("time_per_move must be above 0 seconds, got 0")
    return seconds


def search_values(
    search: Callable[[int, int], list[float]],
    worlds: int,
    time_per_move: float | None,
    rng: random.Random,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Each candidate's average value from ``search(worlds, seed)``: one call of
    ``worlds`` worlds, or with ``time_per_move`` seconds, calls of
    :data:`BATCH_WORLDS` worlds with fresh seeds until the time is spent (at least
    one), averaged. Seeds come from ``rng``."""
    if time_per_move is None:
        return search(worlds, rng.getrandbits(64))
    deadline = clock() + time_per_move
    totals = search(BATCH_WORLDS, rng.getrandbits(64))
    batches = 1
    while clock() < deadline:
        values = search(BATCH_WORLDS, rng.getrandbits(64))
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        batches += 1
    return [t / batches for t in totals]
