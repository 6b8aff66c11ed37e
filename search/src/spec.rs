//! The search spec: raw arguments (strings and counts, as the command line gives them) turned
//! into a validated [`SearchSpec`] that builds the work (ripgrep's "raw flags → high-level
//! config" pattern). Every rejection names the flag at fault.
//!
//! **Parameters.** `--a` and `--b` each take a single decimal value (`1.25`), an explicit list
//! (`1.0,1.25,1.3`) or a range `lo..hi` with a count (`--a-steps n`, n ≥ 2, lo < hi). The
//! parameter set is the product a × b, indexed `p = i_a · n_b + i_b` (b varies fastest). Range
//! points are `lo + i·(hi − lo)/(n − 1)` computed exactly in rationals (the decimal bounds are
//! exact rationals) and then rounded once to the nearest f64; the last point is exactly `hi`.
//! Each value is recorded as an exact decimal — the text given, the grid point's decimal when
//! it terminates, otherwise the exact decimal of the f64 used — and as its exact hex float.
//!
//! **Initial points.** Every parameter gets the same initial points: init indices `0..u` are
//! the user points (`--init-point x,y`, in the order given), then `--inits` random points
//! uniform in the box [−1.3, 1.3] × [−0.4, 0.4] around the attractor. The random point of
//! (seed, init index i) is `x0 = −1.3 + 2.6·U(2i)`, `y0 = −0.4 + 0.8·U(2i + 1)` in f64, where
//! `U(c) = (mix(mix(seed) ^ c) >> 11) · 2⁻⁵³` and `mix` is the SplitMix64 finaliser (Steele,
//! Lea, Flood 2014) applied to `z + 0x9e3779b97f4a7c15`. It is counter-based: any shard,
//! backend or resumed run computes the same point from (seed, i) alone. Sharing the points
//! across parameters makes a chunk "parameters × initial points", the batch shape of the GPU
//! kernels (`expanse_gpu::OrbitBatch`).
//!
//! **Precision.** `--prec` names the search arithmetic: `f64`, `dd`, `td`, `qd` or `1`..`8`
//! terms of an expansion over `--base` (f64 or f32), or `NNNb`, a precision in bits (64..=4096,
//! e.g. `848b`) of the correctly rounded multi-limb float ([`crate::limb`]; f64 base only: the
//! limb type has no f32 form). The spec's JSON records the latter as the string `"848b"`.

use crate::decimal::{exact_decimal_f64, parse_decimal, rational_to_f64, terminating_decimal};
use crate::hexfloat::{format_f64, parse_f64};
use crate::orbit::{Base, OrbitJob};
use crate::Error;
use expanse_gpu::henon_limb::{valid_search_prec, MAX_SEARCH_PREC, MIN_SEARCH_PREC};
use rug::Rational;
use serde_json::{json, Value};

/// The box random initial points are drawn from: x range.
pub const INIT_BOX_X: (f64, f64) = (-1.3, 1.3);
/// The box random initial points are drawn from: y range.
pub const INIT_BOX_Y: (f64, f64) = (-0.4, 0.4);

/// Default return tolerance for f64 terms.
pub const DEFAULT_TOL_F64: &str = "1e-10";
/// Default return tolerance for f32 terms.
pub const DEFAULT_TOL_F32: &str = "1e-5";

/// The arguments of a search as given (before validation).
#[derive(Clone, Debug, Default)]
pub struct RawSpec {
    /// `--a`: value, list or range.
    pub a: String,
    /// `--b`: value, list or range.
    pub b: String,
    /// `--a-steps`: grid count of an `a` range.
    pub a_steps: Option<u64>,
    /// `--b-steps`: grid count of a `b` range.
    pub b_steps: Option<u64>,
    /// `--inits`: random initial points per parameter.
    pub inits: u64,
    /// `--init-point x,y` (repeatable).
    pub init_points: Vec<String>,
    /// `--seed`.
    pub seed: u64,
    /// `--transient` (a whole number; `1e9` accepted).
    pub transient: String,
    /// `--pmax`.
    pub pmax: u64,
    /// `--tol` (default by base).
    pub tol: Option<String>,
    /// `--escape`.
    pub escape: String,
    /// `--prec`: `f64`, `dd`, `td`, `qd`, `1`..`8` (terms), or bits `NNNb` (64..=4096, the
    /// fixed-limb float).
    pub prec: String,
    /// `--base`: `f64` or `f32`.
    pub base: String,
}

