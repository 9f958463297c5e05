#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""btf-from-image.py - copy the kernel's BTF (.BTF, what /sys/kernel/btf/vmlinux serves) out
of a kernel image that is no ELF file: Debian's arm64 vmlinuz, a raw arm64 Image, gzip'ed or
not (an ELF vmlinux: use bpftool on it directly).

usage: btf-from-image.py IMAGE OUT

The BTF blob starts with its header (include/uapi/linux/btf.h, struct btf_header): magic
0xeB9F, version 1, flags 0, hdr_len 24, then type_off, type_len, str_off, str_len (u32 each,
little-endian: arm64 and x86 kernels); its length is hdr_len + max(type_off + type_len,
str_off + str_len). Exactly one such header must be found in the image. Exit 1 with one
line on stderr when none or several are, 2 on usage.
"""
import gzip
import struct
import sys

MAGIC = b"\x9f\xeb\x01\x00\x18\x00\x00\x00"  # magic, version 1, flags 0, hdr_len 24


def main():
    if len(sys.argv) != 3:
        print("usage: btf-from-image.py IMAGE OUT", file=sys.stderr)
        return 2
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data[:4] == b"\x7fELF":
        print("btf-from-image: %s is ELF: run bpftool btf dump file on it" % sys.argv[1],
              file=sys.stderr)
        return 1
    at, i = [], data.find(MAGIC)
    while i >= 0:
        at.append(i)
        i = data.find(MAGIC, i + 1)
    if len(at) != 1:
        print("btf-from-image: %s: %d BTF headers, want exactly 1" % (sys.argv[1], len(at)),
              file=sys.stderr)
        return 1
    i = at[0]
    hdr_len, type_off, type_len, str_off, str_len = struct.unpack_from("<IIIII", data, i + 4)
    end = i + hdr_len + max(type_off + type_len, str_off + str_len)
    if end > len(data):
        print("btf-from-image: %s: the BTF at %d runs past the image's end" % (sys.argv[1], i),
              file=sys.stderr)
        return 1
    with open(sys.argv[2], "wb") as f:
        f.write(data[i:end])
    print("btf-from-image: %d bytes of BTF at offset %d" % (end - i, i), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
