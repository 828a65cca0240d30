//! Double-dummy analysis of Contract Bridge deals: the 20-result table (tricks
//! for each declarer in each strain), the tricks each legal card takes from any
//! position (cards already played, a trick in progress), and the par score.
//!
//! The search is `pons-dds`, a pure-Rust port of Bo Haglund and Soren Hein's DDS
//! (alpha-beta on the trick count with a transposition table keyed on the
//! remaining cards up to rank equivalence, quick and later tricks, DDS's move
//! ordering), so `pip install` needs nothing but cargo. This module converts
//! cardkit's card sets, validates input (the solver assumes a consistent deal)
//! and schedules the work on threads of its own: the search recurses deeply
//! enough to overflow the 2 MiB stacks of ordinary worker threads, and owning
//! the threads lets a caller choose their number and stop between units.
//!
//! Conventions shared with the Bridge game: seats N, E, S, W = 0..3, strains
//! clubs, diamonds, hearts, spades, notrump = 0..4, cards as cardkit indices
//! (`rank * 4 + suit`, suits clubs..spades = 0..3).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use contract_bridge::contract::Penalty;
use contract_bridge::deal::{Builder, PartialDeal};
use contract_bridge::hand::{Card as BridgeCard, Hand, Rank};
use contract_bridge::{FullDeal, Seat, Strain, Suit};
use pons_dds::{
    calculate_par, Board, CurrentTrick, FoundPlays, Objective, Solver, Target, TrickCountRow,
    TrickCountTable, Vulnerability,
};

use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::trick::{legal_follows, suit_of};

/// Number of strains: the four suits, then notrump.
pub const NUM_STRAINS: usize = 5;

/// Seat letters in seat order, for messages.
const SEAT_NAMES: [&str; 4] = ["N", "E", "S", "W"];

/// Stack for each solver thread: the search recurses up to 52 plies with large
/// frames and wants several MiB (the value `pons-dds` uses for its own pool).
const SOLVER_STACK: usize = 16 * 1024 * 1024;

/// Solvers kept between calls: each owns a transposition table whose pages
/// cost tens of milliseconds to allocate and fault in, a good part of a table's
/// solve. At most this many are kept (one per thread of a typical machine).
const MAX_POOLED: usize = 8;

static POOL: Mutex<Vec<Solver>> = Mutex::new(Vec::new());

/// The 20 double-dummy results of a deal: `tricks[declarer][strain]` is the
/// number of tricks declarer's side takes with `declarer` (N, E, S, W = 0..3)
/// playing in `strain` (C, D, H, S, NT = 0..4), the left-hand opponent leading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdTable {
    /// Tricks by declarer, then strain.
    pub tricks: [[u8; NUM_STRAINS]; 4],
}

/// A position to solve: the cards left in each hand, the trump strain, the seat
/// that led the current trick and the cards already in it (0..3, in play order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Each seat's remaining cards (the current trick's cards excluded).
    pub hands: [CardSet; 4],
    /// Strain 0..4 (C, D, H, S, NT).
    pub trump: u8,
    /// Seat 0..3 that leads (or led) the current trick.
    pub leader: usize,
    /// Cards already played to the current trick, in play order.
    pub trick: Vec<Card>,
}

impl Position {
    /// The seat to play next.
    pub fn to_act(&self) -> usize {
        (self.leader + self.trick.len()) % 4
    }
}

/// One par contract: the contract, who declares it and how many tricks over
/// (negative: under) the contract it takes double dummy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParContract {
    /// Level 1..7.
    pub level: u8,
    /// Strain 0..4 (C, D, H, S, NT).
    pub strain: u8,
    /// 0 undoubled, 1 doubled (a sacrifice), 2 redoubled.
    pub doubling: u8,
    /// Declaring seat 0..3.
    pub declarer: usize,
    /// Tricks over the contract, negative when it goes down.
    pub overtricks: i8,
}

/// The par result: the score from North-South's side and the contracts that
/// reach it (empty when the deal is passed out at par).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    /// Par score, positive when North-South gain.
    pub score: i32,
    /// The contracts scoring it.
    pub contracts: Vec<ParContract>,
}

fn bad(why: String) -> EngineError {
    EngineError::RuleOption(why)
}