/// One parameter value: exact decimal text and the f64 the search runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValue {
    /// A decimal string exact for the value it names (see the module doc).
    pub decimal: String,
    /// The binary value used.
    pub value: f64,
}

impl ParamValue {
    /// `{"decimal": ..., "hex": ...}`.
    pub fn to_json(&self) -> Value {
        json!({"decimal": self.decimal, "hex": format_f64(self.value)})
    }
}

/// The values of one parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Axis {
    /// A single value or an explicit list.
    Values(Vec<ParamValue>),
    /// `lo..hi` with `steps` ≥ 2 points.
    Range {
        /// Lower end (exact).
        lo: Rational,
        /// Upper end (exact).
        hi: Rational,
        /// Number of grid points.
        steps: u64,
    },
}

impl Axis {
    /// Number of values.
    pub fn len(&self) -> u64 {
        match self {
            Axis::Values(v) => v.len() as u64,
            Axis::Range { steps, .. } => *steps,
        }
    }

    /// Always false for a validated axis.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The i-th value.
    pub fn value(&self, i: u64) -> ParamValue {
        match self {
            Axis::Values(v) => v[i as usize].clone(),
            Axis::Range { lo, hi, steps } => {
                let r = if i + 1 == *steps {
                    hi.clone()
                } else {
                    let span = Rational::from(hi - lo);
                    lo.clone() + span * Rational::from((i, steps - 1))
                };
                let value = rational_to_f64(&r);
                let decimal = terminating_decimal(&r).unwrap_or_else(|| exact_decimal_f64(value));
                ParamValue { decimal, value }
            }
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Axis::Values(v) => {
                json!({"values": v.iter().map(ParamValue::to_json).collect::<Vec<_>>()})
            }
            Axis::Range { lo, hi, steps } => json!({"range": {
                "lo": terminating_decimal(lo).unwrap_or_default(),
                "hi": terminating_decimal(hi).unwrap_or_default(),
                "steps": steps,
            }}),
        }
    }
}

/// A validated search spec.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpec {
    /// Values of a.
    pub a: Axis,
    /// Values of b.
    pub b: Axis,
    /// User initial points (init indices 0..len).
    pub init_points: Vec<(f64, f64)>,
    /// Random initial points per parameter (after the user points).
    pub random_inits: u64,
    /// Seed of the random initial points.
    pub seed: u64,
    /// The per-orbit settings (transient, p_max, tol, escape, N, T).
    pub job: OrbitJob,
}

/// Parses a number given as decimal text or as a C99 hex float, rounding to the nearest f64.
fn parse_number(flag: &str, text: &str) -> Result<f64, Error> {
    let t = text.trim();
    let is_hex = t
        .trim_start_matches(['-', '+'])
        .to_ascii_lowercase()
        .starts_with("0x");
    let v = if is_hex {
        parse_f64(t).map_err(|_| Error::spec(flag, format!("{t:?} is not a number")))?
    } else {
        let r =
            parse_decimal(t).ok_or_else(|| Error::spec(flag, format!("{t:?} is not a number")))?;
        rational_to_f64(&r)
    };
    if !v.is_finite() {
        return Err(Error::spec(flag, format!("{t:?} is out of range")));
    }
    Ok(v)
}

