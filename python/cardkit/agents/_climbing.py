"""What the climbing-game agents share: turning an observation into a Rust
:class:`~cardkit._core.ClimbingView` and a chosen rank text back into an action."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from cardkit._core import Card, ClimbingView, Combination, climbing_classify, deck
from cardkit._validate import check_agent_seed, check_count, check_endgame, check_flag
from cardkit.api import Action, Observation
from cardkit.errors import IllegalActionError
from cardkit.games._climbing import rank_text

__all__ = ["FULL_RANKS", "ClimbingSearch", "choose", "view_of"]

#: Every rank of each game's pack, as rank text, read from its named deck.
FULL_RANKS = {
    "doudizhu": rank_text(deck("french54")),
    "zhengshangyou": rank_text(deck("zhengshangyou48")),
}


def _table(game: str, obs: Observation) -> Combination | None:
    table = obs.get("table")
    if table is None:
        return None
    opening = obs.get("table_type") == "heavenly_bomb"
    for reading in climbing_classify(game, table, opening):
        if reading.type == obs.get("table_type"):
            return reading
    raise IllegalActionError(f"observation table {table!r} is not a {game} combination")


def _history(obs: Observation) -> list[tuple[int, str | None]]:
    """The card play so far, as (seat, rank text or ``None`` for a pass)."""
    out: list[tuple[int, str | None]] = []
    for seat, action in obs["play_history"]:
        text = str(action)
        out.append((int(seat), text.removeprefix("play ") if text != "pass" else None))
    return out


def view_of(game: str, obs: Observation, evidence: bool = False) -> ClimbingView:
    """The card-play position ``obs`` describes, as the seat to act sees it; with
    ``evidence``, carrying the card play so far, whose passes the search's deals
    of the hidden cards then fit."""
    seat = int(obs["seat"])
    hand = str(obs["hand_ranks"])
    seen = Counter(hand)
    for played in obs["played_ranks"]:
        seen.update(played)
    unknown = "".join((Counter(FULL_RANKS[game]) - seen).elements())
    table = _table(game, obs)
    pinned = None
    landlord = obs.get("landlord")
    if landlord is not None and landlord != seat:
        # The revealed bottom cards the landlord has not (as far as ranks tell) played.
        bottom = Counter(rank_text([Card(c) for c in obs["bottom"]]))
        held = bottom - Counter(obs["played_ranks"][landlord])
        texts = ["", "", ""]
        texts[int(landlord)] = "".join(held.elements())
        pinned = texts
    return ClimbingView(
        game,
        seat,
        hand,
        list(obs["card_counts"]),
        unknown,
        table=table,
        table_owner=int(obs["table_owner"]) if table is not None else seat,
        passes=int(obs["passes"]),
        plays=list(obs["plays_made"]),
        landlord=int(obs.get("landlord") or 0),
        bid=max(1, int(obs.get("bid") or 1)),
        bombs=int(obs.get("bombs") or 0),
        opening=bool(obs.get("opening", False)),
        pending_bomb=bool(obs.get("pending_bomb", False)),
        pinned=pinned,
        history=_history(obs) if evidence else None,
    )


def choose(move: str | None, legal_actions: Sequence[Action]) -> Action:
    """The listed action for the rank text ``move`` (``None``: pass)."""
    wanted = "pass" if move is None else f"play {move}"
    for action in legal_actions:
        if action == wanted:
            return action
    raise IllegalActionError(f"the policy chose {wanted}, which is not among the legal actions")


class ClimbingSearch:
    """The search settings and the card-play move of the Dou Dizhu and Zheng
    Shangyou search agents (each game's agent documents them and adds its own
    bidding): ``samples`` determinized deals a move, and the endgame solver from
    ``endgame`` cards left (0: off), ``endgame_nodes`` nodes a solve. With
    ``halving``, the same playouts (``samples`` per candidate move) go to the
    candidates by successive halving: each round plays the moves still in the race
    on fresh deals and drops the worse half, so the contending moves get several
    times the deals at the same cost. With ``evidence`` (Zheng Shangyou's default),
    the unseen cards are dealt to fit the other seats' passes so far (a Zheng
    Shangyou pass means nothing in that hand beat the table; a Dou Dizhu pass on an
    opponent makes hands the rule policy would have answered with less likely);
    ``evidence=False`` deals them uniformly, as the search did before. With
    ``shedding``, the playouts play the shedding policy instead of the rule policy:
    it leads long groups before low singles and does not hold back a bomb, which
    makes the Zheng Shangyou search far stronger and the Dou Dizhu one somewhat."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 32,
        endgame: int = 0,
        endgame_nodes: int = 20_000,
        halving: bool = False,
        evidence: bool = True,
        shedding: bool = False,
    ) -> None:
        self._rng = random.Random(check_agent_seed(seed))
        self.samples = check_count("samples", samples, 1, 1_000_000)
        self.endgame, self.endgame_nodes = check_endgame(endgame, endgame_nodes, 54)
        self.halving = check_flag("halving", halving)
        self.evidence = check_flag("evidence", evidence)
        self.shedding = check_flag("shedding", shedding)

    def _fits_passes(self, observation: Observation) -> bool:
        """Whether this move's deals fit the passes so far (``evidence``)."""
        return self.evidence

    def _search(
        self, game: str, observation: Observation, legal_actions: Sequence[Action]
    ) -> Action:
        """The searched card-play move among ``legal_actions``."""
        view = view_of(game, observation, self._fits_passes(observation))
        seed = self._rng.getrandbits(64)
        move = view.search_move(
            self.samples,
            seed,
            self.endgame,
            self.endgame_nodes,
            halving=self.halving,
            shedding=self.shedding,
        )
        return choose(move, legal_actions)
