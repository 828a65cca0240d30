//! Fast whole-deal play for AI search: a compact deal state for Dou Dizhu and
//! Zheng Shangyou (card play only; bidding is settled before), the rule-based
//! policy both games' agents use, random and rule playouts, and a determinized
//! Monte Carlo search that samples the hidden cards consistently with what a seat
//! has seen.
//!
//! Scores follow the rule texts: Dou Dizhu pays bid x multiplier (x2 per bomb or
//! rocket, x2 for spring or reverse spring), the landlord twice; Zheng Shangyou pays
//! the winner each loser's card penalty (x2 if it never played, +10 for the two,
//! +10 per bomb still held) and settles unbeaten response bombs at 20.

use super::endgame::{cards_left, Endgame, Solver};
use super::evidence::Evidence;
use super::{doudizhu as ddz, zhengshangyou as zsy, Combination, Kind, Ranks};
use super::{ACE, BLACK_JOKER, NUM_RANKS, RED_JOKER, THREE, TWO};
use crate::cancel::Cancel;
use crate::error::Result;
use crate::rng::CardRng;
use std::sync::OnceLock;

/// Which game a [`Deal`] plays, with what bidding settled.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Game {
    DouDizhu { landlord: u8, bid: u8 },
    ZhengShangyou,
}

/// A move: a play, or `None` for pass.
pub type Move = Option<Combination>;

/// The card-play phase of a three-player climbing deal.
#[derive(Clone, Debug)]
pub struct Deal {
    pub game: Game,
    pub hands: [Ranks; 3],
    pub to_move: u8,
    /// The combination to beat, `None` when `to_move` leads.
    pub table: Option<Combination>,
    pub table_owner: u8,
    /// Consecutive passes since the table was played.
    pub passes: u8,
    /// Plays (not passes) each seat has made.
    pub plays: [u16; 3],
    /// Zheng Shangyou: the opening play (which must hold the heart three) is next.
    pub opening: bool,
    /// Dou Dizhu: bombs and rockets played so far.
    pub bombs: u8,
    /// Zheng Shangyou: bomb bonuses settled so far.
    pub bonus: [i32; 3],
    /// Zheng Shangyou: the table is a response bomb whose bonus is not yet settled.
    pub pending_bomb: bool,
    pub winner: Option<u8>,
}

