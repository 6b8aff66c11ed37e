#!/usr/bin/env bash
# The multi-limb floats on a GPU (issue 15): kernel-only rates (one thread vs thread groups),
# GEMV at 848/1696 bits, the Hénon iteration at 424/848/1696 bits against MPFR on all cores,
# the limb functions, each with its bit-for-bit check; then `search --prec 848b` on GPU and CPU
# (candidate files compared byte for byte). Text outputs in $OUT/limb.tar.gz (or /tmp/limb).
# Run from the repository root on the device machine with the release binary built.
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/limb}
mkdir -p "$O/r"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
t() { # name timeout args...
  local name=$1 lim=$2 t0=$SECONDS
  shift 2
  timeout "$lim" $X "$@" >"$O/r/$name.txt" 2>&1
  echo "== $name ($*): exit $?, $((SECONDS - t0)) s"
}
t kernel 200 bench limb --gpu --kernel --check --count 20000
t gemv 200 bench limb --gpu --gemv --check --count 20000
t henon 200 bench limb --henon --gpu --check
t functions 150 bench limb --functions --gpu --check
for b in gpu cpu; do
  timeout 100 $X search --a 1.2..1.3 --a-steps 32 --b 0.3 --inits 32 --transient 2e4 --pmax 64 \
    --prec 848b --backend $b --quiet --out "$O/r/s848_$b.jsonl" >"$O/r/s848_$b.txt" 2>&1
  echo "search 848b $b: exit $?"
done
cmp "$O/r/s848_gpu.jsonl" "$O/r/s848_cpu.jsonl" && echo "identity 848b: GPU and CPU candidate files byte-identical"
wc -l "$O/r/s848_gpu.jsonl"
(cd "$O" && tar czf limb.tar.gz r && rm -rf r)
