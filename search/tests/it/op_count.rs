//! The source-counted FP64 instructions per Hénon step ([`expanse_search::op_count`]) against
//! hand counts.

use expanse_search::op_count::fp64_per_step;

/// Hand counts from the source: N = 1 is 4 IEEE operations (x·x, y + 1, the FMA, b·x); N = 2 with one-term parameters
/// is sqr 7 + 2 × mul_term 6 + add_term 10 + add 11 = 40 (general parameters: mul 8).
/// N = 3, one-term parameters (level accumulation, `core/src/fast.rs`):
/// sqr = doublings 3 + level 0: 2ProdFMA 2; level 1: 2 + e₀₀'s 2Sum 6 + carry add 1;
/// level 2: two products 4 + 3 adds; level 3: product 1 + 3 adds; renormalisation 4 2Sums
/// 24 → 49. henon_x = level 0: y₀'s 2Sum 6, product 2, −p₀'s 2Sum 6 + 2Sum 6 + add 1;
/// level 1: y₁ 7, product 2, −p₁ 7, −e₀ 7; level 2: y₂ 1, plain product 1 + 1, −e₁ 1;
/// renormalisation 24 → 72. b·x = products 2 + 2, e₀ 6 + 1, level 2: 1 + 1 + 1,
/// renormalisation 24 → 38. Total 159.
#[test]
fn source_counts_of_small_n() {
    assert_eq!(fp64_per_step(1, true), 4);
    assert_eq!(fp64_per_step(2, true), 40);
    assert_eq!(fp64_per_step(2, false), 44);
    assert_eq!(fp64_per_step(3, true), 49 + 72 + 38);
}
