# SPDX-License-Identifier: GPL-2.0
# 86-package.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The Debian package (debian/): dpkg-buildpackage -b builds it from a clean clone of HEAD
# (its build runs `make check`), lintian reports no error or warning, and the .deb, unpacked
# into a throwaway root with dpkg -x, holds its files where Debian puts them and its binary
# runs. Then it is installed into this machine with dpkg -i (run-host-tests.sh holds the tests'
# lock: no other test runs meanwhile), /usr/sbin/mgtrace probe runs from it, and dpkg --purge
# leaves nothing of it; skipped where mgtrace is installed already (never replaced). About a
# minute (the build is most of it).
echo "# Debian package (dpkg-buildpackage -b from a clone of HEAD, lintian, dpkg -x)"
P="$T/pkg"
if ! command -v dpkg-buildpackage > /dev/null; then
	skip package "dpkg-buildpackage is not installed (sh tools/deps.sh installs dpkg-dev and debhelper)"
elif ! git rev-parse --git-dir > /dev/null 2>&1; then
	skip package "not a git checkout (the package is built from a clone of HEAD)"
elif ! mkdir -p "$P" || ! git clone -q . "$P/mgtrace" 2> "$P/clone.err"; then
	bad "package: git clone: $(cat "$P/clone.err")"
elif ! (cd "$P/mgtrace" && dpkg-checkbuilddeps) > "$P/deps.log" 2>&1; then
	bad "package: build dependencies (sh tools/deps.sh): $(cat "$P/deps.log")"
else
	was=$(dpkg-query -W -f='${Status}' mgtrace 2> /dev/null)
	ver=$(cat VERSION)
	arch=$(dpkg --print-architecture)
	deb="$P/mgtrace_${ver}_$arch.deb"
	if (cd "$P/mgtrace" && dpkg-buildpackage -us -uc -b) > "$P/build.log" 2>&1 && [ -s "$deb" ]; then
		ok "dpkg-buildpackage -us -uc -b: $(basename "$deb") ($(stat -c %s "$deb") bytes)"
	else
		bad "dpkg-buildpackage -us -uc -b: $(tail -5 "$P/build.log")"
	fi
	grep -q "^# unit: [0-9]* passed, 0 failed" "$P/build.log" \
		&& ok "the package build ran make check: $(grep -m1 '^# unit: ' "$P/build.log")" \
		|| bad "the package build ran make check (unit: N passed, 0 failed)"
	# the package's version is debian/changelog's, a second copy of VERSION kept on purpose
	# (docs/build.md "Versions"); they must agree, and debian/rules' check-version, which the
	# build runs first, says so. Twin: with a changelog whose version is not VERSION's it stops
	# the build in one line
	[ "$(dpkg-parsechangelog -l debian/changelog -S Version)" = "$ver" ] \
		&& ok "debian/changelog's version is VERSION's ($ver)" \
		|| bad "debian/changelog's version $(dpkg-parsechangelog -l debian/changelog -S Version) is not VERSION's $ver"
	grep -q '^override_dh_auto_build: check-version' "$P/mgtrace/debian/rules" \
		&& (cd "$P/mgtrace" && make -s -f debian/rules check-version) > "$P/ver.out" 2>&1 \
		&& ok "debian/rules check-version, run before the build: changelog and VERSION agree" \
		|| bad "debian/rules check-version: $(cat "$P/ver.out" 2> /dev/null)"
	sed -i '1s/(\([^)]*\))/(\1~old)/' "$P/mgtrace/debian/changelog"
	(cd "$P/mgtrace" && make -s -f debian/rules check-version) > "$P/ver.out" 2>&1
	[ $? != 0 ] && [ "$(grep -c "debian/changelog's version $ver~old is not VERSION's $ver" "$P/ver.out")" = 1 ] \
		&& ok "twin: a changelog of version $ver~old stops the build: $(head -1 "$P/ver.out")" \
		|| bad "twin: a changelog of another version: $(cat "$P/ver.out")"
	git -C "$P/mgtrace" checkout -q debian/changelog
