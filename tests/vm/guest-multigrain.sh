#!/bin/sh
# guest-multigrain.sh - guest tests for kernels with multigrain timestamps
# (6.13+).  Runs as /test.sh under /init; helpers come from /lib/mgtest.sh.
# Add a step with:  run_json NAME EXPECTED_RC /bin/mgtrace ... --json
set -eu
. /lib/mgtest.sh
MGTS=/sys/kernel/debug/multigrain_timestamps

# mgts_workload DIR: JSON with the debugfs counters around 200 appends+stats.
mgts_workload() {
	before=$(cat "$MGTS")
	i=0
	while [ "$i" -lt 200 ]; do
		echo x >> "$1/f"
		stat "$1/f" > /dev/null
		i=$((i + 1))
	done
	after=$(cat "$MGTS")
	printf '{"dir": "%s", "before": [%s], "after": [%s]}\n' "$1" \
		"$(echo $before | tr ' ' ',')" "$(echo $after | tr ' ' ',')"
}

check mgtrace-present test -x /bin/mgtrace
check mgts-debugfs test -r "$MGTS"
mount_ext4 /mnt/x
run_json mgts-tmpfs 0 mgts_workload /tmp
run_json mgts-ext4 0 mgts_workload /mnt/x
# Future steps, e.g.:
# run_json probe 0 /bin/mgtrace probe --json
# run_json stat-fentry 0 /bin/mgtrace stat --json --backend fentry -- \
#	/bin/mgtrace stress --threads 2 --duration 2 --dir /mnt/x
umount /mnt/x
