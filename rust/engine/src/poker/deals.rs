//! Deals of one combo per player with no card twice: whether any exists, which
//! players stand in the way when none does, and drawing deals by weight where
//! the ranges overlap too much for redrawing on every collision.
//!
//! The weight of a deal is the product of its combos' weights, and a deal with a
//! card twice weighs nothing. Both the feasibility search and the sampler work
//! player by player and remember, per player, only the used cards that later
//! players' combos could still collide with: tight ranges (where collisions are
//! frequent) share few cards, so few such keys exist.

use super::ranges::Combo;
use crate::cancel::Cancel;
use crate::cardset::CardSet;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A player's live combos with their weights.
pub(super) type Combos = [(Combo, f64)];

/// Combos a feasibility search may try before giving up (a few milliseconds).
const SEARCH_STEPS: usize = 1 << 18;
/// Work a [`DealSampler`] may take to build: each key costs its combos plus a
/// share for its memory, which keeps a build within about a second and tens of
/// megabytes.
const SAMPLER_WORK: usize = 1 << 22;
const KEY_COST: usize = 16;

/// Hashes card-set keys with one multiply and a shift: these maps are hit once
/// per combo per drawn deal, where SipHash would dominate.
#[derive(Default)]
pub(super) struct SetHasher(u64);

impl Hasher for SetHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }
}

type SetMap<V> = HashMap<u64, V, BuildHasherDefault<SetHasher>>;
type SetSet = HashSet<u64, BuildHasherDefault<SetHasher>>;

/// `unions[p]`: every card some combo of `levels[p..]` uses.
fn suffix_unions<'a>(levels: impl DoubleEndedIterator<Item = &'a Combos>) -> Vec<CardSet> {
    let mut unions = vec![CardSet::EMPTY];
    for combos in levels.rev() {
        let later = unions.last().copied().unwrap_or(CardSet::EMPTY);
        unions.push(combos.iter().fold(later, |u, (c, _)| u.union(c.set())));
    }
    unions.reverse();
    unions
}

/// Whether one combo per player can be dealt with no card twice: `Some(answer)`,
/// or `None` when the search ran out of steps before it could tell.
pub(super) fn can_deal(players: &[&Combos]) -> Option<bool> {
    let mut order = players.to_vec();
    // The tightest ranges first: a conflict shows within the first few levels.
    order.sort_by_key(|combos| combos.len());
    let unions = suffix_unions(order.iter().copied());
    let mut failed: Vec<SetSet> = order.iter().map(|_| SetSet::default()).collect();
    let mut steps = SEARCH_STEPS;
    search(&order, &unions, 0, CardSet::EMPTY, &mut failed, &mut steps)
}

/// Depth-first search for a deal of `order[p..]` around `used`, remembering the
/// keys from which none exists.
fn search(
    order: &[&Combos],
    unions: &[CardSet],
    p: usize,
    used: CardSet,
    failed: &mut [SetSet],
    steps: &mut usize,
) -> Option<bool> {
    let Some(combos) = order.get(p) else {
        return Some(true);
    };
    let key = used.intersection(unions[p]);
    // Too few cards left for the players still to deal: no deal, whatever the combos.
    let left = order.len() - p;
    if failed[p].contains(&key.0) || (unions[p].difference(used).len() as usize) < 2 * left {
        return Some(false);
    }
    for (c, _) in combos.iter() {
        if c.set().intersection(used).is_empty() {
            *steps = steps.checked_sub(1)?;
            if search(order, unions, p + 1, used.union(c.set()), failed, steps)? {
                return Some(true);
            }
        }
    }
    failed[p].insert(key.0);
    Some(false)
}

/// A minimal set of players (indices into `players`) that cannot all be dealt
/// at once: dropping any one of them makes a deal possible, as far as bounded
/// searches can tell. Call it only once no deal of all players exists.
pub(super) fn conflict(players: &[&Combos]) -> Vec<usize> {
    let mut keep: Vec<usize> = (0..players.len()).collect();
    let mut order = keep.clone();
    // The widest ranges are the least likely culprits: try dropping them first.
    order.sort_by_key(|&i| std::cmp::Reverse(players[i].len()));
    for i in order {
        let without: Vec<usize> = keep.iter().copied().filter(|&j| j != i).collect();
        let subset: Vec<&Combos> = without.iter().map(|&j| players[j]).collect();
        if can_deal(&subset) == Some(false) {
            keep = without;
        }
    }
    keep
}

/// One player's turn in a [`DealSampler`].
struct Level {
    /// Index of the player among those the sampler deals.
    player: usize,
    combos: Vec<(CardSet, f64)>,
}

