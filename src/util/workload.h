/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h - the built-in multigrain workload, shared by `mgtrace stress` and
 * the built-in run of `mgtrace check`: pinned threads (thread k on online CPU
 * k mod N) looping over files of their own in a fresh directory, a tmpfs
 * mounted on it unless the user named a parent directory (in a private mount
 * namespace of the process: the tmpfs dies with it, even on SIGKILL).
 *
 * What one iteration does is a short program of steps (write one byte to file
 * i, fstat file i, or a timed write whose fstat is handed to a hook), so that
 * stress's write+stat loop and check's ordering pattern are the same code.
 * Each thread takes its own start and end times (CLOCK_MONOTONIC, ns): a run's
 * time is from the first start to the last end, with no waiting in it.
 */
#ifndef MG_WORKLOAD_H
#define MG_WORKLOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#define MG_WL_MAX_FILES 256
#define MG_WL_MAX_STEPS 16

enum mg_wl_op {
	MG_WL_WRITE,	/* pwrite one byte at offset 0 */
	MG_WL_STAT,	/* fstat */
	MG_WL_TWRITE,	/* pwrite timed by CLOCK_MONOTONIC around it, then fstat: the hook */
	MG_WL_RACE,	/* even threads: fchmod 0600/0644 alternately; odd threads: fstat
			 * (with shared_files, the chmod-against-fstat race on one inode) */
};

/* One step of an iteration: op on the thread's file number file. */
struct mg_wl_step {
	enum mg_wl_op op;
	int file;
};

/*
 * Called after each MG_WL_TWRITE: thread index, file number, the write's
 * [t0, t1] (CLOCK_MONOTONIC ns) and the fstat() after it. Returns 0 or an errno
 * that stops the thread.
 */
typedef int (*mg_wl_hook)(void *ctx, int thread, int file, uint64_t t0, uint64_t t1,
			  const struct stat *st);

/*
 * Called about every 50 ms, with the time waited so far (ns), while a call on
 * the directory that can block in the kernel has not returned (what: "mkdir").
 * Nonzero gives the call up. See mg_wl_guarded_mkdtemp().
 */
typedef int (*mg_wl_waiting)(void *ctx, const char *what, uint64_t waited_ns);

/* What to run. */
struct mg_wl_opts {
	uint64_t threads;		/* 1..1024 */
	uint64_t files;			/* files per thread, 1..MG_WL_MAX_FILES */
	const struct mg_wl_step *steps;	/* one iteration */
	int nsteps;			/* 1..MG_WL_MAX_STEPS */
	bool rotate_files;		/* iteration n uses file (step's file + n) mod files */
	bool shared;			/* every thread uses the same files (shared-f<i>), so one
					 * thread's fstat races with another's write on an inode */
	uint64_t iterations;		/* per thread; 0: until mg_wl_stop() */
	uint64_t rate;			/* iterations per second per thread; 0: unpaced */
	const char *parent;		/* parent directory; NULL: a tmpfs under /tmp */
	const char *prefix;		/* directory name prefix, e.g. "mgtrace-stress" */
	mg_wl_hook hook;		/* for MG_WL_TWRITE; may be NULL */
	void *ctx;
	/* may be NULL: called with the new directory before any thread starts; a
	 * negative errno (with err set) ends the start as mg_wl_start()'s own */
	int (*dir_ready)(const char *dir, void *ctx, char *err, size_t errlen);
	/* may be NULL: with parent set, the directory's mkdir runs in a helper process
	 * and this is called while it waits (mg_wl_guarded_mkdtemp()) */
	mg_wl_waiting waiting;
};

