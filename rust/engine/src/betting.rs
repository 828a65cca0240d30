//! The no-limit betting core of one poker hand: the one home of the betting rules
//! Texas Hold'em and One Poker share (both drive it through the `BettingCore`
//! binding, `rust/python/src/betting.rs`).
//!
//! It holds each seat's stack behind, its bet in the current round, everything it
//! put in this hand and whether it folded, and knows the shared betting rules:
//! checking only when nothing is owed, amounts as totals for the round, the
//! minimum opening bet, full-raise increments, short all-ins that do not reopen
//! raising for seats that already acted (until the cumulative increase they face
//! reaches a full raise), no raise when no other seat can still put chips in,
//! the uncalled excess returned, pots layered by contribution and settled one by
//! one with the odd chips going clockwise from a given seat.
//!
//! Its Python twin, the test oracle `tests/oracle_betting.py`, writes the same
//! rules out plainly; `tests/test_betting_rust.py` plays both on the same random
//! hands (Hold'em's and One Poker's tables) and asserts identical states, listed
//! actions, reasons, errors and pots.

use crate::error::{EngineError, Result};

/// A listed action's code: fold.
pub const FOLD: i64 = -1;
/// A listed action's code: check.
pub const CHECK: i64 = -2;
/// A listed action's code: call (all-in when the stack is short).
pub const CALL: i64 = -3;

/// The most chips a seat may hold (so every code and sum fits in 64 bits).
pub const MAX_CHIPS: u64 = 1 << 50;

/// The fewest and most seats at a table (Texas Hold'em's 2-12 players); with at
/// most 12 seats of at most [`MAX_CHIPS`], every pot fits in 64 bits.
pub const MIN_SEATS: usize = 2;
pub const MAX_SEATS: usize = 12;

/// The code of `bet total` (`raise total` is one more): `2 * total`.
pub fn bet_code(total: u64, raising: bool) -> i64 {
    (total as i64) * 2 + i64::from(raising)
}

/// A main or side pot: its chips and the seats that may win it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pot {
    pub amount: u64,
    pub eligible: Vec<usize>,
}

/// How one pot was settled: who won and each winner's share, in the order the
/// odd chips were handed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PotResult {
    pub amount: u64,
    pub eligible: Vec<usize>,
    pub winners: Vec<usize>,
    pub shares: Vec<(usize, u64)>,
}

/// Split `amount` evenly among `winners`; the indivisible chips go one each to the
/// winners in clockwise order starting at seat `first` of `seats`.
pub fn split_amount(
    amount: u64,
    winners: &[usize],
    first: usize,
    seats: usize,
) -> Vec<(usize, u64)> {
    if winners.is_empty() || seats == 0 {
        return Vec::new();
    }
    let count = winners.len() as u64;
    let (share, odd) = (amount / count, amount % count);
    let mut ordered = winners.to_vec();
    ordered.sort_by_key(|&s| (s + seats - first % seats) % seats);
    ordered
        .into_iter()
        .enumerate()
        .map(|(i, s)| (s, share + u64::from((i as u64) < odd)))
        .collect()
}

/// A betting move, parsed from its canonical text or its listed code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Fold,
    Check,
    Call,
    /// `bet N` (`raising` false) or `raise N`: N is the seat's total for the round.
    /// `None` when the number is too large to be any stack.
    To {
        raising: bool,
        total: Option<u64>,
    },
}

