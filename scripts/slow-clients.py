#!/usr/bin/env python3
"""Slow clients against a real `grove sync-server`: N connections each send a request head promising a
large body to a route that answers without reading it (`/healthz`), then drip one byte every 10 s;
meanwhile a device pulls. Prints the device's pull latency (p50 / p99) with no slow clients and while
they are held, how many requests failed, and how many of the slow connections the server had closed
by the end (it closes a request not read within its deadline, answered or not). Bounded: the slow
connections are held for --seconds, then closed.

  scripts/slow-clients.py [--binary .build/release/grove] [--connections 4000] [--seconds 40]
"""
import argparse, os, resource, socket, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sync_server import PASSWORD, post, pulls, sync_server  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/grove")
    parser.add_argument("--connections", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=40)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.connections + 1024)), hard))
    slow = []
    with sync_server(args.binary) as base:
        port = int(base.rsplit(":", 1)[1])
        status, device = post(base + "/sync/v1/devices", {"user": "ada", "password": PASSWORD, "deviceName": "laptop"})
        assert status == 201, status
        token = device["token"]
        quiet = pulls(base, token, 3)

        head = b"POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000000\r\n\r\n"
        opened_at = time.time()
        for _ in range(args.connections):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(head)
                s.setblocking(False)
                slow.append(s)
            except OSError:
                break
        opened = len(slow)
        stop = threading.Event()

        def drip():
            while not stop.wait(10):
                for s in slow:
                    try:
                        s.send(b"x")
                    except OSError:
                        pass

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        held = pulls(base, token, max(1.0, args.seconds - (time.time() - opened_at)))
        stop.set()
        closed = 0
        for s in slow:
            try:
                if s.recv(65536) == b"":
                    closed += 1
                else:  # answered: is it closed after the answer?
                    s.setblocking(True)
                    s.settimeout(0.01)
                    try:
                        while s.recv(65536):
                            pass
                        closed += 1
                    except OSError:
                        pass
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        print(f"{opened} slow connections (a body promised to /healthz, one byte per 10 s) held for {args.seconds:.0f} s; "
              f"{closed} closed by the server by then")
        print(f"pull latency: quiet p50 {quiet[0]:.1f} ms p99 {quiet[1]:.1f} ms ({quiet[2]} failed); "
              f"with the slow connections p50 {held[0]:.1f} ms p99 {held[1]:.1f} ms ({held[2]} failed)")
        for s in slow:
            s.close()


if __name__ == "__main__":
    main()
