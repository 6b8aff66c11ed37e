//! The limb floats against MPFR bit for bit: a sample of the shared generator
//! (`expanse_core::limb::check`, every operation × every rounding mode at 113 … 4096 bits; the
//! full 10^6-per-case run is `expanse bench limb --check`).

use expanse_core::limb::check::{check, Op};

/// Operand sets per (operation, precision) in CI.
fn sample(p: u32) -> u64 {
    match p {
        0..=1024 => 2000,
        1025..=2048 => 600,
        _ => 300,
    }
}

fn run(op: Op) {
    let mut bad = Vec::new();
    for p in [113, 128, 256, 512, 848, 1024, 2048, 4096] {
        let r = check(op, p, 0x11b_f10a7, 0, sample(p));
        eprintln!(
            "{} {p} bits: {} sets, {} checks, {} mismatches; to nearest: {} exact, {} ties, {} zero, {} overflow, {} underflow",
            op.name(),
            r.sets,
            r.checks,
            r.mismatches,
            r.exact,
            r.ties,
            r.zeros,
            r.overflows,
            r.underflows
        );
        assert!(r.checks >= r.sets && r.sets == sample(p));
        // The generators reach the hard cases at every precision.
        let need: &[(&str, u64)] = match op {
            Op::Add | Op::Sub => &[
                ("ties", r.ties),
                ("zeros", r.zeros),
                ("overflows", r.overflows),
                ("underflows", r.underflows),
                ("exact", r.exact),
            ],
            Op::Mul | Op::Fma => &[
                ("ties", r.ties),
                ("overflows", r.overflows),
                ("underflows", r.underflows),
                ("exact", r.exact),
            ],
            Op::Div => &[
                ("overflows", r.overflows),
                ("underflows", r.underflows),
                ("exact", r.exact),
            ],
            Op::Sqrt => &[("exact", r.exact)],
            Op::Round => &[("ties", r.ties), ("overflows", r.overflows)],
            Op::ToF64 | Op::Cmp => &[],
        };
        for (what, n) in need {
            assert!(
                *n > 0,
                "{} at {p} bits: no {what} among the operands",
                op.name()
            );
        }
        if op == Op::Fma {
            assert!(r.zeros > 0, "fma at {p} bits: no exact zero");
        }
        if r.mismatches > 0 {
            bad.push(format!(
                "{p} bits: {} mismatches of {}; {:#?}",
                r.mismatches, r.checks, r.first
            ));
        }
    }
    assert!(bad.is_empty(), "{}: {}", op.name(), bad.join("\n"));
}

#[test]
fn add_matches_mpfr() {
    run(Op::Add);
}

#[test]
fn sub_matches_mpfr() {
    run(Op::Sub);
}

#[test]
fn mul_matches_mpfr() {
    run(Op::Mul);
}

#[test]
fn fma_matches_mpfr() {
    run(Op::Fma);
}

#[test]
fn div_matches_mpfr() {
    run(Op::Div);
}

#[test]
fn sqrt_matches_mpfr() {
    run(Op::Sqrt);
}

#[test]
fn rounding_from_longer_precisions_matches_mpfr() {
    run(Op::Round);
}

#[test]
fn to_f64_matches_mpfr() {
    run(Op::ToF64);
}

#[test]
fn comparisons_match_mpfr() {
    run(Op::Cmp);
}
