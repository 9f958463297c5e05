#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""trace_workload.py - known sequences on known files, for the trace tests.

  seq FILE            stat, write, stat, write, stat FILE; print the three st_ctime_ns
                      values seen, as JSON
  comm NAME FILE...   set this process's comm to NAME, then write+stat each FILE
"""
import json
import os
import sys


def write(path):
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    os.write(fd, b"x")
    os.close(fd)


if sys.argv[1] == "seq":
    f = sys.argv[2]
    seen = [os.stat(f).st_ctime_ns]
    for _ in range(2):
        write(f)
        seen.append(os.stat(f).st_ctime_ns)
    print(json.dumps({"ctime_ns": seen, "pid": os.getpid()}))
elif sys.argv[1] == "comm":
    with open("/proc/self/comm", "w") as c:
        c.write(sys.argv[2])
    for f in sys.argv[3:]:
        write(f)
        os.stat(f)
