# SPDX-License-Identifier: GPL-2.0
# mgtrace build: BPF objects -> skeletons -> one user-space binary.
#
#   make            build ./mgtrace (dynamically linked against libbpf, libelf, zlib)
#   make deps       install missing Debian build/test dependencies (root), else print the apt-get line
#   make run        deps + build + the main job on the built-in workload (needs root)
#   make test       host tests, then the VM stage (needs root)
#   make test-host  host tests only
#   make static     statically linked ./mgtrace.static (for initramfs images)
#   make vmlinux    regenerate vmlinux/vmlinux.h from /sys/kernel/btf/vmlinux
#   make install    install to $(DESTDIR)$(PREFIX)/sbin

CLANG    ?= clang
BPFTOOL  ?= bpftool
CC       ?= gcc
PREFIX   ?= /usr/local
DESTDIR  ?=
OUT      := build
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/')

CFLAGS   ?= -g -O2
CFLAGS   += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE -Iinclude -I$(OUT)
LDLIBS   := -lbpf -lelf -lz -ljansson
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -Ivmlinux -Wall -Wno-unused-function

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
SKELS    := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS))
SRCS     := $(wildcard src/*.c)
OBJS     := $(patsubst src/%.c,$(OUT)/%.o,$(SRCS))
LIB_OBJS := $(filter-out $(OUT)/main.o,$(OBJS))
HDRS     := $(wildcard include/*.h src/*.h)

.PHONY: all deps run test test-host test-vm static install vmlinux clean
# keep the BPF objects and skeletons: they are inputs of every src/*.o
.SECONDARY:

all: mgtrace

$(OUT):
	mkdir -p $@

$(OUT)/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) include/mgtrace.h vmlinux/vmlinux.h | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(BPFTOOL) gen object $@ $@.tmp
	rm -f $@.tmp

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

$(OUT)/%.o: src/%.c $(HDRS) $(SKELS) | $(OUT)
	$(CC) $(CFLAGS) -c $< -o $@

mgtrace: $(OBJS)
	$(CC) $(CFLAGS) $^ -o $@ $(LDFLAGS) $(LDLIBS)

static: mgtrace.static
mgtrace.static: $(OBJS)
	$(CC) $(CFLAGS) -static $^ -o $@ $(LDFLAGS) -lbpf -lelf -lz -lzstd -ljansson -lpthread

$(OUT)/unit_tests: tests/unit_tests.c $(LIB_OBJS) $(HDRS)
	$(CC) $(CFLAGS) -Isrc tests/unit_tests.c $(LIB_OBJS) -o $@ $(LDFLAGS) $(LDLIBS)

deps:
	sh tools/deps.sh

# The main job needs debugfs (the kernel's counters); securityfs shows the lockdown mode.
run: deps
	$(MAKE) mgtrace
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/security || mount -t securityfs none /sys/kernel/security || true
	./mgtrace

test: test-host test-vm

test-host: mgtrace $(OUT)/unit_tests
	tests/run-host-tests.sh

test-vm: mgtrace.static
	tests/vm/vm-test.sh ./mgtrace.static

install: mgtrace
	install -D -m 0755 mgtrace $(DESTDIR)$(PREFIX)/sbin/mgtrace

vmlinux:
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > vmlinux/vmlinux.h.tmp
	mv vmlinux/vmlinux.h.tmp vmlinux/vmlinux.h

clean:
	rm -rf $(OUT) mgtrace mgtrace.static
