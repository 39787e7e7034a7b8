#!/usr/bin/env python3
"""Writes through `grove serve` against SQLite's own commit floor, same file system, same durability.

The floor: SQLite (Python's sqlite3, the same library Grove links) committing one small row at a time
into a WAL database with synchronous=FULL, then deleting it — two commits, each an fsync, the least a
durable write can cost here. Grove: `POST /api/v1/timers` then `DELETE /api/v1/timers/ID` over
--clients keep-alive connections (4 and 16 by default) for --seconds (driven by wrk when installed —
`apt-get install wrk` —, else Python threads). Concurrent writes share commits (group commit). Prints pairs/s for both and the ratio;
the goal (issue #9) is >= 0.8. Then one client, and the CPU each acknowledged pair costs: the server
process's (user + system, from /proc) against the floor's own (issue 41: <= 3x), and the server's
context switches per pair (a count, steady where CPU time wanders). The same for the stack's floor
(`floors.py`: a Hummingbird 2 server writing through a GRDB pool, built once in --scratch), so that
Grove's CPU is read against what any server on that stack pays (--no-floors skips it). Bounded:
stops by itself, stops its servers.

    scripts/write-speed.py --skip-build
"""
import argparse, http.client, json, os, re, shutil, sqlite3, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from floors import stack_floors  # noqa: E402
from seed import free_port, release_binary, seeded_server, wait_for  # noqa: E402


def floor(seconds):
    folder = tempfile.mkdtemp(prefix="grove-floor-")
    db = sqlite3.connect(os.path.join(folder, "floor.sqlite"), isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE timer (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, duration INTEGER NOT NULL, color TEXT NOT NULL) STRICT")
    pairs, deadline = 0, time.monotonic() + seconds
    cpu, switched = time.process_time(), context_switches(os.getpid())
    while time.monotonic() < deadline:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO timer VALUES (?, 'Tea', 180, '#007AFF')", (str(pairs),))
        db.execute("COMMIT")
        db.execute("BEGIN IMMEDIATE")
        db.execute("DELETE FROM timer WHERE id = ?", (str(pairs),))
        db.execute("COMMIT")
        pairs += 1
    floor.cpu = (time.process_time() - cpu) / max(pairs, 1)
    floor.switches = (context_switches(os.getpid()) - switched) / max(pairs, 1)
    return pairs / seconds


def context_switches(pid):
    """Every thread's context switches so far (voluntary and not), from /proc: a count, not a time,
    so it reads the same on a loaded machine; each one is a thread woken or preempted."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                total += sum(int(line.split()[1]) for line in f if line.startswith(("voluntary_ctxt", "nonvoluntary_ctxt")))
        except FileNotFoundError:
            pass  # a thread that ended meanwhile
    return total


def cpu_seconds(pid):
    """A process's CPU time so far (user + system), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


WRK_SCRIPT = r"""
-- POST a timer, then DELETE it: each connection alternates; a pair is a 204 after its 201.
local ids = {}
deleted = 0  -- a global: done() reads it from each thread
local body = '{"name":"Tea","durationInSeconds":180,"colorHex":"#007AFF","todos":[]}'
request = function()
  local id = table.remove(ids)
  if id then return wrk.format("DELETE", "/api/v1/timers/" .. id, {["Origin"] = origin}) end
  return wrk.format("POST", "/api/v1/timers", {["Content-Type"] = "application/json", ["Origin"] = origin}, body)
end
response = function(status, headers, text)
  if status == 201 then
    local id = text:match('"id"%s*:%s*"([^"]+)"')
    if id then table.insert(ids, id) end
  elseif status == 204 then
    deleted = deleted + 1
  end
end
local threads = {}
setup = function(thread) thread:set("origin", "ORIGIN"); table.insert(threads, thread) end
done = function()
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("deleted") end
  io.write("PAIRS " .. total .. "\n")
end
"""


def grove_wrk(base, seconds, clients):
    """The same pairs driven by wrk (C, no interpreter lock between the clients)."""
    script = os.path.join(tempfile.mkdtemp(prefix="grove-wrk-"), "pairs.lua")
    with open(script, "w") as f:
        f.write(WRK_SCRIPT.replace("ORIGIN", base))
    out = subprocess.run(["wrk", f"-t{min(2, clients)}", f"-c{clients}", f"-d{int(seconds)}s", "-s", script, base + "/"], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"PAIRS (\d+)", out).group(1)) / seconds


