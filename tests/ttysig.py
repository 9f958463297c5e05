#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ttysig.py - run a command on a pseudo-terminal and type Ctrl-C at it, as a user would
(tests/host.d/61-check-signals.sh).

usage: ttysig.py DELAY OUT CMD...

CMD runs as the session leader of a new pty (its controlling terminal, CMD and what it starts
in the foreground process group), with the terminal's output copied to OUT. After DELAY
seconds ^C is written to the pty: the line discipline sends SIGINT to the foreground process
group itself (si_code SI_KERNEL), as a terminal does. Exits with CMD's status as a shell
reports it.
"""
import os
import select
import pty
import sys
import time


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    delay, out, cmd = float(argv[0]), argv[1], argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    t0, sent = time.monotonic(), False
    with open(out, "wb") as f:
        while True:
            if not sent and time.monotonic() - t0 >= delay:
                os.write(fd, b"\x03")
                sent = True
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    break
                if not data:
                    break
                f.write(data)
    _, st = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st))


if __name__ == "__main__":
    main(sys.argv[1:])
