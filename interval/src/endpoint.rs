//! Endpoint formulas shared by the kinds that compute endpoints themselves (Exp and Mp):
//! the sign-case tables for multiplication and division (IEEE 1788 / Hickey, Ju, van Emden
//! 2001), written once over closures that round down or up.
//!
//! Convention: the endpoint product 0 · (±∞) is 0. With this convention the tables give the
//! closure of { x·y } also for unbounded operands (0 times any real is 0).

/// Sign class of a non-empty interval [a, b].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// a ≥ 0 (includes [0, 0]).
    P,
    /// b ≤ 0 (and a < 0).
    N,
    /// a < 0 < b.
    M,
}

/// Classifies [a, b] from the signs of its endpoints (−1, 0, +1).
#[inline(always)]
pub(crate) fn classify(sa: i8, sb: i8) -> Class {
    if sa >= 0 {
        Class::P
    } else if sb <= 0 {
        Class::N
    } else {
        Class::M
    }
}

/// Endpoints of [a, b]·[c, d] by the nine-case table. `down`/`up` multiply rounding down/up
/// (and must return 0 when a factor is 0); `lt` compares exactly.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn mul_table<E>(
    (a, b): (&E, &E),
    (c, d): (&E, &E),
    cx: Class,
    cy: Class,
    down: impl Fn(&E, &E) -> E,
    up: impl Fn(&E, &E) -> E,
    lt: impl Fn(&E, &E) -> bool,
) -> (E, E) {
    use Class::*;
    match (cx, cy) {
        (P, P) => (down(a, c), up(b, d)),
        (P, M) => (down(b, c), up(b, d)),
        (P, N) => (down(b, c), up(a, d)),
        (M, P) => (down(a, d), up(b, d)),
        (M, M) => {
            let l1 = down(a, d);
            let l2 = down(b, c);
            let h1 = up(a, c);
            let h2 = up(b, d);
            let lo = if lt(&l2, &l1) { l2 } else { l1 };
            let hi = if lt(&h1, &h2) { h2 } else { h1 };
            (lo, hi)
        }
        (M, N) => (down(b, c), up(a, c)),
        (N, P) => (down(a, d), up(b, c)),
        (N, M) => (down(a, d), up(a, c)),
        (N, N) => (down(b, d), up(a, c)),
    }
}

/// Endpoints of [a, b]/[c, d] for a divisor that does not contain zero (c > 0 or d < 0).
/// `divisor_positive` says which. No ∞/∞ or 0/0 arises for valid intervals.
#[inline(always)]
pub(crate) fn div_table<E>(
    (a, b): (&E, &E),
    (c, d): (&E, &E),
    cx: Class,
    divisor_positive: bool,
    down: impl Fn(&E, &E) -> E,
    up: impl Fn(&E, &E) -> E,
) -> (E, E) {
    use Class::*;
    if divisor_positive {
        match cx {
            P => (down(a, d), up(b, c)),
            M => (down(a, c), up(b, c)),
            N => (down(a, c), up(b, d)),
        }
    } else {
        match cx {
            P => (down(b, d), up(a, c)),
            M => (down(b, d), up(a, d)),
            N => (down(b, c), up(a, d)),
        }
    }
}