/* One worker thread. */
struct mg_wl_thread {
	pthread_t tid;
	int idx;
	struct mg_workload *wl;
	uint64_t iterations;		/* completed */
	uint64_t start_ns, end_ns;	/* CLOCK_MONOTONIC: first and last step */
	uint32_t dev[MG_WL_MAX_FILES];	/* kernel dev_t of each file (ident.h) */
	uint64_t ino[MG_WL_MAX_FILES];
	int err;			/* 0 or errno of the first failure */
	_Atomic int ktid;		/* its kernel thread id, once it runs */
	atomic_bool done;		/* returned: no call of its own is in the kernel */
	/*
	 * Where the thread is in a timed write (MG_WL_TWRITE), for an observer that
	 * must know which of its modifications can still start or end before a time
	 * X it read first: MG_WL_TIMING is stored before t0 is read and MG_WL_ENDING
	 * before t1, both seq_cst, and MG_WL_IDLE after the hook returned. Seen IDLE
	 * after X, every modification the thread has not handed to the hook yet
	 * starts after X; seen TIMING or ENDING, the one in hand started at op_start
	 * (its t0; until t0 is stored, the previous one's, which is earlier).
	 */
	_Atomic int phase;
	_Atomic uint64_t op_start;	/* t0 of the timed write in hand, CLOCK_MONOTONIC ns */
};

enum { MG_WL_IDLE, MG_WL_TIMING, MG_WL_ENDING };	/* mg_wl_thread::phase */

/* A running workload. */
struct mg_workload {
	struct mg_wl_opts o;
	char dir[4096];			/* the fresh directory */
	int pfd, dfd;			/* O_PATH fds of its parent and of itself (or of the
					 * tmpfs mounted on it); -1: none */
	bool mounted;			/* a tmpfs is mounted on dir */
	bool have_dir_dev;
	uint32_t dir_dev;		/* its kernel dev_t */
	struct mg_wl_thread *t;
	uint64_t nthreads;		/* threads started */
	atomic_bool stop;
	atomic_uint running;		/* threads not yet finished */
	bool abandoned;			/* mg_wl_abandon(): threads never joined, memory kept */
};

/*
 * Make the directory and start the threads. Returns 0, or -errno with a reason
 * in err (the directory could not be made: -EACCES, -ENOENT, ...; threads:
 * -EAGAIN; memory: -ENOMEM). On error nothing is left running or mounted.
 */
int mg_wl_start(struct mg_workload *wl, const struct mg_wl_opts *o, char *err, size_t errlen);

/* Ask the threads to stop after their current iteration. */
void mg_wl_stop(struct mg_workload *wl);

/* True while some thread runs (it has iterations left and was not stopped). */
bool mg_wl_running(struct mg_workload *wl);

/*
 * Stop, join the threads, remove the files and the directory (and unmount the
 * tmpfs). Returns the first thread error (a positive errno) or 0. Totals stay
 * readable until mg_wl_free().
 */
int mg_wl_finish(struct mg_workload *wl);

/*
 * mkdtemp(tmpl) in a helper process, so that a mkdir the kernel holds (a frozen
 * filesystem) does not hold the caller: waiting (may be NULL) is called while it
 * has not returned, and a nonzero from it gives up. tmpl ("DIR/prefix.XXXXXX",
 * len bytes) gets the name made. The helper holds no fd of the caller's, and
 * removes the directory itself when the caller gave up or is gone by the time
 * mkdir returns. Returns 0, -errno of mkdtemp (or of pipe, fork), or -EINTR.
 */
int mg_wl_guarded_mkdtemp(char *tmpl, size_t len, mg_wl_waiting waiting, void *ctx);

/*
 * Workload threads that have not returned (blocked in the kernel after
 * mg_wl_stop()): one line into buf, naming the first one's wait channel
 * (/proc/self/task/TID/wchan, percpu_rwsem_wait on a frozen filesystem).
 * Returns their number (0: none, buf "").
 */
int mg_wl_blocked_text(const struct mg_workload *wl, char *buf, size_t len);

/*
 * Give up on threads that do not return (instead of mg_wl_finish): stop them,
 * keep their memory (they may run again when the kernel lets them), and fork a
 * cleaner, holding no fd but the directory's, that removes the files and the
 * directory once every thread of this process is gone. Returns the cleaner's
 * pid or -errno (fork).
 */
int mg_wl_abandon(struct mg_workload *wl);

/* Iterations of all threads, and the run's time: first start to last end (ns). */
uint64_t mg_wl_iterations(const struct mg_workload *wl);
uint64_t mg_wl_elapsed_ns(const struct mg_workload *wl);

/* Free the thread array. */
void mg_wl_free(struct mg_workload *wl);

/* "tmpfs", "ext4", "xfs", "btrfs", "other" or "unknown": the filesystem of dir. */
const char *mg_fs_name(const char *dir);

#endif
