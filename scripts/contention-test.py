#!/usr/bin/env python3
"""Does one kind of slow request stall the others? With N stored sessions (default 100k), eight clients
page through GET /api/v1/focus/sessions?limit=50 while one client asks GET /api/v1/focus/current; prints
both p99s (goal, issue #7: /focus/current p99 <= 20 ms).

Uses wrk (Debian's `wrk`) on loopback only; both loads run together for --seconds (default 10, at most
20), then the server is stopped. --binary measures another build (an older commit, say).

Usage: scripts/contention-test.py [--sessions N] [--seconds S] [--binary PATH] [--skip-build]
"""
import argparse, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, seeded_server  # noqa: E402
from importlib import import_module  # noqa: E402

load = import_module("load-test")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--binary")
    ap.add_argument("--skip-build", action="store_true")
    args = ap.parse_args()
    args.seconds = max(1, min(20, args.seconds))

    wrk = load.ensure_wrk()
    binary = args.binary or release_binary(ROOT, build=not args.skip_build)
    with seeded_server(binary, args.sessions, "grove-contention-") as base:
        seconds = f"-d{args.seconds}s"
        pages = subprocess.Popen([wrk, "-t1", "-c8", seconds, "--latency", "--timeout", "10s", base + "/api/v1/focus/sessions?limit=50"],
                                 stdout=subprocess.PIPE, text=True)
        current = subprocess.run([wrk, "-t1", "-c1", seconds, "--latency", "--timeout", "10s", base + "/api/v1/focus/current"],
                                 check=True, capture_output=True, text=True, timeout=args.seconds + 15).stdout
        pages_out, _ = pages.communicate(timeout=args.seconds + 15)
        print(f"{args.sessions} sessions; {args.seconds} s of 8 clients on /focus/sessions?limit=50 and 1 client on /focus/current")
        for label, out in (("GET /api/v1/focus/sessions?limit=50 (8 clients)", pages_out), ("GET /api/v1/focus/current (1 client)", current)):
            rps, p50, p99, errors = load.parse(out)
            print(f"{label:<50} {rps:>8,.0f} requests/s   p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   non-2xx {errors}")
        _, _, p99, _ = load.parse(current)
        print(f"/focus/current p99 {p99:.2f} ms: {'meets' if p99 <= 20 else 'misses'} the goal of <= 20 ms")


if __name__ == "__main__":
    main()
