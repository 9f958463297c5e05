/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge_gens.h - check --forget's generations as user space sets them up: the slots
 * of the map-in-map "inode_gens" (bpf/mg_judge_gens.bpf.h) filled after load, before
 * attach. A header of its own, so that check (judge_pass.c mg_judge_post_load()) and
 * the race test tests/forgetrace.c fill them one way.
 */
#ifndef MG_JUDGE_GENS_H
#define MG_JUDGE_GENS_H

#include <errno.h>
#include <stdint.h>
#include <bpf/bpf.h>
#include "mg_judge_maps.h"

/*
 * Fill the MG_GENS slots of the map-in-map outer (fd) with the maps fds[0..MG_GENS - 1],
 * in one batch update where the kernel takes one (each map-in-map update waits for the
 * running programs, synchronize_rcu(): a batch waits once on 6.18), else one update a
 * slot. 0 or -errno.
 */
static inline int mg_judge_fill_gens(int outer, const int fds[MG_GENS])
{
	uint32_t keys[MG_GENS], n = MG_GENS, i;

	for (i = 0; i < MG_GENS; i++)
		keys[i] = i;
	if (!bpf_map_update_batch(outer, keys, fds, &n, NULL))
		return 0;
	/* no batch update for this map type here (or a partial one): all slots again */
	for (i = 0; i < MG_GENS; i++)
		if (bpf_map_update_elem(outer, &keys[i], &fds[i], BPF_ANY))
			return -errno;
	return 0;
}

#endif
