#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# deps.sh - install the Debian 12 packages mgtrace needs to build and test, if missing.
# As root it runs apt-get; otherwise it prints the apt-get line to run.
# The one list of packages: the Makefile's `make deps` calls this script.
# The last line: building and checking the Debian package (debian/control's Build-Depends,
# tests/host.d/86-package.sh); systemd ships systemd.pc, which names the unit directory.
set -eu
PKGS="make gcc libc6-dev clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libzstd-dev
libjansson-dev pkg-config python3 util-linux
qemu-system-x86 busybox-static cpio e2fsprogs xz-utils debian-archive-keyring
bpftrace linux-perf time btrfs-progs xfsprogs podman runc
prometheus prometheus-node-exporter scdoc man-db bash-completion python3-jsonschema
dpkg-dev debhelper fakeroot lintian systemd"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all present"
elif [ "$(id -u)" = 0 ]; then
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
	echo "deps: as root, run: apt-get install$missing" >&2
	exit 1
fi
