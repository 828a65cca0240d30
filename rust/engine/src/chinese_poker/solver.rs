//! The Monte Carlo arrangement solver.
//!
//! For a dealt hand it samples the other positions' hands from the 39 unseen
//! cards (every position is dealt even when vacant, CP-04), sets each opponent's
//! hand greedily, and chooses among the properly set splits of the 72,072 the
//! one with the best expected score against those samples. Scoring all 72,072
//! splits exactly against every sample would take seconds, so it runs in two
//! stages:
//!
//! 1. *Screening.* Each of the hand's 286 fronts and 1,287 five-card segments is
//!    scored once against the sorted distribution of opponent fronts, middles and
//!    backs (win/tie/lose probabilities by binary search, the points an opponent
//!    takes when he wins from prefix sums). A split's screening score adds its
//!    three segments and the majority or shot terms under an independence
//!    assumption between segments.
//! 2. *Exact scoring.* The best-screened candidates (and the greedy set) are scored
//!    exactly against every sampled table with the same kernel the game uses,
//!    including mandarin home runs, and the best mean wins.
//!
//! A declared automatic win pays a fixed amount per opponent, so it is declared
//! when that beats the best arrangement's expected score.

use super::arrange::{greedy_hands, Arrangement, HandTable};
use super::automatic::{automatic_wins, AutomaticWin};
use super::scoring::{outcomes, pair_sets, segment_points, Rules, SetHands, ShotScoring, Variant};
use super::splits::{tables, Split};
use crate::cancel::Cancel;
use crate::cards::Card;
use crate::cardset::CardSet;
use crate::error::{EngineError, Result};
use crate::rng::{derive_seed, CardRng};

/// Solver settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// Players at the table, 2..=4 (opponents = players - 1).
    pub players: usize,
    /// Sampled deals of the unseen cards.
    pub samples: usize,
    /// Splits kept from screening for exact scoring.
    pub candidates: usize,
    /// Seed of the sampling stream.
    pub seed: u64,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            players: 4,
            samples: 200,
            candidates: 64,
            seed: 0,
        }
    }
}

/// What the solver chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The best properly set arrangement.
    pub arrangement: Arrangement,
    /// Its mean points per deal against the sampled opponents (all of them together).
    pub expected: f64,
    /// The automatic win to declare instead, when that pays more.
    pub declare: Option<AutomaticWin>,
    /// What declaring the best qualifying automatic win pays (0 when none qualifies).
    pub declare_value: f64,
    /// Properly set splits of the hand.
    pub proper: usize,
}

/// Sampled opponent sets: `samples` rows of `players - 1` greedy sets each.
struct Opponents {
    per_table: usize,
    sets: Vec<SetHands>,
    /// Mandarin home-run precondition: the opponent sweeps every other opponent.
    sweeps_others: Vec<bool>,
}

fn sample_opponents(
    hand: CardSet,
    opts: &SolverOptions,
    rules: &Rules,
    cancel: &Cancel,
) -> Result<Opponents> {
    let unseen: Vec<Card> = (0..52u32)
        .filter_map(|i| Card::from_index(i).ok())
        .filter(|c| !hand.contains(*c))
        .collect();
    let per_table = opts.players - 1;
    let mut sets = Vec::with_capacity(opts.samples * per_table);
    for k in 0..opts.samples {
        cancel.check()?;
        // One sub-stream per sample, so results do not depend on batching.
        let mut rng = CardRng::new(derive_seed(opts.seed, k as u64));
        let mut deck = unseen.clone();
        rng.shuffle(&mut deck);
        for chunk in deck.chunks_exact(13).take(per_table) {
            let mut cards = [chunk[0]; 13];
            cards.copy_from_slice(chunk);
            cards.sort();
            sets.push(greedy_hands(cards));
        }
    }
    let mandarin4 = rules.variant == Variant::Mandarin && opts.players == 4;
    let sweeps_others = sets
        .chunks_exact(per_table)
        .flat_map(|table| {
            (0..per_table).map(move |j| {
                mandarin4
                    && (0..per_table).all(|k| k == j || outcomes(&table[j], &table[k]) == [1, 1, 1])
            })
        })
        .collect();
    Ok(Opponents {
        per_table,
        sets,
        sweeps_others,
    })
}

