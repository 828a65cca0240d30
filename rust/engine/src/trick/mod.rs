//! The trick-taking core: following suit, trick winners with or without a trump
//! suit, and the machinery AI search needs (hidden-hand sampling consistent with
//! the play so far, seeded playouts that evaluate candidate cards).
//!
//! Games plug in through [`TrickPlay`]; Hearts and Spades live in the submodules.
//! Everything works on one 52-card pack held as a [`CardSet`] (bit = card index,
//! `rank * 4 + suit`), aces high.

pub mod bridge;
pub mod bridge_sample;
pub mod dd;
pub mod endgame;
pub mod hearts;
pub mod observe;
pub mod spades;
pub mod tractor;

use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::rng::CardRng;
use endgame::{Endgame, Solvable, Solver};

/// Number of suits in the pack.
pub const NUM_SUITS: usize = 4;

/// Bits of every card of each suit (clubs, diamonds, hearts, spades).
pub const SUIT_MASKS: [u64; NUM_SUITS] = [
    0x1_1111_1111_1111,
    0x2_2222_2222_2222,
    0x4_4444_4444_4444,
    0x8_8888_8888_8888,
];

/// Suit index of a ranked card (0..=3, clubs, diamonds, hearts, spades).
#[inline]
pub const fn suit_of(card: Card) -> u8 {
    card.index() & 3
}

/// The cards of `suit` in `cards`.
#[inline]
pub const fn suit_cards(cards: CardSet, suit: u8) -> CardSet {
    CardSet(cards.0 & SUIT_MASKS[suit as usize])
}

/// The cards a player holding `hand` may play to a trick whose led suit is `led`:
/// cards of the led suit when they hold any, otherwise the whole hand. With no
/// lead yet (`None`) every card is a follow; leading restrictions are game rules.
#[inline]
pub const fn legal_follows(hand: CardSet, led: Option<u8>) -> CardSet {
    match led {
        Some(suit) => {
            let follow = suit_cards(hand, suit);
            if follow.is_empty() {
                hand
            } else {
                follow
            }
        }
        None => hand,
    }
}

/// Whether `card` beats `winning`, the card currently winning the trick.
#[inline]
const fn beats(card: Card, winning: Card, trump: Option<u8>) -> bool {
    let (cs, ws) = (suit_of(card), suit_of(winning));
    if cs == ws {
        return card.index() > winning.index();
    }
    match trump {
        // The winning card is of the led suit or a trump, so only a trump can
        // beat it from another suit.
        Some(t) => cs == t,
        None => false,
    }
}

/// The position (in play order) of the card that wins `cards`: the highest trump
/// when `trump` is a suit and one was played, otherwise the highest card of the
/// suit led. An empty trick has no winner and returns 0.
pub fn trick_winner(cards: &[Card], trump: Option<u8>) -> usize {
    let Some(first) = cards.first() else {
        return 0;
    };
    debug_assert!(first.suit().is_some());
    let mut best = 0;
    for (i, &card) in cards.iter().enumerate().skip(1) {
        if beats(card, cards[best], trump) {
            best = i;
        }
    }
    best
}

/// The `k`-th card (in index order) of a non-empty set, `k < set.len()`.
#[inline]
pub fn nth_card(set: CardSet, k: u32) -> Card {
    let mut bits = set.0;
    for _ in 0..k {
        bits &= bits - 1;
    }
    Card::from_index_unchecked(bits.trailing_zeros() as u8)
}

/// A uniformly random card of a non-empty set.
#[inline]
pub fn random_card(set: CardSet, rng: &mut CardRng) -> Card {
    nth_card(set, rng.below(u64::from(set.len())) as u32)
}

/// The lowest card of a non-empty set (lowest rank, then lowest suit).
#[inline]
pub fn lowest(set: CardSet) -> Card {
    Card::from_index_unchecked(set.0.trailing_zeros() as u8)
}

/// The highest card of a non-empty set.
#[inline]
pub fn highest(set: CardSet) -> Card {
    Card::from_index_unchecked(63 - set.0.leading_zeros() as u8)
}

