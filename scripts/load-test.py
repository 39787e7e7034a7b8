#!/usr/bin/env python3
"""Bounded load test of `grove serve` on loopback: requests/s and p99 latency of
GET /api/v1/focus/current and GET /api/v1/focus/stats with 100k stored sessions.

Uses wrk (Debian's `wrk`, installed when missing and run as root). Loopback only; each endpoint is
loaded for --seconds (default 10, at most 14), so the whole measurement stays under 30 s, and the
server is stopped at the end. Goals (issue #4, this 2-core machine): >= 10,000 requests/s, and
p99 <= 10 ms for stats.

Usage: scripts/load-test.py [--sessions N] [--seconds S] [--connections C] [--skip-build] [--binary PATH]
"""
import argparse, json, os, re, shutil, subprocess, sys, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, seeded_server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_wrk():
    if shutil.which("wrk"):
        return "wrk"
    if os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, stdout=subprocess.DEVNULL)
        return "wrk"
    sys.exit("wrk is needed: sudo apt-get install wrk")


def parse(output):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    def ms(label):
        m = re.search(rf"{label}\s+([\d.]+)(us|ms|s)\b", output)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    return rps, ms("50%"), ms("99%"), int(errors.group(1)) if errors else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--binary", help="measure another build (an older commit, say)")
    args = ap.parse_args()
    args.seconds = max(1, min(14, args.seconds))  # two endpoints stay within 30 s

    wrk = ensure_wrk()
    binary = args.binary or release_binary(ROOT, build=not args.skip_build)
    with seeded_server(binary, args.sessions, "grove-load-") as base:
        total = json.loads(urllib.request.urlopen(base + "/api/v1/focus/stats").read())["totalSessions"]
        print(f"{total} sessions stored; wrk -t2 -c{args.connections} -d{args.seconds}s on loopback")
        for path, goal in (("/api/v1/focus/current", None), ("/api/v1/focus/stats", 10.0)):
            out = subprocess.run([wrk, "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--latency", base + path],
                                 check=True, capture_output=True, text=True, timeout=args.seconds + 10).stdout
            rps, p50, p99, errors = parse(out)
            verdict = f"; goal p99 <= {goal:.0f} ms" if goal else ""
            print(f"GET {path:<24} {rps:>9,.0f} requests/s   p50 {p50:5.2f} ms   p99 {p99:5.2f} ms   "
                  f"non-2xx {errors}  (goal >= 10,000 requests/s{verdict})")


if __name__ == "__main__":
    main()
