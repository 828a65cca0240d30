//! Hold'em range text: every input parses or is an error, weights stay in (0, 1],
//! combos are two different cards, and a range's own text parses to the same range.
#![no_main]

use cardkit_engine::poker::Range;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(range) = Range::parse(text) {
        assert!(range.combos().len() <= 1326);
        for &(combo, weight) in range.combos() {
            assert!(combo.0 != combo.1);
            assert!(weight > 0.0 && weight <= 1.0, "weight {weight}");
        }
        let again = Range::parse(range.text()).unwrap();
        assert_eq!(again.combos(), range.combos());
    }
});
