//! Plain-text number formatting for messages and the command line. (The page formats with
//! `Intl.NumberFormat`; this is for text the crate itself writes.)

pub use crate::digits::{short_digits, thousands};
use crate::error::{Error, Result};
use crate::messages::{self, Phrase};

/// A count typed into the page arrives as a JavaScript number: accept it only if it is a whole,
/// non-negative number that a `u64` holds exactly.
pub fn whole_number(what: &str, x: f64) -> Result<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0; // 2^53 - 1
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= MAX_SAFE {
        Ok(x as u64)
    } else if x.is_finite() && x > MAX_SAFE {
        let allowed = Phrase::of(messages::WHOLE_UP_TO).count("max", MAX_SAFE as u64);
        Err(Error::out_of_range(what, x, allowed))
    } else {
        Err(Error::out_of_range(what, x, "it must be a whole number (0, 1, 2, ...)"))
    }
}

/// Sort a short list in place, stably, by `less` (insertion sort). The lists this crate sorts hold a
/// few dozen items at most (experts, symbols of a monomial, terms of a formula, a vocabulary), and
/// the standard library's sort, compiled once per element type, adds kilobytes to the wasm each time.
pub fn sort_small_by<T>(items: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && less(&items[j], &items[j - 1]) {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_digit_runs_become_scientific_and_everything_else_stays() {
        use super::short_digits;
        assert_eq!(short_digits(&1e300f64.to_string()), "1e300");
        assert_eq!(short_digits(&12345678901234567890u64.to_string()), "1.23e19");
        assert_eq!(short_digits(&(-2.5e20f64).to_string()), "-2.5e20");
        assert_eq!(short_digits("123456789012345"), "123456789012345");
        assert_eq!(short_digits("1.5"), "1.5");
        assert_eq!(short_digits(&1e-320f64.to_string()), "1e-320");
        assert_eq!(short_digits(&(-2.345e-9f64).to_string()), "-2.34e-9");
        assert_eq!(short_digits("0.0000012"), "0.0000012");
        assert_eq!(short_digits("NaN"), "NaN");
        assert_eq!(short_digits("abcdefghijklmnopqrstuvwxyz"), "abcdefghijklmnopqrstuvwxyz");
        let err = super::whole_number("seq_len", 1e300).unwrap_err().to_string();
        assert_eq!(
            err,
            "seq_len 1e300 is out of range: it is far too large: give a whole number up to 9,007,199,254,740,991"
        );
    }

    use super::{sort_small_by, thousands, whole_number};

    #[test]
    fn small_sorts_are_stable() {
        let mut v = [(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e')];
        sort_small_by(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, [(0, 'd'), (1, 'b'), (1, 'e'), (3, 'a'), (3, 'c')]);
        let mut empty: [u8; 0] = [];
        sort_small_by(&mut empty, |a, b| a < b);
    }

    #[test]
    fn groups_digits_in_threes() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(124_439_808), "124,439,808");
    }

    #[test]
    fn whole_numbers_only() {
        assert_eq!(whole_number("seq_len", 8.0), Ok(8));
        for bad in [-1.0, 2.5, f64::NAN, f64::INFINITY, 1e300] {
            let e = whole_number("seq_len", bad).unwrap_err().to_string();
            assert!(e.starts_with("seq_len ") && e.contains("whole number"), "{e}");
        }
    }
}
