#!/usr/bin/env bash
# Finds and proves a sink at one parameter point (a, b): GPU search with many initial points
# and long transients, then prove and verify every candidate. Results in $OUT (or /tmp/point).
#   bash tools/sink_at_point.sh A B [INITS] [TRANSIENTS...]
set -uo pipefail
X=./target/release/expanse
A=$1; B=$2; INITS=${3:-65536}; shift 3 || true
TRS=("${@:-1e8 1e9}"); [ $# -eq 0 ] && TRS=(1e8 1e9)
O=${OUT:-/tmp/point}
W=/tmp/point-work
rm -rf "$W"; mkdir -p "$O" "$W"
for tr in "${TRS[@]}"; do
  $X search --a "$A" --b "$B" --inits "$INITS" --transient "$tr" --pmax 2000 --tol 1e-8 \
    --prec 1 --backend auto --quiet --out "$W/p-$tr.jsonl" 2>&1 | grep -E '^(rate|candidates)'
  if [ -s "$W/p-$tr.jsonl" ]; then
    cp "$W/p-$tr.jsonl" "$O/"
    mkdir -p "$W/c$tr"
    $X prove "$W/p-$tr.jsonl" --out "$W/c$tr" 2>&1 | tail -3
    $X verify "$W"/c$tr/*.json 2>&1 | tail -2
    for f in "$W"/c$tr/*.json; do cp "$f" "$O/cert-$tr-$(basename "$f")"; done
  fi
done
