//! Guandan agents' engine side: a rule policy and determinized Monte Carlo search
//! over rule playouts, as Dou Dizhu and Zheng Shangyou have them.
//!
//! The rule policy plans its hand ([`plan`]: bombs, then the plates, pair runs and
//! straights that save plays, then singles, pairs and triples carrying pairs) and
//! plays from the plan: it leads the lowest planned group, answers only with plays
//! that keep the plan no longer, keeps its wilds (a wild is worth two plays of the
//! plan) for bombs, straight flushes and going out, lets its partner's plays
//! stand, bombs when an opponent is close to going out, leads around a next
//! opponent about to go out, and plays for jiefeng ([`rule_move_with`]). Every
//! choice here was measured on paired deals
//! (each deal played twice, teams swapped); it is also the search's playout
//! policy, so it stays cheap: one plan per move, one more per answer weighed.

use super::deal::{partner, Deal, SEATS};
use super::endgame::{cards_left, Solver};
use super::{
    position_rank, rank_key, strength, Hand, Play, BLACK_JOKER, NUM_RANKS, RED_JOKER, TOP_POSITION,
};
use crate::cancel::Cancel;
use crate::cards::{Card, NUM_CARDS};
use crate::climbing::Kind;
use crate::error::Result;
use crate::rng::CardRng;
pub use crate::search::Endgame;

/// A move: a play, or `None` for pass.
pub type Move = Option<Play>;

/// The levels the first finisher's team climbs (GD-06), signed for `seat`'s team:
/// positive when its team finished first. Zero while the deal runs.
pub fn deal_score(deal: &Deal, seat: u8) -> i32 {
    if deal.is_over() {
        decided_score(deal, seat).unwrap_or(0)
    } else {
        0
    }
}

/// [`deal_score`] as soon as the places decide it: once the first finisher's
/// partner has a place, the climb is fixed (a 1-2 finish decides it while the
/// other team still plays). `None` until then.
pub fn decided_score(deal: &Deal, seat: u8) -> Option<i32> {
    let places = deal.places();
    let first = *places.first()?;
    let mate_place = places.iter().position(|&s| s == partner(first))?;
    let climb = [0, 3, 2, 1][mate_place];
    Some(if first % 2 == seat % 2 { climb } else { -climb })
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

/// Natural cards per rank (`2..A`, then the jokers); the wilds are counted apart.
type Counts = [u8; NUM_RANKS];

/// One group of a hand plan: its shape, its natural cards (four bits per rank, as
/// [`Play::naturals`]) and the value that orders it among groups of its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    kind: Kind,
    naturals: u64,
    value: u8,
}

/// Plays a hand still needs when its single, pair and triple ranks are played as
/// such, each triple carrying a pair as a full house.
fn loose_turns(c: &Counts) -> u8 {
    let (mut singles, mut pairs, mut triples) = (0u8, 0u8, 0u8);
    for &n in c {
        match n {
            1 => singles += 1,
            2 => pairs += 1,
            3 => triples += 1,
            _ => {}
        }
    }
    singles + pairs + triples - triples.min(pairs)
}

/// The run window of `len` positions topped at `top`, `width` cards each, if the
/// counts hold it: its ranks.
fn window(c: &Counts, top: u8, len: u8, width: u8) -> Option<[u8; 5]> {
    let mut ranks = [0u8; 5];
    for (i, slot) in ranks.iter_mut().take(usize::from(len)).enumerate() {
        *slot = position_rank(top + 1 - len + i as u8);
        if c[usize::from(*slot)] < width {
            return None;
        }
    }
    Some(ranks)
}

