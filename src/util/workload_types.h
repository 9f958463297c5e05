/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload_types.h - the built-in workload's types: its steps, hooks, options, threads
 * and the workload itself. No code: workload.c (the threads) and workload_guard.c
 * (calls that can block in the kernel, threads that never return) both stand above it.
 */
#ifndef MG_WORKLOAD_TYPES_H
#define MG_WORKLOAD_TYPES_H

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
	/*
	 * The start gate: each thread opens its files, then waits here until every
	 * thread exists (or the workload stops), so that the time of creating them is
	 * no part of the run (1,024 threads on 2 CPUs took seconds, and the first
	 * ones ran all that time: -d 0.1 lasted 6.8 s)
	 */
	pthread_mutex_t gate_mu;
	pthread_cond_t gate_cv;
	bool gate_open;
};

#endif
