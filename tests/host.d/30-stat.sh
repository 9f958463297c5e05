# SPDX-License-Identifier: GPL-2.0
# 30-stat.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
echo "# stat around stress"
stat_run stat-tmpfs tmpfs
stat_run stat-ext4 ext4 --dir /var/tmp
