//! What the card play so far says about the hidden hands, for the determinized
//! search ([`super::playout::search_move`]): the search deals the unseen cards so
//! that the other seats' passes make sense.
//!
//! Zheng Shangyou's passes are hard evidence (ZSY-13, ZSY-14: a seat passes only
//! when nothing in its hand beats the table): a seat that passed on a single nine
//! holds nothing above a nine and no bomb, now and for the rest of the deal. Dou
//! Dizhu's passes are voluntary (DDZ-13), so they are soft evidence: a seat that
//! passed on an opponent's play is taken to be less likely to hold a hand the rule
//! policy would have answered with. Each sampled deal is replayed against every
//! recorded pass; deals that contradict them are redrawn a few times.

use super::playout::{determinize, pack, rule_move, Deal, Game, Move};
use super::{doudizhu as ddz, zhengshangyou as zsy, Combination, Ranks, NUM_RANKS};
use crate::error::{EngineError, Result};
use crate::rng::CardRng;

/// The most moves a card play of either game can have, so the most a history can
/// hold: every play uses at least one card of the larger (Dou Dizhu) pack, and at
/// most the two other seats pass before its owner leads again.
pub const LONGEST_CARD_PLAY: usize = 3 * 54;

/// Draws a sampled deal gets before the least contradicted one is kept.
pub const TRIES: u32 = 8;
/// Dou Dizhu: the chance a deal with one soft contradiction is kept anyway (each
/// further contradiction multiplies it again), since real players pass on plays
/// they could beat more often than the rule policy does.
const SOFT_KEEP: f64 = 0.25;

/// One recorded pass of a seat other than the searcher, as the deal stood.
#[derive(Clone, Debug)]
struct Pass {
    /// The position the seat passed in (other hands are placeholders of the right
    /// size; the passer's hand is filled in from each sampled deal).
    deal: Deal,
    seat: u8,
    /// The cards the seat has played since: its hand then is its hand now plus these.
    later: Ranks,
}

/// The evidence of the card play so far, for one searching seat.
#[derive(Clone, Debug)]
pub struct Evidence {
    passes: Vec<Pass>,
    /// Zheng Shangyou: the fewest copies of each rank that must be in each seat's
    /// hand because the other unseen hand cannot hold them (its passes cap it).
    forced: [Ranks; 3],
}

/// The reading of `cards` played in `deal` (answering its table, if any).
fn reading(deal: &Deal, cards: &Ranks) -> Option<Combination> {
    let readings = match deal.game {
        Game::DouDizhu { .. } => ddz::classify(cards),
        Game::ZhengShangyou => zsy::classify(cards, deal.opening),
    };
    match &deal.table {
        None => readings.first().copied(),
        Some(table) => readings.into_iter().find(|c| match deal.game {
            Game::DouDizhu { .. } => ddz::beats(c, table),
            Game::ZhengShangyou => zsy::beats(c, table),
        }),
    }
}

/// Zheng Shangyou: the most copies of each rank a seat that passed on `table`
/// can have held then (and so now): one fewer than the fewest copies that answer
/// it on their own by the rule's home, [`zsy::responses`] (the pack's count where
/// no number of copies does). These caps only place the cards the other hidden
/// hand cannot hold; a hand within every cap may still beat the table with several
/// ranks together (a run), which [`Evidence::contradictions`] checks against the
/// whole rule on every sampled deal.
fn caps(table: &Combination) -> [u8; NUM_RANKS] {
    let mut out = pack(false).0;
    for (r, cap) in out.iter_mut().enumerate() {
        for copies in 1..=*cap {
            let mut alone = Ranks::default();
            alone.0[r] = copies;
            if !zsy::responses(&alone, table).is_empty() {
                *cap = copies - 1;
                break;
            }
        }
    }
    out
}

