//! The Hénon map, its Jacobian, and the interval matrix/vector products over every kind:
//! containment of exact MPFR results at sample points, and known facts about the map
//! (the fixed point at (1.4, 0.3) is a saddle; det Dh = −b; the period-4 sink at a = 1,
//! b = 0.3 has a monodromy with |tr| < 1 + det).
#![allow(clippy::needless_range_loop)]

use crate::common::*;
use expanse_interval::matrix::{dmat_identity, dmat_mul, dmat_norm_inf_up, dmat_vec_mul};
use expanse_interval::{
    henon_jacobian, henon_step_interval, ErrorKind, ExpInterval, F64Interval, IMat2, IVec2,
    IntervalArith, MpCtx, MpInterval,
};
use nalgebra::{DMatrix, DVector};
use rug::Float;

fn f(v: &Float) -> Float {
    Float::with_val(ORACLE, v)
}

/// A random bounded interval: a point, a thin box or a wide one, around a value in [-2, 2].
fn box_spec(rng: &mut Rng) -> (Float, Float) {
    let v = value(rng, Scale::Unit);
    let k = match rng.below(3) {
        0 => return (v.clone(), v),
        1 => rng.range(20, 300) as i32,
        _ => rng.range(1, 8) as i32,
    };
    let w = Float::with_val(ORACLE, v.clone().abs() >> k);
    (
        Float::with_val(ORACLE, &v - &w),
        Float::with_val(ORACLE, &v + &w),
    )
}

fn build_box<I: IntervalArith>(ctx: &I::Ctx, s: &(Float, Float)) -> I {
    I::from_rug_bounds(ctx, &s.0, &s.1).unwrap()
}

fn henon_containment<I: IntervalArith>(ctx: &I::Ctx, name: &str, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut cases = 0u64;
    let a = I::from_decimal_bounds(ctx, "1.3999", "1.4001")
        .unwrap()
        .interval;
    let b = I::from_decimal(ctx, "0.3").unwrap().interval;
    for _ in 0..200 {
        let x: I = build_box(ctx, &box_spec(&mut rng));
        let y: I = build_box(ctx, &box_spec(&mut rng));
        let z = IVec2::new(x.clone(), y.clone());
        let h = henon_step_interval(&a, &b, &z);
        let j = henon_jacobian(&a, &b, &x);
        for av in samples(&mut rng, &a, 1) {
            for bv in samples(&mut rng, &b, 0) {
                for xv in samples(&mut rng, &x, 1) {
                    for yv in samples(&mut rng, &y, 1) {
                        // x' = 1 + y − a·x², y' = b·x, exactly at 4096 bits.
                        let x2 = f(&xv) * &xv;
                        let nx = f(&yv) + 1u32 - f(&av) * &x2;
                        let ny = f(&bv) * &xv;
                        let w = || format!("{name}: a={av} b={bv} x={xv} y={yv}");
                        assert_in(&h.0[0], &nx, &nx, &|| format!("henon x' {}", w()));
                        assert_in(&h.0[1], &ny, &ny, &|| format!("henon y' {}", w()));
                        let j00 = f(&av) * &xv * (-2i32);
                        assert_in(j.get(0, 0), &j00, &j00, &|| format!("jac 00 {}", w()));
                        assert_in(j.get(1, 0), &bv, &bv, &|| format!("jac 10 {}", w()));
                        cases += 2;
                    }
                }
            }
        }
        assert!(j.get(0, 1).is_point() && j.get(0, 1).contains_f64(1.0));
        assert!(j.get(1, 1).is_point() && j.get(1, 1).contains_f64(0.0));
    }
    cases
}

#[test]
fn henon_step_and_jacobian_contain_exact_values() {
    let mut n = 0;
    n += henon_containment::<F64Interval>(&(), "f64", 31);
    n += henon_containment::<ExpInterval<2>>(&(), "exp2", 32);
    n += henon_containment::<ExpInterval<4>>(&(), "exp4", 33);
    n += henon_containment::<MpInterval>(&MpCtx::new(212).unwrap(), "mpfr212", 34);
    println!("henon containment: {n} cases, 0 violations");
}

/// Random interval 2×2 matrix and a random point matrix inside it (a corner or a random
/// interior point per entry).
fn mat_with_points<I: IntervalArith>(
    rng: &mut Rng,
    ctx: &I::Ctx,
) -> (IMat2<I>, Vec<[[Float; 2]; 2]>) {
    let e: Vec<I> = (0..4).map(|_| build_box(ctx, &box_spec(rng))).collect();
    let m = IMat2::new(e[0].clone(), e[1].clone(), e[2].clone(), e[3].clone());
    let mut pts = vec![];
    for _ in 0..3 {
        let pick = |rng: &mut Rng, x: &I| {
            let s = samples(rng, x, 1);
            s[rng.below(s.len() as u64) as usize].clone()
        };
        pts.push([
            [pick(rng, &e[0]), pick(rng, &e[1])],
            [pick(rng, &e[2]), pick(rng, &e[3])],
        ]);
    }
    (m, pts)
}

