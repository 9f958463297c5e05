/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hostclock.h - the host's CLOCK_MONOTONIC, inside a time namespace and out.
 *
 * BPF's bpf_ktime_get_ns() is CLOCK_MONOTONIC of the initial time namespace (the
 * host's). In a time namespace (unshare --time, a container given one) user space's
 * CLOCK_MONOTONIC and CLOCK_BOOTTIME are the host's plus the namespace's offsets,
 * which /proc/self/timens_offsets shows (time_namespaces(7); kernel/time/namespace.c).
 * CLOCK_REALTIME and CLOCK_TAI are never offset. Every time mgtrace compares with or
 * turns into a BPF time is taken here (util.c's mg_now_ns() and mg_realtime_offset()).
 * hostclock.c calls nothing of mgtrace's.
 */
#ifndef MG_HOSTCLOCK_H
#define MG_HOSTCLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A time namespace's offsets from the host's clocks, ns: namespace's - host's. */
struct mg_timens {
	int64_t mono_ns;	/* CLOCK_MONOTONIC */
	int64_t boot_ns;	/* CLOCK_BOOTTIME */
};

#define MG_TIMENS_PATH "/proc/self/timens_offsets"

/*
 * Parse the text of /proc/PID/timens_offsets into *out: one line per clock, "NAME SECS
 * NSECS" (the kernel's show_offset(): "%-10s %10lld %9ld"), NAME "monotonic" or
 * "boottime" (or their clock ids 1 and 7, as the file's writers may name them), SECS
 * any sign, NSECS 0..999999999. A line of another clock is left out (no conversion
 * needs it). Returns 0, or -EINVAL with why (the line and what is wrong with it; no
 * monotonic line) and *out zeroed.
 */
int mg_timens_parse(const char *text, struct mg_timens *out, char *why, size_t len);

/*
 * This process's time namespace offsets, read from MG_TIMENS_PATH once (thread-safe).
 * Returns 0 with *out set (all 0 outside a time namespace, and where the file is absent
 * while /proc is mounted: a kernel without CONFIG_TIME_NS has no time namespaces), or
 * -errno with *out zeroed and why: -ENOENT (/proc not mounted), the open's or read's
 * error, -EINVAL (a file that does not parse). why and out may be NULL.
 */
int mg_timens_get(struct mg_timens *out, char *why, size_t len);

/*
 * The host's CLOCK_MONOTONIC now, ns: this namespace's minus its offset (none known:
 * this namespace's, mg_timens_get() says why), the clock bpf_ktime_get_ns() reads.
 */
uint64_t mg_host_mono_ns(void);

/*
 * Where the offsets are unknown (mg_timens_get() < 0), one line on stderr, once:
 * "mgtrace: the host's monotonic clock is unknown (WHY): ..." For the commands that
 * load BPF (mg_run_require_env(), after the environment check, which refuses a missing
 * /proc first). Returns true when it printed.
 */
bool mg_hostclock_note(void);

/* The host monotonic offset mg_host_mono_ns() subtracts, ns (0 where none is known). */
int64_t mg_host_mono_offset(void);

#endif