/// The seats, hands and trick in progress that every four-seat trick-taking deal
/// shares. The trick is a fixed array so that cloning a deal (once per world and
/// candidate in search) never allocates.
#[derive(Clone, Debug)]
pub struct TrickTable {
    /// Each seat's remaining cards.
    pub hands: [CardSet; 4],
    /// The seat that leads (or led) the current trick.
    pub leader: usize,
    /// Whether the suit that may not be led early (hearts, spades) has been played.
    pub broken: bool,
    /// Completed tricks.
    pub tricks_played: u32,
    cards: [Card; 4],
    len: usize,
}

/// A trick just completed: the seat that won it and its four cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WonTrick {
    /// The winning seat, who leads next.
    pub winner: usize,
    /// The four cards of the trick.
    pub cards: CardSet,
}

impl TrickTable {
    /// A table before the first card: `leader` leads.
    pub fn new(hands: [CardSet; 4], leader: usize) -> TrickTable {
        TrickTable {
            hands,
            leader,
            broken: false,
            tricks_played: 0,
            cards: [Card::from_index_unchecked(0); 4],
            len: 0,
        }
    }

    /// The seat whose turn it is.
    #[inline]
    pub fn to_act(&self) -> usize {
        (self.leader + self.len) % 4
    }

    /// The cards of the current trick, in play order.
    #[inline]
    pub fn trick(&self) -> &[Card] {
        &self.cards[..self.len]
    }

    /// Replace the current trick (at most three cards, as in a search view).
    pub fn set_trick(&mut self, cards: &[Card]) {
        self.len = cards.len().min(3);
        self.cards[..self.len].copy_from_slice(&cards[..self.len]);
    }

    /// The cards the seat to act may play when a `restricted` suit (hearts, spades)
    /// may not be led before it is broken unless the leader holds nothing else:
    /// following suit when a trick is led, otherwise the allowed leads.
    #[inline]
    pub fn follows_or_leads(&self, restricted: u8) -> CardSet {
        let hand = self.hands[self.to_act()];
        if self.len > 0 {
            return legal_follows(hand, Some(suit_of(self.cards[0])));
        }
        let others = CardSet(hand.0 & !SUIT_MASKS[restricted as usize]);
        if self.broken || others.is_empty() {
            hand
        } else {
            others
        }
    }

    /// Play `card` for the seat to act: a card of `restricted` breaks that suit;
    /// the fourth card completes the trick, which the highest `trump` (if any) or
    /// else the highest card of the led suit wins, and its winner leads next.
    #[inline]
    pub fn play(&mut self, card: Card, restricted: u8, trump: Option<u8>) -> Option<WonTrick> {
        let seat = self.to_act();
        self.hands[seat].remove(card);
        if suit_of(card) == restricted {
            self.broken = true;
        }
        self.cards[self.len] = card;
        self.len += 1;
        if self.len < 4 {
            return None;
        }
        let winner = (self.leader + trick_winner(&self.cards, trump)) % 4;
        self.len = 0;
        self.leader = winner;
        self.tricks_played += 1;
        Some(WonTrick {
            winner,
            cards: CardSet::from_cards(self.cards),
        })
    }
}

/// Thirteen cards to each seat from a shuffled 52-card pack.
pub fn deal_hands(rng: &mut CardRng) -> [CardSet; 4] {
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    let mut hands = [CardSet::EMPTY; 4];
    for (i, &c) in deck.iter().enumerate() {
        hands[i / 13].0 |= 1u64 << c;
    }
    hands
}

/// A four-seat trick-taking deal that playouts can drive: the seat to act, its
/// legal cards, playing one, a fast heuristic policy, and the end of the deal.
pub trait TrickPlay: Clone {
    /// The hands and the trick in progress.
    fn table(&self) -> &TrickTable;
    /// The hands and the trick in progress, to replace sampled hands.
    fn table_mut(&mut self) -> &mut TrickTable;
    /// The cards the seat to act may play now.
    fn legal(&self) -> CardSet;
    /// Play a card that [`TrickPlay::legal`] allowed; the trick, when it completes.
    fn play(&mut self, card: Card) -> Option<WonTrick>;
    /// A cheap, sensible card for the seat to act (the playout policy).
    fn heuristic(&self) -> Card;
    /// The seat whose turn it is.
    #[inline]
    fn to_act(&self) -> usize {
        self.table().to_act()
    }
    /// True once every card has been played.
    #[inline]
    fn is_over(&self) -> bool {
        self.table().tricks_played == 13
    }
}

