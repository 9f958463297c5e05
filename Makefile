# SPDX-License-Identifier: GPL-2.0
# mgtrace build: BPF objects -> skeletons -> one user-space binary.
#
#   make            build ./mgtrace (dynamically linked against libbpf, libelf, zlib)
#   make deps       install missing Debian build/test dependencies (root), else print the apt-get line
#   make run        deps + build + the main job on the built-in workload (needs root)
#   make test       host tests, then the VM stage (needs root)
#   make test-host  host tests only
#   make static     statically linked ./mgtrace.static (for initramfs images)
#   make vmlinux    regenerate vmlinux/$(ARCH)/vmlinux.h from /sys/kernel/btf/vmlinux
#                   (VMLINUX_BTF=FILE: from a raw BTF file; vmlinux/README)
#   make ARCH=arm64 cross-build on amd64 (Debian's multiarch packages: tools/deps.sh
#                   --arch arm64) into build-arm64/: build-arm64/mgtrace and, with
#                   `static`, build-arm64/mgtrace.static; test-vm then boots arm64 guests
#   make man        build/mgtrace.8 from docs/mgtrace.8.scd (scdoc)
#   make install    install the binary, man page, bash completion, JSON schemas, alert rules
#                   and docs under $(DESTDIR)$(PREFIX), the systemd units under
#                   $(DESTDIR)$(UNITDIR), check's logrotate snippet under
#                   $(DESTDIR)$(LOGROTATEDIR), the units' user (sysusers.d) under
#                   $(DESTDIR)$(SYSUSERSDIR); make uninstall removes them (not the user)
#
# Reproducible: one commit built in any directory gives the same ./mgtrace byte for byte
# (-ffile-prefix-map), and the man page's date is SOURCE_DATE_EPOCH's: the caller's
# (dpkg-buildpackage sets it from debian/changelog), else the last commit's date in a git
# checkout, else VERSION's mtime (a release tarball). Nothing else embeds a date.

CLANG    ?= clang
BPFTOOL  ?= bpftool
CC       ?= gcc
PREFIX   ?= /usr/local
DESTDIR  ?=
# ARCH: the kernel's name of the target (x86, arm64), default this machine's; x86_64, amd64
# and aarch64 are taken for it. One vmlinux/$(ARCH)/vmlinux.h per architecture: any other
# ARCH is refused in one line. Another ARCH than this machine's is a cross build into
# build-$(ARCH)/ with $(CROSS_COMPILE)gcc (arm64: aarch64-linux-gnu-), the native build
# (build/, ./mgtrace) left as it is.
karch     = $(shell echo $(1) | sed -e 's/^x86_64$$/x86/' -e 's/^amd64$$/x86/' -e 's/^aarch64$$/arm64/' \
              -e 's/^ppc64le$$/powerpc/' -e 's/^s390x$$/s390/')
HOST_ARCH := $(call karch,$(shell uname -m))
ARCH     ?= $(HOST_ARCH)
override ARCH := $(call karch,$(ARCH))
MG_ARCHES := x86 arm64
ifeq ($(filter $(ARCH),$(MG_ARCHES)),)
$(error mgtrace: ARCH=$(ARCH): no vmlinux/$(ARCH)/vmlinux.h; supported: $(MG_ARCHES) (vmlinux/README))
endif
CROSS_COMPILE_arm64 := aarch64-linux-gnu-
CROSS_COMPILE_x86   := x86_64-linux-gnu-
ifeq ($(ARCH),$(HOST_ARCH))
OUT      := build
BIN      := mgtrace
else
OUT      := build-$(ARCH)
BIN      := $(OUT)/mgtrace
CROSS_COMPILE ?= $(CROSS_COMPILE_$(ARCH))
ifeq ($(origin CC),default)
CC       := $(CROSS_COMPILE)gcc
endif
endif
STATIC   := $(BIN).static
# the Debian architecture of the VM stage's guests (tests/vm/fetch-kernel.sh)
DEB_ARCH_x86   := amd64
DEB_ARCH_arm64 := arm64