/// A plan for the natural cards of a hand (wilds stay free to fill a group
/// later): bombs and the joker bomb first, then the runs that save plays over
/// playing their ranks loose (plates, pair runs, straights, best saving first),
/// then singles, pairs and triples. Returns the groups and the plays the hand
/// needs apart from its bombs, so a play that breaks a bomb or a run for a single
/// shows as a plan one play longer.
fn plan(counts: &Counts, level: u8) -> (Vec<Group>, u8) {
    let mut c = *counts;
    let mut groups = Vec::with_capacity(16);
    let (b, r) = (usize::from(BLACK_JOKER), usize::from(RED_JOKER));
    if c[b] == 2 && c[r] == 2 {
        groups.push(Group {
            kind: Kind::JokerBomb,
            naturals: rank_key(BLACK_JOKER, 2) | rank_key(RED_JOKER, 2),
            value: RED_JOKER,
        });
        c[b] = 0;
        c[r] = 0;
    }
    for rank in 0..13u8 {
        let n = c[usize::from(rank)];
        if n >= 4 {
            groups.push(Group {
                kind: Kind::Bomb,
                naturals: rank_key(rank, n),
                value: strength(rank, level),
            });
            c[usize::from(rank)] = 0;
        }
    }
    let mut runs = 0u8;
    loop {
        let before = loose_turns(&c);
        let mut best: Option<(u8, Kind, u8, u8, u8)> = None;
        for (kind, len, width) in [
            (Kind::Airplane, 2, 3),
            (Kind::PairRun, 3, 2),
            (Kind::Straight, 5, 1),
        ] {
            for top in len - 1..=TOP_POSITION {
                let Some(ranks) = window(&c, top, len, width) else {
                    continue;
                };
                let mut rest = c;
                for &rank in &ranks[..usize::from(len)] {
                    rest[usize::from(rank)] -= width;
                }
                let after = loose_turns(&rest) + 1;
                if after < before && best.is_none_or(|(a, ..)| after < a) {
                    best = Some((after, kind, top, len, width));
                }
            }
        }
        let Some((_, kind, top, len, width)) = best else {
            break;
        };
        let mut naturals = 0u64;
        for &rank in &window(&c, top, len, width).unwrap_or_default()[..usize::from(len)] {
            c[usize::from(rank)] -= width;
            naturals |= rank_key(rank, width);
        }
        groups.push(Group {
            kind,
            naturals,
            value: top,
        });
        runs += 1;
    }
    for rank in 0..NUM_RANKS as u8 {
        let n = c[usize::from(rank)];
        let kind = match n {
            1 => Kind::Single,
            2 => Kind::Pair,
            3 => Kind::Triple,
            _ => continue,
        };
        groups.push(Group {
            kind,
            naturals: rank_key(rank, n),
            value: strength(rank, level),
        });
    }
    (groups, runs + loose_turns(&c))
}

/// The natural cards per rank of `hand` at `level`, and its wilds.
fn counts_of(hand: &Hand, level: u8) -> (Counts, u8) {
    let v = hand.view(level);
    (v.nat, v.wilds)
}

/// The counts left after `play`.
fn without(counts: &Counts, play: &Play) -> Counts {
    let mut rest = *counts;
    for (rank, n) in rest.iter_mut().enumerate() {
        *n -= play.natural(rank as u8).min(*n);
    }
    rest
}

/// What a wild is worth, in plays of the hand plan: spending one on an ordinary
/// play counts as making the plan this much longer (measured: 2 beat 0 and 1;
/// 3 played as 2), so wilds are kept for bombs, straight flushes and going out.
const WILD_PLAYS: u8 = 2;

/// The plays the hand plan needs after answering with `play`, with the wilds it
/// spends weighed in ([`WILD_PLAYS`]).
fn follow_cost(counts: &Counts, play: &Play, level: u8) -> u8 {
    let (_, after) = plan(&without(counts, play), level);
    after + WILD_PLAYS * play.wilds() as u8
}

/// Opponents this close to going out make a rule player bomb and lead around them.
const DANGER_CARDS: usize = 6;

/// The seat after `seat` in turn order that still holds cards.
fn next_active(deal: &Deal, seat: u8) -> Option<u8> {
    (1..SEATS as u8)
        .map(|step| (seat + step) % SEATS as u8)
        .find(|&s| !deal.finished(s))
}

/// The rule policy's move for the seat to act (module doc): go out when one play
/// empties the hand; otherwise plan the hand and play from the plan, aware of
/// jiefeng ([`rule_move_with`]).
pub fn rule_move(deal: &Deal) -> Move {
    rule_move_with(deal, true)
}

