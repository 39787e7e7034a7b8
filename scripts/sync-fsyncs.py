#!/usr/bin/env python3
"""How many times the sync server asks the disk to persist (fsync/fdatasync) per 100 acknowledged
pushes: a real `grove sync-server` (SQLite) under `strace -f -c`, 100 pushes one after another from one
device. "Acknowledged means on disk" (SYNC.md): at least one sync per push.

  scripts/sync-fsyncs.py [--binary .build/release/grove] [--pushes 100]     (needs strace)
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, hlc, wait_for  # noqa: E402


def request(url, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method="POST" if data else "GET"), timeout=30) as reply:
        return json.loads(reply.read())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/grove")
    parser.add_argument("--pushes", type=int, default=100)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="grove-fsyncs-")
    env = dict(os.environ, GROVE_HOME=root, GROVE_LOG="error")
    database, port, trace = os.path.join(root, "sync.sqlite"), free_port(), os.path.join(root, "strace.txt")
    subprocess.run([args.binary, "sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input="the-right-password",
                   text=True, check=True, env=env, capture_output=True)
    server = subprocess.Popen(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", trace,
                               args.binary, "sync-server", "--port", str(port), "--database", database],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/healthz")
        device = request(base + "/sync/v1/devices", {"user": "ada", "password": "the-right-password", "deviceName": "laptop"})
        node = device["deviceId"].replace("-", "").lower()[:16]
        millis = int(time.time() * 1000)
        # Counted from here: the calls so far (start, migration, registration) are subtracted below.
        time.sleep(0.2)
        before = 0
        for number in range(1, args.pushes + 1):
            mutation = {"id": number, "hlc": hlc(millis + number, 0, node), "entity": "focusPreferences", "entityId": "focus", "op": "put",
                        "fields": {"focusMs": 60_000 * (1 + number % 90)}}
            request(base + "/sync/v1/push", {"deviceId": device["deviceId"], "schemaVersion": 1, "mutations": [mutation]}, device["token"])
    finally:
        # The server is strace's child: stop it, and strace prints its counts as it exits.
        subprocess.run(["pkill", "-TERM", "-P", str(server.pid)])
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            subprocess.run(["pkill", "-KILL", "-P", str(server.pid)])
            server.kill()
            server.wait()
    text = open(trace).read()
    calls = sum(int(match.group(1)) for match in re.finditer(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?f(?:data)?sync\s*$", text, re.M))
    print(f"{calls} fsync/fdatasync calls over the server's life for {args.pushes} acknowledged pushes (and its start, a migration and one registration)")
    print(text.strip().splitlines()[-1] if text.strip() else "strace printed nothing")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
