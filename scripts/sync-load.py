#!/usr/bin/env python3
"""Grove Sync under many users, bounded: N users x 3 devices against two `grove sync-server --postgres`
instances on one PostgreSQL (or one instance on SQLite, for comparison), on loopback.

    scripts/sync-load.py --postgres postgres://grove:PASS@127.0.0.1/grove_load [--binary PATH]
    scripts/sync-load.py --sqlite [--binary PATH]
    options: [--users 1000] [--devices 3] [--seconds 20] [--samples 60] [--encrypted]

--encrypted makes every account end-to-end encrypted (a key envelope set on each) and every push carry
sealed field groups (`@name: gs1:<key id>:<box>`, each box the size a padded ChaChaPoly box of that
value has): the server's work on an encrypted account, measured against a plain run of the same shape.

Prints pushes/s and pulls/s across the instances, p50/p99 push latency, and p50/p99 poke-to-applied
latency: from a push on a device of instance 1 until another device of the same user, listening to
instance 2's event stream, has pulled the change. Goals on a 2-core machine: >= 1,000 pushes/s,
p99 push <= 50 ms, p99 poke-to-applied <= 200 ms. The binary must be built with the trait for
--postgres: `swift build -c release --traits Postgres --scratch-path .build-postgres-release
--static-swift-stdlib --product grove`. Needs Python's `bcrypt` (pip install bcrypt): accounts are
created in bulk with a cheap hash, so that setting up 3,000 devices takes seconds, not minutes.
Everything listens on 127.0.0.1; the load phase stops by itself after --seconds (at most 60).
"""
import argparse, asyncio, base64, json, os, random, re, shutil, sqlite3, statistics, subprocess, sys, tempfile, time, uuid
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, hlc, wait_for  # noqa: E402

PASSWORD = "load-password-1"
CURSOR = re.compile(rb'"cursor":(\d+)')
ENCRYPTED = False
TIMER_GROUPS = ["name", "durationInSeconds", "icon", "colorHex", "notes", "createdAt", "updatedAt"]


BOXES = {}


