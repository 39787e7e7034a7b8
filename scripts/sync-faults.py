#!/usr/bin/env python3
"""Grove Sync under faults, with real processes (issue 26): three devices (`grove` with a GROVE_HOME
each, clocks skewed both ways, one past the 5-minute drift), a sync server (SQLite, or two
`--postgres` instances on one database), and a proxy between them that drops, delays, duplicates and
cuts requests, and kills a client or a server instance with SIGKILL in the middle of a request. The
SQLite server is also restored from an older backup once. Random operations in every room, then a
quiet network; at the end every device's canonical export must equal the others' and an independent
reference model of what each device was told was saved (a command that exited 0) — not Grove's
merge code: each device writes its own rows (timers, to-dos, intentions on its own days, logged
sessions, its own app's gate), so the model needs no clocks.

  scripts/sync-faults.py --binary .build/release/grove [--seeds 3] [--steps 120] [--seconds 240]
  scripts/sync-faults.py --binary .build-postgres/debug/grove --postgres postgres://grove@127.0.0.1:55432/grove_faults
  scripts/sync-faults.py --seed 7            # one seed again, exactly (faults hang on the request order, not on timing)
  scripts/sync-faults.py --encrypted         # the account encrypted end to end first (device 0 encrypts, the
                                             # others unlock); a passphrase change, a new key and a restore point among the disasters

Prints each seed and its faults; exits 1 with the seed on a difference. Bounded: it stops by itself.
"""
import argparse, datetime, json, os, random, shutil, signal, socket, socketserver, sqlite3, subprocess, sys, tempfile, threading, time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, wait_for  # noqa: E402

PASSWORD = "fault-password-1"
PASSPHRASES = ["a first passphrase to seal with", "a second passphrase after a change"]
# The passphrase in force on an encrypted run: a device whose key was replaced on another one (`grove
# sync new-key`) is asked for it once, as a person would be.
ACCOUNT = {"passphrase": None}
SKEWS = [0, -180, 420]  # seconds: on time, three minutes slow, seven minutes fast (past the drift)


class Servers:
    """The sync server instances: started, killed with SIGKILL, restarted on their ports."""

    def __init__(self, binary, root, postgres, seed):
        self.binary, self.root, self.postgres = binary, root, postgres
        self.user = f"ada-{seed}-{os.getpid()}"
        self.database = os.path.join(root, "server", "sync.sqlite")
        os.makedirs(os.path.dirname(self.database), mode=0o700, exist_ok=True)
        self.ports = [free_port() for _ in range(2 if postgres else 1)]
        self.processes = [None] * len(self.ports)
        store = ["--postgres", postgres] if postgres else ["--database", self.database]
        self.store_args = store
        run = subprocess.run([binary, "sync-server", "user", "add", self.user, "--password-stdin", *store], input=PASSWORD,
                             text=True, capture_output=True, env=self.env())
        if run.returncode != 0:
            raise SystemExit(f"user add: {run.stderr}")
        for index in range(len(self.ports)):
            self.start(index)

    def env(self):
        return dict(os.environ, GROVE_HOME=os.path.join(self.root, "server"), GROVE_LOG="error")

    def start(self, index):
        log = open(os.path.join(self.root, f"server-{index}.log"), "a")
        self.processes[index] = subprocess.Popen([self.binary, "sync-server", "--port", str(self.ports[index]), *self.store_args],
                                                 env=self.env(), stdout=log, stderr=log)
        wait_for(f"http://127.0.0.1:{self.ports[index]}/healthz", timeout=20)

    def kill(self, index):
        process = self.processes[index]
        if process and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()

    def restart(self, index):
        self.kill(index)
        self.start(index)

    def backup(self, path):
        """A consistent copy of the SQLite server while it runs (SQLite's backup API)."""
        source, target = sqlite3.connect(self.database), sqlite3.connect(path)
        source.backup(target)
        source.close(), target.close()

    def restore(self, path):
        """The server comes back from an older backup (its WAL and shared memory go with the old file)."""
        for index in range(len(self.ports)):
            self.kill(index)
        for suffix in ["", "-wal", "-shm"]:
            if os.path.exists(self.database + suffix):
                os.remove(self.database + suffix)
        shutil.copyfile(path, self.database)
        os.chmod(self.database, 0o600)
        for index in range(len(self.ports)):
            self.start(index)

    def stop(self):
        for index in range(len(self.ports)):
            process = self.processes[index]
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    self.kill(index)


