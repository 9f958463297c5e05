// SPDX-License-Identifier: GPL-2.0
/*
 * denybpf.c - run COMMAND under a seccomp filter that fails bpf(2) with EPERM
 * and allows every other system call, as a container runtime's default
 * profile does for a process without CAP_SYS_ADMIN (Docker's and podman's
 * default seccomp.json). For tests/host.d/48-containers.sh.
 * usage: denybpf COMMAND [ARGS...]; exits 126 if the filter cannot be set,
 * 127 if COMMAND cannot be run.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "denybpf: add this architecture's AUDIT_ARCH_*"
#endif

int main(int argc, char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (argc < 2) {
		fprintf(stderr, "usage: denybpf COMMAND [ARGS...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		fprintf(stderr, "denybpf: seccomp filter: %s\n", strerror(errno));
		return 126;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "denybpf: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