# The version, in one place (VERSION): the binary, the man page's title line, the package.
VERSION  := $(shell cat VERSION)
ifeq ($(origin SOURCE_DATE_EPOCH),undefined)
SOURCE_DATE_EPOCH := $(shell if [ -e .git ]; then git log -1 --format=%ct 2> /dev/null; fi)
ifeq ($(SOURCE_DATE_EPOCH),)
SOURCE_DATE_EPOCH := $(shell stat -c %Y VERSION)
endif
endif
# CFLAGS and CPPFLAGS are the user's (make CFLAGS=..., dpkg-buildflags): what the build
# needs is in MG_CPPFLAGS and MG_CFLAGS, which a command-line CFLAGS does not replace
CFLAGS   ?= -g -O2
# src/ holds main.c and the one-file commands, src/<command>/ each multi-file command, src/util/
# the engine every command shares (it calls no command): a command's own headers stand beside it,
# the engine's are found through -Isrc/util, commands.h through -Isrc
MG_CPPFLAGS := -D_GNU_SOURCE -DMGTRACE_VERSION='"$(VERSION)"' -Iinclude -Isrc -Isrc/util -I$(OUT)
# the build directory is mapped to . in debug info, __FILE__ and the BTF of the BPF objects,
# so that one commit built in two directories gives the same binary byte for byte
# (tests/host.d/85-conventions.sh builds two clones and compares them)
MG_PREFIX_MAP := -ffile-prefix-map=$(CURDIR)=.
MG_CFLAGS   := -Wall -Wextra -Wno-unused-parameter -std=gnu11 $(MG_PREFIX_MAP)
ALL_CFLAGS   = $(MG_CPPFLAGS) $(CPPFLAGS) $(MG_CFLAGS) $(CFLAGS)
LDLIBS   := -lbpf -lelf -lz -ljansson
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Iinclude -Ivmlinux/$(ARCH) -Wall -Wno-unused-function \
              $(MG_PREFIX_MAP)

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
SKELS    := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS))
SRCS     := $(wildcard src/*.c src/*/*.c)
OBJS     := $(patsubst src/%.c,$(OUT)/%.o,$(SRCS))
LIB_OBJS := $(filter-out $(OUT)/main.o,$(OBJS))
# Every header and .def an object includes is a prerequisite of it: the compilers write
# $(OUT)/**/*.d beside each object (-MMD -MP, for the C and the BPF rule alike), read back
# below; the first build has none and builds everything. -MP: a header that is gone is no
# missing prerequisite.
DEPFLAGS  = -MMD -MP -MF $(@:.o=.d) -MT $@

