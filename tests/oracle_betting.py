"""The Python twin of ``BettingCore``: a test oracle, not production code.

The no-limit betting rules Texas Hold'em and One Poker share have one production
home, the Rust ``BettingCore`` (``rust/engine/src/betting.rs``). This module keeps
the same rules written out plainly in Python, so that ``tests/test_betting_rust.py``
can drive both on the same random hands and compare every result, and
``tests/test_betting.py`` can check each rule clause on both.

One :class:`Betting` object holds the chips of one hand: each seat's stack behind,
its bet in the current round, everything it has put in this hand, and whether it
has folded. It knows the betting rules both seeds state in the same words:

- checking is allowed only when nothing is owed; otherwise call or fold, and a
  call that cannot be covered puts the remaining chips in (all-in);
- amounts are *totals for the round* (``raise 60`` means "my bet is now 60");
- the minimum opening bet is ``min_bet``; a raise must increase the bet by at least
  the last full bet or raise increment; an all-in may fall short of either;
- a short all-in does not reopen raising for seats that already acted: they may
  raise again only when the cumulative increase they face since they acted reaches
  a full raise; nobody may raise when no other seat can still put chips in;
- chips nobody matched (the uncalled excess) go back at the end of each round;
- pots are layered by contribution: a seat contests only the layers its own
  contribution covers, folded chips stay in, and each pot is settled on its own,
  ties split with the indivisible chips going one by one to the tied winners
  clockwise from a given seat (the button's left in Hold'em).

Drive it like the games drive ``BettingCore``: post forced bets (:meth:`post_blind`,
:meth:`post_ante`), :meth:`start_round`, apply each move, and read :attr:`to_act`
until it is ``None``; then :meth:`end_round`. :meth:`pots` and :meth:`award` settle
the hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardkit.games._betting import PotResult


@dataclass(frozen=True)
class Pot:
    """A main or side pot: its chips and the seats that may win it."""

    amount: int
    eligible: tuple[int, ...]


def split_amount(amount: int, winners: Sequence[int], first: int, seats: int) -> dict[int, int]:
    """Split ``amount`` evenly among ``winners``; the indivisible chips go one each to
    the winners in clockwise order starting at seat ``first``."""
    share, odd = divmod(amount, len(winners))
    ordered = sorted(winners, key=lambda s: (s - first) % seats)
    return {s: share + (1 if i < odd else 0) for i, s in enumerate(ordered)}


class Betting:
    """Chips and turn order of one hand's betting (see the module docstring).

    ``stacks`` are the chips each seat brings to the hand; a seat with ``in_hand``
    false (busted in a match) takes no part and never acts.
    """

    __slots__ = (
        "_acted_at",
        "_pending",
        "_range",
        "bets",
        "committed",
        "current_bet",
        "folded",
        "full_raise",
        "idle_turns",
        "min_bet",
        "n",
        "returned",
        "stacks",
        "to_act",
    )

    def __init__(self, stacks: Sequence[int], in_hand: Sequence[bool], min_bet: int) -> None:
        self.n = len(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * self.n
        self.committed = [0] * self.n
        # Seats sitting out count as folded: they can neither act nor win.
        self.folded = [not x for x in in_hand]
        self.min_bet = min_bet
        self.current_bet = 0
        self.full_raise = min_bet
        self.returned = [0] * self.n
        self.to_act: int | None = None
        # Seats passed over after an action because they owed nothing and could not
        # raise (hand histories that give every seat a turn record a check there).
        self.idle_turns: list[int] = []
        # The round's highest bet when the seat last acted, or -1 while the seat
        # has not acted since the last full bet or raise (so it may raise).
        self._acted_at = [-1] * self.n
        self._pending = [False] * self.n
        # The bet-or-raise range of ``to_act``, worked out once per turn.
        self._range: tuple[int, int] | None = None

    def copy(self) -> Betting:
        """An independent copy (cheaper than deepcopy)."""
        other = Betting.__new__(Betting)
        other.n = self.n
        other.stacks = self.stacks[:]
        other.bets = self.bets[:]
        other.committed = self.committed[:]
        other.folded = self.folded[:]
        other.min_bet = self.min_bet
        other.current_bet = self.current_bet
        other.full_raise = self.full_raise
        other.returned = self.returned[:]
        other.to_act = self.to_act
        other.idle_turns = self.idle_turns[:]
        other._acted_at = self._acted_at[:]
        other._pending = self._pending[:]
        other._range = self._range
        return other

    # -- forced bets --------------------------------------------------------------

    def post_blind(self, seat: int, amount: int) -> int:
        """Post a blind: a live bet of ``amount`` (or the whole stack if shorter)."""
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.bets[seat] += paid
        self.committed[seat] += paid
        self.current_bet = max(self.bets)
        return paid

    def post_ante(self, seat: int, amount: int) -> int:
        """Post an ante: dead chips that go to the pot, not toward the round's bet."""
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.committed[seat] += paid
        return paid

    # -- seats --------------------------------------------------------------------

    def live(self) -> list[int]:
        """Seats still contesting the hand (not folded)."""
        return [s for s in range(self.n) if not self.folded[s]]

    def can_bet(self, seat: int) -> bool:
        """Whether ``seat`` is in the hand with chips behind (not folded, not all-in)."""
        return not self.folded[seat] and self.stacks[seat] > 0

    def betting_possible(self) -> bool:
        """Whether a further round could see any betting: two live seats with chips."""
        return sum(1 for s in range(self.n) if self.can_bet(s)) >= 2

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` must add to call (capped at its stack: an all-in call)."""
        return min(self.current_bet - self.bets[seat], self.stacks[seat])

    @property
    def pot(self) -> int:
        """Every chip put in this hand so far, current bets included."""
        return sum(self.committed)

    # -- the round ----------------------------------------------------------------

    def start_round(self, first: int) -> None:
        """Open a betting round; the first seat able to act from ``first`` clockwise acts."""
        self.current_bet = max(self.bets)
        self.full_raise = self.min_bet
        self._acted_at = [-1] * self.n
        self._pending = [self.can_bet(s) for s in range(self.n)]
        self._advance(first - 1, after_action=False)

    def can_raise(self, seat: int) -> bool:
        """Whether ``seat`` may bet or raise now.

        It needs chips beyond a call, another live seat that could still put chips
        in, and raising open to it: it has not acted since the last full bet or
        raise, or the bets it faces have since grown by at least a full raise.
        """
        if seat == self.to_act:
            return self._range is not None
        return self._compute_range(seat) is not None

    def raise_range(self, seat: int) -> tuple[int, int] | None:
        """The legal (min, max) total bet for a bet or raise, or ``None`` if none is.

        The minimum is a full bet or raise, or the all-in total when that is smaller.
        """
        if seat == self.to_act:
            return self._range
        return self._compute_range(seat)

    def _compute_range(self, seat: int) -> tuple[int, int] | None:
        cb = self.current_bet
        all_in = self.stacks[seat] + self.bets[seat]
        if all_in <= cb:
            return None
        acted_at = self._acted_at[seat]
        if acted_at >= 0 and cb - acted_at < self.full_raise:
            return None
        stacks, bets, folded = self.stacks, self.bets, self.folded
        for s in range(self.n):
            if s != seat and not folded[s] and stacks[s] + bets[s] > cb:
                break
        else:
            return None
        low = self.min_bet if cb == 0 else cb + self.full_raise
        return (low if low < all_in else all_in, all_in)

    def _advance(self, last: int, after_action: bool = True) -> None:
        """Pass the turn clockwise from ``last`` to the next seat that must act."""
        n = self.n
        self.to_act = None
        self._range = None
        if self.folded.count(False) <= 1:
            self._pending = [False] * n
            return
        pending, bets, cb = self._pending, self.bets, self.current_bet
        for step in range(1, n + 1):
            seat = (last + step) % n
            if not pending[seat]:
                continue
            bounds = self._compute_range(seat)
            if bounds is None and bets[seat] >= cb:
                # Owes nothing and may not raise: no decision to make.
                pending[seat] = False
                if after_action:
                    self.idle_turns.append(seat)
                continue
            self.to_act = seat
            self._range = bounds
            return

    def fold(self, seat: int) -> None:
        """``seat`` gives up the hand; its chips stay in the pot."""
        self.folded[seat] = True
        self._pending[seat] = False
        self._advance(seat)

    def check_or_call(self, seat: int) -> int:
        """``seat`` checks or calls (all-in if short); returns the chips added."""
        paid = self.to_call(seat)
        self.stacks[seat] -= paid
        self.bets[seat] += paid
        self.committed[seat] += paid
        self._acted_at[seat] = self.current_bet
        self._pending[seat] = False
        self._advance(seat)
        return paid

    def bet_to(self, seat: int, total: int) -> None:
        """``seat`` bets or raises to ``total`` for the round (checked by the caller)."""
        increase = total - self.current_bet
        paid = total - self.bets[seat]
        self.stacks[seat] -= paid
        self.bets[seat] = total
        self.committed[seat] += paid
        if increase >= self.full_raise:
            # A full bet or raise reopens raising for everyone and sets the new step.
            self.full_raise = increase
            self._acted_at = [-1] * self.n
        self.current_bet = total
        self._acted_at[seat] = total
        for s in range(self.n):
            self._pending[s] = s != seat and self.can_bet(s)
        self._advance(seat)

    def end_round(self) -> int:
        """Close the round: return the uncalled excess and clear the bets.

        Returns the chips handed back (0 when every chip was matched).
        """
        committed = self.committed
        top, first, second = 0, -1, 0
        for s, c in enumerate(committed):
            if c > first:
                top, first, second = s, c, first if first > 0 else 0
            elif c > second:
                second = c
        excess = first - second
        if excess > 0:
            self.committed[top] -= excess
            self.stacks[top] += excess
            self.returned[top] += excess
        self.bets = [0] * self.n
        self.current_bet = 0
        self.to_act = None
        self._range = None
        return excess

    # -- settlement ---------------------------------------------------------------

    def pots(self) -> list[Pot]:
        """The main pot then the side pots, layered by contribution.

        Each layer holds, from every seat, the chips between the previous level and
        this one; only live seats whose contribution reaches the level may win it.
        Adjacent layers with the same eligible seats form one pot.
        """
        live = self.live()
        if len(live) == 1:
            return [Pot(self.pot, (live[0],))] if self.pot else []
        top = max(self.committed)
        if all(self.committed[s] == top for s in live):
            # Every live seat put in the most: one pot, whatever the folded seats gave.
            return [Pot(self.pot, tuple(live))]
        levels = sorted({c for c in self.committed if c > 0})
        result: list[Pot] = []
        prev = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, prev) for c in self.committed)
            eligible = tuple(s for s in live if self.committed[s] >= level)
            # Chips above every live seat's contribution were put in by seats that
            # later folded; they stay with the highest pot a live seat contests.
            if result and (not eligible or eligible == result[-1].eligible):
                result[-1] = Pot(result[-1].amount + amount, result[-1].eligible)
            else:
                result.append(Pot(amount, eligible))
            prev = level
        return result

    def award(self, best: Callable[[Sequence[int]], Sequence[int]], first: int) -> list[PotResult]:
        """Settle every pot: ``best(eligible)`` names its winners, the split gives the
        odd chips clockwise from ``first``. The winnings go onto the stacks."""
        results = []
        for pot in self.pots():
            winners = pot.eligible if len(pot.eligible) == 1 else tuple(best(pot.eligible))
            shares = split_amount(pot.amount, winners, first, self.n)
            for seat, chips in shares.items():
                self.stacks[seat] += chips
            results.append(PotResult(pot.amount, pot.eligible, winners, shares))
        self.committed = [0] * self.n
        return results


# -- moves by their canonical text (as the games send them to BettingCore) ----------


def betting_illegal_reason(betting: Betting, seat: int, text: str) -> str | None:
    """Why the canonical betting action ``text`` is illegal for ``seat``, or ``None``."""
    owed = betting.current_bet - betting.bets[seat]
    if text == "check":
        return None if owed <= 0 else f"cannot check: {owed} to call"
    if text == "call" or text == "fold":
        return None if owed > 0 else f"cannot {text}: nothing is owed, check instead"
    verb, _, number = text.partition(" ")
    total = int(number)
    if verb == "bet" and betting.current_bet > 0:
        return f"cannot bet: there is already a bet of {betting.current_bet}, raise instead"
    if verb == "raise" and betting.current_bet == 0:
        return "cannot raise: there is no bet yet, bet instead"
    bounds = betting.raise_range(seat)
    if bounds is None:
        return f"cannot {verb}: raising is closed to this seat, only call or fold"
    low, high = bounds
    if total > high:
        return f"cannot {verb} to {total}: the most this seat can bet is {high} (all-in)"
    if total < low:
        return (
            f"cannot {verb} to {total}: the minimum is {low} (a full {verb} of "
            f"{betting.min_bet if verb == 'bet' else betting.full_raise}), or all-in for {high}"
        )
    return None


def apply_betting_action(betting: Betting, seat: int, text: str) -> None:
    """Play the legal canonical betting action ``text`` for ``seat``."""
    if text == "fold":
        betting.fold(seat)
    elif text == "check" or text == "call":
        betting.check_or_call(seat)
    else:
        betting.bet_to(seat, int(text.partition(" ")[2]))


def betting_actions(betting: Betting, seat: int, pot_fractions: Sequence[float]) -> list[str]:
    """The listed choices: fold/check/call, then the minimum bet or raise, the given
    fractions of the pot (a raise of ``f`` pot is to ``call + f * pot after calling``)
    and all-in; any other legal amount is accepted by :func:`betting_illegal_reason`."""
    cb = betting.current_bet
    owed = cb - betting.bets[seat]
    actions = ["fold", "call"] if owed > 0 else ["check"]
    bounds = betting.raise_range(seat)
    if bounds is not None:
        low, high = bounds
        verb = "raise " if cb > 0 else "bet "
        actions.append(verb + str(low))
        pot_after_call = sum(betting.committed) + (owed if owed > 0 else 0)
        last = low
        for f in pot_fractions:
            size = cb + int(f * pot_after_call)
            if last < size < high:
                actions.append(verb + str(size))
                last = size
        if high > low:
            actions.append(verb + str(high))
    return actions
