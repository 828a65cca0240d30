//! Hearts play for AI search: a deal from the first lead to the last trick, with
//! the seed's rules (2♣ leads, follow suit, no penalty discards on the first trick
//! while a safe card remains, hearts led only once broken) and its scoring.

use super::endgame::Solvable;
use super::{
    deal_hands, highest, lowest, playout, suit_cards, suit_of, trick_winner, PlayoutPolicy,
    TrickPlay, TrickTable, WonTrick, SUIT_MASKS,
};
use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::rng::CardRng;

/// Suit indices.
const CLUBS: u8 = 0;
const HEARTS: u8 = 2;
const SPADES: u8 = 3;
/// The 2♣ (index 0) opens the deal; Q♠ costs 13.
pub const TWO_OF_CLUBS: Card = Card::new(0, CLUBS);
pub const QUEEN_OF_SPADES: Card = Card::new(10, SPADES);
const KING_OF_SPADES: Card = Card::new(11, SPADES);
const ACE_OF_SPADES: Card = Card::new(12, SPADES);
/// Every penalty card: the hearts and Q♠.
pub const PENALTY_CARDS: CardSet =
    CardSet(SUIT_MASKS[HEARTS as usize] | (1u64 << QUEEN_OF_SPADES.index()));

/// Penalty points of a set of cards: one per heart, thirteen for Q♠.
pub fn penalty(cards: CardSet) -> i32 {
    let hearts = suit_cards(cards, HEARTS).len() as i32;
    hearts
        + if cards.contains(QUEEN_OF_SPADES) {
            13
        } else {
            0
        }
}

/// The deal's points from what each seat took: one per heart, 13 for Q♠; a seat
/// that took all 26 scores 0 and every other seat 26.
pub fn deal_points(taken: &[CardSet; 4]) -> [i32; 4] {
    let points = taken.map(penalty);
    if let Some(shooter) = points.iter().position(|&p| p == 26) {
        let mut moon = [26; 4];
        moon[shooter] = 0;
        return moon;
    }
    points
}

/// Points taken so far from which a seat that holds all of them is played against
/// as a moon shooter: by then it usually has Q♠ or a run of heart tricks, and
/// stopping it costs a point or two where a moon costs 26.
pub const MOON_ALERT: i32 = 10;

/// What a search values in a finished deal, for the searching seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HeartsObjective {
    /// `mean(points) - own`: the single deal's zero-sum return. An opponent's moon
    /// (-6.5) is worth the same as taking Q♠ (-6.5), so it does not pay to stop one.
    ZeroSum,
    /// `mean(points) / 2 - own`: own points, with half the table mean credited. Without
    /// a moon every seat's points add up to 26, so this orders deals like own points
    /// (and like the zero-sum return); an opponent's moon is -16.25 (taking Q♠ and a
    /// heart to stop it, -10.75, is better) and our own moon +9.75 (a clean deal, 3.25).
    Deal,
    /// `-own`: own points alone, the measure of a duplicate comparison (the seat's
    /// points against another agent's in the same seat and deal). An opponent's moon
    /// is -26 (stopping it with Q♠ and a heart, -14, is better) and our own moon 0,
    /// no better than a clean deal, so the search never risks points to shoot.
    Own,
    /// The match standing after the deal: the lead in total points over the nearest
    /// rival (negative when behind), plus [`MATCH_WIN`] shared among the seats
    /// with the lowest total, or minus it, when some total reaches `target`. An
    /// opponent's moon costs what it does to the standing: 26 when the shooter is
    /// the nearest rival, nothing when a trailing seat shoots.
    Match {
        /// Match totals before this deal.
        scores: [i32; 4],
        /// The total that ends the match.
        target: i32,
    },
}

/// What winning (or losing) the match is worth in the match objective, in points
/// of standing: two moons, more than any one deal can change the lead.
pub const MATCH_WIN: f64 = 52.0;

impl HeartsObjective {
    /// The value for `seat` of a finished deal that scored `points`.
    pub fn value(&self, points: [i32; 4], seat: usize) -> f64 {
        let mean = f64::from(points.iter().sum::<i32>()) / 4.0;
        let own = f64::from(points[seat]);
        match *self {
            HeartsObjective::ZeroSum => mean - own,
            HeartsObjective::Deal => mean / 2.0 - own,
            HeartsObjective::Own => -own,
            HeartsObjective::Match { scores, target } => {
                let totals: [i32; 4] = std::array::from_fn(|s| scores[s] + points[s]);
                let rival = (0..4)
                    .filter(|&s| s != seat)
                    .map(|s| totals[s])
                    .min()
                    .unwrap_or(0);
                let lead = f64::from(rival - totals[seat]);
                if totals.iter().all(|&t| t < target) {
                    return lead;
                }
                let low = totals.iter().copied().min().unwrap_or(0);
                if totals[seat] > low {
                    return lead - MATCH_WIN;
                }
                let sharing = totals.iter().filter(|&&t| t == low).count() as f64;
                lead + MATCH_WIN / sharing
            }
        }
    }
}

/// The heuristic a search's playouts play Hearts with, every seat alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeartsPolicy {
    /// The plain ducking heuristic, which does not read the cards out.
    Plain,
    /// The card-counting heuristic ([`HeartsDeal::counting`]).
    Counting,
    /// The card-counting heuristic that also unloads ([`HeartsDeal::unloading`]).
    Unloading,
}

impl HeartsPolicy {
    /// Give every seat of `deal` this heuristic.
    pub fn apply(self, deal: &mut HeartsDeal) {
        let (counting, unloading) = match self {
            HeartsPolicy::Plain => (0, 0),
            HeartsPolicy::Counting => (0b1111, 0),
            HeartsPolicy::Unloading => (0b1111, 0b1111),
        };
        deal.counting = counting;
        deal.unloading = unloading;
    }
}

/// A Hearts deal in play, after the pass.
#[derive(Clone, Debug)]
pub struct HeartsDeal {
    /// Hands, the trick in progress, and whether hearts are broken (Q♠ does not
    /// break them).
    pub table: TrickTable,
    /// The cards each seat has won.
    pub taken: [CardSet; 4],
    /// Whether the heuristic shoots the moon with control of Q♠ and the top hearts
    /// (every seat) and defends against one (the seats in `moon_defenders`). Off,
    /// it is the plain ducking policy.
    pub moon_play: bool,
    /// Seats (bit `s` for seat `s`) whose heuristic takes a point from a seat that
    /// holds every point so far. A search gives it only to the searching seat, so
    /// that it never counts on the other seats to stop a shooter.
    pub moon_defenders: u8,
    /// Seats (bit `s` for seat `s`) whose heuristic counts cards
    /// ([`HeartsDeal::counting_card`]) instead of the plain ducking policy. Off
    /// (0) everywhere unless a search asks for it, so older searches play as before.
    pub counting: u8,
    /// Seats (bit `s` for seat `s`) whose counting heuristic also unloads: last
    /// to a clean trick it takes it with its highest card, and void it sheds
    /// singletons and hearts sooner and keeps A♠/K♠ behind three more spades
    /// ([`HeartsPolicy::Unloading`]). Off (0) unless a search asks for it.
    pub unloading: u8,
}

