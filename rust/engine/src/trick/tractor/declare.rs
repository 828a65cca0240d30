//! Declaring from search: the expected level result of each speech a seat may make
//! while declaring, from deals sampled to fit what the seat knows (its 25 cards and
//! the declarations so far), each played to the end by a playout policy that
//! speaks, buries and plays for every seat ([`declare_values`]; the Python
//! `TractorSearchAgent(declaring="search")` reads it, see docs/tractor.md).
//!
//! The playout policy is a model of the players, not a rule: the speeches left
//! follow [`rule_declare`], the dealer buries by [`rule_burial`] and the card play
//! is [`Deal::heuristic_id`](super::deal::Deal::heuristic_id). The rules
//! themselves (who may declare what, when declaring ends, the exposed kitty, the
//! dealer, the scoring) are the [`Round`]'s.

use super::deal::{HAND_SIZE, KITTY, SEATS};
use super::round::{Phase, Round, ACE};
use super::{declare_cards, Hand, Trumps, BURY, DECLARE_BLACK, DECLARE_SINGLE, PASS_ID};
use crate::cancel::Cancel;
use crate::cards::{Card, NUM_CARDS};
use crate::error::{EngineError, Result};
use crate::rng::CardRng;

/// The least trumps a suit must give a hand for [`rule_declare`] to declare it.
pub const DECLARE_TRUMPS: u32 = 10;
/// The least level cards and jokers for [`rule_declare`] to declare no-trump.
pub const NO_TRUMP_HONOURS: u32 = 6;

/// What a seat knows while declaring: the question [`declare_values`] answers.
#[derive(Clone, Debug)]
pub struct DeclareQuery {
    /// The seat to speak.
    pub seat: u8,
    /// Its 25 cards.
    pub hand: Hand,
    /// Each team's level (0: seats 0 and 2), 0..=12.
    pub levels: [u8; 2],
    /// The deal's dealer; `None` in a match's first deal (the first declarer deals).
    pub dealer: Option<u8>,
    /// Who spoke first (the dealer in later deals).
    pub first_speaker: u8,
    /// The declarations so far as (seat, action id), in order.
    pub declarations: Vec<(u8, u32)>,
}

/// The rule of thumb for a speech (the rule agent's): among the listed `legal`
/// ids, the declaration whose suit gives `hand` the most trumps when that is at
/// least [`DECLARE_TRUMPS`] (level cards and jokers count for every suit; the
/// first listed of equals, so a single before a pair), or a joker pair (no-trump)
/// scored as four more than the hand's level cards and jokers when it holds at
/// least [`NO_TRUMP_HONOURS`] of them; else `pass`.
pub fn rule_declare(hand: &Hand, level: u8, legal: &[u32]) -> u32 {
    let honours = hand.cards().iter().filter(|c| honour(**c, level)).count() as u32;
    let mut best: Option<(u32, u32)> = None;
    for &id in legal {
        if !(DECLARE_SINGLE..BURY).contains(&id) {
            continue;
        }
        let score = if id >= DECLARE_BLACK {
            if honours >= NO_TRUMP_HONOURS {
                honours + 4
            } else {
                0
            }
        } else {
            let suit = ((id - DECLARE_SINGLE) % 4) as u8;
            let side = hand
                .cards()
                .iter()
                .filter(|c| c.suit() == Some(suit) && c.rank() != level)
                .count() as u32;
            honours + side
        };
        if score >= DECLARE_TRUMPS && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, id));
        }
    }
    best.map_or(PASS_ID, |(_, id)| id)
}

/// A level card or a joker: a trump whatever suit is declared.
fn honour(card: Card, level: u8) -> bool {
    card.is_joker() || card.rank() == level
}

/// The rule agent's burial, one card at a time: the card that costs least to lose,
/// judged by (a trump, an ace or one of a pair, the length of its side suit, fewer
/// points first, weaker first, lower card index first); so the shortest side suit
/// goes first, its point cards before its low cards, and trumps, aces and pairs
/// stay while other cards remain. Returns the [`KITTY`] cards buried.
pub fn rule_burial(hand: &Hand, trumps: &Trumps) -> Vec<Card> {
    let mut held = *hand;
    let mut buried = Vec::with_capacity(KITTY);
    for _ in 0..KITTY {
        let cards = held.cards();
        let mut lengths = [0u32; 4];
        for c in &cards {
            if !trumps.is_trump(*c) {
                if let Some(s) = c.suit() {
                    lengths[usize::from(s)] += 1;
                }
            }
        }
        let cost = |c: &Card| {
            let is_trump = trumps.is_trump(*c);
            let keep = u8::from(c.rank() == ACE) + u8::from(held.count(*c) == 2);
            let length = match c.suit() {
                Some(s) if !is_trump => lengths[usize::from(s)],
                _ => 99,
            };
            let points = Hand {
                one: 1 << c.index(),
                two: 0,
            }
            .points();
            (
                is_trump,
                keep,
                length,
                std::cmp::Reverse(points),
                trumps.position(*c),
                c.index(),
            )
        };
        let Some(&card) = cards.iter().min_by_key(|c| cost(c)) else {
            break;
        };
        held.take(card);
        buried.push(card);
    }
    buried
}

