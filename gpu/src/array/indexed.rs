//! # Index-generated arrays: data computed from the index, summed without being stored
//!
//! Some of the seeds' applications sum values that are a function of the index alone: the
//! reproducible-summation data set (10⁹ values generated from a seed) and the N/2 terms of
//! the Quinn–Rand–Strogatz equation in each Newton step (seed 000 §5.2). Storing them first
//! would cost N·8 bytes per term and a pass over memory; [`Arrays::indexed_sum`] instead
//! computes each element where the reduction needs it (a fused map + reduce: on the device the
//! kernels `arr_gen_red_*` of `cuda/arrays.cu`, which read nothing and write one partial per
//! tile), in **exactly the order of [`ExpArray::sum`]**, so
//! `arrays.indexed_sum(&map)` equals `arrays.indexed::<_, N>(&map)?.sum_bounded()` bit for bit
//! (value and bound), and the two backends agree bit for bit as for every other primitive.
//!
//! The generators ([`IndexMap`]) are defined once in Rust here ([`summation_value`],
//! [`qrs_term`], [`qrs_slope`]) and once in CUDA (`gen_*` in `cuda/arrays.cu`), operation for
//! operation; `check::compare` (the host build in the tests, `expanse bench arrays --check` on
//! a GPU) proves the two identical. They need `f64` terms.

use super::{exp_of_sc, invalid, sc_of, ArrayTerm, Arrays, Bounded, ExpArray, Raw, Sc, TermKind};
use crate::error::GpuError;
use expanse_core::Expansion;

/// What an index-generated array holds (element i a function of i).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IndexMap {
    /// The reproducible-summation data set of `expanse-apps` ([`summation_value`]): `n`
    /// values from `seed`.
    Summation {
        /// The seed.
        seed: u64,
        /// Number of values (the array's length).
        n: u64,
    },
    /// The terms j = 0..n/2 of the QRS sum at δ = 1 − s ([`qrs_term`]), δ's terms widened to
    /// f64 (build with [`IndexMap::qrs_term`]).
    QrsTerm {
        /// N of the QRS equation (even, ≥ 2); the array has n/2 elements.
        n: u64,
        /// δ's terms, zero-padded.
        delta: [f64; 8],
    },
    /// The terms j = 0..n/2 of dF/dδ in f64 ([`qrs_slope`]) at δ ≈ `delta_hi`.
    QrsSlope {
        /// N of the QRS equation (even, ≥ 2).
        n: u64,
        /// δ's leading term.
        delta_hi: f64,
    },
}

impl IndexMap {
    /// The summation data set.
    pub fn summation(seed: u64, n: u64) -> Self {
        IndexMap::Summation { seed, n }
    }

    /// The QRS terms at δ (any number of terms; an array of fewer terms sees δ truncated).
    pub fn qrs_term<const N: usize>(n: u64, delta: &Expansion<f64, N>) -> Self {
        IndexMap::QrsTerm {
            n,
            delta: sc_of(delta),
        }
    }

    /// The QRS slope terms at δ ≈ `delta_hi`.
    pub fn qrs_slope(n: u64, delta_hi: f64) -> Self {
        IndexMap::QrsSlope { n, delta_hi }
    }

