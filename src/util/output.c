// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - where a command's results go (mg_out, see opts.h): a line-buffered
 * stdio stream (fopencookie) whose writes
 *  - stop at the first failure: the error is kept, every later write fails at once
 *    (mg_out_failed()), so that a streaming command ends its run there (a closed
 *    pipe, a full disk), detaches, and exits MG_EXIT_OUTPUT;
 *  - never block forever: a write waits in poll() for the output together with a
 *    signalfd of SIGINT, SIGTERM and SIGHUP (blocked by the run, taken by
 *    mg_run_wait(), which this fd only watches: the signal stays pending for it).
 *    Once a stop was asked (such a signal, here or in mg_run_wait(): mg_out_stop()),
 *    output that cannot be written within MG_OUT_STOP_GRACE_MS is abandoned: the
 *    stream fails with ETIMEDOUT and the run ends.
 * A FIFO (a pipe) is written through a non-blocking descriptor of its own (opened
 * again through /proc/self/fd), a socket with MSG_DONTWAIT, so that a write can never
 * sleep in the kernel (poll() only when it has no room); a file or a device that is
 * not a terminal at once; anything else (a terminal) after poll() in pieces of at most
 * PIPE_BUF bytes.
 * A report written once at the end (mg_out_open_once()) goes to a temporary file beside
 * -o FILE (replace.h), renamed over FILE by mg_out_close() once every write succeeded:
 * a full disk leaves the earlier FILE whole, never an empty or cut one.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "json_writer.h"
#include "opts.h"
#include "replace.h"
#include "util.h"

FILE *mg_out;

/* OUT_DIRECT: a file, a block device, a character device other than a terminal (they
 * take writes without waiting for a reader); OUT_PLAIN: a terminal or anything else */
enum out_mode { OUT_DIRECT, OUT_PLAIN, OUT_NONBLOCK, OUT_SOCKET };

/* The one output of the process (mg_out's cookie). */
static struct {
	int fd;			/* written to: the output, or our non-blocking reopen of a FIFO */
	bool own_fd;		/* fd is closed by mg_out_close() */
	bool unopened;		/* mg_out_open() failed: no error record (mg_out_error) */
	enum out_mode mode;
	int sigfd;		/* signalfd of SIGINT, SIGTERM, SIGHUP, or -1 */
	int err;		/* errno of the first failed write (ETIMEDOUT: abandoned), or 0 */
	uint64_t bytes;		/* written so far: 0 means the command reported nothing */
	int stop_sig;		/* the signal that asked the run to stop, or 0 */
	uint64_t stop_deadline_ns;	/* CLOCK_MONOTONIC; 0: no stop asked */
	const char *name;	/* "standard output", "standard error", or -o's path */
	char note[200];		/* mg_out_note(): appended to the error line */
	bool once;		/* -o FILE written once: replaced whole at mg_out_close() (rp) */
	struct mg_replace rp;	/* once: the temporary file and the FILE it replaces */
} out = { .fd = -1, .sigfd = -1 };

void mg_out_stop(int sig)
{
	if (out.stop_deadline_ns)
		return;
	out.stop_sig = sig;
	out.stop_deadline_ns = mg_now_ns() + MG_OUT_STOP_GRACE_MS * 1000000ull;
}

bool mg_out_failed(void)
{
	return out.err != 0;
}

int mg_out_errno(void)
{
	return out.err;
}

void mg_out_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out.note, sizeof(out.note), fmt, ap);
	va_end(ap);
}

/* A stop signal pending (watched by the signalfd, left for mg_run_wait()), or 0 (SIGINT
 * first when several are: the one a terminal sends). */
static int pending_stop(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t p;

	if (sigpending(&p))
		return 0;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigismember(&p, sigs[i]))
			return sigs[i];
	return 0;
}