fn exact_mul(a: &[[Float; 2]; 2], b: &[[Float; 2]; 2]) -> [[Float; 2]; 2] {
    let e = |r: usize, c: usize| f(&a[r][0]) * &b[0][c] + f(&a[r][1]) * &b[1][c];
    [[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]]
}

fn matrix_containment<I: IntervalArith>(ctx: &I::Ctx, name: &str, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut cases = 0;
    for _ in 0..150 {
        let (a, pa) = mat_with_points::<I>(&mut rng, ctx);
        let (b, pb) = mat_with_points::<I>(&mut rng, ctx);
        let ab = a.mul(&b);
        let tr = a.trace();
        let det = a.det();
        let v = IVec2::new(b.get(0, 0).clone(), b.get(1, 0).clone());
        let av = a.mul_vec(&v);
        for p in &pa {
            for q in &pb {
                let e = exact_mul(p, q);
                for r in 0..2 {
                    for c in 0..2 {
                        assert_in(ab.get(r, c), &e[r][c], &e[r][c], &|| {
                            format!("{name}: 2×2 product entry ({r},{c})")
                        });
                        cases += 1;
                    }
                    // v is the first column of b, so A·v is the first column of A·B.
                    assert_in(&av.0[r], &e[r][0], &e[r][0], &|| format!("{name}: mat-vec"));
                }
            }
            let t = f(&p[0][0]) + &p[1][1];
            assert_in(&tr, &t, &t, &|| format!("{name}: trace"));
            let d = f(&p[0][0]) * &p[1][1] - f(&p[0][1]) * &p[1][0];
            assert_in(&det, &d, &d, &|| format!("{name}: det"));
            cases += 2;
        }
    }
    // Chains: the product of point matrices at the sample points lies in the interval chain.
    for _ in 0..20 {
        let mut ms = vec![];
        let mut exact = [
            [f(&Float::with_val(53, 1)), f(&Float::with_val(53, 0))],
            [f(&Float::with_val(53, 0)), f(&Float::with_val(53, 1))],
        ];
        for _ in 0..12 {
            let (m, pts) = mat_with_points::<I>(&mut rng, ctx);
            exact = exact_mul(&pts[0], &exact);
            ms.push(m);
        }
        let chain = IMat2::chain_product(ctx, &ms);
        for r in 0..2 {
            for c in 0..2 {
                assert_in(chain.get(r, c), &exact[r][c], &exact[r][c], &|| {
                    format!("{name}: chain product ({r},{c})")
                });
                cases += 1;
            }
        }
    }
    cases
}

#[test]
fn matrix_products_contain_exact_products() {
    let mut n = 0;
    n += matrix_containment::<F64Interval>(&(), "f64", 41);
    n += matrix_containment::<ExpInterval<2>>(&(), "exp2", 42);
    n += matrix_containment::<ExpInterval<8>>(&(), "exp8", 43);
    n += matrix_containment::<MpInterval>(&MpCtx::new(106).unwrap(), "mpfr106", 44);
    println!("matrix containment: {n} cases, 0 violations");
}

