#!/usr/bin/env python3
"""What each everyday `grove` command costs to start, against `grove now` and timewarrior's `timew`.

For each command (on a store holding a day's few sessions, an intention and a gated app) it prints
the instructions the whole process executes (valgrind's callgrind: the same count on a loaded machine
as on an idle one) and the median wall time of --runs runs, each as a ratio to `grove now` and to
`timew` on an empty database (timewarrior's cold start, the anchor of issue 41). With --baseline,
the same commands of another `grove` binary (say, the release before a change) go beside them.

First it prints the floors of the stack (`floors.py`): what C through SQLite, a static Swift hello
world and a Swift program through GRDB pay to answer `now` from the same store, so that `grove now`
is read against what any program on SQLite and Swift could reach. --no-floors skips them (the Swift
floor is built once, in --scratch; minutes the first time).

    scripts/command-starts.py --skip-build
    scripts/command-starts.py --skip-build --baseline /tmp/grove-before

Installs valgrind and timewarrior from Debian when missing (needs apt and root). Bounded: every run
is stopped after --timeout seconds.
"""
import argparse, os, re, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from floors import c_now_floor, stack_floors, swift_hello  # noqa: E402
from seed import release_binary, run_seconds  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = [
    ["now"], ["--version"], [], ["forest"], ["forest", "--json"], ["stats", "--json"], ["review", "--json"],
    ["pause", "stats", "--json"], ["pause", "weeks", "--json"], ["intention", "list"], ["timer", "list"],
    ["export", "--format", "csv"], ["focus", "status"],
]


def ensure(tool, package):
    if shutil.which(tool):
        return
    subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", package], check=True, stdout=subprocess.DEVNULL)


def instructions(argv, env, timeout):
    """Instructions executed by the whole process (callgrind's total), or None."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], env=env,
                         capture_output=True, text=True, timeout=timeout)
    found = re.search(r"Collected\s*:\s*(\d+)", run.stderr)
    return int(found.group(1)) if found else None


def wall(argv, env, runs, timeout):
    run_seconds(argv, env, timeout)  # page cache
    times = [run_seconds(argv, env, timeout) for _ in range(runs)]
    if None in times:
        sys.exit(f"{' '.join(argv)} ran past {timeout} s")
    return statistics.median(times)


def store(binary):
    """A GROVE_HOME with a little of everything, as a person's first week."""
    home = tempfile.mkdtemp(prefix="grove-starts-")
    env = dict(os.environ, GROVE_HOME=home, TZ="America/New_York", NO_COLOR="1")
    for args in (["setup", "--skip"], ["intention", "set", "Finish the essay"], ["apps", "enable", "youtube"],
                 ["focus", "log", "--start", "2026-11-20 09:00", "--end", "2026-11-20 09:25"],
                 ["timer", "add", "Tea", "--duration", "3m"]):
        subprocess.run([binary, *args], env=env, capture_output=True)
    return home, env


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--binary", help="the grove to measure (default: the release build)")
    ap.add_argument("--baseline", help="another grove binary to measure beside it")
    ap.add_argument("--no-floors", action="store_true", help="skip the stack's floors")
    ap.add_argument("--scratch", default=os.path.expanduser("~/.cache/grove-floors"))
    a = ap.parse_args()
    a.runs = max(1, min(100, a.runs))
    ensure("valgrind", "valgrind")
    ensure("timew", "timewarrior")
    binary = a.binary or release_binary(ROOT, build=not a.skip_build)
    # Measured stripped (valgrind cannot read the debug information Swift writes; the code is the same,
    # and a packaged grove is stripped too).
    stripped = tempfile.mkdtemp(prefix="grove-stripped-")
    binaries = []
    for name, path in [("grove", binary)] + ([("before", a.baseline)] if a.baseline else []):
        copy = os.path.join(stripped, name)
        subprocess.run(["strip", "-o", copy, path], check=True)
        binaries.append((f"{name} ({path})", copy))

    timew_home = tempfile.mkdtemp(prefix="timew-starts-")
    timew_env = dict(os.environ, TIMEWARRIORDB=timew_home)
    subprocess.run(["timew"], env=timew_env, input="yes\n", capture_output=True, text=True, timeout=a.timeout)
    anchor = (instructions(["timew"], timew_env, a.timeout), wall(["timew"], timew_env, a.runs, a.timeout))
    print(f"timew (empty database): {anchor[0] / 1e6:.1f} M instructions, {anchor[1] * 1000:.2f} ms")

    homes = []
    try:
        for index, (name, path) in enumerate(binaries):
            home, env = store(path)
            homes.append(home)
            if index == 0 and not a.no_floors:
                floors(home, env, stripped, anchor, a)
            now = (instructions([path, "now"], env, a.timeout), wall([path, "now"], env, a.runs, a.timeout))
            print(f"\n{name}: grove now {now[0] / 1e6:.1f} M instructions, {now[1] * 1000:.2f} ms")
            print(f"{'command':28} {'M instr':>8} {'× now':>6} {'× timew':>8} {'ms':>7} {'× now':>6} {'× timew':>8}")
            for args in COMMANDS:
                argv = [path, *args]
                count, seconds = instructions(argv, env, a.timeout), wall(argv, env, a.runs, a.timeout)
                label = "grove " + " ".join(args) if args else "grove (dashboard)"
                print(f"{label:28} {count / 1e6:8.1f} {count / now[0]:6.2f} {count / anchor[0]:8.2f} "
                      f"{seconds * 1000:7.2f} {seconds / now[1]:6.2f} {seconds / anchor[1]:8.2f}")
    finally:
        for home in homes + [timew_home, stripped]:
            shutil.rmtree(home, ignore_errors=True)


def floors(home, env, stripped, anchor, a):
    """The stack's floors on `home`'s store, in instructions and wall time, against timewarrior."""
    os.makedirs(a.scratch, exist_ok=True)
    database = os.path.join(home, "grove.sqlite")
    swift_floor, _ = stack_floors(a.scratch)
    subprocess.run(["strip", "-o", os.path.join(stripped, "now-floor"), swift_floor], check=True)
    print("\nfloors on the same store (what any program pays to answer `now` from it):")
    for label, argv in [("C + SQLite (open, read the running session)", [c_now_floor(a.scratch), database]),
                        ("static Swift hello world", [swift_hello(a.scratch)]),
                        ("Swift + GRDB (open as grove does, read it)", [os.path.join(stripped, "now-floor"), database])]:
        count, seconds = instructions(argv, env, a.timeout), wall(argv, env, a.runs, a.timeout)
        print(f"  {label:46} {count / 1e6:6.1f} M instructions {count / anchor[0]:5.2f}x timew   "
              f"{seconds * 1000:6.2f} ms {seconds / anchor[1]:5.2f}x")


if __name__ == "__main__":
    main()
