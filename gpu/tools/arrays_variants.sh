#!/usr/bin/env bash
# `expanse bench arrays` under build-time variants of the array kernels (NVRTC defines through
# EXPANSE_GPU_NVRTC_OPTS; none changes a result), to pick launch bounds and look-back forms on
# the device (issue 14). Usage on the device machine, release binary built:
#   bash gpu/tools/arrays_variants.sh "" "-DSCAN_SYNC=0" "-DSCAN_RELOAD=0" "-DSCAN_RELOAD=2" "-DSCAN_MIN_BLOCKS=3"
# Each variant's table in $OUT/varK.txt; the GPU rows of map add, reduce, scan and GEMM printed.
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/variants}
mkdir -p "$O"
i=0
for v in "$@"; do
  i=$((i + 1))
  t0=$SECONDS
  EXPANSE_GPU_NVRTC_OPTS="$v" timeout 200 $X bench arrays >"$O/var$i.txt" 2>&1
  echo "== variant $i [$v]: exit $?, $((SECONDS - t0)) s"
  grep -E "^GPU" "$O/var$i.txt" | grep -E "map add  |reduce sum|scan   |n=4096" | head -12
done
