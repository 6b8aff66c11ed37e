//! The limb Hénon search (`cuda/henon_limb.cu` after `cuda/limb.cu`), compiled for the host by
//! a C++ compiler through the shim (one "thread" at a time), must return records
//! bit-identical to its CPU reference (`expanse_gpu::henon_limb::reference_limb_orbit`) at a
//! precision of every capacity (64 … 4096 bits), over sinks, chaotic orbits and escapes; its
//! plain iteration must end on the same points. The CPU reference's iterates are in turn
//! checked against MPFR (`rug`) running the same operation sequence at the same precision:
//! each operation is correctly rounded, so the points must agree bit for bit.
//!
//! Needs a host C++ compiler (`c++`, or `$CXX`) for the first test; without one it says so
//! and passes.

use crate::shim::{build, compiler, run_with_input, shim_dir};
use expanse_core::limb::AnyLimbFloat;
use expanse_gpu::henon_limb::{
    henon_limb_program, reference_limb_iterate, reference_limb_orbit, LimbOrbitRecord,
};
use expanse_gpu::limb::LimbArrays;
use expanse_gpu::{OrbitStatus, SearchSettings};
use rug::integer::Order;
use rug::{Assign, Float, Integer};

/// Reads blocks from stdin: `0 L p n_params n_inits nt pmax tol esc` (a search; floats as
/// their bits) or `1 L p count steps` (an iteration), then the f64 inputs as bits; prints one
/// line per orbit; or `2 0 p` and ceil(p/64) limbs of a mantissa m (exponent 0): prints
/// `sq` and the square (0.m)² rounded to p bits by `hl_sqr`.
const HARNESS: &str = r#"
static double bits_f(unsigned long long v) { return __longlong_as_double((long long)v); }
static unsigned long long f_bits(double d) { return (unsigned long long)__double_as_longlong(d); }
static bool read_f64s(std::vector<double> &v, size_t n) {
    v.resize(n);
    for (size_t i = 0; i < n; ++i) {
        unsigned long long b;
        if (scanf("%llu", &b) != 1) return false;
        v[i] = bits_f(b);
    }
    return true;
}
static void print_num(int n, unsigned count, unsigned i, const std::vector<u64> &m, const std::vector<int> &e,
                      const std::vector<unsigned char> &k) {
    printf(" %d %d", (int)k[i], e[i]);
    for (int j = 0; j < n; ++j) printf(" %llu", (unsigned long long)m[(size_t)j * count + i]);
}
template <int L>
static void search(unsigned p, unsigned np, unsigned ni, u64 nt, unsigned pmax, double tol, double esc,
                   const std::vector<double> &a, const std::vector<double> &b, const std::vector<double> &x0,
                   const std::vector<double> &y0) {
    unsigned count = np * ni;
    int n = limb_limbs(p);
    std::vector<unsigned> st(count), per(count);
    std::vector<u64> steps(count), xm((size_t)n * count), ym((size_t)n * count);
    std::vector<double> res(count), tr(count), det(count);
    std::vector<int> xe(count), ye(count);
    std::vector<unsigned char> xk(count), yk(count);
    for (unsigned i = 0; i < count; ++i)
        henon_limb_elem<L>(p, ni, 0, count, i, a.data(), b.data(), x0.data(), y0.data(), nt, pmax, tol, esc,
                           st.data(), steps.data(), per.data(), res.data(), tr.data(), det.data(), xm.data(),
                           xe.data(), xk.data(), ym.data(), ye.data(), yk.data());
    for (unsigned i = 0; i < count; ++i) {
        printf("%u %llu %u %llu %llu %llu", st[i], (unsigned long long)steps[i], per[i], f_bits(res[i]),
               f_bits(tr[i]), f_bits(det[i]));
        print_num(n, count, i, xm, xe, xk);
        print_num(n, count, i, ym, ye, yk);
        printf("\n");
    }
}
template <int L>
static void iterate(unsigned p, unsigned count, u64 steps, const std::vector<double> &a,
                    const std::vector<double> &b, const std::vector<double> &x0, const std::vector<double> &y0) {
    int n = limb_limbs(p);
    std::vector<u64> xm((size_t)n * count), ym((size_t)n * count);
    std::vector<int> xe(count), ye(count);
    std::vector<unsigned char> xk(count), yk(count);
    for (unsigned i = 0; i < count; ++i)
        henon_limb_iter_elem<L>(p, count, i, steps, a.data(), b.data(), x0.data(), y0.data(), xm.data(), xe.data(),
                                xk.data(), ym.data(), ye.data(), yk.data());
    for (unsigned i = 0; i < count; ++i) {
        printf("it");
        print_num(n, count, i, xm, xe, xk);
        print_num(n, count, i, ym, ye, yk);
        printf("\n");
    }
}
#define HL_DISPATCH(CALL)                  \
    switch (L) {                           \
    case 2: CALL(2); break;                \
    case 4: CALL(4); break;                \
    case 8: CALL(8); break;                \
    case 16: CALL(16); break;              \
    case 32: CALL(32); break;              \
    default: CALL(64); break;              \
    }