impl Deal {
    /// A fresh deal: `leader` leads into an empty table.
    pub fn new(game: Game, hands: [Ranks; 3], leader: u8) -> Deal {
        Deal {
            game,
            hands,
            to_move: leader % 3,
            table: None,
            table_owner: leader % 3,
            passes: 0,
            plays: [0; 3],
            opening: game == Game::ZhengShangyou,
            bombs: 0,
            bonus: [0; 3],
            pending_bomb: false,
            winner: None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// Every play the seat to act may make (leads, or plays that beat the table).
    pub fn plays(&self) -> Vec<Combination> {
        if self.is_over() {
            return Vec::new();
        }
        let hand = &self.hands[self.to_move as usize];
        match (&self.game, &self.table) {
            (Game::DouDizhu { .. }, None) => ddz::leads(hand),
            (Game::DouDizhu { .. }, Some(t)) => ddz::responses(hand, t),
            (Game::ZhengShangyou, None) => zsy::leads(hand, self.opening),
            (Game::ZhengShangyou, Some(t)) => zsy::responses(hand, t),
        }
    }

    /// Every legal move of the seat to act, plays first, pass last.
    pub fn legal(&self) -> Vec<Move> {
        // A 20-card hand averages some 80 leads; answers are a handful.
        let mut out = Vec::with_capacity(64);
        self.each_legal(|mv, _| out.push(mv));
        out
    }

    /// [`Deal::legal`] without the list: `f(mv, key)` for each legal move in the
    /// same order, `key` being the play's [`Ranks::key`] (0 for pass). Dou Dizhu's
    /// plays come straight from the move generator.
    pub fn each_legal(&self, mut f: impl FnMut(Move, u64)) {
        if self.is_over() {
            return;
        }
        let hand = &self.hands[self.to_move as usize];
        let mut any = false;
        let mut play = |kind, main, length, key| {
            any = true;
            f(
                Some(Combination::new(kind, main, length, Ranks::from_key(key))),
                key,
            );
        };
        match (&self.game, &self.table) {
            (Game::DouDizhu { .. }, table) => ddz::each_play(hand, table.as_ref(), &mut play),
            (Game::ZhengShangyou, table) => {
                let plays = match table {
                    None => zsy::leads(hand, self.opening),
                    Some(t) => zsy::responses(hand, t),
                };
                for c in plays {
                    play(c.kind, c.main, c.length, c.cards.key());
                }
            }
        }
        // DDZ-13: followers may pass; ZSY-13, ZSY-14: only when nothing beats the table.
        if self.table.is_some() && (!any || is_ddz(self.game)) {
            f(None, 0);
        }
    }

    /// Play `mv` for the seat to act; the caller passes a legal move.
    pub fn apply(&mut self, mv: Move) {
        let seat = self.to_move;
        match mv {
            None => {
                // Saturating: a hand-built position may start at any count.
                self.passes = self.passes.saturating_add(1);
                self.to_move = (seat + 1) % 3;
                if self.passes >= 2 {
                    // The round is over: an unbeaten response bomb earns its bonus.
                    self.settle_bomb();
                    self.table = None;
                    self.passes = 0;
                    self.to_move = self.table_owner;
                }
            }
            Some(c) => {
                let s = seat as usize;
                let response = self.table.is_some();
                self.hands[s] = self.hands[s].minus(&c.cards);
                self.plays[s] = self.plays[s].saturating_add(1);
                if c.kind.is_bomb() {
                    self.bombs = self.bombs.saturating_add(1);
                }
                self.pending_bomb = self.game == Game::ZhengShangyou
                    && response
                    && matches!(c.kind, Kind::Bomb | Kind::AceBomb);
                self.opening = false;
                self.table = Some(c);
                self.table_owner = seat;
                self.passes = 0;
                self.to_move = (seat + 1) % 3;
                if self.hands[s].is_empty() {
                    // ZSY-31: a finishing response bomb is settled at once.
                    self.settle_bomb();
                    self.winner = Some(seat);
                }
            }
        }
    }

    fn settle_bomb(&mut self) {
        if self.pending_bomb {
            let owner = self.table_owner as usize;
            for (seat, b) in self.bonus.iter_mut().enumerate() {
                *b += if seat == owner { 20 } else { -10 };
            }
            self.pending_bomb = false;
        }
    }

    /// Whether seats `a` and `b` are on the same side (Dou Dizhu farmers).
    pub fn partners(&self, a: u8, b: u8) -> bool {
        match self.game {
            Game::DouDizhu { landlord, .. } => a == b || (a != landlord && b != landlord),
            Game::ZhengShangyou => a == b,
        }
    }

    /// Each seat's score once the deal is over (zeros before).
    pub fn scores(&self) -> [i32; 3] {
        let Some(winner) = self.winner else {
            return [0; 3];
        };
        match self.game {
            Game::DouDizhu { landlord, bid } => {
                let landlord_won = winner == landlord;
                let farmers = [0u8, 1, 2].into_iter().filter(|&s| s != landlord);
                let farmers_played: u16 = farmers.map(|s| self.plays[s as usize]).sum();
                let spring = landlord_won && farmers_played == 0;
                let reverse = !landlord_won && self.plays[landlord as usize] == 1;
                let doublings = u32::from(self.bombs) + u32::from(spring || reverse);
                let unit = i32::from(bid) << doublings.min(24);
                let sign = if landlord_won { 1 } else { -1 };
                let mut out = [-sign * unit; 3];
                out[landlord as usize] = 2 * sign * unit;
                out
            }
            Game::ZhengShangyou => {
                let mut out = self.bonus;
                for seat in 0..3 {
                    if seat != winner as usize {
                        let penalty = zsy_penalty(&self.hands[seat], self.plays[seat] == 0);
                        out[seat] -= penalty;
                        out[winner as usize] += penalty;
                    }
                }
                out
            }
        }
    }
}

/// A Zheng Shangyou loser's card penalty: a point a card (doubled if it never
/// played), 10 for the two, 10 per bomb held (four of a kind or the three aces).
pub fn zsy_penalty(hand: &Ranks, never_played: bool) -> i32 {
    let cards = hand.len() as i32 * if never_played { 2 } else { 1 };
    let two = 10 * i32::from(hand.count(TWO) > 0);
    let fours = (0..=TWO).filter(|&r| hand.count(r) >= 4).count() as i32;
    let aces = i32::from(hand.count(ACE) >= 3);
    cards + two + 10 * (fours + aces)
}

/// The longest run (top rank, length) of at least `min_len` ranks in 3..A with
/// `width` copies each; the lowest such run among equally long ones.
fn longest_run(hand: &Ranks, width: u8, min_len: u8) -> Option<(u8, u8)> {
    let mut best: Option<(u8, u8)> = None;
    let mut streak = 0u8;
    for r in 0..=ACE {
        streak = if hand.count(r) >= width {
            streak + 1
        } else {
            0
        };
        if streak >= min_len && best.is_none_or(|(_, l)| streak > l) {
            best = Some((r, streak));
        }
    }
    best
}

fn is_ddz(game: Game) -> bool {
    matches!(game, Game::DouDizhu { .. })
}

/// A greedy split of `hand` into plays: rocket and bombs kept whole, then
/// airplanes (Dou Dizhu), straights, pair runs, triples, pairs and singles.
/// Triples (and airplane triples) in Dou Dizhu carry the lowest spare singles or
/// pairs as attachments. Used to judge how many turns a hand needs.
pub fn plan(hand: &Ranks, game: Game) -> Vec<Combination> {
    let ddz_rules = is_ddz(game);
    let mut h = *hand;
    let mut out = Vec::new();
    let take = |h: &mut Ranks, out: &mut Vec<Combination>, kind, main, length, cards: Ranks| {
        *h = h.minus(&cards);
        out.push(Combination::new(kind, main, length, cards));
    };
    if ddz_rules && h.count(BLACK_JOKER) > 0 && h.count(RED_JOKER) > 0 {
        let mut cards = Ranks::default();
        cards.add(BLACK_JOKER, 1);
        cards.add(RED_JOKER, 1);
        take(&mut h, &mut out, Kind::Rocket, RED_JOKER, 1, cards);
    }
    for r in 0..=TWO {
        if h.count(r) >= 4 {
            let mut cards = Ranks::default();
            cards.add(r, 4);
            take(&mut h, &mut out, Kind::Bomb, r, 1, cards);
        }
    }
    if !ddz_rules && h.count(ACE) >= 3 {
        let mut cards = Ranks::default();
        cards.add(ACE, 3);
        take(&mut h, &mut out, Kind::AceBomb, ACE, 1, cards);
    }
    let mut run_kinds: Vec<(Kind, u8, u8)> = Vec::new();
    if ddz_rules {
        run_kinds.push((Kind::Airplane, 3, 2));
    }
    run_kinds.push((Kind::Straight, 1, 5));
    run_kinds.push((Kind::PairRun, 2, if ddz_rules { 3 } else { 2 }));
    for (kind, width, min_len) in run_kinds {
        while let Some((top, len)) = longest_run(&h, width, min_len) {
            let cards = super::run_cards(top, len, width);
            take(&mut h, &mut out, kind, top, len, cards);
        }
    }
    for width in [3u8, 2, 1] {
        for r in 0..NUM_RANKS as u8 {
            if h.count(r) == width {
                let kind = [Kind::Single, Kind::Pair, Kind::Triple][width as usize - 1];
                let mut cards = Ranks::default();
                cards.add(r, width);
                take(&mut h, &mut out, kind, r, 1, cards);
            }
        }
    }
    if ddz_rules {
        attach_wings(&mut out);
    }
    out
}

/// Give each Dou Dizhu triple or airplane the lowest spare singles (else pairs)
/// below the two as attachments, one per triple.
fn attach_wings(plan: &mut Vec<Combination>) {
    let carriers: Vec<usize> = (0..plan.len())
        .filter(|&i| matches!(plan[i].kind, Kind::Triple | Kind::Airplane))
        .collect();
    for i in carriers {
        let need = plan[i].length as usize;
        for (width, kind) in [(1u8, Kind::Single), (2, Kind::Pair)] {
            let spare: Vec<usize> = (0..plan.len())
                .filter(|&j| plan[j].kind == kind && plan[j].main < TWO)
                .collect();
            if spare.len() >= need {
                let mut cards = plan[i].cards;
                for &j in &spare[..need] {
                    cards = cards.plus(&plan[j].cards);
                }
                let core = plan[i];
                let new_kind = match (core.kind, width) {
                    (Kind::Triple, 1) => Kind::TripleSingle,
                    (Kind::Triple, _) => Kind::TriplePair,
                    (_, 1) => Kind::AirplaneSingles,
                    _ => Kind::AirplanePairs,
                };
                plan[i] = Combination::new(new_kind, core.main, core.length, cards);
                let mut k = 0;
                plan.retain(|_| {
                    k += 1;
                    !spare[..need].contains(&(k - 1))
                });
                break;
            }
        }
    }
}

/// How costly a hand is to play out: two per group of [`plan`] (after attachments),
/// nothing for bombs, the rocket and single twos or jokers, plus one for any cards
/// at all. Counted without building the plan, since the policies call it per move
/// (for every response the rule policy weighs: most of a playout's time).
fn cost(hand: &Ranks, game: Game) -> i32 {
    if hand.is_empty() {
        return 0;
    }
    let ddz_rules = is_ddz(game);
    let mut h = *hand;
    if ddz_rules && h.count(BLACK_JOKER) > 0 && h.count(RED_JOKER) > 0 {
        h.0[BLACK_JOKER as usize] = 0;
        h.0[RED_JOKER as usize] = 0;
    }
    for r in 0..=TWO as usize {
        if h.0[r] >= 4 {
            h.0[r] -= 4;
        }
    }
    if !ddz_rules && h.count(ACE) >= 3 {
        h.0[ACE as usize] -= 3;
    }
    // A real hand holds at most three of a rank once its bombs are set aside, so its
    // counts fit three bit masks; a hand-built one may hold more.
    let groups = if h.0.iter().all(|&n| n <= 3) {
        groups_by_masks(&h, ddz_rules)
    } else {
        groups_by_counts(h, ddz_rules)
    };
    groups.cost(ddz_rules)
}

/// The run kinds of [`plan`] in its order, as (copies per rank, least length).
fn run_kinds(ddz_rules: bool) -> &'static [(u8, u8)] {
    if ddz_rules {
        &[(3, 2), (1, 5), (2, 3)]
    } else {
        &[(1, 5), (2, 2)]
    }
}

/// What [`cost`] counts of a hand without bombs: its groups other than spare low
/// singles and pairs, the triples and airplanes (their lengths, in plan order) that
/// can carry those as attachments, and the spare low singles and pairs.
#[derive(Debug, Default, PartialEq, Eq)]
struct Groups {
    groups: i32,
    carriers: [u8; 8],
    n_carriers: usize,
    low_singles: u8,
    low_pairs: u8,
}

impl Groups {
    /// A triple (`len` 1) or an airplane of `len` triples: one group that carries.
    fn add_carrier(&mut self, len: u8) {
        self.groups += 1;
        if self.n_carriers < self.carriers.len() {
            self.carriers[self.n_carriers] = len;
            self.n_carriers += 1;
        }
    }

