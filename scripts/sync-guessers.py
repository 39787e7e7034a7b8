#!/usr/bin/env python3
"""Password guessing against a real `grove sync-server`: threads send wrong passwords for a while,
while one device pulls and its owner logs in again and again with the right password; prints how many
guesses the server actually checked per second, how many it refused with 429 before checking, the
device's pull latency (p50 / p99) and the right-password login's latency (p50 / max, from a new
address each time and from one that logged in before), each under the attack and without it.

With --addresses N the guesses come through the server's trusted proxy (X-Forwarded-For, as nginx
sends it) from N addresses, each guessing at names of its own; without it, from one address at `ada`.

  scripts/sync-guessers.py [--binary .build/release/grove] [--seconds 10] [--threads 16] [--addresses 400]
"""
import argparse, os, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sync_server import PASSWORD, post, pulls, sync_server  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/grove")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--addresses", type=int, default=0)
    args = parser.parse_args()
    proxy = ["--trusted-proxy", "127.0.0.1"] if args.addresses else []
    with sync_server(args.binary, *proxy) as base:
        status, device = post(base + "/sync/v1/devices", {"user": "ada", "password": PASSWORD, "deviceName": "laptop"},
                              "192.0.2.1" if args.addresses else None)
        assert status == 201, status
        fresh = iter(range(1, 1_000_000))

        def logins(seconds):
            """The owner's right password, every 0.2 s: from a new address (a new phone), and from the laptop's."""
            new, known, deadline = [], [], time.time() + seconds
            while time.time() < deadline:
                for sample, address in ((new, f"198.51.{next(fresh) // 250}.{next(fresh) % 250 + 1}"), (known, "192.0.2.1")):
                    started = time.perf_counter()
                    code, _ = post(base + "/sync/v1/devices", {"user": "ada", "password": PASSWORD, "deviceName": "phone"},
                                   address if args.addresses else None)
                    sample.append(((time.perf_counter() - started) * 1000, code))
                time.sleep(0.2)
            return new, known

        def summary(sample):
            times = sorted(t for t, _ in sample)
            ok = sum(1 for _, code in sample if code == 201)
            return f"p50 {times[len(times) // 2]:.0f} ms, max {times[-1]:.0f} ms, {ok}/{len(sample)} let in"

        quiet = pulls(base, device["token"], 3)
        quiet_logins = logins(3) if args.addresses else None
        counts, stop = {"checked": 0, "throttled": 0}, threading.Event()

        def guess(index):
            attempt = 0
            while not stop.is_set():
                attempt += 1
                if args.addresses:
                    address = f"203.0.{(index + attempt * args.threads) % args.addresses // 250}.{(index + attempt * args.threads) % args.addresses % 250 + 1}"
                    code, _ = post(base + "/sync/v1/devices", {"user": f"user-{index}-{attempt}", "password": "guess-guess", "deviceName": "x"}, address)
                else:
                    code, _ = post(base + "/sync/v1/devices", {"user": "ada", "password": f"guess-{index}-{time.time()}", "deviceName": "x"})
                key = "checked" if code == 401 else "throttled" if code == 429 else "other"
                counts[key] = counts.get(key, 0) + 1

        threads = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(args.threads)]
        for thread in threads:
            thread.start()
        attacked_logins = [None]
        login_thread = threading.Thread(target=lambda: attacked_logins.__setitem__(0, logins(args.seconds)), daemon=True) if args.addresses else None
        if login_thread:
            login_thread.start()
        attacked = pulls(base, device["token"], args.seconds)
        if login_thread:
            login_thread.join(args.seconds + 60)
        stop.set()
        for thread in threads:
            thread.join(35)
        source = f"{args.addresses} addresses through the proxy" if args.addresses else "one address"
        print(f"{args.threads} guessers from {source} for {args.seconds:.0f} s: {counts['checked']} guesses checked "
              f"({counts['checked'] / args.seconds:.2f}/s), {counts['throttled']} refused with 429 before any check")
        print(f"pull latency: quiet p50 {quiet[0]:.1f} ms p99 {quiet[1]:.1f} ms; under the guessers p50 {attacked[0]:.1f} ms p99 {attacked[1]:.1f} ms")
        if args.addresses and attacked_logins[0]:
            print(f"right-password login from a new address: quiet {summary(quiet_logins[0])}; under the guessers {summary(attacked_logins[0][0])}")
            print(f"right-password login from the laptop's address: quiet {summary(quiet_logins[1])}; under the guessers {summary(attacked_logins[0][1])}")


if __name__ == "__main__":
    main()
