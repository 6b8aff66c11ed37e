#!/usr/bin/env bash
# Seed 001's record sink at (1.4, 0.2999999774905): find it again (GPU search at the point,
# long transients), prove and verify it. Results in $OUT (or /tmp/record).
set -uo pipefail
X=./target/release/expanse
O=${OUT:-/tmp/record}
W=/tmp/record-work
rm -rf "$W"; mkdir -p "$O" "$W"
for tr in 1e8 1e9; do
  $X search --a 1.4 --b 0.2999999774905 --inits 65536 --transient $tr --pmax 2000 --tol 1e-8 \
    --prec 1 --backend auto --quiet --out "$W/rec-$tr.jsonl" 2>&1 | grep -E '^(rate|candidates)'
done
for tr in 1e8 1e9; do
  if [ -s "$W/rec-$tr.jsonl" ]; then
    cp "$W/rec-$tr.jsonl" "$O/"
    mkdir -p "$W/c$tr"
    $X prove "$W/rec-$tr.jsonl" --out "$W/c$tr" 2>&1 | tail -2
    $X verify "$W"/c$tr/*.json 2>&1 | tail -1
    cp "$(ls "$W"/c$tr/*.json | head -1)" "$O/cert-$tr.json"
  fi
done
