# SPDX-License-Identifier: GPL-2.0
# 85-conventions.sh - part of tests/run-host-tests.sh (helpers: tests/lib.sh)
# The conventions of a tool in /usr/sbin: the man page renders without warnings and names every
# option the binary's --help prints, and each option entry of stat, check, trace and top begins
# with its --help words (tests/mancheck.py); bash completion offers the commands, options and option
# values the binary accepts; make install/uninstall honour DESTDIR and PREFIX; every source file
# has an SPDX line; the README stays at most 300 lines and every documentation link resolves.
echo "# man page, bash completion, make install"
MAN8=build/mgtrace.8

# man page: no warning at any width; a defective page must warn
if [ ! -s "$MAN8" ]; then
	bad "man page $MAN8 built (make man; needs scdoc)"
else
	w=""
	for width in 60 80 132; do
		w="$w$(MANWIDTH=$width LC_ALL=C.UTF-8 man --warnings -l "$MAN8" 2>&1 > /dev/null)"
	done
	[ -z "$w" ] && ok "man --warnings -l $MAN8: no warning (widths 60, 80, 132)" \
		|| bad "man --warnings -l $MAN8: $w"
	{ cat "$MAN8"; printf '.XY undefined macro\n'; } > "$T/bad.8"
	[ -n "$(LC_ALL=C.UTF-8 man --warnings -l "$T/bad.8" 2>&1 > /dev/null)" ] \
		&& ok "man --warnings reports a defective page" || bad "man --warnings reports a defective page"
	LC_ALL=C.UTF-8 MANWIDTH=1000 man -l "$MAN8" > "$T/man.txt" 2> /dev/null
	python3 tests/mancheck.py options "$T/man.txt" "$MG" > "$T/man.chk" 2>&1
	tally man-options "$T/man.chk"
	python3 tests/mancheck.py selftest "$T/man.txt" "$MG" > "$T/man-self.chk" 2>&1
	tally man-selftest "$T/man-self.chk"
	# SYNOPSIS has a line for every command of --help; a page without 'mgtrace top' must fail
	cmds=$($MG --help | sed -n '/^Commands/,/^$/s/^  \([a-z]*\) .*/\1/p' | xargs)
	syn_missing() { # MANTEXT: the commands of --help that SYNOPSIS lacks
		local c; for c in $cmds; do
			sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$1" | grep -q "^ *mgtrace $c\( \|$\)" || echo -n "$c "
		done; }
	m=$(syn_missing "$T/man.txt")
	[ -n "$cmds" ] && [ -z "$m" ] && ok "man SYNOPSIS lists every command of --help ($cmds)" \
		|| bad "man SYNOPSIS lacks: ${m:-(no commands read from --help)}"
	grep -v '^ *mgtrace top ' "$T/man.txt" > "$T/man-notop.txt"
	[ "$(syn_missing "$T/man-notop.txt")" = "top " ] && ok "man SYNOPSIS check: a page without 'mgtrace top' fails" \
		|| bad "man SYNOPSIS check: a page without 'mgtrace top' fails (got '$(syn_missing "$T/man-notop.txt")')"
	# the title line carries the version (the Makefile's sed on line 1 of docs/mgtrace.8.scd)
	foot=$(tail -1 "$T/man.txt" | tr -s ' ')
	case "$foot" in "mgtrace $(cat VERSION) "*) ok "man page footer: $foot" ;;
	*) bad "man page footer carries 'mgtrace $(cat VERSION)': '$foot'" ;; esac
fi

# bash completion, in a bash that loads bash-completion and the file (as a login shell's would)
BC=/usr/share/bash-completion/bash_completion
if [ ! -r "$BC" ]; then
	bad "bash-completion is installed (sh tools/deps.sh)"