/// A deal played one card at a time from outside, as the Python State API does:
/// every card is checked against the rules before it is played (a refused card
/// changes nothing), and the completed tricks are kept for observations and scoring.
#[derive(Clone, Debug)]
pub struct SteppedDeal<G> {
    deal: G,
    first_leader: usize,
    plays: Vec<Card>,
    winners: Vec<usize>,
    taken: [CardSet; 4],
    played: [CardSet; 4],
}

impl<G: TrickPlay> SteppedDeal<G> {
    /// Start stepping `deal` from its current position (no trick in progress).
    pub fn new(deal: G) -> SteppedDeal<G> {
        SteppedDeal {
            first_leader: deal.table().leader,
            deal,
            plays: Vec::with_capacity(52),
            winners: Vec::with_capacity(13),
            taken: [CardSet::EMPTY; 4],
            played: [CardSet::EMPTY; 4],
        }
    }

    /// The deal as it stands.
    #[inline]
    pub fn deal(&self) -> &G {
        &self.deal
    }

    /// Play `card` if the rules allow it now: `None` (and no change) if they do
    /// not, else whether that card ended the deal.
    #[inline]
    pub fn try_play(&mut self, card: Card) -> Option<bool> {
        if !self.deal.legal().contains(card) {
            return None;
        }
        self.plays.push(card);
        self.played[self.deal.to_act()].insert(card);
        if let Some(won) = self.deal.play(card) {
            self.taken[won.winner] = self.taken[won.winner].union(won.cards);
            self.winners.push(won.winner);
        }
        Some(self.deal.is_over())
    }

    /// The cards each seat has won.
    pub fn taken(&self) -> [CardSet; 4] {
        self.taken
    }

    /// The cards each seat has played so far (the current trick's too): what every
    /// seat has seen of the others' hands.
    pub fn played(&self) -> [CardSet; 4] {
        self.played
    }

    /// The completed tricks in order: leader, cards in play order, winner.
    pub fn tricks(&self) -> impl Iterator<Item = (usize, &[Card], usize)> {
        self.winners.iter().enumerate().map(|(k, &winner)| {
            let leader = if k == 0 {
                self.first_leader
            } else {
                self.winners[k - 1]
            };
            (leader, &self.plays[4 * k..4 * k + 4], winner)
        })
    }
}

/// What a playout uses to choose each card.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayoutPolicy {
    /// Uniformly random legal cards.
    Random,
    /// The game's heuristic, replaced by a random legal card with this probability.
    Heuristic(f64),
}

/// Play `deal` to its end with `policy`.
pub fn playout<G: TrickPlay>(deal: &mut G, policy: PlayoutPolicy, rng: &mut CardRng) {
    while !deal.is_over() {
        let legal = deal.legal();
        if legal.is_empty() {
            // Only reachable from inconsistent hand-built deals: stop rather than
            // invent a card.
            break;
        }
        let card = match policy {
            PlayoutPolicy::Random => random_card(legal, rng),
            PlayoutPolicy::Heuristic(eps) => {
                if eps > 0.0 && rng.unit() < eps {
                    random_card(legal, rng)
                } else {
                    deal.heuristic()
                }
            }
        };
        deal.play(card);
    }
}

/// What one seat knows about where the unseen cards are: used to sample full deals
/// ("determinizations") consistent with the play so far.
#[derive(Clone, Debug, Default)]
pub struct HiddenHands {
    /// Cards known to be in each seat's hand (its own hand, cards it passed to a seat).
    pub known: [CardSet; 4],
    /// Cards whose holder is unknown: to be spread over the seats.
    pub unknown: CardSet,
    /// How many cards each seat holds in total.
    pub sizes: [u32; 4],
    /// Suits each seat has shown out of (bit `s` set = void in suit `s`).
    pub voids: [u8; 4],
    /// Cards each seat almost surely does not hold (soft evidence from its play,
    /// such as a discard that kept Q♠ back): kept out of its hand while the sizes
    /// and voids allow.
    pub avoid: [CardSet; 4],
}

