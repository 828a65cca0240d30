//! The Hold'em betting core under any table, blinds and move sequence: a move is
//! applied exactly when `illegal_reason` finds nothing wrong, a refused move changes
//! nothing, every listed move is legal, and settling pays out exactly the pot.
#![no_main]

use cardkit_engine::betting::{Betting, Move};
use libfuzzer_sys::fuzz_target;

fn take(bytes: &mut impl Iterator<Item = u8>) -> u8 {
    bytes.next().unwrap_or(0)
}

fn chips(bytes: &mut impl Iterator<Item = u8>) -> u64 {
    // Mostly small amounts, now and then a huge one (up to 2^40).
    let a = u64::from(take(bytes));
    if a >= 250 {
        u64::from(take(bytes)) << (8 * (a - 250) as u32 + 8)
    } else {
        a * 10
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.iter().copied();
    let seats = usize::from(take(&mut bytes) % 13);
    let stacks: Vec<u64> = (0..seats).map(|_| chips(&mut bytes)).collect();
    let in_hand: Vec<bool> = (0..seats).map(|_| take(&mut bytes) % 8 != 0).collect();
    let Ok(mut betting) = Betting::new(stacks, &in_hand, chips(&mut bytes)) else {
        return;
    };
    for seat in 0..2usize {
        let amount = chips(&mut bytes);
        let _ = betting.post_blind(seat, amount);
    }
    for _street in 0..4 {
        let first = usize::from(take(&mut bytes)) % 12;
        if betting.start_round(first).is_err() {
            break;
        }
        for _ in 0..64 {
            let listed = betting.listed(&[0.5, 1.0]);
            if listed.is_empty() {
                break;
            }
            for &code in &listed {
                let mv = Move::from_code(code).expect("a listed code names a move");
                assert_eq!(betting.illegal_reason(mv), None, "listed {mv:?} is illegal");
            }
            let b = take(&mut bytes);
            let mv = match b % 4 {
                0 => Move::from_code(listed[usize::from(b / 4) % listed.len()]).unwrap(),
                1 => [Move::Fold, Move::Check, Move::Call][usize::from(b / 4) % 3],
                _ => Move::To {
                    raising: b & 4 != 0,
                    total: Some(chips(&mut bytes)),
                },
            };
            let before = betting.clone();
            let reason = betting.illegal_reason(mv);
            match betting.apply(mv) {
                Ok(()) => assert_eq!(reason, None),
                Err(_) => {
                    assert!(reason.is_some(), "{mv:?} refused without a reason");
                    assert_eq!(betting, before, "a refused move changed the betting");
                }
            }
        }
        betting.end_round();
    }
    let pot = betting.pot();
    let strength: Vec<u32> = (0..betting.seats())
        .map(|_| u32::from(take(&mut bytes) % 4))
        .collect();
    if let Ok(results) = betting.award(&strength, 0) {
        let paid: u64 = results.iter().map(|r| r.amount).sum();
        assert_eq!(paid, pot, "the pots hold the whole pot");
        for r in &results {
            assert_eq!(r.shares.iter().map(|s| s.1).sum::<u64>(), r.amount);
            assert!(r.shares.iter().all(|s| r.winners.contains(&s.0)));
        }
    }
});