/// Finish `round` with the playout policy: the speeches left by [`rule_declare`],
/// the burial by [`rule_burial`], the card play by the heuristic rollout policy.
/// Stops early only if the policy finds no legal id (which a whole deal never
/// leaves it).
pub fn finish(round: &mut Round, rng: &mut CardRng) {
    let mut ids = Vec::with_capacity(64);
    while let Some(seat) = round.to_act() {
        let seat = usize::from(seat);
        match round.phase() {
            Phase::Declare => {
                round.legal_ids(&mut ids);
                let id = rule_declare(&round.hand(seat), round.level(), &ids);
                if round.apply(id).is_err() {
                    return;
                }
            }
            Phase::Bury => {
                let suit = round.trump().flatten();
                let Ok(trumps) = Trumps::new(round.level(), suit) else {
                    return;
                };
                let burial = rule_burial(&round.hand(seat), &trumps);
                let ids: Vec<u32> = burial.iter().map(|c| BURY + u32::from(c.index())).collect();
                if round.apply_ids(&ids).is_err() {
                    return;
                }
            }
            Phase::Play => {
                round.legal_ids(&mut ids);
                let Some(deal) = round.play() else {
                    return;
                };
                if ids.is_empty() {
                    return;
                }
                let id = deal.heuristic_id(&ids, rng);
                if round.apply(id).is_err() {
                    return;
                }
            }
            Phase::Over => return,
        }
    }
}

/// The cards each other seat is known to hold: those its declarations showed (the
/// most copies of each that one of them showed).
fn shown_cards(query: &DeclareQuery) -> [Hand; SEATS] {
    let mut shown = [Hand::EMPTY; SEATS];
    for &(who, id) in &query.declarations {
        let cards = declare_cards(id, level_of(query));
        let known = &mut shown[usize::from(who)];
        known.one |= cards.one;
        known.two |= cards.two;
    }
    shown[usize::from(query.seat)] = Hand::EMPTY;
    shown
}

/// The deal's level: the dealer's team's, or both teams' in a first deal.
fn level_of(query: &DeclareQuery) -> u8 {
    query.levels[usize::from(query.dealer.unwrap_or(0) % 2)]
}

/// The speeches before the seat's turn: passes from the first speaker up to each
/// declarer, the declarations, then passes up to the seat. An `IllegalAction` when
/// the declarations cannot have been made in turn with the seat to speak now.
fn replay(round: &mut Round, query: &DeclareQuery) -> Result<()> {
    let misfit = || {
        EngineError::IllegalAction(format!(
            "declarations {:?} do not fit a declaring in turn from seat {} with seat {} \
             to speak now",
            query.declarations, query.first_speaker, query.seat
        ))
    };
    let mut speaker = query.first_speaker;
    let pass_to = |round: &mut Round, speaker: &mut u8, to: u8| -> Result<()> {
        while *speaker != to {
            round.apply(PASS_ID).map_err(|_| misfit())?;
            if round.phase() != Phase::Declare {
                return Err(misfit());
            }
            *speaker = (*speaker + 1) % SEATS as u8;
        }
        Ok(())
    };
    for &(who, id) in &query.declarations {
        if !(DECLARE_SINGLE..BURY).contains(&id) {
            return Err(EngineError::IllegalAction(format!(
                "declaration id {id} is no declaration (ids 1-10)"
            )));
        }
        pass_to(round, &mut speaker, who)?;
        round.apply(id).map_err(|_| misfit())?;
        speaker = (speaker + 1) % SEATS as u8;
    }
    pass_to(round, &mut speaker, query.seat)
}

