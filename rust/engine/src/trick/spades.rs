//! Spades play for AI search: a deal after the bidding, spades trump and may not
//! be led before one is played unless the leader holds only spades, and the
//! partnership scoring (contracts, nil, bags) of the seed.

use super::endgame::Solvable;
use super::{
    deal_hands, highest, lowest, playout, suit_cards, suit_of, trick_winner, HiddenHands,
    PlayoutPolicy, TrickPlay, TrickTable, WonTrick,
};
use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::rng::CardRng;

/// Spades are trumps.
pub const SPADES: u8 = 3;

/// A Spades deal in play, after the bidding.
#[derive(Clone, Debug)]
pub struct SpadesDeal {
    /// Hands, the trick in progress, and whether spades are broken.
    pub table: TrickTable,
    /// Each seat's bid (0 = nil).
    pub bids: [u8; 4],
    /// Tricks each seat has won.
    pub tricks: [u8; 4],
    /// Whether the first lead must be 2♣ (the `two_of_clubs` first-lead option).
    pub two_of_clubs_leads: bool,
    /// Whether the heuristic plays around nils: every seat tries to set an
    /// opponent's nil (leads low, stays under a nil that is winning the trick,
    /// plays low ahead of it) and covers a nil partner (takes a trick the partner
    /// is winning). Off, it is the plain contract-and-bags policy.
    pub nil_play: bool,
}

/// One partnership's result for a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamScore {
    /// Points this deal, bag penalties included.
    pub points: i32,
    /// The team's bag count after the deal (below 10).
    pub bags: u32,
}

/// Score one partnership (seats `a` and `b`) for a deal: the nonzero bids form the
/// contract, made by the tricks of the non-nil players (10 per bid trick plus 1
/// per overtrick) or failed (-10 per bid trick); each nil scores +100 when its
/// bidder took no trick and -100 otherwise, and a failed nil's tricks count as
/// bags (1 point each) but not toward the contract; every 10 accumulated bags
/// cost 100.
pub fn team_score(bids: [u8; 2], tricks: [u8; 2], bags_before: u32) -> TeamScore {
    let mut points = 0i32;
    let mut bags = 0u32;
    let contract: u32 = bids.iter().map(|&b| u32::from(b)).sum();
    let mut toward = 0u32;
    for i in 0..2 {
        if bids[i] == 0 {
            if tricks[i] == 0 {
                points += 100;
            } else {
                points -= 100;
                bags += u32::from(tricks[i]);
            }
        } else {
            toward += u32::from(tricks[i]);
        }
    }
    if contract > 0 {
        if toward >= contract {
            points += 10 * contract as i32;
            bags += toward - contract;
        } else {
            points -= 10 * contract as i32;
        }
    }
    points += bags as i32;
    // Every 10 bags cost 100 and leave the count, worked out at once: a hand-built
    // carry can be any u32, and the search scores every playout with it.
    let total_bags = bags_before.saturating_add(bags);
    let penalties = i32::try_from(total_bags / 10).unwrap_or(i32::MAX);
    TeamScore {
        points: points.saturating_sub(penalties.saturating_mul(100)),
        bags: total_bags % 10,
    }
}

/// What a Spades search values in a finished deal, for the searching team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpadesObjective {
    /// Own team's deal points minus the other team's (bags and bag penalties
    /// included): the deal alone, blind to the match standing.
    Deal,
    /// The deal's points difference, plus [`MATCH_WIN`] when the deal ends the
    /// match with own team ahead and minus it when behind. Where the deal cannot end
    /// the match this is the deal objective, to the bit; where it can, a contract
    /// that takes the team past `target` outranks a bigger score that falls short,
    /// and setting a contract that would end the match against the team is worth
    /// more than its points.
    Match {
        /// Match totals before this deal, per team (seats 0 and 2, then 1 and 3).
        scores: [i32; 2],
        /// The total that ends the match (the higher total then wins).
        target: i32,
        /// The `lose_at` house rule: a total at or below it also ends the match
        /// (the higher total wins); `None` when the match has no floor (SPD-10).
        lose_at: Option<i32>,
    },
}

