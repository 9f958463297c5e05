#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# deps.sh - install the Debian 12 packages mgtrace needs to build and test, if missing.
# As root it runs apt-get; otherwise it prints the apt-get line to run.
# The one list of packages: the Makefile's `make deps` calls this script.
# The last line: building and checking the Debian package (debian/control's Build-Depends,
# tests/host.d/86-package.sh); systemd ships systemd.pc, which names the unit directory.
#
# usage: deps.sh [--arch arm64]     (or MGTRACE_ARCHES="arm64")
# --arch arm64 adds what `make ARCH=arm64` (the cross build, static too) and the arm64 VM
# stage need: the cross compiler, the arm64 -dev packages through Debian's multiarch (dpkg
# --add-architecture arm64, then apt-get update from the machine's own sources), and
# qemu-system-aarch64 (qemu-system-arm) with its UEFI-free -kernel boot. The arm64 guest's
# busybox and bpftool are not installed: tests/vm/fetch-tools.sh unpacks them.
set -eu
arches=${MGTRACE_ARCHES:-}
while [ $# -gt 0 ]; do
	case $1 in
	--arch) [ $# -ge 2 ] || { echo "deps: --arch needs an architecture" >&2; exit 2; }
		arches="$arches $2"; shift 2 ;;
	--arch=*) arches="$arches ${1#--arch=}"; shift ;;
	*) echo "deps: unknown argument $1 (usage: deps.sh [--arch arm64])" >&2; exit 2 ;;
	esac
done
PKGS="make gcc libc6-dev clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libzstd-dev
libjansson-dev pkg-config python3 util-linux
qemu-system-x86 busybox-static cpio e2fsprogs xz-utils debian-archive-keyring
bpftrace linux-perf time btrfs-progs xfsprogs kmod podman runc
prometheus prometheus-node-exporter scdoc man-db bash-completion python3-jsonschema
dpkg-dev debhelper fakeroot lintian systemd"
foreign=
for a in $arches; do
	case $a in
	arm64|aarch64)
		foreign="$foreign arm64"
		PKGS="$PKGS gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm
libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libjansson-dev:arm64" ;;
	amd64|x86|x86_64) ;;
	*) echo "deps: --arch $a: only arm64 (vmlinux/README)" >&2; exit 2 ;;
	esac
done
newarch=
for a in $foreign; do
	dpkg --print-foreign-architectures | grep -qx "$a" || newarch="$newarch $a"
done
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all present"
elif [ "$(id -u)" = 0 ]; then
	for a in $newarch; do
		echo "deps: dpkg --add-architecture $a"
		dpkg --add-architecture "$a"
	done
	echo "deps: installing$missing"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
	# Debian starts these daemons on install (ports 9090 and 9100 on every interface); the
	# tests run their own on free local ports, so the ones just installed are stopped again
	for s in prometheus prometheus-node-exporter; do
		case " $missing " in *" $s "*)
			if [ -d /run/systemd/system ] && systemctl disable --now "$s.service" 2>/dev/null; then
				echo "deps: $s.service stopped and disabled (the tests start their own)"
			fi ;;
		esac
	done
else
	for a in $newarch; do echo "deps: as root, run: dpkg --add-architecture $a && apt-get update" >&2; done
	echo "deps: as root, run: apt-get install$missing" >&2
	exit 1
fi
