#!/usr/bin/env python3
"""Grove beside timewarrior on the same history: whole-process time of the same questions, as ratios.

For each size (default 1k, 10k, 100k; add 1000000 with --sizes) the same intervals (50 a day, 26
minutes apart, newest yesterday; timewarrior cannot hold dates before 1970, which 1M at 50 a day
stays after) go into a fresh Grove store (`grove import`) and a fresh timewarrior database (its
monthly data files, written directly). Then, median of --runs runs each (a timewarrior command that
takes longer than --timeout is stopped and shown as "> N s"):

    stats          grove stats --json              timew summary :all
    week summary   grove stats                     timew summary :week
    export         grove export                    timew export
    cold start     grove now (empty store)         timew (empty database)   (no GNU time around it)

It prints both times, Grove/timewarrior, and Grove's peak RSS for the bulk commands (import, export).
Installs timewarrior from Debian when missing (needs apt and root).

    scripts/timewarrior-side-by-side.py --skip-build
    scripts/timewarrior-side-by-side.py --sizes 1000 1000000 --runs 3
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, run_seconds, write_export  # noqa: E402


def ensure_timew():
    if shutil.which("timew"):
        return
    subprocess.run(["apt-get", "update"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["apt-get", "install", "-y", "timewarrior"], check=True, stdout=subprocess.DEVNULL)


def timed(args, env, runs, timeout, rss=True):
    """Median seconds of `runs` runs (None when one exceeds `timeout`), and the last run's peak MiB.

    With `rss` the command runs under GNU time, which reports its peak; that adds GNU time's own
    start (several milliseconds) to both sides of a ratio, so the cold start runs without it."""
    times, peak = [], 0.0
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as stats:
            seconds = run_seconds((["/usr/bin/time", "-o", stats.name, "-f", "%M"] if rss else []) + args, env, timeout)
            if seconds is None:
                return None, 0.0
            times.append(seconds)
            text = stats.read().split()
            peak = int(text[-1]) / 1024 if text else 0.0
    return statistics.median(times), peak


def stamp(d):
    return d.strftime("%Y%m%dT%H%M%SZ")


def seed(binary, size, root):
    """A Grove home and a timewarrior database holding the same `size` intervals."""
    home = os.path.join(root, f"grove-{size}")
    timew = os.path.join(root, f"timew-{size}")
    os.makedirs(home)
    os.makedirs(os.path.join(timew, "data"))
    open(os.path.join(timew, "timewarrior.cfg"), "w").close()
    env = dict(os.environ, GROVE_HOME=home, TZ="UTC", NO_COLOR="1")
    months = defaultdict(list)
    write_export(binary, env, size, os.path.join(home, "seed.json"),
                 each=lambda start, end, abandoned: months[start.strftime("%Y-%m")].append(
                     f"inc {stamp(start)} - {stamp(end)} # focus{' abandoned' if abandoned else ''}\n"))
    for month, lines in months.items():
        with open(os.path.join(timew, "data", f"{month}.data"), "w") as f:
            f.writelines(sorted(lines))
    seconds, peak = timed([binary, "import", os.path.join(home, "seed.json")], env, 1, None)
    os.remove(os.path.join(home, "seed.json"))
    return env, dict(os.environ, TIMEWARRIORDB=timew, TZ="UTC"), seconds, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--binary", help="grove to measure (default: release build of this checkout)")
    parser.add_argument("--skip-build", action="store_true")
    a = parser.parse_args()
    ensure_timew()
    root_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = a.binary or release_binary(root_dir, build=not a.skip_build)
    root = tempfile.mkdtemp(prefix="grove-vs-timew-")

    def show(label, grove, timew, peak=None):
        g = f"{grove * 1000:9.1f} ms" if grove is not None else "   failed"
        t = f"{timew * 1000:9.1f} ms" if timew is not None else f"  > {a.timeout:.0f} s"
        ratio = f"{grove / timew:8.3f}" if grove and timew else "     n/a"
        rss = f"  peak {peak:6.1f} MiB" if peak else ""
        print(f"  {label:<14} grove {g}   timew {t}   grove/timew {ratio}{rss}", flush=True)

    try:
        # Cold start on empty data: the fixed cost of one run.
        empty_home = os.path.join(root, "grove-empty")
        empty_timew = os.path.join(root, "timew-empty")
        os.makedirs(empty_home)
        os.makedirs(os.path.join(empty_timew, "data"))
        open(os.path.join(empty_timew, "timewarrior.cfg"), "w").close()
        genv = dict(os.environ, GROVE_HOME=empty_home, TZ="UTC", NO_COLOR="1")
        tenv = dict(os.environ, TIMEWARRIORDB=empty_timew, TZ="UTC")
        timed([binary, "now"], genv, 1, None)  # creates the store: not part of the cold start
        print("empty data")
        show("cold start", timed([binary, "now"], genv, a.runs * 20, None, rss=False)[0], timed(["timew"], tenv, a.runs * 20, a.timeout, rss=False)[0])
        for size in a.sizes:
            genv, tenv, seconds, peak = seed(binary, size, root)
            print(f"{size:,} intervals (grove import {seconds:.2f} s, peak {peak:.1f} MiB)")
            show("stats", timed([binary, "stats", "--json"], genv, a.runs, None)[0], timed(["timew", "summary", ":all"], tenv, a.runs, a.timeout)[0])
            show("week summary", timed([binary, "stats"], genv, a.runs, None)[0], timed(["timew", "summary", ":week"], tenv, a.runs, a.timeout)[0])
            g, gpeak = timed([binary, "export"], genv, a.runs, None)
            show("export", g, timed(["timew", "export"], tenv, a.runs, a.timeout)[0], gpeak)
            shutil.rmtree(genv["GROVE_HOME"], ignore_errors=True)
            shutil.rmtree(tenv["TIMEWARRIORDB"], ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
