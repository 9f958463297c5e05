#!/bin/sh
# guest-nomultigrain.sh - guest tests for kernels without multigrain
# timestamps (< 6.13).  Runs as /test.sh under /init; helpers come from
# /lib/mgtest.sh.  Add a step with:  run_json NAME EXPECTED_RC CMD...
set -eu
. /lib/mgtest.sh
MGTS=/sys/kernel/debug/multigrain_timestamps

# workload DIR: 200 appends+stats, JSON with the final size.
workload() {
	i=0
	while [ "$i" -lt 200 ]; do
		echo x >> "$1/f"
		stat "$1/f" > /dev/null
		i=$((i + 1))
	done
	printf '{"dir": "%s", "size": %s}\n' "$1" "$(stat -c %s "$1/f")"
}

check mgtrace-present test -x /bin/mgtrace
check debugfs-mounted grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
check no-mgts-debugfs test ! -e "$MGTS"
mount_ext4 /mnt/x
run_json workload-tmpfs 0 workload /tmp
run_json workload-ext4 0 workload /mnt/x
# Future steps, e.g.:
# run_json probe 0 /bin/mgtrace probe --json
umount /mnt/x