def sealed(fields, key_id):
    """Each group as the server receives it on an encrypted account: a box it cannot open, as long as a
    real one (12-byte nonce, the value's JSON padded to 32 bytes, 16-byte tag), under the account's key.
    Random bytes from a pool made once: the client shares the server's cores, and the server can tell a
    box from another only by its size."""
    result = {}
    for group in TIMER_GROUPS:
        plain = len(json.dumps({group: fields.get(group)}))
        size = 12 + (plain // 32 + 1) * 32 + 16
        pool = BOXES.get(size)
        if pool is None:  # made once a size (`setdefault` would make the pool at every call)
            pool = BOXES[size] = [base64.b64encode(os.urandom(size)).decode() for _ in range(64)]
        result["@" + group] = f"gs1:{key_id}:" + pool[random.randrange(64)]
    return result


class Connection:
    """One keep-alive HTTP/1.1 connection (requests one after another): small, so that Python keeps up."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, body=None, token=None, parse=True):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        # The whole head in one read (one await, not one a line: the client shares the server's cores).
        try:
            head_bytes = await self.reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            self.writer = None
            raise ConnectionError("the server closed the connection")
        lines = head_bytes.split(b"\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        payload = await self.reader.readexactly(length) if length else b""
        status = int(lines[0].split()[1])
        if not parse and status == 200:
            return status, None
        if parse == "cursor" and status == 200:
            # A load pull needs only where to go on from: read without parsing every change (the client
            # shares the server's cores, and a sealed page is twice the bytes of a plain one).
            found = CURSOR.search(payload)
            return status, {"cursor": int(found.group(1)) if found else 0}
        return status, (json.loads(payload) if payload else None)


class Device:
    def __init__(self, user, index, port):
        self.user, self.index, self.port = user, index, port
        self.id = self.token = self.node = None
        self.next_id, self.counter, self.cursor = 1, 0, 0
        self.timer = str(uuid.uuid4()).upper()

    def mutation(self, name):
        self.counter += 1
        now = int(time.time() * 1000)
        fields = {"name": name, "durationInSeconds": 600, "icon": "timer", "colorHex": "#007AFF", "notes": None,
                  "createdAt": now, "updatedAt": now}
        m = {"id": self.next_id, "hlc": hlc(now, self.counter % 65536, self.node), "entity": "timer", "entityId": self.timer,
             "op": "put", "fields": sealed(fields, key_id(self.user)) if ENCRYPTED else fields, "insert": True}
        self.next_id += 1
        self.last_hlc = m["hlc"]
        return m


def key_id(user):
    """The (made-up) key id of a user's account: 16 hex digits."""
    return KEY_IDS.get(user) or KEY_IDS.setdefault(user, uuid.uuid5(uuid.NAMESPACE_URL, user).hex[:16])


KEY_IDS = {}


def envelope(user):
    """A key envelope the server accepts (it reads only the key id; nothing here opens anything)."""
    b64 = lambda n: base64.b64encode(os.urandom(n)).decode()
    return json.dumps({"version": 1, "keyId": key_id(user), "derivation": {"name": "scrypt", "logN": 15, "r": 8, "p": 1, "salt": b64(16)},
                       "byPassphrase": b64(60), "recoverySalt": b64(16), "byRecovery": b64(60), "changedAt": 0, "changedBy": "load"})


async def register(devices, connections):
    queues = {}
    for device in devices:
        queues.setdefault(device.port, []).append(device)

    async def worker(connection):
        queue = queues.get(connection.port, [])
        while queue:
            device = queue.pop()
            # One login per address is checked at a time (the server's password gate): a login sent
            # alongside another is told to retry. A load script's registrations retry after a short
            # random pause, sooner than `retryAfter`, to set up quickly.
            for attempt in range(60):
                status, answer = await connection.request("POST", "/sync/v1/devices",
                                                          {"user": device.user, "password": PASSWORD, "deviceName": f"d{device.index}"})
                if status != 429:
                    break
                await asyncio.sleep(min(float((answer or {}).get("retryAfter", 1)), 1) * random.uniform(0.02, 0.2))
            if status != 201:
                raise SystemExit(f"registering a device: {status} {answer}")
            device.id, device.token = answer["deviceId"], answer["token"]
            device.node = device.id.lower().replace("-", "")[:16]

    await asyncio.gather(*(worker(c) for c in connections))


async def load(devices, ports, seconds, connections_per_port=24, kill=None):
    """Each connection serves a share of the devices in turn: push one change, and every fourth turn pull.
    `kill` = (after seconds, process, port): that instance gets SIGKILL mid-load; its devices retry the
    unanswered push on the other instance (same mutation id, as a real device does) and carry on there."""
    pushes, pulls, latencies, errors = [0], [0], [], []
    stop = time.time() + seconds
    dead = set()

    async def killer():
        after, process, port = kill
        await asyncio.sleep(after)
        process.kill()
        dead.add(port)

    async def worker(port, share):
        connection = Connection(port)
        turn = 0
        while time.time() < stop:
            device = share[turn % len(share)]
            turn += 1
            name = f"T{turn}"
            # Encoded once (not once a retry), answer left unparsed when it is a 200: the client shares
            # the server's two cores, and every cycle it spends is one the servers do not get.
            body = json.dumps({"deviceId": device.id, "schemaVersion": 1, "mutations": [device.mutation(name)]}).encode()
            started = time.perf_counter()
            while True:
                try:
                    status, answer = await connection.request("POST", "/sync/v1/push", body, device.token, parse=False)
                    break
                except (ConnectionError, asyncio.IncompleteReadError, OSError):
                    if not dead or connection.port not in dead:
                        await asyncio.sleep(0.05)
                    alive = [p for p in ports if p not in dead] or ports
                    connection = Connection(alive[turn % len(alive)])
            latencies.append((time.perf_counter() - started) * 1000)
            if status == 200:
                device.acked = device.last_hlc if ENCRYPTED else name
            else:
                errors.append((status, answer))
            pushes[0] += 1
            if turn % 4 == 0:
                try:
                    status, page = await connection.request("GET", f"/sync/v1/pull?cursor={device.cursor}&limit=100", token=device.token,
                                                            parse="cursor")
                except (ConnectionError, asyncio.IncompleteReadError, OSError):
                    alive = [p for p in ports if p not in dead] or ports
                    connection = Connection(alive[turn % len(alive)])
                    continue
                if status == 200:
                    device.cursor = page["cursor"]
                    pulls[0] += 1
                else:
                    errors.append((status, page))

    tasks = [killer()] if kill else []
    for port in ports:
        mine = [d for d in devices if d.port == port]
        for k in range(connections_per_port):
            share = mine[k::connections_per_port]
            if share:
                tasks.append(worker(port, share))
    started = time.time()
    await asyncio.gather(*tasks)
    return pushes[0], pulls[0], latencies, errors, time.time() - started


async def check_nothing_lost(devices, port):
    """Every device's timer holds the last name the server acknowledged to it (or the one whose answer the
    killed instance never sent): read through the surviving instance."""
    lost = []
    connection = Connection(port)
    by_user = {}
    for device in devices:
        by_user.setdefault(device.user, []).append(device)
    for user_devices in by_user.values():
        reader = user_devices[0]
        names, cursor = {}, 0
        while True:
            status, page = await connection.request("GET", f"/sync/v1/pull?cursor={cursor}&limit=1000&full=true", token=reader.token)
            for change in page["changes"]:
                names[change["entityId"]] = change.get("hlc") if ENCRYPTED else change.get("fields", {}).get("name")
            cursor = page["cursor"]
            if not page["hasMore"]:
                break
        for device in user_devices:
            expected = getattr(device, "acked", None)
            if expected is None:
                continue
            held = names.get(device.timer)
            # A later push may have committed without its answer arriving: then the held name is later.
            behind = held < expected if ENCRYPTED else int(held[1:]) < int(expected[1:]) if held else True
            if held is None or behind:
                lost.append((device.user, device.timer, expected, held))
    return lost


async def poke_latency(pairs, samples):
    """Device a (instance 1) pushes; device b listens to instance 2's events and pulls when poked."""
    times = []
    for a, b in pairs[:samples]:
        reader, writer = await asyncio.open_connection("127.0.0.1", b.port)
        writer.write(f"GET /sync/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {b.token}\r\n\r\n".encode())
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        # The first event is the current head.
        while b"data:" not in await reader.readline():
            pass
        puller = Connection(b.port)
        status, page = await puller.request("GET", "/sync/v1/pull?cursor=0&limit=500", token=b.token)
        cursor = page["cursor"]
        pusher = Connection(a.port)
        name = f"poke {uuid.uuid4()}"
        started = time.perf_counter()
        await pusher.request("POST", "/sync/v1/push", {"deviceId": a.id, "schemaVersion": 1, "mutations": [a.mutation(name)]}, a.token)
        try:
            seen = False
            while not seen and time.perf_counter() - started < 5:
                line = await asyncio.wait_for(reader.readline(), 5)
                if not line.startswith(b"data:"):
                    continue
                status, page = await puller.request("GET", f"/sync/v1/pull?cursor={cursor}&limit=500", token=b.token)
                cursor = page["cursor"]
                seen = any(c.get("hlc") == a.last_hlc if ENCRYPTED else c.get("fields", {}).get("name") == name for c in page["changes"])
            if seen:
                times.append((time.perf_counter() - started) * 1000)
        except asyncio.TimeoutError:
            pass
        writer.close()
    return times


def cpu_seconds(pid):
    """A process's user and system time so far, from /proc (0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(len(ordered) * p) - 1))] if ordered else float("nan")


def create_users_postgres(url, users, password_hash):
    parsed = urlparse(url)
    env = dict(os.environ, PGPASSWORD=parsed.password or os.environ.get("PGPASSWORD", ""))
    database = parsed.path.lstrip("/")
    args = ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", parsed.hostname or "127.0.0.1", "-p", str(parsed.port or 5432), "-U", parsed.username, database]
    run = f"load{int(time.time())}"
    subprocess.run(args + ["-c", f"INSERT INTO sync_user (name, password_hash, created_at) SELECT '{run}-' || g, '{password_hash}', 0 "
                                 f"FROM generate_series(1, {users}) g"], env=env, check=True)
    names = [f"{run}-{i}" for i in range(1, users + 1)]
    if ENCRYPTED:
        rows = "\n".join(f"{n}\t{key_id(n)}\t{envelope(n)}" for n in names)
        subprocess.run(args + ["-c", "CREATE TEMP TABLE k (name TEXT, key_id TEXT, envelope TEXT); "
                                     "COPY k FROM STDIN; UPDATE sync_user u SET key_id = k.key_id, key_envelope = k.envelope FROM k WHERE u.name = k.name"],
                       env=env, check=True, input=rows.encode())
    return names


def create_users_sqlite(path, users, password_hash):
    run = f"load{int(time.time())}"
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO sync_user (name, password_hash, created_at) VALUES (?, ?, 0)",
                       [(f"{run}-{i}", password_hash) for i in range(1, users + 1)])
        if ENCRYPTED:
            db.executemany("UPDATE sync_user SET key_id = ?, key_envelope = ? WHERE name = ?",
                           [(key_id(f"{run}-{i}"), envelope(f"{run}-{i}"), f"{run}-{i}") for i in range(1, users + 1)])
    return [f"{run}-{i}" for i in range(1, users + 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    store = parser.add_mutually_exclusive_group(required=True)
    store.add_argument("--postgres", help="postgres://USER:PASS@HOST:PORT/DATABASE (two instances on it)")
    store.add_argument("--sqlite", action="store_true", help="one instance on a new SQLite file")
    parser.add_argument("--binary", default=None, help="the grove binary (default: .build-postgres-release's, else the release build)")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--devices", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--pool-size", type=int, default=4, help="each instance's PostgreSQL connections (2 x cores / instances)")
    parser.add_argument("--connections", type=int, default=16, help="client connections per instance (32 requests in flight over two instances)")
    parser.add_argument("--kill-after", type=float, default=None,
                        help="SIGKILL the first instance this many seconds into the load, then check that nothing acknowledged was lost")
    parser.add_argument("--encrypted", action="store_true", help="end-to-end encrypted accounts: sealed pushes")
    args = parser.parse_args()
    args.seconds = min(args.seconds, 60)
    global ENCRYPTED
    ENCRYPTED = args.encrypted
    try:
        import bcrypt
    except ImportError:
        raise SystemExit("needs Python's bcrypt: python3 -m pip install bcrypt")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = args.binary or next((p for p in (f"{root}/.build-postgres-release/release/grove", f"{root}/.build/release/grove") if os.path.exists(p)), None)
    if not binary:
        raise SystemExit("build first (see --help)")
    home = tempfile.mkdtemp(prefix="grove-sync-load-")
    env = dict(os.environ, GROVE_HOME=home, GROVE_LOG="error")
    servers = []
    try:
        ports = [free_port(), free_port()] if args.postgres else [free_port()]
        store_args = ["--postgres", args.postgres, "--pool-size", str(args.pool_size)] if args.postgres else ["--database", os.path.join(home, "sync.sqlite")]
        for port in ports:
            servers.append(subprocess.Popen([binary, "sync-server", "--port", str(port), *store_args], env=env,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/readyz", timeout=60)
        cheap = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(4)).decode()
        names = (create_users_postgres(args.postgres, args.users, cheap) if args.postgres
                 else create_users_sqlite(os.path.join(home, "sync.sqlite"), args.users, cheap))
        devices = [Device(name, k, ports[k % len(ports)]) for name in names for k in range(args.devices)]
        started = time.time()
        connections = [Connection(port) for port in ports for _ in range(16)]
        asyncio.run(register(devices, connections))
        print(f"{args.users} users x {args.devices} devices on {len(ports)} instance(s) ({'PostgreSQL' if args.postgres else 'SQLite'}"
              f"{', encrypted' if ENCRYPTED else ''}): "
              f"registered in {time.time() - started:.1f} s")
        kill = (args.kill_after, servers[0], ports[0]) if args.kill_after is not None and len(ports) > 1 else None
        server_cpu, client_cpu = sum(cpu_seconds(s.pid) for s in servers), time.process_time()
        pushes, pulls, latencies, errors, elapsed = asyncio.run(load(devices, ports, args.seconds, args.connections, kill=kill))
        server_cpu = sum(cpu_seconds(s.pid) for s in servers) - server_cpu
        client_cpu = time.process_time() - client_cpu
        print(f"load {elapsed:.1f} s: {pushes / elapsed:,.0f} pushes/s, {pulls / elapsed:,.0f} pulls/s, "
              f"push p50 {statistics.median(latencies):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, refused {len(errors)}")
        # The client shares the machine's cores: what each side spent says whose work a rate measures.
        print(f"CPU: server {server_cpu / max(pushes, 1) * 1000:.2f} ms a push (pulls included), {server_cpu:.1f} s; "
              f"load client {client_cpu:.1f} s ({client_cpu / elapsed / (os.cpu_count() or 1):.0%} of the machine's cores)")
        if errors:
            print("first refusals:", errors[:3])
        if kill:
            lost = asyncio.run(check_nothing_lost(devices, ports[1]))
            print(f"instance 1 killed with SIGKILL after {args.kill_after:g} s: its devices went on through instance 2; "
                  f"{len(lost)} acknowledged changes lost")
            if lost:
                print("lost:", lost[:5])
                sys.exit(1)
            return
        by_user = {}
        for device in devices:
            by_user.setdefault(device.user, []).append(device)
        pairs = [(ds[0], ds[1]) for ds in by_user.values() if len(ds) > 1]
        times = asyncio.run(poke_latency(pairs, args.samples))
        if times:
            print(f"poke-to-applied over {len(times)} changes{' across instances' if len(ports) > 1 else ''}: "
                  f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms")
        else:
            print("poke-to-applied: no change arrived")
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