impl Move {
    /// The move a canonical text names (`fold`, `check`, `call`, `bet N`,
    /// `raise N`), or `None`.
    pub fn parse(text: &str) -> Option<Move> {
        match text {
            "fold" => return Some(Move::Fold),
            "check" => return Some(Move::Check),
            "call" => return Some(Move::Call),
            _ => {}
        }
        let (verb, number) = text.split_once(' ')?;
        let raising = match verb {
            "bet" => false,
            "raise" => true,
            _ => return None,
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(Move::To {
            raising,
            total: number.parse().ok(),
        })
    }

    /// The move a listed code names (see [`FOLD`], [`CHECK`], [`CALL`], [`bet_code`]).
    pub fn from_code(code: i64) -> Option<Move> {
        match code {
            FOLD => Some(Move::Fold),
            CHECK => Some(Move::Check),
            CALL => Some(Move::Call),
            c if c >= 0 => Some(Move::To {
                raising: c % 2 == 1,
                total: Some((c / 2) as u64),
            }),
            _ => None,
        }
    }
}

/// Chips and turn order of one hand's betting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Betting {
    pub stacks: Vec<u64>,
    pub bets: Vec<u64>,
    pub committed: Vec<u64>,
    pub folded: Vec<bool>,
    pub min_bet: u64,
    pub current_bet: u64,
    pub full_raise: u64,
    pub returned: Vec<u64>,
    pub to_act: Option<usize>,
    /// `(move number, seat)`: seats passed over after move `move number` (counted
    /// from 1 in this hand) because they owed nothing and could not raise (hand
    /// histories that give every seat a turn record a check there).
    pub idle_turns: Vec<(usize, usize)>,
    /// Moves applied so far this hand.
    pub moves: usize,
    /// The round's highest bet when the seat last acted; `None` while it has not
    /// acted since the last full bet or raise (so it may raise).
    acted_at: Vec<Option<u64>>,
    pending: Vec<bool>,
    /// The bet-or-raise range of `to_act`, worked out once per turn.
    range: Option<(u64, u64)>,
}