/// The rule policy's move, with or without jiefeng awareness (GD-29: when the
/// last player has gone out, the lead passes to its partner). Aware, it answers
/// more readily a play an opponent went out with, whose partner would otherwise
/// take the lead, and leads its partner's way when the partner is one play from
/// going out (a single to a partner holding one card, a pair to one holding a
/// pair), so the partner goes out and the lead comes back by jiefeng. Without,
/// it plays as before these rules (kept for measuring them on paired deals).
pub fn rule_move_with(deal: &Deal, jiefeng: bool) -> Move {
    let seat = deal.to_move().unwrap_or(0);
    let level = deal.level();
    let legal = deal.legal();
    let hand = deal.hand(usize::from(seat));
    if let Some(out) = legal.iter().flatten().find(|p| p.size() == hand.len()) {
        return Some(*out);
    }
    let (counts, _) = counts_of(hand, level);
    let cards_of = |s: u8| deal.hand(usize::from(s)).len();
    let opponents_min = (0..SEATS as u8)
        .filter(|&s| s % 2 != seat % 2 && !deal.finished(s))
        .map(cards_of)
        .min()
        .unwrap_or(usize::MAX);
    match deal.table() {
        None => jiefeng
            .then(|| feed_partner(deal, &legal, seat))
            .flatten()
            .or_else(|| rule_lead(deal, &legal, &counts, seat)),
        Some(_) if deal.owner() == partner(seat) => None,
        Some(_) => {
            // An opponent went out with the table: passing hands its partner the lead.
            let slack = u8::from(jiefeng && deal.finished(deal.owner()));
            rule_follow(deal, &legal, &counts, opponents_min, slack)
        }
    }
}

/// A lead its partner can go out over: the lowest natural single (pair) when the
/// partner, still in, holds one card (two), unless the next opponent holds as
/// few cards and would go out first. The partner's last play then hands the lead
/// back to this seat (jiefeng).
fn feed_partner(deal: &Deal, legal: &[Move], seat: u8) -> Move {
    let mate = partner(seat);
    if deal.finished(mate) {
        return None;
    }
    // Only the partner's card count: an agent does not see the cards.
    let mate_cards = deal.hand(usize::from(mate)).len();
    let kind = match mate_cards {
        1 => Kind::Single,
        2 => Kind::Pair,
        _ => return None,
    };
    let next_cards = next_active(deal, seat)
        .filter(|&s| s != mate)
        .map_or(usize::MAX, |s| deal.hand(usize::from(s)).len());
    if next_cards <= mate_cards {
        return None;
    }
    let level = deal.level();
    legal
        .iter()
        .flatten()
        .filter(|p| p.kind == kind && p.wilds() == 0)
        .min_by_key(|p| p.rank_value(level))
        .copied()
}

/// A lead from the plan: the lowest planned group that is not a bomb (among
/// equals the one shedding the most cards), a triple carrying the lowest planned
/// pair, as a play with no wilds. When the next opponent holds one card (two)
/// singles (pairs) are avoided, or led high when nothing else is left.
fn rule_lead(deal: &Deal, legal: &[Move], counts: &Counts, seat: u8) -> Move {
    let level = deal.level();
    let (groups, _) = plan(counts, level);
    let play_of = |g: &Group| {
        legal
            .iter()
            .flatten()
            .find(|p| p.kind == g.kind && p.naturals == g.naturals && p.wilds() == 0)
            .copied()
    };
    let next_cards = next_active(deal, seat)
        .filter(|&s| s % 2 != seat % 2)
        .map_or(usize::MAX, |s| deal.hand(usize::from(s)).len());
    let avoided = |kind: Kind| {
        (next_cards == 1 && kind == Kind::Single) || (next_cards == 2 && kind == Kind::Pair)
    };
    let ordinary = groups
        .iter()
        .filter(|g| g.kind != Kind::Bomb && g.kind != Kind::JokerBomb);
    let pick = ordinary
        .clone()
        .filter(|g| !avoided(g.kind))
        .min_by_key(|g| (g.value, std::cmp::Reverse(g.naturals.count_ones())))
        .or_else(|| ordinary.max_by_key(|g| g.value));
    let lowest = || {
        legal
            .iter()
            .flatten()
            .min_by_key(|p| cost(p, level))
            .copied()
    };
    // A planned triple carries the lowest planned pair (a full house).
    let carried = pick.filter(|g| g.kind == Kind::Triple).and_then(|g| {
        let pair = groups
            .iter()
            .filter(|p| p.kind == Kind::Pair)
            .min_by_key(|p| p.value)?;
        Some(Group {
            kind: Kind::TriplePair,
            naturals: g.naturals | pair.naturals,
            value: g.value,
        })
    });
    carried
        .or(pick.copied())
        .and_then(|g| play_of(&g))
        .or_else(lowest)
}

