//! What every target checks of an error: a message a widget or a terminal can show as it is, the
//! rule crate/tests/properties.rs checks (not empty, at most 400 characters).

use transformer_block::Error;

/// The longest message a widget shows.
pub const MAX_MESSAGE: usize = 400;

/// Panics (a finding) unless `e` says what went wrong in at most [`MAX_MESSAGE`] characters.
pub fn shown(e: &Error) {
    let m = e.to_string();
    let n = m.chars().count();
    assert!(n > 0, "an empty error message: {e:?}");
    assert!(
        n <= MAX_MESSAGE,
        "an error message of {n} characters (at most {MAX_MESSAGE}): {}…",
        m.chars().take(300).collect::<String>()
    );
}

/// `Ok` as it is; an error checked by [`shown`].
pub fn checked<T>(r: Result<T, Error>) -> Option<T> {
    r.map_err(|e| shown(&e)).ok()
}