/// Exact points of `mine` at one sampled table (same rules as `score_table`).
fn table_points(rules: &Rules, mine: &SetHands, opps: &[SetHands], sweeps: &[bool]) -> i32 {
    let mandarin4 = rules.variant == Variant::Mandarin && opps.len() == 3;
    let my_home_run = mandarin4 && opps.iter().all(|o| outcomes(mine, o) == [1, 1, 1]);
    opps.iter()
        .zip(sweeps)
        .map(|(o, &sweeps_rest)| {
            let their_home_run = sweeps_rest && outcomes(o, mine) == [1, 1, 1];
            pair_sets(rules, mine, o, [my_home_run, their_home_run])
        })
        .sum()
}

/// Screening statistics of one segment against one opponent segment position.
#[derive(Clone, Copy, Default)]
struct SegmentOdds {
    win: f64,
    lose: f64,
    /// Expected points won minus points lost on this segment alone.
    gain: f64,
}

/// Sorted opponent values of one segment position with prefix sums of the points
/// an opponent takes when he wins it.
struct Distribution {
    values: Vec<u32>,
    prefix: Vec<f64>,
}

impl Distribution {
    fn new(rules: &Rules, segment: usize, opps: &[SetHands]) -> Distribution {
        let mut pairs: Vec<(u32, f64)> = opps
            .iter()
            .map(|o| {
                let (regular, bonus) = segment_points(rules, segment, o[segment].made);
                (o[segment].value, f64::from(regular + bonus))
            })
            .collect();
        pairs.sort_by_key(|p| p.0);
        let mut prefix = Vec::with_capacity(pairs.len() + 1);
        prefix.push(0.0);
        let mut acc = 0.0;
        for p in &pairs {
            acc += p.1;
            prefix.push(acc);
        }
        Distribution {
            values: pairs.into_iter().map(|p| p.0).collect(),
            prefix,
        }
    }

    fn odds(
        &self,
        rules: &Rules,
        segment: usize,
        hand: super::scoring::SegmentHand,
    ) -> SegmentOdds {
        let n = self.values.len() as f64;
        let below = self.values.partition_point(|&v| v < hand.value);
        let not_above = self.values.partition_point(|&v| v <= hand.value);
        let (regular, bonus) = segment_points(rules, segment, hand.made);
        let win = below as f64 / n;
        let lose = (self.values.len() - not_above) as f64 / n;
        let taken = (self.prefix[self.values.len()] - self.prefix[not_above]) / n;
        SegmentOdds {
            win,
            lose,
            gain: win * f64::from(regular + bonus) - taken,
        }
    }
}

/// Probability of at least two successes among three independent events.
fn two_of_three(p: [f64; 3]) -> f64 {
    p[0] * p[1] + p[0] * p[2] + p[1] * p[2] - 2.0 * p[0] * p[1] * p[2]
}

/// The screening score of a split from its segments' odds.
fn screen(rules: &Rules, hands: &SetHands, odds: [SegmentOdds; 3]) -> f64 {
    let mut score: f64 = odds.iter().map(|o| o.gain).sum();
    let win = odds.map(|o| o.win);
    let lose = odds.map(|o| o.lose);
    match rules.variant {
        Variant::Basic | Variant::Western => {
            // Majority point; with `Majority::MoreSegments` a 1-0 majority over
            // ties also counts, which this estimate ignores (ties are rare).
            score += two_of_three(win) - two_of_three(lose);
        }
        Variant::Eastern => {}
        Variant::Mandarin => {
            let extra = match rules.shot {
                ShotScoring::Multiply => 1.0,
                ShotScoring::Add => 2.0,
            };
            let regular: f64 = (0..3)
                .map(|s| f64::from(segment_points(rules, s, hands[s].made).0))
                .sum();
            score += extra
                * (regular * win.iter().product::<f64>() - 3.0 * lose.iter().product::<f64>());
        }
    }
    score
}