SCDOC    ?= scdoc
SBINDIR  := $(PREFIX)/sbin
MANDIR   := $(PREFIX)/share/man
DATADIR  := $(PREFIX)/share/mgtrace
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
DOCDIR   := $(PREFIX)/share/doc/mgtrace
# where systemd looks for units (Debian 12: /lib/systemd/system), whatever PREFIX is; without
# systemd's pkg-config file, under PREFIX. make UNITDIR=... overrides it.
SYSTEMD_UNITDIR := $(shell pkg-config --variable=systemdsystemunitdir systemd 2> /dev/null)
UNITDIR  ?= $(if $(SYSTEMD_UNITDIR),$(SYSTEMD_UNITDIR),$(PREFIX)/lib/systemd/system)
# where systemd-sysusers looks (Debian 12: /usr/lib/sysusers.d), whatever PREFIX is:
# contrib/mgtrace.sysusers, the units' user; without systemd's .pc file, under PREFIX
SYSTEMD_SYSUSERSDIR := $(shell pkg-config --variable=sysusersdir systemd 2> /dev/null)
SYSUSERSDIR ?= $(if $(SYSTEMD_SYSUSERSDIR),$(SYSTEMD_SYSUSERSDIR),$(PREFIX)/lib/sysusers.d)
# logrotate's snippets (contrib/mgtrace-check.logrotate), whatever PREFIX is
LOGROTATEDIR ?= /etc/logrotate.d
SCHEMAS  := $(wildcard docs/schema/*.schema.json)
DOCS     := README.md COPYING $(wildcard docs/*.md)
# the kernel faults found, each with its reproducer (docs/*.md link them: findings/...)
FINDINGS := $(wildcard docs/findings/*)

.PHONY: all deps run test test-host test-vm unit check static install uninstall man vmlinux clean image FORCE
# keep the BPF objects and skeletons: they are inputs of every src/*.o
.SECONDARY:

all: $(BIN) man

$(OUT):
	mkdir -p $@

$(OUT)/%.bpf.o: bpf/%.bpf.c vmlinux/$(ARCH)/vmlinux.h | $(OUT)
	$(CLANG) $(BPF_CFLAGS) $(DEPFLAGS) -c $< -o $@.tmp
	$(BPFTOOL) gen object $@ $@.tmp
	rm -f $@.tmp

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp && mv $@.tmp $@

# the skeletons are made before any object (an object names the ones it includes in its .d)
$(OUT)/%.o: src/%.c | $(SKELS) $(OUT)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BIN): $(OBJS)
	$(CC) $(ALL_CFLAGS) $^ -o $@ $(LDFLAGS) $(LDLIBS)

static: $(STATIC)
$(STATIC): $(OBJS)
	$(CC) $(ALL_CFLAGS) -static $^ -o $@ $(LDFLAGS) -Wl,--wrap=btf__load_vmlinux_btf -Wl,--wrap=btf__free \
		-lbpf -lelf -lz -lzstd -ljansson -lpthread

# the observer outside mgtrace of the differential tests (tests/observer.py): static, so
# that the VM stage's initramfs carries it as it is
$(OUT)/mgobserve: tests/mgobserve.c | $(OUT)
	$(CC) $(ALL_CFLAGS) -static $< -o $@

# the VM stage's other guest programs, static as mgobserve: cross-file ordering over link and
# unlink (tests/mgorder.c), the reproducers of docs/findings/tmpfs-dir-ctime.md and
# docs/findings/tmpfs-mmap-msync.md and docs/findings/overlayfs-fifo-times.md
$(OUT)/mgorder: tests/mgorder.c | $(OUT)
	$(CC) $(ALL_CFLAGS) -static -pthread $< -o $@
$(OUT)/tmpfs-dir-ctime: docs/findings/tmpfs-dir-ctime.c | $(OUT)
	$(CC) $(ALL_CFLAGS) -static $< -o $@
$(OUT)/tmpfs-mmap-msync: docs/findings/tmpfs-mmap-msync.c | $(OUT)
	$(CC) $(ALL_CFLAGS) -static $< -o $@
$(OUT)/overlayfs-fifo-times: docs/findings/overlayfs-fifo-times.c | $(OUT)
	$(CC) $(ALL_CFLAGS) -static $< -o $@

# bench/soak's workload: distinct files created, written, stat()ed and deleted, a bounded
# number alive (bench/soakload.c); static as mgorder, so a guest could carry it too
$(OUT)/soakload: bench/soakload.c | $(OUT)
	$(CC) $(ALL_CFLAGS) -static -pthread $< -o $@

# check --forget's races between generations and a creation's generation-0 state taken,
# made to happen by bpf/judgetest.bpf.c (63-check-bpf)
$(OUT)/forgetrace: tests/forgetrace.c $(OUT)/judgetest.skel.h | $(OUT)
	$(CC) $(ALL_CFLAGS) -MMD -MP -MF $@.d -MT $@ $< -o $@ $(LDFLAGS) -lbpf -lelf -lz

# a seccomp filter that fails bpf() as a container's default profile does (48-containers)
$(OUT)/denybpf: tests/denybpf.c | $(OUT)
	$(CC) $(ALL_CFLAGS) $< -o $@

# The unit tests: tests/unit/test_*.c, one file per module, and the runner tests/unit/main.c.
# The list of tests is made from the files at each build: every line that is UNIT_TEST(name),
# in file order, is one UNIT(name) of $(OUT)/unit_list.h (rewritten only when it changes); a
# UNIT_TEST anywhere else stops the build, so that no test is left out of the list silently.
UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_OBJS  := $(patsubst tests/unit/%.c,$(OUT)/unit/%.o,$(UNIT_SRCS) tests/unit/main.c)

$(OUT)/unit:
	mkdir -p $@

$(OUT)/unit_list.h: FORCE | $(OUT)
	@bad=$$(grep -Hn 'UNIT_TEST' $(UNIT_SRCS) | grep -v '^[^:]*:[0-9]*:UNIT_TEST([A-Za-z0-9_]*)$$'); \
	if [ -n "$$bad" ]; then printf '%s\n' "$@: UNIT_TEST(name) must be a line of its own:" "$$bad" >&2; exit 1; fi; \
	sed -n 's/^UNIT_TEST(\([A-Za-z0-9_]*\))$$/UNIT(\1)/p' $(UNIT_SRCS) > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@ && echo "$@: $$(wc -l < $@) tests"; fi

# the unit tests reach into each command's own headers
UNIT_CPPFLAGS := $(patsubst %,-I%,$(wildcard src/*/))
$(OUT)/unit/%.o: tests/unit/%.c | $(SKELS) $(OUT)/unit
	$(CC) $(ALL_CFLAGS) $(UNIT_CPPFLAGS) $(DEPFLAGS) -c $< -o $@