/// Draws a deal of some players with probability proportional to its weight
/// among the deals with no card twice (the distribution rejection sampling
/// gives), player by player: a player's combo is drawn by its weight times the
/// total weight of the ways to deal the later players around it. Those totals
/// are computed once, per level and per key (the used cards later players'
/// combos could collide with).
pub(super) struct DealSampler {
    levels: Vec<Level>,
    /// `unions[p]`: the cards of the combos of levels `p..` (the key mask).
    unions: Vec<CardSet>,
    /// `totals[p][key]`: total weight of the deals of levels `p..` around `key`.
    totals: Vec<SetMap<f64>>,
}

/// Why a [`DealSampler`] could not be built.
#[derive(Debug, PartialEq)]
pub(super) enum Unbuilt {
    /// More work than [`SAMPLER_WORK`]: the ranges are too wide for this method.
    TooLarge,
    /// No deal has a positive weight.
    NoDeal,
    Cancelled,
}

impl DealSampler {
    /// A sampler for `players` (each a list of weighted combos, none using a card
    /// of `known`, which the caller leaves out of every deal).
    pub(super) fn new(players: &[&Combos], cancel: &Cancel) -> Result<DealSampler, Unbuilt> {
        let mut order: Vec<usize> = (0..players.len()).collect();
        // The widest ranges first: the keys of later levels are masked by the
        // cards of the tight ranges alone, so they stay few.
        order.sort_by_key(|&i| std::cmp::Reverse(players[i].len()));
        let unions = suffix_unions(order.iter().map(|&i| players[i]));
        let levels: Vec<Level> = order
            .iter()
            .map(|&player| Level {
                player,
                combos: players[player].iter().map(|&(c, w)| (c.set(), w)).collect(),
            })
            .collect();
        let mut sampler = DealSampler {
            totals: levels.iter().map(|_| SetMap::default()).collect(),
            levels,
            unions,
        };
        let mut budget = SAMPLER_WORK;
        match sampler.total(0, CardSet::EMPTY, &mut budget, cancel)? {
            t if t > 0.0 => Ok(sampler),
            _ => Err(Unbuilt::NoDeal),
        }
    }

    /// Total weight of the deals of levels `p..` around the cards `used`.
    fn total(
        &mut self,
        p: usize,
        used: CardSet,
        budget: &mut usize,
        cancel: &Cancel,
    ) -> Result<f64, Unbuilt> {
        if p == self.levels.len() {
            return Ok(1.0);
        }
        let key = used.intersection(self.unions[p]);
        if let Some(&t) = self.totals[p].get(&key.0) {
            return Ok(t);
        }
        let cost = KEY_COST + self.levels[p].combos.len();
        *budget = budget.checked_sub(cost).ok_or(Unbuilt::TooLarge)?;
        if cancel.is_cancelled() {
            return Err(Unbuilt::Cancelled);
        }
        let mut sum = 0.0;
        for i in 0..self.levels[p].combos.len() {
            let (set, w) = self.levels[p].combos[i];
            if set.intersection(key).is_empty() {
                sum += w * self.total(p + 1, key.union(set), budget, cancel)?;
            }
        }
        self.totals[p].insert(key.0, sum);
        Ok(sum)
    }