fi
# pkg_gone LIST: the files of LIST (one path a line) that still exist
pkg_gone() { local f; while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done < "$1"; }
# pkg_install: dpkg -i "$deb" into this machine, mgtrace probe and --version from /usr/sbin,
# dpkg --purge, nothing left (dpkg -L, the files, the maintainer scripts' state); the user the
# postinst made is removed again by the test (Debian's packages leave their users), so the
# machine is as it was. Twins: the same checks after the purge find no binary, and the
# leftover check reports a file that is there.
pkg_install() {
	local had_user had_group rc v
	if [ -n "$was" ]; then
		skip package-install "mgtrace is installed on this machine ($was): not replaced by the test's package"
		return
	fi
	had_user=$(getent passwd mgtrace); had_group=$(getent group mgtrace)
	grep -v '/$' "$P/files" > "$P/files-only"
	if dpkg -i "$deb" > "$P/install.log" 2>&1 &&
		[ "$(dpkg-query -W -f='${Status} ${Version}' mgtrace 2> /dev/null)" = "install ok installed $ver" ]; then
		ok "dpkg -i $(basename "$deb"): installed, version $ver"
	else
		bad "dpkg -i $(basename "$deb"): $(tail -5 "$P/install.log" | tr '\n' ' ') $(dpkg-query -W -f='${Status}' mgtrace 2>&1)"
	fi
	/usr/sbin/mgtrace probe > "$P/probe.out" 2> "$P/probe.err"; rc=$?
	[ $rc = 0 ] && [ -s "$P/probe.out" ] && ok "/usr/sbin/mgtrace probe from the package: exit 0 ($(grep -c . "$P/probe.out") lines)" \
		|| bad "/usr/sbin/mgtrace probe from the package: exit $rc $(head -c 300 "$P/probe.err")"
	v=$(/usr/sbin/mgtrace --version 2>&1)
	[ "$v" = "mgtrace $ver" ] && ok "/usr/sbin/mgtrace --version: '$v', VERSION's" || bad "/usr/sbin/mgtrace --version: '$v', want 'mgtrace $ver'"
	getent passwd "$(sed -n 's/^User=//p' /lib/systemd/system/mgtrace-exporter.service 2> /dev/null)" > /dev/null \
		&& ok "the installed units' user exists ($(getent passwd mgtrace | cut -d: -f1,3,6,7))" \
		|| bad "the installed units' User= does not exist: $(grep '^User=' /lib/systemd/system/mgtrace-exporter.service 2>&1)"
	dpkg --purge mgtrace > "$P/purge.log" 2>&1 && ok "dpkg --purge mgtrace" || bad "dpkg --purge mgtrace: $(tail -3 "$P/purge.log")"
	[ -z "$(dpkg -L mgtrace 2> /dev/null)" ] && ! dpkg-query -W mgtrace > /dev/null 2>&1 \
		&& ok "after the purge dpkg knows no mgtrace (dpkg -L empty)" || bad "after the purge: $(dpkg -L mgtrace 2>&1 | head -3)"
	left=$(pkg_gone "$P/files-only"; find /var/lib/dpkg/info /etc/systemd /var/lib/systemd -name '*mgtrace*' 2> /dev/null)
	[ -z "$left" ] && ok "after the purge none of the package's $(grep -c . "$P/files-only") files is left, nor dpkg's or systemd's state of it" \
		|| bad "after the purge left: $(echo $left | head -c 300)"
	/usr/sbin/mgtrace probe > /dev/null 2>&1; rc=$?
	[ $rc = 127 ] && ok "twin: after the purge /usr/sbin/mgtrace probe fails (exit 127: no binary)" \
		|| bad "twin: after the purge /usr/sbin/mgtrace probe: exit $rc, want 127"
	{ cat "$P/files-only"; echo /usr/bin/dpkg; } > "$P/files-twin"
	[ "$(pkg_gone "$P/files-twin")" = /usr/bin/dpkg ] && ok "twin: the leftover check reports a file that is there" \
		|| bad "twin: the leftover check: '$(pkg_gone "$P/files-twin")'"
	# the user and group the postinst made, removed as the test found the machine
	[ -z "$had_user" ] && getent passwd mgtrace > /dev/null && userdel mgtrace
	[ -z "$had_group" ] && getent group mgtrace > /dev/null && groupdel mgtrace
	[ "$(getent passwd mgtrace)" = "$had_user" ] && [ "$(getent group mgtrace)" = "$had_group" ] \
		&& ok "the machine's users are as before the install (mgtrace: ${had_user:-none})" \
		|| bad "the machine's users changed: $(getent passwd mgtrace) $(getent group mgtrace)"
}
if [ -s "${deb:-/nonexistent}" ]; then
	# lintian: no error or warning (info and pedantic tags are allowed)
	# lint FILE...: lintian's E: and W: lines
	lint() { lintian "$@" 2> /dev/null | grep -E '^[EW]: '; }
	if ! command -v lintian > /dev/null; then
		skip lintian "lintian is not installed (sh tools/deps.sh installs it)"
	else
		l=$(lint "$P"/mgtrace_"${ver}"_"$arch".changes)
		[ -z "$l" ] && ok "lintian $(basename "$P"/mgtrace_*.changes): no error or warning" \
			|| bad "lintian: $(echo "$l" | head -10)"
		# twin: a package whose maintainer is on localhost, without a copyright file, is an error
		mkdir -p "$P/bad/DEBIAN" "$P/bad/usr/bin" && printf '#!/bin/sh\n' > "$P/bad/usr/bin/x" && chmod 755 "$P/bad/usr/bin/x"
		printf 'Package: mgtrace-bad\nVersion: 1\nArchitecture: all\nMaintainer: x <x@localhost>\nDescription: bad\n bad\n' \
			> "$P/bad/DEBIAN/control"
		dpkg-deb -b --root-owner-group "$P/bad" "$P/bad.deb" > /dev/null 2>&1
		l=$(lint "$P/bad.deb")
		echo "$l" | grep -q '^E: .*bogus-mail-host' \
			&& ok "lintian twin: a defective package reports errors ($(echo "$l" | grep -c '^E: ') E: lines)" \
			|| bad "lintian twin: a defective package reports errors: '$l'"
	fi

	# the file list: where Debian 12 puts each file; no COPYING (debian/copyright is the license)
	dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$P/files"
	# missing LIST: the files the package must have that LIST lacks
	missing() {
		local f; for f in /usr/sbin/mgtrace /usr/share/man/man8/mgtrace.8.gz \
			/lib/systemd/system/mgtrace-exporter.service /usr/share/bash-completion/completions/mgtrace \
			/lib/systemd/system/mgtrace-check.service /etc/logrotate.d/mgtrace-check \
			/usr/lib/sysusers.d/mgtrace.conf \
			/usr/share/mgtrace/mgtrace-check.rules.yml \
			/usr/share/doc/mgtrace/copyright /usr/share/doc/mgtrace/README.md.gz /usr/share/doc/mgtrace/json.md.gz \
			/usr/share/mgtrace/mgtrace.rules.yml $(cd docs/schema && ls *.schema.json | sed 's|^|/usr/share/mgtrace/schemas/|'); do
			grep -qx "$f" "$1" || echo -n "$f "
		done; }
	m=$(missing "$P/files")
	[ -z "$m" ] && ok "package files: the binary, man page, unit in /lib/systemd/system, docs in /usr/share/doc/mgtrace, schemas ($(grep -vc '/$' "$P/files") files)" \
		|| bad "package lacks: $m"
	grep -v '^/lib/systemd/system/mgtrace-exporter.service$' "$P/files" > "$P/files-nounit"
	[ "$(missing "$P/files-nounit")" = "/lib/systemd/system/mgtrace-exporter.service " ] \
		&& ok "package files twin: a list without the unit is reported" \
		|| bad "package files twin: a list without the unit is reported (got '$(missing "$P/files-nounit")')"
	odd=$(grep -v '/$' "$P/files" | grep -v -e '^/usr/' -e '^/lib/systemd/system/' -e '^/etc/logrotate\.d/mgtrace-check$' | xargs)
	odd="$odd$(grep -e '^/usr/local/' -e '^/usr/lib/systemd/' -e '/doc/mgtrace/COPYING' "$P/files" | xargs)"
	[ -z "$odd" ] && ok "package files: nothing under /usr/local, /usr/lib/systemd or outside /usr, /lib/systemd/system and the logrotate snippet; no COPYING" \
		|| bad "package files misplaced: $odd"

	# unpacked into a throwaway root, not installed: its binary, unit and man page
	mkdir -p "$P/root" && dpkg -x "$deb" "$P/root"
	v=$("$P/root/usr/sbin/mgtrace" version 2>&1)
	[ "$v" = "mgtrace $ver" ] && ok "the packaged binary: '$v'" || bad "the packaged binary's version: '$v'"
	"$P/root/usr/sbin/mgtrace" help > "$P/help.out" 2>&1 && grep -q '^Commands' "$P/help.out" && grep -q '^  top ' "$P/help.out" \
		&& ok "the packaged binary: help lists the commands" || bad "the packaged binary: help: $(head -3 "$P/help.out")"
	grep -q '^ExecStart=/usr/sbin/mgtrace stat ' "$P/root/lib/systemd/system/mgtrace-exporter.service" \
		&& grep -q '^ExecStart=/usr/sbin/mgtrace check ' "$P/root/lib/systemd/system/mgtrace-check.service" \
		&& ok "the packaged units run /usr/sbin/mgtrace" || bad "the packaged units run /usr/sbin/mgtrace"
	# the man page is dated by debian/changelog (dpkg-buildpackage's SOURCE_DATE_EPOCH)
	want=$(date -u -d "@$(dpkg-parsechangelog -l debian/changelog -S Timestamp)" +%F)
	th=$(zcat "$P/root/usr/share/man/man8/mgtrace.8.gz" | grep '^\.TH')
	[ "$th" = ".TH \"mgtrace\" \"8\" \"$want\" \"mgtrace $ver\"" ] && ok "the packaged man page: $th" \
		|| bad "the packaged man page's title, want date $want and 'mgtrace $ver': $th"
	# the example unit is neither started nor enabled by the maintainer scripts (dh_installsystemd
	# --no-enable --no-start: the postinst re-enables it only where it was enabled before)
	dpkg-deb -e "$deb" "$P/ctl"
	grep -qx /etc/logrotate.d/mgtrace-check "$P/ctl/conffiles" 2> /dev/null \
		&& ok "the logrotate snippet is a conffile (a local edit survives an upgrade)" \
		|| bad "the logrotate snippet is not a conffile: $(cat "$P/ctl/conffiles" 2> /dev/null)"
	if grep -q 'deb-systemd-invoke' "$P/ctl/postinst" 2> /dev/null; then
		bad "the postinst starts the exporter unit: $(grep 'deb-systemd-invoke' "$P/ctl/postinst")"
	elif grep -q 'deb-systemd-helper enable' "$P/ctl/postinst" 2> /dev/null &&
		! grep -q 'deb-systemd-helper debian-installed' "$P/ctl/postinst"; then
		bad "the postinst enables the exporter unit on a new installation"
	else
		ok "the maintainer scripts neither start nor enable the exporter unit (an example)"
	fi
	# the units' user: the postinst gives the sysusers.d file to systemd-sysusers
	grep -q '^ *systemd-sysusers .*mgtrace.conf' "$P/ctl/postinst" 2> /dev/null \
		&& ok "the postinst makes the units' user (systemd-sysusers mgtrace.conf)" \
		|| bad "the postinst does not run systemd-sysusers: $(grep -c . "$P/ctl/postinst" 2> /dev/null) lines"
	pkg_install
	[ "$(dpkg-query -W -f='${Status}' mgtrace 2> /dev/null)" = "$was" ] \
		&& ok "this machine's package state is unchanged (mgtrace: ${was:-not installed})" \
		|| bad "the test changed this machine's mgtrace package: $(dpkg-query -W -f='${Status}' mgtrace 2>&1)"
fi
rm -rf "$P"