int main() {
    int mode, L;
    unsigned p;
    while (scanf("%d %d %u", &mode, &L, &p) == 3) {
        std::vector<double> a, b, x0, y0;
        if (mode == 2) {
            int n = limb_limbs(p);
            std::vector<u64> m(n), out(n), w(2 * n + 4), om(n);
            for (int j = 0; j < n; ++j)
                if (scanf("%llu", &m[j]) != 1) return 2;
            LimbNum x;
            x.kind = LK_NORMAL;
            x.neg = 0;
            x.exp = 0;
            x.m = m.data();
            x.n = n;
            LimbRes r = hl_sqr(x, p, LR_N, out.data(), w.data());
            std::vector<int> oe(1, r.kind == LK_NORMAL ? (int)r.exp : 0);
            std::vector<unsigned char> ok(1, (unsigned char)(r.kind | (r.neg << 2)));
            for (int j = 0; j < n; ++j) om[j] = r.kind == LK_NORMAL ? out[j] : 0;
            printf("sq");
            print_num(n, 1, 0, om, oe, ok);
            printf("\n");
            continue;
        }
        if (mode == 0) {
            unsigned np, ni, pmax;
            unsigned long long nt, tolb, escb;
            if (scanf("%u %u %llu %u %llu %llu", &np, &ni, &nt, &pmax, &tolb, &escb) != 6) return 2;
            if (!read_f64s(a, np) || !read_f64s(b, np) || !read_f64s(x0, ni) || !read_f64s(y0, ni)) return 2;
#define HL_SEARCH(K) search<K>(p, np, ni, nt, pmax, bits_f(tolb), bits_f(escb), a, b, x0, y0)
            HL_DISPATCH(HL_SEARCH)
        } else {
            unsigned count;
            unsigned long long steps;
            if (scanf("%u %llu", &count, &steps) != 2) return 2;
            if (!read_f64s(a, count) || !read_f64s(b, count) || !read_f64s(x0, count) || !read_f64s(y0, count))
                return 2;
#define HL_ITER(K) iterate<K>(p, count, steps, a, b, x0, y0)
            HL_DISPATCH(HL_ITER)
        }
    }
    return 0;
}
"#;

fn bits_line(v: &[f64]) -> String {
    let mut s: String = v.iter().map(|x| format!("{} ", x.to_bits())).collect();
    s.push('\n');
    s
}

/// Parses `kind exp limbs…` (n limbs) from `it`.
fn number<'a>(it: &mut impl Iterator<Item = &'a str>, prec: u32) -> AnyLimbFloat {
    let n = prec.div_ceil(64) as usize;
    let kind: u8 = it.next().unwrap().parse().unwrap();
    let exp: i32 = it.next().unwrap().parse().unwrap();
    let limbs: Vec<u64> = (0..n)
        .map(|_| it.next().unwrap().parse().unwrap())
        .collect();
    LimbArrays {
        prec,
        count: 1,
        limbs,
        exps: vec![exp],
        kinds: vec![kind],
    }
    .get(0)
    .expect("the host build returned a valid number")
}

fn same(a: &AnyLimbFloat, b: &AnyLimbFloat) -> bool {
    a.prec() == b.prec()
        && a.kind() == b.kind()
        && a.is_sign_negative() == b.is_sign_negative()
        && a.exponent() == b.exponent()
        && a.mantissa() == b.mantissa()
}

/// Sinks (a = 0.3 fixed point, a = 1.0 period 4), chaos (1.4), escapes (2.0), at b = 0.3.
const PARAMS: [(f64, f64); 5] = [(0.3, 0.3), (1.0, 0.3), (1.25, 0.3), (1.4, 0.3), (2.0, 0.3)];
const INITS: [(f64, f64); 5] = [
    (0.0, 0.0),
    (0.1, -0.05),
    (-0.7, 0.2),
    (1.2, 0.35),
    (-1.29, -0.39),
];

