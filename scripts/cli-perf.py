#!/usr/bin/env python3
"""Whole-process timing of `grove now` and `grove stats --json` over 100k stored sessions.

Builds grove in release, seeds a fresh GROVE_HOME with 100,000 focus sessions (through
`grove import`, the same path a user's import takes), then runs each command repeatedly and
prints the median wall time. Goals (issue #3): grove now <= 20 ms, grove stats --json <= 50 ms.

Usage: scripts/cli-perf.py [--sessions N] [--runs N] [--skip-build]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, seed  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--skip-build", action="store_true")
    args = ap.parse_args()

    binary = release_binary(ROOT, build=not args.skip_build)

    home = tempfile.mkdtemp(prefix="grove-perf-")
    env = dict(os.environ, GROVE_HOME=home, TZ="America/New_York", NO_COLOR="1")
    def grove(*a, **kw):
        return subprocess.run([binary, *a], env=env, check=True, capture_output=True, text=True, **kw)

    t0 = time.perf_counter()
    seed(binary, env, args.sessions)
    print(f"seeded {args.sessions} sessions in {time.perf_counter() - t0:.2f} s (grove import, whole process)")
    grove("intention", "set", "Measure twice, cut once", "--scope", "week")

    def median_ms(*a):
        grove(*a)  # warm the page cache once
        samples = []
        for _ in range(args.runs):
            t = time.perf_counter()
            grove(*a)
            samples.append((time.perf_counter() - t) * 1000)
        return statistics.median(samples), max(samples)

    for cmd, goal in ((("now",), 20), (("stats", "--json"), 50)):
        med, worst = median_ms(*cmd)
        print(f"grove {' '.join(cmd):<13} median {med:6.1f} ms  (max {worst:6.1f} ms over {args.runs} runs; goal <= {goal} ms)")
    total = json.loads(grove("stats", "--json").stdout)["stats"]["totalSessions"]
    assert total == args.sessions, f"expected {args.sessions} sessions, store has {total}"

if __name__ == "__main__":
    main()