/// What ending the match a winner (or a loser) is worth in the match objective, in
/// deal points. A judgement, not a fit: more than all but rare deals swing, and
/// about what a 200-point lead late in a match (two set contracts of ten) is worth
/// in chances of winning it.
pub const MATCH_WIN: f64 = 200.0;

/// The side-suit cards of `legal`, or all of them when only spades are left: the
/// pool a playout leads from, keeping spades (trumps) back while it can.
fn side_first(legal: CardSet) -> CardSet {
    let side = legal.difference(suit_cards(legal, SPADES));
    if side.is_empty() {
        legal
    } else {
        side
    }
}

impl SpadesDeal {
    /// A deal of `hands` after `bids`; `leader` leads the first trick.
    pub fn new(hands: [CardSet; 4], bids: [u8; 4], leader: usize) -> SpadesDeal {
        SpadesDeal {
            table: TrickTable::new(hands, leader),
            bids,
            tricks: [0; 4],
            two_of_clubs_leads: false,
            nil_play: false,
        }
    }

    /// A random deal with the given bids; seat 0 leads.
    pub fn random(bids: [u8; 4], rng: &mut CardRng) -> SpadesDeal {
        SpadesDeal::new(deal_hands(rng), bids, 0)
    }

    /// Each partnership's score for the deal (seats 0 and 2, then 1 and 3).
    pub fn scores(&self, bags_before: [u32; 2]) -> [TeamScore; 2] {
        [0, 1].map(|t| {
            team_score(
                [self.bids[t], self.bids[t + 2]],
                [self.tricks[t], self.tricks[t + 2]],
                bags_before[t],
            )
        })
    }

    /// Own team's deal points minus the other team's, for `seat` with each
    /// team's `bags` before the deal (the search agent's value of a finished deal).
    pub fn team_value(&self, seat: usize, bags: [u32; 2]) -> f64 {
        self.objective_value(seat, bags, SpadesObjective::Deal)
    }

    /// What the finished deal is worth to `seat`'s team under `objective`, with
    /// each team's `bags` carried into the deal.
    pub fn objective_value(&self, seat: usize, bags: [u32; 2], objective: SpadesObjective) -> f64 {
        let team = seat % 2;
        let s = self.scores(bags);
        let diff = f64::from(s[team].points) - f64::from(s[1 - team].points);
        match objective {
            SpadesObjective::Deal => diff,
            SpadesObjective::Match {
                scores,
                target,
                lose_at,
            } => {
                let own = scores[team].saturating_add(s[team].points);
                let other = scores[1 - team].saturating_add(s[1 - team].points);
                // SPD-10: at the target (or the floor) the higher score wins; equal
                // scores play on.
                let sunk = lose_at.is_some_and(|floor| own.min(other) <= floor);
                if own == other || (own.max(other) < target && !sunk) {
                    diff
                } else if own > other {
                    diff + MATCH_WIN
                } else {
                    diff - MATCH_WIN
                }
            }
        }
    }

    /// Whether `seat` bid nil and has taken no trick: a nil still to set or keep.
    fn nil_alive(&self, seat: usize) -> bool {
        self.bids[seat] == 0 && self.tricks[seat] == 0
    }

