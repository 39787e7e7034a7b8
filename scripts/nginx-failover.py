#!/usr/bin/env python3
"""deploy/nginx-grove-sync.conf as shipped, in front of two `grove sync-server --postgres` instances,
one of them hung and then killed with a push in its hands: every push must still be answered 200
and applied once.

    scripts/nginx-failover.py --postgres postgres://grove@127.0.0.1:55432/grove_nginx \
        [--binary .build-postgres/debug/grove] [--config deploy/nginx-grove-sync.conf] [--pushes 10]

The configuration is used as written, with only what cannot be used on a test machine replaced: the
listen port (a free loopback port instead of 443), the certificate (a self-signed one made by
openssl for 127.0.0.1) and the upstream ports (8091/8092 to the instances'). Prints `nginx -t`'s
output, then the pushes' statuses with both instances up and after SIGKILL of the first, and checks
through a pull that the server holds each pushed change once. Exits 1 on any push not answered 200.
Needs nginx and openssl; everything listens on 127.0.0.1 and stops within --seconds (default 120).
"""
import argparse, http.client, json, os, re, signal, ssl, subprocess, sys, tempfile, threading, time, uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed import free_port, hlc, wait_for  # noqa: E402

PASSWORD = "failover-password-1"


def test_config(shipped, listen, cert, key, upstreams):
    """The shipped server block with a test machine's port, certificate and upstream ports."""
    text = re.sub(r"listen \[::\]:443[^;]*;\n", "", shipped)
    text = re.sub(r"listen 443 ", f"listen 127.0.0.1:{listen} ", text)
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    for shipped_port, port in zip(("8091", "8092"), upstreams):
        text = text.replace(f"127.0.0.1:{shipped_port}", f"127.0.0.1:{port}")
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--binary", default=".build-postgres/debug/grove")
    parser.add_argument("--config", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deploy", "nginx-grove-sync.conf"))
    parser.add_argument("--pushes", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=120)
    args = parser.parse_args()
    deadline = time.time() + args.seconds
    work = tempfile.mkdtemp(prefix="grove-nginx-")
    os.chmod(work, 0o755)
    env = dict(os.environ, GROVE_HOME=work, GROVE_LOG="error")
    processes = []
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{work}/key.pem", "-out", f"{work}/cert.pem",
                        "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
        ports = [free_port(), free_port()]
        for port in ports:
            processes.append(subprocess.Popen([args.binary, "sync-server", "--port", str(port), "--trusted-proxy", "127.0.0.1", "--postgres", args.postgres, "--pool-size", "2"],
                                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/readyz", timeout=60)
        user = "u" + uuid.uuid4().hex[:10]
        subprocess.run([args.binary, "sync-server", "user", "add", user, "--password-stdin", "--postgres", args.postgres],
                       input=PASSWORD.encode(), env=env, check=True, capture_output=True)

        listen = free_port()
        with open(args.config) as f:
            server_block = test_config(f.read(), listen, f"{work}/cert.pem", f"{work}/key.pem", ports)
        for temp in ("body", "proxy"):
            os.makedirs(f"{work}/{temp}", mode=0o777, exist_ok=True)
            os.chmod(f"{work}/{temp}", 0o777)
        with open(f"{work}/server.conf", "w") as f:
            f.write(server_block)
        with open(f"{work}/nginx.conf", "w") as f:
            f.write(f"""pid {work}/nginx.pid;
error_log {work}/error.log warn;
worker_processes 1;
events {{ worker_connections 64; }}
http {{
    access_log {work}/access.log;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    include {work}/server.conf;
}}
""")
        checked = subprocess.run(["nginx", "-t", "-c", f"{work}/nginx.conf", "-p", work], capture_output=True, text=True)
        print(f"nginx -t ({os.path.relpath(args.config)}):\n  " + checked.stderr.strip().replace("\n", "\n  "))
        if checked.returncode != 0:
            raise SystemExit("nginx -t refused the shipped configuration")
        nginx = subprocess.Popen(["nginx", "-c", f"{work}/nginx.conf", "-p", work, "-g", "daemon off;"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(nginx)

        context = ssl.create_default_context(cafile=f"{work}/cert.pem")

        def request(method, path, body=None, token=None):
            while time.time() < deadline:
                try:
                    connection = http.client.HTTPSConnection("127.0.0.1", listen, context=context, timeout=15)
                    headers = {"Content-Type": "application/json"}
                    if token:
                        headers["Authorization"] = f"Bearer {token}"
                    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
                    response = connection.getresponse()
                    payload = response.read()
                    connection.close()
                    return response.status, (json.loads(payload) if payload.startswith(b"{") else payload.decode(errors="replace"))
                except ConnectionRefusedError:
                    time.sleep(0.05)  # nginx still starting
            raise SystemExit("out of time")

        status, device = request("POST", "/sync/v1/devices", {"user": user, "password": PASSWORD, "deviceName": "failover"})
        if status != 201:
            raise SystemExit(f"registering through nginx: {status} {device}")
        node = device["deviceId"].lower().replace("-", "")[:16]
        timer = str(uuid.uuid4()).upper()

        def push(number):
            now = int(time.time() * 1000)
            mutation = {"id": number, "hlc": hlc(now, number, node), "entity": "timer", "entityId": timer, "op": "put", "insert": number == 1,
                        "fields": {"name": f"T{number}", "durationInSeconds": 600, "icon": "timer", "colorHex": "#007AFF", "notes": None,
                                   "createdAt": now, "updatedAt": now}}
            status, _ = request("POST", "/sync/v1/push", {"deviceId": device["deviceId"], "schemaVersion": 1, "mutations": [mutation]}, device["token"])
            return status

        before = [push(n) for n in range(1, args.pushes + 1)]
        # The first instance stops answering with pushes already sent to it, then dies: the push in its
        # hands at that moment is the one a proxy must send again (the rest find its port closed).
        processes[0].send_signal(signal.SIGSTOP)
        killer = threading.Timer(1.0, lambda: processes[0].send_signal(signal.SIGKILL))
        killer.start()
        after = [push(n) for n in range(args.pushes + 1, 2 * args.pushes + 1)]
        killer.join()
        print(f"{args.pushes} pushes through nginx, both instances up: {summary(before)}")
        print(f"{args.pushes} pushes through nginx, first instance hung then killed mid-push: {summary(after)}")
        status, page = request("GET", "/sync/v1/pull?cursor=0&limit=1000&full=true", token=device["token"])
        names = [c.get("fields", {}).get("name") for c in page.get("changes", []) if c.get("entityId") == timer] if status == 200 else []
        print(f"pulled through the survivor: {status}, the timer reads {names[-1] if names else None!r}")
        failed = [s for s in before + after if s != 200]
        if failed or names[-1:] != [f"T{2 * args.pushes}"]:
            raise SystemExit(f"failover: {len(failed)} pushes not answered 200, or the last push is not what the server holds")
        print("failover: every push answered 200 and held once")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()


def summary(statuses):
    counts = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{count} x {status}" for status, count in sorted(counts.items()))


if __name__ == "__main__":
    main()