impl Evidence {
    /// Replay `moves` (seat and move, oldest first; a play as its cards) from the
    /// start of card play, `first` leading, up to `deal`, the position `seat` now
    /// searches, whose hands give every seat's card count. `unknown` are the cards
    /// `seat` cannot see. Fails when a move is not a combination that fits the
    /// table of its turn or is made out of turn.
    pub fn new(
        deal: &Deal,
        seat: u8,
        first: u8,
        moves: &[(u8, Option<Ranks>)],
        unknown: &Ranks,
    ) -> Result<Evidence> {
        let bad = |what: String| Err(EngineError::IllegalAction(what));
        if moves.len() > LONGEST_CARD_PLAY {
            return bad(format!(
                "a card play has at most {LONGEST_CARD_PLAY} moves, got {}",
                moves.len()
            ));
        }
        let mut played = [Ranks::default(); 3];
        for (s, mv) in moves {
            if *s > 2 {
                return bad(format!("seat {s} is not 0, 1 or 2"));
            }
            if let Some(cards) = mv {
                played[usize::from(*s)] = played[usize::from(*s)].plus(cards);
            }
        }
        let start = [0, 1, 2].map(|s| deal.hands[s].plus(&played[s]));
        let mut now = Deal::new(deal.game, start, first);
        let mut so_far = [Ranks::default(); 3];
        let mut passes = Vec::new();
        for (i, &(s, mv)) in moves.iter().enumerate() {
            if now.is_over() || s != now.to_move {
                return bad(format!("move {i} is made out of turn by seat {s}"));
            }
            let play: Move = match mv {
                None if now.table.is_none() => {
                    return bad(format!("move {i}: seat {s} passes on an empty table"))
                }
                None => None,
                Some(cards) => match reading(&now, &cards) {
                    Some(c) => Some(c),
                    None => {
                        return bad(format!("move {i}: {cards} does not fit the table"));
                    }
                },
            };
            let informative = match deal.game {
                // A farmer always lets its partner's play stand: that says nothing.
                Game::DouDizhu { .. } => !now.partners(s, now.table_owner),
                Game::ZhengShangyou => true,
            };
            if play.is_none() && s != seat && informative {
                passes.push(Pass {
                    deal: now.clone(),
                    seat: s,
                    later: so_far[usize::from(s)],
                });
            }
            if let Some(c) = play {
                so_far[usize::from(s)] = so_far[usize::from(s)].plus(&c.cards);
            }
            now.apply(play);
        }
        // `later` was the cards played before the pass: turn it into those after.
        for p in &mut passes {
            p.later = played[usize::from(p.seat)].minus(&p.later);
        }
        let mut forced = [Ranks::default(); 3];
        if deal.game == Game::ZhengShangyou {
            let others: Vec<u8> = (0..3).filter(|&s| s != seat).collect();
            let mut cap = [[u8::MAX; NUM_RANKS]; 3];
            // A deal's passes fall on few distinct tables: each one's caps once.
            let mut known: Vec<(Combination, [u8; NUM_RANKS])> = Vec::new();
            for p in &passes {
                if let Some(table) = &p.deal.table {
                    let limits = match known.iter().find(|(t, _)| t == table) {
                        Some((_, limits)) => *limits,
                        None => {
                            let limits = caps(table);
                            known.push((*table, limits));
                            limits
                        }
                    };
                    for (c, limit) in cap[usize::from(p.seat)].iter_mut().zip(limits) {
                        *c = (*c).min(limit);
                    }
                }
            }
            if let [a, b] = others[..] {
                let (a, b) = (usize::from(a), usize::from(b));
                for (r, &k) in unknown.0.iter().enumerate() {
                    forced[a].0[r] = k.saturating_sub(cap[b][r]);
                    forced[b].0[r] = k.saturating_sub(cap[a][r]);
                }
            }
        }
        Ok(Evidence { passes, forced })
    }

    /// How many recorded passes `world` contradicts, stopping once past `enough`.
    fn contradictions(&self, world: &Deal, enough: u32) -> u32 {
        let mut out = 0;
        for p in &self.passes {
            let hand = world.hands[usize::from(p.seat)].plus(&p.later);
            let Some(table) = &p.deal.table else { continue };
            let answered = match world.game {
                Game::ZhengShangyou => !zsy::responses(&hand, table).is_empty(),
                Game::DouDizhu { .. } => {
                    let mut then = p.deal.clone();
                    then.hands[usize::from(p.seat)] = hand;
                    rule_move(&then).is_some()
                }
            };
            if answered {
                out += 1;
                if out > enough {
                    break;
                }
            }
        }
        out
    }