    /// Two per group plus one, after the carriers take the spare low singles or
    /// pairs as attachments.
    fn cost(&self, ddz_rules: bool) -> i32 {
        let (mut low_singles, mut low_pairs) = (self.low_singles, self.low_pairs);
        if ddz_rules {
            for &need in &self.carriers[..self.n_carriers] {
                if low_singles >= need {
                    low_singles -= need;
                } else if low_pairs >= need {
                    low_pairs -= need;
                }
            }
        }
        2 * (self.groups + i32::from(low_singles) + i32::from(low_pairs)) + 1
    }
}

/// [`Groups`] of a hand without bombs whose counts are at most three, on bit masks
/// of the ranks held at least once, twice and three times: the same groups as
/// [`groups_by_counts`] in a fraction of the time.
fn groups_by_masks(h: &Ranks, ddz_rules: bool) -> Groups {
    // at_least[k]: the ranks held more than k times.
    let mut at_least = [0u32; 3];
    for (r, &n) in h.0.iter().enumerate() {
        for (k, mask) in at_least.iter_mut().enumerate() {
            *mask |= u32::from(n as usize > k) << r;
        }
    }
    const RUN_RANKS: u32 = (1 << (ACE + 1)) - 1;
    const BELOW_TWO: u32 = (1 << TWO) - 1;
    let mut g = Groups::default();
    for &(width, min_len) in run_kinds(ddz_rules) {
        loop {
            // starts: the ranks that begin a run of `len` ranks held `width` times.
            let mut starts = at_least[usize::from(width) - 1] & RUN_RANKS;
            let mut len = 0u8;
            let mut longest = 0u32;
            while starts != 0 {
                len += 1;
                longest = starts;
                starts &= starts >> 1;
            }
            if len < min_len {
                break;
            }
            // The lowest of the longest runs, as [`longest_run`] picks it.
            let run = ((1u32 << len) - 1) << longest.trailing_zeros();
            // Take `width` copies of each rank of the run: a rank held k times is
            // then held k - width times.
            for k in 0..3 {
                let moved = at_least.get(k + usize::from(width)).map_or(0, |m| m & run);
                at_least[k] = (at_least[k] & !run) | moved;
            }
            if width == 3 {
                g.add_carrier(len);
            } else {
                g.groups += 1;
            }
        }
    }
    let triples = at_least[2];
    let pairs = at_least[1] & !at_least[2];
    let singles = at_least[0] & !at_least[1];
    for _ in 0..triples.count_ones() {
        g.add_carrier(1);
    }
    g.groups += (pairs & !BELOW_TWO).count_ones() as i32;
    g.low_pairs = (pairs & BELOW_TWO).count_ones() as u8;
    g.low_singles = (singles & BELOW_TWO).count_ones() as u8;
    g
}

/// [`Groups`] of a hand without bombs, rank by rank: any counts.
fn groups_by_counts(mut h: Ranks, ddz_rules: bool) -> Groups {
    let mut g = Groups::default();
    for &(width, min_len) in run_kinds(ddz_rules) {
        while let Some((top, len)) = longest_run(&h, width, min_len) {
            for r in (top + 1 - len)..=top {
                h.0[r as usize] -= width;
            }
            if width == 3 {
                g.add_carrier(len);
            } else {
                g.groups += 1;
            }
        }
    }
    for r in 0..NUM_RANKS as u8 {
        match h.count(r) {
            3 => g.add_carrier(1),
            2 if r < TWO => g.low_pairs += 1,
            2 => g.groups += 1,
            1 if r < TWO => g.low_singles += 1,
            _ => {}
        }
    }
    g
}

fn fewest_cards_among_opponents(deal: &Deal, seat: u8) -> usize {
    (0..3u8)
        .filter(|&s| !deal.partners(s, seat))
        .map(|s| deal.hands[s as usize].len())
        .min()
        .unwrap_or(usize::MAX)
}

/// The rule-based policy: plan the hand, lead the lowest planned group (longest
/// first among equals), answer with the cheapest response that keeps the plan,
/// keep bombs for when an opponent is close to going out or they finish the hand,
/// and never beat a partner (Dou Dizhu farmers) unless that goes out.
pub fn rule_move(deal: &Deal) -> Move {
    planned_move(deal, Style::Rule)
}

/// The shedding policy, [`rule_move`] tuned for Zheng Shangyou playouts: a lead
/// weighs each card of a planned group as three ranks lower, so that long groups
/// (pairs, triples, runs) go out before low singles, and an answer does not hold
/// back a bomb when it keeps the plan as cheap. A Zheng Shangyou seat playing it
/// against two rule seats gains some +1.7 per deal over the rule policy (seats
/// rotated, paired deals); as the search's playout policy it makes the search
/// stronger (docs/zhengshangyou.md). A Dou Dizhu seat gains nothing by it against
/// rule seats, but as the playout policy of the Dou Dizhu search it helps there too
/// (docs/doudizhu.md).
pub fn shedding_move(deal: &Deal) -> Move {
    planned_move(deal, Style::Shedding)
}

/// What sets [`shedding_move`] apart from [`rule_move`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    Rule,
    Shedding,
}

impl Style {
    /// Ranks a lead's every card counts for against its main rank.
    fn card_weight(self) -> i32 {
        match self {
            Style::Rule => 0,
            Style::Shedding => 3,
        }
    }

