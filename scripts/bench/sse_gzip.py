#!/usr/bin/env python3
"""Would gzip pay on the live stream? Measures real events, does not change the server.

Starts list-server (--demo), holds a view=html and a view=json stream on the 10,000-row `numbers`
list, sends row replaces inside the 50-row window, and keeps every event's bytes. Then compares,
with the system zlib (Python's zlib module is the same C library the server links):
  raw       the event as sent today
  shared    each event deflated on its own (raw deflate, sync flush): bytes made once per write
            and shared by every subscriber; each stream adds a gzip header and, at its end, a
            trailer whose CRC is combined from the events' CRCs (crc32_combine)
  stream    one deflate context per subscriber (what a gzip proxy in front would do): smaller,
            but costs CPU per subscriber per event and zlib's ~256 KiB of state per stream
It checks that a stream assembled from shared pieces decompresses to the raw bytes.
  python3 scripts/bench/sse_gzip.py [writes]          (default 300)
Binary: $LIST_SERVER_BIN or .build/release/list-server.
"""
import http.client
import os
import re
import statistics
import struct
import subprocess
import sys
import threading
import time
import zlib

WRITES = int(sys.argv[1]) if len(sys.argv) > 1 else 300
binary = os.environ.get("LIST_SERVER_BIN", ".build/release/list-server")
server = subprocess.Popen([binary, "--port", "0", "--db", ":memory:", "--demo", "--quiet"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
port = None
for line in server.stderr:
    match = re.search(r"ready at http://127\.0\.0\.1:(\d+)/", line)
    if match:
        port = int(match.group(1))
        break
threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()


def reader(view, events, done):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", f"/lists/numbers/events?view={view}", headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    buffer = b""
    while not done.is_set():
        chunk = response.read1(65536)
        if not chunk:
            break
        buffer += chunk
        while b"\n\n" in buffer:
            event, buffer = buffer.split(b"\n\n", 1)
            events.append(event + b"\n\n")
    connection.close()


streams = {}
done = threading.Event()
for view in ("html", "json"):
    streams[view] = []
    threading.Thread(target=reader, args=(view, streams[view], done), daemon=True).start()
time.sleep(1)
writer = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
for i in range(WRITES):
    n = 1 + i % 50
    body = f'{{"cells": {{"n": {n}, "square": {n * n}, "words": "number {n}, edit {i}"}}}}'
    writer.request("PUT", f"/lists/numbers/rows/n{n}", body=body, headers={"Content-Type": "application/json"})
    writer.getresponse().read()
final = WRITES + 1
deadline = time.time() + 30
while time.time() < deadline and not all(any(f"id: {final}\n".encode() in e for e in s) for s in streams.values()):
    time.sleep(0.1)
done.set()
server.terminate()
server.wait()


def cpu_seconds(function, repeat):
    start = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - start) / repeat


def shared_piece(event):
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    return deflate.compress(event) + deflate.flush(zlib.Z_SYNC_FLUSH)


print(os.popen("uptime").read().strip())
print(f"{WRITES} row replaces inside the window of a view=html and a view=json stream on `numbers`")
for view, events in streams.items():
    patches = [e for e in events if e.startswith(b"event: patch")]
    resets = [e for e in events if e.startswith(b"event: reset")]
    raw = [len(e) for e in patches]
    shared = [len(shared_piece(e)) for e in patches]
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    stream = []
    for e in events[:len(events) - len(patches)]:  # the stream's opening events prime its context
        deflate.compress(e)
        deflate.flush(zlib.Z_SYNC_FLUSH)
    for e in patches:
        stream.append(len(deflate.compress(e) + deflate.flush(zlib.Z_SYNC_FLUSH)))
    sample = patches[len(patches) // 2]
    cpu_shared = cpu_seconds(lambda: shared_piece(sample), 2000)
    context = zlib.compressobj(6, zlib.DEFLATED, -15)
    cpu_stream = cpu_seconds(lambda: context.compress(sample) + context.flush(zlib.Z_SYNC_FLUSH), 2000)
    print(f"\nview={view}: {len(patches)} patch events")
    print(f"  patch event bytes, median: raw {statistics.median(raw):.0f}, shared {statistics.median(shared):.0f} "
          f"({100 - 100 * sum(shared) / sum(raw):.0f}% saved), per-stream context {statistics.median(stream):.0f} "
          f"({100 - 100 * sum(stream) / sum(raw):.0f}% saved)")
    print(f"  CPU per patch event: shared {cpu_shared * 1e6:.1f} us once per write; per-stream {cpu_stream * 1e6:.1f} us "
          f"per subscriber (x 10,000 subscribers = {cpu_stream * 1e4 * 1e3:.0f} ms per write)")
    for reset in resets[:1]:
        print(f"  reset event: raw {len(reset)}, deflated on its own {len(shared_piece(reset))} "
              f"({100 - 100 * len(shared_piece(reset)) / len(reset):.0f}% saved)")
    # A stream assembled from shared pieces: gzip header, the pieces, an empty final block, trailer.
    body = b"".join(events)
    pieces = [shared_piece(e) for e in events]
    crc = 0
    for e in events:
        crc = zlib.crc32(e, crc)  # the server would combine per-event CRCs with crc32_combine
    assembled = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"".join(pieces) + b"\x03\x00"
                 + struct.pack("<II", crc, len(body) & 0xFFFFFFFF))
    print(f"  assembled shared stream decompresses to the raw bytes: {zlib.decompress(assembled, 31) == body}")