$(OUT)/unit/main.o: $(OUT)/unit_list.h

$(OUT)/unit_tests: $(UNIT_OBJS) $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) $(UNIT_OBJS) $(LIB_OBJS) -o $@ $(LDFLAGS) $(LDLIBS)

FORCE:

-include $(wildcard $(OUT)/*.d $(OUT)/*/*.d)

deps:
	sh tools/deps.sh $(if $(filter-out $(HOST_ARCH),$(ARCH)),--arch $(ARCH))

# The main job needs debugfs (the kernel's counters); securityfs shows the lockdown mode.
run: deps
	$(MAKE) $(BIN)
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/security || mount -t securityfs none /sys/kernel/security || true
	./mgtrace

test: test-host test-vm

# Without root or BPF, in seconds: the unit tests (tests/unit/; UNIT="-t NAME" picks
# some), the checkers' self-tests, each failing its must-fail cases, and the links of README.md
# and docs/*.md (tests/doclinks.py). `make check` is the same, as packagers' build servers
# call it.
unit: $(OUT)/unit_tests
	tests/run-unit.sh $(OUT)/unit_tests $(UNIT)
check: unit

# The image a CI job pulls (Containerfile): FROM scratch and the static binary alone, built
# offline from $(OUT)/image/ (nothing is fetched); run it with the README's podman line.
IMAGE ?= localhost/mgtrace
image: $(STATIC) Containerfile
	mkdir -p $(OUT)/image && cp $(STATIC) $(OUT)/image/mgtrace
	podman build -q --network none -f Containerfile -t $(IMAGE):$(VERSION) -t $(IMAGE):latest $(OUT)/image

man: $(OUT)/mgtrace.8
$(OUT)/mgtrace.8: docs/mgtrace.8.scd VERSION | $(OUT)
	sed '1s/^mgtrace(8)$$/mgtrace(8) "mgtrace $(VERSION)"/' $< | \
		SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) $(SCDOC) > $@.tmp && mv $@.tmp $@

test-host: $(BIN) $(STATIC) man $(OUT)/unit_tests $(OUT)/mgobserve $(OUT)/denybpf $(OUT)/forgetrace
	tests/run-host-tests.sh

# The VM stage: this ARCH's guests (tests/vm/kernels.txt, kernels-arm64.txt); on an x86
# machine `make test-vm` then boots the arm64 guests too (a cross build, qemu-system-aarch64;
# tools/deps.sh --arch arm64), unless MGTRACE_VM_ARCHES leaves arm64 out ("amd64").
MGTRACE_VM_ARCHES ?= $(if $(filter x86,$(HOST_ARCH)),amd64 arm64,$(DEB_ARCH_$(HOST_ARCH)))
.PHONY: test-vm-arch
test-vm: test-vm-arch
ifeq ($(ARCH)-$(HOST_ARCH),x86-x86)
ifneq ($(filter arm64,$(MGTRACE_VM_ARCHES)),)
	$(MAKE) ARCH=arm64 test-vm-arch
endif
endif
# the conformance matrix (issue 41): mgtrace conform with 50 runs of each operation on every
# multigrain kernel of the VM stage (tmpfs, and ext4, xfs, btrfs, overlayfs over ext4 and ramfs
# where the kernel has them and can mount them), then the matrix of docs/conformance.md from
# their results (tests/vm/conform-matrix.py), made even when the stage failed (its exit status
# kept); CI runs 5 of each. ARCH=arm64 after an amd64 run into the same MGTRACE_VM_OUT makes
# the matrix of both.
.PHONY: conform-matrix
conform-matrix:
	MGTRACE_VM_APPEND="mgtest_conform_n=50 " $(MAKE) test-vm-arch; rc=$$?; \
		python3 tests/vm/conform-matrix.py && exit $$rc

test-vm-arch: $(STATIC) $(OUT)/mgobserve $(OUT)/mgorder $(OUT)/tmpfs-dir-ctime
	MGTRACE_VM_ARCH=$(DEB_ARCH_$(ARCH)) \
	MGTRACE_VM_OBSERVER=$(OUT)/mgobserve MGTRACE_VM_PROGS="$(OUT)/mgorder $(OUT)/tmpfs-dir-ctime" \
		tests/vm/vm-test.sh ./$(STATIC)

