#!/usr/bin/env bash
# The API sweep: schemathesis generates requests from /api/v1/openapi.yaml against the real `grove serve`
# (the debug build `swift test` made) on loopback, and fails on any 5xx, any response that breaks the
# document (status, content type, schema), and any request after which the server no longer answers.
# Bounded: at most GROVE_SWEEP_SECONDS (default 240) of generation; the server is ours and is stopped.
# Each run draws a new seed and prints it: GROVE_SWEEP_SEED=S replays that run's cases.
set -euo pipefail
cd "$(dirname "$0")"
binary="${GROVE_BINARY:-../../.build/debug/grove}"
seconds="${GROVE_SWEEP_SECONDS:-240}"
seed="${GROVE_SWEEP_SEED:-$(python3 -c 'import secrets; print(secrets.randbelow(2**31))')}"
echo "API sweep: seed $seed (replay: GROVE_SWEEP_SEED=$seed GROVE_BINARY=$binary Tests/API/run-sweep.sh)"
home="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# The sweep starts focus sessions and kills its server: no hold on this machine's notifications.
GROVE_HOME="$home" GROVE_HOLD_NOTIFICATIONS=off "$binary" serve --host 127.0.0.1 --port "$port" > "$home/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(200):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/api/v1/focus/current", timeout=1)
        break
    except Exception:
        time.sleep(0.1)
PY
# One worker: with two, hypothesis parses its own sources in two threads at once, which CPython 3.11
# before 3.11.8 can fail with "AST constructor recursion depth mismatch" (gh-106905), an error of the
# tool, not of Grove.
GROVE_API_BASE="http://127.0.0.1:$port" SCHEMATHESIS_HOOKS=hooks python3 -m schemathesis.cli run "http://127.0.0.1:$port/api/v1/openapi.yaml" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,server_still_answers \
  --max-time "$seconds" --workers 1 --seed "$seed" --suppress-health-check all --no-color
if ! kill -0 "$server" 2>/dev/null; then
  echo "grove serve died during the sweep (seed $seed):"; tail -20 "$home/serve.log"; exit 1
fi
echo "API sweep: the server answered throughout; log in $home/serve.log"
