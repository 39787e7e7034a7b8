#!/usr/bin/env bash
# Records intervals with the real timewarrior (Debian's `timewarrior`) in a scratch database and
# writes what `timew export` prints to export.json beside this script. Times are Berlin wall clock,
# across the spring-forward night of 2025-03-30: timewarrior exports them in UTC.
#   sudo apt-get install timewarrior && Tests/Fixtures/timewarrior/make-fixture.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export TIMEWARRIORDB=$(mktemp -d)
export TZ=Europe/Berlin
trap 'rm -rf "$TIMEWARRIORDB"' EXIT
yes | timew :yes > /dev/null 2>&1 || true
track() { timew track "$@" :yes > /dev/null; }
track 2025-03-28T09:00 - 2025-03-28T09:25 essay
track 2025-03-28T09:30 - 2025-03-28T09:55 essay
track 2025-03-28T14:00 - 2025-03-28T14:50 reading "deep work"
track 2025-03-29T23:40 - 2025-03-30T00:05 essay            # across midnight: filed under the day it ends
track 2025-03-30T01:30 - 2025-03-30T03:20 night            # across the change: 50 real minutes
track 2025-03-31T08:00 - 2025-03-31T13:00 marathon         # five hours: longer than a Grove session may be
track 2025-03-31T15:00 - 2025-03-31T15:25
timew start 2025-04-01T09:00 writing :yes > /dev/null      # still open: Grove refuses it with a message
timew export > "$here/export.json"
echo "wrote $here/export.json ($(grep -c '"start"' "$here/export.json") intervals)"