    /// What playing a bomb adds to an answer's score: the rule policy answers
    /// with a bomb only when nothing else beats or it is worth it; the shedding
    /// policy weighs a bomb like any answer (a Zheng Shangyou bomb answer earns a
    /// bonus, and one held to the end costs ten).
    fn bomb_surcharge(self) -> i32 {
        match self {
            Style::Rule => 60,
            Style::Shedding => 0,
        }
    }
}

fn planned_move(deal: &Deal, style: Style) -> Move {
    let seat = deal.to_move;
    let hand = deal.hands[seat as usize];
    let danger = fewest_cards_among_opponents(deal, seat);
    match deal.table {
        None => {
            // Going out at once wins outright.
            let whole = match deal.game {
                Game::DouDizhu { .. } => ddz::classify(&hand),
                Game::ZhengShangyou => zsy::classify(&hand, deal.opening),
            };
            if let Some(c) = whole.first() {
                return Some(*c);
            }
            let groups = plan(&hand, deal.game);
            let ordinary: Vec<&Combination> = groups.iter().filter(|c| !c.kind.is_bomb()).collect();
            let pick = if ordinary.is_empty() {
                groups.iter().min_by_key(|c| (c.main, c.kind)).copied()
            } else if danger == 1 && ordinary.iter().all(|c| c.kind == Kind::Single) {
                // An opponent on one card: lead singles from the top.
                ordinary.iter().max_by_key(|c| c.main).map(|c| **c)
            } else {
                let weight = style.card_weight();
                ordinary
                    .iter()
                    .filter(|c| !(danger == 1 && c.kind == Kind::Single))
                    .min_by_key(|c| {
                        let shed = weight * c.cards.len() as i32;
                        (i32::from(c.main) - shed, std::cmp::Reverse(c.cards.len()))
                    })
                    .map(|c| **c)
            };
            // Planned groups are legal shapes, but the opening play of Zheng Shangyou
            // must hold a three: then fall back to the cheapest legal lead.
            match pick {
                Some(c) if !deal.opening || c.cards.count(THREE) > 0 => Some(c),
                _ => cheapest(&deal.legal(), &hand, deal.game),
            }
        }
        Some(table) => {
            let plays = deal.plays();
            if plays.is_empty() {
                return None;
            }
            if let Some(finish) = plays.iter().find(|c| c.cards == hand) {
                return Some(*finish);
            }
            let partner_leads = deal.partners(deal.table_owner, seat);
            let must = deal.game == Game::ZhengShangyou;
            if partner_leads && !must {
                return None;
            }
            let base = cost(&hand, deal.game);
            // (score, play, the hand's cost after it)
            let mut best: Option<(i32, Combination, i32)> = None;
            for c in &plays {
                let after = cost(&hand.minus(&c.cards), deal.game);
                let mut score = after * 4 + i32::from(c.main);
                if c.kind.is_bomb() {
                    score += style.bomb_surcharge();
                }
                if best.is_none_or(|(s, _, _)| score < s) {
                    best = Some((score, *c, after));
                }
            }
            let (_, choice, after) = best?;
            if must {
                return Some(choice);
            }
            let urgent = danger <= 2 || danger <= table.cards.len();
            let worth = if choice.kind.is_bomb() {
                urgent || after <= 2
            } else {
                after <= base || urgent || table.main < ACE.min(choice.main)
            };
            if worth {
                Some(choice)
            } else {
                None
            }
        }
    }
}

fn cheapest(legal: &[Move], hand: &Ranks, game: Game) -> Move {
    legal
        .iter()
        .flatten()
        .min_by_key(|c| {
            (
                cost(&hand.minus(&c.cards), game) + 8 * i32::from(c.kind.is_bomb()),
                c.main,
            )
        })
        .copied()
}

/// Which policy a playout uses for every seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Policy {
    /// Uniform among all legal moves.
    Random,
    /// [`rule_move`], with a random legal move one time in `epsilon_inverse`
    /// (0 never) so that search sees more than one line.
    Rule { epsilon_inverse: u32 },
    /// [`shedding_move`], with a random legal move one time in `epsilon_inverse`.
    Shedding { epsilon_inverse: u32 },
}

/// Play `deal` to the end with `policy` for every seat.
pub fn playout(deal: &mut Deal, policy: Policy, rng: &mut CardRng) {
    while !deal.is_over() {
        deal.apply(policy_move(deal, policy, rng));
    }
}

/// The move `policy` makes for the seat to act.
fn policy_move(deal: &Deal, policy: Policy, rng: &mut CardRng) -> Move {
    match policy {
        Policy::Random => random_move(deal, rng),
        Policy::Rule { epsilon_inverse } | Policy::Shedding { epsilon_inverse }
            if epsilon_inverse > 0 && rng.below(u64::from(epsilon_inverse)) == 0 =>
        {
            random_move(deal, rng)
        }
        Policy::Rule { .. } => rule_move(deal),
        Policy::Shedding { .. } => shedding_move(deal),
    }
}

fn random_move(deal: &Deal, rng: &mut CardRng) -> Move {
    let plays = deal.plays();
    // Dou Dizhu followers may always pass; Zheng Shangyou only when nothing beats.
    let pass = deal.table.is_some() && (plays.is_empty() || is_ddz(deal.game));
    let n = plays.len() + usize::from(pass);
    if n == 0 {
        return None;
    }
    plays.get(rng.below(n as u64) as usize).copied()
}

/// Deal the `unknown` ranks at random to every seat but `seat`, each getting as
/// many cards as it holds in `deal`; `pinned[s]` (cards known to be in seat `s`'s
/// hand, such as the landlord's revealed bottom cards) go to that seat first.
pub fn determinize(
    deal: &Deal,
    seat: u8,
    unknown: &Ranks,
    pinned: &[Ranks; 3],
    rng: &mut CardRng,
) -> Deal {
    let mut rest = *unknown;
    let mut start = [Ranks::default(); 3];
    for s in 0..3usize {
        if s != seat as usize {
            // Only cards that really are unknown, and no more than the seat holds.
            let mut p = Ranks::default();
            let mut room = deal.hands[s].len();
            for r in 0..NUM_RANKS {
                let k = pinned[s].0[r].min(rest.0[r]).min(room as u8);
                p.0[r] = k;
                rest.0[r] -= k;
                room -= k as usize;
            }
            start[s] = p;
        }
    }
    let mut pool: Vec<u8> = Vec::with_capacity(rest.len());
    for (r, &n) in rest.0.iter().enumerate() {
        pool.extend(std::iter::repeat_n(r as u8, n as usize));
    }
    rng.shuffle(&mut pool);
    let mut out = deal.clone();
    let mut next = 0usize;
    for s in 0..3u8 {
        if s == seat {
            continue;
        }
        let mut h = start[s as usize];
        let need = deal.hands[s as usize].len().saturating_sub(h.len());
        for &r in pool.iter().skip(next).take(need) {
            h.0[r as usize] += 1;
        }
        next += need;
        out.hands[s as usize] = h;
    }
    out
}

