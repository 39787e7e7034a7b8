#!/usr/bin/env python3
"""The passphrase's cost on this machine: how long `grove sync unlock` spends stretching a passphrase
(scrypt, N = 2^15, r = 8, p = 1), measured as it runs for a person.

    scripts/sync-kdf-time.py [--binary .build/release/grove] [--rounds 7]

Starts a sync server on 127.0.0.1 (a new SQLite file), encrypts an account, then times, interleaved,
`grove sync unlock` with a wrong passphrase (start, one request for the envelope, scrypt, refusal:
nothing written) against `grove sync devices` (start, one request). The difference of the medians is
the derivation's time. Bounded: each command has 60 s; everything stops by itself.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, wait_for  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=".build/release/grove")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    home = tempfile.mkdtemp(prefix="grove-kdf-")
    env = dict(os.environ, GROVE_HOME=home, GROVE_LOG="error", GROVE_NO_WAITER="1", NO_COLOR="1")
    port = free_port()
    database = os.path.join(home, "sync.sqlite")
    server = None
    try:
        subprocess.run([args.binary, "sync-server", "user", "add", "ada", "--password-stdin", "--database", database],
                       input="kdf-password-1", text=True, env=env, check=True, capture_output=True)
        server = subprocess.Popen([args.binary, "sync-server", "--port", str(port), "--database", database], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(f"http://127.0.0.1:{port}/healthz", timeout=30)

        def grove(*arguments, stdin=None, check=True):
            started = time.perf_counter()
            run = subprocess.run([args.binary, *arguments], input=stdin, text=True, env=env, capture_output=True, timeout=60)
            elapsed = time.perf_counter() - started
            if check and run.returncode != 0:
                raise SystemExit(f"grove {' '.join(arguments)}: {run.stderr.strip()}")
            return elapsed, run

        grove("sync", "login", f"http://127.0.0.1:{port}", "--user", "ada", "--password-stdin", stdin="kdf-password-1")
        encrypt, _ = grove("sync", "encrypt", "--passphrase-stdin", stdin="the passphrase to measure")
        unlock, baseline = [], []
        for _ in range(args.rounds):
            elapsed, run = grove("sync", "unlock", "--passphrase-stdin", stdin="not the passphrase at all", check=False)
            if "does not open" not in run.stderr:
                raise SystemExit(f"a wrong passphrase was not refused: {run.stderr.strip()}")
            unlock.append(elapsed)
            baseline.append(grove("sync", "devices")[0])
        kdf = statistics.median(unlock) - statistics.median(baseline)
        print(f"grove sync encrypt (sync, scrypt, key made and sent, every row sealed): {encrypt * 1000:.0f} ms")
        print(f"grove sync unlock, wrong passphrase: median {statistics.median(unlock) * 1000:.0f} ms; "
              f"grove sync devices: median {statistics.median(baseline) * 1000:.0f} ms ({args.rounds} rounds, interleaved)")
        print(f"scrypt (N=2^15, r=8, p=1) on this machine: {kdf * 1000:.0f} ms")
    finally:
        if server:
            server.terminate()
            server.wait(timeout=15)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
