//! Guandan agents' engine side: a rule policy (hand-shedding heuristics with
//! partner play and bomb timing) and determinized Monte Carlo search over rule
//! playouts, as Dou Dizhu and Zheng Shangyou have them.

use super::deal::{partner, Deal, SEATS};
use super::{Hand, Play};
use crate::cancel::Cancel;
use crate::cards::{Card, NUM_CARDS};
use crate::error::Result;
use crate::rng::CardRng;

/// A move: a play, or `None` for pass.
pub type Move = Option<Play>;

/// The levels the first finisher's team climbs (GD-06), signed for `seat`'s team:
/// positive when its team finished first. Zero while the deal runs.
pub fn deal_score(deal: &Deal, seat: u8) -> i32 {
    let places = deal.places();
    if places.len() < SEATS {
        return 0;
    }
    let first = places[0];
    let mate_place = places
        .iter()
        .position(|&s| s == partner(first))
        .unwrap_or(3);
    let climb = [0, 3, 2, 1][mate_place];
    if first % 2 == seat % 2 {
        climb
    } else {
        -climb
    }
}

/// How a rule player weighs a play it may make: cheap, low plays first, shedding
/// many cards at once; wilds and bombs are kept for later.
fn cost(play: &Play, level: u8) -> (bool, usize, u16, std::cmp::Reverse<usize>) {
    let strength = match play.bomb_power(level) {
        Some(power) => power,
        None => u16::from(play.rank_value(level)),
    };
    (
        play.is_bomb(),
        play.wilds(),
        strength,
        std::cmp::Reverse(play.size()),
    )
}

/// The rule policy's move for the seat to act: go out when a play empties the
/// hand; lead the cheapest play; let a partner's play stand; answer an opponent
/// with the cheapest ordinary play, and with the weakest bomb only when that
/// opponent (or any opponent) is close to going out.
pub fn rule_move(deal: &Deal) -> Move {
    let seat = deal.to_move().unwrap_or(0);
    let level = deal.level();
    let legal = deal.legal();
    let hand_size = deal.hand(usize::from(seat)).len();
    if let Some(out) = legal.iter().flatten().find(|p| p.size() == hand_size) {
        return Some(*out);
    }
    let cheapest = |bombs: bool| {
        legal
            .iter()
            .flatten()
            .filter(|p| bombs || !p.is_bomb())
            .min_by_key(|p| cost(p, level))
            .copied()
    };
    let Some(_) = deal.table() else {
        return cheapest(false).or_else(|| cheapest(true));
    };
    let owner = deal.owner();
    if owner == partner(seat) {
        return None;
    }
    if let Some(play) = cheapest(false) {
        return Some(play);
    }
    let danger = (0..SEATS as u8)
        .filter(|&s| s % 2 != seat % 2 && !deal.finished(s))
        .any(|s| deal.hand(usize::from(s)).len() <= 6);
    if danger {
        return cheapest(true);
    }
    None
}

/// Play to the end: the rule policy, with a random legal move one time in
/// `epsilon_inverse` (0: never) so that searches see varied lines.
pub fn rule_playout(deal: &mut Deal, epsilon_inverse: u64, rng: &mut CardRng) {
    while !deal.is_over() {
        let mv = if epsilon_inverse > 0 && rng.below(epsilon_inverse) == 0 {
            let legal = deal.legal();
            legal[rng.below(legal.len() as u64) as usize]
        } else {
            rule_move(deal)
        };
        if deal.apply(mv.as_ref()).is_err() {
            break;
        }
    }
}

/// Deal `unknown` at random to the seats other than `seat` that still hold cards,
/// each as many as it holds in `deal`.
pub fn determinize(deal: &Deal, seat: u8, unknown: &[Card], rng: &mut CardRng) -> Deal {
    let mut pool = unknown.to_vec();
    rng.shuffle(&mut pool);
    let mut out = deal.clone();
    let mut next = 0;
    for s in 0..SEATS {
        if s == usize::from(seat) {
            continue;
        }
        let need = deal.hand(s).len();
        let mut hand = Hand {
            counts: [0; NUM_CARDS],
        };
        for c in pool.iter().skip(next).take(need) {
            hand.counts[usize::from(c.index())] += 1;
        }
        next += need;
        out.set_hand(s, hand);
    }
    out
}