/// The candidate moves a search weighs: every response (and pass), or for a lead
/// the rule move, the planned groups, and the lowest lead of each type and length.
fn candidates(deal: &Deal) -> Vec<Move> {
    let legal = deal.legal();
    if deal.table.is_some() || legal.len() <= 24 {
        return legal;
    }
    let mut out: Vec<Move> = vec![rule_move(deal)];
    let hand = deal.hands[deal.to_move as usize];
    for c in plan(&hand, deal.game) {
        if legal.contains(&Some(c)) && !out.contains(&Some(c)) {
            out.push(Some(c));
        }
    }
    for c in legal.iter().flatten() {
        let seen = out
            .iter()
            .flatten()
            .any(|o| o.kind == c.kind && o.length == c.length);
        if !seen {
            out.push(Some(*c));
        }
    }
    out
}

/// The playout policy of [`search_move`]: the rule policy, a random move one time in 32.
pub const SEARCH_PLAYOUT: Policy = Policy::Rule {
    epsilon_inverse: 32,
};

/// The shedding playouts of [`search_move`] (both games' `shedding` search):
/// the shedding policy, a random move one time in 32.
pub const SHEDDING_PLAYOUT: Policy = Policy::Shedding {
    epsilon_inverse: 32,
};

/// Determinized Monte Carlo search for the seat to act: for each of `samples`
/// deals of `unknown` to the other seats, play every candidate move and finish with
/// rule playouts; return the move with the best mean score for the seat.
/// `deal.hands` of the other seats only give their card counts. Polls `cancel`
/// before every playout (hand-built hands can have thousands of candidates).
///
/// With `halving`, the same number of playouts (`samples` per candidate, see
/// [`search_playouts`]) is spent by successive halving instead: in each of
/// ceil(log2(candidates)) rounds (at most `samples`) every candidate still in the race is played on
/// the round's fresh worlds, then the worse half drops out. The moves that matter
/// get several times the worlds a uniform split gives them, which is what more
/// samples buy, at the same cost. Every candidate still in the race has been
/// played on the same worlds, so their totals compare like for like.
///
/// With `evidence` (the card play so far), each world is dealt to fit the other
/// seats' passes ([`Evidence::sample`]) instead of uniformly.
///
/// `policy` plays every seat of the playouts: [`SEARCH_PLAYOUT`], or
/// [`SHEDDING_PLAYOUT`] (the stronger playouts of both games' searches).
///
/// With `endgame` on and at most `endgame.cards` cards left in the deal, each
/// candidate in each sampled world is solved exactly instead
/// ([`super::endgame::Solver`]): the value of best play in that world, or a rule
/// playout when the solve exceeds its node budget. One solver serves the whole
/// search, so worlds share its table. (Solving inside playouts from earlier
/// positions costs a solve per playout, far more than the search's time per move.)
#[allow(clippy::too_many_arguments)]
pub fn search_move(
    deal: &Deal,
    unknown: &Ranks,
    pinned: &[Ranks; 3],
    samples: u32,
    endgame: Endgame,
    halving: bool,
    evidence: Option<&Evidence>,
    policy: Policy,
    rng: &mut CardRng,
    cancel: &Cancel,
) -> Result<Move> {
    let seat = deal.to_move;
    let moves = candidates(deal);
    if moves.len() <= 1 {
        return Ok(moves.into_iter().next().flatten());
    }
    let mut solver = Solver::new(seat);
    let mut totals = vec![0i64; moves.len()];
    let mut alive: Vec<usize> = (0..moves.len()).collect();
    let schedule = Schedule::new(moves.len(), samples, halving);
    for round in 0..schedule.rounds {
        for _ in 0..schedule.worlds(alive.len()) {
            let world = match evidence {
                Some(e) => e.sample(deal, seat, unknown, pinned, rng),
                None => determinize(deal, seat, unknown, pinned, rng),
            };
            for &i in &alive {
                cancel.check()?;
                let mut trial = world.clone();
                trial.apply(moves[i]);
                let score = finish(&mut trial, seat, endgame, &mut solver, policy, rng, cancel)?;
                totals[i] += i64::from(score);
            }
        }
        if round + 1 < schedule.rounds {
            // The better half stays (ties to the earlier candidate, as in the final
            // pick), in candidate order so the next round plays them as listed.
            alive.sort_by_key(|&i| (std::cmp::Reverse(totals[i]), i));
            alive.truncate(alive.len().div_ceil(2));
            alive.sort_unstable();
        }
    }
    let best = alive
        .iter()
        .copied()
        .max_by_key(|&i| (totals[i], std::cmp::Reverse(i)));
    Ok(best.and_then(|i| moves[i]))
}

/// How [`search_move`] spends its playouts over `candidates` moves: one round of
/// `samples` worlds each, or successive halving of the same total.
struct Schedule {
    rounds: u32,
    samples: u64,
    budget: u64,
    halving: bool,
}

impl Schedule {
    fn new(candidates: usize, samples: u32, halving: bool) -> Schedule {
        let samples = u64::from(samples.max(1));
        // No more rounds than samples, so that every round's share is at least one
        // world a candidate and the total stays within the uniform budget.
        let rounds = if halving && candidates > 1 {
            ((candidates - 1).ilog2() + 1).min(samples as u32)
        } else {
            1
        };
        Schedule {
            rounds,
            samples,
            budget: samples.saturating_mul(candidates as u64),
            halving,
        }
    }

    /// Fresh worlds a round plays for each of its `alive` candidates: an equal share
    /// of the budget per round (at least one world).
    fn worlds(&self, alive: usize) -> u64 {
        if self.halving {
            (self.budget / (alive as u64 * u64::from(self.rounds))).max(1)
        } else {
            self.samples
        }
    }

    /// Every playout of the schedule: `samples` per candidate, or at most that with
    /// halving.
    fn playouts(&self, candidates: usize) -> u64 {
        let mut alive = candidates;
        let mut total = 0u64;
        for _ in 0..self.rounds {
            total = total.saturating_add(self.worlds(alive).saturating_mul(alive as u64));
            alive = alive.div_ceil(2);
        }
        total
    }
}

/// `seat`'s score at the end of `trial`: its exact value when `trial` is within
/// `endgame.cards` cards left and the solver finds it within its budget, else the
/// end of a `policy` playout.
fn finish(
    trial: &mut Deal,
    seat: u8,
    endgame: Endgame,
    solver: &mut Solver,
    policy: Policy,
    rng: &mut CardRng,
    cancel: &Cancel,
) -> Result<i32> {
    if !trial.is_over() && cards_left(trial) <= endgame.cards {
        if let Some(value) = solver.solve(trial, endgame.nodes, cancel)? {
            return Ok(value);
        }
    }
    playout(trial, policy, rng);
    Ok(trial.scores()[usize::from(seat)])
}

/// How many playouts [`search_move`] runs for `samples`: one per sample and
/// candidate (about that with `halving`), none when there is at most one candidate
/// (for callers that budget it).
pub fn search_playouts(deal: &Deal, samples: u32, halving: bool) -> u64 {
    match candidates(deal).len() {
        0 | 1 => 0,
        n => Schedule::new(n, samples, halving).playouts(n),
    }
}