    /// The nil play of `seat` (see [`SpadesDeal::nil_play`]), when a nil is alive
    /// and the seat has a card for it; `winners` are its legal cards that would
    /// take the lead of the trick in progress and `losers` the others.
    fn nil_card(
        &self,
        seat: usize,
        legal: CardSet,
        winners: CardSet,
        losers: CardSet,
    ) -> Option<Card> {
        let table = &self.table;
        let trick = table.trick();
        let partner = (seat + 2) % 4;
        let cover = self.bids[seat] != 0 && self.nil_alive(partner);
        let target = [(seat + 1) % 4, (seat + 3) % 4]
            .into_iter()
            .find(|&s| self.nil_alive(s));
        if trick.is_empty() {
            // Lead low under an opponent's nil, high over a partner's.
            let pool = side_first(legal);
            return match (target, cover) {
                (Some(_), _) => Some(lowest(pool)),
                (None, true) => Some(highest(pool)),
                (None, false) => None,
            };
        }
        let has_played = |s: usize| (s + 4 - table.leader) % 4 < trick.len();
        let winner = (table.leader + trick_winner(trick, Some(SPADES))) % 4;
        if let Some(nil) = target {
            if winner == nil || !has_played(nil) {
                // Keep the nil on top, or keep the card it must beat low: the
                // highest card that does not take the lead.
                return Some(if losers.is_empty() {
                    lowest(legal)
                } else {
                    highest(losers)
                });
            }
        }
        if cover && winner == partner && !winners.is_empty() {
            return Some(lowest(winners));
        }
        if cover && !has_played(partner) && !winners.is_empty() {
            return Some(highest(winners));
        }
        None
    }

    fn wants_tricks(&self, seat: usize) -> bool {
        if self.bids[seat] == 0 {
            return false;
        }
        let partner = (seat + 2) % 4;
        let contract = u32::from(self.bids[seat]) + u32::from(self.bids[partner]);
        let mut have = u32::from(self.tricks[seat]);
        if self.bids[partner] != 0 {
            have += u32::from(self.tricks[partner]);
        }
        have < contract
    }
}

impl TrickPlay for SpadesDeal {
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
        if self.two_of_clubs_leads && t.tricks_played == 0 && t.trick().is_empty() {
            let two = Card::new(0, 0);
            if t.hands[t.to_act()].contains(two) {
                return CardSet::EMPTY.with(two);
            }
        }
        t.follows_or_leads(SPADES)
    }

    #[inline]
    fn play(&mut self, card: Card) -> Option<WonTrick> {
        let won = self.table.play(card, SPADES, Some(SPADES))?;
        self.tricks[won.winner] += 1;
        Some(won)
    }

    fn heuristic(&self) -> Card {
        let seat = self.to_act();
        let legal = self.legal();
        let want = self.wants_tricks(seat);
        let trick = self.table.trick();
        if trick.is_empty() {
            if self.nil_play {
                if let Some(card) = self.nil_card(seat, legal, CardSet::EMPTY, legal) {
                    return card;
                }
            }
            // Cash a high side card when tricks are needed; otherwise lead low.
            let pool = side_first(legal);
            return if want { highest(pool) } else { lowest(pool) };
        }
        let i = trick_winner(trick, Some(SPADES));
        let winning = trick[i];
        let partner_winning = (self.table.leader + i) % 4 == (seat + 2) % 4;
        // Cards that would take the lead: higher in the winning card's suit, or
        // any spade over a non-spade.
        let same = suit_cards(legal, suit_of(winning));
        let mut winners = CardSet(same.0 & !((2u64 << winning.index()) - 1));
        if suit_of(winning) != SPADES {
            winners = winners.union(suit_cards(legal, SPADES));
        }
        let losers = legal.difference(winners);
        if self.nil_play {
            if let Some(card) = self.nil_card(seat, legal, winners, losers) {
                return card;
            }
        }
        if want && !partner_winning && !winners.is_empty() {
            // The cheapest winning card: in the winning card's suit if possible.
            let pool = CardSet(winners.0 & same.0);
            return lowest(if pool.is_empty() { winners } else { pool });
        }
        if losers.is_empty() {
            return lowest(legal);
        }
        // Duck: a nil or a team already home sheds its highest losing card.
        if want {
            lowest(losers)
        } else {
            highest(losers)
        }
    }
}

impl Solvable for SpadesDeal {
    /// Tricks each seat has won (nil and the contracts count them per seat).
    fn tally(&self) -> [u8; 4] {
        self.tricks
    }

