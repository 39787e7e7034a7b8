#!/usr/bin/env python3
"""Password guessing against a real `grove sync-server`: 16 threads send wrong passwords for a while
(from one address, as on loopback), while one device pulls; prints how many guesses the server
actually checked per second, how many it refused with 429 before checking, and the device's pull
latency (p50 / p99) under the attack and without it.

  scripts/sync-guessers.py [--binary .build/release/grove] [--seconds 10] [--threads 16]
"""
import argparse, json, os, shutil, socket, subprocess, tempfile, threading, time, urllib.error, urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, {}


def pulls(base, token, seconds):
    latencies, deadline = [], time.time() + seconds
    while time.time() < deadline:
        started = time.perf_counter()
        request = urllib.request.Request(base + "/sync/v1/pull?cursor=0&limit=100", headers={"Authorization": f"Bearer {token}"})
        urllib.request.urlopen(request, timeout=30).read()
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)
    latencies.sort()
    return latencies[len(latencies) // 2], latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/grove")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="grove-guessers-")
    env = dict(os.environ, GROVE_HOME=root, GROVE_LOG="error")
    database, port = os.path.join(root, "sync.sqlite"), free_port()
    subprocess.run([args.binary, "sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input="the-right-password",
                   text=True, check=True, env=env, capture_output=True)
    server = subprocess.Popen([args.binary, "sync-server", "--port", str(port), "--database", database], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except Exception:
                time.sleep(0.05)
        status, device = post(base + "/sync/v1/devices", {"user": "ada", "password": "the-right-password", "deviceName": "laptop"})
        assert status == 201, status
        quiet = pulls(base, device["token"], 3)
        counts, stop = {"checked": 0, "throttled": 0}, threading.Event()

        def guess(index):
            while not stop.is_set():
                code, _ = post(base + "/sync/v1/devices", {"user": "ada", "password": f"guess-{index}-{time.time()}", "deviceName": "x"})
                counts["checked" if code == 401 else "throttled" if code == 429 else "other"] = counts.get("checked" if code == 401 else "throttled" if code == 429 else "other", 0) + 1

        threads = [threading.Thread(target=guess, args=(i,), daemon=True) for i in range(args.threads)]
        for thread in threads:
            thread.start()
        attacked = pulls(base, device["token"], args.seconds)
        stop.set()
        for thread in threads:
            thread.join(35)
        print(f"{args.threads} guessers for {args.seconds:.0f} s: {counts['checked']} guesses checked ({counts['checked'] / args.seconds:.2f}/s), "
              f"{counts['throttled']} refused with 429 before any check")
        print(f"pull latency: quiet p50 {quiet[0]:.1f} ms p99 {quiet[1]:.1f} ms; under the guessers p50 {attacked[0]:.1f} ms p99 {attacked[1]:.1f} ms")
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
