"""A stand-in app for the web door's pool tests: speaks just enough of textual-serve's protocol to tell
what process, environment, folder and descriptors it was given, and answers each key packet with the
keys reversed (so a test sees that this tab, and only this one, still answers).

Run as ``python tests/web_probe.py ARGS...`` by a door whose tabs run it instead of the app.
"""

import json
import os
import signal
import sys


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


def main() -> None:
    out = sys.stdout.buffer
    facts = {
        "argv": sys.argv[1:],
        "env": dict(os.environ),
        "pid": os.getpid(),
        "parent": os.getppid(),
        "group": os.getpgrp(),
        "cwd": os.getcwd(),
        "descriptors": sorted(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else [],
    }
    out.write(b"__GANGLION__\n")
    out.write(packet(b"D", b"READY " + json.dumps(facts).encode() + b"\n"))
    out.flush()
    keys = sys.stdin.buffer
    while True:
        head = keys.read(5)
        if len(head) < 5:
            return
        payload = keys.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M" and json.loads(payload).get("type") == "quit":
            return
        if head[:1] == b"D":
            if payload.strip() == b"crash":
                os.kill(os.getpid(), signal.SIGSEGV)
            out.write(packet(b"D", b"ANSWER " + payload.strip()[::-1] + b"\n"))
            out.flush()


if __name__ == "__main__":
    main()