    /// Partners (seats 0 and 2, 1 and 3) share a score.
    fn same_side(a: usize, b: usize) -> bool {
        a % 2 == b % 2
    }
}

/// Cards in a Spades hand while the bidding goes on (SPD-01).
pub const BIDDING_HAND: u32 = 13;

/// The bidding estimate of `seat`'s 13-card `hand`: how many of `worlds` seeded
/// deals (the 39 unseen cards dealt at random to the other seats) it took each
/// number of tricks in (index 0..=13), each deal played out by every seat with
/// `policy` under `bids` (the seat's own bid shapes its play: 0 ducks as a nil,
/// a high bid plays for tricks). `leader` leads the first trick; `None`: the
/// holder of 2♣ leads it with the 2♣ (the `two_of_clubs` first-lead option).
/// Polls `cancel` once per deal; memory does not grow with `worlds`.
#[allow(clippy::too_many_arguments)]
pub fn bid_playouts(
    seat: usize,
    hand: CardSet,
    bids: [u8; 4],
    leader: Option<usize>,
    worlds: u32,
    policy: PlayoutPolicy,
    seed: u64,
    cancel: &Cancel,
) -> Result<[u32; 14]> {
    let bad = |why: String| Err(EngineError::RuleOption(why));
    if seat >= 4 || leader.is_some_and(|l| l >= 4) {
        return bad(format!("seat {seat} and leader {leader:?} must be 0..3"));
    }
    if bids.iter().any(|&b| b > 13) {
        return bad(format!("bids {bids:?} must be 0..13"));
    }
    if hand.len() != BIDDING_HAND || hand.0 >> 52 != 0 {
        return Err(EngineError::InvalidCard(format!(
            "hand must be {BIDDING_HAND} cards of one 52-card pack, got {} cards",
            hand.len()
        )));
    }
    let mut known = [CardSet::EMPTY; 4];
    known[seat] = hand;
    let hidden = HiddenHands {
        known,
        unknown: CardSet((1u64 << 52) - 1).difference(hand),
        sizes: [BIDDING_HAND; 4],
        voids: [0; 4],
        avoid: [CardSet::EMPTY; 4],
    };
    let two_of_clubs = Card::new(0, 0);
    let mut rng = CardRng::new(seed);
    let mut counts = [0u32; 14];
    for _ in 0..worlds {
        cancel.check()?;
        let hands = hidden.sample(&mut rng);
        let first = leader
            .or_else(|| hands.iter().position(|h| h.contains(two_of_clubs)))
            .unwrap_or(0);
        let mut deal = SpadesDeal::new(hands, bids, first);
        deal.two_of_clubs_leads = leader.is_none();
        playout(&mut deal, policy, &mut rng);
        counts[usize::from(deal.tricks[seat].min(13))] += 1;
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::super::{playout, PlayoutPolicy};
    use super::*;

    #[test]
    fn bid_playouts_count_the_seats_tricks() {
        use crate::cancel::NEVER;
        let policy = PlayoutPolicy::Heuristic(0.0);
        let run = |hand: &str, bids: [u8; 4], leader: Option<usize>| {
            bid_playouts(1, set(hand), bids, leader, 200, policy, 5, &NEVER).unwrap()
        };
        // Every spade: all 13 tricks in every deal, whoever leads.
        let all = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As";
        assert_eq!(run(all, [3, 13, 3, 3], Some(0))[13], 200);
        assert_eq!(run(all, [3, 13, 3, 3], None)[13], 200);
        // Low cards bid nil: mostly no trick at all.
        let low = "2c 3c 4c 5c 2d 3d 4d 5d 2h 3h 4h 5h 2s";
        let nil = run(low, [3, 0, 3, 3], Some(0));
        assert_eq!(nil.iter().sum::<u32>(), 200);
        assert!(nil[0] > 150, "{nil:?}");
        // Seeded.
        assert_eq!(run(low, [3, 0, 3, 3], Some(0)), nil);
        let bad = bid_playouts(1, set("2c"), [3; 4], None, 5, policy, 1, &NEVER);
        assert!(matches!(bad, Err(EngineError::InvalidCard(_))));
        let bad = bid_playouts(4, set(all), [3; 4], None, 5, policy, 1, &NEVER);
        assert!(matches!(bad, Err(EngineError::RuleOption(_))));
        let bad = bid_playouts(1, set(all), [14, 3, 3, 3], None, 5, policy, 1, &NEVER);
        assert!(matches!(bad, Err(EngineError::RuleOption(_))));
    }

    #[test]
    fn match_objective_adds_the_match_only_to_deals_that_end_it() {
        // SPD-10. Team 0 bid 3 + 2 and took 6 (51); team 1 bid 4 + 3 and took 7 (70).
        let mut deal = SpadesDeal::new([CardSet::EMPTY; 4], [3, 4, 2, 3], 0);
        deal.tricks = [3, 4, 3, 3];
        let diff = deal.objective_value(0, [0, 0], SpadesObjective::Deal);
        assert_eq!(diff, -19.0);
        let at = |seat: usize, scores: [i32; 2]| {
            let objective = SpadesObjective::Match {
                scores,
                target: 500,
                lose_at: None,
            };
            deal.objective_value(seat, [0, 0], objective)
        };
        // Nobody reaches 500: the deal objective, to the bit.
        assert_eq!(at(0, [100, 100]).to_bits(), diff.to_bits());
        assert_eq!(at(0, [448, 429]), diff);
        // Team 0 reaches 501 against 370; both pass 500 and team 0 is higher (511, 510).
        assert_eq!(at(0, [450, 300]), diff + MATCH_WIN);
        assert_eq!(at(2, [460, 440]), diff + MATCH_WIN);
        // Team 1 reaches 510 against 491; the other side of it.
        assert_eq!(at(0, [440, 440]), diff - MATCH_WIN);
        assert_eq!(at(1, [440, 440]), -diff + MATCH_WIN);
        // Equal at the target (501 each): the match goes on.
        assert_eq!(at(0, [450, 431]), diff);
        // Bags carried in count: team 0's tenth bag costs 100 (450 + 51 - 100 < 500).
        let objective = SpadesObjective::Match {
            scores: [450, 0],
            target: 500,
            lose_at: None,
        };
        assert_eq!(deal.objective_value(0, [9, 0], objective), diff - 100.0);
        // Totals near the ends of i32 saturate instead of wrapping.
        assert_eq!(at(0, [i32::MAX, 0]), diff + MATCH_WIN);
    }

    #[test]
    fn match_objective_ends_the_match_at_the_lose_at_floor() {
        // SPD-10 with the lose_at house rule. Team 0 scores 51 and team 1 70, as above.
        let mut deal = SpadesDeal::new([CardSet::EMPTY; 4], [3, 4, 2, 3], 0);
        deal.tricks = [3, 4, 3, 3];
        let diff = deal.objective_value(0, [0, 0], SpadesObjective::Deal);
        let at = |seat: usize, scores: [i32; 2], lose_at: Option<i32>| {
            let objective = SpadesObjective::Match {
                scores,
                target: 500,
                lose_at,
            };
            deal.objective_value(seat, [0, 0], objective)
        };
        // Team 0 stays at -250 + 51 = -199 against 70: above a -200 floor, play on;
        // at a -199 floor the match ends with team 0 behind.
        assert_eq!(at(0, [-250, 0], Some(-200)).to_bits(), diff.to_bits());
        assert_eq!(at(0, [-250, 0], Some(-199)), diff - MATCH_WIN);
        assert_eq!(at(1, [-250, 0], Some(-199)), -diff + MATCH_WIN);
        // Without the floor the same totals play on.
        assert_eq!(at(0, [-250, 0], None).to_bits(), diff.to_bits());
        // Both sunk and equal (-149 each): equal scores play on.
        assert_eq!(at(0, [-200, -219], Some(-100)).to_bits(), diff.to_bits());
        // Team 1 sinks to -230 + 70 = -160 below a -150 floor while team 0 is ahead.
        assert_eq!(at(0, [0, -230], Some(-150)), diff + MATCH_WIN);
    }

    /// The heuristic's card for the seat to act once `played` is played, with and
    /// without nil play.
    fn nil_play_choice(hands: [&str; 4], bids: [u8; 4], leader: usize, played: &str) -> [Card; 2] {
        let mut deal = SpadesDeal::new(hands.map(set), bids, leader);
        for card in crate::cards::parse_cards(played).unwrap() {
            deal.play(card);
        }
        let plain = deal.heuristic();
        deal.nil_play = true;
        [deal.heuristic(), plain]
    }

    fn cards(text: &str) -> [Card; 2] {
        let parsed = crate::cards::parse_cards(text).unwrap();
        [parsed[0], parsed[1]]
    }

    #[test]
    fn nil_play_sets_an_opposing_nil_and_covers_a_partners() {
        // SPD-08. Seat 1 bid nil: seat 0 leads low under it (plain: cash the ace).
        let hands = ["Ah 2h 3d Ks", "9h 4c", "Th 8h 2c", "5c 6c"];
        assert_eq!(nil_play_choice(hands, [3, 0, 3, 3], 0, ""), cards("2h Ah"));
        // The nil's 9h is winning: seat 2 stays under it (plain: wins with the ten).
        let hands = ["", "9h 4c", "Th 8h 2c", "5c 6c"];
        assert_eq!(
            nil_play_choice(hands, [3, 0, 3, 3], 1, "9h"),
            cards("8h Th")
        );
        // The nil plays after seat 2: the card to beat stays low (plain: wins it).
        let hands = ["", "5c 4d", "Kc 2c", "9c 6c"];
        assert_eq!(
            nil_play_choice(hands, [3, 3, 3, 0], 1, "5c"),
            cards("2c Kc")
        );
        // Seat 0 bid nil and is winning with 9h: its partner takes the trick over it
        // (plain: leaves a trick its partner is winning).
        let hands = ["9h 4c", "3h 5c", "Th Ah 2h", "6c 7c"];
        assert_eq!(
            nil_play_choice(hands, [0, 3, 3, 3], 0, "9h 3h"),
            cards("Th 2h")
        );
        // A nil that has taken a trick is nothing to set any more: plain play.
        let mut deal =
            SpadesDeal::new(["", "9h 4c", "Th 8h 2c", "5c 6c"].map(set), [3, 0, 3, 3], 1);
        deal.tricks[1] = 1;
        deal.nil_play = true;
        deal.play(Card::parse("9h").unwrap());
        assert_eq!(deal.heuristic(), Card::parse("Th").unwrap());
    }

    #[test]
    fn nil_play_sets_more_nils_in_playouts() {
        let made = |nil_play: bool| {
            let mut rng = CardRng::new(11);
            (0..2000)
                .filter(|_| {
                    let mut deal = SpadesDeal::random([3, 0, 3, 3], &mut rng);
                    deal.nil_play = nil_play;
                    playout(&mut deal, PlayoutPolicy::Heuristic(0.0), &mut rng);
                    deal.tricks[1] == 0
                })
                .count()
        };
        let (plain, set) = (made(false), made(true));
        assert!(
            set < plain,
            "nils made: {set} with nil play, {plain} without"
        );
    }

    #[test]
    fn any_bag_carry_scores_in_constant_time() {
        assert_eq!(team_score([3, 2], [4, 2], 9).bags, 0);
        assert_eq!(team_score([3, 2], [4, 2], 9).points, 51 - 100);
        let huge = team_score([3, 2], [4, 2], u32::MAX);
        assert_eq!(huge.bags, 5);
        assert_eq!(huge.points, 51 - i32::MAX);
    }

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    #[test]
    fn worked_example_low_trump_wins() {
        // SPD-06, SPD-11, SPD-12, SPD-13: A♥ 2♠ K♥ 3♥, the second player void in hearts.
        let hands = ["Ah 4c", "2s 5c", "Kh 6c", "3h 7c"].map(set);
        let mut deal = SpadesDeal::new(hands, [1, 1, 1, 1], 0);
        for c in ["Ah", "2s", "Kh", "3h"] {
            let card = Card::parse(c).unwrap();
            assert!(deal.legal().contains(card));
            deal.play(card);
        }
        assert_eq!(deal.tricks, [0, 1, 0, 0]);
        assert_eq!(deal.table.leader, 1);
        assert!(deal.table.broken);
    }

    #[test]
    fn no_trump_to_dodge_a_suit_held() {
        // SPD-04, SPD-14: a player holding the led suit must follow it.
        let hands = ["Ah", "2s 5h", "Kh", "3h"].map(set);
        let mut deal = SpadesDeal::new(hands, [1, 1, 1, 1], 0);
        deal.play(Card::parse("Ah").unwrap());
        assert_eq!(deal.legal(), set("5h"));
    }

    #[test]
    fn spades_not_led_until_broken() {
        // SPD-07: no spade lead before one is played, unless holding only spades.
        let mut deal = SpadesDeal::new(["2s 3h", "", "", ""].map(set), [1; 4], 0);
        assert_eq!(deal.legal(), set("3h"));
        deal.table.hands[0] = set("2s 3s");
        assert_eq!(deal.legal(), set("2s 3s"));
        deal.table.hands[0] = set("2s 3h");
        deal.table.broken = true;
        assert_eq!(deal.legal(), set("2s 3h"));
    }

    #[test]
    fn two_of_clubs_option_forces_the_first_lead() {
        // SPD-07 with the two_of_clubs first-lead option: 2♣ opens, then spades stay unled.
        let hands = ["2c 3s", "4c 5s", "6c 7h", "8c 9h"].map(set);
        let mut deal = SpadesDeal::new(hands, [1; 4], 0);
        deal.two_of_clubs_leads = true;
        assert_eq!(deal.legal(), set("2c"));
        deal.two_of_clubs_leads = false;
        assert_eq!(deal.legal(), set("2c"));
        deal.table.hands[0] = set("2d 3s");
        deal.two_of_clubs_leads = true;
        assert_eq!(deal.legal(), set("2d"));
    }

    #[test]
    fn contract_nil_and_bags() {
        // SPD-03, SPD-08, SPD-09, SPD-16, SPD-19.
        assert_eq!(
            team_score([3, 4], [4, 4], 0),
            TeamScore {
                points: 71,
                bags: 1
            }
        );
        assert_eq!(
            team_score([3, 4], [3, 3], 0),
            TeamScore {
                points: -70,
                bags: 0
            }
        );
        assert_eq!(
            team_score([0, 4], [0, 5], 0),
            TeamScore {
                points: 141,
                bags: 1
            }
        );
        // A failed nil's two tricks are bags and leave the partner's 4 short.
        assert_eq!(
            team_score([0, 4], [2, 3], 0),
            TeamScore {
                points: -100 - 40 + 2,
                bags: 2
            }
        );
        // Crossing 10 bags twice in one deal costs 200.
        assert_eq!(
            team_score([1, 1], [6, 7], 9),
            TeamScore {
                points: 20 + 11 - 200,
                bags: 0
            }
        );
    }

    #[test]
    fn playouts_take_13_tricks() {
        let mut rng = CardRng::new(5);
        for policy in [PlayoutPolicy::Random, PlayoutPolicy::Heuristic(0.1)] {
            for _ in 0..300 {
                let mut deal = SpadesDeal::random([3, 3, 3, 3], &mut rng);
                playout(&mut deal, policy, &mut rng);
                assert_eq!(deal.tricks.iter().map(|&t| u32::from(t)).sum::<u32>(), 13);
            }
        }
    }
}