impl Betting {
    /// A hand where seat `s` brings `stacks[s]`; seats with `in_hand[s]` false sit
    /// out (counted as folded). `min_bet` is the minimum opening bet.
    pub fn new(stacks: Vec<u64>, in_hand: &[bool], min_bet: u64) -> Result<Betting> {
        let n = stacks.len();
        if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
            return Err(EngineError::RuleOption(format!(
                "a table has {MIN_SEATS} to {MAX_SEATS} seats, got {n} stacks"
            )));
        }
        if in_hand.len() != n {
            return Err(EngineError::RuleOption(format!(
                "in_hand has {} entries for {n} stacks",
                in_hand.len()
            )));
        }
        if let Some(big) = stacks.iter().find(|&&s| s > MAX_CHIPS) {
            return Err(EngineError::RuleOption(format!(
                "a stack of {big} chips is more than the {MAX_CHIPS} a seat may hold"
            )));
        }
        if min_bet == 0 || min_bet > MAX_CHIPS {
            return Err(EngineError::RuleOption(format!(
                "min_bet {min_bet} must be in 1..{MAX_CHIPS}"
            )));
        }
        Ok(Betting {
            stacks,
            bets: vec![0; n],
            committed: vec![0; n],
            folded: in_hand.iter().map(|&x| !x).collect(),
            min_bet,
            current_bet: 0,
            full_raise: min_bet,
            returned: vec![0; n],
            to_act: None,
            idle_turns: Vec::new(),
            moves: 0,
            acted_at: vec![None; n],
            pending: vec![false; n],
            range: None,
        })
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.stacks.len()
    }

    /// `seat` if it is a seat of this table, else a [`EngineError::RuleOption`];
    /// methods that take a seat without returning a `Result` need this first.
    pub fn check_seat(&self, seat: usize) -> Result<usize> {
        if seat < self.seats() {
            Ok(seat)
        } else {
            Err(EngineError::RuleOption(format!(
                "seat {seat} is out of range: the table has seats 0 to {}",
                self.seats() - 1
            )))
        }
    }

    fn check_no_round(&self, what: &str) -> Result<()> {
        // Forced bets come before the round opens; posting one mid-round would
        // leave the turn order working from stale bets.
        match self.to_act {
            None => Ok(()),
            Some(_) => Err(EngineError::IllegalAction(format!(
                "cannot {what} while a betting round is open"
            ))),
        }
    }

    /// Post a blind: a live bet of `amount` (or the whole stack if shorter).
    pub fn post_blind(&mut self, seat: usize, amount: u64) -> Result<u64> {
        self.check_seat(seat)?;
        self.check_no_round("post a blind")?;
        let paid = amount.min(self.stacks[seat]);
        self.stacks[seat] -= paid;
        self.bets[seat] += paid;
        self.committed[seat] += paid;
        self.current_bet = self.bets.iter().copied().max().unwrap_or(0);
        Ok(paid)
    }

    /// Post an ante: dead chips that go to the pot, not toward the round's bet.
    pub fn post_ante(&mut self, seat: usize, amount: u64) -> Result<u64> {
        self.check_seat(seat)?;
        self.check_no_round("post an ante")?;
        let paid = amount.min(self.stacks[seat]);
        self.stacks[seat] -= paid;
        self.committed[seat] += paid;
        Ok(paid)
    }

    /// Seats still contesting the hand (not folded).
    pub fn live(&self) -> Vec<usize> {
        (0..self.seats()).filter(|&s| !self.folded[s]).collect()
    }

    /// Whether `seat` is in the hand with chips behind (not folded, not all-in).
    pub fn can_bet(&self, seat: usize) -> bool {
        !self.folded[seat] && self.stacks[seat] > 0
    }

    /// Whether a further round could see any betting: two live seats with chips.
    pub fn betting_possible(&self) -> bool {
        (0..self.seats()).filter(|&s| self.can_bet(s)).count() >= 2
    }

    /// Chips `seat` must add to call (capped at its stack: an all-in call).
    pub fn to_call(&self, seat: usize) -> u64 {
        self.current_bet
            .saturating_sub(self.bets[seat])
            .min(self.stacks[seat])
    }

    /// Every chip put in this hand so far, current bets included.
    pub fn pot(&self) -> u64 {
        self.committed.iter().sum()
    }

    /// Open a betting round; the first seat able to act from `first` clockwise acts.
    pub fn start_round(&mut self, first: usize) -> Result<Option<usize>> {
        self.check_seat(first)?;
        self.current_bet = self.bets.iter().copied().max().unwrap_or(0);
        self.full_raise = self.min_bet;
        self.acted_at.iter_mut().for_each(|a| *a = None);
        for s in 0..self.seats() {
            self.pending[s] = self.can_bet(s);
        }
        self.advance(first + self.seats() - 1, false);
        Ok(self.to_act)
    }

    /// The legal (min, max) total bet for a bet or raise by `seat`, or `None`.
    pub fn raise_range(&self, seat: usize) -> Option<(u64, u64)> {
        if Some(seat) == self.to_act {
            self.range
        } else {
            self.compute_range(seat)
        }
    }

    fn compute_range(&self, seat: usize) -> Option<(u64, u64)> {
        let cb = self.current_bet;
        let all_in = self.stacks[seat] + self.bets[seat];
        if all_in <= cb {
            return None;
        }
        if let Some(acted) = self.acted_at[seat] {
            if cb.saturating_sub(acted) < self.full_raise {
                return None;
            }
        }
        let other_can_continue = (0..self.seats())
            .any(|s| s != seat && !self.folded[s] && self.stacks[s] + self.bets[s] > cb);
        if !other_can_continue {
            return None;
        }
        let low = if cb == 0 {
            self.min_bet
        } else {
            cb + self.full_raise
        };
        Some((low.min(all_in), all_in))
    }

    /// Pass the turn clockwise from `last` to the next seat that must act.
    fn advance(&mut self, last: usize, after_action: bool) {
        let n = self.seats();
        self.to_act = None;
        self.range = None;
        if self.folded.iter().filter(|&&f| !f).count() <= 1 {
            self.pending.iter_mut().for_each(|p| *p = false);
            return;
        }
        for step in 1..=n {
            let seat = (last + step) % n;
            if !self.pending[seat] {
                continue;
            }
            let bounds = self.compute_range(seat);
            if bounds.is_none() && self.bets[seat] >= self.current_bet {
                // Owes nothing and may not raise: no decision to make.
                self.pending[seat] = false;
                if after_action {
                    self.idle_turns.push((self.moves, seat));
                }
                continue;
            }
            self.to_act = Some(seat);
            self.range = bounds;
            return;
        }
    }

    fn fold(&mut self, seat: usize) {
        self.folded[seat] = true;
        self.pending[seat] = false;
        self.advance(seat, true);
    }

    fn check_or_call(&mut self, seat: usize) {
        let paid = self.to_call(seat);
        self.stacks[seat] -= paid;
        self.bets[seat] += paid;
        self.committed[seat] += paid;
        self.acted_at[seat] = Some(self.current_bet);
        self.pending[seat] = false;
        self.advance(seat, true);
    }

    fn bet_to(&mut self, seat: usize, total: u64) {
        let increase = total - self.current_bet;
        let paid = total - self.bets[seat];
        self.stacks[seat] -= paid;
        self.bets[seat] = total;
        self.committed[seat] += paid;
        if increase >= self.full_raise {
            // A full bet or raise reopens raising for everyone and sets the new step.
            self.full_raise = increase;
            self.acted_at.iter_mut().for_each(|a| *a = None);
        }
        self.current_bet = total;
        self.acted_at[seat] = Some(total);
        for s in 0..self.seats() {
            self.pending[s] = s != seat && self.can_bet(s);
        }
        self.advance(seat, true);
    }

    /// Why `mv` is illegal for the seat to act, or `None` when it is legal (the
    /// same words as the test oracle's `betting_illegal_reason`).
    pub fn illegal_reason(&self, mv: Move) -> Option<String> {
        let Some(seat) = self.to_act else {
            return Some("no seat is to act: the betting round is closed".to_string());
        };
        let cb = self.current_bet;
        let owed = cb.saturating_sub(self.bets[seat]);
        let (raising, total) = match mv {
            Move::Check if owed > 0 => return Some(format!("cannot check: {owed} to call")),
            Move::Fold | Move::Call if owed == 0 => {
                let word = if mv == Move::Fold { "fold" } else { "call" };
                return Some(format!("cannot {word}: nothing is owed, check instead"));
            }
            Move::Fold | Move::Check | Move::Call => return None,
            Move::To { raising, total } => (raising, total),
        };
        let verb = if raising { "raise" } else { "bet" };
        if !raising && cb > 0 {
            return Some(format!(
                "cannot bet: there is already a bet of {cb}, raise instead"
            ));
        }
        if raising && cb == 0 {
            return Some("cannot raise: there is no bet yet, bet instead".to_string());
        }
        let Some((low, high)) = self.range else {
            return Some(format!(
                "cannot {verb}: raising is closed to this seat, only call or fold"
            ));
        };
        match total {
            Some(t) if t < low => {
                let step = if raising {
                    self.full_raise
                } else {
                    self.min_bet
                };
                Some(format!(
                    "cannot {verb} to {t}: the minimum is {low} (a full {verb} of {step}), \
                     or all-in for {high}"
                ))
            }
            Some(t) if t <= high => None,
            _ => Some(format!(
                "cannot {verb} to {}: the most this seat can bet is {high} (all-in)",
                total.map_or_else(|| "more than any stack".to_string(), |t| t.to_string())
            )),
        }
    }

    /// Play `mv` for the seat to act; an illegal move is an
    /// [`EngineError::IllegalAction`] and changes nothing.
    pub fn apply(&mut self, mv: Move) -> Result<()> {
        if let Some(reason) = self.illegal_reason(mv) {
            return Err(EngineError::IllegalAction(reason));
        }
        let Some(seat) = self.to_act else {
            return Err(EngineError::IllegalAction(
                "no seat is to act: the betting round is closed".to_string(),
            ));
        };
        self.moves += 1;
        match mv {
            Move::Fold => self.fold(seat),
            Move::Check | Move::Call => self.check_or_call(seat),
            Move::To { total, .. } => self.bet_to(seat, total.unwrap_or(0)),
        }
        Ok(())
    }

    /// The listed choices of the seat to act, as codes: fold/check/call, then the
    /// minimum bet or raise, the given fractions of the pot (a raise of `f` pot is to
    /// `call + f * pot after calling`) and all-in.
    pub fn listed(&self, pot_fractions: &[f64]) -> Vec<i64> {
        let Some(seat) = self.to_act else {
            return Vec::new();
        };
        let cb = self.current_bet;
        let owed = cb.saturating_sub(self.bets[seat]);
        let mut codes = if owed > 0 {
            vec![FOLD, CALL]
        } else {
            vec![CHECK]
        };
        if let Some((low, high)) = self.range {
            let raising = cb > 0;
            codes.push(bet_code(low, raising));
            let pot_after_call = (self.pot() + owed) as f64;
            let mut last = low;
            for &f in pot_fractions {
                // Truncation toward zero, as Python's int() of the same float.
                // Saturating: a huge or infinite fraction is simply above all-in.
                let size = cb.saturating_add((f * pot_after_call) as u64);
                if last < size && size < high {
                    codes.push(bet_code(size, raising));
                    last = size;
                }
            }
            if high > low {
                codes.push(bet_code(high, raising));
            }
        }
        codes
    }

    /// Close the round: return the uncalled excess and clear the bets. Returns the
    /// chips handed back (0 when every chip was matched).
    pub fn end_round(&mut self) -> u64 {
        let (mut top, mut first, mut second) = (0usize, None::<u64>, 0u64);
        for (s, &c) in self.committed.iter().enumerate() {
            match first {
                Some(f) if c <= f => {
                    if c > second {
                        second = c;
                    }
                }
                _ => {
                    top = s;
                    second = first.unwrap_or(0);
                    first = Some(c);
                }
            }
        }
        let excess = first.unwrap_or(0) - second;
        if excess > 0 {
            self.committed[top] -= excess;
            self.stacks[top] += excess;
            self.returned[top] += excess;
        }
        self.bets.iter_mut().for_each(|b| *b = 0);
        self.current_bet = 0;
        self.to_act = None;
        self.range = None;
        excess
    }

    /// The main pot then the side pots, layered by contribution: each layer holds,
    /// from every seat, the chips between the previous level and this one; only live
    /// seats whose contribution reaches the level may win it. Adjacent layers with
    /// the same eligible seats form one pot.
    pub fn pots(&self) -> Vec<Pot> {
        let live = self.live();
        let pot = self.pot();
        if live.len() == 1 {
            return if pot > 0 {
                vec![Pot {
                    amount: pot,
                    eligible: live,
                }]
            } else {
                Vec::new()
            };
        }
        let top = self.committed.iter().copied().max().unwrap_or(0);
        if live.iter().all(|&s| self.committed[s] == top) {
            // Every live seat put in the most: one pot, whatever the folded seats gave.
            return vec![Pot {
                amount: pot,
                eligible: live,
            }];
        }
        let mut levels: Vec<u64> = self.committed.iter().copied().filter(|&c| c > 0).collect();
        levels.sort_unstable();
        levels.dedup();
        let mut result: Vec<Pot> = Vec::new();
        let mut prev = 0;
        for level in levels {
            let amount: u64 = self
                .committed
                .iter()
                .map(|&c| c.min(level) - c.min(prev))
                .sum();
            let eligible: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&s| self.committed[s] >= level)
                .collect();
            match result.last_mut() {
                // Chips above every live seat's contribution were put in by seats that
                // later folded; they stay with the highest pot a live seat contests.
                Some(last) if eligible.is_empty() || eligible == last.eligible => {
                    last.amount += amount;
                }
                _ => result.push(Pot { amount, eligible }),
            }
            prev = level;
        }
        result
    }

    /// Settle every pot: the eligible seats with the highest `strength` win it, the
    /// split gives the odd chips clockwise from `first`; the winnings go onto the
    /// stacks. A pot nobody may win is an error and nothing is paid.
    pub fn award(&mut self, strength: &[u32], first: usize) -> Result<Vec<PotResult>> {
        if strength.len() != self.seats() {
            return Err(EngineError::RuleOption(format!(
                "award needs one hand strength per seat ({}), got {}",
                self.seats(),
                strength.len()
            )));
        }
        self.check_seat(first)?;
        let pots = self.pots();
        if pots.iter().any(|p| p.eligible.is_empty()) {
            return Err(EngineError::IllegalAction(
                "a pot has no live seat to win it".to_string(),
            ));
        }
        let mut results = Vec::with_capacity(pots.len());
        for pot in pots {
            let winners = if pot.eligible.len() == 1 {
                pot.eligible.clone()
            } else {
                let best = pot.eligible.iter().map(|&s| strength[s]).max().unwrap_or(0);
                pot.eligible
                    .iter()
                    .copied()
                    .filter(|&s| strength[s] == best)
                    .collect()
            };
            let shares = split_amount(pot.amount, &winners, first, self.seats());
            for &(seat, chips) in &shares {
                self.stacks[seat] += chips;
            }
            results.push(PotResult {
                amount: pot.amount,
                eligible: pot.eligible,
                winners,
                shares,
            });
        }
        self.committed.iter_mut().for_each(|c| *c = 0);
        Ok(results)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(stacks: &[u64]) -> Betting {
        let mut b = Betting::new(stacks.to_vec(), &vec![true; stacks.len()], 20).unwrap();
        b.start_round(0).unwrap();
        b
    }

    fn act(b: &mut Betting, text: &str) {
        b.apply(Move::parse(text).unwrap()).unwrap();
    }

    // NLH-22, NLH-23: a raise is a total and increases by the last full increment.
    #[test]
    fn raise_is_a_total_with_full_increments() {
        let mut b = table(&[1000, 1000, 1000]);
        act(&mut b, "bet 100");
        let reason = b.illegal_reason(Move::parse("raise 150").unwrap()).unwrap();
        assert!(reason.contains("minimum is 200"), "{reason}");
        act(&mut b, "raise 300");
        assert_eq!(b.raise_range(2), Some((500, 1000)));
        assert!(b.apply(Move::parse("raise 1001").unwrap()).is_err());
        assert_eq!(b.bets, vec![100, 300, 0]);
    }

    // NLH-25, OP-22: a short all-in does not reopen raising for seats that acted.
    #[test]
    fn short_all_in_does_not_reopen() {
        let mut b = table(&[1000, 1000, 150]);
        act(&mut b, "bet 100");
        act(&mut b, "call");
        act(&mut b, "raise 150");
        assert_eq!(b.to_act, Some(0));
        assert_eq!(b.raise_range(0), None);
        assert_eq!(b.listed(&[0.5, 1.0]), vec![FOLD, CALL]);
    }

    // NLH-41: the uncalled excess goes back; NLH-42..45: side pots by contribution.
    #[test]
    fn uncalled_excess_and_side_pots() {
        let mut b = table(&[100, 300, 1000, 1000]);
        act(&mut b, "bet 100");
        act(&mut b, "raise 300");
        act(&mut b, "raise 600");
        act(&mut b, "fold");
        assert_eq!(b.end_round(), 300);
        let pots: Vec<(u64, Vec<usize>)> = b
            .pots()
            .into_iter()
            .map(|p| (p.amount, p.eligible))
            .collect();
        assert_eq!(pots, vec![(300, vec![0, 1, 2]), (400, vec![1, 2])]);
        let results = b.award(&[5, 1, 3, 0], 0).unwrap();
        assert_eq!(results[0].winners, vec![0]);
        assert_eq!(results[1].shares, vec![(2, 400)]);
        assert_eq!(b.stacks, vec![300, 0, 1100, 1000]);
    }

    // NLH-46: ties split, odd chips clockwise from the first seat.
    #[test]
    fn odd_chips_go_clockwise() {
        assert_eq!(split_amount(101, &[1, 3], 2, 4), vec![(3, 51), (1, 50)]);
        assert_eq!(
            split_amount(302, &[0, 1, 2], 1, 4),
            vec![(1, 101), (2, 101), (0, 100)]
        );
    }

    #[test]
    fn codes_round_trip() {
        assert_eq!(Move::from_code(bet_code(60, true)), Move::parse("raise 60"));
        assert_eq!(Move::from_code(bet_code(20, false)), Move::parse("bet 20"));
        assert_eq!(Move::from_code(FOLD), Some(Move::Fold));
        assert_eq!(Move::from_code(-7), None);
        assert_eq!(Move::parse("raise x"), None);
    }

    #[test]
    fn tables_outside_two_to_twelve_seats_are_refused() {
        for n in [0, 1, MAX_SEATS + 1] {
            assert!(
                Betting::new(vec![100; n], &vec![true; n], 20).is_err(),
                "{n}"
            );
        }
        let b = table(&[100; MAX_SEATS]);
        assert_eq!(b.check_seat(MAX_SEATS - 1), Ok(MAX_SEATS - 1));
        assert!(b.check_seat(MAX_SEATS).is_err());
    }

    #[test]
    fn huge_pot_fractions_list_nothing_beyond_all_in() {
        let mut b = table(&[1000, 1000]);
        act(&mut b, "bet 100");
        let codes = b.listed(&[f64::INFINITY, f64::NAN, -1.0, 1e300]);
        let raises = [bet_code(200, true), bet_code(1000, true)];
        assert_eq!(codes, [&[FOLD, CALL][..], &raises].concat());
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut b = table(&[1000, 1000]);
        let before = b.clone();
        assert!(b.apply(Move::Call).is_err());
        assert!(b
            .apply(Move::parse("bet 99999999999999999999999").unwrap())
            .is_err());
        assert_eq!(b, before);
    }
}
