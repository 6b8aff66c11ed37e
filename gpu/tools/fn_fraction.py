#!/usr/bin/env python3
"""Joins ncu_functions.sh's per-call instruction counts (per_call.txt) with the evaluation rates
of `bench functions --json` (table.json): per row, FP64 (FP32) instructions per call, GPU
evaluations per second, and the fraction of the FP64 (FP32) instruction ceiling of an H100/H200
(132 SMs x 64 FP64 lanes, x 128 FP32 lanes, at 1.98 GHz). Usage: fn_fraction.py DIR"""
import json
import sys

FP64_CEILING = 1.67e13
FP32_CEILING = 132 * 128 * 1.98e9

d = sys.argv[1]
rows = json.load(open(f"{d}/table.json"))["rows"]
rate = {(r["function"], r["term"], r["n"]): r["gpu_evals_per_s"] for r in rows}
print("| function | terms | N | FP64 instr/call | FP32 instr/call | GPU eval/s | fraction of FP64 ceiling | of FP32 ceiling |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for line in open(f"{d}/per_call.txt"):
    w = line.split()
    fn, term, n, d64, d32 = w[0], w[1], int(w[2]), float(w[4]), float(w[6])
    r = rate.get((fn, term, n))
    if r is None:
        continue
    print(f"| {fn} | {term} | {n} | {d64:.0f} | {d32:.0f} | {r:.3e} | {100 * d64 * r / FP64_CEILING:.1f} % | {100 * d32 * r / FP32_CEILING:.1f} % |")