#[test]
fn limb_search_cuda_source_matches_the_cpu_reference_bit_for_bit() {
    let Some(cxx) = compiler() else {
        eprintln!("no host C++ compiler: the limb search CUDA source was not checked");
        return;
    };
    let dir = shim_dir("henon_limb");
    let src = format!(
        "{}{}{}",
        include_str!("cpu_shim/shim.h"),
        henon_limb_program(2).unwrap().source(1, "double"),
        HARNESS
    );
    let exe = build(&cxx, &dir, "henon_limb", &src);
    let settings = SearchSettings {
        transient: 2100, // not a multiple of 1024
        pmax: 24,
        tol: 1e-10,
        escape: 1e3,
    };
    // One precision per capacity (2, 4, 8, 16, 32, 64 limbs), three not multiples of 64.
    let precs = [64u32, 200, 424, 848, 1696, 4096];
    let (a, b): (Vec<f64>, Vec<f64>) = PARAMS.iter().copied().unzip();
    let (x0, y0): (Vec<f64>, Vec<f64>) = INITS.iter().copied().unzip();
    let iter_steps = 300u64;
    let mut input = String::new();
    for &p in &precs {
        let l = expanse_core::limb::capacity_for(p).unwrap();
        input += &format!(
            "0 {l} {p} {} {} {} {} {} {}\n",
            a.len(),
            x0.len(),
            settings.transient,
            settings.pmax,
            settings.tol.to_bits(),
            settings.escape.to_bits()
        );
        input += &(bits_line(&a) + &bits_line(&b) + &bits_line(&x0) + &bits_line(&y0));
        // Iteration: one orbit per (parameter, initial point) pair of the first four
        // parameters (no escapes: 300 steps of an escaping orbit are all NaN).
        let pairs: Vec<(f64, f64, f64, f64)> = PARAMS[..4]
            .iter()
            .zip(INITS.iter())
            .map(|(&(a, b), &(x, y))| (a, b, x, y))
            .collect();
        input += &format!("1 {l} {p} {} {iter_steps}\n", pairs.len());
        for k in 0..4 {
            let v: Vec<f64> = pairs.iter().map(|t| [t.0, t.1, t.2, t.3][k]).collect();
            input += &bits_line(&v);
        }
    }
    let squares = square_operands();
    for (p, m) in &squares {
        input += &format!("2 0 {p}");
        for l in m {
            input += &format!(" {l}");
        }
        input.push('\n');
    }
    let out = run_with_input(&exe, &input);
    let mut lines = out.lines();
    let mut cycles = 0;
    let mut statuses = std::collections::BTreeSet::new();
    for &p in &precs {
        for (pi, &(pa, pb)) in PARAMS.iter().enumerate() {
            for (ii, &(ix, iy)) in INITS.iter().enumerate() {
                let line = lines.next().expect("a record line per orbit");
                let mut it = line.split_whitespace();
                let mut u = || it.next().unwrap().parse::<u64>().unwrap();
                let (st, steps, per) = (u(), u(), u());
                let (res, tr, det) = (u(), u(), u());
                let x = number(&mut it, p);
                let y = number(&mut it, p);
                let got = LimbOrbitRecord {
                    status: OrbitStatus::from_code(st as u32).unwrap(),
                    steps,
                    period: per as u32,
                    residual: f64::from_bits(res),
                    trace: f64::from_bits(tr),
                    det: f64::from_bits(det),
                    x,
                    y,
                };
                let want = reference_limb_orbit(p, &settings, pa, pb, ix, iy);
                assert!(
                    got.bit_eq(&want),
                    "{p} bits, a = {pa}, init {pi}/{ii}: host build {got:?}, reference {want:?}"
                );
                cycles += (want.status == OrbitStatus::Cycle) as usize;
                statuses.insert(want.status);
            }
        }
        for (k, (&(pa, pb), &(ix, iy))) in PARAMS[..4].iter().zip(INITS.iter()).enumerate() {
            let line = lines.next().expect("an iteration line per orbit");
            let mut it = line.split_whitespace();
            assert_eq!(it.next(), Some("it"));
            let (gx, gy) = (number(&mut it, p), number(&mut it, p));
            let (wx, wy) = reference_limb_iterate(p, pa, pb, ix, iy, iter_steps);
            assert!(
                same(&gx, &wx) && same(&gy, &wy),
                "{p} bits, iteration {k}: host build ({}, {}), reference ({}, {})",
                gx.to_hex(),
                gy.to_hex(),
                wx.to_hex(),
                wy.to_hex()
            );
        }
    }
    // hl_sqr (the kernel's x·x) against MPFR's square of the same mantissa.
    for (p, m) in &squares {
        let line = lines.next().expect("a line per square");
        let mut it = line.split_whitespace();
        assert_eq!(it.next(), Some("sq"));
        let got = number(&mut it, *p).to_rug();
        let n = m.len() as u32;
        let x = Float::with_val(64 * n, Integer::from_digits(m, Order::Lsf)) >> (64 * n);
        let want = Float::with_val(*p, x.square_ref());
        assert!(
            got == want && got.prec() == want.prec(),
            "{p} bits, square of {m:x?}: hl_sqr {got}, MPFR {want}"
        );
    }
    assert!(lines.next().is_none(), "extra output");
    // The batch must exercise every status but `Unconfirmed` (rare by design) and real cycles
    // at every precision.
    assert!(statuses.contains(&OrbitStatus::Escaped) && statuses.contains(&OrbitStatus::NoCycle));
    assert!(cycles >= 2 * precs.len(), "{cycles} cycles");
}

