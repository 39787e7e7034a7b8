#!/usr/bin/env python3
"""What the everyday read commands cost at 20,000 days of history against 1,000 days (issue 41: the
same cost, a ratio of 1.0): instructions of the whole process (valgrind's callgrind, the same count on
a loaded machine) and the median wall time of interleaved runs, for `grove stats --json`, `grove`
(the dashboard), `grove review --json` and `grove forest`.

Each history has one completed session a day, ending yesterday evening (UTC), imported through
`grove import`. With --baseline an older grove gets histories of its own (seeded by itself, so that
each reads a store its own schema made) and is printed beside.

    scripts/stats-days.py                                   # release build of this checkout
    scripts/stats-days.py --baseline /tmp/grove-before/grove --skip-build
"""
import argparse, os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, run_seconds, write_export  # noqa: E402

COMMANDS = [("grove stats --json", ["stats", "--json"]), ("grove (dashboard)", []), ("grove review --json", ["review", "--json"]),
            ("grove forest", ["forest"])]
DAYS = (1_000, 20_000)


def instructions(argv, env):
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], env=env,
                         capture_output=True, text=True, timeout=300)
    found = re.search(r"Collected\s*:\s*(\d+)", run.stderr)
    return int(found.group(1)) if found else float("nan")


def histories(binary, root, name):
    homes = {}
    for days in DAYS:
        home = os.path.join(root, f"{name}-{days}")
        os.makedirs(home)
        env = dict(os.environ, GROVE_HOME=home, TZ="UTC", NO_COLOR="1", COLUMNS="100")
        path = os.path.join(home, "seed.json")
        write_export(binary, env, days, path, per_day=1)
        subprocess.run([binary, "import", path], env=env, check=True, capture_output=True, timeout=600)
        os.remove(path)
        homes[days] = env
    return homes


def measure(binary, homes, args, rounds):
    """(instructions, median seconds) at each history size; wall runs interleaved between the sizes."""
    counts = {days: instructions([binary, *args], homes[days]) for days in DAYS}
    times = {days: [] for days in DAYS}
    for _ in range(rounds):
        for days in DAYS:
            seconds = run_seconds([binary, *args], homes[days], 60)
            if seconds is None:
                sys.exit(f"grove {' '.join(args)} ran past 60 s")
            times[days].append(seconds)
    return counts, {days: statistics.median(values) for days, values in times.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="grove to measure (default: release build of this checkout)")
    parser.add_argument("--baseline", help="an older grove, measured on histories of its own")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--skip-build", action="store_true")
    a = parser.parse_args()
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binaries = [("this", a.binary or release_binary(root_dir, build=not a.skip_build))]
    if a.baseline:
        binaries.append(("baseline", a.baseline))
    root = tempfile.mkdtemp(prefix="grove-days-")
    try:
        # Callgrind cannot read every build's debug information: each binary runs stripped (same code).
        for index, (name, binary) in enumerate(binaries):
            stripped = os.path.join(root, f"grove-{name}")
            subprocess.run(["strip", "-o", stripped, binary], check=True)
            binaries[index] = (name, stripped)
        homes = {name: histories(binary, root, name) for name, binary in binaries}
        print(f"{'command':<22} {'grove':<9} {'instr 1k days':>14} {'instr 20k days':>15} {'ratio':>6}   "
              f"{'ms 1k':>7} {'ms 20k':>7} {'ratio':>6}")
        for label, args in COMMANDS:
            for name, binary in binaries:
                counts, medians = measure(binary, homes[name], args, a.rounds)
                print(f"{label:<22} {name:<9} {counts[DAYS[0]]:>14,} {counts[DAYS[1]]:>15,} {counts[DAYS[1]] / counts[DAYS[0]]:>6.2f}   "
                      f"{medians[DAYS[0]] * 1000:>7.1f} {medians[DAYS[1]] * 1000:>7.1f} {medians[DAYS[1]] / medians[DAYS[0]]:>6.2f}",
                      flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
