"""Cards, decks and the seeded shuffle (implemented in Rust, re-exported here).

- :class:`Card` parses ``"As"``, ``"10h"``, ``"Th"``, ``"A♠"``, ``"BJ"``, ``"RJ"``;
  ``str(card)`` is canonical (``"Th"``), ``card.pretty`` uses suit symbols
  (``"10♥"``). Cards hash and order by ``card.index`` = ``rank * 4 + suit`` with
  ranks 2..A and suits c, d, h, s, then BJ = 52 and RJ = 53.
- :func:`parse_cards` reads ``"As Kd Th"``, ``"AsKdTh"`` or an iterable of cards.
- :func:`deck` / :func:`shuffled_deck` build ``standard52``, ``french54``,
  ``double104``, ``double108`` and ``zhengshangyou48`` decks; the shuffle is the
  portable ChaCha8 stream of the seed (see ``rust/engine/src/rng.rs``).
"""

from __future__ import annotations

from cardkit._core import Card, deck, deck_names, derive_seed, parse_cards, shuffled_deck

__all__ = ["Card", "deck", "deck_names", "derive_seed", "parse_cards", "shuffled_deck"]
