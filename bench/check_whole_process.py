#!/usr/bin/env python3
"""Whole-process `pir check` against in-process parse + verify of the same program.

Writes the million-op program that bench/parse_bench.cpp generates to a
temporary directory, runs `pir check` on it in alternation with parse_bench's
BM_ParseVerify (which times parse + verify only, inside one process), and
prints per round the wall and CPU (user + system) seconds of each and their
ratio, then the medians, plus the peak RSS per op: the difference between the
peak RSS of `pir check` on this program and on its first tenth, over the ops
between (a difference, so that neither the process's fixed size nor what a
fork of this script carries into the child counts).

    bench/check_whole_process.py --pir build/repl/pir --parse-bench build/bench/parse_bench
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

OPS = 1_000_000  # what parse_bench generates


def write_program(path, n):
    """Writes the text of parse_bench.cpp's generateProgram(n), a line at a time."""
    kinds = ("add", "mul", "sub", "maximum")
    with open(path, "w") as f:
        f.write("h2d $x : f32[4]\nd2h $y : f32[4]\nmain {\n  const %c : f32[4] = [1, 2, 3, 4]\n  %v0 = host_load $x\n")
        for i in range(1, n):
            f.write(f"  %v{i} = {kinds[i % 4]} %v{i - 1}, %c\n")
        f.write(f"  host_store $y, %v{n - 1}\n}}\n")


def run_child(argv):
    """Wall seconds, CPU seconds (user + system) and peak RSS (KiB) of one child process."""
    start = time.perf_counter()
    pid = subprocess.Popen(argv, stdout=subprocess.DEVNULL).pid
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{' '.join(argv)} failed with status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def in_process(parse_bench):
    """BM_ParseVerify's mean wall and CPU seconds per parse + verify."""
    out = subprocess.run([parse_bench, "--benchmark_filter=BM_ParseVerify/", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    for b in json.loads(out)["benchmarks"]:
        if b["name"].startswith("BM_ParseVerify/"):
            scale = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[b["time_unit"]]
            return b["real_time"] * scale, b["cpu_time"] * scale
    sys.exit("parse_bench reported no BM_ParseVerify")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pir", required=True, help="the pir executable")
    ap.add_argument("--parse-bench", required=True, help="the parse_bench executable")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "million_ops.pir")
        tenth = os.path.join(tmp, "tenth.pir")
        write_program(big, OPS)
        write_program(tenth, OPS // 10)
        _, _, base_rss = run_child([args.pir, "check", tenth])
        ratios_wall, ratios_cpu, rss = [], [], []
        print("round  check wall/cpu (s)  in-process wall/cpu (s)  ratio wall/cpu")
        for r in range(args.rounds):
            wall, cpu, peak = run_child([args.pir, "check", big])
            in_wall, in_cpu = in_process(args.parse_bench)
            ratios_wall.append(wall / in_wall)
            ratios_cpu.append(cpu / in_cpu)
            rss.append(peak)
            print(f"{r + 1:5d}  {wall:6.3f} / {cpu:6.3f}     {in_wall:6.3f} / {in_cpu:6.3f}          "
                  f"{ratios_wall[-1]:.2f} / {ratios_cpu[-1]:.2f}")
        print(f"median ratio, whole-process check / in-process parse + verify: wall {statistics.median(ratios_wall):.2f}, "
              f"cpu {statistics.median(ratios_cpu):.2f}")
        per_op = (statistics.median(rss) - base_rss) * 1024 / (OPS - OPS // 10)
        print(f"pir check peak RSS: {per_op:.0f} bytes per op (its ~30 bytes of source text included)")


if __name__ == "__main__":
    main()
