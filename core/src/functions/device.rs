//! What a device port of these functions needs that only this crate knows: the constant tables
//! (as bit patterns of T), the evaluation plans chosen per (T, N) at run time (Taylor degrees,
//! scaling exponents, triple-angle and halving counts, computed with libm's `log2` and `tan`
//! in f64, which a GPU would not reproduce bit for bit), and the f64 constants of the
//! reductions. expanse-gpu generates its CUDA tables from these at program-build time, so the
//! CPU and the GPU read the very same numbers.

use super::constants::{constant_terms, two_over_pi_words, Constant, EXP_TABLE_J, TABLE_TERMS};
use super::constants_table as table;
use crate::float::FloatTerm;

/// One table of terms of T: `rows` × `cols` bit patterns (`T::to_bits_u64`), row-major.
#[derive(Clone, Debug)]
pub struct TermTable {
    /// Name (an identifier, e.g. `"EXP_J256"`).
    pub name: &'static str,
    /// Rows.
    pub rows: usize,
    /// Terms per row.
    pub cols: usize,
    /// The bit patterns, row after row.
    pub bits: Vec<u64>,
}

fn widen32(rows: &[[u32; 12]]) -> Vec<u64> {
    rows.iter().flatten().map(|&b| b as u64).collect()
}

/// The bits of a table stored for both term types: `f64s`, or `f32s` widened.
fn either_bits(f64_terms: bool, f64s: &[u64], f32s: &[u32]) -> Vec<u64> {
    if f64_terms {
        f64s.to_vec()
    } else {
        f32s.iter().map(|&b| b as u64).collect()
    }
}

/// Every table of terms the functions read, for term type T: the constants (`PI`, `E`, `LN2`,
/// `LN10`, `LOG2_E`, `LOG10_E`: 12 terms each), `EXP_J256` and `EXPM1_J256` (e^{j/256} and
/// e^{j/256} − 1 for j = −90..90, 8 terms), `INV_FACT` (1/k!, k = 0..20), `SIN_DEN_INV`,
/// `ATAN_RATIO` (j = 0..60) and `INV_POW3` (j = 0..12), 12 terms each; `CW_PIO2`, the chunks
/// of π/2 of the Cody–Waite reduction (13; f32: 8 and zeros); `LN2_CHUNKS`, the chunks of
/// ln 2 of ln's N = 2 combination (4; f64: 3 and a zero); `ATAN_TAB`, atan(j/256) for
/// j = 0..=256, and `ATAN_INV_ODD`, 1/(2j+1) for j = 0..32 (8 terms each; f32: zeros where a
/// term would be subnormal) of atan's table reduction; `SIN_TAB`, [sin, cos](j/256) for
/// j = 0..=201 (2 terms each), and `COS_DEN_INV`, 1/((2j+1)(2j+2)) for j = 0..7 (2 terms), of
/// the N = 2 table reduction of sin, cos and tan.
pub fn term_tables<T: FloatTerm>() -> Vec<TermTable> {
    let f64_terms = T::PRECISION == 53;
    let mut out = Vec::new();
    for (name, c) in [
        ("PI", Constant::Pi),
        ("E", Constant::E),
        ("LN2", Constant::Ln2),
        ("LN10", Constant::Ln10),
        ("LOG2_E", Constant::Log2E),
        ("LOG10_E", Constant::Log10E),
    ] {
        out.push(TermTable {
            name,
            rows: 1,
            cols: TABLE_TERMS,
            bits: constant_terms::<T>(c)
                .iter()
                .map(|t| t.to_bits_u64())
                .collect(),
        });
    }
    let j_rows = (2 * EXP_TABLE_J + 1) as usize;
    let rows8 = |a: &[[u64; 8]], b: &[[u32; 8]]| -> Vec<u64> {
        if f64_terms {
            a.iter().flatten().copied().collect()
        } else {
            b.iter().flatten().map(|&v| v as u64).collect()
        }
    };
    out.push(TermTable {
        name: "EXP_J256",
        rows: j_rows,
        cols: 8,
        bits: rows8(&table::EXP_J256_F64, &table::EXP_J256_F32),
    });
    out.push(TermTable {
        name: "EXPM1_J256",
        rows: j_rows,
        cols: 8,
        bits: rows8(&table::EXPM1_J256_F64, &table::EXPM1_J256_F32),
    });
    let rows12 = |a: &[[u64; 12]], b: &[[u32; 12]]| -> Vec<u64> {
        if f64_terms {
            a.iter().flatten().copied().collect()
        } else {
            widen32(b)
        }
    };
    for (name, a, b) in [
        (
            "INV_FACT",
            &table::INV_FACT_F64[..],
            &table::INV_FACT_F32[..],
        ),
        (
            "SIN_DEN_INV",
            &table::SIN_DEN_INV_F64[..],
            &table::SIN_DEN_INV_F32[..],
        ),
        (
            "ATAN_RATIO",
            &table::ATAN_RATIO_F64[..],
            &table::ATAN_RATIO_F32[..],
        ),
        (
            "INV_POW3",
            &table::INV_POW3_F64[..],
            &table::INV_POW3_F32[..],
        ),
    ] {
        out.push(TermTable {
            name,
            rows: a.len(),
            cols: 12,
            bits: rows12(a, b),
        });
    }
    use super::exp_log::{LN2_CHUNKS_F32, LN2_CHUNKS_F64, LN2_CHUNKS_MAX};
    out.push(TermTable {
        name: "LN2_CHUNKS",
        rows: 1,
        cols: LN2_CHUNKS_MAX,
        bits: either_bits(f64_terms, &LN2_CHUNKS_F64, &LN2_CHUNKS_F32),
    });
    use super::trig::atan_table::{
        ATAN_INV_ODD_F32, ATAN_INV_ODD_F64, ATAN_INV_ODD_ROWS, ATAN_TAB_F32, ATAN_TAB_F64,
    };
    out.push(TermTable {
        name: "ATAN_TAB",
        rows: ATAN_TAB_F64.len(),
        cols: 8,
        bits: either_bits(
            f64_terms,
            ATAN_TAB_F64.as_flattened(),
            ATAN_TAB_F32.as_flattened(),
        ),
    });
    out.push(TermTable {
        name: "ATAN_INV_ODD",
        rows: ATAN_INV_ODD_ROWS,
        cols: 8,
        bits: either_bits(
            f64_terms,
            ATAN_INV_ODD_F64.as_flattened(),
            ATAN_INV_ODD_F32.as_flattened(),
        ),
    });
    use super::trig::sin_table::{COS_DEN_INV_F32, COS_DEN_INV_F64, SIN_TAB_F32, SIN_TAB_F64};
    out.push(TermTable {
        name: "SIN_TAB",
        rows: SIN_TAB_F64.len(),
        cols: 4,
        bits: either_bits(
            f64_terms,
            SIN_TAB_F64.as_flattened(),
            SIN_TAB_F32.as_flattened(),
        ),
    });
    out.push(TermTable {
        name: "COS_DEN_INV",
        rows: COS_DEN_INV_F64.len(),
        cols: 2,
        bits: either_bits(
            f64_terms,
            COS_DEN_INV_F64.as_flattened(),
            COS_DEN_INV_F32.as_flattened(),
        ),
    });
    use super::trig::trig_reduce::{CW_M_MAX, CW_PIO2_F32, CW_PIO2_F64};
    out.push(TermTable {
        name: "CW_PIO2",
        rows: 1,
        cols: CW_M_MAX,
        bits: either_bits(f64_terms, &CW_PIO2_F64, &CW_PIO2_F32),
    });
    out
}

