#!/usr/bin/env python3
"""Grove Sync on loopback, bounded: the SQLite sync server's push and pull throughput with 1, 10 and 100
simulated devices, and poke-to-applied latency into a real `grove serve --sync`.

    scripts/sync-bench.py [--seconds 5] [--samples 60] [--no-build]

Prints mutations pushed per second, changes pulled per second, and the p50/p99 time from a push on one
device to the change being readable from another device's running server (which hears of it through the
sync server's event stream). Goals: >= 1,000 mutations/s pushed; p99 poke-to-applied <= 100 ms.
Everything it starts listens on 127.0.0.1 and is stopped at the end; every phase stops by itself.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, hlc, release_binary, wait_for  # noqa: E402

PASSWORD = "bench-password-1"


def call(base, method, path, body=None, token=None, timeout=30):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read() or b"null")


class Device:
    """A device speaking the wire protocol directly: numbered mutations, its own clock node."""

    def __init__(self, base, name):
        answer = call(base, "POST", "/sync/v1/devices", {"user": "bench", "password": PASSWORD, "deviceName": name})
        self.base, self.id, self.token = base, answer["deviceId"], answer["token"]
        self.node = self.id.lower().replace("-", "")[:16]
        self.next_id, self.counter = 1, 0

    def timer_puts(self, count):
        now = int(time.time() * 1000)
        mutations = []
        for _ in range(count):
            self.counter += 1
            clock = hlc(now, self.counter % 65536, self.node)
            timer = str(uuid.uuid4()).upper()
            fields = {"name": f"Timer {self.counter}", "durationInSeconds": 600, "icon": "timer", "colorHex": "#007AFF",
                      "notes": None, "createdAt": now, "updatedAt": now}
            mutations.append({"id": self.next_id, "hlc": clock, "entity": "timer", "entityId": timer, "op": "put",
                              "fields": fields, "insert": True})
            self.next_id += 1
        return mutations

    def push(self, mutations):
        return call(self.base, "POST", "/sync/v1/push", {"deviceId": self.id, "schemaVersion": 1, "mutations": mutations}, self.token)

    def pull(self, cursor, limit=500):
        # full=true: also the changes this device pushed itself (a normal pull skips those), so that
        # every device reads the whole history and the figure is pages of real rows.
        return call(self.base, "GET", f"/sync/v1/pull?cursor={cursor}&limit={limit}&full=true", token=self.token)


def run_phase(devices, seconds, work):
    """Runs `work(device, stop)` on every device at once for `seconds`; returns the summed counts."""
    stop = time.time() + seconds
    totals = []
    lock = threading.Lock()

    def worker(device):
        count = work(device, stop)
        with lock:
            totals.append(count)

    threads = [threading.Thread(target=worker, args=(d,)) for d in devices]
    started = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 60)
    return sum(totals), time.time() - started


def throughput(binary, seconds):
    home = tempfile.mkdtemp(prefix="grove-sync-bench-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database = os.path.join(home, "sync-server.sqlite")
    env = dict(os.environ, GROVE_HOME=home)
    subprocess.run([binary, "sync-server", "user", "add", "bench", "--password-stdin", "--database", database], input=PASSWORD.encode(),
                   env=env, check=True, capture_output=True)
    server = subprocess.Popen([binary, "sync-server", "--port", str(port), "--database", database], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    try:
        wait_for(base + "/healthz")
        all_devices = [Device(base, f"bench {i}") for i in range(100)]
        for count in (1, 10, 100):
            devices = all_devices[:count]

            def push_work(device, stop):
                pushed = 0
                while time.time() < stop:
                    batch = device.timer_puts(100)
                    device.push(batch)
                    pushed += len(batch)
                return pushed

            pushed, elapsed = run_phase(devices, seconds, push_work)

            def pull_work(device, stop):
                pulled, cursor = 0, 0
                while time.time() < stop:
                    page = device.pull(cursor)
                    pulled += len(page["changes"])
                    cursor = page["cursor"] if page["hasMore"] else 0
                return pulled

            pulled, pull_elapsed = run_phase(devices, seconds, pull_work)
            rows.append((count, pushed / elapsed, pulled / pull_elapsed))
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(home, ignore_errors=True)
    return rows


def latency(binary, samples):
    """A real `grove serve --sync` as device B; device A pushes a rename; the time until B's API shows it."""
    root = tempfile.mkdtemp(prefix="grove-sync-latency-")
    sync_port, serve_port = free_port(), free_port()
    base, serve = f"http://127.0.0.1:{sync_port}", f"http://127.0.0.1:{serve_port}"
    database = os.path.join(root, "sync-server.sqlite")
    env_b = dict(os.environ, GROVE_HOME=os.path.join(root, "b"), NO_COLOR="1")
    subprocess.run([binary, "sync-server", "user", "add", "bench", "--password-stdin", "--database", database], input=PASSWORD.encode(),
                   env=env_b, check=True, capture_output=True)
    sync_server = subprocess.Popen([binary, "sync-server", "--port", str(sync_port), "--database", database], env=env_b,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    serve_b = None
    try:
        wait_for(base + "/healthz")
        subprocess.run([binary, "sync", "login", base, "--user", "bench", "--password-stdin", "--plain", "--device-name", "b"], input=PASSWORD.encode(),
                       env=env_b, check=True, capture_output=True)
        subprocess.run([binary, "sync"], env=env_b, check=True, capture_output=True)
        serve_b = subprocess.Popen([binary, "serve", "--sync", "--port", str(serve_port)], env=env_b,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(serve + "/api/v1/timers")
        a = Device(base, "a")
        [put] = a.timer_puts(1)
        timer = put["entityId"]
        a.push([put])
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                urllib.request.urlopen(f"{serve}/api/v1/timers/{timer}", timeout=1).read()
                break
            except urllib.error.HTTPError:
                time.sleep(0.01)
        times = []
        for i in range(samples):
            a.counter += 1
            name = f"Renamed {i}"
            mutation = {"id": a.next_id, "hlc": hlc(int(time.time() * 1000), a.counter % 65536, a.node), "entity": "timer",
                        "entityId": timer, "op": "put", "fields": {"name": name}}
            a.next_id += 1
            started = time.perf_counter()
            a.push([mutation])
            while time.perf_counter() - started < 5:
                body = urllib.request.urlopen(f"{serve}/api/v1/timers/{timer}", timeout=1).read()
                if json.loads(body)["name"] == name:
                    break
                time.sleep(0.001)
            times.append((time.perf_counter() - started) * 1000)
            time.sleep(0.05)
        return times
    finally:
        for process in (serve_b, sync_server):
            if process:
                process.terminate()
                process.wait(timeout=15)
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5, help="length of each throughput phase")
    parser.add_argument("--samples", type=int, default=60, help="poke-to-applied samples")
    parser.add_argument("--no-build", action="store_true", help="use the release binary as built")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = release_binary(root, build=not args.no_build)
    print("devices  pushed mutations/s  pulled changes/s")
    for count, pushed, pulled in throughput(binary, args.seconds):
        print(f"{count:7d}  {pushed:18,.0f}  {pulled:16,.0f}")
    times = latency(binary, args.samples)
    p99 = sorted(times)[max(0, int(len(times) * 0.99) - 1)]
    print(f"poke-to-applied over {len(times)} changes: p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
