#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-tools.sh - the guest's own tools for a foreign-architecture VM (arm64 on amd64):
# busybox (busybox-static) and bpftool with the shared libraries it needs, unpacked from
# Debian's arm64 packages into a sysroot.
#
# usage: fetch-tools.sh ARCH        (arm64)
# The packages come from the machine's own apt sources through Debian's multiarch
# (tools/deps.sh --arch arm64 adds the architecture): apt-get download, never installed, so
# the host's amd64 busybox-static and bpftool stay. Unpacked once into
# $MGTRACE_VM_CACHE (default /var/cache/mgtrace-vm)/tools-ARCH/<versions>/, whose path is
# printed on stdout; it holds bin/busybox, usr/sbin/bpftool and (usr/)lib/<triplet>/*.so*,
# and a file "versions" (one NAME=VERSION a line). Exit 1 with one line on stderr when a
# package cannot be had.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 ARCH" >&2; exit 2; }
arch=$1
case $arch in arm64) ;; *) echo "fetch-tools: $arch: only arm64" >&2; exit 2 ;; esac
cache=${MGTRACE_VM_CACHE:-/var/cache/mgtrace-vm}
die() { echo "fetch-tools: $*" >&2; exit 1; }
dpkg --print-foreign-architectures | grep -qx "$arch" ||
	die "dpkg has no $arch architecture (run tools/deps.sh --arch $arch)"
# bpftool's Depends (bookworm): libc6, libcap2, libelf1, zlib1g
pkgs="busybox-static bpftool libc6 libcap2 libelf1 zlib1g"
vers=
for p in $pkgs; do
	v=$(apt-cache policy "$p:$arch" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	[ -n "$v" ] && [ "$v" != "(none)" ] || die "no $p:$arch in the apt sources (apt-get update after tools/deps.sh --arch $arch?)"
	vers="$vers$p=$v
"
done
key=$(printf '%s' "$vers" | sha256sum | cut -c1-12)
root=$cache/tools-$arch/$key
mkdir -p "$cache/tools-$arch"
exec 9> "$cache/tools-$arch.lock"
flock 9 || die "cannot lock $cache/tools-$arch.lock"
if [ ! -e "$root/.done" ]; then
	rm -rf "$root" "$root.dl"; mkdir -p "$root.dl"
	# shellcheck disable=SC2046 # one word per package
	(cd "$root.dl" && apt-get -q download $(for p in $pkgs; do
		echo "$p:$arch=$(printf '%s' "$vers" | sed -n "s/^$p=//p")"; done) >&2) ||
		{ rm -rf "$root.dl"; die "apt-get download of $pkgs ($arch) failed"; }
	mkdir -p "$root"
	for d in "$root.dl"/*.deb; do dpkg-deb -x "$d" "$root" || die "cannot unpack $d"; done
	rm -rf "$root.dl"
	[ -x "$root/bin/busybox" ] && [ -x "$root/usr/sbin/bpftool" ] ||
		die "no bin/busybox or usr/sbin/bpftool in the unpacked packages"
	printf '%s' "$vers" > "$root/versions"
	touch "$root/.done"
fi
echo "fetch-tools: $arch: $(tr '\n' ' ' < "$root/versions")" >&2
echo "$root"