/// Play `games` fresh [`random_deal`]s to the end with `policy` for every seat and
/// count each seat's wins (for benches: nothing is kept per game, so any count
/// runs in constant memory). Polls `cancel` once per game.
pub fn random_playouts(
    game_is_ddz: bool,
    games: u64,
    seed: u64,
    policy: Policy,
    cancel: &Cancel,
) -> Result<[u64; 3]> {
    let mut rng = CardRng::new(seed);
    let mut wins = [0u64; 3];
    for _ in 0..games {
        cancel.check()?;
        let mut deal = random_deal(game_is_ddz, &mut rng);
        playout(&mut deal, policy, &mut rng);
        if let Some(w) = deal.winner {
            wins[usize::from(w)] += 1;
        }
    }
    Ok(wins)
}

/// What [`landlord_playouts`] found for one Dou Dizhu hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LandlordEstimate {
    /// Deals the landlord won.
    pub wins: u32,
    /// The landlord's total score over those deals at bid 1 (multipliers included).
    pub score: i64,
}

/// Cards in a Dou Dizhu hand while the bidding goes on (DDZ-06).
pub const DDZ_BIDDING_HAND: usize = 17;

/// The bidding estimate of a 17-card Dou Dizhu `hand` as landlord: `samples` times,
/// deal the 37 cards it cannot see at random into the two other hands and the
/// three bottom cards, give the hand the bottom cards, and play the deal out with
/// the rule policy for every seat, the landlord leading (DDZ-10). Polls `cancel`
/// once per deal; memory does not grow with `samples`.
pub fn landlord_playouts(
    hand: &Ranks,
    samples: u32,
    rng: &mut CardRng,
    cancel: &Cancel,
) -> Result<LandlordEstimate> {
    let full = pack(true);
    if hand.len() != DDZ_BIDDING_HAND || !full.contains(hand) {
        let why = if hand.len() == DDZ_BIDDING_HAND {
            "more of a rank than the pack holds".to_string()
        } else {
            format!("{} cards", hand.len())
        };
        return Err(crate::error::EngineError::InvalidCard(format!(
            "hand must be {DDZ_BIDDING_HAND} cards of one Dou Dizhu pack, got {why}"
        )));
    }
    let rest = full.minus(hand);
    let mut pool: Vec<u8> = Vec::with_capacity(rest.len());
    for (r, &n) in rest.0.iter().enumerate() {
        pool.extend(std::iter::repeat_n(r as u8, usize::from(n)));
    }
    let policy = Policy::Rule { epsilon_inverse: 0 };
    let mut out = LandlordEstimate::default();
    for _ in 0..samples {
        cancel.check()?;
        rng.shuffle(&mut pool);
        let mut hands = [*hand, Ranks::default(), Ranks::default()];
        // The first 17 shuffled cards to seat 1, the next 17 to seat 2, the last
        // three are the bottom cards the landlord (seat 0) takes.
        for (i, &r) in pool.iter().enumerate() {
            let seat = if i < 34 { 1 + i / DDZ_BIDDING_HAND } else { 0 };
            hands[seat].0[usize::from(r)] += 1;
        }
        let mut deal = Deal::new(
            Game::DouDizhu {
                landlord: 0,
                bid: 1,
            },
            hands,
            0,
        );
        playout(&mut deal, policy, rng);
        out.wins += u32::from(deal.winner == Some(0));
        out.score += i64::from(deal.scores()[0]);
    }
    Ok(out)
}

/// The climbing rank of every card of a game's pack, weakest first: read from its
/// named deck (`crate::deck`, the one place the packs are written out).
fn pack_ranks(game_is_ddz: bool) -> Vec<u8> {
    let name = if game_is_ddz {
        "french54"
    } else {
        "zhengshangyou48"
    };
    // Both names are in `DECK_NAMES`; the tests pin each pack's rank counts.
    let cards = crate::deck::deck(name).unwrap_or_default();
    let mut ranks: Vec<u8> = cards.into_iter().map(super::climbing_rank).collect();
    ranks.sort_unstable();
    ranks
}

/// The rank counts of a game's whole pack (counted once: every observation
/// tensor's unseen-cards plane starts from it).
pub fn pack(game_is_ddz: bool) -> Ranks {
    static PACKS: OnceLock<[Ranks; 2]> = OnceLock::new();
    let packs = PACKS.get_or_init(|| {
        [false, true].map(|ddz| {
            let mut out = Ranks::default();
            for r in pack_ranks(ddz) {
                out.0[r as usize] += 1;
            }
            out
        })
    });
    packs[usize::from(game_is_ddz)]
}

