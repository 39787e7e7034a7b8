"""A real `grove sync-server` for the measuring scripts (sync-guessers.py, slow-clients.py): one SQLite
server with the account `ada` in a temporary folder, a client's POST, and a device's pulls timed."""
import contextlib, json, os, shutil, subprocess, sys, tempfile, time, urllib.error, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, wait_for  # noqa: E402

PASSWORD = "the-right-password"


@contextlib.contextmanager
def sync_server(binary, *extra):
    """Yields the base URL of a running server (started with `extra` options); stops it after."""
    root = tempfile.mkdtemp(prefix="grove-sync-measure-")
    env = dict(os.environ, GROVE_HOME=root, GROVE_LOG="error")
    database, port = os.path.join(root, "sync.sqlite"), free_port()
    subprocess.run([binary, "sync-server", "user", "add", "ada", "--password-stdin", "--database", database], input=PASSWORD,
                   text=True, check=True, env=env, capture_output=True)
    server = subprocess.Popen([binary, "sync-server", "--port", str(port), "--database", database, *extra], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/healthz", timeout=30)
        yield base
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(root, ignore_errors=True)


def post(url, body, address=None):
    """POSTs JSON (through the trusted proxy's X-Forwarded-For when `address` is given): (status, answer)."""
    headers = {"Content-Type": "application/json"}
    if address:
        headers["X-Forwarded-For"] = address
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, {}


def pulls(base, token, seconds):
    """A device pulling every 50 ms for `seconds`: (p50 ms, p99 ms, failed requests)."""
    latencies, failures, deadline = [], 0, time.time() + seconds
    while time.time() < deadline:
        started = time.perf_counter()
        request = urllib.request.Request(base + "/sync/v1/pull?cursor=0&limit=100", headers={"Authorization": f"Bearer {token}"})
        try:
            urllib.request.urlopen(request, timeout=30).read()
            latencies.append((time.perf_counter() - started) * 1000)
        except Exception:
            failures += 1
        time.sleep(0.05)
    latencies.sort()
    if not latencies:
        return float("nan"), float("nan"), failures
    return latencies[len(latencies) // 2], latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], failures
