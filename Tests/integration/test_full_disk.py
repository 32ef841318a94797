#!/usr/bin/python3
"""A full disk (docs/SERVER.md, "Full disk and I/O errors"): writes answer 507 problem+json,
never 500; /healthz answers 503 as soon as a write found no room; deleting a list works on the
full disk and makes room for writes again; the server restarts on a disk filled to the last
byte, and nothing acknowledged is lost.

The store lives on a 24 MiB tmpfs this test mounts and unmounts itself (as root, as CI runs),
with a 6 MiB reserve (--disk-reserve). Before: writes and DELETE answered 500, /healthz stayed
200 until its next probe, and no list could be deleted to make room.

    /usr/bin/python3 Tests/integration/test_full_disk.py
"""

import os
import subprocess
import sys
import tempfile
import time

from livetest import Checks, Server, main

checks = Checks("test_full_disk")
RESERVE = str(6 << 20)


def document(n):
    return {"title": f"List {n}", "sections": [{"key": "s", "rows": [
        {"key": f"r{i}", "cells": {"text": f"{n}-{i}-" + "x" * 900}} for i in range(1000)]}]}


def is_problem(status, headers, body, code):
    import json
    try:
        problem = json.loads(body)
    except ValueError:
        return False
    return status == code and headers.get("content-type") == "application/problem+json" and problem.get("status") == code


def fill_filesystem(prefix):
    """Takes every byte left on the file system with a filler file (`prefix` + "filler")."""
    path = prefix + "filler" if prefix.endswith("-") else os.path.join(prefix, "filler")
    subprocess.run(["dd", "if=/dev/zero", f"of={path}", "bs=4k"], capture_output=True)


def test_full_disk(mount):
    db = os.path.join(mount, "lists.sqlite")
    stored = {}
    with Server("--disk-reserve", RESERVE, db=db) as server:
        statuses = []
        for n in range(60):
            status, headers, body = server.request("PUT", f"/lists/l{n}", document(n))
            statuses.append(status)
            if status in (200, 201):
                stored[f"l{n}"] = 1
                continue
            checks.check("a write that finds no room is 507 problem+json", is_problem(status, headers, body, 507),
                         (status, headers, body[:300]))
            break
        checks.check("the disk filled up (some lists stored, then a refusal)", len(stored) >= 3 and statuses[-1] == 507, statuses)
        status, headers, body = server.request("GET", "/healthz")
        checks.check("/healthz is 503 at once after the refused write", is_problem(status, headers, body, 503),
                     (status, body[:200]))
        status, headers, body = server.request("PUT", "/lists/tiny", {"title": "tiny"})
        checks.check("a tiny write: 201 if the room a refused write left will do, else 507, never 500",
                     status in (201, 507), (status, body[:200]))
        tiny_version = 1 if status == 201 else 0
        status, headers, body = server.request("DELETE", "/lists/l1/rows/r0")
        checks.check("removing a row on the full disk: 204 or 507, never 500", status in (204, 507), (status, body[:200]))
        if status == 204:
            stored["l1"] = 2
        for list_id, version in stored.items():
            got, doc = server.get_list(list_id)
            checks.check(f"{list_id} is there at version {version}", got == version, got)

        status, _, body = server.request("DELETE", "/lists/l0")
        checks.equal("deleting a list on the full disk works", status, 204)
        del stored["l0"]
        status, _, body = server.request("PUT", "/lists/tiny", {"title": "tiny!"})
        checks.equal("after the deletion a write finds room", status, 200 if tiny_version else 201)
        stored["tiny"] = tiny_version + 1
        status, _, _ = server.request("GET", "/healthz")
        checks.equal("/healthz is 200 again", status, 200)
        status, _, _ = server.request("GET", "/lists/l0", headers={"Accept": "application/json"})
        checks.equal("the deleted list is gone (410)", status, 410)

    fill_filesystem(mount)
    with Server("--disk-reserve", RESERVE, db=db) as server:
        for list_id, version in stored.items():
            got, _ = server.get_list(list_id)
            checks.check(f"after a restart on the full disk, {list_id} is at version {version}", got == version, got)
        fill_filesystem(mount + "/more-")  # whatever opening left
        status, headers, body = server.request("PUT", "/lists/more", document(99))
        checks.check("on the full disk after the restart a write is 507", is_problem(status, headers, body, 507), (status, body[:200]))
        status, _, _ = server.request("DELETE", "/lists/l2")
        checks.equal("and a list can still be deleted", status, 204)
        status, _, _ = server.request("PUT", "/lists/tiny", {"title": "tiny again"})
        checks.equal("which makes room for a write", status, 200)


def with_tmpfs(function):
    if os.geteuid() != 0:
        checks.check("runs as root (it mounts a tmpfs; CI runs as root)", False, f"uid {os.geteuid()}")
        return
    mount = tempfile.mkdtemp(prefix="list-server-full-")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mount], check=True)
    try:
        function(mount)
    finally:
        for _ in range(20):
            if subprocess.run(["umount", mount], capture_output=True).returncode == 0:
                break
            time.sleep(0.25)
        os.rmdir(mount)


if __name__ == "__main__":
    main(checks, [("a full disk", lambda: with_tmpfs(test_full_disk))])