/// Check `query` and the `candidates` for [`declare_values`].
fn check(query: &DeclareQuery, candidates: &[u32], worlds: u32) -> Result<()> {
    let bad = |why: String| Err(EngineError::RuleOption(why));
    let seat_ok = |s: u8| usize::from(s) < SEATS;
    if !seat_ok(query.seat)
        || !seat_ok(query.first_speaker)
        || query.dealer.is_some_and(|d| !seat_ok(d))
        || query.declarations.iter().any(|&(s, _)| !seat_ok(s))
    {
        return bad(format!(
            "seat {}, first speaker {}, dealer {:?} and declarers must be seats 0-3",
            query.seat, query.first_speaker, query.dealer
        ));
    }
    if query.dealer.is_some_and(|d| d != query.first_speaker) {
        return bad(format!(
            "the dealer ({:?}) speaks first in a later deal, not seat {}",
            query.dealer, query.first_speaker
        ));
    }
    if query.levels.iter().any(|&l| l > ACE) {
        return bad(format!("levels {:?} must be 0-12", query.levels));
    }
    if query.hand.len() != HAND_SIZE as u32 {
        return Err(EngineError::InvalidCard(format!(
            "hand must be the seat's {HAND_SIZE} cards, got {}",
            query.hand.len()
        )));
    }
    if worlds == 0 {
        return bad("worlds must be at least 1".into());
    }
    if candidates.is_empty() || candidates.iter().any(|&id| id >= BURY) {
        return Err(EngineError::IllegalAction(format!(
            "candidates {candidates:?} must be speech ids: 0 pass, 1-10 declarations"
        )));
    }
    Ok(())
}

/// One sampled deal: the seat's hand, the cards each other seat showed, the rest
/// of the pack shuffled over the other hands and the kitty; the deck order
/// `Round::new` takes (25 cards a seat from seat 0, then the kitty).
fn sample_order(
    query: &DeclareQuery,
    shown: &[Hand; SEATS],
    rng: &mut CardRng,
) -> Result<Vec<Card>> {
    let full = Hand {
        one: (1u64 << NUM_CARDS) - 1,
        two: (1u64 << NUM_CARDS) - 1,
    };
    let mut pool = full.minus(&query.hand);
    for known in shown {
        pool = pool.and_then(|p| p.minus(known));
    }
    let too_many = shown.iter().any(|h| h.len() > HAND_SIZE as u32);
    let Some(pool) = pool.filter(|_| !too_many) else {
        return Err(EngineError::IllegalAction(
            "the declarations show cards the hand holds, or more than a hand".into(),
        ));
    };
    let mut rest = pool.cards();
    rng.shuffle(&mut rest);
    let mut rest = rest.into_iter();
    let mut order = Vec::with_capacity(SEATS * HAND_SIZE + KITTY);
    for (s, known) in shown.iter().enumerate() {
        let own = if s == usize::from(query.seat) {
            query.hand
        } else {
            *known
        };
        let start = order.len();
        order.extend(own.cards());
        let missing = HAND_SIZE - (order.len() - start);
        order.extend(rest.by_ref().take(missing));
    }
    order.extend(rest);
    Ok(order)
}