class Proxy(socketserver.ThreadingTCPServer):
    """One HTTP request per connection, forwarded with `Connection: close` to an instance chosen by
    the request's number; its fault is drawn from the seed by that number, so a seed replays."""
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, servers, seed):
        self.servers, self.random, self.lock = servers, random.Random(seed ^ 0x5EED), threading.Lock()
        self.faulty, self.count, self.client, self.log = True, 0, None, []
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        self.port = self.server_address[1]

    def draw(self):
        with self.lock:
            self.count += 1
            roll = self.random.random()
            instance = self.random.randrange(len(self.servers.ports))
            if not self.faulty:
                return self.count, "pass", instance
            for fault, p in [("drop", 0.07), ("delay", 0.08), ("duplicate", 0.08), ("cut", 0.08), ("kill-client", 0.03), ("kill-server", 0.03)]:
                if roll < p:
                    return self.count, fault, instance
                roll -= p
            return self.count, "pass", instance


def read_http(sock, request):
    """A whole request (headers and Content-Length body), or a response read to the end."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    if not request:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return data
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    lines = [line for line in head.split(b"\r\n") if not line.lower().startswith(b"connection:")]
    return b"\r\n".join(lines) + b"\r\nConnection: close\r\n\r\n" + body


class ProxyHandler(socketserver.BaseRequestHandler):
    def forward(self, request, port):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as upstream:
            upstream.sendall(request)
            return read_http(upstream, request=False)

    def handle(self):
        proxy = self.server
        self.request.settimeout(30)
        request = read_http(self.request, request=True)
        if not request:
            return
        number, fault, instance = proxy.draw()
        port = proxy.servers.ports[instance]
        proxy.log.append(f"{number}:{fault}")
        try:
            if fault == "drop":
                return
            if fault == "delay":
                time.sleep(random.Random(number).uniform(0.05, 0.4))
            if fault == "kill-server":
                # Killed with the request in flight: it may have committed and never answered. The
                # kill is waited for before the restart: on a loaded machine the timer could otherwise
                # fire after the restart and kill the new server, with no one to start it again.
                killer = threading.Timer(0.002, proxy.servers.kill, [instance])
                killer.start()
                try:
                    self.forward(request, port)
                except OSError:
                    pass
                killer.join()
                proxy.servers.restart(instance)
                return
            if fault == "duplicate":
                self.forward(request, port)
            response = self.forward(request, port)
            if fault == "kill-client" and proxy.client is not None:
                proxy.client.send_signal(signal.SIGKILL)
                return
            if fault == "cut":
                return
            self.request.sendall(response)
        except OSError:
            pass


class Device:
    def __init__(self, index, binary, root, proxy, skew):
        self.index, self.binary, self.proxy, self.skew = index, binary, proxy, skew
        self.home = os.path.join(root, f"device-{index}")
        os.makedirs(self.home, mode=0o700)

    def run(self, *args, stdin=None, check=True):
        now = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=self.skew)
        env = dict(os.environ, GROVE_HOME=self.home, NO_COLOR="1", GROVE_NO_WAITER="1", TZ="UTC",
                   GROVE_NOW=now.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z")
        process = subprocess.Popen([self.binary, *args], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.proxy.client = process
        out, err = process.communicate(stdin, timeout=120)
        self.proxy.client = None
        self.last_error = err.strip()[:400]
        if check and process.returncode != 0:
            raise SystemExit(f"device {self.index}: grove {' '.join(args)} exited {process.returncode}: {err.strip()[:300]}")
        return process.returncode, out

    def sync(self, quiet=False):
        now = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=self.skew)
        code, out = self.run("sync", check=False)
        if code != 0 and ACCOUNT["passphrase"] and "grove sync unlock" in self.last_error:
            # The key was replaced on another device (or the server restored from before): asked once.
            if self.run("sync", "unlock", "--passphrase-stdin", stdin=ACCOUNT["passphrase"], check=False)[0] == 0:
                code, out = self.run("sync", check=False)
        elif code != 0 and ACCOUNT["passphrase"] and "grove sync new-key" in self.last_error:
            # The server restored from before a new key holds the replaced one: a new key replaces it again.
            if self.run("sync", "new-key", "--passphrase-stdin", stdin=ACCOUNT["passphrase"], check=False)[0] == 0:
                code, out = self.run("sync", check=False)
        if quiet and code != 0:
            print(f"  device {self.index}: grove sync exited {code} on a quiet network: {self.last_error}")
        return code == 0

    def export(self):
        _, out = self.run("export", "--format", "json")
        return json.loads(out)


def canonical(export):
    """What every device must agree on: the synced rooms, sorted, without the export's own time and the
    counters that stay on each device."""
    export = dict(export)
    export.pop("exportedAt", None)
    for item in export.get("contents", []):
        item.pop("timesShown", None), item.pop("lastUsed", None)
    for key, value in export.items():
        if isinstance(value, list):
            export[key] = sorted(value, key=lambda item: json.dumps(item, sort_keys=True))
    return export


class Model:
    """What each device was told was saved, per device, applied in order: the reference the end state
    is held against, written without Grove's merge code."""

    def __init__(self):
        self.timers, self.intentions, self.sessions, self.gates = {}, {}, {}, {}
        self.made = set()


