//! Tests of crate internals (device selection and batch validation, the reference orbit of
//! the search contract, the rounding helpers of the array bounds), moved here from unit-test
//! modules so that `expanse-gpu` is not compiled a second time as a test harness
//! (`[lib] test = false`; README "Development").

mod device {
    use expanse_gpu::contract::{check_batch, OrbitBatch};
    use expanse_gpu::device::*;
    use expanse_gpu::*;

    #[test]
    fn device_selection_parses_all_and_lists() {
        assert_eq!("all".parse::<DeviceSelection>(), Ok(DeviceSelection::All));
        assert_eq!(
            " 0, 1 ".parse::<DeviceSelection>(),
            Ok(DeviceSelection::List(vec![0, 1]))
        );
        let e = "0,x".parse::<DeviceSelection>().unwrap_err();
        assert!(e.contains("--devices"), "{e}");
        assert!("1,1".parse::<DeviceSelection>().is_err());
    }

    #[test]
    fn invalid_batches_are_rejected_before_any_device_work() {
        let mut b: OrbitBatch<f64, 2> = check_batch(3, 4, 10, 5);
        assert!(validate(&b, &(0..12)).is_ok());
        assert!(validate(&b, &(0..13)).is_err());
        b.settings.pmax = 0;
        assert!(matches!(
            validate(&b, &(0..1)).unwrap_err().kind,
            GpuErrorKind::InvalidInput(_)
        ));
        let mut b: OrbitBatch<f64, 2> = check_batch(3, 4, 10, 5);
        b.y0.pop();
        assert!(validate(&b, &(0..1)).is_err());
    }

    /// On a machine without a GPU (CI) the probe fails with a reason and does not panic; on
    /// one with a GPU it names the devices.
    #[test]
    fn probe_reports_a_reason_or_devices() {
        match GpuContext::probe() {
            Ok(ctx) => assert!(!ctx.devices().is_empty() && !ctx.describe().is_empty()),
            Err(u) => assert!(u.reason.len() > 10, "{u}"),
        }
    }

    #[test]
    fn launch_profiles_add_over_calls_and_take_the_slowest_of_concurrent_gpus() {
        let p = |kernel_s: f64, orbits: u64, cycles: [u64; 3]| LaunchProfile {
            setup_s: 0.5,
            upload_s: 0.01,
            kernel_s,
            download_s: 0.02,
            host_s: 0.03,
            launches: 1,
            orbits,
            max_launch_orbits: orbits,
            block_threads: 128,
            multiprocessors: 132,
            phase_cycles: cycles,
        };
        let (a, b) = (p(2.0, 16_000, [90, 6, 4]), p(3.0, 8_000, [10, 4, 0]));
        let c = LaunchProfile::concurrent(&[a, b]);
        assert_eq!((c.kernel_s, c.setup_s), (3.0, 0.5));
        assert_eq!((c.orbits, c.launches, c.multiprocessors), (24_000, 2, 264));
        assert_eq!(c.phase_cycles, [100, 10, 4]);
        let mut s = a;
        s.add(&b);
        assert_eq!((s.kernel_s, s.setup_s, s.orbits), (5.0, 1.0, 24_000));
        assert_eq!((s.max_launch_orbits, s.multiprocessors), (16_000, 132));
        // 16 000 orbits = 500 warps on 132 × 4 warp schedulers.
        assert!((s.warps_per_scheduler() - 500.0 / 528.0).abs() < 1e-12);
        assert_eq!(c.phase_shares(), [100.0 / 114.0, 10.0 / 114.0, 4.0 / 114.0]);
        assert_eq!(LaunchProfile::default().phase_shares(), [0.0; 3]);
    }

    #[test]
    fn kernel_source_defines_the_instantiation() {
        let s = kernel_source(3, "float");
        assert!(s.starts_with("#define EXP_N 3\n#define EXP_T float\n"));
        assert!(s.contains("orbits_single") && s.contains("orbits_general"));
    }
}

mod contract {
    use expanse_core::Expansion;
    use expanse_gpu::contract::*;

    fn settings() -> SearchSettings {
        SearchSettings {
            transient: 3000,
            pmax: 64,
            tol: 1e-9,
            escape: 1e3,
        }
    }

    /// b = 0.3, a = 1.0 has a period-4 sink (MATH.md §5); its trace estimate says attracting,
    /// and the canonical point is the cycle's point of smallest x, a periodic point of h.
    #[test]
    fn period_four_sink_at_a_one() {
        let a = Expansion::<f64, 2>::from_f64(1.0);
        let b = Expansion::<f64, 2>::from_f64(0.3);
        let r = reference_orbit(
            &a,
            &b,
            &Expansion::from_f64(0.1),
            &Expansion::from_f64(0.0),
            &settings(),
        );
        assert_eq!(r.status, OrbitStatus::Cycle);
        assert_eq!(r.period, 4);
        assert!(r.looks_attracting());
        assert_eq!(r.det, 0.3f64.powi(4));
        // h^4 returns to the canonical point, and no other point of the cycle has smaller x.
        let (mut x, mut y) = (r.x[0], r.y[0]);
        let mut min_x = x;
        for _ in 0..4 {
            let (nx, ny) = (1.0 + y - 1.0 * x * x, 0.3 * x);
            x = nx;
            y = ny;
            min_x = min_x.min(x);
        }
        assert!((x - r.x[0]).abs() < 1e-12 && (y - r.y[0]).abs() < 1e-12);
        assert!(min_x >= r.x[0] - 1e-12);
    }