/// The seat's team's mean level result (the deal's return for the seat: the levels
/// it gives the seat's team minus those it gives the other) after each speech of
/// `candidates` (0 `pass`, 1-10 declarations), over `worlds` sampled deals.
///
/// Each world deals the cards the seat cannot see at random to the other hands (a
/// declarer keeping the cards it showed) and the kitty, replays the speeches so far
/// (passes from the first speaker to each declarer, then to the seat), and for each
/// candidate plays the deal out with the playout policy ([`finish`]): the others
/// may overcall, four passes expose the kitty, the dealer buries and every card is
/// played. Candidates share each world and each playout seed (common random
/// numbers), so their differences are less noisy than their values. Deterministic
/// given `seed`; polls `cancel` once per world.
pub fn declare_values(
    query: &DeclareQuery,
    candidates: &[u32],
    worlds: u32,
    seed: u64,
    cancel: &Cancel,
) -> Result<Vec<f64>> {
    check(query, candidates, worlds)?;
    let shown = shown_cards(query);
    let mut rng = CardRng::new(seed);
    let mut totals = vec![0.0f64; candidates.len()];
    for _ in 0..worlds {
        cancel.check()?;
        let order = sample_order(query, &shown, &mut rng)?;
        let mut round = Round::new(&order, query.levels, query.dealer, query.first_speaker)?;
        replay(&mut round, query)?;
        let playout_seed = rng.next_u64();
        for (total, &id) in totals.iter_mut().zip(candidates) {
            let mut next = round.clone();
            next.apply(id).map_err(|_| {
                EngineError::IllegalAction(format!(
                    "candidate {id} is no speech the seat may make now"
                ))
            })?;
            finish(&mut next, &mut CardRng::new(playout_seed));
            *total += f64::from(next.returns()[usize::from(query.seat)]);
        }
    }
    Ok(totals.into_iter().map(|t| t / f64::from(worlds)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::cards::parse_cards;
    use crate::trick::tractor::DECLARE_PAIR;

    fn hand(text: &str) -> Hand {
        Hand::from_cards(&parse_cards(text).unwrap()).unwrap()
    }

    /// 25 cards: ten hearts and two level cards (twelve trumps with hearts), the
    /// rest short side cards.
    const LONG_HEARTS: &str =
        "2h 2c 3h 4h 5h 6h 7h 8h 9h Th Jh Qh 3c 4c 5c 6c 7c 3d 4d 5d 6d 3s 4s 5s 6s";
    /// 25 cards without a level card or joker, no suit longer than seven.
    const WEAK: &str = "3c 4c 5c 6c 7c 8c 9c 3d 4d 5d 6d 7d 8d 3h 4h 5h 6h 7h 8h 3s 4s 5s 6s 7s 8s";

    fn query(cards: &str) -> DeclareQuery {
        DeclareQuery {
            seat: 0,
            hand: hand(cards),
            levels: [0, 0],
            dealer: None,
            first_speaker: 0,
            declarations: Vec::new(),
        }
    }

    #[test]
    fn the_rule_declares_a_long_suit_and_passes_a_weak_hand() {
        let legal = [PASS_ID, DECLARE_SINGLE, DECLARE_SINGLE + 2];
        assert_eq!(
            rule_declare(&hand(LONG_HEARTS), 0, &legal),
            DECLARE_SINGLE + 2
        );
        assert_eq!(rule_declare(&hand(WEAK), 0, &[PASS_ID]), PASS_ID);
    }

    #[test]
    fn the_burial_keeps_trumps_and_takes_the_shortest_suit_first() {
        let trumps = Trumps::new(0, Some(2)).unwrap();
        let dealer = hand(&format!("{LONG_HEARTS} As Ks Kd 9c 9c Tc Jc Qc"));
        let buried = rule_burial(&dealer, &trumps);
        assert_eq!(buried.len(), KITTY);
        assert!(buried.iter().all(|c| !trumps.is_trump(*c)));
        assert!(dealer.holds(&Hand::from_cards(&buried).unwrap()));
    }

    #[test]
    fn values_are_seeded_and_favour_declaring_a_long_suit() {
        let q = query(LONG_HEARTS);
        let candidates = [PASS_ID, DECLARE_SINGLE + 2];
        let a = declare_values(&q, &candidates, 64, 7, &NEVER).unwrap();
        let b = declare_values(&q, &candidates, 64, 7, &NEVER).unwrap();
        assert_eq!(a, b);
        assert!(a[1] > a[0], "{a:?}");
        let mut weak = query(WEAK);
        weak.seat = 1;
        weak.declarations = vec![(0, DECLARE_SINGLE)];
        // Seat 0 declared 2c and seat 1 cannot overcall; it may only pass.
        let v = declare_values(&weak, &[PASS_ID], 8, 1, &NEVER).unwrap();
        assert_eq!(v.len(), 1);
    }

    #[test]
    fn histories_and_candidates_that_do_not_fit_are_refused() {
        let q = query(LONG_HEARTS);
        // A pair of 2h is not in the hand.
        assert!(declare_values(&q, &[DECLARE_PAIR + 2], 4, 0, &NEVER).is_err());
        assert!(declare_values(&q, &[BURY], 4, 0, &NEVER).is_err());
        assert!(declare_values(&q, &[], 4, 0, &NEVER).is_err());
        assert!(declare_values(&q, &[PASS_ID], 0, 0, &NEVER).is_err());
        let mut late = query(LONG_HEARTS);
        // Seat 1 declared, then three passes would have ended the declaring.
        late.declarations = vec![(1, DECLARE_SINGLE)];
        late.seat = 1;
        assert!(declare_values(&late, &[PASS_ID], 4, 0, &NEVER).is_err());
        let thin = query("2h 3h");
        assert!(declare_values(&thin, &[PASS_ID], 4, 0, &NEVER).is_err());
        // Seat 1 showed the 2h pair, and seat 0 holds two 2h too: four copies.
        let mut three = query(&LONG_HEARTS.replace("2c", "2h"));
        three.declarations = vec![(1, DECLARE_PAIR + 2)];
        three.first_speaker = 1;
        assert!(declare_values(&three, &[PASS_ID], 4, 0, &NEVER).is_err());
        // In a later deal the dealer speaks first: seat 0 cannot speak first for dealer 2.
        let mut dealt = query(LONG_HEARTS);
        dealt.dealer = Some(2);
        assert!(declare_values(&dealt, &[PASS_ID], 4, 0, &NEVER).is_err());
    }
}