def operate(device, rng, model, step):
    me = f"d{device.index}"
    mine = sorted(name for name in model.timers if name.startswith(me + "-"))
    roll = rng.random()
    if roll < 0.25 or not mine:
        name, minutes = f"{me}-t{step}", rng.randint(1, 90)
        device.run("timer", "add", name, "--duration", f"{minutes}m")
        model.timers[name] = {"duration": minutes * 60, "todos": []}
        model.made.add(name)
    elif roll < 0.40:
        name, minutes = rng.choice(mine), rng.randint(1, 90)
        device.run("timer", "edit", name, "--duration", f"{minutes}m")
        model.timers[name]["duration"] = minutes * 60
    elif roll < 0.50:
        name = rng.choice(mine)
        device.run("timer", "rm", name)
        del model.timers[name]
    elif roll < 0.62:
        name, text = rng.choice(mine), f"todo {step}"
        device.run("timer", "todo", "add", name, text)
        model.timers[name]["todos"].append(text)
    elif roll < 0.75:
        # Each device's own days (a day's intention has one id on every device: no cross-device conflict).
        day = (datetime.date(2026, 1, 1) + datetime.timedelta(days=device.index * 100 + rng.randint(0, 9))).isoformat()
        text = f"{me} intention {step}"
        device.run("intention", "set", text, "--scope", "day", "--date", day)
        model.intentions[day] = text
    elif roll < 0.88:
        day = datetime.date(2025, 6, 1) + datetime.timedelta(days=step % 300)
        start = datetime.datetime(day.year, day.month, day.day, 6 + device.index * 5, 0, tzinfo=datetime.timezone.utc)
        if (device.index, day) not in model.sessions:
            device.run("focus", "log", "--start", start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "--end", (start + datetime.timedelta(minutes=25)).strftime("%Y-%m-%dT%H:%M:%SZ"), "--tag", me)
            model.sessions[(device.index, day)] = me
    else:
        app = f"{me}-site"
        if app not in model.gates:
            device.run("apps", "add", app, "--name", f"Site {device.index}", "--url", f"https://{me}.example/")
            model.gates[app] = False
        enabled = not model.gates[app]
        device.run("apps", "enable" if enabled else "disable", app)
        model.gates[app] = enabled
    # Settings every device changes (they conflict; the model does not predict the winner, but every
    # device must end with the same one).
    if rng.random() < 0.1:
        device.run("focus", "config", "--length", f"{rng.choice([25, 30, 45, 50])}m")