impl HiddenHands {
    /// A random assignment of the unknown cards to seats that respects every hand
    /// size and shown void, and keeps each seat's `avoid` cards out of its hand;
    /// when 64 randomised attempts fail, the avoided cards are let in (the
    /// evidence is soft), and after 64 more the voids too (only possible when the
    /// voids are inconsistent with the sizes, as with hand-written inputs). With
    /// nothing to avoid, the draws are the ones made before `avoid` existed.
    pub fn sample(&self, rng: &mut CardRng) -> [CardSet; 4] {
        let need: [u32; 4] =
            std::array::from_fn(|s| self.sizes[s].saturating_sub(self.known[s].len()));
        if self.avoid.iter().any(|a| !a.is_empty()) {
            for _ in 0..64 {
                if let Some(hands) = self.try_sample(need, true, true, rng) {
                    return hands;
                }
            }
        }
        for _ in 0..64 {
            if let Some(hands) = self.try_sample(need, true, false, rng) {
                return hands;
            }
        }
        self.try_sample(need, false, false, rng)
            .unwrap_or(self.known)
    }

    fn try_sample(
        &self,
        mut need: [u32; 4],
        respect_voids: bool,
        respect_avoid: bool,
        rng: &mut CardRng,
    ) -> Option<[CardSet; 4]> {
        let mut hands = self.known;
        // Deal the suits with the fewest possible holders first so they do not run
        // out of room.
        let mut suits: [u8; 4] = [0, 1, 2, 3];
        let holders = |s: u8| (0..4).filter(|&p| self.voids[p] & (1 << s) == 0).count();
        if respect_voids {
            suits.sort_by_key(|&s| holders(s));
        }
        for suit in suits {
            let mut cards: Vec<Card> = suit_cards(self.unknown, suit).iter().collect();
            rng.shuffle(&mut cards);
            if respect_avoid {
                // Place the avoided cards first, while every seat has room.
                cards.sort_by_key(|&c| self.avoid.iter().all(|a| !a.contains(c)));
            }
            for card in cards {
                let mut total = 0u64;
                let mut weights = [0u64; 4];
                for p in 0..4 {
                    let open = (!respect_voids || self.voids[p] & (1 << suit) == 0)
                        && !(respect_avoid && self.avoid[p].contains(card));
                    if open {
                        weights[p] = u64::from(need[p]);
                        total += weights[p];
                    }
                }
                if total == 0 {
                    return None;
                }
                let mut pick = rng.below(total);
                let mut seat = 0;
                for (p, &w) in weights.iter().enumerate() {
                    if pick < w {
                        seat = p;
                        break;
                    }
                    pick -= w;
                }
                hands[seat].insert(card);
                need[seat] -= 1;
            }
        }
        Some(hands)
    }
}

/// Check that a search view can be played out: disjoint card sets of one pack,
/// hand sizes that add up, and candidates from the searching seat's hand.
pub fn check_view(
    hidden: &HiddenHands,
    seat: usize,
    played: &[CardSet],
    candidates: &[Card],
) -> Result<()> {
    let bad = |why: String| Err(EngineError::RuleOption(why));
    if seat >= 4 {
        return bad(format!("seat {seat} is not 0..3"));
    }
    let mut seen = hidden.unknown;
    let mut total = hidden.unknown.len();
    for (p, known) in hidden.known.iter().enumerate() {
        if !seen.intersection(*known).is_empty() {
            return bad(format!("seat {p}'s known cards overlap other cards"));
        }
        if known.len() > hidden.sizes[p] {
            return bad(format!("seat {p} knows more cards than it holds"));
        }
        seen = seen.union(*known);
        total += known.len();
    }
    for cards in played {
        if !seen.intersection(*cards).is_empty() {
            return bad("a played card is also in a hand".into());
        }
        seen = seen.union(*cards);
    }
    if seen.0 >> 52 != 0 {
        return bad("cards must be of one 52-card pack".into());
    }
    if total != hidden.sizes.iter().sum::<u32>() {
        return bad(format!(
            "hand sizes {:?} do not add up to the {total} unplayed cards",
            hidden.sizes
        ));
    }
    if candidates.is_empty() || candidates.iter().any(|c| !hidden.known[seat].contains(*c)) {
        return bad("candidates must be cards of the searching seat's hand".into());
    }
    // Distinct cards of one hand: at most 13, which bounds the work per world.
    if CardSet::from_cards(candidates.iter().copied()).len() as usize != candidates.len() {
        return bad("candidates must not repeat a card".into());
    }
    Ok(())
}