    /// Number of elements.
    pub fn len(&self) -> u64 {
        match *self {
            IndexMap::Summation { n, .. } => n,
            IndexMap::QrsTerm { n, .. } | IndexMap::QrsSlope { n, .. } => n / 2,
        }
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kernel's generator code and arguments (gen, Sc, p0, p1): `gen_leaf` in
    /// cuda/arrays.cu.
    pub(crate) fn kernel_args(&self) -> (i32, Sc, u64, u64) {
        match *self {
            IndexMap::Summation { seed, n } => (0, [0.0; 8], seed, n),
            IndexMap::QrsTerm { n, delta } => (1, delta, 0, n),
            IndexMap::QrsSlope { n, delta_hi } => {
                let mut d = [0.0; 8];
                d[0] = delta_hi;
                (2, d, 0, n)
            }
        }
    }

    fn validate<T: ArrayTerm>(&self) -> Result<usize, GpuError> {
        if T::KIND != TermKind::F64 {
            return Err(invalid("index-generated arrays need f64 terms"));
        }
        match *self {
            IndexMap::QrsTerm { n, .. } | IndexMap::QrsSlope { n, .. }
                if n < 2 || n % 2 != 0 || n > 1 << 52 =>
            {
                return Err(invalid(format!(
                    "the QRS sum needs an even N in 2..=2^52, not {n}"
                )))
            }
            _ => {}
        }
        usize::try_from(self.len()).map_err(|_| invalid("index map too long for this host"))
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014).
pub fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 2^k for −1022 ≤ k ≤ 1023, exactly.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// ±m·2^(e−52) with a 53-bit m from `h`, e in [lo, hi].
fn draw(h: u64, lo: i32, hi: i32) -> f64 {
    let m = (h >> 11) | (1u64 << 52);
    let span = (hi - lo + 1) as u64;
    let e = lo + (splitmix(h) % span) as i32;
    let v = m as f64 * pow2(e - 52);
    if h & 1 == 1 {
        -v
    } else {
        v
    }
}

/// True when pair `p` of the summation data set is a signal pair (else cancelling).
pub fn summation_is_signal_pair(seed: u64, p: u64) -> bool {
    splitmix(seed ^ p.wrapping_mul(0xD1B5_4A32_D192_ED03)) % 4 == 3
}

fn signal(seed: u64, i: u64) -> f64 {
    draw(
        splitmix(seed.rotate_left(17) ^ i.wrapping_mul(0xA24B_AED4_963E_E407)),
        -600,
        0,
    )
}

/// Value i of the summation data set of `n` values from `seed` (`expanse_apps::summation`
/// describes it): index i < n/2 and i + n/2 form a pair; three pairs in four are x and −x with
/// |x| ∈ [2^−30, 2^21), the fourth two independent values with |x| ∈ [2^−600, 2^1); an odd
/// last index is a signal value.
pub fn summation_value(seed: u64, n: u64, i: u64) -> f64 {
    let half = n / 2;
    if i >= 2 * half {
        return signal(seed, i);
    }
    let p = i % half;
    if summation_is_signal_pair(seed, p) {
        return signal(seed, i);
    }
    let x = draw(
        splitmix(seed ^ p.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        -30,
        20,
    );
    if i >= half {
        -x
    } else {
        x
    }
}

/// Term j (0 ≤ j < n/2) of the QRS sum F_N(1 − δ)/2 in the accurate tier:
/// (2Q − M²)/(M·√Q) with M = n − 1, k = M − 2j and Q = (2j + δk)(2(M − j) − δk), which is
/// M²(1 − s²t_j²) formed without cancellation (`expanse_apps::qrs` derives it).
pub fn qrs_term<const N: usize>(n: u64, delta: &Expansion<f64, N>, j: u64) -> Expansion<f64, N> {
    let m1 = (n - 1) as f64;
    let m2 = Expansion::<f64, N>::from_term(m1).mul_term(m1);
    let k = (n - 1 - 2 * j) as f64;
    let dk = delta.mul_term(k);
    let a = dk.add_term(2.0 * j as f64);
    let b = dk.neg().add_term(2.0 * (n - 1 - j) as f64);
    let q = a.mul(&b);
    let r = q.sqrt();
    q.ldexp(1).sub(&m2).div(&r.mul_term(m1))
}

/// Term j of dF_N/dδ / 2 in f64 at δ ≈ `d_hi`: s·t²·(2q + 1)/q^{3/2} with q = Q/M², t = k/M,
/// s = 1 − δ (Q in f64 as in [`qrs_term`]; only Newton's convergence rate depends on it).
pub fn qrs_slope(d_hi: f64, n: u64, j: u64) -> f64 {
    let m1 = (n - 1) as f64;
    let k = (n - 1 - 2 * j) as f64;
    let dk = d_hi * k;
    let a = dk + 2.0 * j as f64;
    let b = 2.0 * (n - 1 - j) as f64 - dk;
    let qf = (a * b) / (m1 * m1);
    let tf = k / m1;
    let s = 1.0 - d_hi;
    s * tf * tf * (2.0 * qf + 1.0) / (qf * qf.sqrt())
}

/// Element i of `map` as an N-term expansion (f64 terms): the host mirror of `gen_leaf`.
pub(crate) fn leaf<const N: usize>(map: &IndexMap, i: u64) -> Expansion<f64, N> {
    match *map {
        IndexMap::Summation { seed, n } => Expansion::from_term(summation_value(seed, n, i)),
        IndexMap::QrsTerm { n, delta } => qrs_term(n, &exp_of_sc::<f64, N>(&delta), i),
        IndexMap::QrsSlope { n, delta_hi } => Expansion::from_term(qrs_slope(delta_hi, n, i)),
    }
}

impl Arrays {
    /// The elements of `map` as an array (on GPU 0 for the device backend).
    pub fn indexed<T: ArrayTerm, const N: usize>(
        &self,
        map: &IndexMap,
    ) -> Result<ExpArray<T, N>, GpuError> {
        let len = map.validate::<T>()?;
        let raw: Raw = match self.dev() {
            None => super::host::gen_fill(map, N, len),
            Some(d) => d.gen_fill(map, T::KIND, N, len)?,
        };
        Ok(ExpArray::from_raw(raw, self.clone()))
    }

    /// Σ of the elements of `map` in the order of [`ExpArray::sum`], with the bound of
    /// [`ExpArray::sum_bounded`] (|value − Σ elements| ≤ err, the elements being the generated
    /// expansions; the generators' own rounding is not part of it). Nothing is stored.
    pub fn indexed_sum<T: ArrayTerm, const N: usize>(
        &self,
        map: &IndexMap,
    ) -> Result<Bounded<Expansion<T, N>>, GpuError> {
        let len = map.validate::<T>()?;
        let r = match self.dev() {
            None => super::host::gen_reduce(map, N, len, false),
            Some(d) => d.gen_reduce(map, T::KIND, N, len, false)?,
        };
        Ok(super::bounded_sum_of::<T, N>(r, len))
    }

    /// Σ of the elements of `map` as [`ExpArray::sum_accurate`] computes it (accumulators of
    /// [`super::acc_terms`]`(N)` terms, rounded to N, with its bound). Nothing is stored.
    pub fn indexed_sum_accurate<T: ArrayTerm, const N: usize>(
        &self,
        map: &IndexMap,
    ) -> Result<Bounded<Expansion<T, N>>, GpuError> {
        let len = map.validate::<T>()?;
        let r = match self.dev() {
            None => super::host::gen_reduce(map, N, len, true),
            Some(d) => d.gen_reduce(map, T::KIND, N, len, true)?,
        };
        Ok(super::accurate_sum_of::<T, N>(r, len))
    }
}