impl HeartsDeal {
    /// A fresh deal of `hands`; the holder of 2♣ leads.
    pub fn new(hands: [CardSet; 4]) -> HeartsDeal {
        let leader = hands
            .iter()
            .position(|h| h.contains(TWO_OF_CLUBS))
            .unwrap_or(0);
        HeartsDeal {
            table: TrickTable::new(hands, leader),
            taken: [CardSet::EMPTY; 4],
            moon_play: false,
            moon_defenders: 0,
            counting: 0,
            unloading: 0,
        }
    }

    /// A random deal of 13 cards each, without passing.
    pub fn random(rng: &mut CardRng) -> HeartsDeal {
        HeartsDeal::new(deal_hands(rng))
    }

    /// Points each seat scores for this deal so far (final once the deal is over).
    pub fn points(&self) -> [i32; 4] {
        deal_points(&self.taken)
    }

    /// The moon-aware heuristic's card for the seat to act when a moon is on
    /// (see [`HeartsDeal::moon_play`]), `None` otherwise. It reads only that seat's
    /// hand, the cards won and the unplayed cards as a whole, so the other hands may
    /// hold the unseen cards in any split.
    pub fn moon_move(&self) -> Option<Card> {
        let legal = self.legal();
        if legal.is_empty() {
            return None;
        }
        self.moon_card(legal, true)
    }

    /// The card the moon-aware heuristic plays when a moon is on: shooting it
    /// (when this seat may), or, if it `defend`s, stopping the seat that holds
    /// every point so far.
    /// `None` when neither applies or the defence has no better card than the
    /// plain heuristic.
    fn moon_card(&self, legal: CardSet, defend: bool) -> Option<Card> {
        let t = &self.table;
        let me = t.to_act();
        let in_trick = CardSet::from_cards(t.trick().iter().copied());
        let unplayed = t.hands.iter().fold(CardSet::EMPTY, |a, h| a.union(*h));
        if penalty(unplayed.union(in_trick)) == 0 {
            return None;
        }
        let points = self.taken.map(penalty);
        if (0..4).all(|s| s == me || points[s] == 0) && self.can_shoot(me, unplayed, defend) {
            return Some(self.shoot(legal, unplayed));
        }
        if !defend {
            return None;
        }
        let total: i32 = points.iter().sum();
        let shooter = (0..4).find(|&s| s != me && total >= MOON_ALERT && points[s] == total)?;
        self.defend(legal, shooter, unplayed)
    }

    /// Whether `seat` should go for the moon (no other seat has a point): it holds
    /// or took Q♠, the top hearts still out (at least three above every heart
    /// elsewhere, or all that remain), and half its hand is jacks or better. A seat
    /// that does not `defend` (an opponent in a search's playouts) also plays out
    /// a shot under way, every point so far and at least [`MOON_ALERT`]: the
    /// searching seat must not count on it giving up.
    fn can_shoot(&self, seat: usize, unplayed: CardSet, defend: bool) -> bool {
        if !defend && penalty(self.taken[seat]) >= MOON_ALERT {
            return true;
        }
        let hand = self.table.hands[seat];
        if !(hand.contains(QUEEN_OF_SPADES) || self.taken[seat].contains(QUEEN_OF_SPADES)) {
            return false;
        }
        let mine = suit_cards(hand, HEARTS);
        let elsewhere = suit_cards(unplayed.difference(hand), HEARTS);
        let above = if elsewhere.is_empty() {
            mine.len()
        } else {
            CardSet(mine.0 & !((2u64 << highest(elsewhere).index()) - 1)).len()
        };
        let high = CardSet(hand.0 & !((1u64 << Card::new(9, CLUBS).index()) - 1)).len();
        above >= elsewhere.len().min(3) && 2 * high >= hand.len()
    }

    /// Shooting: lead a card that is the top of its suit still out (else the
    /// highest), win tricks with the highest card that wins, and discard
    /// non-penalty cards so that no point goes to another seat.
    fn shoot(&self, legal: CardSet, unplayed: CardSet) -> Card {
        let trick = self.table.trick();
        if trick.is_empty() {
            for s in [HEARTS, SPADES, 1, CLUBS] {
                let cards = suit_cards(legal, s);
                if !cards.is_empty() && highest(cards) == highest(suit_cards(unplayed, s)) {
                    return highest(cards);
                }
            }
            return highest(legal);
        }
        let win_card = trick[trick_winner(trick, None)];
        let follow = suit_cards(legal, suit_of(trick[0]));
        if !follow.is_empty() {
            let top = highest(follow);
            return if top.index() > win_card.index() {
                top
            } else {
                lowest(follow)
            };
        }
        let clean = legal.difference(PENALTY_CARDS);
        lowest(if clean.is_empty() { legal } else { clean })
    }

    /// Defence against `shooter`, who holds every point so far: lead the top heart
    /// when we hold it; overtake the shooter's winning card; when the shooter is
    /// still to play, follow high; never discard a point onto the shooter's trick
    /// (discards onto another seat's trick stay the plain heuristic's, which sheds
    /// points there).
    fn defend(&self, legal: CardSet, shooter: usize, unplayed: CardSet) -> Option<Card> {
        let t = &self.table;
        let trick = t.trick();
        if trick.is_empty() {
            let hearts = suit_cards(legal, HEARTS);
            return (!hearts.is_empty()
                && highest(hearts) == highest(suit_cards(unplayed, HEARTS)))
            .then(|| highest(hearts));
        }
        let shooter_played = (shooter + 4 - t.leader) % 4 < trick.len();
        let win_pos = trick_winner(trick, None);
        let win_card = trick[win_pos];
        let shooter_wins = (t.leader + win_pos) % 4 == shooter;
        let follow = suit_cards(legal, suit_of(trick[0]));
        if !follow.is_empty() {
            if !shooter_played {
                let safe = follow.difference(CardSet::EMPTY.with(QUEEN_OF_SPADES));
                return Some(highest(if safe.is_empty() { follow } else { safe }));
            }
            let over = CardSet(follow.0 & !((2u64 << win_card.index()) - 1));
            return (shooter_wins && !over.is_empty()).then(|| lowest(over));
        }
        if shooter_played && !shooter_wins {
            return None;
        }
        let clean = legal.difference(PENALTY_CARDS);
        (!clean.is_empty()).then(|| highest(clean))
    }

