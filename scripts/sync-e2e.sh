#!/usr/bin/env bash
# Grove Sync end to end with real processes: a sync server on loopback and two GROVE_HOMEs, edited
# offline on both, `grove sync` on each, then their JSON exports must be identical.
#   scripts/sync-e2e.sh [path/to/grove]     (default: the debug build, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
grove="${1:-.build/debug/grove}"
[ -x "$grove" ] || swift build --product grove >/dev/null
root="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
server_db="$root/sync-server.sqlite"
printf '%s' 'correct horse battery' | GROVE_HOME="$root" "$grove" sync-server user add ada --password-stdin --database "$server_db"
GROVE_HOME="$root" "$grove" sync-server --port "$port" --database "$server_db" > "$root/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$root"' EXIT
python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(200):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except Exception:
        time.sleep(0.05)
PY

a() { GROVE_HOME="$root/a" NO_COLOR=1 "$grove" "$@"; }
b() { GROVE_HOME="$root/b" NO_COLOR=1 "$grove" "$@"; }
# Offline, before either ever synced.
a timer add Essay --duration 25m >/dev/null
a intention set "Write the intro" >/dev/null
b intention set "Finish chapter two" >/dev/null
b focus log --start 2026-11-20T09:00:00Z --end 2026-11-20T09:25:00Z >/dev/null
printf '%s' 'correct horse battery' | a sync login "http://127.0.0.1:$port" --user ada --password-stdin --plain --device-name laptop
printf '%s' 'correct horse battery' | b sync login "http://127.0.0.1:$port" --user ada --password-stdin --plain --device-name desktop
a sync; b sync; a sync
# Both edit the same timer offline.
a timer edit Essay --name "Essay draft" >/dev/null
b timer todo add Essay outline >/dev/null
for _ in 1 2; do a sync; b sync; done
strip() { sed -E 's/"exportedAt" : "[^"]*"//'; }
if diff <(a export --format json | strip) <(b export --format json | strip) >/dev/null; then
  echo "identical exports: $(a export --format json | strip | wc -c) bytes each"
else
  diff <(a export --format json | strip) <(b export --format json | strip) | head -20
  echo "the two stores differ" >&2
  exit 1
fi
