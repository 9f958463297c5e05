#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""writeloop.py FILE N [PAUSE] - N appends of one byte to FILE, each followed by a stat()
of it (so every write updates a QUERIED ctime); N 0: until killed, PAUSE seconds between
pairs (default 0). A workload of known size for the -C and -p tests (pin it with taskset)."""
import os
import sys
import time

path, n = sys.argv[1], int(sys.argv[2])
pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
i = 0
while not n or i < n:
    os.write(fd, b"x")
    os.stat(path)
    i += 1
    if pause:
        time.sleep(pause)
