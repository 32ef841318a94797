"""The command line says what is wrong and how to fix it (issue 26), and refuses operator
mistakes before it opens anything (issue 25): each case runs the real binary and reads what a
person would see on the terminal.
"""
import os
import pwd
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testkit import Checks, Server, server_binary  # noqa: E402

BIN = server_binary()


def run(*args, user=None, timeout=10, binary=None):
    """(exit status, stdout + stderr) of the server run with `args` (as `user` when given)."""
    command = [binary or BIN, *args]
    if user:
        command = ["runuser", "-u", user, "--", *command]
    result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    return result.returncode, result.stdout + result.stderr


def main():
    checks = Checks("command line")
    scratch = tempfile.mkdtemp(prefix="list-server-cli-")
    os.chmod(scratch, 0o755)

    status, out = run("--version")
    checks.check("--version prints a version and exits 0", status == 0 and out.strip().count(".") == 2, out)

    status, out = run("--help")
    checks.check("--help shows examples", status == 0 and "Examples:" in out and "list-server --demo" in out, out[-400:])
    groups = [line.strip() for line in out.splitlines() if line.strip() in ("SERVING:", "STORAGE:", "ACCESS:", "LIMITS:", "LIVE:")]
    checks.check("--help groups the options: serving, storage, access, limits, live",
                 groups == ["SERVING:", "STORAGE:", "ACCESS:", "LIMITS:", "LIVE:"], groups)

    serving = out.split("SERVING:", 1)[-1].split("STORAGE:", 1)[0]
    checks.check("--help lists --base-url with the serving options", "--base-url <url>" in serving, serving)
    for bad in ["lists.example.com", "ftp://example.com", "https://example.com/?x=1", "https://example.com/#a"]:
        status, out = run("--base-url", bad, "--db", ":memory:", "--port", "0")
        checks.check(f"--base-url {bad} stops the start, naming the flag and the rule",
                     status != 0 and "--base-url" in out and "http" in out and "ready" not in out, out)

    for flag in ["--max-body", "--max-rows", "--port", "--stale-timeout"]:
        status, out = run(flag, "-5", "--db", ":memory:")
        checks.check(f"{flag} -5 says the value is out of range, not that it is missing",
                     status != 0 and "Missing value" not in out and flag in out, out)

    # A missing tokens file stops the start before the store is opened (no database file made).
    database = os.path.join(scratch, "never.sqlite")
    status, out = run("--tokens", os.path.join(scratch, "absent"), "--db", database, "--port", "0")
    checks.check("a missing --tokens file stops the start with exit status 2", status == 2 and "tokens file" in out, out)
    checks.check("... before the store was opened", not os.path.exists(database) and "store " not in out, out)

    # A tokens line whose scopes hold a blank stops the start, naming the line, not its content.
    tokens = os.path.join(scratch, "tokens")
    Path(tokens).write_text("good-token read:a\nSeCrEt-token write:x admin\n")
    status, out = run("--tokens", tokens, "--db", ":memory:", "--port", "0")
    checks.check("a blank inside the scopes stops the start with the line number",
                 status == 2 and "line 2" in out and "space or tab" in out and "SeCrEt" not in out, out)

    # A port in use: said once, with the reason and the fix.
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    status, out = run("--db", ":memory:", "--port", str(port))
    holder.close()
    checks.check("a port in use exits 1 with the reason and the fix",
                 status == 1 and "Address already in use" in out and "--port 0" in out, out)
    checks.check("... said once", out.count("in use") == 1, out)

    # A folder the user may not write: the reason and the fix, not only SQLite's error code.
    if os.getuid() == 0:
        locked = os.path.join(scratch, "locked")
        os.mkdir(locked)
        os.chmod(locked, 0o555)
        pwd.getpwnam("nobody")
        binary = BIN
        if subprocess.run(["runuser", "-u", "nobody", "--", "test", "-x", BIN]).returncode != 0:
            # The checkout is not reachable by nobody: a copy it may run (and a --public it may read).
            binary = shutil.copy(BIN, os.path.join(scratch, "list-server"))
        status, out = run("--db", os.path.join(locked, "lists.sqlite"), "--port", "0", "--public", scratch,
                          user="nobody", binary=binary)
        checks.check("an unwritable --db folder says so and how to fix it",
                     status == 1 and "may not create files in" in out and "--db :memory:" in out, out)
    else:
        # As another user, root's folders are unwritable the same way.
        status, out = run("--db", "/proc/lists.sqlite", "--port", "0")
        checks.check("an unwritable --db folder says so and how to fix it", status == 1 and "may not create files in" in out, out)

    # A stored list that no longer decodes (the file edited by hand, or by a bug) stops the start,
    # naming the list and what is wrong in it, and changes nothing stored.
    stored = os.path.join(scratch, "stored.sqlite")
    with Server(db=stored) as server:
        server.put_list("broken", {"title": "Broken", "columns": [{"key": "n", "kind": "number"}],
                                   "sections": [{"key": "s", "rows": [{"key": "r1", "cells": {"n": 1}}]}]})
    with sqlite3.connect(stored) as db:
        db.execute("UPDATE rows SET body = ? WHERE list_id = 'broken' AND row_key = 'r1'",
                   (b'{"key":"r1","cells":{"n":"many"}}',))
    def contents():
        with sqlite3.connect(stored) as db:
            return (db.execute("SELECT id, version, meta FROM lists ORDER BY id").fetchall(),
                    db.execute("SELECT list_id, row_key, body FROM rows ORDER BY list_id, row_key").fetchall())
    before = contents()
    status, out = run("--db", stored, "--port", "0")
    checks.check("a stored list that does not decode stops the start, naming it and the cell",
                 status == 1 and "stored list broken cannot be read" in out and "/sections/0/rows/0/cells/n" in out, out)
    checks.check("... and leaves its lists and rows as they were", contents() == before)

    sys.exit(checks.summary())


main()
