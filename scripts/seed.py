"""Seeds a GROVE_HOME with N focus sessions through `grove import` (shared by the perf scripts)."""
import contextlib, json, os, shutil, socket, subprocess, tempfile, threading, time, urllib.request, uuid
from datetime import datetime, timedelta, timezone


def run_seconds(argv, env, timeout):
    """Seconds `argv` took, waited for by a blocking wait; None when it ran past `timeout` (killed).

    Not `subprocess.run(timeout=…)`: a wait with a timeout polls at doubling intervals (0.5, 1, 2…
    ms), so a 9 ms start reads as 16 ms and every command under ~15 ms measures the same."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        process.wait()
    finally:
        timer.cancel()
    elapsed = time.perf_counter() - start
    return None if elapsed >= timeout else elapsed


def fmt(d):
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond // 1000:03d}Z"


def seed(binary, env, count):
    export = json.loads(subprocess.run([binary, "export"], env=env, check=True, capture_output=True, text=True).stdout)
    now = datetime.now(timezone.utc)
    days = max(1, min(1000, count // 10))
    sessions = []
    for i in range(count):
        end = now - timedelta(days=i % days, minutes=30 + (i // days) % 600)
        abandoned = i % 8 == 5
        focus = 400 if abandoned else 1500
        start = end - timedelta(seconds=focus)
        local = end - timedelta(hours=5)  # Etc/GMT+5 is a fixed UTC-5
        sessions.append({"id": str(uuid.UUID(int=i + 1)).upper(), "startTime": fmt(start), "endTime": fmt(end),
                         "state": "abandoned" if abandoned else "completed", "duration": focus, "pausedDuration": 0,
                         "createdAt": fmt(start), "plannedDuration": 1500, "timeZoneIdentifier": "Etc/GMT+5",
                         "endDay": local.strftime("%Y-%m-%d"), "clockUncertain": False})
    export["focusSessions"] = sessions
    path = os.path.join(env["GROVE_HOME"], "seed.json")
    with open(path, "w") as f:
        json.dump(export, f)
    subprocess.run([binary, "import", path], env=env, check=True, capture_output=True)
    os.remove(path)


def write_export(binary, env, count, path, per_day=50, each=None):
    """A Grove export with `count` sessions, written a line at a time: `per_day` a day (26 minutes
    apart, never overlapping), newest yesterday evening (UTC). `each(start, end, abandoned)` sees every
    interval, for tools that want the same history."""
    base = json.loads(subprocess.run([binary, "export"], env=env, check=True, capture_output=True, text=True).stdout)
    base["focusSessions"] = []
    head = json.dumps(base)
    marker = '"focusSessions": []'
    before, after = head.split(marker)
    last = (datetime.now(timezone.utc) - timedelta(days=1)).replace(hour=23, minute=30, second=0, microsecond=0)
    with open(path, "w") as f:
        f.write(before + '"focusSessions": [\n')
        for i in range(count):
            day, slot = divmod(i, per_day)
            end = last - timedelta(days=day, minutes=slot * 26)
            abandoned = i % 8 == 5
            focus = 400 if abandoned else 1500
            start = end - timedelta(seconds=focus)
            if each:
                each(start, end, abandoned)
            f.write(("," if i else "") + json.dumps({
                "id": str(uuid.UUID(int=i + 1)).upper(), "startTime": fmt(start), "endTime": fmt(end),
                "state": "abandoned" if abandoned else "completed", "duration": focus, "pausedDuration": 0,
                "createdAt": fmt(start), "plannedDuration": 1500, "timeZoneIdentifier": "UTC",
                "endDay": end.strftime("%Y-%m-%d"), "clockUncertain": False}) + "\n")
        f.write("]" + after)


def free_port():
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, timeout=30):
    """Waits until `url` answers (a server just started); exits when nothing does within `timeout`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except Exception:
            time.sleep(0.05)
    raise SystemExit(f"nothing answered at {url}")


def hlc(millis, counter, node):
    """A sync clock's text (SYNC.md): `2025-05-14T09:30:00.000Z-0001-<16 hex>`."""
    stamp = datetime.fromtimestamp(millis / 1000, tz=timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{millis % 1000:03d}Z-{counter:04x}-{node}"


def write_changed(path, text):
    """Writes `text` to `path` (making its folder) unless it already holds it: a build tool then sees no
    change, and keeps what it built."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)


def scratch_package(folder, package, sources):
    """Builds (release) a Swift package in `folder`: `package` is its Package.swift, `sources` maps each
    executable target to its main.swift. Files are written only when they changed, so that a second run
    reuses the build. Returns the build's bin folder; exits with the build's output when it fails."""
    files = {"Package.swift": package, **{os.path.join("Sources", target, "main.swift"): text for target, text in sources.items()}}
    for name, text in files.items():
        write_changed(os.path.join(folder, name), text)
    build = subprocess.run(["swift", "build", "-c", "release"], cwd=folder, capture_output=True, text=True)
    if build.returncode != 0:
        raise SystemExit(f"{folder} did not build:\n{build.stdout[-4000:]}{build.stderr[-4000:]}")
    return subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=folder, check=True,
                          capture_output=True, text=True).stdout.strip()


def release_binary(root, build=True):
    # Statically linked Swift runtime, as the README installs it.
    if build:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "grove"], cwd=root, check=True,
                       stdout=subprocess.DEVNULL)
    return subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=root, check=True,
                          capture_output=True, text=True).stdout.strip() + "/grove"


@contextlib.contextmanager
def seeded_server(binary, sessions, prefix):
    """A `grove serve` on a free loopback port over a new GROVE_HOME holding `sessions` sessions and a
    running focus session; yields the base URL and stops the server (and removes the data) after."""
    home = tempfile.mkdtemp(prefix=prefix)
    env = dict(os.environ, GROVE_HOME=home, TZ="America/New_York", NO_COLOR="1", GROVE_HOLD_NOTIFICATIONS="off")
    seed(binary, env, sessions)
    subprocess.run([binary, "focus", "start", "--length", "4h"], env=env, check=True, capture_output=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    seeded_server.pid = server.pid  # for a caller that reads the server's own CPU time
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/v1/focus/current", timeout=1).read()
                break
            except Exception:
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(home, ignore_errors=True)
