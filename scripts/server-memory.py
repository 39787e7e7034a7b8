#!/usr/bin/env python3
"""`grove serve`'s resident memory after heavy requests, against its idle figure.

Seeds --sessions sessions, warms the server up (each kind of request once), waits, takes the idle RSS; then asks 400
distinct heavy URLs (forest pages far back, 1,000-session pages) and a full export, waiting --settle
seconds after each batch. Prints each RSS and its ratio to idle; the goal (issue #9) is <= 1.2x.
Bounded: a fixed number of requests, then the server is stopped.

    scripts/server-memory.py --skip-build
"""
import argparse, datetime, os, re, subprocess, sys, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import release_binary, seeded_server  # noqa: E402


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=100_000)
    ap.add_argument("--settle", type=float, default=3)
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--binary", help="the grove to measure (default: the release build)")
    a = ap.parse_args()
    binary = a.binary or release_binary(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), build=not a.skip_build)
    with seeded_server(binary, a.sessions, "grove-memory-") as base:
        port = base.rsplit(":", 1)[1]
        pid = seeded_server.pid
        get = lambda path: urllib.request.urlopen(base + path, timeout=60).read()
        # Warmed up: each kind of request once (code, metadata and statement caches are loaded once per
        # process, not per request), then idle.
        for path in ["/", "/focus", "/stats", "/api/v1/focus/stats", "/forest?before=2000-01-01", "/api/v1/focus/sessions?limit=1000",
                     "/api/v1/export"]:
            get(path)
        time.sleep(a.settle)
        idle = rss(pid)
        print(f"idle (warmed up)                        {idle:6.1f} MiB")
        today = datetime.date.today()
        first = "/api/v1/focus/sessions?limit=1000"
        page = first
        for i in range(200):
            get(f"/forest?before={(today - datetime.timedelta(days=i * 3)).isoformat()}")
            # Deeper and deeper pages, by the next page's link (a cursor; offset stops at 10,000).
            with urllib.request.urlopen(page if page.startswith("http") else base + page, timeout=60) as reply:
                reply.read()
                link = re.search(r'<([^>]+)>;\s*rel="next"', reply.headers.get("Link") or "")
            page = link.group(1) if link else first
        time.sleep(a.settle)
        after = rss(pid)
        print(f"after 400 distinct heavy requests       {after:6.1f} MiB   {after / idle:.2f}x idle" + ("" if after <= 1.2 * idle else "   > 1.2"))
        get("/api/v1/export")
        time.sleep(a.settle)
        export = rss(pid)
        print(f"after a full export ({a.sessions:,} sessions) {export:6.1f} MiB   {export / idle:.2f}x idle" + ("" if export <= 1.2 * idle else "   > 1.2"))


if __name__ == "__main__":
    main()