/// Average value of each candidate card over `worlds` sampled deals: every world
/// plays each candidate, then finishes the deal with `policy`; the same world and
/// random stream serve every candidate so their differences are not noise.
/// `build` turns sampled hands into a deal; `value` scores a finished deal.
///
/// With `endgame` on and at most `endgame.cards` cards left once a candidate is
/// played, that world is solved exactly instead ([`endgame::Solver`]): the value
/// of best play in it, or the playout when the solve exceeds its node budget. One
/// solver serves the whole search, so worlds share its table. The playouts draw
/// on the same random streams either way, so a search with the solver off gives
/// the values it gave before the solver existed.
/// Polls `cancel` once per world (a world costs at most 13 playouts or solves)
/// and, within solves, every 1,024 nodes.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_candidates<G, B, V>(
    candidates: &[Card],
    worlds: u32,
    seed: u64,
    policy: PlayoutPolicy,
    endgame: Endgame,
    mut build: B,
    value: V,
    cancel: &Cancel,
) -> Result<Vec<f64>>
where
    G: Solvable,
    B: FnMut(&mut CardRng) -> G,
    V: Fn(&G) -> f64,
{
    evaluate_weighted_candidates(
        candidates,
        worlds,
        seed,
        policy,
        endgame,
        |rng| (build(rng), 1.0),
        value,
        cancel,
    )
}

/// [`evaluate_candidates`] with a weight for each world: `build` gives the world
/// and how likely the play so far makes it (a positive factor), and each
/// candidate's value is the weighted average over the worlds. Weights of 1 give
/// exactly the unweighted averages (the same draws, sums and division).
#[allow(clippy::too_many_arguments)]
pub fn evaluate_weighted_candidates<G, B, V>(
    candidates: &[Card],
    worlds: u32,
    seed: u64,
    policy: PlayoutPolicy,
    endgame: Endgame,
    mut build: B,
    value: V,
    cancel: &Cancel,
) -> Result<Vec<f64>>
where
    G: Solvable,
    B: FnMut(&mut CardRng) -> (G, f64),
    V: Fn(&G) -> f64,
{
    let mut totals = vec![0.0; candidates.len()];
    let mut weights = 0.0;
    let mut rng = CardRng::new(seed);
    let mut solver: Option<Solver> = None;
    for _ in 0..worlds {
        cancel.check()?;
        let (world, weight) = build(&mut rng);
        weights += weight;
        let stream = rng.next_u64();
        let seat = world.to_act();
        for (i, &card) in candidates.iter().enumerate() {
            let mut deal = world.clone();
            deal.play(card);
            if endgame.applies(&deal) {
                let solver = solver.get_or_insert_with(|| Solver::new(seat));
                if let Some(v) = solver.solve(&deal, &value, endgame.nodes, cancel)? {
                    totals[i] += weight * v;
                    continue;
                }
            }
            let mut play_rng = CardRng::new(stream);
            playout(&mut deal, policy, &mut play_rng);
            totals[i] += weight * value(&deal);
        }
    }
    // No worlds (or none with weight) leave every total at 0: divide by 1.
    let n = if weights > 0.0 { weights } else { 1.0 };
    Ok(totals.iter().map(|t| t / n).collect())
}

/// What the searching seat knows of a deal in progress.
#[derive(Clone, Debug)]
pub struct SearchView<G> {
    /// The searching seat.
    pub seat: usize,
    /// Where the unseen cards may be.
    pub hidden: HiddenHands,
    /// The deal so far (its hands are replaced by each sample).
    pub deal: G,
}

impl<G: Solvable> SearchView<G> {
    /// Average `value` of each candidate over `worlds` hidden-hand samples, solved
    /// exactly past `endgame` (see [`evaluate_candidates`]).
    #[allow(clippy::too_many_arguments)]
    pub fn evaluate<V: Fn(&G) -> f64>(
        &self,
        candidates: &[Card],
        worlds: u32,
        seed: u64,
        policy: PlayoutPolicy,
        endgame: Endgame,
        value: V,
        cancel: &Cancel,
    ) -> Result<Vec<f64>> {
        evaluate_candidates(
            candidates,
            worlds,
            seed,
            policy,
            endgame,
            |rng| {
                let mut deal = self.deal.clone();
                deal.table_mut().hands = self.hidden.sample(rng);
                deal
            },
            value,
            cancel,
        )
    }

