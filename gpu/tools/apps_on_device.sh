#!/usr/bin/env bash
# The seeds' applications on a GPU (issue 16): every example with --backend gpu, each checking
# GPU against CPU bit for bit and printing rates; outputs (text and JSON) in $OUT (or
# /tmp/apps). Run from the repository root on the device machine, release binaries built:
#   cargo build --release --examples      (here), then  bash gpu/tools/apps_on_device.sh
# Optional first argument: "full" (full sizes of fft and mandelbrot too; CPU-bound, minutes).
set -uo pipefail
O=${OUT:-/tmp/apps}
mkdir -p "$O"
E=./target/release/examples
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
nproc
q="--quick"
[ "${1:-}" = full ] && q=""
run() { # name timeout args...
  local name=$1 t=$2
  shift 2
  local t0=$SECONDS
  timeout "$t" "$E/$name" --backend gpu --json "$@" >"$O/$name.json" 2>"$O/$name.err"
  local rc=$?
  echo "$name $*: exit $rc, $((SECONDS - t0)) s"
  tail -n 3 "$O/$name.err"
}
run mandelbrot 300 $q
run md 300
run fft 400 $q
run summation 300
run qrs 300
run quadrature 400