/* Wait until out.fd takes bytes. Returns 0, or -errno (-ETIMEDOUT: the stop grace passed). */
static int wait_writable(void)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = out.fd, .events = POLLOUT },
				       { .fd = out.sigfd, .events = POLLIN } };
		int n = out.sigfd >= 0 && !out.stop_deadline_ns ? 2 : 1, timeout = -1, r;

		if (out.stop_deadline_ns) {
			uint64_t now = mg_now_ns();

			timeout = now >= out.stop_deadline_ns ? 0 :
				  (int)((out.stop_deadline_ns - now + 999999) / 1000000);
		}
		r = poll(p, n, timeout);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (p[0].revents & POLLNVAL)
			return -EBADF;
		if (p[0].revents)	/* room, or an error (POLLERR, POLLHUP) write() reports */
			return 0;
		if (n == 2 && (p[1].revents & POLLIN)) {
			mg_out_stop(pending_stop() ? pending_stop() : SIGTERM);
			continue;
		}
		if (r == 0)
			return -ETIMEDOUT;
	}
}

/* fopencookie's write: all of buf, or -1 with out.err set (then always -1). */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	size_t done = 0;

	(void)cookie;
	while (!out.err && done < size) {
		size_t n = size - done;
		ssize_t w;
		int e;

		/* a blocking descriptor only after poll() said there is room, and no more
		 * than a pipe takes at once; a non-blocking one is tried first, and waited
		 * for when it has no room (EAGAIN) */
		if (out.mode == OUT_PLAIN && n > PIPE_BUF)
			n = PIPE_BUF;
		if (out.mode == OUT_PLAIN && (e = wait_writable())) {
			out.err = -e;
			break;
		}
		w = out.mode == OUT_SOCKET ? send(out.fd, buf + done, n, MSG_DONTWAIT | MSG_NOSIGNAL) :
					     write(out.fd, buf + done, n);
		if (w < 0 && errno == EAGAIN && out.mode != OUT_PLAIN && (e = wait_writable())) {
			out.err = -e;
			break;
		}
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w < 0)
			out.err = errno;
		else if (w == 0)
			out.err = EIO;
		else
			done += (size_t)w;
	}
	out.bytes += done;
	if (out.err) {
		errno = out.err;
		return -1;
	}
	return (ssize_t)size;
}

static int cookie_close(void *cookie)
{
	(void)cookie;
	if (out.own_fd && close(out.fd) && !out.err && errno != EINTR)
		out.err = errno;
	out.fd = -1;
	out.own_fd = false;
	return 0;
}

/* How fd is written: a FIFO through a non-blocking descriptor of ours when /proc allows it. */
static void out_setup_fd(int fd)
{
	struct stat st;
	char p[40];
	int nfd;

	out.fd = fd;
	out.mode = OUT_PLAIN;
	if (fstat(fd, &st))
		return;
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || (S_ISCHR(st.st_mode) && !isatty(fd))) {
		out.mode = OUT_DIRECT;
		return;
	}
	if (S_ISSOCK(st.st_mode)) {
		out.mode = OUT_SOCKET;
		return;
	}
	if (!S_ISFIFO(st.st_mode))
		return;
	/* a new open file description: O_NONBLOCK set on it is not seen by whoever shares
	 * ours (the shell, COMMAND). ENXIO (no reader left): keep ours, write() says EPIPE. */
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	nfd = open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (nfd < 0)
		return;
	if (out.own_fd)
		close(fd);
	out.fd = nfd;
	out.own_fd = true;
	out.mode = OUT_NONBLOCK;
}