def check(devices, model, seed):
    exports = [canonical(device.export()) for device in devices]
    for device, export in zip(devices[1:], exports[1:]):
        if export != exports[0]:
            keys = [key for key in export if export.get(key) != exports[0].get(key)]
            raise SystemExit(f"seed {seed}: device {device.index} differs from device 0 in {keys}")
    export = exports[0]
    timers = {t["name"]: {"duration": t["durationInSeconds"], "todos": sorted(i["text"] for i in t.get("todoItems", []))}
              for t in export["timers"]}
    expected = {name: {"duration": t["duration"], "todos": sorted(t["todos"])} for name, t in model.timers.items()}
    if timers != expected:
        missing = sorted(set(expected) ^ set(timers)) or [n for n in expected if expected[n] != timers.get(n)]
        raise SystemExit(f"seed {seed}: timers differ from the model: {missing[:5]}")
    intentions = {i["date"]: i["text"] for i in export["intentions"] if i["scope"] == "day"}
    if intentions != model.intentions:
        raise SystemExit(f"seed {seed}: intentions differ from the model: {sorted(set(intentions.items()) ^ set(model.intentions.items()))[:5]}")
    tags = sorted(tag for session in export["focusSessions"] for tag in session.get("tags", []))
    if tags != sorted(model.sessions.values()):
        raise SystemExit(f"seed {seed}: {len(tags)} logged sessions, the model has {len(model.sessions)}")
    gates = {app["id"]: app["isEnabled"] for app in export["apps"] if app["id"] in model.gates}
    if gates != model.gates:
        raise SystemExit(f"seed {seed}: gates {gates}, the model {model.gates}")
    return len(timers), len(intentions), len(tags)


def check_encrypted(servers, devices, root, passphrase, restore_point, model, seed):
    """An encrypted run also holds when: a fourth device, new, logs in with the passphrase in force and
    reaches the same export; the server's file holds no timer name in plain; a restore point taken
    mid-run opens (sealed boxes rebuilt into a store of its own) and names only timers that existed."""
    fresh = Device(3, devices[0].binary, root, devices[0].proxy, 0)
    url = f"http://127.0.0.1:{devices[0].proxy.port}"
    # One secret: the passphrase is the login too, and unlocks the new device in the same step.
    fresh.run("sync", "login", url, "--user", servers.user, "--password-stdin", stdin=passphrase)
    if not fresh.sync(quiet=True):
        raise SystemExit(f"seed {seed}: a new device could not sync the encrypted account")
    if canonical(fresh.export()) != canonical(devices[0].export()):
        raise SystemExit(f"seed {seed}: a new device unlocked with the passphrase differs from device 0")
    if not servers.postgres:
        data = b"".join(open(servers.database + suffix, "rb").read() for suffix in ["", "-wal"] if os.path.exists(servers.database + suffix))
        plain = [name for name in model.timers if name.encode() in data]
        if plain:
            raise SystemExit(f"seed {seed}: timer names in plain in the server's file: {plain[:5]}")
    if restore_point:
        instant, _ = restore_point
        target = os.path.join(root, "restore-point.sqlite")
        code, _ = devices[0].run("sync", "restore", "--as-of", instant.strftime("%Y-%m-%dT%H:%M:%SZ"), "--into", target, check=False)
        if code != 0:
            raise SystemExit(f"seed {seed}: the restore point did not open: {devices[0].last_error}")
        restored = subprocess.run([devices[0].binary, "export", "--format", "json", "--database", target], capture_output=True, text=True,
                                  env=dict(os.environ, GROVE_HOME=devices[0].home, NO_COLOR="1", GROVE_NO_WAITER="1"))
        made = {t["name"] for t in json.loads(restored.stdout)["timers"]} if restored.returncode == 0 else None
        if made is None or not made <= model.made:
            raise SystemExit(f"seed {seed}: the restore point holds timers never made: {made}")


