#!/usr/bin/env bash
# The GPU search's rate against the kernel's (`expanse bench gpu`), on the device machine
# (issue 18), in one command of about 6 minutes on an H100:
#   1. `expanse bench gpu` (the kernel rates, N = 1..8);
#   2. `expanse search --profile` on the issue's grid (a in 1.2..1.3, 1000 steps, b = 0.3,
#      --pmax 256, GPU) for N = 1, 2, 4, 8, with 1024 initial points per parameter (1 024 000
#      orbits: N = 2 is the issue's command as it stands, transient 1e7) and with 16 (16 000
#      orbits); the transients of the other runs are cut so that each takes seconds, which
#      leaves every launch's shape (orbits, blocks) as in the full search;
#   3. the CPU/GPU identity checks: `bench gpu --check` (records, every N) and the candidate
#      files of a small search on both backends, compared byte for byte (N = 1, 2, 4, 8).
# Writes to $OUT (or /tmp/svk): bench_gpu.txt, search_<N>_<inits>.txt (each search's output
# with its --profile breakdown), summary.txt (search rate / kernel rate per N and inits),
# identity.txt. Run from the repository root with the release binary built:
#   bash gpu/tools/search_vs_kernel.sh
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/svk}
mkdir -p "$O/s"
t0=$(date +%s)
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader | tee "$O/gpu.txt"
$X bench gpu --scale 0.5 >"$O/bench_gpu.txt" 2>&1
grep -v '^$' "$O/bench_gpu.txt" | tail -14
echo "[bench gpu done at +$(($(date +%s) - t0)) s]"

# run NAME PREC TRANSIENT INITS
run() {
  $X search --a 1.2..1.3 --a-steps 1000 --b 0.3 --inits "$4" --transient "$3" --pmax 256 \
    --prec "$2" --backend gpu --quiet --profile --force --out "$O/s/$1.jsonl" >"$O/search_$1.txt" 2>&1
  echo "== search $1 (prec $2, transient $3, inits $4) at +$(($(date +%s) - t0)) s"
  grep -E '^(rate|setup|profile)|error' "$O/search_$1.txt"
}
run 1_1024 1 4e7 1024
run 2_1024 dd 1e7 1024
run 4_1024 qd 6e5 1024
run 8_1024 8 1.5e5 1024
run 1_16 1 5e8 16
run 2_16 dd 5e7 16
run 4_16 qd 8e6 16
run 8_16 8 2e6 16

{
  echo "search rate / kernel rate (bench gpu, f64 terms, same N) on $(head -1 "$O/gpu.txt")"
  printf '%-3s %-6s %-8s %-11s %-11s %-8s %-11s %-8s %-9s %-8s\n' N inits orbits bench search search/k kern-only kern/k warps/sch setup_s
  for n in 1 2 4 8; do
    k=$(awk -v n=$n '$1 == "f64" && $2 == n { print $6 }' "$O/bench_gpu.txt")
    for i in 1024 16; do
      f="$O/search_${n}_$i.txt"
      e=$(awk '/^rate:/ { print $2 }' "$f")
      ko=$(awk '/^profile: kernel-only rate/ { print $4 }' "$f")
      w=$(awk '/^profile: wall/ { for (j = 1; j <= NF; j++) if ($j == "launch") print $(j + 1) }' "$f")
      su=$(awk '/^setup:/ { print $2 }' "$f")
      awk -v n=$n -v i=$i -v k="$k" -v e="$e" -v ko="$ko" -v w="$w" -v su="$su" 'BEGIN {
        r1 = (k > 0 && e != "") ? sprintf("%.1f %%", 100 * e / k) : "?";
        r2 = (k > 0 && ko != "") ? sprintf("%.1f %%", 100 * ko / k) : "?";
        printf "%-3s %-6s %-8s %-11s %-11s %-8s %-11s %-8s %-9s %-8s\n", n, i, 1000 * i, k, e, r1, ko, r2, w, su
      }'
    done
  done
  echo "bench: bench gpu's f64 rate for that N (1.08e6 orbits on the attractor, none escaping);"
  echo "search: iterations / wall time of the run (kernel compile and load before it, in setup_s);"
  echo "kern-only: iterations / the kernels' time; warps/sch: warps of the launch per SM sub-partition."
} | tee "$O/summary.txt"
echo "[searches done at +$(($(date +%s) - t0)) s]"

{
  $X bench gpu --check 2>&1 | tail -3
  for p in 1 dd qd 8; do
    for b in gpu cpu; do
      $X search --a 1.2..1.3 --a-steps 64 --b 0.3 --inits 64 --transient 2e4 --pmax 64 \
        --prec $p --backend $b --quiet --force --out "$O/s/id_${p}_$b.jsonl" >/dev/null 2>&1
    done
    if [ -s "$O/s/id_${p}_gpu.jsonl" ] && cmp -s "$O/s/id_${p}_gpu.jsonl" "$O/s/id_${p}_cpu.jsonl"; then
      echo "identity prec $p: GPU and CPU candidate files byte-identical ($(wc -l <"$O/s/id_${p}_gpu.jsonl") candidates)"
    else
      echo "identity prec $p: candidate files DIFFER (or missing)"
    fi
  done
} | tee "$O/identity.txt"
echo "[all done at +$(($(date +%s) - t0)) s]"
rm -rf "$O/s"