fn parse_axis(flag: &str, steps_flag: &str, text: &str, steps: Option<u64>) -> Result<Axis, Error> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Error::spec(flag, "no value given"));
    }
    if let Some((lo_t, hi_t)) = t.split_once("..") {
        let parse = |s: &str| {
            parse_decimal(s)
                .ok_or_else(|| Error::spec(flag, format!("{:?} is not a decimal number", s.trim())))
        };
        let (lo, hi) = (parse(lo_t)?, parse(hi_t)?);
        if lo >= hi {
            return Err(Error::spec(
                flag,
                format!("empty or reversed range {t:?} (need lo < hi)"),
            ));
        }
        for (r, s) in [(&lo, lo_t), (&hi, hi_t)] {
            if !rational_to_f64(r).is_finite() {
                return Err(Error::spec(flag, format!("{:?} is out of range", s.trim())));
            }
        }
        let steps = match steps {
            None => {
                return Err(Error::spec(
                    steps_flag,
                    format!("a range for {flag} needs {steps_flag} (the number of grid points)"),
                ))
            }
            Some(n) if n < 2 => {
                return Err(Error::spec(
                    steps_flag,
                    format!("must be at least 2 for a range, got {n}"),
                ))
            }
            Some(n) => n,
        };
        return Ok(Axis::Range { lo, hi, steps });
    }
    if steps.is_some() {
        return Err(Error::spec(
            steps_flag,
            format!("only applies to a range lo..hi, but {flag} is {t:?}"),
        ));
    }
    let mut values = Vec::new();
    for item in t.split(',') {
        let item = item.trim();
        let r = parse_decimal(item)
            .ok_or_else(|| Error::spec(flag, format!("{item:?} is not a decimal number")))?;
        let value = rational_to_f64(&r);
        if !value.is_finite() {
            return Err(Error::spec(flag, format!("{item:?} is out of range")));
        }
        values.push(ParamValue {
            decimal: item.to_string(),
            value,
        });
    }
    Ok(Axis::Values(values))
}

fn parse_whole(flag: &str, text: &str) -> Result<u64, Error> {
    let t = text.trim();
    let r = parse_decimal(t).ok_or_else(|| Error::spec(flag, format!("{t:?} is not a number")))?;
    if *r.denom() != 1 || r < 0 {
        return Err(Error::spec(
            flag,
            format!("{t:?} is not a whole number ≥ 0"),
        ));
    }
    r.numer()
        .to_u64()
        .ok_or_else(|| Error::spec(flag, format!("{t:?} is too large")))
}

/// What `--prec` names: a number of expansion terms N (`f64`, `dd`, `td`, `qd`, `1`..`8`), or
/// a precision in bits of the fixed-limb float (`NNNb`, 64..=4096), as (terms, bits); a limb
/// precision comes with 8 terms, those of the nearest expansion a record carries.
fn parse_prec(prec: &str, base: Base) -> Result<(usize, Option<u32>), Error> {
    let t = prec.trim();
    if let Some(digits) = t.strip_suffix('b') {
        let bits: u32 = digits.parse().map_err(|_| {
            Error::spec(
                "--prec",
                format!(
                    "{prec:?}: a precision in bits is a whole number followed by `b`, such as 848b"
                ),
            )
        })?;
        if !valid_search_prec(bits) {
            return Err(Error::spec(
                "--prec",
                format!(
                    "{bits} bits is outside {MIN_SEARCH_PREC}..={MAX_SEARCH_PREC} bits (the multi-limb precisions)"
                ),
            ));
        }
        if base == Base::F32 {
            return Err(Error::spec(
                "--prec",
                format!(
                    "{prec:?} is a multi-limb binary precision (64-bit limbs), which has no f32 form; leave --base at f64"
                ),
            ));
        }
        return Ok((8, Some(bits)));
    }
    let named = match t {
        "f64" => Some(1),
        "dd" => Some(2),
        "td" => Some(3),
        "qd" => Some(4),
        _ => None,
    };
    if let Some(n) = named {
        if base == Base::F32 {
            return Err(Error::spec(
                "--prec",
                format!(
                    "{prec:?} names f64 terms, but --base is f32; give the number of terms (1..8)"
                ),
            ));
        }
        return Ok((n, None));
    }
    match t.parse::<i64>() {
        Ok(n) if (1..=8).contains(&n) => Ok((n as usize, None)),
        Ok(n) => Err(Error::spec(
            "--prec",
            format!(
                "{n} terms is outside 1..8 (give bits with a b suffix, such as 848b, for more)"
            ),
        )),
        Err(_) => Err(Error::spec(
            "--prec",
            format!(
                "{prec:?}: expected f64, dd, td, qd, a number of terms 1..8, or bits such as 848b"
            ),
        )),
    }
}