/// The `contract_bridge` hand holding `set` (which holds ranked cards only).
fn to_hand(set: CardSet) -> Hand {
    // cardkit: bit rank * 4 + suit, rank 0 = deuce; contract_bridge: bit
    // suit * 16 + rank with the deuce at 2.
    let bits = set.iter().fold(0u64, |acc, c| {
        let i = u64::from(c.index());
        acc | 1 << ((i & 3) * 16 + (i >> 2) + 2)
    });
    Hand::from_bits_retain(bits)
}

fn to_bridge_card(card: Card) -> BridgeCard {
    let i = card.index();
    BridgeCard {
        suit: Suit::ASC[usize::from(i & 3)],
        rank: Rank::new((i >> 2) + 2),
    }
}

fn from_bridge_card(card: BridgeCard) -> Card {
    Card::from_index_unchecked((card.rank.get() - 2) * 4 + card.suit as u8)
}

fn strain_of(strain: u8) -> Result<Strain> {
    Strain::ASC
        .get(usize::from(strain))
        .copied()
        .ok_or_else(|| bad(format!("strain {strain} is not 0..4 (C, D, H, S, NT)")))
}

/// Check that `hands` are four disjoint hands of one 52-card pack with at most
/// `size` cards each (exactly `size` when `exact`).
fn check_hands(hands: &[CardSet; 4], size: u32, exact: bool) -> Result<()> {
    let mut seen = CardSet::EMPTY;
    for (seat, hand) in hands.iter().enumerate() {
        let name = SEAT_NAMES[seat];
        if hand.0 >> 52 != 0 {
            return Err(bad(format!(
                "{name}'s hand has bits outside the 52-card pack"
            )));
        }
        if (exact && hand.len() != size) || hand.len() > size {
            let want = if exact { "exactly" } else { "at most" };
            return Err(bad(format!(
                "{name} holds {} cards, a bridge hand holds {want} {size}",
                hand.len()
            )));
        }
        if let Some(card) = seen.intersection(*hand).iter().next() {
            return Err(bad(format!("{card} is dealt to {name} and another hand")));
        }
        seen = seen.union(*hand);
    }
    Ok(())
}

/// Check that `hands` are a full deal: four disjoint 13-card hands.
pub fn check_deal(hands: &[CardSet; 4]) -> Result<()> {
    check_hands(hands, 13, true)
}

fn full_deal(hands: &[CardSet; 4]) -> Result<FullDeal> {
    check_deal(hands)?;
    let mut builder = Builder::new();
    for (seat, hand) in Seat::ALL.iter().zip(hands) {
        builder[*seat] = to_hand(*hand);
    }
    builder
        .build_full()
        .map_err(|_| bad("the hands are not a full deal".into()))
}

/// Check a position: consistent hand sizes for the cards in the trick, no card
/// twice, players following suit in the trick, a card left to play.
pub fn check_position(pos: &Position) -> Result<()> {
    strain_of(pos.trump)?;
    if pos.leader >= 4 {
        return Err(bad(format!("leader {} is not a seat 0..3", pos.leader)));
    }
    if pos.trick.len() > 3 {
        return Err(bad(format!(
            "the current trick holds {} cards; a trick in progress holds 0..3",
            pos.trick.len()
        )));
    }
    check_hands(&pos.hands, 13, false)?;
    let in_hands = pos.hands.iter().fold(CardSet::EMPTY, |a, h| a.union(*h));
    let mut in_trick = CardSet::EMPTY;
    for &card in &pos.trick {
        if card.suit().is_none() {
            return Err(bad(format!("{card} is not a bridge card")));
        }
        if in_hands.contains(card) || !in_trick.insert(card) {
            return Err(bad(format!("{card} is played to the trick and held too")));
        }
    }
    // The seats that played to this trick hold one card fewer than the rest.
    let size = pos.hands[(pos.leader + 3) % 4].len();
    for k in 0..4 {
        let seat = (pos.leader + k) % 4;
        let played = u32::from(k < pos.trick.len());
        if pos.hands[seat].len() + played != size {
            return Err(bad(format!(
                "hand sizes {:?} do not fit {} card(s) played to the trick led by {}",
                pos.hands.map(CardSet::len),
                pos.trick.len(),
                SEAT_NAMES[pos.leader]
            )));
        }
    }
    if let Some(&lead) = pos.trick.first() {
        let led = suit_of(lead);
        for (k, &card) in pos.trick.iter().enumerate().skip(1) {
            let seat = (pos.leader + k) % 4;
            let before = pos.hands[seat].with(card);
            if !legal_follows(before, Some(led)).contains(card) {
                return Err(bad(format!(
                    "{} played {card} to a {} lead while holding that suit",
                    SEAT_NAMES[seat],
                    ["club", "diamond", "heart", "spade"][usize::from(led)]
                )));
            }
        }
    }
    if pos.hands[pos.to_act()].is_empty() {
        return Err(bad("the position has no card left to play".into()));
    }
    Ok(())
}