else
	cat > "$T/comp.sh" <<-'EOF'
	. "$1"; . contrib/mgtrace.bash-completion
	PATH=$(dirname "$(realpath "$2")"):$PATH
	complete -p mgtrace > /dev/null || { echo "FAIL complete -p mgtrace: not registered"; exit; }
	echo "PASS complete -p mgtrace: $(complete -p mgtrace)"
	# c WORDS...: what completing the last word offers
	c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"
	      COMP_POINT=${#COMP_LINE}; COMPREPLY=(); _mgtrace 2> /dev/null; echo "${COMPREPLY[*]}"; }
	# same WANT GOT NAME: the two word sets are equal
	same() { local a b; a=$(echo $1 | tr ' ' '\n' | sort -u | xargs); b=$(echo $2 | tr ' ' '\n' | sort -u | xargs)
	         [ "$a" = "$b" ] && echo "PASS completion: $3: $b" || echo "FAIL completion: $3: offers '$b', want '$a'"; }
	cmds=$(mgtrace --help | sed -n '/^Commands/,/^$/s/^  \([a-z]*\) .*/\1/p' | xargs)
	same "$cmds" "$(c mgtrace '')" "the commands of mgtrace --help"
	same "stat stress" "$(c mgtrace st)" "a prefix"
	same "$cmds" "$(c mgtrace help '')" "help COMMAND"
	for cmd in probe stat trace check top stress clocks conform; do
		want="--help $(mgtrace $cmd --help | grep -oE -- '(^|[[:space:][,])--[a-z][a-z0-9-]*' | sed 's/^[[:space:][,]*//' | sort -u | xargs)"
		got=$(c mgtrace $cmd -- | tr ' ' '\n' | grep -- '^--.' | xargs)
		same "$want" "$got" "$cmd: the long options of its --help, and --help"
	done
	# a unique prefix completes as its command does (it offered nothing)
	same "auto kernel fentry kprobe tracepoint" "$(c mgtrace sta -b '')" "a command prefix: sta -b values"
	same "--per-cpu" "$(c mgtrace sta --per)" "a command prefix: sta --per"
	# a flag takes no value: what follows it is an option again (--rate offered nothing)
	same "--rate" "$(c mgtrace stat --rate --ra)" "stat --rate is a flag: the next word is an option"
	same "--all" "$(c mgtrace trace -p 1 --al)" "trace -p 1 --al: the options, not pids (--all-cpus: a hidden alias)"
	# check's -a selects processes, not CPUs: --all (issue 43), the old --all-cpus hidden
	same "--all" "$(c mgtrace check --al)" "check --al: --all, not --all-cpus (a hidden alias)"
	# a list item already given is not offered again
	same "ctime_skip,ctime_set" "$(c mgtrace stat -e ctime_skip,ctime_s)" "stat -e: an item given is not offered again"
	same "-j --json -o --output -v --verbose -V --version -h --help" "$(c mgtrace -)" "mgtrace's own options"
	# option values: the sets the binary's own error messages list
	for cmd in stat trace check top; do
		want=$(mgtrace $cmd --backend bogus 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/:.*//; s/,//g')
		same "$want" "$(c mgtrace $cmd --backend '')" "$cmd --backend values"
		same "$want" "$(c mgtrace $cmd -b '')" "$cmd -b values"
	done
	same "bpf user" "$(c mgtrace check --judge '')" "check --judge values"
	want=$(mgtrace top -B bogus 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/,//g; s/ or / /')
	same "$want" "$(c mgtrace top -B '')" "top -B values"
	want=$(mgtrace top -s bogus 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/,//g; s/ or / /')
	same "$want" "$(c mgtrace top -s '')" "top -s values"
	want=$(mgtrace stat -e bogus 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/,//g')
	same "$want" "$(c mgtrace stat -e '')" "stat -e values"
	same "stat_queries,ctime_skip stat_queries,ctime_set" "$(c mgtrace stat -e stat_queries,ct)" "stat -e: the next item of a list"
	want=$(mgtrace trace --events bogus 2>&1 | sed 's/.*(\(.*\)).*/\1/; s/,//g')
	same "$want" "$(c mgtrace trace --events '')" "trace --events values"
	mkdir -p "$3/dir.d"; : > "$3/file.prom"
	same "$3/dir.d $3/file.prom" "$(c mgtrace stat --prometheus "$3/")" "stat --prometheus: file names"
	same "$3/dir.d" "$(c mgtrace stress --dir "$3/")" "stress --dir: directories"
	same "$3/dir.d" "$(c mgtrace conform -D "$3/")" "conform -D: directories"
	got=$(c mgtrace stat -- mgtrac)
	case " $got " in *" mgtrace "*) echo "PASS completion: the COMMAND after --: $got" ;;
	*) echo "FAIL completion: the COMMAND after --: offers '$got', want mgtrace among them" ;; esac
	same "" "$(c mgtrace stat -i '')" "nothing offered for a number"
	# conform -- OP...: its operations, as conform -l lists them (a command prefix too)
	same "rename-exchange rename-exchange-across" "$(c mgtrace conform -n 2 -- rename-ex)" "conform -- OP: the operations"
	same "$(mgtrace conform -l | sed '1d; s/ .*//' | sort -u | xargs)" "$(c mgtrace conf -- '')" "conf -- : every operation of conform -l"
	# the check can fail: a command the completion does not know
	same "$cmds bogus" "$(c mgtrace '')" "selftest: a missing command is reported" | sed 's/^PASS /FAIL /; t; s/^FAIL /PASS /'
	EOF
	mkdir -p "$T/comp"
	bash --norc --noprofile "$T/comp.sh" "$BC" "$MG" "$T/comp" > "$T/comp.chk" 2>&1
	tally completion "$T/comp.chk"
fi

# make install / uninstall with DESTDIR and PREFIX: every file where it belongs, nothing left.
# The systemd unit goes where systemd looks (pkg-config's systemdsystemunitdir, Debian 12:
# /lib/systemd/system), whatever PREFIX is; under PREFIX only without systemd's .pc file.
# outside D PREFIX UNITDIR SYSUSERSDIR: the files under D that are neither under D/PREFIX nor
# D/UNITDIR's units nor check's logrotate snippet (/etc/logrotate.d, where logrotate looks,
# whatever PREFIX) nor the units' user (SYSUSERSDIR/mgtrace.conf, where systemd-sysusers looks)
outside() { find "$1" -type f | grep -v -e "^$1$2/" -e "^$1$3/mgtrace-exporter.service$" \
	-e "^$1$3/mgtrace-check.service$" -e "^$1/etc/logrotate.d/mgtrace-check$" \
	-e "^$1$4/mgtrace.conf$" | sort; }
: > "$T/inst.stamp"
had_user=$(getent passwd mgtrace)
for prefix in /usr /opt/mgtrace; do
	D="$T/inst$(echo $prefix | tr / _)"
	unitdir=$(pkg-config --variable=systemdsystemunitdir systemd 2> /dev/null)
	unitdir=${unitdir:-$prefix/lib/systemd/system}
	sysusersdir=$(pkg-config --variable=sysusersdir systemd 2> /dev/null)
	sysusersdir=${sysusersdir:-$prefix/lib/sysusers.d}
	if make -s install DESTDIR="$D" PREFIX="$prefix" > "$T/inst.log" 2>&1; then
		missing=""
		for f in $prefix/sbin/mgtrace $prefix/share/man/man8/mgtrace.8 \
			$prefix/share/bash-completion/completions/mgtrace $unitdir/mgtrace-exporter.service \
			$unitdir/mgtrace-check.service /etc/logrotate.d/mgtrace-check $sysusersdir/mgtrace.conf \
			$prefix/share/mgtrace/mgtrace.rules.yml $prefix/share/mgtrace/mgtrace-check.rules.yml \
			$prefix/share/mgtrace/known-faults.json \
			$(cd docs/schema && ls *.schema.json | sed "s|^|$prefix/share/mgtrace/schemas/|") \
			$(ls README.md COPYING docs/*.md | sed "s|^\(docs/\)*|$prefix/share/doc/mgtrace/|") \
			$(ls docs/findings/* | sed "s|^docs/|$prefix/share/doc/mgtrace/|"); do
			[ -s "$D$f" ] || missing="$missing $f"
		done
		[ -z "$missing" ] && ok "make install DESTDIR PREFIX=$prefix: $(find "$D" -type f | wc -l) files, unit in $unitdir" \
			|| bad "make install DESTDIR PREFIX=$prefix: missing$missing"
		out=$(outside "$D" "$prefix" "$unitdir" "$sysusersdir")
		[ -z "$out" ] && ok "make install PREFIX=$prefix: nothing outside DESTDIR$prefix but DESTDIR$unitdir's units, DESTDIR/etc/logrotate.d/mgtrace-check and DESTDIR$sysusersdir/mgtrace.conf" \
			|| bad "make install PREFIX=$prefix: files outside: $out"
		# the check can fail: the unit, were systemd's directory another, is outside
		[ "$(outside "$D" "$prefix" /nonexistent "$sysusersdir" | xargs)" = "$D$unitdir/mgtrace-check.service $D$unitdir/mgtrace-exporter.service" ] \
			&& ok "install check: a unit outside DESTDIR$prefix and the unit directory is reported" \
			|| bad "install check: a unit outside DESTDIR$prefix and the unit directory is reported"
		grep -q "^ExecStart=$prefix/sbin/mgtrace stat " "$D$unitdir/mgtrace-exporter.service" \
			&& grep -q "^ExecStart=$prefix/sbin/mgtrace check " "$D$unitdir/mgtrace-check.service" \
			&& ok "installed units run $prefix/sbin/mgtrace" || bad "installed units run $prefix/sbin/mgtrace"
		# bash-completion's on-demand loader finds the installed file (XDG_DATA_DIRS/bash-completion/completions)
		if [ -r "$BC" ] && XDG_DATA_DIRS="$D$prefix/share" bash --norc --noprofile -c \
			". $BC; __load_completion mgtrace && complete -p mgtrace" 2> /dev/null | grep -q _mgtrace; then
			ok "bash-completion loads the installed completion on demand (PREFIX=$prefix)"
		else
			bad "bash-completion loads the installed completion on demand (PREFIX=$prefix)"
		fi
		make -s uninstall DESTDIR="$D" PREFIX="$prefix" > "$T/inst.log" 2>&1
		left=$(find "$D" -type f)
		[ -z "$left" ] && ok "make uninstall PREFIX=$prefix removes every installed file" \
			|| bad "make uninstall PREFIX=$prefix leaves: $left"
	else
		bad "make install DESTDIR PREFIX=$prefix: $(tail -3 "$T/inst.log")"
	fi
	# nothing written to the machine itself: no mgtrace file newer than the test's start there
	real=$(find "$unitdir" "$sysusersdir" "$prefix" -xdev -newer "$T/inst.stamp" -name '*mgtrace*' 2> /dev/null | head -5 | xargs)
	[ -z "$real" ] && [ "$(getent passwd mgtrace)" = "$had_user" ] \
		&& ok "make install/uninstall DESTDIR PREFIX=$prefix: nothing written outside DESTDIR, no user made (systemd-sysusers only without DESTDIR)" \
		|| bad "make install DESTDIR PREFIX=$prefix wrote outside DESTDIR: $real"
	rm -rf "$D"
done

# the size limits of docs/architecture.md (every .c and .h of src/, bpf/ and include/ at most
# 500 lines, functions at most 100), and the check failing on a breach
python3 tests/srclimits.py check src/*.c src/*/*.c src/*/*.h src/*.h bpf/*.c bpf/*.h include/*.h \
	> "$T/srclimits.chk" 2>&1
tally srclimits "$T/srclimits.chk"
python3 tests/srclimits.py selftest > "$T/srclimits-self.chk" 2>&1
tally srclimits-selftest "$T/srclimits-self.chk"

# reproducible builds: the committed tree (HEAD) cloned into two directories of different
# names and depths, built with the same SOURCE_DATE_EPOCH, gives the same mgtrace byte for byte
# (unstripped) and the same man page; neither build path is in any object. Must-fail twins: an
# object compiled without the Makefile's -ffile-prefix-map carries its path, and a build with
# the user's CPPFLAGS=-D_FORTIFY_SOURCE=2 (which must reach the compiler: _chk symbols) differs.
echo "# reproducible build (two clones of HEAD)"
if ! git rev-parse --git-dir > /dev/null 2>&1; then
	skip reproducible "not a git checkout"
elif ! git clone -q . "$T/repro-a" 2> "$T/clone.err" || ! { mkdir -p "$T/repro-b" && git clone -q . "$T/repro-b/x"; } 2>> "$T/clone.err"; then
	bad "reproducible: git clone: $(cat "$T/clone.err")"
else
	built=1
	for d in "$T/repro-a" "$T/repro-b/x"; do
		(cd "$d" && SOURCE_DATE_EPOCH=1000000000 make -s -j2 mgtrace man > "$T/repro.log" 2>&1) \
			|| { built=0; bad "reproducible: make in $d: $(tail -3 "$T/repro.log")"; }
	done
	if [ $built = 1 ]; then
		cmp "$T/repro-a/mgtrace" "$T/repro-b/x/mgtrace" > "$T/cmp.out" 2>&1 \
			&& ok "reproducible: mgtrace built in $T/repro-a and $T/repro-b/x is identical ($(stat -c %s "$T/repro-a/mgtrace") bytes, unstripped)" \
			|| bad "reproducible: mgtrace differs between two build directories: $(cat "$T/cmp.out")"
		cmp -s "$T/repro-a/build/mgtrace.8" "$T/repro-b/x/build/mgtrace.8" && grep -q '^\.TH "mgtrace" "8" "2001-09-09" "mgtrace ' "$T/repro-a/build/mgtrace.8" \
			&& ok "reproducible: the man page is identical, dated by SOURCE_DATE_EPOCH (2001-09-09)" \
			|| bad "reproducible: the man page: $(grep '^\.TH' "$T/repro-a/build/mgtrace.8" "$T/repro-b/x/build/mgtrace.8" | xargs)"
		n=$(cat "$T/repro-a/mgtrace" "$T"/repro-a/build/*.o "$T"/repro-a/build/*/*.o | grep -c -a "$T/repro-a")
		[ "$n" = 0 ] && ok "reproducible: the build path is in no object or binary" \
			|| bad "reproducible: the build path '$T/repro-a' is in $n lines of the objects"
		# every header and .def an object includes is its prerequisite (-MMD -MP): the built
		# tree is up to date, and touching one of the shared headers makes make -q see work
		# and make -n rebuild a C object and a BPF object; each file's time put back after
		if (cd "$T/repro-a" && make -q mgtrace); then
			ok "make -q: a tree just built is up to date"
		else
			bad "make -q: a tree just built is not up to date: $(cd "$T/repro-a" && make -n mgtrace | head -3 | cut -c1-120)"
		fi
		for h in include/mg_vocab.def include/mg_rules.h include/mgtrace.h; do
			touch -r "$T/repro-a/$h" "$T/stamp" && touch "$T/repro-a/$h"
			(cd "$T/repro-a" && make -q mgtrace); q=$?
			work=$(cd "$T/repro-a" && make -n mgtrace 2> /dev/null)
			bpf=$(printf '%s\n' "$work" | grep -c -- '-target bpf')
			cobj=$(printf '%s\n' "$work" | grep -c -- '-c src/')
			touch -r "$T/stamp" "$T/repro-a/$h"
			[ "$q" = 1 ] && [ "$bpf" -gt 0 ] && [ "$cobj" -gt 0 ] \
				&& ok "make -q after touching $h: a rebuild is due ($bpf BPF and $cobj C objects)" \
				|| bad "make -q after touching $h: exit $q, $bpf BPF and $cobj C objects to rebuild"
		done
		# the date: the last commit's without SOURCE_DATE_EPOCH, VERSION's mtime outside git
		(cd "$T/repro-a" && rm -f build/mgtrace.8 && env -u SOURCE_DATE_EPOCH make -s man > "$T/repro.log" 2>&1)
		want=$(date -u -d "@$(git -C "$T/repro-a" log -1 --format=%ct)" +%F)
		grep -q "^\.TH \"mgtrace\" \"8\" \"$want\"" "$T/repro-a/build/mgtrace.8" \
			&& ok "reproducible: without SOURCE_DATE_EPOCH the man page has the last commit's date ($want)" \
			|| bad "reproducible: without SOURCE_DATE_EPOCH, man page date $want: $(grep '^\.TH' "$T/repro-a/build/mgtrace.8")"
		mkdir -p "$T/repro-c" && git -C "$T/repro-a" archive HEAD docs/mgtrace.8.scd VERSION Makefile | tar -x -C "$T/repro-c" && touch -d @86400 "$T/repro-c/VERSION"
		(cd "$T/repro-c" && env -u SOURCE_DATE_EPOCH make -s man > "$T/repro.log" 2>&1)
		grep -q '^\.TH "mgtrace" "8" "1970-01-02"' "$T/repro-c/build/mgtrace.8" 2> /dev/null \
			&& ok "reproducible: outside git the man page has VERSION's mtime (1970-01-02)" \
			|| bad "reproducible: outside git, the man page date is VERSION's mtime: $(grep '^\.TH' "$T/repro-c/build/mgtrace.8" 2>&1) $(tail -2 "$T/repro.log")"
		# twin: the user's CPPFLAGS reach the C objects (MG_CPPFLAGS kept), and the binary differs
		# (mgtrace removed too: under .SECONDARY a missing object alone is not rebuilt); CFLAGS
		# given on the command line too, which replaces the Makefile's CFLAGS (issue 28 item 9:
		# it broke the build while the include paths lived there)
		(cd "$T/repro-b/x" && rm -f mgtrace && find build -name '*.o' ! -name '*.bpf.o' -delete &&
			SOURCE_DATE_EPOCH=1000000000 make -s -j2 mgtrace CPPFLAGS=-D_FORTIFY_SOURCE=2 CFLAGS="-g -O1" > "$T/repro.log" 2>&1)
		chk=$(nm -D "$T/repro-b/x/mgtrace" 2> /dev/null | grep -c -e '_chk$' -e '_chk@')
		chk0=$(nm -D "$T/repro-a/mgtrace" | grep -c -e '_chk$' -e '_chk@')
		[ "$chk" -gt 0 ] && [ "$chk0" = 0 ] && ok "make CPPFLAGS=-D_FORTIFY_SOURCE=2 CFLAGS='-g -O1': built, $chk _chk symbols (0 without)" \
			|| bad "make CPPFLAGS=-D_FORTIFY_SOURCE=2 CFLAGS='-g -O1': $chk _chk symbols, $chk0 without: $(tail -3 "$T/repro.log")"
		"$T/repro-b/x/mgtrace" version > /dev/null 2>&1 && ! cmp -s "$T/repro-a/mgtrace" "$T/repro-b/x/mgtrace" \
			&& ok "reproducible twin: a build with other CPPFLAGS differs (cmp fails)" \
			|| bad "reproducible twin: a build with other CPPFLAGS differs (cmp fails)"
		# twin: without the prefix map, the path is there (a C object and a BPF object)
		(cd "$T/repro-b/x" && rm -f build/util/util.o build/pcpu.bpf.o &&
			make -s build/util/util.o build/pcpu.bpf.o MG_PREFIX_MAP= > "$T/repro.log" 2>&1)
		[ "$(grep -c -a "$T/repro-b/x" "$T/repro-b/x/build/util/util.o")" -gt 0 ] && [ "$(grep -c -a "$T/repro-b/x" "$T/repro-b/x/build/pcpu.bpf.o")" -gt 0 ] \
			&& ok "reproducible twin: compiled without -ffile-prefix-map, the objects carry the build path" \
			|| bad "reproducible twin: compiled without -ffile-prefix-map, the objects carry the build path: $(tail -3 "$T/repro.log")"
	fi
fi
rm -rf "$T/repro-a" "$T/repro-b" "$T/repro-c"

# the license: COPYING is GPL-2.0's text, and every tracked source, script and build file has
# an SPDX line (data files and prose aside: JSON, Markdown, fixtures, VERSION, the generated vmlinux.h,
# the two files of debian/ whose formats have no comment: changelog, source/format, and the
# golden outputs of contrib/fstests/tests, which fstests compares byte for byte)
if git rev-parse --git-dir > /dev/null 2>&1; then
	grep -q "GNU GENERAL PUBLIC LICENSE" COPYING 2> /dev/null && grep -q "Version 2, June 1991" COPYING \
		&& ok "COPYING is the GPL-2.0 text" || bad "COPYING is the GPL-2.0 text"
	nospdx=$(git ls-files | grep -vE '\.(json|md)$|^COPYING$|^VERSION$|^vmlinux/|^\.gitignore$|^tests/schema-fixtures/|^tests/vm/probe/|^debian/changelog$|^debian/source/format$|^contrib/fstests/tests/.*\.out$' |
		while read -r f; do grep -q "SPDX-License-Identifier" "$f" || echo "$f"; done | xargs)
	[ -z "$nospdx" ] && ok "every tracked source file has an SPDX line" || bad "files without an SPDX line: $nospdx"
else
	skip spdx "not a git checkout"
fi

# the README is a front door: at most 300 lines, the rest in docs/ (a 301-line copy must fail)
readme_short() { [ "$(wc -l < "$1")" -le 300 ]; }
n=$(wc -l < README.md)
readme_short README.md && ok "README.md has $n lines (at most 300)" || bad "README.md has $n lines, more than 300"
{ cat README.md; yes ''; } | head -n 301 > "$T/readme-long.md"
readme_short "$T/readme-long.md" && bad "a README of $(wc -l < "$T/readme-long.md") lines fails the length check" \
	|| ok "a README of $(wc -l < "$T/readme-long.md") lines fails the length check"

# every relative link of README.md and docs/*.md leads to a file and heading that exist
python3 tests/doclinks.py check README.md docs/*.md > "$T/links.chk" 2>&1
tally doc-links "$T/links.chk"
python3 tests/doclinks.py selftest > "$T/links-self.chk" 2>&1
tally doc-links-selftest "$T/links-self.chk"