/// The 48 words of the bits of 2/π (Payne–Hanek reduction; the same for both term types).
pub fn two_over_pi() -> [u64; 48] {
    *two_over_pi_words()
}

/// Integer parameters of the algorithms for term type T, by name, each a list indexed by
/// N − 1 (N = 1..8) unless said otherwise:
/// - `EXP_D`, `EXP_SIG` (and `EXP_D_T`, `EXP_SIG_T` for exp's table step): Taylor degree d
///   and scaling exponent σ_N of the exp_m1 core (`exp_log::cached_params` with e_max = −1,
///   and with `EXP_EMAX`);
/// - `SIN_K`, `SIN_J`: the sine kernel's triple-angle steps and Taylor steps;
/// - `ATAN_H`, `ATAN_J`: atan's halvings and series steps;
/// - `ATAN_TAB`: [K, J_max at N = 2, first one-term step at N = 2, σ of the staged plan at
///   N ≥ 3] of atan's table reduction (one list); `ATAN_TAB_J`: its J_T per N;
/// - `SIN_TAB`: [K, J_sin, J_cos, H, rows] of the N = 2 table reduction of sin, cos and tan
///   (`trig::sin_table::sin_tab_plan`; one list);
/// - `LN2_CK`: [m, b] of ln's N = 2 combination (`exp_log::ln2_chunk_plan`; one list);
/// - `CW_M`, `CW_C`, `CW_B`: the Cody–Waite reduction's plan (m chunks, 0 = not used; the
///   lower check 2^−c; |q| < 2^b);
/// - `CONST`: [EXP_EMAX, EXP_TABLE_J, MAX_NEWTON, W_MAX, TABLE_TERMS, SIN_DD_F64_FROM,
///   ATAN_DD_F64_FROM] (one each).
pub fn int_params<T: FloatTerm>() -> Vec<(&'static str, Vec<i64>)> {
    let p = T::PRECISION;
    let per_n = |f: &dyn Fn(usize) -> i64| -> Vec<i64> { (1..=8).map(f).collect() };
    let emax = super::exp_log::EXP_EMAX;
    vec![
        (
            "EXP_D",
            per_n(&|n| super::exp_log::cached_params::<T>(n, -1).0 as i64),
        ),
        (
            "EXP_SIG",
            per_n(&|n| super::exp_log::cached_params::<T>(n, -1).1 as i64),
        ),
        (
            "EXP_D_T",
            per_n(&|n| super::exp_log::cached_params::<T>(n, emax).0 as i64),
        ),
        (
            "EXP_SIG_T",
            per_n(&|n| super::exp_log::cached_params::<T>(n, emax).1 as i64),
        ),
        ("SIN_K", per_n(&|n| super::trig::sin_plan(p, n).0 as i64)),
        ("SIN_J", per_n(&|n| super::trig::sin_plan(p, n).1 as i64)),
        ("ATAN_H", per_n(&|n| super::trig::atan_plan(p, n).0 as i64)),
        ("ATAN_J", per_n(&|n| super::trig::atan_plan(p, n).1 as i64)),
        (
            "ATAN_TAB",
            vec![
                super::trig::atan_table::ATAN_TAB_K as i64,
                super::trig::atan_tab_steps(p, 2) as i64,
                super::trig::ATAN_TAB_ONE_FROM as i64,
                super::trig::ATAN_TAB_SIG as i64,
            ],
        ),
        (
            "ATAN_TAB_J",
            per_n(&|n| super::trig::atan_tab_steps(p, n) as i64),
        ),
        ("SIN_TAB", {
            let (js, jc, h) = super::trig::sin_table::sin_tab_plan(p);
            vec![
                super::trig::sin_table::SIN_TAB_K as i64,
                js as i64,
                jc as i64,
                h as i64,
                super::trig::sin_table::SIN_TAB_ROWS as i64,
            ]
        }),
        ("LN2_CK", {
            let (m, b) = super::exp_log::ln2_chunk_plan::<T>();
            vec![m as i64, b as i64]
        }),
        (
            "CW_M",
            per_n(&|n| super::trig::trig_reduce::cw_plan(p, n).0 as i64),
        ),
        (
            "CW_C",
            per_n(&|n| super::trig::trig_reduce::cw_plan(p, n).1 as i64),
        ),
        (
            "CW_B",
            per_n(&|n| super::trig::trig_reduce::cw_plan(p, n).2 as i64),
        ),
        (
            "CONST",
            vec![
                emax as i64,
                EXP_TABLE_J as i64,
                super::exp_log::MAX_NEWTON as i64,
                super::trig::trig_reduce::W_MAX as i64,
                TABLE_TERMS as i64,
                super::trig::SIN_DD_F64_FROM as i64,
                super::trig::ATAN_DD_F64_FROM as i64,
            ],
        ),
    ]
}

