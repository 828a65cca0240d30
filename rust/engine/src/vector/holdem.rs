//! Texas Hold'em single hands for [`super::VectorEnv`]: the first hand of
//! python/cardkit/games/holdem.py with `match=False` (its button and blinds, its
//! dealing from the seeded deck, the street machine and the showdown), on the
//! engine's [`Betting`] core and hand evaluator. The action ids (the words, then
//! the bet-size grid of python/cardkit/games/_betting.py) are ported here, and
//! the observation tensor is the State API's own writer (`crate::holdem`);
//! tests/test_vector_env.py plays both side by side.

use super::Episodes;
use crate::betting::{Betting, Move, CALL, CHECK, FOLD, MAX_SEATS};
use crate::cards::Card;
use crate::deck::deck;
use crate::error::{EngineError, Result};
use crate::holdem::{
    observation_len, write_observation, HoldemView, ROW_CALLED, ROW_CHECKED, ROW_RAISES,
};
use crate::poker::rank_cards;
use crate::rng::{derive_seed, shuffle_seeded};

/// The listed pot fractions, the grid's middle points (Python's `POT_FRACTIONS`).
const POT_FRACTIONS: [f64; 2] = [0.5, 1.0];
/// Ids: fold, check, call, then the grid (minimum, the pot fractions, all-in).
const GRID_START: usize = 3;
const NUM_IDS: usize = GRID_START + POT_FRACTIONS.len() + 2;

/// Hold'em single hands: every seat's starting chips, the blinds and the button
/// of the hand (placed as the Python state places the first hand's).
#[derive(Clone, Debug)]
pub struct HoldemEpisodes {
    stacks: Vec<u64>,
    blinds: (u64, u64),
    total: f64,
    button: usize,
    small_blind: usize,
    big_blind: usize,
}

/// One hand in progress.
pub struct HoldemEpisode {
    betting: Betting,
    deck: Vec<Card>,
    next_card: usize,
    holes: Vec<Option<[Card; 2]>>,
    board: Vec<Card>,
    over: bool,
    /// `(seat, row)` of this street's checks, calls, bets and raises.
    street_actions: Vec<(usize, usize)>,
    /// `(id, code)` of the seat to act's listed actions, in listing order.
    listed: Vec<(u32, i64)>,
}

impl HoldemEpisodes {
    /// Hands at a table of `stacks.len()` seats (2-12, at least two with chips)
    /// with blinds `(small, big)` (`1 <= big`, `small <= big`) and the button at
    /// `button` (moved on to the next seat with chips if it has none).
    pub fn new(stacks: Vec<u64>, blinds: (u64, u64), button: usize) -> Result<HoldemEpisodes> {
        let n = stacks.len();
        let bad = |why: String| Err(EngineError::RuleOption(why));
        if !(2..=MAX_SEATS).contains(&n) {
            return bad(format!("players must be 2..{MAX_SEATS}, got {n}"));
        }
        if stacks.iter().filter(|&&s| s > 0).count() < 2 {
            return bad("stacks needs at least two players with chips".into());
        }
        if blinds.1 == 0 || blinds.0 > blinds.1 {
            return bad(format!(
                "blinds must be (small, big) with 0 <= small <= big and big >= 1, got {blinds:?}"
            ));
        }
        if button >= n {
            return bad(format!("button {button} is not a seat 0..{}", n - 1));
        }
        // Betting::new bounds each stack; checked here so `start` cannot fail on it.
        Betting::new(stacks.clone(), &vec![true; n], blinds.1)?;
        let next = |seat: usize| {
            (1..=n)
                .map(|k| (seat + k) % n)
                .find(|&s| stacks[s] > 0)
                .unwrap_or(seat)
        };
        let button = if stacks[button] == 0 {
            next(button)
        } else {
            button
        };
        let (small_blind, big_blind) = if stacks.iter().filter(|&&s| s > 0).count() == 2 {
            // Heads-up the button posts the small blind.
            (button, next(button))
        } else {
            (next(button), next(next(button)))
        };
        let total = stacks.iter().sum::<u64>() as f64;
        Ok(HoldemEpisodes {
            stacks,
            blinds,
            total,
            button,
            small_blind,
            big_blind,
        })
    }

    fn seats(&self) -> usize {
        self.stacks.len()
    }

    fn next_seat(&self, seat: usize) -> usize {
        (seat + 1) % self.seats()
    }

    /// The street machine after a betting round closes: the next street (burn
    /// and deal), the run-out when nobody can bet, or the showdown and the end.
    fn advance(&self, e: &mut HoldemEpisode) -> Result<()> {
        loop {
            e.betting.end_round();
            let live = e.betting.live();
            if live.len() == 1 || e.board.len() == 5 {
                return self.settle(e, &live);
            }
            let count = if e.board.is_empty() { 3 } else { 1 };
            let start = e.next_card + 1;
            e.board.extend_from_slice(&e.deck[start..start + count]);
            e.next_card = start + count;
            e.street_actions.clear();
            if e.betting.betting_possible()
                && e.betting
                    .start_round(self.next_seat(self.button))?
                    .is_some()
            {
                return Ok(());
            }
        }
    }

    /// Award the pots: the live seats' best five of seven when more than one is
    /// left, odd chips clockwise from the button's left.
    fn settle(&self, e: &mut HoldemEpisode, live: &[usize]) -> Result<()> {
        let mut strength = vec![0; self.seats()];
        if live.len() > 1 {
            for &seat in live {
                let Some(hole) = e.holes[seat] else {
                    return Err(EngineError::IllegalAction(format!(
                        "live seat {seat} holds no cards"
                    )));
                };
                let mut cards = e.board.clone();
                cards.extend_from_slice(&hole);
                strength[seat] = rank_cards(&cards)?.value();
            }
        }
        e.betting.award(&strength, self.next_seat(self.button))?;
        e.over = true;
        Ok(())
    }

