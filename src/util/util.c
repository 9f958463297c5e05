// SPDX-License-Identifier: GPL-2.0
/* util.c - argument parsing and small helpers. */
#include <ctype.h>
#include <errno.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include "util.h"
#include "escape.h"
#include "hostclock.h"

int mg_verbose;

int mg_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int mg_parse_real(const char *s, bool neg, double *out)
{
	const char *p = s;
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	if (neg && *p == '-')
		p++;
	/* decimal only: no hex, sign (but neg's '-'), spaces, inf or nan */
	if (!(isdigit((unsigned char)*p) || *p == '.') || p[strspn(p, "0123456789.eE+-")])
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || isnan(v))
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int mg_parse_seconds(const char *s, double max_s, double *out)
{
	double v;
	int err = mg_parse_real(s, false, &v);

	if (err)
		return err;
	if (v <= 0 || v > max_s)
		return -ERANGE;
	*out = v;
	return 0;
}

char mg_last_err[1024];

int mg_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(mg_last_err, sizeof(mg_last_err), fmt, ap);
	va_end(ap);
	mg_err_line(mg_last_err);
	return code;
}

void mg_err_line(const char *msg)
{
	/* one line whatever the message carries (a path's newline, a terminal's escape):
	 * the text form of escape.h; mg_last_err keeps the bytes for the JSON record */
	fputs("mgtrace: ", stderr);
	mg_text_fput(stderr, msg, strlen(msg), false);
	fputc('\n', stderr);
}

bool mg_resource_cause(int err, char *cause, size_t len)
{
	struct rlimit rl;

	if (err == -EMFILE && !getrlimit(RLIMIT_NOFILE, &rl))
		snprintf(cause, len, "out of file descriptors: the open-file limit (ulimit -n) is "
			 "%llu: raise it (ulimit -n 1024)", (unsigned long long)rl.rlim_cur);
	else if (err == -ENFILE)
		snprintf(cause, len, "the system's file table is full (fs.file-max, "
			 "/proc/sys/fs/file-nr)");
	else if (err == -ENOMEM)
		snprintf(cause, len, "out of memory (the kernel's, for BPF maps and programs: "
			 "/proc/meminfo; a smaller --max-inodes or --ringbuf takes less)");
	else
		return false;
	return true;
}

int mg_err_step(const char *what, int err)
{
	char cause[200];

	if (mg_resource_cause(err, cause, sizeof(cause)))
		return mg_err(MG_EXIT_ENV, "%s: %s (%s)", what, strerror(-err), cause);
	return mg_err(MG_EXIT_FAIL, "%s: %s", what, strerror(-err));
}

const char *mg_fs_magic_name(unsigned long magic)
{
	switch (magic) {
	case 0x01021994: return "tmpfs";
	case 0xEF53: return "ext4";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case 0x794C7630: return "overlayfs";
	case 0x9fa0: return "proc";
	case 0x62656572: return "sysfs";
	default: return NULL;
	}
}

int mg_grow(void *arr, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t c = *cap ? *cap * 2 : first;
	void *old, *p;

	if (n < *cap)
		return 0;
	memcpy(&old, arr, sizeof(old));	/* any T **, without an aliasing cast */
	if (!(p = realloc(old, c * elem)))
		return -ENOMEM;
	memcpy(arr, &p, sizeof(p));
	*cap = c;
	return 0;
}

bool mg_hup_ignored(void)
{
	static int ignored = -1;
	struct sigaction sa;

	/* mgtrace never sets SIGHUP's disposition: what it is now is what it was at exec */
	if (ignored < 0)
		ignored = !sigaction(SIGHUP, NULL, &sa) && sa.sa_handler == SIG_IGN;
	return ignored;
}

void mg_stop_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	if (!mg_hup_ignored())
		sigaddset(set, SIGHUP);
}

uint64_t mg_now_ns(void)
{
	return mg_host_mono_ns();
}

int mg_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = 0;
	return n;
}

int mg_check_pid(const char *cmd, unsigned long long pid)
{
	char path[64], buf[4096], *tg;
	unsigned long long tgid;

	/* no /proc (a chroot): not "no process"; mg_env_require() names /proc before any load */
	if (access("/proc/self/status", F_OK))
		return MG_EXIT_OK;
	snprintf(path, sizeof(path), "/proc/%llu/status", pid);
	if (mg_read_file(path, buf, sizeof(buf)) <= 0 || !(tg = strstr(buf, "\nTgid:")))
		return mg_err(MG_EXIT_USAGE, "%s: no process %llu", cmd, pid);
	tgid = strtoull(tg + 6, NULL, 10);
	if (tgid != pid)
		return mg_err(MG_EXIT_USAGE, "%s: %llu is a thread of process %llu: give the process",
			      cmd, pid, tgid);
	return MG_EXIT_OK;
}

int mg_nr_cpus(void)
{
	return libbpf_num_possible_cpus();
}

int mg_bad_option(const char *cmd, int c, char **argv)
{
	extern int optind, optopt;
	const char *what = c == ':' ? "option needs a value" : "unrecognized option";
	const char *arg = argv[optind - 1];
	char shortopt[3] = { '-', (char)optopt, 0 };

	/* mgtrace's own options (before a command): no command to name */
	bool top = !strcmp(cmd, "mgtrace");

	/* long options (and their values) are named as typed; short ones by optopt */
	if (!strncmp(arg, "--", 2) || !optopt || optopt > 255)
		arg = c == ':' || !strchr(arg, '=') ? arg : (what = "option takes no value", arg);
	else
		arg = shortopt;
	return mg_err(MG_EXIT_USAGE, "%s%s%s '%s' (try 'mgtrace %s%s--help')", top ? "" : cmd,
		      top ? "" : ": ", what, arg, top ? "" : cmd, top ? "" : " ");
}