def run_seed(seed, args):
    rng = random.Random(seed)
    root = tempfile.mkdtemp(prefix=f"grove-faults-{seed}-")
    servers = Servers(args.binary, root, args.postgres, seed)
    proxy = Proxy(servers, seed)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    started = time.time()
    try:
        devices = [Device(index, args.binary, root, proxy, SKEWS[index]) for index in range(3)]
        model = Model()
        url = f"http://127.0.0.1:{proxy.port}"
        for device in devices:
            for _ in range(30):
                # A plain run says so (new accounts are encrypted by default); an encrypted one waits
                # for `grove sync encrypt` below.
                plain = [] if args.encrypted else ["--plain"]
                code, _ = device.run("sync", "login", url, "--user", servers.user, "--password-stdin", *plain, stdin=PASSWORD, check=False)
                if code == 0:
                    break
            else:
                raise SystemExit(f"seed {seed}: device {device.index} could not log in: {device.last_error}")
        passphrase = PASSPHRASES[0]
        if args.encrypted:
            # Through the faulty network: an encrypt whose answer was lost is done (then unlock says so).
            for attempt in range(40):
                code, _ = devices[0].run("sync", "encrypt", "--passphrase-stdin", stdin=passphrase, check=False)
                if code == 0 or devices[0].run("sync", "unlock", "--passphrase-stdin", stdin=passphrase, check=False)[0] == 0:
                    break
            else:
                raise SystemExit(f"seed {seed}: could not encrypt: {devices[0].last_error}")
            for device in devices[1:]:
                for attempt in range(40):
                    if device.run("sync", "unlock", "--passphrase-stdin", stdin=passphrase, check=False)[0] == 0:
                        break
                else:
                    raise SystemExit(f"seed {seed}: device {device.index} could not unlock: {device.last_error}")
        change_at = rng.randint(args.steps // 4, 3 * args.steps // 4) if args.encrypted else -1
        new_key_at = rng.randint(args.steps // 4, 3 * args.steps // 4) if args.encrypted else -1
        ACCOUNT["passphrase"] = passphrase if args.encrypted else None
        restore_point = None
        backup = os.path.join(root, "backup.sqlite")
        restore_at = rng.randint(args.steps // 3, 2 * args.steps // 3) if not args.postgres else -1
        for step in range(args.steps):
            if time.time() - started > args.seconds:
                print(f"seed {seed}: stopped at step {step} (time bound)")
                break
            device = rng.choice(devices)
            if step == restore_at // 2 and not args.postgres:
                servers.backup(backup)
                passphrase_at_backup = passphrase
            if step == restore_at:
                servers.restore(backup)
                proxy.log.append(f"restore@{step}")
                # The key envelope comes back as the backup had it: a passphrase changed since is undone
                # (the key is the same: every device keeps syncing).
                passphrase = passphrase_at_backup
                ACCOUNT["passphrase"] = passphrase if args.encrypted else None
            if step == change_at:
                # A passphrase change on one device while the others go on syncing with the key they hold.
                # The current passphrase, then the new one; a change whose answer was lost is done already
                # (then the new one is the current one).
                for attempt in range(20):
                    if any(device.run("sync", "passphrase", "--passphrase-stdin", stdin=f"{current}\n{PASSPHRASES[1]}\n", check=False)[0] == 0
                           for current in (passphrase, PASSPHRASES[1])):
                        passphrase = PASSPHRASES[1]
                        break
                ACCOUNT["passphrase"] = passphrase
                proxy.log.append(f"passphrase@{step}")
            if step == new_key_at:
                # A device lost: a new key from this one while the others hold the old key (each is asked
                # for the passphrase once at its next sync). A new key whose answer was lost is made
                # already: then this device says so, and unlocks to it.
                for attempt in range(20):
                    if device.run("sync", "new-key", "--passphrase-stdin", stdin=passphrase, check=False)[0] == 0:
                        proxy.log.append(f"new-key@{step}")
                        break
                    if "grove sync unlock" in device.last_error and \
                            device.run("sync", "unlock", "--passphrase-stdin", stdin=passphrase, check=False)[0] == 0:
                        proxy.log.append(f"new-key@{step}(answer lost)")
                        break
                else:
                    proxy.log.append(f"new-key@{step}(not made: {device.last_error[:80]})")
            if step == args.steps // 2:
                restore_point = (datetime.datetime.now(datetime.timezone.utc), set(model.timers))
            if rng.random() < 0.3:
                device.sync()
            else:
                operate(device, rng, model, step)
        # A quiet network: everyone syncs until nothing moves (at least four rounds; on a loaded machine,
        # up to ten, until a whole round succeeds). A server that died shows in its log, printed below.
        proxy.faulty = False
        for round in range(10):
            results = [device.sync(quiet=True) for device in devices]
            if round >= 3 and all(results):
                break
        try:
            counts = check(devices, model, seed)
            if args.encrypted:
                check_encrypted(servers, devices, root, passphrase, restore_point, model, seed)
        except BaseException:
            for index in range(len(servers.ports)):
                alive = servers.processes[index] is not None and servers.processes[index].poll() is None
                log = os.path.join(root, f"server-{index}.log")
                tail = open(log).read()[-2000:] if os.path.exists(log) else "(no log)"
                print(f"  server {index}: {'running' if alive else 'not running'}; the end of its log:\n{tail}")
            raise
        faults = [entry for entry in proxy.log if not entry.endswith(":pass")]
        print(f"seed {seed}{' (encrypted)' if args.encrypted else ''}: converged with the model ({counts[0]} timers, {counts[1]} intentions, {counts[2]} sessions) "
              f"through {proxy.count} requests, {len(faults)} faults: {' '.join(faults[:40])}{' …' if len(faults) > 40 else ''} "
              f"({time.time() - started:.0f} s); disasters: {' '.join(entry for entry in faults if '@' in entry) or 'none'}")
    finally:
        proxy.shutdown()
        servers.stop()
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/grove")
    parser.add_argument("--postgres", help="a PostgreSQL URL: two --postgres instances instead of the SQLite server")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seed", type=int, help="run this seed only")
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--encrypted", action="store_true", help="encrypt the account end to end before every seed's run")
    parser.add_argument("--encrypted-seeds", type=int, default=0, help="encrypt only the last N seeds' accounts (the others stay plain)")
    parser.add_argument("--seconds", type=float, default=240, help="the bound for each seed")
    args = parser.parse_args()
    seeds = [args.seed] if args.seed is not None else [random.SystemRandom().randrange(1 << 20) for _ in range(args.seeds)]
    print(f"sync faults: seeds {' '.join(map(str, seeds))} ({'two PostgreSQL instances' if args.postgres else 'SQLite, with a restore'}"
          f"{', encrypted end to end' if args.encrypted else f', the last {args.encrypted_seeds} encrypted' if args.encrypted_seeds else ''})")
    for index, seed in enumerate(seeds):
        run_seed(seed, argparse.Namespace(**{**vars(args), "encrypted": args.encrypted or index >= len(seeds) - args.encrypted_seeds}))


if __name__ == "__main__":
    main()
