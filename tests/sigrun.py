#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sigrun.py - run a command and signal it after a delay, as a user, a terminal or a CI
timeout would (tests/lib.sh sig_run).

usage: sigrun.py [--group] SIGNAL DELAY OUT ERR CMD...

CMD starts with SIGINT, SIGTERM and SIGHUP at their default dispositions and unblocked
(a shell's background job would ignore SIGINT: the cases tested are a terminal's and a
CI runner's), stdout to OUT, stderr to ERR. After DELAY seconds SIGNAL (INT, TERM, HUP)
is sent to CMD, or with --group to CMD's whole process group (Ctrl-C at a terminal, or
`timeout`, which signals its process group too). Exits with CMD's status as a shell
reports it: its exit code, or 128+N when signal N killed it.
"""
import os
import signal
import subprocess
import sys
import time


def main(argv):
    group = argv[:1] == ["--group"]
    if group:
        argv = argv[1:]
    if len(argv) < 5:
        sys.exit(__doc__)
    sig = getattr(signal, "SIG" + argv[0])
    delay = float(argv[1])

    def child():
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        if group:
            os.setpgid(0, 0)

    with open(argv[2], "wb") as out, open(argv[3], "wb") as err:
        p = subprocess.Popen(argv[4:], stdout=out, stderr=err, preexec_fn=child)
        time.sleep(delay)
        if group:
            os.killpg(p.pid, sig)
        else:
            p.send_signal(sig)
        rc = p.wait()
    sys.exit(128 - rc if rc < 0 else rc)


if __name__ == "__main__":
    main(sys.argv[1:])