def grove(base, seconds, clients):
    host, port = base.replace("http://", "").split(":")
    counts, stop = [0] * clients, time.monotonic() + seconds
    body = json.dumps({"name": "Tea", "durationInSeconds": 180, "colorHex": "#007AFF", "todos": []})
    headers = {"Content-Type": "application/json", "Origin": base}

    def work(i):
        c = http.client.HTTPConnection(host, int(port), timeout=10)
        while time.monotonic() < stop:
            c.request("POST", "/api/v1/timers", body, headers)
            r = c.getresponse()
            made = json.loads(r.read())
            assert r.status == 201, (r.status, made)
            c.request("DELETE", f"/api/v1/timers/{made['id']}", headers=headers)
            r = c.getresponse()
            r.read()
            assert r.status == 204, r.status
            counts[i] += 1
        c.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--clients", default="4,16", help="comma-separated client counts, each measured in turn")
    ap.add_argument("--skip-build", action="store_true")
    ap.add_argument("--binary")
    ap.add_argument("--no-floors", action="store_true", help="skip the Hummingbird + GRDB floor")
    ap.add_argument("--scratch", default=os.path.expanduser("~/.cache/grove-floors"))
    a = ap.parse_args()
    binary = a.binary or release_binary(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), build=not a.skip_build)
    low = floor(a.seconds)
    print(f"sqlite3 commit floor (WAL, synchronous=FULL): {low:,.0f} insert+delete pairs/s")
    # Concurrent writes share commits (group commit): the more clients, the fewer fsyncs per write.
    for clients in [int(c) for c in a.clients.split(",")]:
        with seeded_server(binary, 1000, "grove-writes-") as base:
            rate = grove_wrk(base, a.seconds, clients) if shutil.which("wrk") else grove(base, a.seconds, clients)
        print(f"grove serve POST + DELETE /api/v1/timers:      {rate:,.0f} pairs/s ({clients} clients)   {rate / low:.2f}x the floor"
              + ("" if rate >= 0.8 * low else "   < 0.8"))
    # One client: the server's CPU per acknowledged pair, against the floor's (the same commits).
    with seeded_server(binary, 1000, "grove-writes-") as base:
        used, switches = one_client(seeded_server.pid, base, a.seconds)
    print(f"CPU per acknowledged pair, one client: grove serve {used * 1000:.3f} ms, the floor {floor.cpu * 1000:.3f} ms"
          f"   {used / max(floor.cpu, 1e-9):.1f}x" + ("" if used <= 3 * floor.cpu else "   > 3"))
    print(f"context switches per acknowledged pair, one client: grove serve {switches:.1f}, the floor {floor.switches:.1f}"
          f"   {switches / max(floor.switches, 1e-9):.1f}x")
    if a.no_floors:
        return
    os.makedirs(a.scratch, exist_ok=True)
    _, write_floor = stack_floors(a.scratch)
    folder, port = tempfile.mkdtemp(prefix="grove-write-floor-"), free_port()
    server = subprocess.Popen([write_floor, os.path.join(folder, "floor.sqlite"), str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/")
        stack, stack_switches = one_client(server.pid, f"http://127.0.0.1:{port}", a.seconds)
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(folder, ignore_errors=True)
    print(f"the stack's floor (Hummingbird 2 + GRDB, one INSERT or DELETE a request), one client: {stack * 1000:.3f} ms"
          f" a pair, {stack / max(floor.cpu, 1e-9):.1f}x the commit floor, {stack_switches:.1f} context switches;"
          f" grove serve is {used / stack:.2f}x it")


def one_client(pid, base, seconds):
    """CPU seconds and context switches of process `pid` per POST + DELETE pair, one client."""
    before, switched = cpu_seconds(pid), context_switches(pid)
    pairs = max(grove(base, seconds, 1) * seconds, 1)
    return (cpu_seconds(pid) - before) / pairs, (context_switches(pid) - switched) / pairs

if __name__ == "__main__":
    main()