fn take_solver() -> Solver {
    let pooled = POOL.lock().ok().and_then(|mut pool| pool.pop());
    pooled.unwrap_or_else(|| Solver::new(Strain::Notrump))
}

fn return_solver(solver: Solver) {
    if let Ok(mut pool) = POOL.lock() {
        if pool.len() < MAX_POOLED {
            pool.push(solver);
        }
    }
}

/// Run `work` on `tasks` units over `threads` solver threads (at least one, at
/// most one per unit), each with its own solver; units are handed out in order
/// from a shared counter, so results do not depend on the thread count.
/// `cancel` is polled before each unit.
fn run_units<T, F>(tasks: usize, threads: usize, cancel: &Cancel, work: F) -> Result<Vec<T>>
where
    T: Send,
    F: Fn(&mut Solver, usize) -> T + Sync,
{
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, tasks.max(1));
    let worker = || {
        let mut solver = take_solver();
        let mut done = Vec::new();
        loop {
            if cancel.is_cancelled() {
                break;
            }
            let unit = next.fetch_add(1, Ordering::Relaxed);
            if unit >= tasks {
                break;
            }
            done.push((unit, work(&mut solver, unit)));
        }
        return_solver(solver);
        done
    };
    let parts: Vec<Vec<(usize, T)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .filter_map(|k| {
                std::thread::Builder::new()
                    .name(format!("cardkit-dd-{k}"))
                    .stack_size(SOLVER_STACK)
                    .spawn_scoped(scope, worker)
                    .ok()
            })
            .collect();
        if handles.is_empty() {
            return Err(bad("could not start a solver thread".into()));
        }
        Ok(handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(part) => part,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect())
    })?;
    cancel.check()?;
    let mut slots: Vec<Option<T>> = (0..tasks).map(|_| None).collect();
    for (unit, value) in parts.into_iter().flatten() {
        slots[unit] = Some(value);
    }
    slots
        .into_iter()
        .map(|v| v.ok_or(EngineError::Cancelled))
        .collect()
}

/// The suits of `hands` in the order to solve them: the most evenly shared trump
/// suit first. A suit split 7-6 between the sides took 2.8 times the search of
/// one split 9-4 (100 random deals, loaded machine: 102 ms against 36 ms of CPU
/// on average), so starting the likely heavy strains first leaves light ones to
/// fill the end of a one-deal table on several threads (1.5% shorter on those
/// deals, simulated from measured per-strain costs; neutral for batches).
fn suits_heaviest_first(hands: &[CardSet; 4]) -> [usize; 4] {
    let mut suits: [usize; 4] = [0, 1, 2, 3];
    suits.sort_by_key(|&s| {
        let north_south = crate::trick::suit_cards(hands[0].union(hands[2]), s as u8).len();
        north_south.abs_diff(13 - north_south)
    });
    suits
}

/// The double-dummy tables of `deals` (each four 13-card hands, N, E, S, W) on
/// `threads` threads. The unit of work is one strain of one deal (its four
/// declarers share a transposition table, as in DDS): notrump of every deal
/// first as its solves vary most, then each deal's suits, the most evenly
/// shared trump suit first.
pub fn solve_tables(
    deals: &[[CardSet; 4]],
    threads: usize,
    cancel: &Cancel,
) -> Result<Vec<DdTable>> {
    let full: Vec<FullDeal> = deals
        .iter()
        .enumerate()
        .map(|(i, hands)| {
            full_deal(hands).map_err(|e| match e {
                EngineError::RuleOption(m) if deals.len() > 1 => bad(format!("deal {i}: {m}")),
                other => other,
            })
        })
        .collect::<Result<_>>()?;
    let units: Vec<(usize, usize)> = (0..full.len())
        .map(|d| (d, 4))
        .chain(
            deals
                .iter()
                .enumerate()
                .flat_map(|(d, hands)| suits_heaviest_first(hands).map(|s| (d, s))),
        )
        .collect();
    let rows = run_units(units.len(), threads, cancel, |solver, unit| {
        let (d, s) = units[unit];
        solver.set_strain(Strain::ASC[s]);
        solver.solve(full[d])
    })?;
    let mut tables = vec![DdTable::default(); full.len()];
    for (&(d, s), row) in units.iter().zip(rows) {
        for (seat, &who) in Seat::ALL.iter().enumerate() {
            tables[d].tricks[seat][s] = row.get(who).get();
        }
    }
    Ok(tables)
}