/// A fresh random Dou Dizhu card play (bidding skipped: a random landlord bids 1)
/// or Zheng Shangyou deal, dealt from `rng`; used by benches and tests.
pub fn random_deal(game_is_ddz: bool, rng: &mut CardRng) -> Deal {
    let mut pack = pack_ranks(game_is_ddz);
    rng.shuffle(&mut pack);
    let mut hands = [Ranks::default(); 3];
    let per = if game_is_ddz { 17 } else { 16 };
    for (i, &r) in pack.iter().enumerate().take(3 * per) {
        hands[i / per].0[r as usize] += 1;
    }
    if game_is_ddz {
        let landlord = rng.below(3) as u8;
        for &r in &pack[3 * per..] {
            hands[landlord as usize].0[r as usize] += 1;
        }
        Deal::new(Game::DouDizhu { landlord, bid: 1 }, hands, landlord)
    } else {
        // Without suits, the leader is a holder of a three: the lowest such seat.
        let leader = (0..3u8)
            .find(|&s| hands[s as usize].count(THREE) > 0)
            .unwrap_or(0);
        Deal::new(Game::ZhengShangyou, hands, leader)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;

    fn r(s: &str) -> Ranks {
        Ranks::parse(s).unwrap()
    }

    #[test]
    fn packs_come_from_the_named_decks() {
        let counts = |ranks: Vec<u8>| {
            let mut out = Ranks::default();
            for rank in ranks {
                out.add(rank, 1);
            }
            out
        };
        // DDZ-06: 54 cards, both jokers included.
        let ddz = pack_ranks(true);
        assert!(ddz.windows(2).all(|w| w[0] <= w[1]));
        let full = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR";
        assert_eq!(counts(ddz), r(full));
        // ZSY-06: no jokers, three aces (no heart ace) and the spade two alone.
        let zsy = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAA2";
        assert_eq!(counts(pack_ranks(false)), r(zsy));
    }

    #[test]
    fn random_playouts_end_zero_sum_and_conserve_cards() {
        let mut rng = CardRng::new(7);
        for i in 0..300 {
            let ddz_game = i % 2 == 0;
            let mut deal = random_deal(ddz_game, &mut rng);
            let total: usize = deal.hands.iter().map(|h| h.len()).sum();
            let policy = if i % 4 < 2 {
                Policy::Random
            } else {
                Policy::Rule { epsilon_inverse: 0 }
            };
            playout(&mut deal, policy, &mut rng);
            let winner = deal.winner.unwrap();
            // DDZ-35, ZSY-04: the deal ends when a hand is empty.
            assert!(deal.hands[winner as usize].is_empty());
            assert!(deal.hands.iter().map(|h| h.len()).sum::<usize>() < total);
            // DDZ-42, ZSY-32: zero-sum.
            assert_eq!(deal.scores().iter().sum::<i32>(), 0, "{deal:?}");
        }
    }

    #[test]
    fn landlord_playouts_rate_strong_hands_above_weak_ones() {
        let estimate = |text: &str, seed: u64| {
            landlord_playouts(&r(text), 400, &mut CardRng::new(seed), &NEVER).unwrap()
        };
        let strong = estimate("BR22223333AAAKKKQ", 1);
        let weak = estimate("34567899TJ4568TQK", 1);
        assert!(strong.wins > 300 && strong.score > 0, "{strong:?}");
        assert!(weak.wins < 100 && weak.score < 0, "{weak:?}");
        // Seeded: the same seed gives the same estimate.
        assert_eq!(estimate("BR22223333AAAKKKQ", 1), strong);
        // No samples: nothing played.
        let none = landlord_playouts(&r("BR22223333AAAKKKQ"), 0, &mut CardRng::new(1), &NEVER);
        assert_eq!(none.unwrap(), LandlordEstimate::default());
    }

    #[test]
    fn landlord_playouts_need_a_bidding_hand() {
        let mut rng = CardRng::new(1);
        for bad in ["3456", "33333456789TJQKA2", "BBR3456789TJQKA22"] {
            let err = landlord_playouts(&r(bad), 10, &mut rng, &NEVER).unwrap_err();
            assert!(
                matches!(err, crate::error::EngineError::InvalidCard(_)),
                "{bad}"
            );
        }
    }

    #[test]
    fn ddz_spring_and_reverse_spring() {
        // DDZ-36..41: bid x multiplier, landlord twice; spring doubles.
        let hands = [r("3333"), r("45"), r("67")];
        let game = Game::DouDizhu {
            landlord: 0,
            bid: 3,
        };
        let mut deal = Deal::new(game, hands, 0);
        deal.apply(Some(ddz::classify(&r("3333"))[0]));
        assert_eq!(deal.winner, Some(0));
        // One bomb (x2) and spring (x2): 3 x 4 = 12 for each farmer.
        assert_eq!(deal.scores(), [24, -12, -12]);
        // DDZ-38: reverse spring: the landlord played once, a farmer went out.
        let mut deal = Deal::new(game, [r("34"), r("5"), r("6")], 0);
        deal.apply(Some(ddz::classify(&r("3"))[0]));
        deal.apply(Some(ddz::classify(&r("5"))[0]));
        assert_eq!(deal.winner, Some(1));
        assert_eq!(deal.scores(), [-12, 6, 6]);
    }

    #[test]
    fn zsy_penalties_and_bomb_bonus() {
        // ZSY-24..27: cards, never played x2, the two, bombs; paid to the winner.
        assert_eq!(zsy_penalty(&r("45"), false), 2);
        assert_eq!(zsy_penalty(&r("45"), true), 4);
        assert_eq!(zsy_penalty(&r("2"), false), 11);
        assert_eq!(zsy_penalty(&r("7777AAA"), false), 7 + 20);
        // ZSY-28, ZSY-29, ZSY-31: a finishing response bomb settles at once.
        let mut deal = Deal::new(Game::ZhengShangyou, [r("34"), r("5555"), r("46")], 0);
        deal.apply(Some(zsy::classify(&r("3"), true)[0]));
        let bomb = zsy::classify(&r("5555"), false)[0];
        // ZSY-13: the single five or the bomb; a pass is not allowed.
        assert_eq!(deal.legal().len(), 2);
        assert!(deal.legal().contains(&Some(bomb)));
        deal.apply(Some(bomb));
        assert_eq!(deal.winner, Some(1));
        // Seat 0 played once and holds one card; seat 2 never played and holds two.
        assert_eq!(deal.scores(), [-10 - 1, 20 + 1 + 4, -10 - 4]);
    }

    /// A Zheng Shangyou deal past the opening play, `seat` to act on `table`.
    fn zsy_position(hands: [&str; 3], seat: u8, table: Option<&str>) -> Deal {
        let mut deal = Deal::new(Game::ZhengShangyou, hands.map(r), seat);
        deal.opening = false;
        deal.plays = [1; 3];
        if let Some(t) = table {
            deal.table = Some(zsy::classify(&r(t), false)[0]);
            deal.table_owner = (seat + 2) % 3;
        }
        deal
    }

    fn play_of(text: &str) -> Move {
        Some(zsy::classify(&r(text), false)[0])
    }

    #[test]
    fn shedding_leads_long_groups_before_low_singles() {
        // Planned: the pair run 5566, singles 3 and K. The rule policy leads the
        // lowest group, the three; the shedding policy the pair run, four cards
        // whose weight outranks its main rank.
        let deal = zsy_position(["35566K", "789TJQ", "789TJQ"], 0, None);
        assert_eq!(rule_move(&deal), play_of("3"));
        assert_eq!(shedding_move(&deal), play_of("5566"));
        // Among groups of one size the lowest still goes first.
        let deal = zsy_position(["3366KK", "789TJQ", "789TJQ"], 0, None);
        assert_eq!(shedding_move(&deal), play_of("33"));
    }

    #[test]
    fn shedding_answers_with_a_bomb_that_keeps_the_plan() {
        // On a single jack the queen or king breaks the straight 9TJQK; the bomb
        // keeps it. ZSY-13: the seat must beat, so the rule policy breaks the run
        // rather than spend the bomb, and the shedding policy bombs.
        let deal = zsy_position(["9TJQK5555", "3478TQ", "3478TQ"], 0, Some("J"));
        assert_eq!(rule_move(&deal), play_of("Q"));
        assert_eq!(shedding_move(&deal), play_of("5555"));
    }

    #[test]
    fn shedding_beats_the_rule_policy() {
        // One seat plays the shedding policy against two rule seats, each seat in
        // turn, against the same deal played by three rule seats: the paired gap
        // per deal (about +1.7 over 100,000 deals while tuning).
        let mut rng = CardRng::new(1);
        let (mut gap, mut n) = (0i64, 0i64);
        for _ in 0..3_000 {
            let deal = random_deal(false, &mut rng);
            let finish = |shedding: Option<u8>| {
                let mut d = deal.clone();
                while !d.is_over() {
                    let mv = if shedding == Some(d.to_move) {
                        shedding_move(&d)
                    } else {
                        rule_move(&d)
                    };
                    d.apply(mv);
                }
                d.scores()
            };
            let base = finish(None);
            for seat in 0..3u8 {
                let s = usize::from(seat);
                gap += i64::from(finish(Some(seat))[s] - base[s]);
                n += 1;
            }
        }
        assert!(gap > n, "mean gap {} per deal", gap as f64 / n as f64);
    }

    #[test]
    fn shedding_playouts_end_zero_sum() {
        let mut rng = CardRng::new(9);
        for i in 0..400 {
            let mut deal = random_deal(i % 2 == 0, &mut rng);
            playout(&mut deal, SHEDDING_PLAYOUT, &mut rng);
            assert!(deal.is_over());
            assert_eq!(deal.scores().iter().sum::<i32>(), 0, "{deal:?}");
        }
    }

    /// The plan-based cost that `cost` counts without building the plan.
    fn cost_from_plan(hand: &Ranks, game: Game) -> i32 {
        let groups: i32 = plan(hand, game)
            .iter()
            .map(|c| match c.kind {
                Kind::Single if c.main >= TWO => 0,
                Kind::Bomb | Kind::Rocket | Kind::AceBomb => 0,
                _ => 2,
            })
            .sum();
        groups + i32::from(!hand.is_empty())
    }

    #[test]
    fn cost_counts_the_plan() {
        let mut rng = CardRng::new(5);
        for i in 0..2000 {
            let deal = random_deal(i % 2 == 0, &mut rng);
            for h in &deal.hands {
                assert_eq!(cost(h, deal.game), cost_from_plan(h, deal.game), "{h}");
            }
        }
    }

    #[test]
    fn groups_by_masks_agrees_with_the_count_rank_by_rank() {
        // Any hand of at most three a rank, in both games' rules, including the
        // sparse part-hands playouts reach and runs of every length.
        let mut rng = CardRng::new(11);
        for i in 0..20_000 {
            let mut h = Ranks::default();
            let top = rng.below(4) as u8;
            for r in 0..NUM_RANKS {
                h.0[r] = rng.below(u64::from(top) + 1) as u8;
            }
            let ddz_rules = i % 2 == 0;
            assert_eq!(
                groups_by_masks(&h, ddz_rules),
                groups_by_counts(h, ddz_rules),
                "{h} ddz {ddz_rules}"
            );
        }
    }

    #[test]
    fn cost_of_hand_built_piles_counts_rank_by_rank() {
        // More than a bomb of a rank (only hand-built hands hold that) takes the
        // rank-by-rank count, which still matches the plan.
        let game = Game::DouDizhu {
            landlord: 0,
            bid: 1,
        };
        for pile in ["33333333", "3333344444555556", "777778889"] {
            assert_eq!(
                cost(&r(pile), game),
                cost_from_plan(&r(pile), game),
                "{pile}"
            );
        }
    }

    #[test]
    fn cancelled_search_and_playouts_stop() {
        let cancel = Cancel::new();
        cancel.cancel();
        let mut rng = CardRng::new(3);
        assert_eq!(
            random_playouts(true, u64::MAX, 1, Policy::Random, &cancel),
            Err(crate::EngineError::Cancelled)
        );
        let wins = random_playouts(false, 50, 1, Policy::Random, &NEVER).unwrap();
        assert_eq!(wins.iter().sum::<u64>(), 50);
        let deal = random_deal(true, &mut rng);
        let seat = deal.to_move as usize;
        let unknown = (0..3)
            .filter(|&s| s != seat)
            .fold(Ranks::default(), |u, s| u.plus(&deal.hands[s]));
        let pinned = [Ranks::default(); 3];
        let search = search_move(
            &deal,
            &unknown,
            &pinned,
            u32::MAX,
            Endgame::OFF,
            false,
            None,
            SEARCH_PLAYOUT,
            &mut rng,
            &cancel,
        );
        assert_eq!(search, Err(crate::EngineError::Cancelled));
    }

    #[test]
    fn halving_spends_the_uniform_budget() {
        for candidates in 2..=60usize {
            for samples in [1u32, 2, 4, 8, 32, 100] {
                let uniform = Schedule::new(candidates, samples, false);
                let halving = Schedule::new(candidates, samples, true);
                let budget = u64::from(samples) * candidates as u64;
                assert_eq!(uniform.playouts(candidates), budget);
                let spent = halving.playouts(candidates);
                // Each round rounds its share down by less than one world a candidate.
                assert!(
                    spent <= budget,
                    "{candidates} {samples}: {spent} > {budget}"
                );
                assert!(
                    spent + 2 * candidates as u64 >= budget,
                    "{candidates} {samples}"
                );
            }
            // Two candidates: one round, the uniform split itself.
            assert_eq!(Schedule::new(2, 16, true).rounds, 1);
        }
    }

    #[test]
    fn halving_with_two_candidates_is_the_uniform_search() {
        let mut rng = CardRng::new(5);
        let mut checked = 0;
        while checked < 30 {
            let mut deal = random_deal(true, &mut rng);
            while !deal.is_over() && checked < 30 {
                let seat = deal.to_move as usize;
                let unknown = (0..3)
                    .filter(|&s| s != seat)
                    .fold(Ranks::default(), |u, s| u.plus(&deal.hands[s]));
                let pinned = [Ranks::default(); 3];
                if candidates(&deal).len() == 2 {
                    let mut moves = [None; 2];
                    for (halving, out) in [false, true].into_iter().zip(moves.iter_mut()) {
                        let mut r = CardRng::new(99);
                        *out = search_move(
                            &deal,
                            &unknown,
                            &pinned,
                            8,
                            Endgame::OFF,
                            halving,
                            None,
                            SEARCH_PLAYOUT,
                            &mut r,
                            &NEVER,
                        )
                        .unwrap();
                    }
                    assert_eq!(moves[0], moves[1]);
                    checked += 1;
                }
                let mv = rule_move(&deal);
                deal.apply(mv);
            }
        }
    }

    #[test]
    fn rule_and_search_moves_are_legal() {
        let mut rng = CardRng::new(11);
        for i in 0..20 {
            let mut deal = random_deal(i % 2 == 0, &mut rng);
            // Half the deals search with the endgame solver, from 12 cards left.
            let endgame = if i % 4 < 2 {
                Endgame::OFF
            } else {
                Endgame {
                    cards: 12,
                    nodes: 5_000,
                }
            };
            while !deal.is_over() {
                let legal = deal.legal();
                let rule = rule_move(&deal);
                assert!(legal.contains(&rule));
                let seat = deal.to_move as usize;
                let mut unknown = Ranks::default();
                for s in 0..3 {
                    if s != seat {
                        unknown = unknown.plus(&deal.hands[s]);
                    }
                }
                let mv = if deal.plays.iter().sum::<u16>() < 3 || cards_left(&deal) <= 14 {
                    let pinned = [Ranks::default(); 3];
                    search_move(
                        &deal,
                        &unknown,
                        &pinned,
                        2,
                        endgame,
                        i % 3 == 0,
                        None,
                        if i % 2 == 0 {
                            SEARCH_PLAYOUT
                        } else {
                            SHEDDING_PLAYOUT
                        },
                        &mut rng,
                        &NEVER,
                    )
                    .unwrap()
                } else {
                    rule
                };
                assert!(legal.contains(&mv));
                deal.apply(mv);
            }
        }
    }
}
