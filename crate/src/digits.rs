//! Numbers as plain text, for what the crate itself writes (messages, the command line): grouped
//! thousands and a short scientific form. The page formats with `Intl.NumberFormat` instead. A leaf
//! module: it uses nothing else of the crate.

/// 124439808 -> "124,439,808".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A number as text, short: a run of more than 15 digits (how `f64` and `u64` print a huge value,
/// "1000…000" for 1e300) becomes scientific notation with three significant digits ("1e300",
/// "1.23e19"), and so does a tiny one that `f64` prints with more than 6 zeros after the point
/// ("0.000…0001" for 1e-320: "1e-320"); any other text is returned as it is. Works on the text, so
/// the wasm carries no float parsing.
pub fn short_digits(text: &str) -> String {
    let (sign, digits) = text.strip_prefix('-').map_or(("", text), |d| ("-", d));
    if let Some(fraction) = digits.strip_prefix("0.").filter(|f| f.bytes().all(|b| b.is_ascii_digit())) {
        let zeros = fraction.len() - fraction.trim_start_matches('0').len();
        let rest = &fraction[zeros..];
        if zeros > 6 && !rest.is_empty() {
            let tail = rest.get(1..3.min(rest.len())).unwrap_or("").trim_end_matches('0');
            let point = if tail.is_empty() { String::new() } else { format!(".{tail}") };
            return format!("{sign}{}{point}e-{}", &rest[..1], zeros + 1);
        }
    }
    let whole = digits.split('.').next().unwrap_or("");
    if whole.len() <= 15
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !digits[whole.len()..].bytes().all(|b| b == b'.' || b.is_ascii_digit())
    {
        return text.to_string();
    }
    let lead = &whole[..1];
    let rest = whole[1..3].trim_end_matches('0');
    let point = if rest.is_empty() { String::new() } else { format!(".{rest}") };
    format!("{sign}{lead}{point}e{}", whole.len() - 1)
}
