//! Fixed action indexes of the climbing games, for learning code: every play a
//! hand of the game can make under its rules, numbered once per rank multiset after
//! the game's non-play ids (pass, and Dou Dizhu's bids).
//!
//! Both games build theirs here from their own leads of the whole pack, so the
//! numbering rule (type, length, main rank, wings) is written once.

use super::playout::Move;
use super::{Combination, Kind, Ranks};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-xorshift hasher for `u64` rank keys: the keys are not attacker-chosen,
/// and SipHash dominated the cost of batch id lookups.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let mut z = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z ^= z >> 29;
        self.0 = z.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (z >> 32);
    }
}

/// The id of `pass` in every climbing index.
pub const PASS_ID: u32 = 0;

/// A fixed action index: ids `0..first_play` are the game's non-play actions
/// (`pass` is 0), then one id per rank multiset that forms a play, ordered by type
/// (the game's type order), length, main rank, then the wing count vector read
/// from the strongest rank down.
pub struct ActionIndex {
    first_play: u32,
    plays: Vec<Combination>,
    ids: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

impl ActionIndex {
    /// The index of `plays` (every lead of the game's whole pack) that a hand of at
    /// most `max_cards` cards can make, numbered from `first_play` in `kinds` order.
    /// A rank multiset read several ways (Zheng Shangyou's `3333`, a bomb or the
    /// heavenly bomb) gets one id: actions name ranks, not readings.
    pub fn build(
        first_play: u32,
        kinds: &[Kind],
        plays: Vec<Combination>,
        max_cards: usize,
    ) -> ActionIndex {
        let mut plays: Vec<Combination> = plays
            .into_iter()
            .filter(|c| c.cards.len() <= max_cards)
            .collect();
        plays.sort_by_key(|c| {
            let kind_pos = kinds
                .iter()
                .position(|&k| k == c.kind)
                .unwrap_or(kinds.len());
            // Wing order: the count vector read from the strongest rank down.
            let mut wings = c.cards.0;
            wings.reverse();
            (kind_pos, c.length, c.main, wings)
        });
        let mut ids: HashMap<u64, u32, BuildHasherDefault<KeyHasher>> = HashMap::default();
        plays.retain(|c| {
            let next = first_play + ids.len() as u32;
            match ids.entry(c.cards.key()) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(next);
                    true
                }
            }
        });
        ActionIndex {
            first_play,
            plays,
            ids,
        }
    }

    /// Total number of ids (the non-play actions and every play).
    pub fn len(&self) -> usize {
        self.first_play as usize + self.plays.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The id of the first play (the non-play actions come before it).
    pub fn first_play(&self) -> u32 {
        self.first_play
    }

    /// The plays in id order, from [`ActionIndex::first_play`].
    pub fn plays(&self) -> &[Combination] {
        &self.plays
    }

    /// The id of the play with these cards, if they form a play of the index.
    pub fn play_id(&self, cards: &Ranks) -> Option<u32> {
        self.key_id(cards.key())
    }

    /// The id of the play whose [`Ranks::key`] is `key`, if it is in the index.
    pub fn key_id(&self, key: u64) -> Option<u32> {
        self.ids.get(&key).copied()
    }

    /// The id of a card-play move: [`PASS_ID`] for pass.
    pub fn move_id(&self, mv: &Move) -> Option<u32> {
        match mv {
            None => Some(PASS_ID),
            Some(c) => self.play_id(&c.cards),
        }
    }

    /// The play with id `id` (`None` for the non-play ids and out-of-range ids).
    pub fn play(&self, id: u32) -> Option<&Combination> {
        id.checked_sub(self.first_play)
            .and_then(|i| self.plays.get(i as usize))
    }
}