/// The double-dummy table of one deal, its strains spread over `threads`.
pub fn solve_table(hands: &[CardSet; 4], threads: usize, cancel: &Cancel) -> Result<DdTable> {
    let mut tables = solve_tables(std::slice::from_ref(hands), threads, cancel)?;
    tables.pop().ok_or(EngineError::Cancelled)
}

/// The solver's view of a checked position: every legal card to be scored.
fn objective_of(pos: &Position) -> Result<Objective> {
    check_position(pos)?;
    let trump = strain_of(pos.trump)?;
    let mut builder = Builder::new();
    for (seat, hand) in Seat::ALL.iter().zip(&pos.hands) {
        builder[*seat] = to_hand(*hand);
    }
    let remaining: PartialDeal = builder
        .build_partial()
        .map_err(|_| bad("the hands overlap or hold more than 13 cards".into()))?;
    let cards: Vec<BridgeCard> = pos.trick.iter().map(|&c| to_bridge_card(c)).collect();
    let trick = CurrentTrick::from_slice(trump, Seat::ALL[pos.leader], &cards)
        .map_err(|e| bad(format!("the current trick: {e}")))?;
    let board = Board::try_new(remaining, trick).map_err(|e| bad(format!("the position: {e}")))?;
    Ok(Objective {
        board,
        target: Target::Legal,
    })
}

/// Each card the solver found, with the equal cards it stands for, by index.
fn plays_of(found: &FoundPlays) -> Vec<(Card, u8)> {
    let mut out: Vec<(Card, u8)> = Vec::with_capacity(13);
    for play in &found.plays {
        let score = play.score.get();
        out.push((from_bridge_card(play.card), score));
        for rank in play.equals {
            let card = BridgeCard {
                suit: play.card.suit,
                rank,
            };
            out.push((from_bridge_card(card), score));
        }
    }
    out.sort_by_key(|(c, _)| c.index());
    out
}

/// Every legal card of the seat to act in `pos`, lowest index first, with the
/// tricks that the side to act takes from here on (the current trick included)
/// if it plays that card and both sides then play perfectly.
pub fn solve_position(pos: &Position) -> Result<Vec<(Card, u8)>> {
    let mut solved = solve_positions(std::slice::from_ref(pos), 1, &crate::cancel::NEVER)?;
    solved.pop().ok_or(EngineError::Cancelled)
}

