#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""names_workload.py DIR [ARG...] - names built to break output encoders, for tests/host.d/67-names.sh.

Creates in DIR one file per NAMES entry, renames its own task (comm) to COMM, whose 15 bytes
the kernel keeps end inside a 2-byte character, then stats, appends to and stats each file
(events: stat, ctime_swap, stat). ARGs are ignored: they carry bytes for COMMAND reports.
"""
import ctypes
import os
import sys

NAMES = [
    "€" * 12,               # 36 bytes: the 31-byte event buffer cuts the 11th character
    b"bad\xffbyte",          # not UTF-8
    b"new\nline",            # splits text lines unless escaped
    b'q"uote\\back',         # JSON/XML quoting and the escape character itself
    "\u202e rtl",            # RIGHT-TO-LEFT OVERRIDE: reorders a text line unless escaped
]
NAMES = [n.encode() if isinstance(n, str) else n for n in NAMES]
# PR_SET_NAME keeps 15 bytes: 14 ASCII and the lead byte of U+00E9
COMM = b"abcdefghijklmn\xc3\xa9"
COMM_SEEN = b"abcdefghijklmn"   # what mgtrace prints: the partial character dropped, truncated


def main():
    d = os.fsencode(sys.argv[1])
    paths = [os.path.join(d, n) for n in NAMES]
    for p in paths:
        with open(p, "wb") as f:
            f.write(b"x")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(15, ctypes.c_char_p(COMM), 0, 0, 0):  # PR_SET_NAME
        sys.exit("prctl(PR_SET_NAME) failed")
    for p in paths:
        os.stat(p)
        with open(p, "ab") as f:
            f.write(b"y")
        os.stat(p)


if __name__ == "__main__":
    main()