    /// The card-counting policy ([`HeartsDeal::counting`]): it reads the other
    /// hands only as a whole (the unplayed cards, never who holds which), so it
    /// sees whether a lead can win, whether Q♠ is still out and when a trick is
    /// won anyway, which the plain policy does not.
    fn counting_card(&self, legal: CardSet) -> Card {
        let t = &self.table;
        let hand = t.hands[t.to_act()];
        let unplayed = t.hands.iter().fold(CardSet::EMPTY, |a, h| a.union(*h));
        let others = unplayed.difference(hand);
        let trick = t.trick();
        if trick.is_empty() {
            return counting_lead(legal, hand, others);
        }
        let led = suit_of(trick[0]);
        let follow = suit_cards(legal, led);
        let unloading = self.unloading >> t.to_act() & 1 == 1;
        if follow.is_empty() {
            return counting_discard(legal, hand, others, unloading);
        }
        let win_card = trick[trick_winner(trick, None)];
        if follow.contains(QUEEN_OF_SPADES)
            && (win_card == KING_OF_SPADES || win_card == ACE_OF_SPADES)
        {
            return QUEEN_OF_SPADES;
        }
        let no_queen = CardSet::EMPTY.with(QUEEN_OF_SPADES);
        let safe = follow.difference(no_queen);
        let safe = if safe.is_empty() { follow } else { safe };
        if t.tricks_played == 0 {
            // The first trick carries no points while anyone has a safe card:
            // unload the highest club.
            return highest(safe);
        }
        let under = CardSet(follow.0 & below(win_card));
        let clean = penalty(CardSet::from_cards(trick.iter().copied())) == 0;
        if unloading && trick.len() == 3 && clean {
            // Last to a clean trick: taking it costs nothing now and rids the
            // hand of a card that could win a trick with points later.
            return highest(safe);
        }
        if !under.is_empty() {
            let duck = under.difference(no_queen);
            return highest(if duck.is_empty() { under } else { duck });
        }
        if trick.len() == 3 {
            // Last to play and winning anyway: unload the highest card.
            return highest(safe);
        }
        // Forced over with seats still to play: a side suit with enough cards
        // out that every later seat can likely follow makes a clean trick, so win
        // it high; otherwise the lowest, hoping to be overtaken.
        let later = 3 - trick.len() as u32;
        if clean && led != HEARTS && led != SPADES && suit_cards(others, led).len() >= 3 * later {
            return highest(safe);
        }
        lowest(safe)
    }

    fn heuristic_lead(&self, legal: CardSet) -> Card {
        // Lead low from the suit where we are longest outside spades, keeping
        // spades back while Q♠ is out and we hold no protection.
        let hand = self.table.hands[self.to_act()];
        let mut best = lowest(legal);
        let mut best_len = 0;
        for s in [CLUBS, 1, HEARTS, SPADES] {
            let cards = suit_cards(legal, s);
            if cards.is_empty() {
                continue;
            }
            let mut len = suit_cards(hand, s).len() * 2;
            if s == SPADES && !hand.contains(QUEEN_OF_SPADES) {
                // Leading low spades smokes out Q♠ safely.
                len += 3;
            }
            if s == HEARTS {
                len = len.saturating_sub(4);
            }
            if len > best_len {
                best_len = len;
                best = lowest(cards);
            }
        }
        best
    }
}