install: $(BIN) man
	install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/mgtrace
	install -D -m 0644 $(OUT)/mgtrace.8 $(DESTDIR)$(MANDIR)/man8/mgtrace.8
	install -D -m 0644 contrib/mgtrace.bash-completion $(DESTDIR)$(BASHCOMPDIR)/mgtrace
	install -d $(DESTDIR)$(DATADIR)/schemas
	install -m 0644 $(SCHEMAS) $(DESTDIR)$(DATADIR)/schemas/
	install -D -m 0644 contrib/mgtrace.rules.yml $(DESTDIR)$(DATADIR)/mgtrace.rules.yml
	install -D -m 0644 contrib/mgtrace-check.rules.yml $(DESTDIR)$(DATADIR)/mgtrace-check.rules.yml
	install -D -m 0644 contrib/known-faults.json $(DESTDIR)$(DATADIR)/known-faults.json
	sed 's|/usr/sbin/mgtrace|$(SBINDIR)/mgtrace|' contrib/mgtrace-exporter.service > $(OUT)/mgtrace-exporter.service
	install -D -m 0644 $(OUT)/mgtrace-exporter.service $(DESTDIR)$(UNITDIR)/mgtrace-exporter.service
	sed 's|/usr/sbin/mgtrace|$(SBINDIR)/mgtrace|' contrib/mgtrace-check.service > $(OUT)/mgtrace-check.service
	install -D -m 0644 $(OUT)/mgtrace-check.service $(DESTDIR)$(UNITDIR)/mgtrace-check.service
	install -D -m 0644 contrib/mgtrace-check.logrotate $(DESTDIR)$(LOGROTATEDIR)/mgtrace-check
	install -D -m 0644 contrib/mgtrace.sysusers $(DESTDIR)$(SYSUSERSDIR)/mgtrace.conf
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(DOCDIR)/findings
	install -m 0644 $(FINDINGS) $(DESTDIR)$(DOCDIR)/findings/
# the units' user, at once on this machine (a package's postinst does it: dh_installsysusers)
	@if [ -z "$(DESTDIR)" ] && command -v systemd-sysusers > /dev/null; then \
		systemd-sysusers $(SYSUSERSDIR)/mgtrace.conf || \
		echo "mgtrace: systemd-sysusers $(SYSUSERSDIR)/mgtrace.conf failed: the units' user mgtrace is missing" >&2; fi

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/mgtrace $(DESTDIR)$(MANDIR)/man8/mgtrace.8 \
		$(DESTDIR)$(BASHCOMPDIR)/mgtrace $(DESTDIR)$(UNITDIR)/mgtrace-exporter.service \
		$(DESTDIR)$(UNITDIR)/mgtrace-check.service $(DESTDIR)$(LOGROTATEDIR)/mgtrace-check \
		$(DESTDIR)$(SYSUSERSDIR)/mgtrace.conf \
		$(DESTDIR)$(DATADIR)/mgtrace.rules.yml $(DESTDIR)$(DATADIR)/mgtrace-check.rules.yml \
		$(DESTDIR)$(DATADIR)/known-faults.json \
		$(addprefix $(DESTDIR)$(DATADIR)/schemas/,$(notdir $(SCHEMAS))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS))) \
		$(addprefix $(DESTDIR)$(DOCDIR)/findings/,$(notdir $(FINDINGS)))
	-rmdir $(DESTDIR)$(DATADIR)/schemas $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)/findings \
		$(DESTDIR)$(DOCDIR) 2>/dev/null

# from this machine's kernel (ARCH must be this machine's), or VMLINUX_BTF=FILE: a raw BTF
# file, e.g. tools/btf-from-image.py's from a Debian arm64 vmlinuz (vmlinux/README)
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
vmlinux:
	@if [ "$(VMLINUX_BTF)" = /sys/kernel/btf/vmlinux ] && [ "$(ARCH)" != "$(HOST_ARCH)" ]; then \
		echo "mgtrace: make vmlinux ARCH=$(ARCH): this kernel is $(HOST_ARCH); give VMLINUX_BTF=FILE" >&2; exit 2; fi
	$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > vmlinux/$(ARCH)/vmlinux.h.tmp
	mv vmlinux/$(ARCH)/vmlinux.h.tmp vmlinux/$(ARCH)/vmlinux.h

clean:
	rm -rf $(OUT) $(BIN) $(STATIC)
