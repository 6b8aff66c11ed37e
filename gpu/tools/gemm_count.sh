#!/usr/bin/env bash
# The GEMM fold's executed FP64 instructions at n = 4096 (issue 14): Nsight Compute counts of the
# timed N = 2 launch and both N = 4 launches of `expanse bench arrays`, per multiply-add; then
# the whole `bench arrays` table and its GPU/CPU identity check. Outputs in $OUT (or /tmp/gemm).
# Run from the repository root on the device machine, release binary built.
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/gemm}
mkdir -p "$O"
M=smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
M=$M,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,gpu__time_duration.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed
t0=$SECONDS
timeout 300 ncu --clock-control none -k 'regex:^blas_gemm_fold$' -s 1 -c 3 --metrics "$M" $X bench arrays >"$O/gemm_ncu.txt" 2>&1
echo "== ncu gemm: exit $?, $((SECONDS - t0)) s"
awk '/blas_gemm_fold/{n++; print} /op_d(add|fma|mul)_pred_on/{gsub(",","",$3); s[n]+=$3} /duration|pipe_fp64/{print}
     END{for(i=1;i<=n;i++) printf "launch %d: %.0f FP64 thread instructions, %.2f per multiply-add (n = 4096)\n", i, s[i], s[i]/4096^3}' "$O/gemm_ncu.txt"
t0=$SECONDS
timeout 200 $X bench arrays >"$O/bench_arrays.txt" 2>&1
echo "== bench arrays: exit $?, $((SECONDS - t0)) s"
grep -E "^GPU" "$O/bench_arrays.txt"
t0=$SECONDS
timeout 280 $X bench arrays --check --scale "${1:-0.25}" >"$O/check.txt" 2>&1
echo "== bench arrays --check: exit $?, $((SECONDS - t0)) s"
tail -n 4 "$O/check.txt"
