#!/usr/bin/env bash
# Nsight Compute profiles of the array kernels that `expanse bench arrays` times (issue 14):
# the single-pass scan, the first-level sum reduction and the GEMM fold, at N = 2 and 4, with
# the executed FP64 instructions (thread level, predicated on) and the FP64 pipe's busy
# fraction, so the GEMM's fraction of the FP64 ceiling comes from counted instructions rather
# than from the estimate in src/cmd/bench_arrays.rs. Text reports in $OUT (or /tmp/ncu).
# Run from the repository root on the device machine with the release binary built:
#   bash gpu/tools/ncu_arrays.sh [scale]        (default scale 0.1: 10^7 elements, n ≈ 1888)
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/ncu}
SCALE=${1:-0.1}
mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SourceCounters"
METRICS="smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"
METRICS="$METRICS,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__inst_executed_pipe_fp64.sum"
METRICS="$METRICS,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed"
METRICS="$METRICS,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum"
t0=$SECONDS
# Every launch of the three kernels (both N, warm-up calls included), full sections: a few
# minutes at the default scale (the N = 4 GEMM launches dominate: ~40 replay passes each).
timeout 500 ncu --clock-control none -k 'regex:^(arr_scan|arr_red_sum|blas_gemm_fold)$' $SECTIONS \
  --metrics "$METRICS" $X bench arrays --scale "$SCALE" >"$O/ncu_arrays.txt" 2>&1
echo "== ncu: exit $?, $((SECONDS - t0)) s"
grep -E "^  [a-z_]+ \(|gpu__time_duration.sum|smsp__sass_thread_inst_executed_op_d|smsp__inst_executed_pipe_fp64|sm__pipe_fp64_cycles|Registers Per Thread|Achieved Occupancy|DRAM Throughput|thread_inst_executed_per" "$O/ncu_arrays.txt" | head -n 400 >"$O/ncu_summary.txt"
wc -l "$O/ncu_arrays.txt" "$O/ncu_summary.txt"
gzip -9 "$O/ncu_arrays.txt"
