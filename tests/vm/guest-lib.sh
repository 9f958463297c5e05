# SPDX-License-Identifier: GPL-2.0
# guest-lib.sh - helpers for guest test scripts, installed as /lib/mgtest.sh.
#
# Console protocol (parsed by run-vm.sh):
#   MGTEST PASS <name>
#   MGTEST FAIL <name>: <reason>
#   MGTEST INFO <text>                   (informational)
#   MGDATA BEGIN <file> ... MGDATA END <file>   (saved to OUTDIR/<file>)
#   MGDATA BEGIN64 <file> ... MGDATA END <file> (gzip'ed, base64; decoded to OUTDIR/<file>)
#   MGTEST DONE                          (printed by /init at the very end)
# Every helper returns 0, so test scripts may run under 'set -e'.
# Uses 'local' (busybox ash, dash and bash have it).
# shellcheck disable=SC3043

mgtest_pass() { echo "MGTEST PASS $1"; }
mgtest_fail() { local n=$1; shift; echo "MGTEST FAIL $n: $*"; }

# mgdata_file NAME FILE [text]: copy FILE to the host as OUTDIR/NAME.  A file over 32 KiB goes
# gzip'ed and base64-encoded: the emulated serial console moves a few hundred KiB/s, and
# event traces of several MiB sent as text took minutes of the guest's time budget.
# "text" keeps FILE readable on the console (dmesg: run-vm.sh scans it for Oops/BUG).
mgdata_file() {
	if [ "${3:-}" != text ] && [ "$(wc -c < "$2")" -gt 32768 ]; then
		echo "MGDATA BEGIN64 $1"
		gzip -c "$2" | base64
		echo "MGDATA END $1"
		return 0
	fi
	echo "MGDATA BEGIN $1"
	cat "$2"
	# make sure END starts a line even if FILE lacks a final newline
	[ -s "$2" ] && [ "$(tail -c1 "$2" | od -An -c | tr -d ' ')" != '\n' ] && echo
	echo "MGDATA END $1"
}

# check NAME CMD...: PASS if CMD succeeds, FAIL otherwise.
check() {
	local n=$1; shift
	if "$@"; then mgtest_pass "$n"; else mgtest_fail "$n" "failed: $*"; fi
	return 0
}

# run_json NAME RC CMD...: run CMD (a program or shell function) with a
# timeout of $MGTEST_TIMEOUT seconds (default 300; functions are not
# timed), send its stdout to the host as NAME.json (and stderr, if any, as
# NAME.stderr), and PASS if it exited with status RC (or one of a comma
# list: "0,4").
run_json() {
	local n=$1 want=$2 rc=0; shift 2
	if type "$1" | grep -q 'function'; then
		"$@" >"/tmp/$n.out" 2>"/tmp/$n.err" || rc=$?
	else
		timeout "${MGTEST_TIMEOUT:-300}" "$@" >"/tmp/$n.out" 2>"/tmp/$n.err" || rc=$?
	fi
	mgdata_file "$n.json" "/tmp/$n.out"
	[ -s "/tmp/$n.err" ] && mgdata_file "$n.stderr" "/tmp/$n.err"
	case ",$want," in
	*",$rc,"*)
		mgtest_pass "$n" ;;
	*)
		mgtest_fail "$n" "exit $rc, expected $want: $(tail -n 3 "/tmp/$n.err" | tr '\n' ' ')" ;;
	esac
	return 0
}

# mount_ext4 DIR: loop-mount the ext4 image /ext4.img (made on the host by
# mkinitramfs.sh) on DIR.  The image lives in the initramfs, so the guest
# needs loop (a module in Debian cloud kernels) but no block driver.
mount_ext4() {
	mkdir -p "$1"
	check ext4-mount mount -t ext4 -o loop /ext4.img "$1"
}
