#!/usr/bin/env bash
# The GPU search's rate against the kernel's (`expanse bench gpu`), on the device machine
# (issue 18): the search command at N = 2 with 1024 initial points per parameter, and
# N = 1, 4, 8 with 1024 and 16, plus the CPU/GPU identity check of records and of a small
# search's candidate files. Run from the repository root with the release binary built:
#   bash gpu/tools/search_vs_kernel.sh      (results in $OUT, or /tmp/svk)
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/svk}
mkdir -p "$O/s"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
$X bench gpu --scale 0.5 2>&1 | tee "$O/bench_gpu.txt" | grep -v '^$' | tail -14
s() { # name prec transient inits
  $X search --a 1.2..1.3 --a-steps 1000 --b 0.3 --inits "$4" --transient "$3" --pmax 256 \
    --prec "$2" --backend gpu --quiet --out "$O/s/$1.jsonl" 2>&1 | grep -E '^rate|error' \
    | sed "s/^/$1: /"
}
s n2_1024 dd 1e7 1024
s n1_1024 1 1e8 1024
s n4_1024 qd 1e6 1024
s n8_1024 8 2e5 1024
s n2_16 dd 1e7 16
s n1_16 1 1e8 16
s n4_16 qd 1e6 16
s n8_16 8 2e5 16
$X bench gpu --check 2>&1 | tail -4
for p in dd qd; do
  for b in gpu cpu; do
    $X search --a 1.2..1.3 --a-steps 64 --b 0.3 --inits 64 --transient 2e4 --pmax 64 \
      --prec $p --backend $b --quiet --out "$O/s/id_${p}_$b.jsonl" >/dev/null 2>&1
  done
  cmp "$O/s/id_${p}_gpu.jsonl" "$O/s/id_${p}_cpu.jsonl" && echo "identity $p: GPU and CPU candidate files byte-identical"
done
rm -rf "$O/s"
