"""A stand-in app for the SSH front door's tests: tells what terminal and environment it was given,
reports each resize it is told about, and answers each line typed with the line reversed (so the
answer differs from the terminal's own echo).

Run as ``python tests/ssh_probe.py ARGS...``; ``--grandchild`` also starts a ``sleep`` in its
process group, to show that the door ends the whole group.
"""

import json
import os
import signal
import subprocess
import sys


def size() -> str:
    columns, rows = os.get_terminal_size(0)
    return f"{columns}x{rows}"


def main() -> None:
    # os.write, not print: a resize may arrive while print is busy, and print is not reentrant
    signal.signal(signal.SIGWINCH, lambda *_: os.write(1, f"RESIZED {size()}\r\n".encode()))
    facts = {
        "argv": sys.argv[1:],
        "env": dict(os.environ),
        "pid": os.getpid(),
        "group": os.getpgrp(),
        "session": os.getsid(0),
        "controlling_tty": os.tcgetpgrp(0) == os.getpgrp(),
        "size": size(),
        "cwd": os.getcwd(),
        "parent": os.getppid(),
        "descriptors": sorted(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else [],
    }
    if "--grandchild" in sys.argv:
        facts["grandchild"] = subprocess.Popen(["sleep", "1000"]).pid
    print("READY " + json.dumps(facts), flush=True)
    for line in sys.stdin:
        if line.strip() == "crash":  # a guest's app that dies of a fault, not by exiting
            os.kill(os.getpid(), signal.SIGSEGV)
        print(f"ANSWER {line.strip()[::-1]}", flush=True)


if __name__ == "__main__":
    main()
