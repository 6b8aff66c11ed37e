#!/usr/bin/env bash
# Executed FP64 (and FP32) instructions per call of the elementary functions on the GPU (issue
# 13): Nsight Compute counts over `expanse bench functions --profile-launches` (two launches of
# fn_unary per table row: a warm-up and the timed one; the second of each pair is counted),
# then the ordinary `bench functions` table for the evaluation rates. Per call = the launch's
# thread-level DADD + DFMA + DMUL (FADD + FFMA + FMUL) over its arguments; the fraction of the
# FP64 ceiling (1.67e13 instructions/s: 132 SMs x 64 FP64 lanes x 1.98 GHz) is per-call
# instructions x evaluations/s over it, computed by gpu/tools/fn_fraction.py from the two files.
# Usage (repository root, device machine, release binary built):
#   gpu/tools/ncu_functions.sh [functions (default exp,ln,sin,atan)] [scale (default 0.25)]
# Outputs in $OUT (or /tmp/fnncu): ncu.txt, per_call.txt, table.json.
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/fnncu}
SEL=${1:-exp,ln,sin,atan}
SCALE=${2:-0.25}
mkdir -p "$O"
M=smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum
M=$M,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
M=$M,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
M=$M,gpu__time_duration.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed
t0=$SECONDS
timeout 400 ncu --clock-control none -k 'regex:^fn_unary$' --metrics "$M" \
    $X bench functions --select "$SEL" --profile-launches --scale "$SCALE" >"$O/ncu.txt" 2>&1
echo "== ncu functions: exit $?, $((SECONDS - t0)) s"
# Rows in the bench's order: each function, then f64 N = 1, 2, 3, 4, 8 and f32 N = 2, 4.
COUNT=$(awk -v s="$SCALE" 'BEGIN{c=int(4194304*s); if(c<64)c=64; print c}')
awk -v sel="$SEL" -v count="$COUNT" '
  BEGIN{nf=split(sel,F,","); split("f64 1,f64 2,f64 3,f64 4,f64 8,f32 2,f32 4",C,",")}
  / fn_unary/{n++}
  /op_d(add|fma|mul)_pred_on/{gsub(",","",$3); d[n]+=$3}
  /op_f(add|fma|mul)_pred_on/{gsub(",","",$3); f[n]+=$3}
  /pipe_fp64_cycles_active/{p[n]=$3}
  /gpu__time_duration/{t[n]=$3" "$2}
  END{for(i=2;i<=n;i+=2){r=i/2-1; fn=F[int(r/7)+1]; c=C[r%7+1];
      printf "%s %s FP64/call %.1f FP32/call %.1f fp64_pipe_pct %s time %s\n", fn, c, d[i]/count, f[i]/count, p[i], t[i]}}' \
    "$O/ncu.txt" | tee "$O/per_call.txt"
t0=$SECONDS
timeout 300 $X bench functions --select "$SEL" --json >"$O/table.json" 2>"$O/table.err"
echo "== bench functions: exit $?, $((SECONDS - t0)) s"
