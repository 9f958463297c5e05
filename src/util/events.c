// SPDX-License-Identifier: GPL-2.0
/* events.c - the event pipeline of trace and check (see events.h). */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <bpf/libbpf.h>
#include "events.h"

_Static_assert(sizeof(struct mg_steprec) < sizeof(struct mg_event) &&
	       sizeof(struct mg_vrec) != sizeof(struct mg_event) &&
	       sizeof(struct mg_vrec) != sizeof(struct mg_steprec) &&
	       sizeof(struct mg_genrec) < sizeof(struct mg_event) &&
	       sizeof(struct mg_genrec) != sizeof(struct mg_steprec),
	       "the ring buffer tells its records apart by size");

static int on_record(void *ctx, void *data, size_t len)
{
	struct mg_events *ev = ctx;

	if (len == sizeof(struct mg_vrec) && ev->vrec_fn &&
	    ((const struct mg_vrec *)data)->magic == MG_VREC_MAGIC)
		ev->vrec_fn(ev->ctx, data);
	else if (len == sizeof(struct mg_steprec) && ev->step_fn &&
		 ((const struct mg_steprec *)data)->magic == MG_STEPREC_MAGIC)
		ev->step_fn(ev->ctx, data);
	else if (len == sizeof(struct mg_genrec) &&
		 ((const struct mg_genrec *)data)->magic == MG_GENREC_MAGIC)
		ev->gen_records++;	/* a wakeup: BPF began a generation (check --forget) */
	else if (len < sizeof(struct mg_event))
		ev->short_records++;
	else
		ev->fn(ev->ctx, data);
	ev->records++;
	/* under a sustained stream libbpf would never return: hand back control per batch */
	return ++ev->batch >= ev->batch_max ? -EAGAIN : 0;
}

int mg_events_open(struct mg_events *ev, int map_fd, mg_event_fn fn, void *ctx,
		   unsigned int batch_max)
{
	memset(ev, 0, sizeof(*ev));
	ev->fn = fn;
	ev->ctx = ctx;
	ev->batch_max = batch_max ? batch_max : 1;
	ev->wake_fd = -1;
	ev->rb = ring_buffer__new(map_fd, on_record, ev, NULL);
	return ev->rb ? 0 : -(errno ? errno : ENOMEM);
}

int mg_events_wait(struct mg_events *ev, int timeout_ms)
{
	struct epoll_event e;

	if (epoll_wait(ring_buffer__epoll_fd(ev->rb), &e, 1, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

int mg_events_wake_on(struct mg_events *ev, const sigset_t *sigs)
{
	struct epoll_event e = { .events = EPOLLIN, .data.u64 = UINT64_MAX };
	int fd = signalfd(-1, sigs, SFD_CLOEXEC | SFD_NONBLOCK), err;

	if (fd < 0)
		return -errno;
	if (epoll_ctl(ring_buffer__epoll_fd(ev->rb), EPOLL_CTL_ADD, fd, &e)) {
		err = -errno;
		close(fd);
		return err;
	}
	ev->wake_fd = fd;
	return 0;
}

int mg_events_consume(struct mg_events *ev)
{
	int err;

	ev->batch = 0;
	err = ring_buffer__consume(ev->rb);
	if (err == -EAGAIN)
		return 1;
	if (err < 0 && err != -EINTR)
		return err;
	return 0;
}

int mg_events_drain(struct mg_events *ev)
{
	int err;

	while ((err = mg_events_consume(ev)) == 1)
		;
	return err;
}

int mg_events_lost(struct mg_session *sess, const struct mg_floor *floor,
		   struct mg_bpf_counts *scratch, uint64_t *lost)
{
	uint64_t n = 0, fl = 0;
	int cpu, err;

	if ((err = mg_session_read(sess, scratch)))
		return err;
	for (cpu = 0; cpu < sess->nr_cpus; cpu++)
		n += scratch[cpu].v[MG_BPF_LOST];
	if (floor && floor->skel) {
		if ((err = mg_floor_lost(floor, sess->nr_cpus, &fl)))
			return err;
		n += fl;
	}
	*lost = n;
	return 0;
}

void mg_events_close(struct mg_events *ev)
{
	/* a wake_fd only on a ring buffer opened (a zeroed ev, never opened, has 0 there) */
	if (ev->rb && ev->wake_fd >= 0)
		close(ev->wake_fd);
	ring_buffer__free(ev->rb);
	ev->rb = NULL;
	ev->wake_fd = -1;
}