/// An answer to an opponent's play: the lowest ordinary play that leaves the plan
/// no longer (so runs, plates and bombs are not broken for singles, and wilds are
/// kept); else the weakest bomb, but only when an opponent is close to going out
/// or the bomb leaves nothing but bombs (measured: bombing whenever it left two
/// plays or fewer lost 0.13 levels a deal, four or fewer 0.35).
/// `slack` more plays in the plan are accepted to answer at all (a jiefeng to
/// deny).
fn rule_follow(
    deal: &Deal,
    legal: &[Move],
    counts: &Counts,
    opponents_min: usize,
    slack: u8,
) -> Move {
    let level = deal.level();
    let (_, turns) = plan(counts, level);
    let danger = opponents_min <= DANGER_CARDS;
    let best = legal
        .iter()
        .flatten()
        .filter(|p| !p.is_bomb())
        .map(|p| {
            let after = follow_cost(counts, p, level);
            (after, p.wilds(), p.rank_value(level), *p)
        })
        .min_by_key(|&(after, wilds, value, _)| (after, wilds, value));
    if let Some((.., play)) = best.filter(|&(after, ..)| after <= turns + slack) {
        return Some(play);
    }
    let bomb = legal
        .iter()
        .flatten()
        .filter(|p| p.is_bomb())
        .map(|p| {
            let (_, after) = plan(&without(counts, p), level);
            (after, cost(p, level), *p)
        })
        .min_by_key(|&(after, cost, _)| (after, cost));
    match bomb {
        Some((after, _, play)) if danger || after == 0 => Some(play),
        _ => None,
    }
}