/// The moves a search weighs: every move when there are few; otherwise pass (when
/// following) and, for each shape with and without wilds, its cheapest play.
fn candidates(deal: &Deal) -> Vec<Move> {
    let legal = deal.legal();
    if legal.len() <= 24 {
        return legal;
    }
    let level = deal.level();
    let mut best: Vec<Play> = Vec::new();
    for p in legal.iter().flatten() {
        let group = |q: &Play| q.kind == p.kind && (q.wilds() > 0) == (p.wilds() > 0);
        match best.iter_mut().find(|q| group(q)) {
            Some(q) if cost(p, level) < cost(q, level) => *q = *p,
            Some(_) => {}
            None => best.push(*p),
        }
    }
    let mut out: Vec<Move> = Vec::with_capacity(best.len() + 2);
    if deal.table().is_some() {
        out.push(None);
    }
    let rule = rule_move(deal);
    if !out.contains(&rule) {
        out.push(rule);
    }
    out.extend(best.into_iter().map(Some).filter(|m| *m != rule));
    out
}

/// The playout policy of [`search_move`]: rules, a random move one time in 16.
const SEARCH_EPSILON_INVERSE: u64 = 16;

/// Determinized Monte Carlo search for the seat to act: for each of `samples`
/// deals of `unknown` to the other seats, play every candidate move and finish
/// with rule playouts; return the move with the best mean [`deal_score`].
/// Polls `cancel` before every playout.
pub fn search_move(
    deal: &Deal,
    unknown: &[Card],
    samples: u32,
    rng: &mut CardRng,
    cancel: &Cancel,
) -> Result<Move> {
    let seat = deal.to_move().unwrap_or(0);
    let moves = candidates(deal);
    if moves.len() <= 1 {
        return Ok(moves.into_iter().next().flatten());
    }
    let mut totals = vec![0i64; moves.len()];
    for _ in 0..samples.max(1) {
        let world = determinize(deal, seat, unknown, rng);
        for (i, mv) in moves.iter().enumerate() {
            cancel.check()?;
            let mut trial = world.clone();
            if trial.apply(mv.as_ref()).is_err() {
                continue;
            }
            rule_playout(&mut trial, SEARCH_EPSILON_INVERSE, rng);
            totals[i] += i64::from(deal_score(&trial, seat));
        }
    }
    let best = (0..moves.len()).max_by_key(|&i| (totals[i], std::cmp::Reverse(i)));
    Ok(best.and_then(|i| moves[i]))
}

/// Playouts [`search_move`] runs for `samples` (for callers that budget time).
pub fn search_playouts(deal: &Deal, samples: u32) -> u64 {
    match candidates(deal).len() as u64 {
        0 | 1 => 0,
        n => n * u64::from(samples.max(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&parse_cards(text).unwrap()).unwrap()
    }

    #[test]
    fn rule_player_goes_out_and_lets_a_partner_play_stand() {
        let level = 0;
        let hands = [hand("3c3d"), hand("4c9c"), hand("5c6cKd"), hand("7c8c")];
        let mut deal = Deal::new(hands, level, 0, false).unwrap();
        assert_eq!(rule_move(&deal).map(|p| p.to_string()), Some("33".into()));
        deal.apply(rule_move(&deal).as_ref()).unwrap();
        assert_eq!(deal.places(), &[0]);
        // Seat 1 cannot answer a pair; seat 2 is seat 0's partner and passes.
        deal.apply(None).unwrap();
        assert_eq!(rule_move(&deal), None);
    }

    #[test]
    fn search_finishes_and_scores_zero_sum() {
        let mut rng = CardRng::new(4);
        let pack = crate::deck::deck("double108").unwrap();
        let mut cards = pack.clone();
        rng.shuffle(&mut cards);
        let hands: [Hand; SEATS] =
            std::array::from_fn(|s| Hand::from_cards(&cards[27 * s..27 * (s + 1)]).unwrap());
        let mut deal = Deal::new(hands, 0, 0, false).unwrap();
        let unknown: Vec<Card> = cards[27..].to_vec();
        let mv = search_move(&deal, &unknown, 2, &mut rng, &crate::cancel::NEVER).unwrap();
        assert!(deal.legal().contains(&mv));
        rule_playout(&mut deal, 0, &mut rng);
        assert_eq!(deal_score(&deal, 0), -deal_score(&deal, 1));
    }
}
