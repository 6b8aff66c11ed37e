//! Iterating one orbit of the Hénon map in a chosen precision, for `expanse orbit` and for the
//! backdrop of the sink figure.
//!
//! The iteration uses `expanse_core::Fast<f64, N>`, the fast tier that the search and the GPU
//! kernels use, with the parameters rounded to the nearest N-term expansion. Seed 001 Fig. 1
//! shows why the precision matters: at (1.399999486944, 0.3) an orbit looks chaotic for about
//! 5·10⁹ iterations and then settles on a stable periodic orbit.

use crate::error::{Error, ErrorKind, Result};
use expanse_core::{henon_step, Expansion, Fast};

/// Parses a precision: `f64`, `dd`, `td`, `qd`, or a number of terms `1`..`8`.
pub fn parse_prec(s: &str) -> Result<usize> {
    let n = match s.trim().to_ascii_lowercase().as_str() {
        "f64" | "d" | "double" => 1,
        "dd" => 2,
        "td" => 3,
        "qd" => 4,
        other => other.parse::<usize>().unwrap_or(0),
    };
    if (1..=8).contains(&n) {
        Ok(n)
    } else {
        Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("precision {s:?}: expected f64, dd, td, qd or a number of terms 1..8"),
        ))
    }
}

/// The usual name of an N-term precision.
pub fn prec_name(n: usize) -> String {
    match n {
        1 => "f64".into(),
        2 => "dd".into(),
        3 => "td".into(),
        4 => "qd".into(),
        n => format!("{n}-double"),
    }
}

/// What to iterate.
#[derive(Clone, Debug)]
pub struct OrbitSpec {
    /// Parameter a as a decimal string.
    pub a: String,
    /// Parameter b as a decimal string.
    pub b: String,
    /// Initial x as a decimal string.
    pub x0: String,
    /// Initial y as a decimal string.
    pub y0: String,
    /// Iterations performed and not recorded.
    pub skip: u64,
    /// Points recorded after the skip.
    pub count: usize,
    /// Number of f64 terms, 1..=8.
    pub terms: usize,
}

/// An iterated orbit.
#[derive(Clone, Debug, Default)]
pub struct Orbit {
    /// The recorded points, leading terms (for plotting).
    pub points: Vec<(f64, f64)>,
    /// The recorded points as round-trip decimal strings of the full expansions.
    pub text: Vec<(String, String)>,
    /// The iteration (counted from the initial point) at which |x| or |y| exceeded 10⁶ or
    /// became non-finite, if it escaped.
    pub escaped_at: Option<u64>,
}

/// Escape threshold: orbits of the Hénon map near the classical parameters stay in
/// [−2, 2]²; anything this large is on its way to infinity.
const ESCAPE: f64 = 1e6;

fn parse<const N: usize>(s: &str, what: &str) -> Result<Expansion<f64, N>> {
    let v: Expansion<f64, N> = s
        .parse()
        .map_err(|e| Error::new(ErrorKind::InvalidArgument, format!("{what}: {e}")))?;
    if !v.is_finite() {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("{what}: must be finite, got {s:?}"),
        ));
    }
    Ok(v)
}

fn run<const N: usize>(spec: &OrbitSpec, want_text: bool) -> Result<Orbit> {
    let a: Expansion<f64, N> = parse(&spec.a, "a")?;
    let b: Expansion<f64, N> = parse(&spec.b, "b")?;
    let mut x = Fast(parse::<N>(&spec.x0, "x0")?);
    let mut y = Fast(parse::<N>(&spec.y0, "y0")?);
    let mut out = Orbit::default();
    let escaped = |x: &Fast<f64, N>, y: &Fast<f64, N>| {
        let (u, v) = (x.0.hi(), y.0.hi());
        !(u.abs() < ESCAPE && v.abs() < ESCAPE)
    };
    // Skip in blocks, checking for escape once per block (cheap, and an escaped orbit only
    // grows, reaching ∞/NaN which the check also catches).
    let mut done = 0u64;
    while done < spec.skip {
        let block = (spec.skip - done).min(4096);
        for _ in 0..block {
            let (nx, ny) = henon_step(&a, &b, &x, &y);
            x = nx;
            y = ny;
        }
        done += block;
        if escaped(&x, &y) {
            out.escaped_at = Some(done);
            return Ok(out);
        }
    }
    out.points.reserve(spec.count);
    for i in 0..spec.count {
        if escaped(&x, &y) {
            out.escaped_at = Some(spec.skip + i as u64);
            break;
        }
        out.points.push((x.0.to_f64(), y.0.to_f64()));
        if want_text {
            out.text.push((x.0.to_string(), y.0.to_string()));
        }
        let (nx, ny) = henon_step(&a, &b, &x, &y);
        x = nx;
        y = ny;
    }
    Ok(out)
}

