#!/usr/bin/env python3
"""Importing other tools' history: rows/s and peak RSS of `grove import --from` for N sessions.

Writes N back-to-back 20-minute sessions (a minute apart, ending now) three ways — `timew export`
JSON, another app's CSV with its own column names, and Grove's own CSV (exported from the first
import) — and imports each into a fresh GROVE_HOME with /usr/bin/time, whole process. Then imports
the timewarrior file a second time (every row found already there), the CSV shuffled, and Grove's
own JSON export of the same sessions, in start order and shuffled. Each as a ratio to SQLite's own
floor on the same schema, measured before and after them (issue 41: >= 0.5x in any order, <= 64 MiB).

    scripts/import-speed.py                    # release build of this checkout, 1,000,000 rows
    scripts/import-speed.py --rows 100000 --binary .build/debug/grove
"""
import argparse, datetime, os, random, shutil, subprocess, sys, tempfile, time

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
        subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %M %U %S", binary] + args, env=env, stdout=stdout,
                       stderr=subprocess.DEVNULL, check=True)
        seconds, kib, user, system = stats.read().split()[-4:]
    run.cpu = (float(user), float(system))
    return float(seconds), int(kib) / 1024


def floor(binary, folder, rows):
    """SQLite's own floor on this schema: the sqlite3 shell inserting the same number of rows into a fresh
    Grove store (its migrations, indexes and CHECKs; per-day triggers dropped as Grove's bulk path
    does), one transaction, ids in start order and at random."""
    if not shutil.which("sqlite3"):
        print("  (sqlite3 not installed: no floor)")
        return None
    home = os.path.join(folder, "floor")
    shutil.rmtree(home, ignore_errors=True)
    run(binary, home, ["now"])
    db = os.path.join(home, "grove.sqlite")
    rates = []
    for label, ident in (("ids in start order", "printf('%08X-0000-8000-8000-%012X', i / 65536, i)"),
                         ("random ids", "upper(hex(randomblob(4))) || '-0000-4000-8000-' || upper(hex(randomblob(6)))")):
        sql = f"""PRAGMA synchronous = FULL; PRAGMA cache_size = -16384;
            DROP TRIGGER IF EXISTS focus_day_insert; DROP TRIGGER IF EXISTS focus_day_tag_insert; DELETE FROM focus_session;
            BEGIN; WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {rows - 1})
            INSERT INTO focus_session (id, start_time, end_time, state, duration_ms, paused_ms, planned_ms, paused_at, created_at,
                time_zone, end_day, clock_uncertain, tags)
            SELECT {ident}, i * 1260000, i * 1260000 + 1200000, 'completed', 1200000, 0, 1200000, NULL, 0, 'UTC', '2020-01-01', 0, '["work"]' FROM n;
            COMMIT;"""
        start = time.monotonic()
        subprocess.run(["sqlite3", db], input=sql, text=True, check=True)
        seconds = time.monotonic() - start
        print(f"  sqlite3 floor, {label:<24} {seconds:7.2f} s  {rows / seconds:>10,.0f} rows/s  (SQL alone, no parsing or checks)")
        rates.append(rows / seconds)
    return rates[0]


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
        shuffled = os.path.join(folder, "shuffled.csv")
        with open(csv) as source, open(shuffled, "w") as out:
            header, *lines = source.readlines()
            random.Random(7).shuffle(lines)
            out.write(header + "".join(lines))
        results.append(("--from csv --map, shuffled", os.path.join(folder, "d"),
                        ["import", "--from", "csv", "--map", "start=Started,end=Finished,tag=Label", shuffled]))
        # The anchor: SQLite's floor before and after the imports (the machine's load moves meanwhile).
        floors = [floor(binary, folder, args.rows)]
        measured = []
        for label, home, command in results:
            seconds, mib = run(binary, home, command)
            user, system = run.cpu
            measured.append((label, seconds, mib))
            print(f"  grove import {label:<28} {seconds:7.2f} s  {args.rows / max(seconds, 1e-9):>10,.0f} rows/s  {mib:7.1f} MiB"
                  f"  cpu {user:.2f} user + {system:.2f} sys")
        grove_csv = os.path.join(folder, "grove.csv")
        with open(grove_csv, "w") as out:
            run(binary, homes[0], ["export", "--format", "csv"], stdout=out)
        seconds, mib = run(binary, homes[2], ["import", grove_csv])
        measured.append(("(Grove CSV round trip)", seconds, mib))
        print(f"  grove import {'(Grove CSV round trip)':<28} {seconds:7.2f} s  {args.rows / max(seconds, 1e-9):>10,.0f} rows/s  {mib:7.1f} MiB")
        # Grove's JSON export, as written (in start order) and with its sessions shuffled: the export's
        # other fields from an empty store, the sessions written here (the shape `grove export` writes).
        skeleton = subprocess.run([binary, "export", "--format", "json"], env=dict(os.environ, GROVE_HOME=os.path.join(folder, "e")),
                                  check=True, capture_output=True, text=True).stdout
        head, tail = skeleton.split('"focusSessions"', 1)
        tail = tail.split("]", 1)[1]
        order = list(range(args.rows))
        for label, shuffle in (("(Grove JSON, in order)", False), ("(Grove JSON, shuffled)", True)):
            if shuffle:
                random.Random(7).shuffle(order)
            path = os.path.join(folder, "grove.json")
            with open(path, "w") as out:
                out.write(head + '"focusSessions":[')
                stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.000Z")
                first, _ = next(intervals(args.rows))
                step, length = datetime.timedelta(minutes=21), datetime.timedelta(minutes=20)
                for n, i in enumerate(order):
                    s = first + step * i
                    e = s + length
                    out.write(("," if n else "") + '{"id":"%08X-0000-4000-8000-%012X","startTime":"%s","endTime":"%s","state":"completed",'
                              '"duration":1200,"pausedDuration":0,"createdAt":"%s","plannedDuration":1200,"timeZoneIdentifier":"UTC",'
                              '"endDay":"%s","clockUncertain":false,"tags":["work"]}' % (i >> 16, i, stamp(s), stamp(e), stamp(s), e.strftime("%Y-%m-%d")))
                out.write("]" + tail)
            seconds, mib = run(binary, os.path.join(folder, "j" + str(int(shuffle))), ["import", path])
            user, system = run.cpu
            measured.append((label, seconds, mib))
            print(f"  grove import {label:<28} {seconds:7.2f} s  {args.rows / max(seconds, 1e-9):>10,.0f} rows/s  {mib:7.1f} MiB"
                  f"  cpu {user:.2f} user + {system:.2f} sys")
        floors.append(floor(binary, folder, args.rows))
        if None not in floors:
            anchor = sum(floors) / len(floors)
            print(f"\nagainst the floor (ids in start order, {anchor:,.0f} rows/s: the mean of before and after); goal >= 0.5x in <= 64 MiB")
            for label, seconds, mib in measured:
                ratio = args.rows / max(seconds, 1e-9) / anchor
                flags = ("   < 0.5" if ratio < 0.5 else "") + ("   > 64 MiB" if mib > 64 else "")
                print(f"  {label:<30} {ratio:5.2f}x  {mib:7.1f} MiB{flags}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