/// [`solve_position`] for many positions (sampled deals of one decision, say)
/// on `threads` threads, one position per unit; `cancel` is polled between them.
pub fn solve_positions(
    positions: &[Position],
    threads: usize,
    cancel: &Cancel,
) -> Result<Vec<Vec<(Card, u8)>>> {
    let objectives = positions
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            objective_of(pos).map_err(|e| match e {
                EngineError::RuleOption(m) if positions.len() > 1 => {
                    bad(format!("position {i}: {m}"))
                }
                other => other,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let found = run_units(objectives.len(), threads, cancel, |solver, unit| {
        solver.solve_board(&objectives[unit])
    })?;
    Ok(found.iter().map(plays_of).collect())
}

/// The par result of a deal from its double-dummy table, with `vulnerable`
/// sides (bit 0 North-South, bit 1 East-West) and `dealer` (0..3) calling first:
/// DDS's dealer-aware par (the side that can bid first takes a shared par).
pub fn par(table: &DdTable, vulnerable: u8, dealer: usize) -> Result<Par> {
    if dealer >= 4 {
        return Err(bad(format!("dealer {dealer} is not a seat 0..3")));
    }
    let vul = Vulnerability::from_bits(vulnerable)
        .ok_or_else(|| bad(format!("vulnerability bits {vulnerable} are not 0..3")))?;
    let mut rows = [TrickCountRow::default(); NUM_STRAINS];
    for (s, row) in rows.iter_mut().enumerate() {
        let t = |seat: usize| table.tricks[seat][s];
        if (0..4).any(|seat| t(seat) > 13) {
            return Err(bad("a double-dummy table holds 0..13 tricks".into()));
        }
        *row = TrickCountRow::new(t(0), t(1), t(2), t(3));
    }
    let found = calculate_par(TrickCountTable(rows), vul, Seat::ALL[dealer]);
    let contracts = found
        .contracts
        .iter()
        .map(|p| ParContract {
            level: p.contract.bid.level.get(),
            strain: p.contract.bid.strain as u8,
            doubling: match p.contract.penalty {
                Penalty::Undoubled => 0,
                Penalty::Doubled => 1,
                Penalty::Redoubled => 2,
            },
            declarer: p.declarer as usize,
            overtricks: p.overtricks,
        })
        .collect();
    Ok(Par {
        score: found.score,
        contracts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::rng::CardRng;
    use crate::trick::deal_hands;

    fn set(text: &str) -> CardSet {
        CardSet::from_cards(crate::cards::parse_cards(text).unwrap())
    }

    /// Each hand one whole suit: N spades, E hearts, S diamonds, W clubs.
    fn suits_deal() -> [CardSet; 4] {
        let suit = |s: u8| CardSet(crate::trick::SUIT_MASKS[usize::from(s)]);
        [suit(3), suit(2), suit(1), suit(0)]
    }

    #[test]
    fn one_suit_per_hand_table() {
        let table = solve_table(&suits_deal(), 2, &NEVER).unwrap();
        // The side holding the trump suit ruffs every trick; in notrump the
        // opening leader (declarer's left-hand opponent) runs a whole suit.
        assert_eq!(table.tricks[0], [0, 13, 0, 13, 0]);
        assert_eq!(table.tricks[1], [13, 0, 13, 0, 0]);
        assert_eq!(table.tricks[2], [0, 13, 0, 13, 0]);
        assert_eq!(table.tricks[3], [13, 0, 13, 0, 0]);
    }

    #[test]
    fn cards_convert_both_ways() {
        for i in 0..52u8 {
            let card = Card::from_index_unchecked(i);
            assert_eq!(from_bridge_card(to_bridge_card(card)), card);
            assert_eq!(to_hand(CardSet::from_cards([card])).len(), 1);
            assert!(to_hand(CardSet::from_cards([card])).contains(to_bridge_card(card)));
        }
    }

    #[test]
    fn tables_do_not_depend_on_threads() {
        let mut rng = CardRng::new(11);
        let deals: Vec<_> = (0..4).map(|_| deal_hands(&mut rng)).collect();
        let one = solve_tables(&deals, 1, &NEVER).unwrap();
        let two = solve_tables(&deals, 2, &NEVER).unwrap();
        assert_eq!(one, two);
        assert!(one
            .iter()
            .flat_map(|t| t.tricks.iter().flatten())
            .all(|&n| n <= 13));
    }

    #[test]
    fn suits_are_ordered_most_evenly_shared_first() {
        // N-S hold 13 spades, 7 hearts, 4 diamonds and 2 clubs: the sides'
        // trump lengths differ by 13, 1, 5 and 9 (East-West's hands do not
        // enter the order).
        let north = set("As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s");
        let south = set("Ah Kh Qh Jh Th 9h 8h Ad Kd Qd Jd Ac Kc");
        let hands = [north, CardSet::EMPTY, south, CardSet::EMPTY];
        assert_eq!(suits_heaviest_first(&hands), [2, 1, 0, 3]);
    }

    #[test]
    fn position_solves_every_legal_card() {
        let mut rng = CardRng::new(5);
        let hands = deal_hands(&mut rng);
        let table = solve_table(&hands, 1, &NEVER).unwrap();
        // Declarer N in notrump: E leads; the defence's best lead takes
        // 13 minus declarer's tricks.
        let pos = Position {
            hands,
            trump: 4,
            leader: 1,
            trick: vec![],
        };
        let plays = solve_position(&pos).unwrap();
        assert_eq!(plays.len(), 13);
        let best = plays.iter().map(|p| p.1).max().unwrap();
        assert_eq!(best, 13 - table.tricks[0][4]);
    }

    #[test]
    fn positions_batch_matches_single_solves() {
        let mut rng = CardRng::new(9);
        let positions: Vec<Position> = (0..4)
            .map(|k| Position {
                hands: deal_hands(&mut rng),
                trump: k as u8,
                leader: k,
                trick: vec![],
            })
            .collect();
        let batch = solve_positions(&positions, 2, &NEVER).unwrap();
        for (pos, plays) in positions.iter().zip(&batch) {
            assert_eq!(&solve_position(pos).unwrap(), plays);
        }
        let mut bad_one = positions.clone();
        bad_one[2].leader = 7;
        let err = solve_positions(&bad_one, 2, &NEVER).unwrap_err();
        assert!(err.to_string().starts_with("position 2:"), "{err}");
    }

    #[test]
    fn position_mid_trick_lists_follows() {
        let hands = ["As Kh", "2s 3h", "Qs 4h", "5h 6h"].map(set);
        let mut pos = Position {
            hands,
            trump: 4,
            leader: 0,
            trick: vec![],
        };
        pos.hands[0] = set("Kh");
        pos.trick = crate::cards::parse_cards("As").unwrap();
        let plays = solve_position(&pos).unwrap();
        // E must follow with the 2s; N's ace wins, then N's king takes the
        // last trick: E-W take nothing.
        assert_eq!(plays, vec![(Card::parse("2s").unwrap(), 0)]);
    }

    #[test]
    fn bad_positions_are_refused() {
        let hands = ["As Kh", "2s 3h", "Qs 4h", "5h 6h"].map(set);
        let good = Position {
            hands,
            trump: 3,
            leader: 0,
            trick: vec![],
        };
        assert!(solve_position(&good).is_ok());
        let mut p = good.clone();
        p.trump = 5;
        assert!(solve_position(&p).is_err());
        let mut p = good.clone();
        p.leader = 4;
        assert!(solve_position(&p).is_err());
        let mut p = good.clone();
        p.trick = crate::cards::parse_cards("As").unwrap();
        assert!(solve_position(&p).is_err(), "played and still held");
        let mut p = good.clone();
        p.hands[0] = set("Kh");
        p.trick = crate::cards::parse_cards("As 3h").unwrap();
        p.hands[1] = set("2s");
        assert!(solve_position(&p).is_err(), "E revoked");
        let mut p = good.clone();
        p.hands[2] = set("Qs");
        assert!(solve_position(&p).is_err(), "sizes");
        let empty = Position {
            hands: [CardSet::EMPTY; 4],
            trump: 0,
            leader: 0,
            trick: vec![],
        };
        assert!(solve_position(&empty).is_err());
    }

    #[test]
    fn bad_deals_are_refused() {
        let mut hands = suits_deal();
        assert!(check_deal(&hands).is_ok());
        hands[0] = hands[0].difference(set("As"));
        assert!(solve_table(&hands, 1, &NEVER).is_err());
        hands[0] = hands[0].union(set("Ah"));
        let err = solve_tables(&[suits_deal(), hands], 1, &NEVER).unwrap_err();
        assert!(err.to_string().starts_with("deal 1:"), "{err}");
    }

    #[test]
    fn cancelled_batches_stop() {
        let cancel = Cancel::new();
        cancel.cancel();
        let mut rng = CardRng::new(1);
        let deals: Vec<_> = (0..3).map(|_| deal_hands(&mut rng)).collect();
        assert_eq!(
            solve_tables(&deals, 2, &cancel),
            Err(EngineError::Cancelled)
        );
    }

    #[test]
    fn par_of_a_laydown_grand() {
        // N-S hold every spade and heart honour: 7NT for N-S.
        let table = DdTable {
            tricks: [[13; 5], [0; 5], [13; 5], [0; 5]],
        };
        let p = par(&table, 0, 0).unwrap();
        assert_eq!(p.score, 1520);
        assert!(p.contracts.iter().all(|c| c.level == 7 && c.strain == 4));
        assert!(par(&table, 4, 0).is_err());
        assert!(par(&table, 0, 4).is_err());
    }
}
