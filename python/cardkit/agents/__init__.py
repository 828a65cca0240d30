"""Players. Every game ships ``RandomAgent`` (here) and stronger ones in its own module."""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError

__all__ = ["RandomAgent"]


class RandomAgent:
    """Picks uniformly among the listed legal actions; seeded, so games replay exactly."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        if not legal_actions:
            raise IllegalActionError("no legal action to choose from")
        return legal_actions[self._rng.randrange(len(legal_actions))]
