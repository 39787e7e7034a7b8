#!/usr/bin/env python3
"""Every GET route of `grove serve`, as a fraction of a hello-world Hummingbird on the same machine in
the same run.

Builds (once, release) a hello-world Hummingbird 2 server in a scratch folder (default
~/.cache/grove-hello-world; the same Hummingbird release Grove resolves), starts it and a seeded
`grove serve` (--sessions stored sessions, a running focus session, a timer, an intention) on
loopback, and loads each route with wrk for --seconds (default 3) with --connections (default 16).
Hello-world is loaded again beside every route (before it and after it), and each route is compared
with the mean of those two runs: the machine's load moves during a run, and one reference taken at
the start let a busy minute pass a slow route. Prints requests/s and the fraction of hello-world's;
the goal (issue #9) is >= 0.5 for every route.
Bounded: each load stops by itself and both servers are stopped at the end.

    scripts/route-speed.py --skip-build
"""
import argparse, json, os, re, subprocess, sys, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, scratch_package, seeded_server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELLO_PACKAGE = """// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "hello",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1")],
    targets: [.executableTarget(name: "hello", dependencies: [.product(name: "Hummingbird", package: "hummingbird")])]
)
"""
HELLO_MAIN = """import Hummingbird
let router = Router()
router.get("/") { _, _ in "Hello, world!" }
let port = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 8089
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
"""

# The GET routes a person's pages and scripts call (ids filled in after seeding).
ROUTES = [
    "/api/v1/focus/current", "/api/v1/focus/stats", "/api/v1/focus/sessions?limit=20", "/api/v1/focus/forest?limit=20",
    "/api/v1/focus/daily", "/api/v1/focus/preferences", "/api/v1/focus/break", "/api/v1/timers", "/api/v1/timers/{timer}",
    "/api/v1/pause/apps", "/api/v1/pause/content?limit=20", "/api/v1/pause/usage", "/api/v1/pause/preferences",
    "/api/v1/intentions?limit=20", "/api/v1/intentions/current", "/api/v1/themes", "/api/v1/preferences", "/api/v1/reminders",
    "/api/v1/review", "/api/v1/focus/window", "/", "/focus", "/forest", "/stats", "/timers", "/intentions",
]


def build_hello(folder):
    return os.path.join(scratch_package(folder, HELLO_PACKAGE, {"hello": HELLO_MAIN}), "hello")


def load(url, seconds, connections):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", url], capture_output=True, text=True,
                         timeout=seconds + 15).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rps, int(errors.group(1)) if errors else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--scratch", default=os.path.expanduser("~/.cache/grove-hello-world"))
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--binary")
    a = ap.parse_args()
    a.seconds = max(1, min(10, a.seconds))
    if subprocess.run(["which", "wrk"], capture_output=True).returncode != 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, stdout=subprocess.DEVNULL)
    hello = build_hello(a.scratch)
    binary = a.binary or release_binary(ROOT, build=not a.skip_build)
    with seeded_server(binary, a.sessions, "grove-routes-") as base:
        def post(path, body):
            request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            return json.loads(urllib.request.urlopen(request).read())
        timer = post("/api/v1/timers", {"name": "Tea", "durationInSeconds": 180, "todos": ["Kettle"]})["id"]
        post("/api/v1/intentions", {"text": "Read a chapter", "scope": "day"})
        hello_server = subprocess.Popen([hello, "8089"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            # Answering, not a guessed second.
            for _ in range(200):
                try:
                    urllib.request.urlopen("http://127.0.0.1:8089/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            hello_url = "http://127.0.0.1:8089/"
            before, _ = load(hello_url, a.seconds, a.connections)
            print(f"hello-world Hummingbird: {before:,.0f} requests/s at the start (wrk -t2 -c{a.connections} -d{a.seconds}s; "
                  "measured again beside every route)")
            below = 0
            for route in ROUTES:
                rps, errors = load(base + route.replace("{timer}", timer), a.seconds, a.connections)
                after, _ = load(hello_url, a.seconds, a.connections)
                reference = (before + after) / 2
                before = after
                fraction = rps / reference
                below += fraction < 0.5
                print(f"  GET {route:<36} {rps:>9,.0f} requests/s   {fraction:5.2f}x hello-world ({reference:,.0f} beside it)"
                      f"{'   non-2xx ' + str(errors) if errors else ''}{'   < 0.5' if fraction < 0.5 else ''}", flush=True)
            print(f"{len(ROUTES) - below} of {len(ROUTES)} routes at >= 0.5x hello-world")
        finally:
            hello_server.terminate()
            hello_server.wait(timeout=10)


if __name__ == "__main__":
    main()