/// f64 constants of the algorithms, by name: `LN2_HI`, `LN2_LO` (exp's choice of j),
/// `LOG2_E`, `SQRT_2`, `LN_2`, `R_MAX` (bound of the reduced trigonometric argument),
/// `FRAC_2_PI` and `CW_R_HI` (the Cody–Waite reduction's q and upper check), `LN_R1` and
/// `LN_R2` (the reciprocal tables of ln at f64 N = 2, four numbers per row: r and the three
/// terms of −ln r; rows for j = 90..=182 and −91..=91), and `ATAN_Z_LIM` for term type T, a
/// list indexed by N − 1 (tan(π/2^{h+2}) for the plan's h).
pub fn f64_params<T: FloatTerm>() -> Vec<(&'static str, Vec<f64>)> {
    let p = T::PRECISION;
    vec![
        ("LN2_HI", vec![super::exp_log::LN2_HI]),
        ("LN2_LO", vec![super::exp_log::LN2_LO]),
        ("LOG2_E", vec![core::f64::consts::LOG2_E]),
        ("SQRT_2", vec![core::f64::consts::SQRT_2]),
        ("LN_2", vec![core::f64::consts::LN_2]),
        ("R_MAX", vec![super::trig::R_MAX]),
        ("FRAC_2_PI", vec![core::f64::consts::FRAC_2_PI]),
        ("CW_R_HI", vec![super::trig::trig_reduce::CW_R_HI]),
        (
            "LN_R1",
            super::ln_table::LN_R1
                .iter()
                .flatten()
                .map(|&b| f64::from_bits(b))
                .collect(),
        ),
        (
            "LN_R2",
            super::ln_table::LN_R2
                .iter()
                .flatten()
                .map(|&b| f64::from_bits(b))
                .collect(),
        ),
        (
            "ATAN_Z_LIM",
            (1..=8)
                .map(|n| super::trig::atan_z_lim(super::trig::atan_plan(p, n).0))
                .collect(),
        ),
    ]
}
