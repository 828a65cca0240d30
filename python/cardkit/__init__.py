"""cardkit: fast, exact engines for traditional card games.

>>> import cardkit
>>> game = cardkit.games.make("hearts")                       # doctest: +SKIP
>>> agents = [cardkit.agents.RandomAgent(i) for i in range(4)]  # doctest: +SKIP
>>> state = cardkit.play(game, agents, seed=7)                   # doctest: +SKIP
"""

from __future__ import annotations

from cardkit import agents, api, games
from cardkit._core import __version__
from cardkit.cards import Card, deck, deck_names, derive_seed, parse_cards, shuffled_deck
from cardkit.errors import (
    CardkitError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidNotationError,
    InvalidSeatError,
    RuleOptionError,
)
from cardkit.play import play

__all__ = [
    "Card",
    "CardkitError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidNotationError",
    "InvalidSeatError",
    "RuleOptionError",
    "__version__",
    "agents",
    "api",
    "deck",
    "deck_names",
    "derive_seed",
    "games",
    "parse_cards",
    "play",
    "shuffled_deck",
]
