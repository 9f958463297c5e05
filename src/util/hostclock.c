// SPDX-License-Identifier: GPL-2.0
/* hostclock.c - the host's CLOCK_MONOTONIC inside a time namespace (see hostclock.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hostclock.h"

/* One number of a line: an integer, then a blank or the line's end. */
static bool parse_num(const char **p, long long *v)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!(**p == '-' || (**p >= '0' && **p <= '9')))
		return false;
	errno = 0;
	*v = strtoll(*p, &end, 10);
	if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\n'))
		return false;
	*p = end;
	return true;
}

/* One line "NAME SECS NSECS" at *p, *p moved past it; -EINVAL with why. */
static int parse_line(const char **p, int nr, struct mg_timens *out, bool *mono, char *why,
		      size_t len)
{
	const char *s = *p, *eol = strchr(s, '\n');
	size_t n = strcspn(s, " \t\n");
	long long sec, nsec;
	int64_t *dst = NULL;

	*p = eol ? eol + 1 : s + strlen(s);
	if ((n == 9 && !strncmp(s, "monotonic", 9)) || (n == 1 && *s == '1'))
		dst = &out->mono_ns, *mono = true;
	else if ((n == 8 && !strncmp(s, "boottime", 8)) || (n == 1 && *s == '7'))
		dst = &out->boot_ns;
	s += n;
	if (!parse_num(&s, &sec) || !parse_num(&s, &nsec)) {
		snprintf(why, len, "line %d: not \"CLOCK SECONDS NANOSECONDS\"", nr);
		return -EINVAL;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s && *s != '\n') {
		snprintf(why, len, "line %d: more than three fields", nr);
		return -EINVAL;
	}
	if (nsec < 0 || nsec > 999999999) {
		snprintf(why, len, "line %d: nanoseconds %lld not in 0..999999999", nr, nsec);
		return -EINVAL;
	}
	if (sec > INT64_MAX / 1000000000 - 1 || sec < INT64_MIN / 1000000000 + 1) {
		snprintf(why, len, "line %d: %lld seconds is out of range", nr, sec);
		return -EINVAL;
	}
	if (dst)	/* another clock's line: no conversion needs it */
		*dst = sec * 1000000000ll + nsec;
	return 0;
}

int mg_timens_parse(const char *text, struct mg_timens *out, char *why, size_t len)
{
	char scratch[8];
	bool mono = false;
	int nr = 0, err;

	if (!why)
		why = scratch, len = sizeof(scratch);
	memset(out, 0, sizeof(*out));
	while (*text) {
		nr++;
		if (*text == '\n') {	/* an empty line says nothing */
			text++;
			continue;
		}
		if ((err = parse_line(&text, nr, out, &mono, why, len))) {
			memset(out, 0, sizeof(*out));
			return err;
		}
	}
	if (!mono) {
		snprintf(why, len, "no monotonic line");
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	return 0;
}

static struct {
	pthread_once_t once;
	int err;
	struct mg_timens ns;
	char why[160];
} self = { .once = PTHREAD_ONCE_INIT };

/* Read and parse MG_TIMENS_PATH into self (pthread_once). */
static void load(void)
{
	char buf[512];
	ssize_t n;
	int fd = open(MG_TIMENS_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		self.err = -errno;
		/* /proc mounted without the file: a kernel without time namespaces */
		if (self.err == -ENOENT && !access("/proc/self/stat", F_OK)) {
			self.err = 0;
			return;
		}
		snprintf(self.why, sizeof(self.why), "%s: %s", MG_TIMENS_PATH,
			 self.err == -ENOENT ? "/proc is not mounted" : strerror(-self.err));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	self.err = n < 0 ? -errno : 0;
	close(fd);
	if (n < 0) {
		snprintf(self.why, sizeof(self.why), "%s: %s", MG_TIMENS_PATH,
			 strerror(-self.err));
		return;
	}
	buf[n] = 0;
	/* the parser's reason after the path */
	n = snprintf(self.why, sizeof(self.why), "%s: ", MG_TIMENS_PATH);
	self.err = mg_timens_parse(buf, &self.ns, self.why + n, sizeof(self.why) - (size_t)n);
}

int mg_timens_get(struct mg_timens *out, char *why, size_t len)
{
	pthread_once(&self.once, load);
	if (out)
		*out = self.ns;
	if (why && len)
		snprintf(why, len, "%s", self.err ? self.why : "");
	return self.err;
}

bool mg_hostclock_note(void)
{
	static bool said;

	if (said || !mg_timens_get(NULL, NULL, 0))
		return false;
	said = true;
	fprintf(stderr, "mgtrace: the host's monotonic clock is unknown (%s): BPF times taken "
		"as this namespace's, wrong by its offset in a time namespace\n", self.why);
	return true;
}

int64_t mg_host_mono_offset(void)
{
	pthread_once(&self.once, load);
	return self.ns.mono_ns;
}

uint64_t mg_host_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)((int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec - mg_host_mono_offset());
}