fn dynamic_containment<I: IntervalArith>(ctx: &I::Ctx, name: &str, seed: u64) {
    let mut rng = Rng::new(seed);
    for (r, k, c) in [(1, 1, 1), (3, 4, 2), (5, 5, 5)] {
        let a = DMatrix::from_fn(r, k, |_, _| build_box::<I>(ctx, &box_spec(&mut rng)));
        let b = DMatrix::from_fn(k, c, |_, _| build_box::<I>(ctx, &box_spec(&mut rng)));
        let v = DVector::from_fn(k, |_, _| build_box::<I>(ctx, &box_spec(&mut rng)));
        let ab = dmat_mul(&a, &b).unwrap();
        let av = dmat_vec_mul(&a, &v).unwrap();
        // Midpoint matrices (exact points inside) and their exact product.
        let pa = a.map(|x| x.mid_rug());
        let pb = b.map(|x| x.mid_rug());
        let pv = v.map(|x| x.mid_rug());
        for i in 0..r {
            for j in 0..c {
                let mut s = f(&Float::with_val(53, 0));
                for t in 0..k {
                    s += f(&pa[(i, t)]) * &pb[(t, j)];
                }
                assert_in(&ab[(i, j)], &s, &s, &|| {
                    format!("{name}: dynamic product ({i},{j})")
                });
            }
            let mut s = f(&Float::with_val(53, 0));
            for t in 0..k {
                s += f(&pa[(i, t)]) * &pv[t];
            }
            assert_in(&av[i], &s, &s, &|| format!("{name}: dynamic mat-vec ({i})"));
        }
        // The identity is neutral up to rounding: I·A ⊇ A's midpoints.
        let ia = dmat_mul(&dmat_identity::<I>(ctx, r), &a).unwrap();
        for i in 0..r {
            for t in 0..k {
                assert!(ia[(i, t)].contains_rug(&pa[(i, t)]));
            }
        }
        // ∞-norm bound ≥ every row sum of magnitudes.
        let nrm = dmat_norm_inf_up(&a);
        for i in 0..r {
            let mut s = f(&Float::with_val(53, 0));
            for t in 0..k {
                s += a[(i, t)].mag();
            }
            assert!(s <= nrm, "{name}: norm bound");
        }
    }
    let a = DMatrix::from_fn(2, 3, |_, _| I::from_f64(ctx, 1.0));
    let err = dmat_mul(&a, &a).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DimensionMismatch);
    assert!(err.to_string().contains("2×3"));
}

#[test]
fn dynamic_matrices_contain_exact_products() {
    dynamic_containment::<F64Interval>(&(), "f64", 51);
    dynamic_containment::<ExpInterval<3>>(&(), "exp3", 52);
    dynamic_containment::<MpInterval>(&MpCtx::new(300).unwrap(), "mpfr300", 53);
}

/// Fixed point of h at (a, b): x* = (b − 1 + √((1 − b)² + 4a)) / (2a), y* = b·x*, enclosed with
/// interval operations only; then h([z*]) meets [z*], det Dh = −b, and the fixed point is a
/// saddle: |tr Dh| > 1 + det Dh holds for certain (so it is never a sink).
fn fixed_point_is_a_saddle<I: IntervalArith>(ctx: &I::Ctx, name: &str) {
    let a = I::from_decimal(ctx, "1.4").unwrap().interval;
    let b = I::from_decimal(ctx, "0.3").unwrap().interval;
    let one = I::from_f64(ctx, 1.0);
    let bm1 = b.sub(&one);
    let disc = bm1.sqr().add(&a.mul_f64(4.0));
    let x = bm1.add(&disc.sqrt()).div(&a.mul_f64(2.0));
    let y = b.mul(&x);
    let z = IVec2::new(x.clone(), y);
    let hz = henon_step_interval(&a, &b, &z);
    assert!(
        !hz.0[0].disjoint(&z.0[0]) && !hz.0[1].disjoint(&z.0[1]),
        "{name}: h(z*) misses z*"
    );
    // Exact fixed point by MPFR: x* ≈ 0.6313544770895048.
    let xs = Float::with_val(
        ORACLE,
        (Float::with_val(ORACLE, -0.7) + (Float::with_val(ORACLE, 0.49) + 5.6f64).sqrt()) / 2.8,
    );
    // 0.3, 0.7, 0.49 and 2.8 above are f64 approximations, so only check to 1e-14.
    assert!(
        Float::with_val(ORACLE, x.mid_rug() - &xs).abs() < 1e-14,
        "{name}"
    );
    let j = henon_jacobian(&a, &b, &x);
    let det = j.det();
    assert!(det.contains(&b.neg()), "{name}: det Dh must contain −b");
    let tr = j.trace();
    let one_plus_det = one.add(&det);
    assert!(
        tr.abs_certainly_gt(&one_plus_det),
        "{name}: the fixed point must be certified unstable"
    );
}

trait AbsGt {
    fn abs_certainly_gt(&self, o: &Self) -> bool;
}

impl<I: IntervalArith> AbsGt for I {
    fn abs_certainly_gt(&self, o: &Self) -> bool {
        // |t| > o for every t: either t > o everywhere or −t > o everywhere.
        self.certainly_gt(o) || self.neg().certainly_gt(o)
    }
}

#[test]
fn fixed_point_of_classical_map_is_a_saddle() {
    fixed_point_is_a_saddle::<F64Interval>(&(), "f64");
    fixed_point_is_a_saddle::<ExpInterval<2>>(&(), "exp2");
    fixed_point_is_a_saddle::<MpInterval>(&MpCtx::new(200).unwrap(), "mpfr200");
}

