#!/usr/bin/env python3
"""How often an idle `grove serve` wakes, against a hello-world Hummingbird server (issue #27: within 1.5x).

Starts both on free loopback ports (`grove serve` over a new store with a week of sessions and timers,
no focus session running, no page open), lets them settle, then counts every thread's context switches
(/proc/PID/task/*/status: voluntary + involuntary) over --seconds. Prints both counts, per minute, and
the ratio. Bounded: two servers, a fixed wait, then both are stopped.

    scripts/idle-wakeups.py --bin .build/release          # a release build (CI passes its cached one)
    scripts/idle-wakeups.py                                        # builds grove and grove-hello (release)
"""
import argparse, glob, os, shutil, subprocess, sys, tempfile, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, wait_for  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def switches(pid):
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            with open(status) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass  # a thread that ended meanwhile
    return total


def measure(command, env, url, settle, seconds):
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(url)
        time.sleep(settle)
        before = switches(process.pid)
        time.sleep(seconds)
        return switches(process.pid) - before
    finally:
        process.terminate()
        process.wait(timeout=15)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", help="folder holding grove and grove-hello (default: build them, release)")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--settle", type=float, default=3)
    ap.add_argument("--limit", type=float, default=1.5, help="fail when grove wakes more than this many times the hello server")
    a = ap.parse_args()
    folder = a.bin
    if folder is None:
        subprocess.run(["swift", "build", "-c", "release", "--product", "grove"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["swift", "build", "-c", "release", "--product", "grove-hello"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        folder = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout.strip()
    grove, hello = os.path.join(folder, "grove"), os.path.join(folder, "grove-hello")
    home = tempfile.mkdtemp(prefix="grove-idle-")
    env = dict(os.environ, GROVE_HOME=home, TZ="Europe/Berlin", NO_COLOR="1", GROVE_HOLD_NOTIFICATIONS="off")
    try:
        for day in range(1, 8):
            subprocess.run([grove, "focus", "log", "--start", f"2026-11-0{day} 09:00", "--end", f"2026-11-0{day} 09:25"], env=env,
                           check=True, capture_output=True)
        subprocess.run([grove, "timer", "add", "Tea", "--duration", "4m", "--todo", "Kettle"], env=env, check=True, capture_output=True)
        port = free_port()
        ours = measure([grove, "serve", "--host", "127.0.0.1", "--port", str(port)], env, f"http://127.0.0.1:{port}/api/v1/focus/current",
                       a.settle, a.seconds)
        port = free_port()
        yardstick = measure([hello, str(port)], env, f"http://127.0.0.1:{port}/", a.settle, a.seconds)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    per_minute = lambda n: n * 60 / a.seconds
    ratio = ours / max(yardstick, 1)
    print(f"idle wake-ups over {a.seconds:.0f} s: grove serve {ours} ({per_minute(ours):.0f}/min), "
          f"hello-world Hummingbird {yardstick} ({per_minute(yardstick):.0f}/min); ratio {ratio:.2f} (goal <= {a.limit})")
    # The hello server may be perfectly idle (0): then grove may wake a few times (a heartbeat-free idle).
    if ours > max(a.limit * yardstick, 5):
        sys.exit(1)


if __name__ == "__main__":
    main()