/// Iterates the orbit of `spec`: `skip` steps, then records `count` points. With `want_text`
/// the points are also returned as exact decimal strings.
pub fn iterate(spec: &OrbitSpec, want_text: bool) -> Result<Orbit> {
    match spec.terms {
        1 => run::<1>(spec, want_text),
        2 => run::<2>(spec, want_text),
        3 => run::<3>(spec, want_text),
        4 => run::<4>(spec, want_text),
        5 => run::<5>(spec, want_text),
        6 => run::<6>(spec, want_text),
        7 => run::<7>(spec, want_text),
        8 => run::<8>(spec, want_text),
        n => Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("precision: {n} terms is outside 1..8"),
        )),
    }
}

/// The classical Hénon attractor (a = 1.4, b = 0.3) in f64: `count` points after 1000
/// transient steps from (0, 0). Used as the backdrop of the sink figure.
pub fn classical_attractor(count: usize) -> Vec<(f64, f64)> {
    let (a, b) = (1.4f64, 0.3f64);
    let (mut x, mut y) = (0.0f64, 0.0f64);
    let mut pts = Vec::with_capacity(count);
    for i in 0..(1000 + count) {
        let (nx, ny) = henon_step(&a, &b, &x, &y);
        x = nx;
        y = ny;
        if i >= 1000 {
            pts.push((x, y));
        }
    }
    pts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(a: &str, terms: usize, skip: u64, count: usize) -> OrbitSpec {
        OrbitSpec {
            a: a.into(),
            b: "0.3".into(),
            x0: "0".into(),
            y0: "0".into(),
            skip,
            count,
            terms,
        }
    }

    #[test]
    fn period_four_sink_at_a_one() {
        // MATH.md §5: at (1.0, 0.3) the orbit of (0, 0) is attracted to a period-4 sink.
        for terms in [1, 2, 4] {
            let o = iterate(&spec("1.0", terms, 2000, 9), false).unwrap();
            let p = &o.points;
            assert!((p[0].0 - p[4].0).abs() < 1e-12 && (p[4].0 - p[8].0).abs() < 1e-12);
            // …and not of a smaller period.
            assert!((p[0].0 - p[1].0).abs() > 1e-3 && (p[0].0 - p[2].0).abs() > 1e-3);
        }
    }

    #[test]
    fn first_steps_are_exact() {
        // From (0, 0): h = (1, 0), then (1 − a, b) = (0.5, 0.3) for a = 0.5 (exact in binary
        // except b; x stays exact).
        let o = iterate(&spec("0.5", 2, 0, 3), true).unwrap();
        assert_eq!(o.points[0], (0.0, 0.0));
        assert_eq!(o.points[1].0, 1.0);
        assert_eq!(o.points[2].0, 0.5);
        assert_eq!(o.text[1].0.parse::<f64>().unwrap(), 1.0);
    }

    #[test]
    fn escaping_orbits_are_reported() {
        let o = iterate(&spec("3.0", 1, 0, 100), false).unwrap();
        assert!(o.escaped_at.is_some() && o.points.len() < 100);
    }

    #[test]
    fn precisions_parse() {
        assert_eq!(parse_prec("dd").unwrap(), 2);
        assert_eq!(parse_prec("8").unwrap(), 8);
        assert!(parse_prec("9").is_err() && parse_prec("quad").is_err());
    }
}