/* mg_out_open() and mg_out_open_once(): once, -o FILE is written to a temporary file */
static int out_open(const char *cmd, bool command, bool once)
{
	static const cookie_io_functions_t io = { .write = cookie_write, .close = cookie_close };
	sigset_t stops;
	int fd = command ? STDERR_FILENO : STDOUT_FILENO;

	out.err = out.stop_sig = 0;
	out.bytes = 0;
	out.stop_deadline_ns = 0;
	out.note[0] = 0;
	out.own_fd = false;
	out.unopened = false;
	out.once = false;
	out.name = command ? "standard error" : "standard output";
	mg_out = command ? stderr : stdout;
	if (mg_output_path && !strcmp(mg_output_path, "-")) {
		/* -o -: standard output, as for most tools, with a COMMAND too */
		mg_output_path = NULL;
		fd = STDOUT_FILENO;
		out.name = "standard output";
		mg_out = stdout;
	}
	if (mg_output_path) {
		/* streamed: truncated now, written as the run goes; once: the earlier
		 * file stays until the whole report replaces it */
		out.once = once;
		if (once)
			fd = mg_replace_open(&out.rp, mg_output_path, MG_REPLACE_MODE_KEEP);
		else
			fd = open(mg_output_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0) {
			int e = once ? -fd : errno;

			out.unopened = true;	/* no error record to stdout instead (mg_out_error) */
			return mg_err(mg_path_exit(e), "%s: cannot open '%s': %s", cmd,
				      mg_output_path, strerror(e));
		}
		out.own_fd = true;
		out.name = mg_output_path;
	}
	out_setup_fd(fd);
	if (out.sigfd < 0) {
		mg_stop_sigset(&stops);
		/* readable only while one is pending: blocked by the run, else it kills us */
		out.sigfd = signalfd(-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
	}
	if (!(mg_out = fopencookie(NULL, "w", io))) {
		if (out.own_fd)
			close(out.fd);
		if (out.once)
			mg_replace_finish(&out.rp, -ENOMEM);
		out.once = false;
		out.own_fd = false;
		mg_out = stdout;
		out.unopened = true;
		return mg_err(MG_EXIT_FAIL, "%s: out of memory", cmd);
	}
	setvbuf(mg_out, NULL, _IOLBF, 0);
	mg_jw_owned_stream(mg_out);	/* its failed write: mg_out_close()'s one line */
	return MG_EXIT_OK;
}

int mg_out_open(const char *cmd, bool command)
{
	return out_open(cmd, command, false);
}

int mg_out_open_once(const char *cmd, bool command)
{
	return out_open(cmd, command, true);
}

int mg_out_reopen(void)
{
	int fd, e;

	if (!mg_output_path || !mg_out || mg_out == stdout || mg_out == stderr || out.err ||
	    out.once)
		return 0;
	fflush(mg_out);		/* the old file's lines, whole */
	if (out.err)
		return -out.err;
	fd = open(mg_output_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (fd < 0) {
		e = errno;
		out.err = e;
		mg_out_note("reopening it after SIGHUP failed");
		return -e;
	}
	if (out.own_fd)
		close(out.fd);
	out.own_fd = true;
	out_setup_fd(fd);
	return 0;
}

int mg_out_fd(void)
{
	return out.fd;
}

int mg_out_close(void)
{
	char why[160];
	int e;

	if (!mg_out || mg_out == stdout || mg_out == stderr)
		return MG_EXIT_OK;
	fflush(mg_out);		/* cookie_write records any error in out.err */
	if (out.once && !out.err && out.fd >= 0 && (e = mg_replace_sync(&out.rp, out.fd)))
		out.err = -e;
	fclose(mg_out);
	mg_jw_owned_stream(NULL);
	mg_out = NULL;
	if (out.once && (e = mg_replace_finish(&out.rp, -out.err)) && !out.err)
		out.err = -e;	/* the rename's: the earlier file stays, the temporary one is gone */
	out.once = false;
	if (!out.err)
		return MG_EXIT_OK;
	/* the reader went away (mgtrace ... | head): exit 5, silent as perf and git are
	 * when their reader leaves; -v says it */
	if (out.err == EPIPE && !mg_verbose)
		return MG_EXIT_OUTPUT;
	if (out.err == ETIMEDOUT)
		snprintf(why, sizeof(why), "output blocked, abandoned %d ms after SIG%s",
			 MG_OUT_STOP_GRACE_MS, sigabbrev_np(out.stop_sig) ? : "TERM");
	else if (out.err == EPIPE)
		snprintf(why, sizeof(why), "the reader went away (%s)", strerror(EPIPE));
	else
		snprintf(why, sizeof(why), "%s", strerror(out.err));
	return mg_err(MG_EXIT_OUTPUT, "writing '%s': %s%s%s", out.name, why,
		      out.note[0] ? "; " : "", out.note);
}

int mg_stdout_flush(int code)
{
	int e;

	if (!fflush(stdout) && !ferror(stdout))
		return code;
	e = errno ? errno : EIO;	/* the failed write's, also when an earlier flush failed */
	if (e == EPIPE && !mg_verbose)
		return MG_EXIT_OUTPUT;
	return mg_err(MG_EXIT_OUTPUT, "writing 'standard output': %s", strerror(e));
}

/*
 * The errno name (E...) a message names, as a word, or NULL: "load failed: EPERM (...)";
 * else the errno whose strerror() text follows a ": " in it, the longest that does:
 * "cannot open 'x': No such file or directory" is ENOENT.
 */
const char *mg_errno_name(const char *msg)
{
	static char word[32];
	const char *p = msg, *best = NULL;
	size_t n, best_len = 0;
	int e;

	while ((p = strchr(p, 'E'))) {
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		if ((p == msg || !isalnum((unsigned char)p[-1])) && n >= 3 && n < sizeof(word) &&
		    !isalnum((unsigned char)p[n])) {
			memcpy(word, p, n);
			word[n] = 0;
			for (e = 1; e < 134; e++)
				if (strerrorname_np(e) && !strcmp(strerrorname_np(e), word))
					return word;
		}
		p += n ? n : 1;
	}
	for (e = 1; e < 134; e++) {
		const char *t = strerror(e), *at = msg;

		n = strlen(t);
		if (!strerrorname_np(e) || n <= best_len)
			continue;
		while ((at = strstr(at, t))) {
			if (at - msg >= 2 && at[-2] == ':' && at[-1] == ' ' &&
			    !isalnum((unsigned char)at[n])) {
				best = strerrorname_np(e);
				best_len = n;
				break;
			}
			at++;
		}
	}
	if (!best)
		return NULL;
	snprintf(word, sizeof(word), "%s", best);
	return word;
}

void mg_out_error(const char *cmd, int code)
{
	struct mg_jw w;

	/* with COMMAND and no -o the results go to stderr, where the reason already is */
	/* -o FILE could not be opened: its one line on stderr is all, never stdout instead */
	if (!code || out.unopened || out.bytes || out.err || !mg_out ||
	    (!mg_json_output && !mg_output_path) ||
	    (!mg_output_path && !strcmp(out.name, "standard error")))
		return;
	if (!mg_json_output) {
		fprintf(mg_out, "mgtrace %s: error (exit %d): %s\n", cmd, code, mg_last_err);
		return;
	}
	mg_jw_init(&w, mg_out);
	mg_jw_start_object(&w);
	mg_jw_int_field(&w, "schema_version", 1);
	mg_jw_string_field(&w, "type", "error");
	mg_jw_string_field(&w, "command", cmd);
	mg_jw_int_field(&w, "exit_code", code);
	/* a path in it is bytes from outside: the Strings rule (docs/json.md), never raw
	 * bytes that are not UTF-8 */
	mg_jw_name(&w, "reason");
	mg_jw_bytes(&w, mg_last_err, strlen(mg_last_err));
	mg_jw_string_field(&w, "errno", mg_errno_name(mg_last_err));
	mg_jw_end_object(&w);
	mg_jw_end_line(&w);	/* the error is already on stderr: a failed record adds nothing */
}
