//! Tractor single deals (`match=False`) for [`super::VectorEnv`] and the AEC
//! env's `AecCore`: the whole deal ([`Round`]: dealing, declaring, burying, card
//! play, scoring) dealt as python/cardkit/games/tractor.py deals its first deal,
//! which steps the same `Round`; tests/test_vector_env.py checks that the two
//! agree on the same seeds.
//!
//! Action ids are the game's fixed index (docs/tractor.md, "Learning interface").

use super::Episodes;
use crate::deck::deck;
use crate::error::{EngineError, Result};
use crate::rng::{derive_seed, shuffle_seeded};
use crate::trick::tractor::deal::SEATS;
use crate::trick::tractor::observe::OBSERVATION_LEN;
use crate::trick::tractor::round::{Round, ACE};
use crate::trick::tractor::NUM_ACTIONS;

/// Tractor single deals at one level, built by [`TractorEpisodes::new`] (the
/// one check of its options, for the vector env and the AEC env alike).
#[derive(Clone, Copy, Debug)]
pub struct TractorEpisodes {
    /// The deal's level rank (0..=12, `2..A`), both teams' level.
    level: u8,
    /// The seat that speaks first, and deals if nobody declares.
    first_speaker: u8,
}

impl TractorEpisodes {
    /// Single deals at `level` (0..=12) declared from `first_speaker` (a seat 0..3).
    pub fn new(level: u8, first_speaker: usize) -> Result<TractorEpisodes> {
        if level > ACE || first_speaker >= SEATS {
            return Err(EngineError::RuleOption(format!(
                "level {level} must be 0-12 and first_speaker {first_speaker} a seat 0..3"
            )));
        }
        Ok(TractorEpisodes {
            level,
            first_speaker: first_speaker as u8,
        })
    }
}

/// One Tractor deal in progress.
pub struct TractorEpisode {
    round: Round,
    /// The legal ids of the seat to act, listed once per move.
    ids: Vec<u32>,
}

impl Episodes for TractorEpisodes {
    type Episode = TractorEpisode;

    fn num_players(&self) -> usize {
        SEATS
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS as usize
    }

    fn observation_len(&self) -> usize {
        OBSERVATION_LEN
    }

    /// The double pack shuffled by `derive_seed(seed, 0)`, as a Python state
    /// seeded `seed` deals its first deal.
    fn start(&self, seed: u64) -> Result<TractorEpisode> {
        let mut order = deck("double108")?;
        shuffle_seeded(&mut order, derive_seed(seed, 0));
        let round = Round::new(&order, [self.level; 2], None, self.first_speaker)?;
        let mut ids = Vec::with_capacity(64);
        round.legal_ids(&mut ids);
        Ok(TractorEpisode { round, ids })
    }

    fn to_act(&self, e: &TractorEpisode) -> Option<usize> {
        e.round.to_act().map(usize::from)
    }

    fn is_legal(&self, e: &TractorEpisode, id: usize) -> bool {
        e.ids.binary_search(&(id as u32)).is_ok()
    }

    fn apply(&self, e: &mut TractorEpisode, id: usize) -> Result<()> {
        // Checked legal by the env, so below the index's length.
        e.round.apply(id as u32)?;
        e.round.legal_ids(&mut e.ids);
        Ok(())
    }

    fn legal_ids(&self, e: &TractorEpisode, out: &mut Vec<u32>) {
        out.extend_from_slice(&e.ids);
    }

    fn observe(&self, e: &TractorEpisode, seat: usize, out: &mut [f32]) -> Result<()> {
        e.round.observe(seat, out)
    }

    fn returns(&self, e: &TractorEpisode, out: &mut [f32]) {
        out.copy_from_slice(&e.round.returns());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trick::tractor::round::Phase;

    #[test]
    fn random_deals_conserve_cards_and_end_with_opposite_returns() {
        assert!(TractorEpisodes::new(13, 0).is_err());
        assert!(TractorEpisodes::new(0, 4).is_err());
        let game = TractorEpisodes::new(5, 1).unwrap();
        let mut rng = crate::rng::CardRng::new(4);
        let mut exposed = 0;
        for seed in 0..60 {
            let mut e = game.start(seed).unwrap();
            while let Some(seat) = game.to_act(&e) {
                assert!(!e.ids.is_empty() && e.ids.is_sorted());
                // Even seeds pass throughout the declaring, exposing the kitty.
                let id = if seed % 2 == 0 && e.round.phase() == Phase::Declare {
                    0
                } else {
                    e.ids[rng.below(e.ids.len() as u64) as usize]
                };
                if e.round.phase() == Phase::Play {
                    assert_eq!(e.round.play().and_then(|d| d.to_move()), Some(seat as u8));
                }
                game.apply(&mut e, id as usize).unwrap();
            }
            exposed += u32::from(e.round.exposed());
            let deal = e.round.play().unwrap();
            let points: u32 = deal.points().iter().sum();
            assert_eq!(points + e.round.buried().points(), 200);
            let mut out = [0.0f32; SEATS];
            game.returns(&e, &mut out);
            assert_eq!(out[0], -out[1]);
            assert_eq!(out[0], out[2]);
            let mut obs = vec![0.0; OBSERVATION_LEN];
            game.observe(&e, 0, &mut obs).unwrap();
        }
        assert!(exposed >= 30);
    }
}