impl SearchSpec {
    /// Validates raw arguments.
    // `!(v > 0.0)` also rejects NaN, which is the point.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub fn from_raw(raw: &RawSpec) -> Result<Self, Error> {
        let a = parse_axis("--a", "--a-steps", &raw.a, raw.a_steps)?;
        let b = parse_axis("--b", "--b-steps", &raw.b, raw.b_steps)?;
        if a.len().checked_mul(b.len()).is_none() {
            return Err(Error::spec(
                "--a-steps",
                "too many parameters (a × b overflows)",
            ));
        }
        let base = match raw.base.trim() {
            "f64" => Base::F64,
            "f32" => Base::F32,
            other => {
                return Err(Error::spec(
                    "--base",
                    format!("{other:?}: expected f64 or f32"),
                ))
            }
        };
        let (terms, limb_bits) = parse_prec(&raw.prec, base)?;
        let mut init_points = Vec::new();
        for p in &raw.init_points {
            let (xs, ys) = p
                .split_once(',')
                .ok_or_else(|| Error::spec("--init-point", format!("{p:?}: expected x,y")))?;
            init_points.push((
                parse_number("--init-point", xs)?,
                parse_number("--init-point", ys)?,
            ));
        }
        let inits_total = (init_points.len() as u64)
            .checked_add(raw.inits)
            .filter(|&n| n <= u32::MAX as u64)
            .ok_or_else(|| Error::spec("--inits", "too many initial points"))?;
        if inits_total == 0 {
            return Err(Error::spec(
                "--inits",
                "zero initial points per parameter (give --inits ≥ 1 or --init-point x,y)",
            ));
        }
        if a.len()
            .checked_mul(b.len())
            .and_then(|p| p.checked_mul(inits_total))
            .is_none()
        {
            return Err(Error::spec(
                "--inits",
                "too many orbits (parameters × inits overflows)",
            ));
        }
        let transient = parse_whole("--transient", &raw.transient)?;
        if raw.pmax == 0 || raw.pmax > u32::MAX as u64 / 2 {
            return Err(Error::spec(
                "--pmax",
                format!("must be in 1..{}, got {}", u32::MAX / 2, raw.pmax),
            ));
        }
        let pmax = raw.pmax as u32;
        let tol_text = raw.tol.clone().unwrap_or_else(|| {
            match base {
                Base::F64 => DEFAULT_TOL_F64,
                Base::F32 => DEFAULT_TOL_F32,
            }
            .to_string()
        });
        let tol = parse_number("--tol", &tol_text)?;
        let in_t = |v: f64| match base {
            Base::F64 => v,
            Base::F32 => v as f32 as f64,
        };
        if !(tol > 0.0) || !(in_t(tol) > 0.0) || !in_t(tol).is_finite() {
            return Err(Error::spec(
                "--tol",
                format!(
                    "{tol_text:?} must be positive and representable in {}",
                    base.name()
                ),
            ));
        }
        let escape = parse_number("--escape", &raw.escape)?;
        if !(escape > 0.0) || !in_t(escape).is_finite() {
            return Err(Error::spec(
                "--escape",
                format!(
                    "{:?} must be positive and finite in {}",
                    raw.escape,
                    base.name()
                ),
            ));
        }
        Ok(Self {
            a,
            b,
            init_points,
            random_inits: raw.inits,
            seed: raw.seed,
            job: OrbitJob {
                transient,
                pmax,
                tol,
                escape,
                terms,
                base,
                limb_bits,
            },
        })
    }

    /// Number of parameters (a × b).
    pub fn param_count(&self) -> u64 {
        self.a.len() * self.b.len()
    }

    /// Initial points per parameter (user points, then random ones).
    pub fn inits_per_param(&self) -> u64 {
        self.init_points.len() as u64 + self.random_inits
    }

    /// The parameter of index p: (a, b).
    pub fn param(&self, p: u64) -> (ParamValue, ParamValue) {
        let nb = self.b.len();
        (self.a.value(p / nb), self.b.value(p % nb))
    }

    /// The initial point of init index `i` (the same for every parameter; see the module
    /// doc).
    pub fn init_point(&self, i: u64) -> (f64, f64) {
        let u = self.init_points.len() as u64;
        if i < u {
            return self.init_points[i as usize];
        }
        random_init_point(self.seed, i)
    }

    /// All initial points, in init order.
    pub fn all_init_points(&self) -> Vec<(f64, f64)> {
        (0..self.inits_per_param())
            .map(|i| self.init_point(i))
            .collect()
    }

    /// The spec as JSON: everything that determines the candidates (used to check that a
    /// resume or a merge belongs to the same search).
    pub fn to_json(&self) -> Value {
        json!({
            "map": "henon",
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "init_points": self.init_points.iter()
                .map(|(x, y)| json!([format_f64(*x), format_f64(*y)])).collect::<Vec<_>>(),
            "inits": self.random_inits,
            "seed": self.seed,
            "init_box": {
                "x": [format_f64(INIT_BOX_X.0), format_f64(INIT_BOX_X.1)],
                "y": [format_f64(INIT_BOX_Y.0), format_f64(INIT_BOX_Y.1)],
            },
            "transient": self.job.transient,
            "pmax": self.job.pmax,
            "tol": format_f64(self.job.tol),
            "escape": format_f64(self.job.escape),
            "prec": match self.job.limb_bits {
                Some(bits) => json!(format!("{bits}b")),
                None => json!(self.job.terms),
            },
            "base": self.job.base.name(),
        })
    }
}

