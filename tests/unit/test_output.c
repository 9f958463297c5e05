// SPDX-License-Identifier: GPL-2.0
/* test_output.c - tests of src/util/output.c: mg_out on a FIFO that fails or fills. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "unit.h"
#include "opts.h"
#include "util.h"

/* Bytes a non-blocking reader can take now from fd (at most len), NUL-terminated. */
static size_t drain_fd(int fd, char *buf, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = 0;
	return n;
}

/*
 * mg_out (src/util/output.c) on a FIFO: a reader that went away ends the output at the first
 * write (EPIPE, exit 5, later writes fail at once); a full FIFO and a pending SIGTERM
 * abandon it (ETIMEDOUT) after the stop grace with only whole lines written; with room,
 * a stop asked changes nothing. Each failure case beside its passing twin.
 */
UNIT_TEST(output)
{
	char path[] = "/tmp/mgtrace-unit-out.XXXXXX", fifo[64], buf[8192];
	const char *saved = mg_output_path;
	sigset_t term, old;
	int rd, sig, i, whole;
	size_t n;

	if (!mkdtemp(path)) {
		ASSERT_EQ(errno, 0, "output: mkdtemp");
		return;
	}
	signal(SIGPIPE, SIG_IGN);	/* as main() does: EPIPE, not a death */
	snprintf(fifo, sizeof(fifo), "%s/f", path);
	ASSERT_EQ(mkfifo(fifo, 0600), 0, "output: mkfifo");
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	mg_output_path = fifo;
	/* passing twin: a reader that reads */
	ASSERT_EQ(mg_out_open("unit", false), MG_EXIT_OK, "output: open a FIFO with a reader");
	fprintf(mg_out, "line 1\n");
	ASSERT_EQ(mg_out_failed(), false, "output: a line to a FIFO with a reader is written");
	n = drain_fd(rd, buf, sizeof(buf));
	ASSERT_STREQ(buf, "line 1\n", "output: the reader got the line");
	(void)n;
	/* the reader goes away: the next write fails with EPIPE, the later ones at once */
	close(rd);
	fprintf(mg_out, "line 2\n");
	ASSERT_EQ(mg_out_failed(), true, "output: a write after the reader left fails");
	ASSERT_EQ(mg_out_errno(), EPIPE, "output: ... with EPIPE");
	ASSERT_EQ(fprintf(mg_out, "line 3\n") < 0 || ferror(mg_out), true,
		  "output: every later write fails at once");
	ASSERT_EQ(mg_out_close(), MG_EXIT_OUTPUT, "output: closing a failed output gives exit 5");

	/* a full FIFO nobody reads, SIGTERM pending (blocked, as in a run) */
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	ASSERT_EQ(mg_out_open("unit", false), MG_EXIT_OK, "output: reopen the FIFO");
	ASSERT_EQ(fcntl(rd, F_SETPIPE_SZ, 4096), 4096, "output: the FIFO holds one page");
	/* passing twin: a stop asked while there is room changes nothing */
	mg_out_stop(SIGTERM);
	fprintf(mg_out, "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij-0\n");
	ASSERT_EQ(mg_out_failed(), false, "output: a stop asked, room in the FIFO: written");
	mg_out_close();
	drain_fd(rd, buf, sizeof(buf));
	ASSERT_EQ(mg_out_open("unit", false), MG_EXIT_OK, "output: reopen the FIFO again");
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	raise(SIGTERM);
	for (i = 0; i < 200 && !mg_out_failed(); i++)	/* 59 bytes a line: full at 70 */
		fprintf(mg_out, "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij-%d\n",
			i % 10);
	ASSERT_EQ(mg_out_failed(), true, "output: a full FIFO with SIGTERM pending is abandoned");
	ASSERT_EQ(mg_out_errno(), ETIMEDOUT, "output: ... as ETIMEDOUT (the stop grace passed)");
	ASSERT_EQ(i < 200, true, "output: ... at the first line that did not fit");
	n = drain_fd(rd, buf, sizeof(buf));
	whole = n % 59 == 0 && n >= 59 * 60;	/* 4096 / 59: 69 lines fit */
	ASSERT_EQ(whole, true, "output: only whole lines went out (%zu bytes)", n);
	ASSERT_EQ(mg_out_close(), MG_EXIT_OUTPUT, "output: an abandoned output gives exit 5");
	sig = sigtimedwait(&term, NULL, &(struct timespec){ 0, 0 });
	ASSERT_EQ(sig, SIGTERM, "output: the signal stayed pending for the run to take");
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(rd);
	unlink(fifo);
	rmdir(path);
	mg_output_path = saved;
}

/*
 * mg_errno_name (src/util/output.c): the E... word a reason names, else the errno whose
 * strerror() text follows ": " (the longest), else NULL; a word that only looks like one
 * (EXIT, "Eperm") or a strerror() text not after ": " is none.
 */
UNIT_TEST(errno_name)
{
	ASSERT_STREQ(mg_errno_name("load failed: EPERM (lockdown)"), "EPERM", "errno_name: a word");
	ASSERT_STREQ(mg_errno_name("cannot run 'x': No such file or directory"), "ENOENT",
		     "errno_name: strerror(ENOENT) after ': '");
	ASSERT_STREQ(mg_errno_name("cannot run '/etc/passwd': Permission denied"), "EACCES",
		     "errno_name: strerror(EACCES) after ': '");
	ASSERT_STREQ(mg_errno_name("writing 'x': No space left on device; the run ended"), "ENOSPC",
		     "errno_name: strerror() text followed by more");
	ASSERT_EQ(mg_errno_name("Permission denied by the admin"), NULL,
		  "errno_name: strerror() text not after ': ' is none");
	ASSERT_EQ(mg_errno_name("check: EXIT 4: not judged"), NULL,
		  "errno_name: EXIT is not an errno");
	ASSERT_EQ(mg_errno_name("check: interrupted by SIGINT while loading"), NULL,
		  "errno_name: a reason without an errno");
}