int64_t mg_realtime_offset_bracket(int64_t *halfwidth)
{
	int64_t best = 0, best_gap = INT64_MAX, ns_off = mg_host_mono_offset();
	struct timespec r, m1, m2;
	int i;

	for (i = 0; i < 16 && best_gap > 20000; i++) {
		int64_t a, b;

		clock_gettime(CLOCK_MONOTONIC, &m1);
		clock_gettime(CLOCK_REALTIME, &r);
		clock_gettime(CLOCK_MONOTONIC, &m2);
		a = m1.tv_sec * 1000000000ll + m1.tv_nsec;
		b = m2.tv_sec * 1000000000ll + m2.tv_nsec;
		if (b - a < best_gap) {
			best_gap = b - a;
			/* against the host's monotonic clock, BPF's (hostclock.h) */
			best = r.tv_sec * 1000000000ll + r.tv_nsec - (a + (b - a) / 2 - ns_off);
		}
	}
	if (halfwidth)
		*halfwidth = best_gap / 2 + 1;
	return best;
}

int64_t mg_realtime_offset(void)
{
	return mg_realtime_offset_bracket(NULL);
}

int64_t mg_tai_minus_realtime(void)
{
	struct timespec t, r;
	int64_t d;

	clock_gettime(CLOCK_TAI, &t);
	clock_gettime(CLOCK_REALTIME, &r);
	d = (t.tv_sec - r.tv_sec) * 1000000000ll + (t.tv_nsec - r.tv_nsec);
	/* a whole number of seconds (the kernel's tai_offset): round off the read gap */
	return (d + (d >= 0 ? 500000000 : -500000000)) / 1000000000 * 1000000000;
}

int mg_online_cpus(bool *online, int n)
{
	char list[1024], *p, *end;
	int cpu, count = 0, err;
	long a, b;

	for (cpu = 0; cpu < n; cpu++)
		online[cpu] = true;
	if ((err = mg_read_file("/sys/devices/system/cpu/online", list, sizeof(list))) < 0)
		return err;
	for (cpu = 0; cpu < n; cpu++)
		online[cpu] = false;
	list[strcspn(list, "\n")] = 0;
	for (p = list; *p; p = *end ? end + 1 : end) {
		a = b = strtol(p, &end, 10);
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (cpu = a < 0 ? 0 : (int)a; cpu <= b && cpu < n; cpu++)
			online[cpu] = true;
	}
	for (cpu = 0; cpu < n; cpu++)
		count += online[cpu];
	return count;
}

/*
 * dir's realpath, "/", base: path as it would be created; false when dir cannot be resolved.
 * A dangling symlink is followed first (an open with O_CREAT creates its target), as the
 * kernel does, up to 40 links.
 */
static bool canon_path(const char *path, char *out, size_t len)
{
	char p[PATH_MAX], d[PATH_MAX], b[PATH_MAX], r[PATH_MAX], t[PATH_MAX];
	ssize_t n;
	int hops;

	snprintf(p, sizeof(p), "%s", path);
	for (hops = 0; hops < 40 && (n = readlink(p, t, sizeof(t) - 1)) > 0; hops++) {
		t[n] = 0;
		if (t[0] == '/') {
			snprintf(p, sizeof(p), "%s", t);
			continue;
		}
		snprintf(d, sizeof(d), "%s", p);	/* relative: to the link's directory */
		if (snprintf(p, sizeof(p), "%s/%s", dirname(d), t) >= (int)sizeof(p))
			return false;
	}
	snprintf(d, sizeof(d), "%s", p);
	snprintf(b, sizeof(b), "%s", p);
	if (!realpath(dirname(d), r))
		return false;
	snprintf(out, len, "%s/%s", r, basename(b));
	return true;
}

bool mg_same_file(const char *a, const char *b)
{
	char ra[PATH_MAX + 2], rb[PATH_MAX + 2];
	struct stat sa, sb;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return canon_path(a, ra, sizeof(ra)) && canon_path(b, rb, sizeof(rb)) && !strcmp(ra, rb);
}

/* snprintf() that cuts a text too long only between words, marked (util.h). */
bool mg_snprintf_words(char *dst, size_t size, const char *fmt, ...)
{
	const size_t more = sizeof(MG_WORDS_CUT) - 1;
	char *s = NULL;
	size_t keep, n;
	va_list ap;
	int len;

	if (!size)
		return false;
	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0) {
		dst[0] = 0;
		return true;
	}
	n = (size_t)len;
	if (n < size) {
		memcpy(dst, s, n + 1);
		free(s);
		return false;
	}
	/* the longest run of whole words that leaves room for the mark and the NUL */
	keep = size > more + 1 ? size - more - 1 : 0;
	n = keep;
	while (n > 0 && s[n] != ' ')
		n--;
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (!n) {	/* one word longer than all of it: cut where it stops fitting, "..." */
		n = size > 4 ? size - 4 : 0;
		memcpy(dst, s, n);
		snprintf(dst + n, size - n, "...");
		free(s);
		return true;
	}
	memcpy(dst, s, n);
	snprintf(dst + n, size - n, "%s", MG_WORDS_CUT);
	free(s);
	return true;
}

int mg_std_fds_hold(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free descriptor: this one, as those below it are open */
		got = open("/dev/null", O_RDONLY);
		if (got < 0)
			return -errno;
		if (got != fd) {	/* never expected */
			close(got);
			return -EBADF;
		}
	}
	return 0;
}