/// SplitMix64 finaliser of `z + golden gamma`.
fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random initial point of (seed, init index), uniform in the init box.
pub fn random_init_point(seed: u64, i: u64) -> (f64, f64) {
    let key = mix(seed);
    let unit = |c: u64| (mix(key ^ c) >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
    let x = INIT_BOX_X.0 + (INIT_BOX_X.1 - INIT_BOX_X.0) * unit(2 * i);
    let y = INIT_BOX_Y.0 + (INIT_BOX_Y.1 - INIT_BOX_Y.0) * unit(2 * i + 1);
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn raw(a: &str, b: &str) -> RawSpec {
        RawSpec {
            a: a.into(),
            b: b.into(),
            inits: 4,
            transient: "1e4".into(),
            pmax: 32,
            escape: "1e3".into(),
            prec: "dd".into(),
            base: "f64".into(),
            ..Default::default()
        }
    }

    #[test]
    fn grid_points_are_exact_rationals_rounded_once() {
        let mut r = raw("1.3999..1.4001", "0.3");
        r.a_steps = Some(3);
        let s = SearchSpec::from_raw(&r).unwrap();
        assert_eq!(s.param_count(), 3);
        let vals: Vec<_> = (0..3).map(|i| s.a.value(i)).collect();
        assert_eq!(vals[0].decimal, "1.3999");
        assert_eq!(vals[1].decimal, "1.4");
        assert_eq!(vals[2].decimal, "1.4001");
        // Rust's parser is correctly rounded: an independent oracle for "rounded once".
        assert_eq!(vals[1].value, 1.4);
        assert_eq!(vals[0].value, "1.3999".parse::<f64>().unwrap());
        // 0..1 in 4 points: 1/3 does not terminate; the decimal names the f64 exactly.
        let mut r = raw("0..1", "0.3");
        r.a_steps = Some(4);
        let s = SearchSpec::from_raw(&r).unwrap();
        let third = s.a.value(1);
        assert_eq!(third.value, 1.0 / 3.0);
        assert_eq!(
            parse_decimal(&third.decimal).unwrap(),
            Rational::from_f64(1.0 / 3.0).unwrap()
        );
    }

    #[test]
    fn lists_and_product_order() {
        let s = SearchSpec::from_raw(&raw("1.0,1.25", "0.2,0.3,0.4")).unwrap();
        assert_eq!(s.param_count(), 6);
        let (a, b) = s.param(4);
        assert_eq!((a.decimal.as_str(), b.decimal.as_str()), ("1.25", "0.3"));
    }

    #[test]
    fn bad_input_names_the_flag() {
        let cases: Vec<(RawSpec, &str)> = vec![
            (
                {
                    let mut r = raw("1.4..1.3", "0.3");
                    r.a_steps = Some(5);
                    r
                },
                "--a",
            ),
            (
                {
                    let mut r = raw("1.4..1.4", "0.3");
                    r.a_steps = Some(5);
                    r
                },
                "--a",
            ),
            (
                {
                    let mut r = raw("1.3..1.4", "0.3");
                    r.a_steps = Some(0);
                    r
                },
                "--a-steps",
            ),
            (raw("1.3..1.4", "0.3"), "--a-steps"),
            (
                {
                    let mut r = raw("1.3", "0.3");
                    r.b_steps = Some(3);
                    r
                },
                "--b-steps",
            ),
            (raw("abc", "0.3"), "--a"),
            (raw("1.4", "0.3,x"), "--b"),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.prec = "9".into();
                    r
                },
                "--prec",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.prec = "0".into();
                    r
                },
                "--prec",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.prec = "hd".into();
                    r
                },
                "--prec",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.base = "f16".into();
                    r
                },
                "--base",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.inits = 0;
                    r
                },
                "--inits",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.pmax = 0;
                    r
                },
                "--pmax",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.transient = "1.5".into();
                    r
                },
                "--transient",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.transient = "lots".into();
                    r
                },
                "--transient",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.tol = Some("-1".into());
                    r
                },
                "--tol",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.escape = "0".into();
                    r
                },
                "--escape",
            ),
            (
                {
                    let mut r = raw("1.4", "0.3");
                    r.init_points = vec!["0.1".into()];
                    r
                },
                "--init-point",
            ),
        ];
        for (r, flag) in cases {
            let e = SearchSpec::from_raw(&r).unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidSpec);
            assert!(e.message.starts_with(flag), "{flag}: {}", e.message);
        }
    }

    #[test]
    fn transient_accepts_exponents_and_init_points_are_counter_based() {
        let mut r = raw("1.4", "0.3");
        r.transient = "1e9".into();
        r.init_points = vec!["0.5,-0.1".into(), "0x1p-1,0".into()];
        let s = SearchSpec::from_raw(&r).unwrap();
        assert_eq!(s.job.transient, 1_000_000_000);
        assert_eq!(s.inits_per_param(), 6);
        assert_eq!(s.init_point(0), (0.5, -0.1));
        assert_eq!(s.init_point(1), (0.5, 0.0));
        let p = s.init_point(3);
        assert_eq!(p, random_init_point(0, 3));
        assert_ne!(p, random_init_point(0, 4));
        assert_ne!(p, random_init_point(1, 3));
        assert_eq!(s.all_init_points().len(), 6);
        // Points fill the box: check bounds and spread over many draws.
        let pts: Vec<_> = (0..4000).map(|i| random_init_point(42, i)).collect();
        assert!(pts
            .iter()
            .all(|&(x, y)| (-1.3..1.3).contains(&x) && (-0.4..0.4).contains(&y)));
        let mean_x = pts.iter().map(|p| p.0).sum::<f64>() / 4000.0;
        assert!(mean_x.abs() < 0.05, "{mean_x}");
        let left = pts.iter().filter(|p| p.0 < -0.65).count();
        assert!((900..1100).contains(&left), "{left}");
    }
}