fn automatic_points(rules: &Rules, win: AutomaticWin) -> i32 {
    if win == AutomaticWin::Dragon {
        rules.dragon_points
    } else {
        rules.automatic_win_points
    }
}

/// Choose how to play `hand` (13 distinct cards): the arrangement with the best
/// expected score against sampled greedy opponents, or a declaration. Polls
/// `cancel` per sampled deal and per candidate scored exactly (screening is a
/// fixed ~72,000 splits, a millisecond or two).
pub fn solve(
    hand: &[Card],
    rules: &Rules,
    opts: &SolverOptions,
    cancel: &Cancel,
) -> Result<Solution> {
    if !(2..=4).contains(&opts.players) {
        return Err(EngineError::RuleOption(format!(
            "players={} is out of range 2..4",
            opts.players
        )));
    }
    if opts.samples == 0 || opts.candidates == 0 {
        return Err(EngineError::RuleOption(
            "the solver needs at least one sample and one candidate".into(),
        ));
    }
    let table = HandTable::new(hand)?;
    let opps = sample_opponents(
        CardSet::from_cards(hand.iter().copied()),
        opts,
        rules,
        cancel,
    )?;

    // Stage 1: screen every properly set split.
    let dists: Vec<Distribution> = (0..3)
        .map(|s| Distribution::new(rules, s, &opps.sets))
        .collect();
    let t = tables();
    let front_odds: Vec<SegmentOdds> = (0..t.fronts.len())
        .map(|i| dists[0].odds(rules, 0, table.front(i as u16)))
        .collect();
    let middle_odds: Vec<SegmentOdds> = (0..t.fives.len())
        .map(|i| dists[1].odds(rules, 1, table.five(i as u16)))
        .collect();
    let back_odds: Vec<SegmentOdds> = (0..t.fives.len())
        .map(|i| dists[2].odds(rules, 2, table.five(i as u16)))
        .collect();
    let mut screened: Vec<(f64, Split)> = Vec::new();
    let mut proper = 0usize;
    for split in table.proper_splits() {
        proper += 1;
        let hands = table.set_hands(split);
        let odds = [
            front_odds[split.front as usize],
            middle_odds[split.middle as usize],
            back_odds[split.back as usize],
        ];
        screened.push((screen(rules, &hands, odds), *split));
    }
    let keep = opts.candidates.min(screened.len());
    if keep < screened.len() {
        screened.select_nth_unstable_by(keep, |a, b| b.0.total_cmp(&a.0));
        screened.truncate(keep);
    }
    let mut candidates: Vec<Split> = screened.into_iter().map(|(_, s)| s).collect();
    let greedy = table.greedy();
    if !candidates.contains(&greedy) {
        candidates.push(greedy);
    }
    // Table order makes the choice among equal means independent of screening order.
    candidates.sort_by_key(|s| (s.front, s.middle, s.back));

    // Stage 2: exact mean against every sampled table.
    let mut best: Option<(i64, Split)> = None;
    for split in &candidates {
        cancel.check()?;
        let mine = table.set_hands(split);
        let total: i64 = opps
            .sets
            .chunks_exact(opps.per_table)
            .zip(opps.sweeps_others.chunks_exact(opps.per_table))
            .map(|(row, sweeps)| i64::from(table_points(rules, &mine, row, sweeps)))
            .sum();
        match best {
            Some((b, _)) if b >= total => {}
            _ => best = Some((total, *split)),
        }
    }
    let (total, split) = best.unwrap_or((0, greedy));
    let expected = total as f64 / opts.samples as f64;

    let best_declaration = automatic_wins(hand)
        .into_iter()
        .max_by_key(|w| (automatic_points(rules, *w), *w));
    let declare_value = best_declaration.map_or(0.0, |w| {
        f64::from(automatic_points(rules, w)) * (opts.players - 1) as f64
    });
    let declare = best_declaration.filter(|_| declare_value > expected);
    Ok(Solution {
        arrangement: table.arrangement(&split),
        expected,
        declare,
        declare_value,
        proper,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cancel::NEVER;
    use crate::cards::parse_cards;
    use crate::chinese_poker::arrange::is_proper;
    use crate::chinese_poker::scoring::{score_table, Entry};

    fn random_hand(seed: u64) -> Vec<Card> {
        let mut deck: Vec<Card> = (0..52).map(|i| Card::from_index(i).unwrap()).collect();
        CardRng::new(seed).shuffle(&mut deck);
        deck.truncate(13);
        deck
    }

    fn opts(players: usize, seed: u64) -> SolverOptions {
        SolverOptions {
            players,
            samples: 40,
            candidates: 32,
            seed,
        }
    }

    // CP-05: the solver never returns an improperly set hand.
    #[test]
    fn solver_sets_are_proper_and_seeded() {
        for (k, variant) in [
            Variant::Basic,
            Variant::Eastern,
            Variant::Western,
            Variant::Mandarin,
        ]
        .into_iter()
        .enumerate()
        {
            let rules = Rules {
                variant,
                ..Rules::default()
            };
            for seed in 0..6u64 {
                let hand = random_hand(seed * 7 + k as u64);
                let o = opts(2 + (seed as usize % 3), seed);
                let s = solve(&hand, &rules, &o, &NEVER).unwrap();
                assert!(is_proper(&s.arrangement.hands()));
                assert_eq!(
                    s.arrangement.cards(),
                    CardSet::from_cards(hand.iter().copied())
                );
                assert_eq!(s, solve(&hand, &rules, &o, &NEVER).unwrap());
            }
        }
    }

    // CP-19, CP-22: a Dragon is declared, since it pays more than any set.
    #[test]
    fn declares_the_dragon() {
        let hand = parse_cards("As Kd Qc Jh Ts 9d 8c 7h 6s 5d 4c 3h 2s").unwrap();
        let s = solve(&hand, &Rules::default(), &opts(4, 1), &NEVER).unwrap();
        assert_eq!(s.declare, Some(AutomaticWin::Dragon));
        assert_eq!(s.declare_value, 39.0);
    }

    // CP-48: the solver's table scoring matches the kernel, home runs included.
    #[test]
    fn table_points_match_score_table() {
        let rules = Rules {
            variant: Variant::Mandarin,
            ..Rules::default()
        };
        let hand = random_hand(3);
        let o = SolverOptions {
            players: 4,
            samples: 30,
            candidates: 8,
            seed: 9,
        };
        let opps = sample_opponents(
            CardSet::from_cards(hand.iter().copied()),
            &o,
            &rules,
            &NEVER,
        )
        .unwrap();
        let table = HandTable::new(&hand).unwrap();
        for split in table.spread(10) {
            let mine = table.set_hands(&split);
            for (row, sweeps) in opps
                .sets
                .chunks_exact(3)
                .zip(opps.sweeps_others.chunks_exact(3))
            {
                let entries: Vec<Entry> = std::iter::once(mine)
                    .chain(row.iter().copied())
                    .map(Entry::Set)
                    .collect();
                assert_eq!(
                    table_points(&rules, &mine, row, sweeps),
                    score_table(&rules, &entries)[0]
                );
            }
        }
    }

    #[test]
    fn rejects_bad_options() {
        let hand = random_hand(1);
        assert!(solve(&hand, &Rules::default(), &opts(5, 0), &NEVER).is_err());
        assert!(solve(&hand, &Rules::default(), &opts(1, 0), &NEVER).is_err());
        let none = SolverOptions {
            samples: 0,
            ..opts(4, 0)
        };
        assert!(solve(&hand, &Rules::default(), &none, &NEVER).is_err());
        assert!(solve(&hand[..12], &Rules::default(), &opts(4, 0), &NEVER).is_err());
    }

    #[test]
    fn a_cancelled_solve_stops() {
        let cancel = Cancel::new();
        cancel.cancel();
        let o = opts(4, 0);
        let got = solve(&random_hand(2), &Rules::default(), &o, &cancel);
        assert_eq!(got, Err(EngineError::Cancelled));
    }
}