    /// List the seat to act's choices with their ids: the words' fixed ids, and
    /// each bet size the id of the first grid point with its total (python's
    /// `turn_ids`).
    fn list(&self, e: &mut HoldemEpisode) {
        e.listed.clear();
        let b = &e.betting;
        let Some(seat) = b.to_act.filter(|_| !e.over) else {
            return;
        };
        let mut totals = [0u64; NUM_IDS - GRID_START];
        if let Some((low, high)) = b.raise_range(seat) {
            let current = b.current_bet;
            let after_call = (b.pot() + current.saturating_sub(b.bets[seat])) as f64;
            totals[0] = low;
            for (t, f) in totals[1..].iter_mut().zip(POT_FRACTIONS) {
                // The listing's own arithmetic: a truncated float product.
                *t = current.saturating_add((f * after_call) as u64);
            }
            totals[NUM_IDS - GRID_START - 1] = high;
        }
        for code in b.listed(&POT_FRACTIONS) {
            let id = match code {
                FOLD => 0,
                CHECK => 1,
                CALL => 2,
                _ => {
                    let total = (code / 2) as u64;
                    GRID_START + totals.iter().position(|&t| t == total).unwrap_or(0)
                }
            };
            e.listed.push((id as u32, code));
        }
    }
}

impl Episodes for HoldemEpisodes {
    type Episode = HoldemEpisode;

    fn num_players(&self) -> usize {
        self.seats()
    }

    fn num_actions(&self) -> usize {
        NUM_IDS
    }

    fn observation_len(&self) -> usize {
        observation_len(self.seats())
    }

    /// The deck shuffled from the hand's seed; one card at a time clockwise from
    /// the button's left to the seats with chips, twice; the blinds; the first
    /// round from the big blind's left.
    fn start(&self, seed: u64) -> Result<HoldemEpisode> {
        let n = self.seats();
        let mut order = deck("standard52")?;
        shuffle_seeded(&mut order, derive_seed(seed, 0));
        let seats: Vec<usize> = (1..=n)
            .map(|k| (self.button + k) % n)
            .filter(|&s| self.stacks[s] > 0)
            .collect();
        let k = seats.len();
        let mut holes = vec![None; n];
        for (i, &seat) in seats.iter().enumerate() {
            holes[seat] = Some([order[i], order[i + k]]);
        }
        let in_hand: Vec<bool> = self.stacks.iter().map(|&s| s > 0).collect();
        let mut betting = Betting::new(self.stacks.clone(), &in_hand, self.blinds.1)?;
        betting.post_blind(self.small_blind, self.blinds.0)?;
        betting.post_blind(self.big_blind, self.blinds.1)?;
        let first = (1..=n)
            .map(|j| (self.big_blind + j) % n)
            .find(|&s| self.stacks[s] > 0)
            .unwrap_or(self.big_blind);
        let opened = betting.start_round(first)?.is_some();
        let mut e = HoldemEpisode {
            betting,
            deck: order,
            next_card: 2 * k,
            holes,
            board: Vec::with_capacity(5),
            over: false,
            street_actions: Vec::new(),
            listed: Vec::new(),
        };
        if !opened {
            self.advance(&mut e)?;
        }
        self.list(&mut e);
        Ok(e)
    }

    fn to_act(&self, e: &HoldemEpisode) -> Option<usize> {
        e.betting.to_act.filter(|_| !e.over)
    }

    fn is_legal(&self, e: &HoldemEpisode, id: usize) -> bool {
        e.listed.iter().any(|&(k, _)| k as usize == id)
    }

    fn apply(&self, e: &mut HoldemEpisode, id: usize) -> Result<()> {
        let (seat, code) = match (self.to_act(e), e.listed.iter().find(|l| l.0 as usize == id)) {
            (Some(seat), Some(&(_, code))) => (seat, code),
            _ => {
                return Err(EngineError::IllegalAction(format!(
                    "id {id} is not legal now"
                )))
            }
        };
        let Some(mv) = Move::from_code(code) else {
            return Err(EngineError::IllegalAction(format!(
                "code {code} is not a betting action"
            )));
        };
        let row = match mv {
            Move::Fold => None,
            Move::Check => Some(ROW_CHECKED),
            Move::Call => Some(ROW_CALLED),
            Move::To { .. } => Some(ROW_RAISES),
        };
        e.betting.apply(mv)?;
        if let Some(row) = row {
            e.street_actions.push((seat, row));
        }
        if e.betting.to_act.is_none() {
            self.advance(e)?;
        }
        self.list(e);
        Ok(())
    }

    fn legal_ids(&self, e: &HoldemEpisode, out: &mut Vec<u32>) {
        out.extend(e.listed.iter().map(|&(id, _)| id));
    }

    fn observe(&self, e: &HoldemEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        let view = HoldemView {
            betting: &e.betting,
            total: self.total,
            holes: &e.holes,
            board: &e.board,
            button: self.button,
            small_blind: self.small_blind,
            big_blind: self.big_blind,
            to_act: self.to_act(e),
            street_actions: &e.street_actions,
        };
        write_observation(&view, seat, out)
    }

    fn returns(&self, e: &HoldemEpisode, out: &mut [f32]) {
        for ((r, &now), &start) in out.iter_mut().zip(&e.betting.stacks).zip(&self.stacks) {
            *r = (now as f64 - start as f64) as f32;
        }
    }
}