/// Play to the end with the rule policy at every seat (deterministic, so that a
/// search compares its candidates on the same lines).
pub fn rule_playout(deal: &mut Deal) {
    while !deal.is_over() {
        let mv = rule_move(deal);
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

/// The moves a search weighs: the rule move first, then pass (when following),
/// the plays that shed one group of the hand plan without wilds (leading) or keep
/// the plan (answering), and the weakest bomb; each set of cards once.
fn candidates(deal: &Deal) -> Vec<Move> {
    let legal = deal.legal();
    let seat = deal.to_move().unwrap_or(0);
    let level = deal.level();
    let (counts, _) = counts_of(deal.hand(usize::from(seat)), level);
    let mut out: Vec<Move> = Vec::with_capacity(16);
    let rule = rule_move(deal);
    out.push(rule);
    if deal.table().is_some() && rule.is_some() {
        out.push(None);
    }
    let (groups, turns) = plan(&counts, level);
    let lowest_of_kind = |g: &Group| !groups.iter().any(|h| h.kind == g.kind && h.value < g.value);
    let keeps = |p: &Play| match deal.table() {
        None => {
            p.wilds() == 0
                && groups
                    .iter()
                    .any(|g| g.kind == p.kind && g.naturals == p.naturals && lowest_of_kind(g))
        }
        Some(_) => follow_cost(&counts, p, level) <= turns,
    };
    for p in legal.iter().flatten() {
        if !p.is_bomb()
            && keeps(p)
            && !out
                .iter()
                .flatten()
                .any(|q| q.naturals == p.naturals && q.wilds() == p.wilds())
        {
            out.push(Some(*p));
        }
    }
    if deal.table().is_some() {
        let bomb = legal
            .iter()
            .flatten()
            .filter(|p| p.is_bomb())
            .min_by_key(|p| cost(p, level));
        if let Some(b) = bomb {
            if !out.contains(&Some(*b)) {
                out.push(Some(*b));
            }
        }
    }
    out
}

/// How sure a search must be before it leaves the rule move: a candidate replaces
/// it only when its mean gain over the rule move, less this many standard errors,
/// is positive. The sampled scores are coarse (whole levels) and noisy, so taking
/// the best raw mean of a dozen candidates mostly picks noise; measured on paired
/// deals, 2 beat 1 and 0, and matched 2.5 and 3.
const DEVIATION_Z: f64 = 2.0;

/// Determinized Monte Carlo search for the seat to act: for each of `samples`
/// deals of `unknown` to the other seats, play every candidate move and finish
/// with (deterministic) rule playouts, so that each sample compares the
/// candidates on one world; keep the rule move unless a candidate beats it
/// clearly (see [`DEVIATION_Z`]), else play the candidate with the best lower
/// bound on its gain in [`deal_score`]. Polls `cancel` before every playout.
///
/// With `endgame` on and at most `endgame.cards` cards left in the four hands
/// once a candidate is played, that world is solved exactly instead
/// ([`super::endgame::Solver`]): the team score of best play by both teams in
/// it, or a rule playout when the solve exceeds its node budget. One solver
/// serves the whole search, so worlds share its table. [`Endgame::OFF`] plays
/// every world out, as the search did before the solver.
pub fn search_move(
    deal: &Deal,
    unknown: &[Card],
    samples: u32,
    endgame: Endgame,
    rng: &mut CardRng,
    cancel: &Cancel,
) -> Result<Move> {
    let seat = deal.to_move().unwrap_or(0);
    let moves = candidates(deal);
    if moves.len() <= 1 {
        return Ok(moves.into_iter().next().flatten());
    }
    let mut solver = Solver::new(seat);
    // Sums of each candidate's score minus the rule move's (candidate 0) in the
    // same sampled world, and of its square.
    let n = samples.max(1);
    let mut sums = vec![0i64; moves.len()];
    let mut squares = vec![0i64; moves.len()];
    let mut scores = vec![0i64; moves.len()];
    for _ in 0..n {
        let world = determinize(deal, seat, unknown, rng);
        for (i, mv) in moves.iter().enumerate() {
            cancel.check()?;
            let mut trial = world.clone();
            trial.apply(mv.as_ref())?;
            scores[i] = i64::from(finish(&mut trial, seat, endgame, &mut solver, cancel)?);
        }
        for i in 1..moves.len() {
            let d = scores[i] - scores[0];
            sums[i] += d;
            squares[i] += d * d;
        }
    }
    let lower = |i: usize| {
        let nf = f64::from(n);
        let mean = sums[i] as f64 / nf;
        let var = (squares[i] as f64 / nf - mean * mean).max(0.0) * nf / (nf - 1.0).max(1.0);
        mean - DEVIATION_Z * (var / nf).sqrt()
    };
    let best = (1..moves.len())
        .map(|i| (lower(i), i))
        .filter(|&(l, _)| l > 0.0)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map_or(0, |(_, i)| i);
    Ok(moves[best])
}

/// `seat`'s score at the end of `trial`: its exact value when at most
/// `endgame.cards` cards are left and the solver finds it within its budget, else
/// the end of a rule playout.
fn finish(
    trial: &mut Deal,
    seat: u8,
    endgame: Endgame,
    solver: &mut Solver,
    cancel: &Cancel,
) -> Result<i32> {
    if !trial.is_over() && cards_left(trial) <= endgame.cards {
        if let Some(value) = solver.solve(trial, endgame.nodes, cancel)? {
            return Ok(value);
        }
    }
    rule_playout(trial);
    Ok(deal_score(trial, seat))
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
    fn rule_player_leads_a_single_to_a_partner_holding_one_card() {
        // GD-29: the partner goes out over a low single and the lead comes back by
        // jiefeng; without the awareness the plan leads its lowest group, the pair.
        let level = 0;
        let hands = [
            hand("3c3d9s"),
            hand("4c6d8hTcQs"),
            hand("Ac"),
            hand("5d7s9hJc"),
        ];
        let deal = Deal::new(hands, level, 0, false).unwrap();
        let text = |mv: Move| mv.map(|p| p.to_string());
        assert_eq!(text(rule_move_with(&deal, true)), Some("3".into()));
        assert_eq!(text(rule_move_with(&deal, false)), Some("33".into()));
        // Not when the next opponent would go out first on a single.
        let hands = [hand("3c3d9s"), hand("4c"), hand("Ac"), hand("5d7s9hJc")];
        let deal = Deal::new(hands, level, 0, false).unwrap();
        assert_ne!(text(rule_move_with(&deal, true)), Some("3".into()));
    }

    #[test]
    fn rule_player_denies_the_lead_to_a_finished_opponents_partner() {
        // GD-29: seat 1 went out with a single 5; if seat 2 passes along with the
        // others, seat 3 (seat 1's partner) leads. Breaking its full house for it
        // costs a play of the plan, which jiefeng awareness accepts.
        let level = 0;
        let hands = [
            hand("KcKd"),
            super::super::deal::NO_CARDS,
            hand("6c6d6h9c9d"),
            hand("8c8d"),
        ];
        let table = super::super::parse("5", Some(level)).unwrap();
        let deal = Deal::resume(hands, level, 2, Some(table), 1, 0, &[1], false).unwrap();
        let text = |mv: Move| mv.map(|p| p.to_string());
        assert_eq!(text(rule_move_with(&deal, true)), Some("6".into()));
        assert_eq!(rule_move_with(&deal, false), None);
    }

    /// Seat 0 to answer `table`, played by seat 3 (an opponent), at level 2
    /// (wild: 2h); the others hold `others` cards each.
    fn answering(own: &str, table: &str, others: [&str; 3]) -> Deal {
        let hands = [hand(own), hand(others[0]), hand(others[1]), hand(others[2])];
        let table = super::super::parse(table, Some(0)).unwrap();
        Deal::resume(hands, 0, 0, Some(table), 3, 2, &[], false).unwrap()
    }

    const MANY: &str = "3c3d4c4d5c5d6c6d7c7d8c8d";

    fn rule_text(deal: &Deal) -> Option<String> {
        rule_move(deal).map(|p| p.to_string())
    }

    #[test]
    fn rule_player_does_not_break_a_straight_or_a_bomb_for_a_single() {
        let deal = answering("3c4d5h6s7c9dKd", "5", [MANY, MANY, MANY]);
        assert_eq!(rule_text(&deal).as_deref(), Some("9"));
        let deal = answering("8c8d8h8s9dKd", "7", [MANY, MANY, MANY]);
        assert_eq!(rule_text(&deal).as_deref(), Some("9"));
    }

    #[test]
    fn rule_player_keeps_its_wilds_for_ordinary_answers() {
        // Q with the wild would answer the pair, but a wild is worth more.
        let deal = answering("2hQcKd5s", "99", [MANY, MANY, MANY]);
        assert_eq!(rule_move(&deal), None);
    }

    #[test]
    fn rule_player_bombs_only_when_an_opponent_is_close_to_going_out() {
        let quiet = answering("9c9d9h9sKd3s", "AA", [MANY, MANY, MANY]);
        assert_eq!(rule_move(&quiet), None);
        let close = answering("9c9d9h9sKd3s", "AA", [MANY, MANY, "3h4h5h"]);
        assert_eq!(rule_text(&close).as_deref(), Some("9999"));
    }

    #[test]
    fn rule_player_leads_a_full_house_and_around_an_opponent_about_to_go_out() {
        let leading = |own: &str, next: &str| {
            let hands = [hand(own), hand(next), hand(MANY), hand(MANY)];
            Deal::resume(hands, 0, 0, None, 0, 0, &[], false).unwrap()
        };
        let deal = leading("3c3d3s5c5d9hKs", MANY);
        assert_eq!(rule_text(&deal).as_deref(), Some("33355"));
        // Seat 1 holds one card: the pair goes first, not the lower single.
        let deal = leading("3c6c6dKs", "Ah");
        assert_eq!(rule_text(&deal).as_deref(), Some("66"));
    }

    #[test]
    fn plan_keeps_runs_that_save_plays() {
        let (counts, _) = counts_of(&hand("3c4d5h6s7c8c8d9c9dTcTd"), 0);
        let (groups, turns) = plan(&counts, 0);
        // 34567 and 8899TT as two plays, rather than five singles and three pairs.
        assert_eq!(turns, 2);
        let kinds: Vec<Kind> = groups.iter().map(|g| g.kind).collect();
        assert!(kinds.contains(&Kind::Straight) && kinds.contains(&Kind::PairRun));
    }

    #[test]
    fn search_candidates_start_with_the_rule_move() {
        let deal = answering("3c4d5h6s7c9dKdKs", "5", [MANY, MANY, MANY]);
        let moves = candidates(&deal);
        assert_eq!(moves[0], rule_move(&deal));
        assert!(moves.contains(&None));
        assert!(moves.iter().all(|m| deal.legal().contains(m)));
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
        let mv = search_move(
            &deal,
            &unknown,
            2,
            Endgame::OFF,
            &mut rng,
            &crate::cancel::NEVER,
        )
        .unwrap();
        assert!(deal.legal().contains(&mv));
        rule_playout(&mut deal);
        assert_eq!(deal_score(&deal, 0), -deal_score(&deal, 1));
    }
}