    /// a = 1.25 lies in the period-7 window (MATH.md §5).
    #[test]
    fn period_seven_window() {
        let a = Expansion::<f64, 1>::from_f64(1.25);
        let b = Expansion::<f64, 1>::from_f64(0.3);
        let r = reference_orbit(
            &a,
            &b,
            &Expansion::from_f64(0.0),
            &Expansion::from_f64(0.0),
            &settings(),
        );
        assert_eq!((r.status, r.period), (OrbitStatus::Cycle, 7));
        assert!(r.looks_attracting());
    }

    /// Far outside the attractor's basin the orbit escapes, detected at the first check.
    #[test]
    fn escape_is_detected_at_a_check() {
        let a = Expansion::<f32, 3>::from_f64(1.4);
        let b = Expansion::<f32, 3>::from_f64(0.3);
        let r = reference_orbit(
            &a,
            &b,
            &Expansion::from_f64(5.0),
            &Expansion::from_f64(5.0),
            &settings(),
        );
        assert_eq!((r.status, r.steps), (OrbitStatus::Escaped, 1024));
        let s = SearchSettings {
            transient: 10,
            ..settings()
        };
        let r = reference_orbit(
            &a,
            &b,
            &Expansion::from_f64(5.0),
            &Expansion::from_f64(5.0),
            &s,
        );
        assert_eq!((r.status, r.steps), (OrbitStatus::Escaped, 10));
    }

    /// The fixed point of the classical map is unstable: an orbit started there (in f64)
    /// returns with period 1 but the trace test says not attracting.
    #[test]
    fn classical_fixed_point_is_not_attracting() {
        let (af, bf) = (1.4f64, 0.3f64);
        let xf = ((bf - 1.0) + ((1.0 - bf) * (1.0 - bf) + 4.0 * af).sqrt()) / (2.0 * af);
        let s = SearchSettings {
            transient: 0,
            pmax: 4,
            tol: 1e-9,
            escape: 1e3,
        };
        let r = reference_orbit(
            &Expansion::<f64, 1>::from_f64(af),
            &Expansion::<f64, 1>::from_f64(bf),
            &Expansion::from_f64(xf),
            &Expansion::from_f64(bf * xf),
            &s,
        );
        assert_eq!((r.status, r.period), (OrbitStatus::Cycle, 1));
        assert!(!r.looks_attracting());
    }
}

mod bound {
    use expanse_core::bounds::{add_rel_bound, mul_rel_bound};
    use expanse_gpu::array::bound::*;

    #[test]
    fn up_and_down_bracket_the_exact_result() {
        // 0.1 + 0.2 is inexact in f64: the exact sum lies strictly between down and up.
        let a = 0.1f64;
        let b = 0.2f64;
        let s = a + b;
        assert!(up(s) > s && down(s) < s);
        assert_eq!(up(f64::INFINITY), f64::INFINITY);
        assert_eq!(up(f64::NAN), f64::INFINITY);
        assert_eq!(up(0.0), f64::from_bits(1));
        assert_eq!(down(0.0), 0.0);
        // Underflow of a product to zero is covered.
        assert!(mul_up(1e-300, 1e-300) > 0.0);
    }

    #[test]
    fn constants_are_at_least_the_core_bounds() {
        let c = Consts::new::<f64>(2);
        assert!(c.add.kappa >= add_rel_bound::<f64>(2));
        assert!(c.mul.kappa >= mul_rel_bound::<f64>(2));
        assert!(c.add.eta > 0.0 && c.add.abs >= c.add.eta);
        let c8 = Consts::new::<f32>(8);
        assert!(c8.add.eta.is_finite() && c8.add.eta > 0.0);
        assert_eq!(c.to_array().len(), CONSTS_LEN);
    }

    #[test]
    fn range_violations_give_infinite_bounds() {
        let c = Consts::new::<f64>(2);
        let op = c.mul;
        assert_eq!(
            c.finalize(&op, f64::MAX, 1, 0.0, 0, 1.0),
            f64::INFINITY,
            "a product sum near overflow has no finite bound"
        );
        assert_eq!(c.finalize(&op, f64::NAN, 1, 0.0, 0, 1.0), f64::INFINITY);
        assert!(c.finalize(&op, 1.0, 1, 1.0, 1, 2.0).is_finite());
    }
}