    /// Draws a deal around `used` (cards none of the sampler's combos use), with
    /// `unit()` giving uniform floats in `[0, 1)`: writes each player's combo
    /// index into `picks` and returns `used` with the dealt cards added.
    #[inline]
    pub(super) fn draw(
        &self,
        unit: &mut impl FnMut() -> f64,
        mut used: CardSet,
        picks: &mut [usize],
    ) -> CardSet {
        for (p, level) in self.levels.iter().enumerate() {
            let key = used.intersection(self.unions[p]);
            let total = self.totals[p].get(&key.0).copied().unwrap_or(0.0);
            let mut u = unit() * total;
            let next = self.unions[p + 1];
            // The last combo of positive weight, should rounding leave `u` over.
            let mut pick = (0, CardSet::EMPTY);
            for (i, &(set, w)) in level.combos.iter().enumerate() {
                if !set.intersection(key).is_empty() {
                    continue;
                }
                let rest = match self.totals.get(p + 1) {
                    Some(totals) => {
                        let after = key.union(set).intersection(next);
                        totals.get(&after.0).copied().unwrap_or(0.0)
                    }
                    None => 1.0,
                };
                let x = w * rest;
                if x > 0.0 {
                    pick = (i, set);
                    if u < x {
                        break;
                    }
                    u -= x;
                }
            }
            picks[level.player] = pick.0;
            used = used.union(pick.1);
        }
        used
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::poker::ranges::Range;
    use crate::rng::CardRng;

    fn combos(specs: &[&str]) -> Vec<Vec<(Combo, f64)>> {
        specs
            .iter()
            .map(|s| Range::parse(s).unwrap().combos().to_vec())
            .collect()
    }

    fn refs(players: &[Vec<(Combo, f64)>]) -> Vec<&Combos> {
        players.iter().map(|c| c.as_slice()).collect()
    }

    #[test]
    fn feasibility_of_tight_ranges() {
        let p = combos(&["AA"; 2]);
        assert_eq!(can_deal(&refs(&p)), Some(true));
        let p = combos(&["AA"; 3]);
        assert_eq!(can_deal(&refs(&p)), Some(false));
        let p = combos(&["AA,KK,QQ"; 6]);
        assert_eq!(can_deal(&refs(&p)), Some(true));
        let p = combos(&["AA,KK,QQ"; 7]);
        assert_eq!(can_deal(&refs(&p)), Some(false));
        let p = combos(&["AA,KK,QQ,JJ,TT"; 10]);
        assert_eq!(can_deal(&refs(&p)), Some(true));
        let mut p = combos(&["random"; 7]);
        p.extend(combos(&["AA"; 3]));
        assert_eq!(can_deal(&refs(&p)), Some(false));
        assert_eq!(conflict(&refs(&p)), vec![7, 8, 9]);
        let p = combos(&["AhAs", "random", "AhKd"]);
        assert_eq!(conflict(&refs(&p)), vec![0, 2]);
    }

    /// Every deal with no card twice and its share of the total weight.
    fn exact_deals(players: &[Vec<(Combo, f64)>]) -> HashMap<Vec<Combo>, f64> {
        let mut deals: Vec<(Vec<Combo>, f64)> = vec![(vec![], 1.0)];
        for combos in players {
            deals = deals
                .into_iter()
                .flat_map(|(deal, w)| {
                    combos.iter().filter_map(move |&(c, x)| {
                        let used = deal.iter().fold(CardSet::EMPTY, |u, d| u.union(d.set()));
                        c.set().intersection(used).is_empty().then(|| {
                            let mut d = deal.clone();
                            d.push(c);
                            (d, w * x)
                        })
                    })
                })
                .collect();
        }
        let total: f64 = deals.iter().map(|(_, w)| w).sum();
        deals.into_iter().map(|(d, w)| (d, w / total)).collect()
    }

    #[test]
    fn sampler_draws_each_deal_by_its_weight() {
        for specs in [
            &["AA,KK", "AA,KK", "AA,KK"][..],
            &["AA:0.3,KK", "AhAs,AdKd:0.5,KcKs", "AK"],
            &["AA,KK,QQ"; 6],
        ] {
            let players = combos(specs);
            let expected = exact_deals(&players);
            let sampler = DealSampler::new(&refs(&players), &NEVER).unwrap();
            let mut rng = CardRng::new(3);
            let mut picks = vec![0; players.len()];
            let trials = 200_000;
            let mut seen: HashMap<Vec<Combo>, u32> = HashMap::new();
            for _ in 0..trials {
                let used = sampler.draw(&mut || rng.unit(), CardSet::EMPTY, &mut picks);
                let deal: Vec<Combo> = picks.iter().zip(&players).map(|(&i, c)| c[i].0).collect();
                assert_eq!(used.len() as usize, 2 * players.len());
                *seen.entry(deal).or_insert(0) += 1;
            }
            for (deal, n) in &seen {
                assert!(expected.contains_key(deal), "{specs:?}: {deal:?}");
                let p = expected[deal];
                let sd = (p * (1.0 - p) / trials as f64).sqrt();
                let got = f64::from(*n) / trials as f64;
                assert!(
                    (got - p).abs() < 5.0 * sd + 1e-9,
                    "{specs:?} {deal:?}: {got} vs {p}"
                );
            }
            // Every deal of more than a few expected draws was drawn.
            let missed = expected
                .iter()
                .filter(|(d, &p)| p * trials as f64 > 20.0 && !seen.contains_key(*d))
                .count();
            assert_eq!(missed, 0, "{specs:?}");
        }
    }

    #[test]
    fn sampler_refuses_what_it_cannot_hold() {
        let p = combos(&["AA"; 3]);
        assert_eq!(
            DealSampler::new(&refs(&p), &NEVER).err(),
            Some(Unbuilt::NoDeal)
        );
        let p = combos(&["random"; 10]);
        assert_eq!(
            DealSampler::new(&refs(&p), &NEVER).err(),
            Some(Unbuilt::TooLarge)
        );
        let cancel = Cancel::new();
        cancel.cancel();
        assert_eq!(
            DealSampler::new(&refs(&p), &cancel).err(),
            Some(Unbuilt::Cancelled)
        );
    }
}
