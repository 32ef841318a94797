#!/usr/bin/python3
"""Presence across three instances on one real PostgreSQL (docs/SCALE-OUT.md, "Presence"):
every instance's streams are told the sum of the streams open on all of them, within a few
seconds of one opening or closing anywhere; a clean stop takes an instance's viewers out at
once, a `kill -9` within the expiry (5 s) and the next exchange.

    /usr/bin/python3 Tests/integration/test_cluster_presence.py
"""
import signal

import clusterlib
import livetest
from clusterlib import request
from testkit import wait_until

checks = livetest.Checks("cluster_presence")
DOC = {"title": "Shared", "columns": [{"key": "name"}], "sections": [{"key": "s", "rows": [{"key": "r", "cells": {"name": "x"}}]}]}
# Generous: the contract is 5 s; this only bounds how long a broken build makes the test wait.
WAIT = 20


def stream(server, query="view=json"):
    return livetest.EventStream(server, f"/lists/shared/events?{query}")


def all_told(streams, viewers):
    """Waits until every stream's last presence event says `viewers`; the streams that do not."""
    wait_until(lambda: all(s.viewers()[-1:] == [viewers] for s in streams), timeout=WAIT)
    return [(s.path, s.viewers()[-3:]) for s in streams if s.viewers()[-1:] != [viewers]]


def test_sum_over_instances(servers, _postgres):
    status, _, _ = request(servers[0], "PUT", "/lists/shared", DOC)
    checks.equal("PUT on instance 1", status, 201)
    streams = [stream(server, query) for server, query in zip(servers, ["view=json", "view=html&limit=1", "view=json&q=x"])]
    checks.equal("one stream on each of three instances: each is told 3", all_told(streams, 3), [])
    extra = [stream(servers[1]), stream(servers[1], "view=html")]
    checks.equal("two more on instance 2: every stream is told 5", all_told(streams + extra, 5), [])
    extra[0].close()
    checks.equal("one closes: the others are told 4", all_told(streams + extra[1:], 4), [])
    extra[1].close()
    checks.equal("another closes: 3", all_told(streams, 3), [])
    for s in streams:
        s.close()


def test_killed_instance_leaves_the_sum(servers, _postgres):
    request(servers[0], "PUT", "/lists/shared", DOC)
    survivors = [stream(servers[0]), stream(servers[1])]
    victims = [stream(servers[2]), stream(servers[2], "view=html")]
    checks.equal("four streams on three instances: each is told 4", all_told(survivors + victims, 4), [])
    servers[2].process.send_signal(signal.SIGKILL)
    servers[2].process.wait()
    checks.equal("instance 3 killed: the others are told 2 once its heartbeat expires", all_told(survivors, 2), [])
    for s in survivors:
        s.close()


if __name__ == "__main__":
    clusterlib.run_on_cluster(checks, [
        ("viewers on three instances sum on each", test_sum_over_instances),
        ("a killed instance's viewers leave the sum", test_killed_instance_leaves_the_sum),
    ])
