"""Schemathesis hooks for Grove's API sweep.

`server_still_answers` runs after every generated request: whatever was sent, the server must still
answer a trivial GET. A crash or a stalled event loop fails the sweep at the request that caused it.
"""
import os
import urllib.request

import schemathesis

BASE = os.environ.get("GROVE_API_BASE", "http://127.0.0.1:4768")


@schemathesis.check
def server_still_answers(ctx, response, case):
    try:
        with urllib.request.urlopen(BASE + "/api/v1/focus/current", timeout=5) as reply:
            status = reply.status
    except Exception as error:  # noqa: BLE001 - any failure means the server is gone
        raise AssertionError(f"the server stopped answering after this request: {error}") from error
    if status != 200:
        raise AssertionError(f"the server answers {status} to GET /api/v1/focus/current after this request")