/// Mantissas (top bit set, zero below the precision) to square at several precisions: all
/// ones (the longest carries), a power of two, 1/2 + one ulp, and pseudo-random ones (about
/// half of whose squares need the normalizing shift).
fn square_operands() -> Vec<(u32, Vec<u64>)> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = Vec::new();
    for p in [64u32, 113, 128, 200, 424, 848, 1696, 4096] {
        let n = p.div_ceil(64) as usize;
        let sh = 64 * n as u32 - p;
        let fix = |mut m: Vec<u64>| {
            m[0] &= if sh == 0 { !0 } else { !((1u64 << sh) - 1) };
            m[n - 1] |= 1 << 63;
            m
        };
        out.push((p, fix(vec![!0u64; n])));
        out.push((p, fix(vec![0u64; n])));
        let mut ulp = vec![0u64; n];
        ulp[0] = 1u64 << sh;
        out.push((p, fix(ulp)));
        for _ in 0..6 {
            out.push((p, fix((0..n).map(|_| next()).collect())));
        }
    }
    out
}

/// The same operation sequence in MPFR at precision `prec` (round to nearest): a, b and 1 as
/// 53-bit numbers, results at `prec` bits.
fn mpfr_iterate(prec: u32, a: f64, b: f64, x0: f64, y0: f64, steps: u64) -> (Float, Float) {
    let a = Float::with_val(53, a);
    let b = Float::with_val(53, b);
    let mut x = Float::with_val(prec, x0);
    let mut y = Float::with_val(prec, y0);
    let (mut x2, mut t, mut u, mut nx) = (
        Float::new(prec),
        Float::new(prec),
        Float::new(prec),
        Float::new(prec),
    );
    for _ in 0..steps {
        x2.assign(x.square_ref());
        t.assign(&a * &x2);
        u.assign(&y + 1u32);
        nx.assign(&u - &t);
        y.assign(&b * &x);
        std::mem::swap(&mut x, &mut nx);
    }
    (x, y)
}

#[test]
fn limb_iterates_equal_mpfrs_bit_for_bit() {
    // 1000 steps on the chaotic attractor (a = 1.4): by then the iterates differ from the
    // exact orbit in every bit, so any single operation rounded differently would show.
    let mut checked = 0;
    for p in [64u32, 113, 424, 848, 1696] {
        for (k, &(x0, y0)) in INITS[..3].iter().enumerate() {
            let (a, b) = (1.4 - 0.01 * k as f64, 0.3);
            let (x, y) = reference_limb_iterate(p, a, b, x0, y0, 1000);
            let (mx, my) = mpfr_iterate(p, a, b, x0, y0, 1000);
            assert_eq!(x.to_rug(), mx, "{p} bits, x of orbit {k}");
            assert_eq!(y.to_rug(), my, "{p} bits, y of orbit {k}");
            assert_eq!(x.prec(), mx.prec());
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
}