/// Average `value` for `seat` of each candidate pass (three cards of `hand`,
/// passed `offset` seats to the left: 1 left, 2 across, 3 right) over `worlds`
/// deals of the 39 unseen cards, each played from the first lead to the end by
/// `policy` with moon play (only `seat` defends) and the `heuristic` of every
/// seat. The seat that passes to `seat` gives it three random cards of its hand,
/// and the other seats' passes are not modelled: they change hands `seat` cannot
/// see either way. Every candidate meets the same worlds and
/// random streams, so their differences are not noise. Polls `cancel` once per
/// world.
#[allow(clippy::too_many_arguments)]
pub fn pass_values<V: Fn(&HeartsDeal) -> f64>(
    seat: usize,
    hand: CardSet,
    passes: &[CardSet],
    offset: usize,
    worlds: u32,
    seed: u64,
    policy: PlayoutPolicy,
    heuristic: HeartsPolicy,
    value: V,
    cancel: &Cancel,
) -> Result<Vec<f64>> {
    let bad = |why: String| Err(EngineError::RuleOption(why));
    if seat >= 4 || !(1..=3).contains(&offset) {
        return bad(format!("seat {seat} must be 0..3 and offset {offset} 1..3"));
    }
    if hand.len() != 13 || hand.0 >> 52 != 0 {
        return bad(format!(
            "hand must be 13 cards of one pack, got {}",
            hand.len()
        ));
    }
    // Distinct passes bound the playouts between two Ctrl-C checks (one world)
    // to the 286 three-card sets of a hand, whatever the list's length.
    let mut distinct: Vec<u64> = passes.iter().map(|p| p.0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if passes.is_empty()
        || distinct.len() != passes.len()
        || passes
            .iter()
            .any(|p| p.len() != 3 || !p.difference(hand).is_empty())
    {
        return bad("passes must be distinct sets of three cards of the hand".into());
    }
    let receiver = (seat + offset) % 4;
    let passer = (seat + 4 - offset) % 4;
    let mut unseen: Vec<u8> = (0..52u8).filter(|&i| hand.0 >> i & 1 == 0).collect();
    let mut totals = vec![0.0; passes.len()];
    let mut rng = CardRng::new(seed);
    for _ in 0..worlds {
        cancel.check()?;
        rng.shuffle(&mut unseen);
        let mut hands = [CardSet::EMPTY; 4];
        hands[seat] = hand;
        let mut incoming = CardSet::EMPTY;
        let others = (1..4).map(|k| (seat + k) % 4);
        for (k, other) in others.enumerate() {
            for (j, &c) in unseen[13 * k..13 * k + 13].iter().enumerate() {
                hands[other].0 |= 1u64 << c;
                if other == passer && j < 3 {
                    incoming.0 |= 1u64 << c;
                }
            }
        }
        let stream = rng.next_u64();
        for (total, &pass) in totals.iter_mut().zip(passes) {
            let mut after = hands;
            after[passer] = after[passer].difference(incoming);
            after[receiver] = after[receiver].union(pass);
            after[seat] = hand.difference(pass).union(incoming);
            let mut deal = HeartsDeal::new(after);
            deal.moon_play = true;
            deal.moon_defenders = 1 << seat;
            heuristic.apply(&mut deal);
            playout(&mut deal, policy, &mut CardRng::new(stream));
            *total += value(&deal);
        }
    }
    let n = f64::from(worlds.max(1));
    Ok(totals.iter().map(|t| t / n).collect())
}

/// Bits of the cards below `card` in index order (every lower rank, all suits).
#[inline]
fn below(card: Card) -> u64 {
    (1u64 << card.index()) - 1
}

/// The card-counting policy's lead: from each suit it may lead, the lowest card,
/// scored by how many of the other hands' cards of that suit lie under it (0: it
/// cannot win while anyone follows), by the suit's length in hand (short suits
/// first, to void them), and for spades by Q♠: smoke it out with low spades while
/// it is out and we hold neither it nor A♠/K♠, keep spades back otherwise. A suit
/// nobody else holds wins whatever is led, so it comes last.
fn counting_lead(legal: CardSet, hand: CardSet, others: CardSet) -> Card {
    let queen_out = others.contains(QUEEN_OF_SPADES);
    let guards = hand.contains(ACE_OF_SPADES) || hand.contains(KING_OF_SPADES);
    let mut best = lowest(legal);
    let mut best_score = i32::MAX;
    for s in [CLUBS, 1, HEARTS, SPADES] {
        let cards = suit_cards(legal, s);
        if cards.is_empty() {
            continue;
        }
        let theirs = suit_cards(others, s);
        let low = lowest(cards);
        let under = CardSet(theirs.0 & below(low)).len() as i32;
        let mut score = if theirs.is_empty() {
            100
        } else {
            4 * under + suit_cards(hand, s).len() as i32
        };
        if s == SPADES && queen_out {
            score += if guards { 12 } else { -6 };
        } else if s == SPADES && hand.contains(QUEEN_OF_SPADES) {
            score += 6;
        }
        if score < best_score {
            best_score = score;
            best = low;
        }
    }
    best
}

/// The card-counting policy's discard (void in the suit led): Q♠, then A♠/K♠
/// while Q♠ is still out, then the card most likely to win a trick later: the
/// highest by rank, hearts counted higher (they carry their points), and cards of
/// short suits (shedding them brings a void). `unloading`
/// ([`HeartsDeal::unloading`]) keeps A♠/K♠ while the hand holds four or more
/// spades (itself and three guards), counts hearts five ranks higher instead of
/// two, and sheds a singleton (a void at once) three ranks sooner.
fn counting_discard(legal: CardSet, hand: CardSet, others: CardSet, unloading: bool) -> Card {
    if legal.contains(QUEEN_OF_SPADES) {
        return QUEEN_OF_SPADES;
    }
    if others.contains(QUEEN_OF_SPADES) && (!unloading || suit_cards(hand, SPADES).len() <= 3) {
        for danger in [ACE_OF_SPADES, KING_OF_SPADES] {
            if legal.contains(danger) {
                return danger;
            }
        }
    }
    let danger = |c: Card| {
        let suit = suit_of(c);
        let mut score = 2 * i32::from(c.index() >> 2);
        let length = suit_cards(hand, suit).len();
        if suit == HEARTS {
            score += if unloading { 10 } else { 4 };
        }
        if length <= 2 {
            score += 1;
        }
        if unloading && length == 1 {
            score += 6;
        }
        score
    };
    legal
        .iter()
        .max_by_key(|&c| (danger(c), c.index()))
        .unwrap_or_else(|| highest(legal))
}

impl TrickPlay for HeartsDeal {
    #[inline]
    fn table(&self) -> &TrickTable {
        &self.table
    }

    #[inline]
    fn table_mut(&mut self) -> &mut TrickTable {
        &mut self.table
    }

    fn legal(&self) -> CardSet {
        let t = &self.table;
        if t.tricks_played == 0 {
            let hand = t.hands[t.to_act()];
            match t.trick().first() {
                None if hand.contains(TWO_OF_CLUBS) => {
                    return CardSet::EMPTY.with(TWO_OF_CLUBS);
                }
                Some(&first) if suit_cards(hand, suit_of(first)).is_empty() => {
                    let safe = hand.difference(PENALTY_CARDS);
                    if !safe.is_empty() {
                        return safe;
                    }
                }
                _ => {}
            }
        }
        t.follows_or_leads(HEARTS)
    }

    #[inline]
    fn play(&mut self, card: Card) -> Option<WonTrick> {
        let won = self.table.play(card, HEARTS, None)?;
        self.taken[won.winner] = self.taken[won.winner].union(won.cards);
        Some(won)
    }

    fn heuristic(&self) -> Card {
        let legal = self.legal();
        if self.moon_play {
            let defend = self.moon_defenders >> self.to_act() & 1 == 1;
            if let Some(card) = self.moon_card(legal, defend) {
                return card;
            }
        }
        if self.counting >> self.to_act() & 1 == 1 {
            return self.counting_card(legal);
        }
        let trick = self.table.trick();
        if trick.is_empty() {
            return self.heuristic_lead(legal);
        }
        let win_card = trick[trick_winner(trick, None)];
        let led = suit_of(trick[0]);
        let following = !suit_cards(legal, led).is_empty();
        if following {
            // Q♠ goes under a higher spade; otherwise duck with the highest card
            // that still loses, or, when forced to win, win as cheaply as the
            // position allows (last to play: with the highest card).
            if legal.contains(QUEEN_OF_SPADES)
                && (win_card == KING_OF_SPADES || win_card == ACE_OF_SPADES)
            {
                return QUEEN_OF_SPADES;
            }
            let below = CardSet(legal.0 & ((1u64 << win_card.index()) - 1));
            if !below.is_empty() {
                let safe = below.difference(CardSet::EMPTY.with(QUEEN_OF_SPADES));
                return highest(if safe.is_empty() { below } else { safe });
            }
            let last = trick.len() == 3;
            let trick_points = penalty(CardSet::from_cards(trick.iter().copied()));
            if last && trick_points == 0 {
                let safe = legal.difference(CardSet::EMPTY.with(QUEEN_OF_SPADES));
                return highest(if safe.is_empty() { legal } else { safe });
            }
            return lowest(legal);
        }
        // Void: dump Q♠, then the highest spade above it, then the highest heart,
        // then the highest card.
        if legal.contains(QUEEN_OF_SPADES) {
            return QUEEN_OF_SPADES;
        }
        for danger in [ACE_OF_SPADES, KING_OF_SPADES] {
            if legal.contains(danger) {
                return danger;
            }
        }
        let hearts = suit_cards(legal, HEARTS);
        if !hearts.is_empty() {
            return highest(hearts);
        }
        // Highest rank across suits; the index order is rank-major.
        highest(legal)
    }
}

impl Solvable for HeartsDeal {
    /// Penalty points each seat has taken (the objectives and the moon read
    /// nothing else of the cards won).
    fn tally(&self) -> [u8; 4] {
        self.taken.map(|t| penalty(t) as u8)
    }

    /// Paranoid: the three other seats play against the searching seat.
    fn same_side(a: usize, b: usize) -> bool {
        a == b
    }

    fn singletons() -> CardSet {
        CardSet::EMPTY.with(QUEEN_OF_SPADES)
    }
}

/// The most a reading may discount a world per opponent play the policy would
/// not have made (`exp(-strength)`); 10 keeps the weight of a world that
/// contradicts all 39 opponent plays above `f64`'s smallest normal number.
pub const MAX_READING: f64 = 10.0;

/// The deal's plays so far, read as evidence about the opponents' hands
/// (opponent modelling): a sampled world is replayed from the first lead, and
/// each opponent play that the world's playout policy would not have made with
/// that seat's hand there (or that the world's hand could not legally make)
/// multiplies the world's weight by `exp(-strength)`. Plays with one legal card
/// say nothing and the searching seat's own plays are not read. A world where
/// the opponents' cards look like the policy's choices thus counts for more than
/// one where they look like mistakes: a seat that dropped K♥ on a diamond lead
/// probably held no Q♠ or A♥ to shed first.
#[derive(Clone, Debug)]
pub struct PlayReading {
    /// Every card played this deal, in order from the first lead (2♣), the
    /// current trick's cards last.
    plays: Vec<Card>,
    /// The seat that played each card of `plays`.
    seats: Vec<usize>,
    /// The searching seat.
    seat: usize,
    /// The log-weight a world loses per opponent play the policy would not make.
    strength: f64,
}

impl PlayReading {
    /// The reading of `plays` (every card of the deal so far in play order) for
    /// `seat`, whose current trick was led by `leader`; `taken` is what each seat
    /// has won. The seats of the cards follow from the tricks (each winner leads
    /// next) and must agree with `leader` and `taken`; `strength` is in
    /// `0..=MAX_READING` (0 weighs every world alike).
    pub fn new(
        plays: Vec<Card>,
        leader: usize,
        taken: &[CardSet; 4],
        seat: usize,
        strength: f64,
    ) -> Result<PlayReading> {
        let bad = |why: &str| Err(EngineError::RuleOption(why.to_string()));
        if !(0.0..=MAX_READING).contains(&strength) {
            return bad("reading must be a number from 0 to 10");
        }
        if leader >= 4 || seat >= 4 {
            return bad("leader and seat must be 0..3");
        }
        if plays.len() > 52
            || CardSet::from_cards(plays.iter().copied()).len() as usize != plays.len()
        {
            return bad("history must not repeat a card");
        }
        if plays.first().is_some_and(|&c| c != TWO_OF_CLUBS) {
            return bad("history must start with the 2♣ lead");
        }
        // Each complete trick moves the lead to its winner: find the first
        // leader from where the lead is now, then every card's seat.
        let tricks: Vec<&[Card]> = plays.chunks_exact(4).collect();
        let shift: usize = tricks.iter().map(|t| trick_winner(t, None)).sum();
        let mut lead = (leader + 4 - shift % 4) % 4;
        let mut won = [CardSet::EMPTY; 4];
        let mut seats = Vec::with_capacity(plays.len());
        for trick in plays.chunks(4) {
            seats.extend((0..trick.len()).map(|pos| (lead + pos) % 4));
            if trick.len() == 4 {
                lead = (lead + trick_winner(trick, None)) % 4;
                won[lead] = won[lead].union(CardSet::from_cards(trick.iter().copied()));
            }
        }
        if won != *taken {
            return bad("history's tricks do not match the cards each seat took");
        }
        Ok(PlayReading {
            plays,
            seats,
            seat,
            strength,
        })
    }

    /// Whether the reading weighs worlds at all.
    pub fn is_on(&self) -> bool {
        self.strength > 0.0
    }

    /// The plays so far that `world`'s policy (its seats' heuristics and moon
    /// play, as `world` holds them) would not have made for the opponents, given
    /// `world`'s hands now with each seat's played cards put back; a play the
    /// world's hand could not legally make counts too.
    pub fn surprises(&self, world: &HeartsDeal) -> u32 {
        let mut hands = world.table.hands;
        for (&card, &p) in self.plays.iter().zip(&self.seats) {
            hands[p].insert(card);
        }
        let mut replay = world.clone();
        replay.table = TrickTable::new(hands, self.seats.first().copied().unwrap_or(0));
        replay.taken = [CardSet::EMPTY; 4];
        let mut surprises = 0;
        for &card in &self.plays {
            if replay.to_act() != self.seat {
                let legal = replay.legal();
                if !legal.contains(card) || (legal.len() > 1 && replay.heuristic() != card) {
                    surprises += 1;
                }
            }
            replay.play(card);
        }
        surprises
    }

    /// The weight of `world`: `exp(-strength * surprises)`, 1 when off (without
    /// replaying).
    pub fn weight(&self, world: &HeartsDeal) -> f64 {
        if !self.is_on() {
            return 1.0;
        }
        (-self.strength * f64::from(self.surprises(world))).exp()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{playout, PlayoutPolicy};
    use super::*;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    fn deal_with(hands: [&str; 4]) -> HeartsDeal {
        HeartsDeal::new(hands.map(set))
    }

    #[test]
    fn two_of_clubs_leads() {
        // HRT-06: the holder of 2♣ leads that card.
        let mut rng = CardRng::new(1);
        for _ in 0..50 {
            let deal = HeartsDeal::random(&mut rng);
            assert!(deal.table.hands[deal.table.leader].contains(TWO_OF_CLUBS));
            assert_eq!(deal.legal(), CardSet::EMPTY.with(TWO_OF_CLUBS));
        }
    }

    #[test]
    fn first_trick_discards_avoid_points() {
        // HRT-09: no heart or Q♠ discard on the first trick while a safe card remains.
        let mut deal = deal_with(["2c 3c", "Qs Ah 5d", "Kh Qh", "4c 5c"]);
        deal.play(TWO_OF_CLUBS);
        assert_eq!(deal.legal(), set("5d"));
        deal.play(Card::parse("5d").unwrap());
        assert_eq!(deal.legal(), set("Kh Qh"));
    }

    #[test]
    fn hearts_lead_only_when_broken_or_only_hearts() {
        // HRT-10, HRT-17, HRT-18, HRT-19: Q♠ does not break hearts.
        let mut deal = deal_with(["2h 3h 4d", "", "", ""]);
        deal.table.tricks_played = 1;
        deal.table.leader = 0;
        assert_eq!(deal.legal(), set("4d"));
        deal.table.hands[0] = set("2h 3h");
        assert_eq!(deal.legal(), set("2h 3h"));
        deal.table.hands = ["2h Qs", "Kd", "Kc", "Ks"].map(set);
        deal.play(QUEEN_OF_SPADES);
        assert!(!deal.table.broken);
    }

    #[test]
    fn worked_example_ace_of_clubs_takes_14() {
        // HRT-11, HRT-14, HRT-15, HRT-16: A♣ 3♣ 2♥ Q♠, the last two void in clubs.
        let mut deal = deal_with(["Ac 4d", "3c 5d", "2h 6d", "Qs 7d"]);
        deal.table.tricks_played = 1;
        for c in ["Ac", "3c", "2h", "Qs"] {
            let card = Card::parse(c).unwrap();
            assert!(deal.legal().contains(card));
            deal.play(card);
        }
        assert_eq!(deal.table.leader, 0);
        assert_eq!(penalty(deal.taken[0]), 14);
        assert!(deal.table.broken);
    }

    #[test]
    fn shooting_the_moon() {
        // HRT-12: all 26 to one seat scores 0 for it and 26 for each opponent.
        let all = CardSet(PENALTY_CARDS.0);
        assert_eq!(
            deal_points(&[CardSet::EMPTY, all, CardSet::EMPTY, CardSet::EMPTY]),
            [26, 0, 26, 26]
        );
        let some = set("Qs 2h");
        assert_eq!(
            deal_points(&[some, CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY]),
            [14, 0, 0, 0]
        );
    }

    #[test]
    fn deal_objective_stops_a_moon_that_zero_sum_lets_through() {
        // HRT-11, HRT-12: an opponent's moon costs us 26; stopping it with Q♠ and a
        // heart costs 14 of the 26.
        let moon = [26, 0, 26, 26];
        let stopped = [12, 0, 0, 14];
        let deal = HeartsObjective::Deal;
        assert!(deal.value(stopped, 3) > deal.value(moon, 3));
        let zero_sum = HeartsObjective::ZeroSum;
        assert!(zero_sum.value(stopped, 3) < zero_sum.value(moon, 3));
        // Our own moon beats a clean deal.
        assert!(deal.value([0, 26, 26, 26], 0) > deal.value([0, 10, 16, 0], 0));
    }

    #[test]
    fn own_objective_counts_only_own_points() {
        // HRT-11, HRT-12: an opponent's moon costs the full 26, stopping it 14; our
        // own moon is worth a clean deal and no more.
        let own = HeartsObjective::Own;
        assert_eq!(own.value([26, 0, 26, 26], 3), -26.0);
        assert_eq!(own.value([12, 0, 0, 14], 3), -14.0);
        assert_eq!(own.value([0, 26, 26, 26], 0), own.value([0, 10, 16, 0], 0));
    }

    #[test]
    fn match_objective_values_the_standing() {
        // HRT-13: the lowest total wins; a moon by a trailing seat costs us nothing
        // against our nearest rival, one by that rival costs 26.
        let objective = HeartsObjective::Match {
            scores: [40, 45, 90, 60],
            target: 100,
        };
        let by_trailing = objective.value([26, 26, 0, 26], 0);
        let by_rival = objective.value([26, 0, 26, 26], 0);
        assert_eq!(by_trailing, 5.0);
        assert_eq!(by_rival, -21.0 - MATCH_WIN);
        // Points that end the match while we are lowest win it.
        let ending = objective.value([0, 0, 10, 0], 0);
        assert_eq!(ending, 5.0 + MATCH_WIN);
        let shared = HeartsObjective::Match {
            scores: [50, 50, 95, 60],
            target: 100,
        };
        assert_eq!(shared.value([0, 0, 26, 0], 0), MATCH_WIN / 2.0);
    }

    /// The end of a deal in which seat 0 took Q♠ and eight hearts (21 points): seat
    /// 2 led 5♥, seat 3 played 6♥, seat 0 9♥; seat 1 holds T♥ 3♥.
    fn moon_on() -> HeartsDeal {
        let mut deal = deal_with(["As", "Th 3h", "Ac", "Ad"]);
        let rest = set("5h 6h 9h As Th 3h Ac Ad");
        deal.taken[0] = CardSet((1u64 << 52) - 1).difference(rest);
        deal.table.hands = ["9h As", "Th 3h", "5h Ac", "6h Ad"].map(set);
        deal.table.leader = 2;
        deal.table.tricks_played = 11;
        deal.table.broken = true;
        for c in ["5h", "6h", "9h"] {
            deal.play(Card::parse(c).unwrap());
        }
        deal
    }

    #[test]
    fn moon_play_takes_the_trick_that_stops_a_shooter() {
        let mut deal = moon_on();
        assert_eq!(deal.heuristic(), Card::parse("3h").unwrap());
        deal.moon_play = true;
        assert_eq!(deal.heuristic(), Card::parse("3h").unwrap());
        deal.moon_defenders = 0b0010;
        assert_eq!(deal.moon_move(), Card::parse("Th").ok());
        playout(
            &mut deal,
            PlayoutPolicy::Heuristic(0.0),
            &mut CardRng::new(1),
        );
        assert_eq!(deal.points(), [21, 5, 0, 0]);
    }

    #[test]
    fn moon_play_shoots_with_control() {
        // Seat 0 holds Q♠ and the top hearts with winners beside: it leads A♠.
        let mut deal = deal_with([
            "Qs As Ks Ah Kh Qh Jh Th Ad Kd Qd Kc",
            "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc 2d 3d",
            "4d 5d 6d 7d 8d 9d Td Jd 2s 3s 4s 5s",
            "6s 7s 8s 9s Js 2h 3h 4h 5h 6h 7h 8h",
        ]);
        deal.taken[0] = set("2c Ac 9h Ts");
        deal.table.leader = 0;
        deal.table.tricks_played = 1;
        assert_eq!(deal.heuristic(), Card::parse("Qd").unwrap());
        deal.moon_play = true;
        assert_eq!(deal.heuristic(), Card::parse("As").unwrap());
        // Once another seat holds a point the shot is off.
        deal.taken[1] = set("2h");
        deal.table.hands[3].remove(Card::parse("2h").unwrap());
        assert_eq!(deal.moon_move(), None);
    }

    /// Each seat's points over `deals` random deals played by the heuristic, the
    /// seats in `counting` counting cards, those in `unloading` unloading too.
    fn heuristic_points(deals: u32, counting: u8, unloading: u8, seed: u64) -> [i32; 4] {
        let mut rng = CardRng::new(seed);
        let mut totals = [0; 4];
        for _ in 0..deals {
            let mut deal = HeartsDeal::random(&mut rng);
            deal.counting = counting;
            deal.unloading = unloading;
            playout(&mut deal, PlayoutPolicy::Heuristic(0.1), &mut rng);
            for (t, p) in totals.iter_mut().zip(deal.points()) {
                *t += p;
            }
        }
        totals
    }

    /// The first trick 2♣ (seat 0), K♣ (seat 1), 5♣, 4♣ as a reading for seat 0,
    /// and the world where seat 1 now holds `rest` (the plain heuristic, no moon
    /// play).
    fn king_of_clubs_trick(rest: &str, strength: f64) -> (PlayReading, HeartsDeal) {
        let plays: Vec<Card> = crate::cards::parse_cards("2c Kc 5c 4c").unwrap();
        let taken = [
            CardSet::EMPTY,
            set("2c Kc 5c 4c"),
            CardSet::EMPTY,
            CardSet::EMPTY,
        ];
        let reading = PlayReading::new(plays, 1, &taken, 0, strength).unwrap();
        let mut world = deal_with(["Ah", rest, "Qd", "Jd"]);
        world.table.leader = 1;
        world.table.tricks_played = 1;
        world.taken = taken;
        (reading, world)
    }

    #[test]
    fn reading_discounts_a_world_where_an_opponent_played_against_the_policy() {
        // Seat 1 played K♣ second to the 2♣ lead. Holding K♣ alone it had to;
        // holding 3♣ as well, the plain heuristic plays the 3♣ (it cannot duck
        // 2♣, so it plays low): that world explains the K♣ worse.
        let (reading, forced) = king_of_clubs_trick("Kd", 0.5);
        assert_eq!(reading.surprises(&forced), 0);
        assert_eq!(reading.weight(&forced), 1.0);
        let (reading, ducked) = king_of_clubs_trick("3c", 0.5);
        assert_eq!(reading.surprises(&ducked), 1);
        assert!((reading.weight(&ducked) - (-0.5f64).exp()).abs() < 1e-12);
        // Off, every world weighs the same.
        let (off, ducked) = king_of_clubs_trick("3c", 0.0);
        assert!(!off.is_on());
        assert_eq!(off.weight(&ducked), 1.0);
    }

    #[test]
    fn reading_finds_the_true_deal_less_surprising_than_sampled_worlds() {
        // Seats that play the unloading heuristic with 20% random cards, read
        // by seat 0 at its turn after the fifth trick: the true hands explain
        // their plays with fewer surprises than worlds dealt from the sizes and
        // voids alone, so weighting by the reading moves the worlds toward them.
        use super::super::{random_card, HiddenHands};
        let mut rng = CardRng::new(17);
        let (mut truth, mut sampled) = (0.0, 0.0);
        for _ in 0..60 {
            let mut deal = HeartsDeal::random(&mut rng);
            HeartsPolicy::Unloading.apply(&mut deal);
            deal.moon_play = true;
            let mut plays = Vec::new();
            let mut voids = [0u8; 4];
            while plays.len() < 20 || deal.to_act() != 0 {
                let legal = deal.legal();
                let card = if rng.unit() < 0.2 {
                    random_card(legal, &mut rng)
                } else {
                    deal.heuristic()
                };
                if let Some(&led) = deal.table.trick().first() {
                    if suit_of(card) != suit_of(led) {
                        voids[deal.to_act()] |= 1 << suit_of(led);
                    }
                }
                plays.push(card);
                deal.play(card);
            }
            let hands = deal.table.hands;
            let hidden = HiddenHands {
                known: [hands[0], CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY],
                unknown: hands[1].union(hands[2]).union(hands[3]),
                sizes: hands.map(|h| h.len()),
                voids,
                avoid: [CardSet::EMPTY; 4],
            };
            let reading = PlayReading::new(plays, deal.table.leader, &deal.taken, 0, 1.0).unwrap();
            truth += f64::from(reading.surprises(&deal));
            for _ in 0..50 {
                let mut world = deal.clone();
                world.table.hands = hidden.sample(&mut rng);
                sampled += f64::from(reading.surprises(&world)) / 50.0;
            }
        }
        assert!(
            truth + 60.0 < sampled,
            "true deals {truth}, sampled worlds {sampled} surprises in 60 deals"
        );
    }

    #[test]
    fn reading_finds_the_seats_from_the_tricks_and_refuses_what_disagrees() {
        let plays = || crate::cards::parse_cards("2c Kc 5c 4c 3d").unwrap();
        let mut taken = [
            CardSet::EMPTY,
            set("2c Kc 5c 4c"),
            CardSet::EMPTY,
            CardSet::EMPTY,
        ];
        // K♣ won, so seat 1 leads the 3♦ and seat 0 led the 2♣.
        let reading = PlayReading::new(plays(), 1, &taken, 2, 1.0).unwrap();
        assert_eq!(reading.seats, vec![0, 1, 2, 3, 1]);
        // Led now by seat 3, the first trick would have been seat 3's, but
        // seat 1 took it.
        assert!(PlayReading::new(plays(), 3, &taken, 2, 1.0).is_err());
        for strength in [-0.1, 10.5, f64::NAN] {
            assert!(PlayReading::new(plays(), 1, &taken, 2, strength).is_err());
        }
        let repeated = crate::cards::parse_cards("2c Kc 5c 4c 2c").unwrap();
        assert!(PlayReading::new(repeated, 1, &taken, 2, 1.0).is_err());
        let no_lead = crate::cards::parse_cards("3c Kc 5c 4c").unwrap();
        taken[1] = set("3c Kc 5c 4c");
        assert!(PlayReading::new(no_lead, 1, &taken, 2, 1.0).is_err());
    }

    #[test]
    fn weighted_search_averages_by_weight_and_weights_of_one_change_nothing() {
        use super::super::endgame::Endgame;
        use super::super::{evaluate_candidates, evaluate_weighted_candidates};
        let mut rng = CardRng::new(21);
        let mut start = HeartsDeal::random(&mut rng);
        for _ in 0..9 {
            start.play(start.heuristic());
        }
        let cands: Vec<Card> = start.legal().iter().collect();
        let seat = start.to_act();
        let value = |d: &HeartsDeal| HeartsObjective::Deal.value(d.points(), seat);
        let policy = PlayoutPolicy::Heuristic(0.1);
        // Random worlds: the other seats' cards dealt afresh each time.
        let build = |rng: &mut CardRng| {
            let mut world = start.clone();
            let mut rest: Vec<Card> = (0..4)
                .filter(|&p| p != seat)
                .flat_map(|p| start.table.hands[p].iter())
                .collect();
            rng.shuffle(&mut rest);
            for p in (0..4).filter(|&p| p != seat) {
                let n = start.table.hands[p].len() as usize;
                world.table.hands[p] = CardSet::from_cards(rest.drain(..n));
            }
            world
        };
        let cancel = Cancel::new();
        let plain = evaluate_candidates(&cands, 30, 4, policy, Endgame::OFF, build, value, &cancel)
            .unwrap();
        let ones = evaluate_weighted_candidates(
            &cands,
            30,
            4,
            policy,
            Endgame::OFF,
            |rng| (build(rng), 1.0),
            value,
            &cancel,
        )
        .unwrap();
        assert_eq!(plain, ones);
        // Only the first world weighs: the values are that one world's.
        let mut first = true;
        let only_first = evaluate_weighted_candidates(
            &cands,
            30,
            4,
            policy,
            Endgame::OFF,
            |rng| {
                (
                    build(rng),
                    if std::mem::take(&mut first) { 2.5 } else { 0.0 },
                )
            },
            value,
            &cancel,
        )
        .unwrap();
        let one_world =
            evaluate_candidates(&cands, 1, 4, policy, Endgame::OFF, build, value, &cancel).unwrap();
        assert_eq!(only_first, one_world);
        assert_ne!(only_first, plain);
    }

    #[test]
    fn counting_policy_takes_fewer_points_than_plain() {
        // The same deals (the random streams stay in step: one draw per card
        // whichever heuristic plays): each seat in turn counts cards against three
        // plain seats, and takes over half a point a deal less than it did
        // playing plain.
        let deals = 4000;
        let plain = heuristic_points(deals, 0, 0, 11);
        for seat in 0..4 {
            let counting = heuristic_points(deals, 1 << seat, 0, 11);
            let gain = f64::from(plain[seat] - counting[seat]) / f64::from(deals);
            assert!(gain > 0.5, "seat {seat} gains {gain:.2} points a deal");
        }
    }

    #[test]
    fn unloading_policy_takes_fewer_points_than_counting() {
        // The same deals, every seat counting cards: each seat in turn unloads
        // as well, and takes fewer points than it did counting alone.
        let deals = 4000;
        let counting = heuristic_points(deals, 0b1111, 0, 13);
        let mut gain = 0.0;
        for seat in 0..4 {
            let unloading = heuristic_points(deals, 0b1111, 1 << seat, 13);
            gain += f64::from(counting[seat] - unloading[seat]) / f64::from(deals) / 4.0;
        }
        assert!(gain > 0.2, "unloading gains {gain:.2} points a deal");
    }

    #[test]
    fn unloading_last_to_a_clean_trick_takes_it_high() {
        // Seat 3 plays last to 8♦ 2♦ 3♦ (no points) holding 5♦ K♦: counting
        // ducks with 5♦, unloading takes the trick with K♦.
        let mut deal = deal_with(["8d 2c", "2d 3c", "3d 4c", "5d Kd"]);
        deal.table.tricks_played = 11;
        deal.table.broken = true;
        for c in ["8d", "2d", "3d"] {
            deal.play(Card::parse(c).unwrap());
        }
        deal.counting = 0b1000;
        assert_eq!(deal.heuristic(), Card::parse("5d").unwrap());
        deal.unloading = 0b1000;
        assert_eq!(deal.heuristic(), Card::parse("Kd").unwrap());
        // With a heart in the trick it still ducks.
        let mut deal = deal_with(["8d 2c", "2h 3c", "3d 4c", "5d Kd"]);
        deal.table.tricks_played = 11;
        deal.table.broken = true;
        for c in ["8d", "2h", "3d"] {
            deal.play(Card::parse(c).unwrap());
        }
        deal.counting = 0b1000;
        deal.unloading = 0b1000;
        assert_eq!(deal.heuristic(), Card::parse("5d").unwrap());
    }

    #[test]
    fn unloading_discards_a_singleton_and_keeps_a_guarded_ace_of_spades() {
        // Seat 1, void in diamonds, with A♠ behind four more spades while Q♠ is
        // out: counting sheds A♠, unloading keeps it and sheds its singleton
        // K♣ (a club void at once; without the singleton weight A♠ would go
        // first).
        let mut deal = deal_with([
            "5d 2c 3c 4c 6c 7c",
            "As 2s 3s 4s 5s Kc",
            "Qs 3d 4d 6d 8c 9c",
            "7d 8d 9d Tc Jc Qc",
        ]);
        deal.table.tricks_played = 7;
        deal.table.leader = 0;
        deal.counting = 0b0010;
        deal.play(Card::parse("5d").unwrap());
        assert_eq!(deal.heuristic(), Card::parse("As").unwrap());
        deal.unloading = 0b0010;
        assert_eq!(deal.heuristic(), Card::parse("Kc").unwrap());
    }

    #[test]
    fn counting_last_to_play_unloads_its_highest_card() {
        // Seat 3 plays last to 5♦ 2♥ 3♦ holding 9♦ K♦: it wins either way, so K♦.
        let mut deal = deal_with(["5d 2c", "2h 3c", "3d 4c", "9d Kd"]);
        deal.table.tricks_played = 11;
        deal.table.broken = true;
        for c in ["5d", "2h", "3d"] {
            deal.play(Card::parse(c).unwrap());
        }
        assert_eq!(deal.heuristic(), Card::parse("9d").unwrap());
        deal.counting = 0b1000;
        assert_eq!(deal.heuristic(), Card::parse("Kd").unwrap());
    }

    #[test]
    fn counting_leads_a_card_that_cannot_win() {
        // Seat 0 holds 3♣ (the 2♣ is out: it may win) and 2♦ (the lowest
        // diamond out: it cannot), and longer clubs.
        let mut deal = deal_with(["3c 8c 9c 2d", "2c 4c 3d 4d", "5c 6c 5d 6d", "7c Tc 7d 8d"]);
        deal.table.tricks_played = 9;
        deal.table.leader = 0;
        deal.counting = 0b0001;
        assert_eq!(deal.heuristic(), Card::parse("2d").unwrap());
        // With no card of a suit left elsewhere, leading it always wins: seat 0
        // leads its clubs (2♣ lies under 3♣ but the others must follow) instead.
        deal.table.hands = ["3c 8c 9c 2d", "2c 4c 3h 4h", "5c 6c 5h 6h", "7c Tc 7h 8h"].map(set);
        assert_eq!(deal.heuristic(), Card::parse("3c").unwrap());
    }

    #[test]
    fn counting_discards_spade_guards_only_while_the_queen_is_out() {
        // Seat 1, void in diamonds, holds A♠ and K♥: A♠ goes while Q♠ is out.
        let mut deal = deal_with(["5d 2c", "As Kh", "Qs 3d", "4d 7c"]);
        deal.table.tricks_played = 11;
        deal.table.leader = 0;
        deal.counting = 0b0010;
        deal.play(Card::parse("5d").unwrap());
        assert_eq!(deal.heuristic(), Card::parse("As").unwrap());
        // Once Q♠ is played, the higher heart, with its point, goes first.
        deal.table.hands[2] = set("Ks 3d");
        assert_eq!(deal.heuristic(), Card::parse("Kh").unwrap());
    }

    #[test]
    fn pass_values_prefer_shedding_an_unguarded_queen() {
        // Q♠ with A♠ K♠ and no low spade: passing the three top spades beats
        // passing three low clubs; the same seed gives the same values.
        let hand = set("Qs Ks As 2c 3c 4c 5d 6d 7d 8h 9h Th 5c");
        let passes = [set("Qs Ks As"), set("2c 3c 4c")];
        let value = |d: &HeartsDeal| HeartsObjective::Deal.value(d.points(), 0);
        let cancel = Cancel::new();
        let values = pass_values(
            0,
            hand,
            &passes,
            1,
            400,
            5,
            PlayoutPolicy::Heuristic(0.1),
            HeartsPolicy::Counting,
            value,
            &cancel,
        )
        .unwrap();
        assert!(values[0] > values[1], "{values:?}");
        let again = pass_values(
            0,
            hand,
            &passes,
            1,
            400,
            5,
            PlayoutPolicy::Heuristic(0.1),
            HeartsPolicy::Counting,
            value,
            &cancel,
        )
        .unwrap();
        assert_eq!(values, again);
        for (bad_offset, bad_pass) in [(0, passes[0]), (1, set("Qs Ks")), (1, set("Qs Ks Ah"))] {
            let passes = [bad_pass];
            let got = pass_values(
                0,
                hand,
                &passes,
                bad_offset,
                1,
                5,
                PlayoutPolicy::Random,
                HeartsPolicy::Plain,
                value,
                &cancel,
            );
            assert!(got.is_err());
        }
        // A repeated pass is refused: the passes are distinct sets.
        let repeated = [passes[0], passes[1], passes[0]];
        let got = pass_values(
            0,
            hand,
            &repeated,
            1,
            1,
            5,
            PlayoutPolicy::Random,
            HeartsPolicy::Plain,
            value,
            &cancel,
        );
        assert!(got.is_err());
    }

    #[test]
    fn playouts_play_every_card_and_score_26() {
        let mut rng = CardRng::new(9);
        for policy in [PlayoutPolicy::Random, PlayoutPolicy::Heuristic(0.1)] {
            for i in 0..600 {
                let mut deal = HeartsDeal::random(&mut rng);
                deal.moon_play = i % 2 == 1;
                deal.moon_defenders = (i % 16) as u8;
                playout(&mut deal, policy, &mut rng);
                let total: i32 = deal.points().iter().sum();
                assert!(total == 26 || total == 78);
                assert!(deal.table.hands.iter().all(|h| h.is_empty()));
            }
        }
    }
}
