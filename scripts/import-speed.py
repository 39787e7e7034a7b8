#!/usr/bin/env python3
"""Importing other tools' history: rows/s and peak RSS of `grove import --from` for N sessions.

Writes N back-to-back 20-minute sessions (a minute apart, ending now) three ways — `timew export`
JSON, another app's CSV with its own column names, and Grove's own CSV (exported from the first
import) — and imports each into a fresh GROVE_HOME with /usr/bin/time, whole process. Then imports
the timewarrior file a second time (every row found already there).

    scripts/import-speed.py                    # release build of this checkout, 1,000,000 rows
    scripts/import-speed.py --rows 100000 --binary .build/debug/grove
"""
import argparse, datetime, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def intervals(rows):
    end = datetime.datetime.now(datetime.timezone.utc).replace(second=0, microsecond=0) - datetime.timedelta(minutes=1)
    step, length = datetime.timedelta(minutes=21), datetime.timedelta(minutes=20)
    start = end - step * rows
    for i in range(rows):
        s = start + step * i
        yield s, s + length


def write_files(rows, folder):
    tw, csv = os.path.join(folder, "timew.json"), os.path.join(folder, "other.csv")
    with open(tw, "w") as a, open(csv, "w") as b:
        a.write("[\n")
        b.write("Started,Finished,Label,Outcome\n")
        for i, (s, e) in enumerate(intervals(rows)):
            a.write(("," if i else "") + '{"id":%d,"start":"%s","end":"%s","tags":["work"]}\n' % (rows - i, s.strftime("%Y%m%dT%H%M%SZ"), e.strftime("%Y%m%dT%H%M%SZ")))
            b.write("%s,%s,work,success\n" % (s.strftime("%Y-%m-%dT%H:%M:%SZ"), e.strftime("%Y-%m-%dT%H:%M:%SZ")))
        a.write("]\n")
    return tw, csv


def run(binary, home, args, stdout=subprocess.DEVNULL):
    env = dict(os.environ, GROVE_HOME=home, TZ="UTC", NO_COLOR="1")
    with tempfile.NamedTemporaryFile("r") as stats:
        subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %M", binary] + args, env=env, stdout=stdout,
                       stderr=subprocess.DEVNULL, check=True)
        seconds, kib = stats.read().split()[-2:]
    return float(seconds), int(kib) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--binary", help="grove to measure (default: release build of this checkout)")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary) if args.binary else release_binary(ROOT)
    folder = tempfile.mkdtemp(prefix="grove-import-speed-")
    try:
        tw, csv = write_files(args.rows, folder)
        print(f"{args.rows:,} sessions; whole process, fresh store each (peak RSS is the process's)")
        homes = [os.path.join(folder, name) for name in ("a", "b", "c")]
        results = [("--from timewarrior", homes[0], ["import", "--from", "timewarrior", tw])]
        results.append(("--from timewarrior, again", homes[0], ["import", "--from", "timewarrior", tw]))
        results.append(("--from csv --map", homes[1], ["import", "--from", "csv", "--map", "start=Started,end=Finished,tag=Label", csv]))
        for label, home, command in results:
            seconds, mib = run(binary, home, command)
            print(f"  grove import {label:<28} {seconds:7.2f} s  {args.rows / max(seconds, 1e-9):>10,.0f} rows/s  {mib:7.1f} MiB")
        grove_csv = os.path.join(folder, "grove.csv")
        with open(grove_csv, "w") as out:
            run(binary, homes[0], ["export", "--format", "csv"], stdout=out)
        seconds, mib = run(binary, homes[2], ["import", grove_csv])
        print(f"  grove import {'(Grove CSV round trip)':<28} {seconds:7.2f} s  {args.rows / max(seconds, 1e-9):>10,.0f} rows/s  {mib:7.1f} MiB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