/// At (a, b) = (1, 0.3) there is a period-4 sink (MATH.md §5). Iterate in f64 onto it, then
/// evaluate the monodromy over thin boxes around the four points: |tr M| < 1 + det M with
/// det M = b⁴, for certain.
fn period4_monodromy<I: IntervalArith>(ctx: &I::Ctx, name: &str) {
    let (a64, b64) = (1.0f64, 0.3f64);
    let (mut x, mut y) = (0.1f64, 0.1f64);
    for _ in 0..5000 {
        let nx = 1.0 + y - a64 * x * x;
        y = b64 * x;
        x = nx;
    }
    let a = I::from_f64(ctx, a64);
    let b = I::from_decimal(ctx, "0.3").unwrap().interval;
    let mut ms = vec![];
    let x0 = x;
    for _ in 0..4 {
        let xi = I::from_f64(ctx, x).inflate(1e-12);
        ms.push(henon_jacobian(&a, &b, &xi));
        let nx = 1.0 + y - a64 * x * x;
        y = b64 * x;
        x = nx;
    }
    assert!(
        (x - x0).abs() < 1e-12,
        "{name}: f64 orbit is not 4-periodic"
    );
    let m = IMat2::chain_product(ctx, &ms);
    let det = m.det();
    let b4 = b.powi(4);
    assert!(!det.disjoint(&b4), "{name}: det M must meet b^4");
    let tr = m.trace();
    let one_plus_det = I::from_f64(ctx, 1.0).add(&b4);
    assert!(
        tr.certainly_lt(&one_plus_det) && tr.neg().certainly_lt(&one_plus_det),
        "{name}: period-4 monodromy trace {tr:?}"
    );
}

#[test]
fn period4_sink_monodromy_is_contracting() {
    period4_monodromy::<F64Interval>(&(), "f64");
    period4_monodromy::<ExpInterval<4>>(&(), "exp4");
    period4_monodromy::<MpInterval>(&MpCtx::new(150).unwrap(), "mpfr150");
}

#[test]
fn map_scalar_matches_trait_ops() {
    use expanse_core::MapScalar;
    // The MapScalar impls are the trait operations (checked on exact small values).
    let x = F64Interval::new(1.0, 2.0).unwrap();
    let y = F64Interval::new(-1.0, 0.5).unwrap();
    assert_eq!(MapScalar::add(&x, &y), IntervalArith::add(&x, &y));
    assert_eq!(MapScalar::sub(&x, &y), IntervalArith::sub(&x, &y));
    assert_eq!(MapScalar::mul(&x, &y), IntervalArith::mul(&x, &y));
    assert_eq!(MapScalar::sqr(&y), F64Interval::new(0.0, 1.0).unwrap());
    assert_eq!(MapScalar::add_one(&y), F64Interval::new(0.0, 1.5).unwrap());
    assert_eq!(
        MapScalar::mul_param(&x, &y),
        F64Interval::new(-2.0, 1.0).unwrap()
    );
}

