#!/usr/bin/env python3
"""Whole-process timing of `grove now` and `grove stats --json` over 100k stored sessions.

Builds grove in release, seeds a fresh GROVE_HOME with 100,000 focus sessions (through
`grove import`, the same path a user's import takes), then runs each command repeatedly and
prints the median wall time. Goals (issue #3): grove now <= 20 ms, grove stats --json <= 50 ms.

Usage: scripts/cli-perf.py [--sessions N] [--runs N] [--skip-build]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time, uuid
from datetime import datetime, timedelta, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--skip-build", action="store_true")
    args = ap.parse_args()

    if not args.skip_build:
        # Statically linked Swift runtime, as the README installs it: ~6 ms less process start.
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "grove"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    binary = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip() + "/grove"

    home = tempfile.mkdtemp(prefix="grove-perf-")
    env = dict(os.environ, GROVE_HOME=home, TZ="America/New_York", NO_COLOR="1")
    def grove(*a, **kw):
        return subprocess.run([binary, *a], env=env, check=True, capture_output=True, text=True, **kw)

    # Seed: a year and more of history ending today, ~one in eight sessions abandoned.
    export = json.loads(grove("export").stdout)
    now = datetime.now(timezone.utc)
    sessions = []
    days = max(1, min(1000, args.sessions // 10))
    for i in range(args.sessions):
        end = now - timedelta(days=i % days, minutes=30 + (i // days) % 600)
        abandoned = i % 8 == 5
        focus = 400 if abandoned else 1500
        start = end - timedelta(seconds=focus)
        local = end - timedelta(hours=5)  # Etc/GMT+5 is a fixed UTC-5
        fmt = lambda d: d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond // 1000:03d}Z"
        sessions.append({"id": str(uuid.UUID(int=i + 1)).upper(), "startTime": fmt(start), "endTime": fmt(end),
                         "state": "abandoned" if abandoned else "completed", "duration": focus, "pausedDuration": 0,
                         "createdAt": fmt(start), "plannedDuration": 1500, "timeZoneIdentifier": "Etc/GMT+5",
                         "endDay": local.strftime("%Y-%m-%d"), "clockUncertain": False})
    export["focusSessions"] = sessions
    seed = os.path.join(home, "seed.json")
    with open(seed, "w") as f:
        json.dump(export, f)
    t0 = time.perf_counter()
    grove("import", seed)
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
