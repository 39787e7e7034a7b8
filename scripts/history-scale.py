#!/usr/bin/env python3
"""Grove at a large history: wall time and peak RSS of the commands that used to grow with it.

Seeds N focus sessions (default 1,000,000: 50 a day, ending today) into a fresh GROVE_HOME through
`grove import`, then runs each command below with /usr/bin/time and prints seconds and peak RSS.
With --baseline PATH it runs an older `grove` binary on the same store too and prints both side by
side (the store's schema must be one both understand).

    scripts/history-scale.py                          # release build of this checkout, 1M sessions
    scripts/history-scale.py --sessions 100000 --baseline /tmp/grove-before/.build/release/grove
    scripts/history-scale.py --per-day 1000                 # a million sessions over 1,000 days
"""
import argparse, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, write_export  # noqa: E402

COMMANDS = [
    ("grove forest", ["forest"]),
    ("grove focus status", ["focus", "status"]),
    ("grove stats --json", ["stats", "--json"]),
    ("grove export (json)", ["export"]),
    ("grove export --format csv", ["export", "--format", "csv"]),
    ("grove export --format ics", ["export", "--format", "ics"]),
]


def measure(binary, env, args):
    """(seconds, peak MiB, output bytes) of one run, output discarded."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as stats:
        subprocess.run(["/usr/bin/time", "-o", stats.name, "-f", "%e %M", binary] + args, env=env, stdout=out,
                       stderr=subprocess.DEVNULL, check=True)
        seconds, kib = stats.read().split()[-2:]
        out.seek(0, os.SEEK_END)
        return float(seconds), int(kib) / 1024, out.tell()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=1_000_000)
    parser.add_argument("--per-day", type=int, default=50, help="sessions a day (1000: issue 41's crowded forest)")
    parser.add_argument("--binary", help="grove to measure (default: release build of this checkout)")
    parser.add_argument("--baseline", help="an older grove to run on the same store, side by side")
    parser.add_argument("--skip-build", action="store_true")
    a = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = a.binary or release_binary(root, build=not a.skip_build)
    home = tempfile.mkdtemp(prefix="grove-scale-")
    env = dict(os.environ, GROVE_HOME=home, TZ="UTC", NO_COLOR="1", COLUMNS="100")
    try:
        path = os.path.join(home, "seed.json")
        write_export(binary, env, a.sessions, path, per_day=max(1, a.per_day))
        seconds, mib, _ = measure(binary, env, ["import", path])
        print(f"import of {a.sessions:,} sessions: {seconds:.1f} s ({a.sessions / max(seconds, 1e-9):,.0f}/s), peak {mib:,.0f} MiB")
        os.remove(path)
        header = f"{'command':<28} {'seconds':>9} {'peak MiB':>9} {'output':>10}"
        if a.baseline:
            header += f"   {'baseline s':>10} {'peak MiB':>9} {'output':>10}"
        print(header)
        for label, args in COMMANDS:
            s, m, size = measure(binary, env, args)
            line = f"{label:<28} {s:>9.2f} {m:>9.1f} {size / 1e6:>8.1f}MB"
            if a.baseline:
                bs, bm, bsize = measure(a.baseline, env, args)
                line += f"   {bs:>10.2f} {bm:>9.1f} {bsize / 1e6:>8.1f}MB"
            print(line, flush=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