/// The interval inverse contains the exact inverse of point matrices inside it, and the
/// conveniences (neg, scale, mid, norms) keep containment.
fn inverse_and_helpers<I: IntervalArith>(ctx: &I::Ctx, name: &str, seed: u64) -> u64 {
    let mut rng = Rng::new(seed);
    let mut cases = 0;
    for _ in 0..200 {
        let (m, pts) = mat_with_points::<I>(&mut rng, ctx);
        let nrm = m.norm_inf_up();
        let neg = m.neg();
        let two = I::from_f64(ctx, 2.0);
        let sc = m.scale(&two);
        let mid = m.mid();
        assert!(mid.subset(&m), "{name}: mid ⊄ m");
        for p in &pts {
            for r in 0..2 {
                let row = Float::with_val(ORACLE, p[r][0].abs_ref()) + p[r][1].clone().abs();
                assert!(row <= nrm, "{name}: norm_inf_up");
                for c in 0..2 {
                    let v = f(&p[r][c]);
                    let nv = Float::with_val(ORACLE, -&v);
                    assert_in(neg.get(r, c), &nv, &nv, &|| format!("{name}: neg"));
                    let sv = Float::with_val(ORACLE, &v * 2u32);
                    assert_in(sc.get(r, c), &sv, &sv, &|| format!("{name}: scale"));
                }
            }
        }
        match m.inverse() {
            None => {
                // The determinant enclosure meets zero; nothing to check.
            }
            Some(inv) => {
                for p in &pts {
                    let det = f(&p[0][0]) * &p[1][1] - f(&p[0][1]) * &p[1][0];
                    assert!(
                        !det.is_zero(),
                        "{name}: inverse given for a singular point matrix"
                    );
                    for r in 0..2 {
                        for c in 0..2 {
                            // The quotients above are rounded at 4096 bits: compare with both
                            // directed roundings of the exact value.
                            let num = match (r, c) {
                                (0, 0) => f(&p[1][1]),
                                (0, 1) => -f(&p[0][1]),
                                (1, 0) => -f(&p[1][0]),
                                _ => f(&p[0][0]),
                            };
                            let (dn, up) = exact2!(&num / &det);
                            assert_in(inv.get(r, c), &dn, &up, &|| {
                                format!("{name}: inverse ({r},{c})")
                            });
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    // A known inverse: [[2, 1], [1, 1]]⁻¹ = [[1, −1], [−1, 2]].
    let i = |v: f64| I::from_f64(ctx, v);
    let inv = IMat2::new(i(2.0), i(1.0), i(1.0), i(1.0))
        .inverse()
        .unwrap();
    for (r, c, v) in [(0, 0, 1.0), (0, 1, -1.0), (1, 0, -1.0), (1, 1, 2.0)] {
        assert!(inv.get(r, c).contains_f64(v), "{name}: known inverse");
    }
    assert!(IMat2::new(i(1.0), i(2.0), i(2.0), i(4.0))
        .inverse()
        .is_none());
    let v = IVec2::new(i(-3.0), i(2.0));
    assert!(
        v.norm_inf_up() >= 3.0 && v.mid().subset(&v) && v.scale(&i(2.0)).0[0].contains_f64(-6.0)
    );
    cases
}

#[test]
fn matrix_inverse_and_helpers_contain_exact_values() {
    let mut n = 0;
    n += inverse_and_helpers::<F64Interval>(&(), "f64", 61);
    n += inverse_and_helpers::<ExpInterval<2>>(&(), "exp2", 62);
    n += inverse_and_helpers::<MpInterval>(&MpCtx::new(128).unwrap(), "mpfr128", 63);
    println!("matrix inverse: {n} cases, 0 violations");
}

/// Forty steps of the map from a thin box: the MPFR orbits (4096 bits, rounding error far
/// below every interval width here) of sample points stay inside the interval iterates, which
/// widen roughly like e^{0.42·k} (MATH.md §4) but stay bounded.
fn orbit_containment<I: IntervalArith>(ctx: &I::Ctx, name: &str, rel_width: i32) {
    let mut rng = Rng::new(71);
    let a = I::from_decimal(ctx, "1.4").unwrap().interval;
    let b = I::from_decimal(ctx, "0.3").unwrap().interval;
    let x0 = Float::with_val(ORACLE, 0.1);
    let w = Float::with_val(ORACLE, 1) >> rel_width;
    let spec = (
        Float::with_val(ORACLE, &x0 - &w),
        Float::with_val(ORACLE, &x0 + &w),
    );
    let mut z = IVec2::new(build_box::<I>(ctx, &spec), I::from_f64(ctx, 0.1));
    let pts: Vec<Float> = samples(&mut rng, &z.0[0], 2);
    let mut orbits: Vec<(Float, Float)> = pts
        .iter()
        .map(|p| (p.clone(), Float::with_val(ORACLE, 0.1)))
        .collect();
    let av = Float::with_val(ORACLE, Float::parse("1.4").unwrap());
    let bv = Float::with_val(ORACLE, Float::parse("0.3").unwrap());
    for k in 0..40 {
        z = henon_step_interval(&a, &b, &z);
        for (x, y) in orbits.iter_mut() {
            let x2 = Float::with_val(ORACLE, x.square_ref());
            let nx = Float::with_val(ORACLE, &*y + 1u32) - Float::with_val(ORACLE, &av * &x2);
            let ny = Float::with_val(ORACLE, &bv * &*x);
            *x = nx;
            *y = ny;
            assert_in(&z.0[0], x, x, &|| format!("{name}: orbit x at step {k}"));
            assert_in(&z.0[1], y, y, &|| format!("{name}: orbit y at step {k}"));
        }
    }
    assert!(
        z.0[0].is_bounded() && z.0[0].width_f64_up() < 1.0,
        "{name}: blew up: {:?}",
        z.0[0]
    );
}

#[test]
fn forty_steps_contain_the_exact_orbits() {
    orbit_containment::<F64Interval>(&(), "f64", 60);
    orbit_containment::<ExpInterval<2>>(&(), "exp2", 90);
    orbit_containment::<ExpInterval<4>>(&(), "exp4", 150);
    orbit_containment::<MpInterval>(&MpCtx::new(300).unwrap(), "mpfr300", 200);
}
