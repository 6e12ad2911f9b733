//! Parameter formulas as small polynomials in the lesson's symbols, so the same expression gives a
//! count its exact value and its printed form ("4d² + 4d", "2d·f + f + d").
//!
//! A tensor's size is the product of its dimensions; each dimension is a [`Poly`] (`d`, `d_kv`,
//! `4d`). [`Poly::eval`] turns it into a number with checked arithmetic, and `Display` prints it.

use std::collections::BTreeMap;
use std::fmt;

/// The symbols a formula may use, in the order they print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sym {
    /// E: experts in one block.
    E,
    /// V: vocabulary.
    V,
    /// P: rows of a learned position table.
    P,
    /// d: width of the residual stream.
    D,
    /// d_q = h · d_head, used only where it differs from d.
    Dq,
    /// d_kv = n_kv · d_head, used only where it differs from d (grouped key/value heads).
    Dkv,
    /// f: feed-forward width, used only where it is not 4d.
    F,
}

impl Sym {
    fn as_str(self) -> &'static str {
        match self {
            Sym::E => "E",
            Sym::V => "V",
            Sym::P => "P",
            Sym::D => "d",
            Sym::Dq => "d_q",
            Sym::Dkv => "d_kv",
            Sym::F => "f",
        }
    }
}

/// The value of each symbol for one model.
#[derive(Debug, Clone, Copy)]
pub struct Values {
    pub e: u64,
    pub v: u64,
    pub p: u64,
    pub d: u64,
    pub d_q: u64,
    pub d_kv: u64,
    pub f: u64,
}

impl Values {
    fn of(&self, s: Sym) -> u64 {
        match s {
            Sym::E => self.e,
            Sym::V => self.v,
            Sym::P => self.p,
            Sym::D => self.d,
            Sym::Dq => self.d_q,
            Sym::Dkv => self.d_kv,
            Sym::F => self.f,
        }
    }
}

/// A polynomial with non-negative integer coefficients: monomial (sorted symbols) -> coefficient.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Poly(BTreeMap<Vec<Sym>, u64>);

impl Poly {
    pub fn zero() -> Poly {
        Poly::default()
    }

    pub fn constant(c: u64) -> Poly {
        Poly::term(c, &[])
    }

    pub fn sym(s: Sym) -> Poly {
        Poly::term(1, &[s])
    }

    /// c · s1 · s2 · ...
    pub fn term(c: u64, syms: &[Sym]) -> Poly {
        let mut map = BTreeMap::new();
        if c != 0 {
            let mut key = syms.to_vec();
            crate::numbers::sort_small_by(&mut key, |a, b| a < b);
            map.insert(key, c);
        }
        Poly(map)
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    pub fn add(&self, other: &Poly) -> Poly {
        let mut out = self.0.clone();
        for (k, c) in &other.0 {
            *out.entry(k.clone()).or_insert(0) += c;
        }
        Poly(out)
    }

    pub fn mul(&self, other: &Poly) -> Poly {
        let mut out: BTreeMap<Vec<Sym>, u64> = BTreeMap::new();
        for (ka, ca) in &self.0 {
            for (kb, cb) in &other.0 {
                let mut key: Vec<Sym> = ka.iter().chain(kb.iter()).copied().collect();
                crate::numbers::sort_small_by(&mut key, |a, b| a < b);
                *out.entry(key).or_insert(0) += ca * cb;
            }
        }
        Poly(out)
    }

    pub fn scale(&self, c: u64) -> Poly {
        self.mul(&Poly::constant(c))
    }

    /// The product of several dimensions (a tensor's element count).
    pub fn product(dims: &[Poly]) -> Poly {
        dims.iter().fold(Poly::constant(1), |acc, d| acc.mul(d))
    }

    pub fn sum<'a>(polys: impl IntoIterator<Item = &'a Poly>) -> Poly {
        polys.into_iter().fold(Poly::zero(), |acc, p| acc.add(p))
    }

    /// The value for one model; `None` if it does not fit in 64 bits.
    pub fn eval(&self, values: &Values) -> Option<u64> {
        self.0.iter().try_fold(0u64, |acc, (syms, c)| {
            let term = syms.iter().try_fold(*c, |t, s| t.checked_mul(values.of(*s)))?;
            acc.checked_add(term)
        })
    }
}

fn superscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string().chars().map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize]).collect()
}

fn monomial(syms: &[Sym], c: u64) -> String {
    // Group repeated symbols into powers: [d, d, f] -> "d²·f".
    let mut factors: Vec<String> = Vec::new();
    let mut i = 0;
    while i < syms.len() {
        let mut j = i;
        while j < syms.len() && syms[j] == syms[i] {
            j += 1;
        }
        let power = j - i;
        let name = syms[i].as_str();
        factors.push(if power == 1 { name.to_string() } else { format!("{name}{}", superscript(power)) });
        i = j;
    }
    match (c, factors.is_empty()) {
        (_, true) => c.to_string(),
        (1, false) => factors.join("·"),
        (_, false) => format!("{c}{}", factors.join("·")),
    }
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "0");
        }
        // Highest degree first; within a degree, the symbols' order.
        let mut terms: Vec<(&Vec<Sym>, &u64)> = self.0.iter().collect();
        crate::numbers::sort_small_by(&mut terms, |a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(b.0)).is_lt());
        let text: Vec<String> = terms.iter().map(|(s, c)| monomial(s, **c)).collect();
        write!(f, "{}", text.join(" + "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> Values {
        Values { e: 8, v: 50257, p: 1024, d: 768, d_q: 768, d_kv: 768, f: 3072 }
    }

    #[test]
    fn gpt2_attention_prints_and_counts_as_the_lesson_does() {
        let d = Poly::sym(Sym::D);
        let matrix = Poly::product(&[d.clone(), d.clone()]);
        let attention = matrix.scale(4).add(&d.scale(4));
        assert_eq!(attention.to_string(), "4d² + 4d");
        assert_eq!(attention.eval(&values()), Some(2_362_368));
    }

    #[test]
    fn feed_forward_with_f_equal_4d_is_8d2_plus_5d() {
        let d = Poly::sym(Sym::D);
        let f = d.scale(4);
        let ff = Poly::sum([&d.mul(&f), &f, &f.mul(&d), &d]);
        assert_eq!(ff.to_string(), "8d² + 5d");
        assert_eq!(ff.eval(&values()), Some(4_722_432));
    }

    #[test]
    fn mixed_symbols_print_in_order() {
        let p = Poly::term(2, &[Sym::F, Sym::D]).add(&Poly::term(1, &[Sym::D, Sym::Dkv]));
        assert_eq!(p.to_string(), "d·d_kv + 2d·f");
        assert_eq!(Poly::zero().to_string(), "0");
        assert_eq!(Poly::constant(7).to_string(), "7");
    }

    #[test]
    fn eval_reports_overflow_instead_of_wrapping() {
        let huge = Values { e: u64::MAX, ..values() };
        assert_eq!(Poly::term(2, &[Sym::E]).eval(&huge), None);
    }
}
