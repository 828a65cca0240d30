//! Guandan single deals (`match=False`) for [`super::VectorEnv`]: the engine's
//! card play ([`Deal`]) dealt as python/cardkit/games/guandan.py deals its first
//! deal, the card-play part of the tensor from the shared writer, and the
//! single-deal tail (team levels, phase) written here as the Python state writes
//! it; tests/test_vector_env.py plays both side by side.
//!
//! Action ids are the game's fixed index: `pass` 0, plays from 1; the 54
//! `return` ids after them are never legal in a single deal (no tribute).

use super::Episodes;
use crate::climbing::guandan::deal::{partner, Deal, NO_CARDS, SEATS};
use crate::climbing::guandan::observe::{write_card_play, OBSERVATION_LEN, PHASE, TEAM_LEVELS};
use crate::climbing::guandan::{action_index, Hand, ACE};
use crate::deck::deck;
use crate::error::Result;
use crate::rng::{derive_seed, shuffle_seeded};

/// Cards dealt to each seat.
const HAND_SIZE: usize = 27;
/// The `return <card>` ids, one per card type, after the play index.
const RETURN_IDS: usize = 54;
/// Level ranks `2..A`: the width of each team's one-hot.
const LEVELS: usize = ACE as usize + 1;
/// Stream offset of the first leader's draw, apart from the deal shuffles
/// (Python's `_LEADER_STREAM`).
const LEADER_STREAM: u64 = 1 << 32;

/// Guandan single deals at one level.
#[derive(Clone, Copy, Debug)]
pub struct GuandanEpisodes {
    /// The deal's level rank (0..=12, `2..A`), both teams' level.
    pub level: u8,
    /// End the deal as soon as one team has finished first and second.
    pub double_win_ends: bool,
}

/// One Guandan deal in progress.
pub struct GuandanEpisode {
    deal: Deal,
    /// The legal ids of the seat to act, listed once per move.
    ids: Vec<u32>,
}

impl GuandanEpisode {
    /// Ascending index ids of the legal moves (a pass is 0).
    fn list_ids(&mut self) {
        self.ids.clear();
        self.deal.legal_ids(&mut self.ids);
        self.ids.sort_unstable();
        self.ids.dedup();
    }
}

impl GuandanEpisodes {
    /// The levels each team climbs in a finished deal (3, 2 or 1 for the first
    /// finisher's team as its partner came 2nd, 3rd or 4th), zero while in play.
    fn climbs(deal: &Deal) -> [u8; 2] {
        let mut climbs = [0; 2];
        if let (true, Some(&first)) = (deal.is_over(), deal.places().first()) {
            let mate = deal.places().iter().position(|&s| s == partner(first));
            // Places 2, 3, 4 (index 1, 2, 3) climb 3, 2, 1.
            climbs[usize::from(first % 2)] = mate.map_or(0, |i| 4 - i as u8);
        }
        climbs
    }
}

impl Episodes for GuandanEpisodes {
    type Episode = GuandanEpisode;

    fn num_players(&self) -> usize {
        SEATS
    }

    fn num_actions(&self) -> usize {
        action_index().len() + RETURN_IDS
    }

    fn observation_len(&self) -> usize {
        OBSERVATION_LEN
    }

    /// The shuffled double pack, 27 cards a seat in turn; the leader drawn from
    /// the seed's own stream.
    fn start(&self, seed: u64) -> Result<GuandanEpisode> {
        let mut order = deck("double108")?;
        shuffle_seeded(&mut order, derive_seed(seed, 0));
        let mut hands = [NO_CARDS; SEATS];
        for (s, hand) in hands.iter_mut().enumerate() {
            *hand = Hand::from_cards(&order[HAND_SIZE * s..HAND_SIZE * (s + 1)])?;
        }
        let leader = (derive_seed(seed, LEADER_STREAM) % SEATS as u64) as u8;
        let mut e = GuandanEpisode {
            deal: Deal::new(hands, self.level, leader, self.double_win_ends)?,
            ids: Vec::new(),
        };
        e.list_ids();
        Ok(e)
    }

    fn to_act(&self, e: &GuandanEpisode) -> Option<usize> {
        e.deal.to_move().map(usize::from)
    }

    fn is_legal(&self, e: &GuandanEpisode, id: usize) -> bool {
        e.ids.iter().any(|&k| k as usize == id)
    }

    fn apply(&self, e: &mut GuandanEpisode, id: usize) -> Result<()> {
        // Checked legal by the env, so below the index's length.
        e.deal.apply_id(id as u32)?;
        e.list_ids();
        Ok(())
    }

    fn legal_ids(&self, e: &GuandanEpisode, out: &mut Vec<u32>) {
        out.extend_from_slice(&e.ids);
    }

    /// The shared card-play part, then the tail a single deal has: the team
    /// levels (after the climb once over) and the card-play phase while in play.
    fn observe(&self, e: &GuandanEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        out.fill(0.0);
        write_card_play(&e.deal, seat, out);
        let climbs = Self::climbs(&e.deal);
        let team = seat % 2;
        for (k, t) in [team, 1 - team].into_iter().enumerate() {
            let level = (self.level + climbs[t]).min(ACE);
            out[TEAM_LEVELS + LEVELS * k + usize::from(level)] = 1.0;
        }
        if !e.deal.is_over() {
            out[PHASE + 1] = 1.0;
        }
        Ok(())
    }

    /// The first finisher's team wins the levels it climbs, the other team loses them.
    fn returns(&self, e: &GuandanEpisode, out: &mut [f32]) {
        let climbs = Self::climbs(&e.deal);
        let lead = f32::from(climbs[0]) - f32::from(climbs[1]);
        for (s, r) in out.iter_mut().enumerate() {
            *r = if s % 2 == 0 { lead } else { -lead };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_deals_end_with_opposite_returns() {
        let game = GuandanEpisodes {
            level: 3,
            double_win_ends: true,
        };
        let mut rng = crate::rng::CardRng::new(4);
        for seed in 0..20 {
            let mut e = game.start(seed).unwrap();
            while game.to_act(&e).is_some() {
                let id = e.ids[rng.below(e.ids.len() as u64) as usize];
                game.apply(&mut e, id as usize).unwrap();
            }
            let mut out = [0.0f32; SEATS];
            game.returns(&e, &mut out);
            assert!([1.0, 2.0, 3.0].contains(&out[0].abs()));
            assert_eq!(out[0], -out[1]);
            assert_eq!(out[0], out[2]);
        }
    }
}