    /// [`SearchView::evaluate`] with each sampled world weighted by `weigh`
    /// (see [`evaluate_weighted_candidates`]).
    #[allow(clippy::too_many_arguments)]
    pub fn evaluate_weighted<W: Fn(&G) -> f64, V: Fn(&G) -> f64>(
        &self,
        candidates: &[Card],
        worlds: u32,
        seed: u64,
        policy: PlayoutPolicy,
        endgame: Endgame,
        weigh: W,
        value: V,
        cancel: &Cancel,
    ) -> Result<Vec<f64>> {
        evaluate_weighted_candidates(
            candidates,
            worlds,
            seed,
            policy,
            endgame,
            |rng| {
                let mut deal = self.deal.clone();
                deal.table_mut().hands = self.hidden.sample(rng);
                let weight = weigh(&deal);
                (deal, weight)
            },
            value,
            cancel,
        )
    }
}

/// Play `deals` deals made by `build` to the end with `policy` and add up `tally`
/// of each finished deal per seat (one random stream for the whole run). Polls
/// `cancel` once per deal.
pub fn playout_totals<G, B, T>(
    deals: u64,
    seed: u64,
    policy: PlayoutPolicy,
    build: B,
    tally: T,
    cancel: &Cancel,
) -> Result<[i64; 4]>
where
    G: TrickPlay,
    B: Fn(&mut CardRng) -> G,
    T: Fn(&G) -> [i64; 4],
{
    let mut rng = CardRng::new(seed);
    let mut totals = [0i64; 4];
    for _ in 0..deals {
        cancel.check()?;
        let mut deal = build(&mut rng);
        playout(&mut deal, policy, &mut rng);
        for (t, x) in totals.iter_mut().zip(tally(&deal)) {
            *t += x;
        }
    }
    Ok(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> Vec<Card> {
        crate::cards::parse_cards(text).unwrap()
    }

    #[test]
    fn highest_of_led_suit_wins_without_trump() {
        // HRT-08, HRT-14, HRT-15, HRT-16: A♣ 3♣ 2♥ Q♠ -> A♣ wins; Q♠ is no trump.
        assert_eq!(trick_winner(&cards("Ac 3c 2h Qs"), None), 0);
        assert_eq!(trick_winner(&cards("3c Ac 2h Qs"), None), 1);
        assert_eq!(trick_winner(&cards("5d 2s Kd 9d"), None), 2);
    }

    #[test]
    fn trump_beats_led_suit() {
        // SPD-06, SPD-11, SPD-12, SPD-13: A♥ 2♠ K♥ 3♥ -> the 2♠ wins as trump.
        assert_eq!(trick_winner(&cards("Ah 2s Kh 3h"), Some(3)), 1);
        assert_eq!(trick_winner(&cards("Ah 2s Ks 3h"), Some(3)), 2);
        assert_eq!(trick_winner(&cards("4h 2d Kh 3c"), Some(3)), 2);
        assert_eq!(trick_winner(&cards("As Ah Kh 3c"), Some(3)), 0);
    }

    #[test]
    fn follow_suit_when_able() {
        // HRT-07, SPD-04, SPD-05, SPD-14: follow the led suit if possible, else anything.
        let hand = CardSet::from_cards(cards("2h 9h As Kd"));
        assert_eq!(
            legal_follows(hand, Some(2)),
            CardSet::from_cards(cards("2h 9h"))
        );
        assert_eq!(legal_follows(hand, Some(0)), hand);
        assert_eq!(legal_follows(hand, None), hand);
    }

    #[test]
    fn sampling_respects_sizes_known_cards_and_voids() {
        let mut rng = CardRng::new(3);
        let all = CardSet((1u64 << 52) - 1);
        let mine = CardSet::from_cards(cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"));
        let passed = CardSet::from_cards(cards("Ah Kh Qh"));
        let hidden = HiddenHands {
            known: [mine, passed, CardSet::EMPTY, CardSet::EMPTY],
            unknown: all.difference(mine).difference(passed),
            sizes: [13, 13, 13, 13],
            voids: [0, 0b0100, 0b0010, 0],
            avoid: [CardSet::EMPTY; 4],
        };
        for _ in 0..200 {
            let hands = hidden.sample(&mut rng);
            let mut seen = CardSet::EMPTY;
            for (p, h) in hands.iter().enumerate() {
                assert_eq!(h.len(), 13);
                assert!(seen.intersection(*h).is_empty());
                seen = seen.union(*h);
                for s in 0..4u8 {
                    if hidden.voids[p] & (1 << s) != 0 {
                        assert!(suit_cards(h.difference(hidden.known[p]), s).is_empty());
                    }
                }
            }
            assert!(passed.difference(hands[1]).is_empty());
            assert_eq!(seen, all);
        }
    }

    #[test]
    fn sampling_keeps_avoided_cards_out_while_it_can() {
        let mut rng = CardRng::new(4);
        let mine = CardSet::from_cards(cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"));
        let queen = CardSet::from_cards(cards("Qs"));
        let mut hidden = HiddenHands {
            known: [mine, CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY],
            unknown: CardSet((1u64 << 52) - 1).difference(mine),
            sizes: [13, 13, 13, 13],
            voids: [0; 4],
            avoid: [CardSet::EMPTY, queen, queen, CardSet::EMPTY],
        };
        for _ in 0..100 {
            assert!(hidden.sample(&mut rng)[3].contains(Card::parse("Qs").unwrap()));
        }
        // Seat 3 void in spades: the evidence gives way to the void.
        hidden.voids[3] = 0b1000;
        let mut holders = [0; 4];
        for _ in 0..100 {
            let hands = hidden.sample(&mut rng);
            assert!(suit_cards(hands[3], 3).is_empty());
            for (p, h) in hands.iter().enumerate() {
                holders[p] += u32::from(h.contains(Card::parse("Qs").unwrap()));
            }
        }
        assert!(holders[1] > 0 && holders[2] > 0 && holders[3] == 0);
    }

    #[test]
    fn nth_card_walks_the_set() {
        let set = CardSet::from_cards(cards("2c Kd As"));
        let got: Vec<String> = (0..3).map(|k| nth_card(set, k).to_string()).collect();
        assert_eq!(got, ["2c", "Kd", "As"]);
        assert_eq!(lowest(set).to_string(), "2c");
        assert_eq!(highest(set).to_string(), "As");
    }

    #[test]
    fn stepped_deal_refuses_illegal_cards_and_keeps_tricks() {
        // HRT-06, HRT-07, HRT-08: 2♣ leads, follow suit, the highest card led wins.
        let hands = ["2c Ac", "3c Kd", "4c Qd", "5c Jd"].map(|h| CardSet::from_cards(cards(h)));
        let mut stepped = SteppedDeal::new(hearts::HeartsDeal::new(hands));
        let card = |t: &str| Card::parse(t).unwrap();
        assert_eq!(stepped.try_play(card("Ac")), None);
        assert_eq!(stepped.deal().table().trick(), &[] as &[Card]);
        assert_eq!(stepped.try_play(card("2c")), Some(false));
        assert_eq!(stepped.try_play(card("Kd")), None);
        for t in ["3c", "4c", "5c"] {
            assert_eq!(stepped.try_play(card(t)), Some(false));
        }
        let tricks: Vec<_> = stepped
            .tricks()
            .map(|(l, c, w)| (l, c.to_vec(), w))
            .collect();
        assert_eq!(tricks, vec![(0, cards("2c 3c 4c 5c"), 3)]);
        assert_eq!(
            stepped.taken()[3],
            CardSet::from_cards(cards("2c 3c 4c 5c"))
        );
        assert_eq!(stepped.deal().to_act(), 3);
    }

    #[test]
    fn table_tracks_leads_breaks_and_winners() {
        // SPD-06, SPD-07: no spade lead before one is played; the trump wins.
        let hands = ["2s 3h", "4d 5s", "6h 7h", "8h 9h"].map(|h| CardSet::from_cards(cards(h)));
        let mut table = TrickTable::new(hands, 0);
        assert_eq!(table.follows_or_leads(3), CardSet::from_cards(cards("3h")));
        for (i, t) in ["3h", "5s", "6h"].iter().enumerate() {
            assert_eq!(table.play(Card::parse(t).unwrap(), 3, Some(3)), None);
            assert_eq!(table.trick().len(), i + 1);
        }
        assert!(table.broken);
        let won = table.play(Card::parse("8h").unwrap(), 3, Some(3)).unwrap();
        assert_eq!(won.winner, 1);
        assert_eq!(won.cards, CardSet::from_cards(cards("3h 5s 6h 8h")));
        assert_eq!(
            (table.leader, table.to_act(), table.tricks_played),
            (1, 1, 1)
        );
        assert_eq!(table.follows_or_leads(3), CardSet::from_cards(cards("4d")));
    }
}