    /// A deal of `unknown` to the seats other than `seat` (as
    /// [`determinize`], `pinned` cards first) that fits the recorded passes: up to
    /// [`TRIES`] draws, the first without contradictions kept (Dou Dizhu: or a
    /// contradicted one, by chance, see [`SOFT_KEEP`]), else the least contradicted.
    pub fn sample(
        &self,
        deal: &Deal,
        seat: u8,
        unknown: &Ranks,
        pinned: &[Ranks; 3],
        rng: &mut CardRng,
    ) -> Deal {
        let pins = [0, 1, 2].map(|s| pinned[s].plus(&self.forced[s]));
        let soft = matches!(deal.game, Game::DouDizhu { .. });
        let mut best: Option<(u32, Deal)> = None;
        for _ in 0..TRIES {
            let world = determinize(deal, seat, unknown, &pins, rng);
            let enough = best.as_ref().map_or(u32::MAX, |(v, _)| *v);
            let v = self.contradictions(&world, enough);
            let keep = v == 0 || (soft && rng.unit() < SOFT_KEEP.powi(v as i32));
            if keep {
                return world;
            }
            if best.as_ref().is_none_or(|(b, _)| v < *b) {
                best = Some((v, world));
            }
        }
        match best {
            Some((_, world)) => world,
            None => determinize(deal, seat, unknown, &pins, rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ACE, TWO};
    use super::*;

    fn r(s: &str) -> Ranks {
        Ranks::parse(s).unwrap()
    }

    /// `moves` played from `hands` with `first` leading: the position reached, the
    /// moves as `Evidence::new` takes them, and what the seat to move cannot see.
    fn replay(
        game: Game,
        hands: [&str; 3],
        first: u8,
        moves: &[(u8, Option<&str>)],
    ) -> (Deal, Vec<(u8, Option<Ranks>)>, Ranks) {
        let mut deal = Deal::new(game, hands.map(r), first);
        let mut out = Vec::new();
        for &(s, mv) in moves {
            assert_eq!(deal.to_move, s);
            let cards = mv.map(r);
            let play = cards.map(|c| reading(&deal, &c).unwrap());
            assert!(deal.legal().contains(&play), "{mv:?}");
            deal.apply(play);
            out.push((s, cards));
        }
        let seat = usize::from(deal.to_move);
        let unknown = (0..3)
            .filter(|&s| s != seat)
            .fold(Ranks::default(), |u, s| u.plus(&deal.hands[s]));
        (deal, out, unknown)
    }

    #[test]
    #[allow(clippy::type_complexity)]
    fn zsy_passes_keep_higher_cards_out_of_the_passer_hand() {
        // ZSY-13, ZSY-14: seat 2 passed on a single king, so it held no ace, no two
        // and no bomb; seat 0 had to pass too (nothing of its beat the king).
        let moves: [(u8, Option<&str>); 6] = [
            (0, Some("3")),
            (1, Some("K")),
            (2, None),
            (0, None),
            (1, Some("T")),
            (2, Some("Q")),
        ];
        let hands = ["3456789", "KQJT2AA", "4567QJ"];
        let (deal, moves, unknown) = replay(Game::ZhengShangyou, hands, 0, &moves);
        assert_eq!(deal.to_move, 0);
        let evidence = Evidence::new(&deal, 0, 0, &moves, &unknown).unwrap();
        let pinned = [Ranks::default(); 3];
        let mut rng = CardRng::new(3);
        let high = |h: &Ranks| h.count(ACE) + h.count(TWO);
        let mut uniform_high = 0;
        for _ in 0..50 {
            let world = evidence.sample(&deal, 0, &unknown, &pinned, &mut rng);
            assert_eq!(world.hands[2].len(), deal.hands[2].len());
            assert_eq!(world.hands[1].plus(&world.hands[2]), unknown);
            assert_eq!(high(&world.hands[2]), 0, "{:?}", world.hands);
            let uniform = determinize(&deal, 0, &unknown, &pinned, &mut rng);
            uniform_high += u32::from(high(&uniform.hands[2]) > 0);
        }
        // Dealt uniformly, the passer often holds what it could not have.
        assert!(uniform_high > 10, "{uniform_high}");
    }

    #[test]
    fn the_longest_card_play_is_three_moves_a_card_of_the_larger_pack() {
        assert_eq!(LONGEST_CARD_PLAY, 3 * pack(true).len());
        assert!(pack(false).len() < pack(true).len());
        let game = Game::ZhengShangyou;
        let deal = Deal::new(game, [r("3"), r("4"), r("5")], 0);
        let moves = vec![(0, None); LONGEST_CARD_PLAY + 1];
        let err = Evidence::new(&deal, 0, 0, &moves, &Ranks::default()).unwrap_err();
        assert!(err.to_string().contains("at most 162 moves"), "{err}");
    }

    #[test]
    fn zsy_caps_follow_the_table() {
        let single = zsy::classify(&r("9"), false)[0];
        let caps_9 = caps(&single);
        assert_eq!(caps_9[usize::from(TWO)], 0);
        assert_eq!(caps_9[6], 3, "a nine itself may be held, but not four");
        let pair = zsy::classify(&r("99"), false)[0];
        assert_eq!(caps(&pair)[usize::from(ACE)], 1);
        let bomb = zsy::classify(&r("9999"), false)[0];
        let caps_bomb = caps(&bomb);
        assert_eq!(
            caps_bomb[0], 4,
            "a lower bomb does not beat it: all four may be held"
        );
        assert_eq!(caps_bomb[10], 3);
        assert_eq!(caps_bomb[usize::from(ACE)], 2);
        // A run is beaten by no single rank but a bomb (four of a kind, three aces).
        let run = zsy::classify(&r("34567"), false)[0];
        let caps_run = caps(&run);
        assert!(
            (0..usize::from(ACE)).all(|r| caps_run[r] == 3),
            "{caps_run:?}"
        );
        assert_eq!(caps_run[usize::from(ACE)], 2);
        assert_eq!(caps_run[usize::from(TWO)], 1, "the pack's one two");
        // Nothing beats three aces once no heavenly bomb can follow.
        let aces = zsy::classify(&r("AAA"), false)[0];
        assert_eq!(caps(&aces), pack(false).0);
    }

    #[test]
    fn ddz_passes_on_an_opponent_make_answering_hands_rarer() {
        // DDZ-13: farmer 1 passed on the landlord's single ace, where the rule policy
        // answers with a two or a joker; farmer 2 (to move) searches.
        let game = Game::DouDizhu {
            landlord: 0,
            bid: 1,
        };
        let hands = ["A22B56789TJ", "3344556", "QQKK789"];
        let (deal, moves, unknown) = replay(game, hands, 0, &[(0, Some("A")), (1, None)]);
        assert_eq!(deal.to_move, 2);
        let evidence = Evidence::new(&deal, 2, 0, &moves, &unknown).unwrap();
        assert_eq!(evidence.passes.len(), 1);
        let pinned = [Ranks::default(); 3];
        let (mut fit, mut uniform_fit) = (0, 0);
        let mut rng = CardRng::new(9);
        for _ in 0..200 {
            let world = evidence.sample(&deal, 2, &unknown, &pinned, &mut rng);
            fit += u32::from(evidence.contradictions(&world, 0) == 0);
            let uniform = determinize(&deal, 2, &unknown, &pinned, &mut rng);
            uniform_fit += u32::from(evidence.contradictions(&uniform, 0) == 0);
        }
        assert!(fit > uniform_fit + 50, "{fit} vs {uniform_fit}");
        // A farmer's pass on its partner says nothing.
        let moves = [(0, Some("5")), (1, Some("6")), (2, None), (0, Some("7"))];
        let (deal, moves, unknown) = replay(game, hands, 0, &moves);
        assert_eq!(deal.to_move, 1);
        let evidence = Evidence::new(&deal, 1, 0, &moves, &unknown).unwrap();
        assert!(evidence.passes.is_empty());
    }

    #[test]
    fn histories_that_do_not_fit_are_errors() {
        let game = Game::DouDizhu {
            landlord: 0,
            bid: 1,
        };
        let hands = ["4789TJQKA", "3355667", "3TTJJQQ"];
        let (deal, _, unknown) = replay(game, hands, 0, &[]);
        let bad: [&[(u8, Option<Ranks>)]; 4] = [
            &[(1, Some(r("3")))],
            &[(0, None)],
            &[(0, Some(r("4"))), (1, Some(r("33")))],
            &[(0, Some(r("4"))), (3, None)],
        ];
        for moves in bad {
            let err = Evidence::new(&deal, 0, 0, moves, &unknown).unwrap_err();
            assert!(matches!(err, EngineError::IllegalAction(_)), "{moves:?}");
        }
    }
}
