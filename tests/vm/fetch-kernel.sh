#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fetch-kernel.sh - download and unpack a Debian linux-image package.
#
# usage: fetch-kernel.sh SUITE PACKAGE-PATTERN
#   SUITE            e.g. trixie, trixie-backports, trixie-security
#   PACKAGE-PATTERN  extended regex matched against the whole package name,
#                    e.g. 'linux-image-6.18.*-cloud-amd64'
#
# Uses a private apt configuration (own sources list, lists, caches) so the
# host's apt state is never touched.  The mirror URI is read at run time from
# the host's bookworm entry in /etc/apt/sources.list.d/*.sources or
# /etc/apt/sources.list; for SUITE=<x>-<suffix> the host's bookworm-<suffix>
# entry is preferred (e.g. -security lives on a different URI).
#
# The newest matching package is downloaded into $MGTRACE_VM_CACHE
# (default /var/cache/mgtrace-vm)/debs unless already present, and unpacked
# into $MGTRACE_VM_CACHE/root/<package>_<version>/.  From 6.19 on, Debian
# splits a kernel into linux-image-* (an empty meta package), linux-binary-*
# (usr/lib/modules/<release>/vmlinuz) and linux-modules-*; the two are taken
# from the image's Depends with the exact version it names (= v).  A missing
# linux-binary-* is an error; a linux-modules-* absent from the suite is not:
# the kernel is unpacked without modules and that is recorded.
# On success prints that directory on stdout.  It contains:
#   vmlinuz       a symlink to the kernel image (boot/vmlinuz-* or
#                 usr/lib/modules/<release>/vmlinuz)
#   kernel.info   what was chosen, one "key value" a line: image, binary,
#                 modules (NAME=VERSION, or "none <why>"), release
# and the modules under (usr/)lib/modules/<release>/kernel when present.
# The choice is also reported on stderr ("fetch-kernel: chose ...").
# MGTRACE_VM_ARCH (default amd64) is the Debian architecture of the kernel
# (arm64 for the qemu-system-aarch64 guests); a foreign architecture has its
# own private apt tree ($MGTRACE_VM_CACHE/apt/<suite>-<arch>).
# Index files are refreshed when older than MGTRACE_VM_REFRESH minutes
# (default 720).  An index whose Release file has expired (a frozen
# snapshot mirror, seen for sid) is used with a warning: its signature is
# still checked, only its Valid-Until date is not.
set -eu

[ $# -eq 2 ] || { echo "usage: $0 SUITE PACKAGE-PATTERN" >&2; exit 2; }
suite=$1 pattern=$2
cache=${MGTRACE_VM_CACHE:-/var/cache/mgtrace-vm}
refresh=${MGTRACE_VM_REFRESH:-720}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
arch=${MGTRACE_VM_ARCH:-amd64}
case $arch in amd64|arm64) ;; *) echo "fetch-kernel: MGTRACE_VM_ARCH=$arch: only amd64 and arm64" >&2; exit 2 ;; esac
die() { echo "fetch-kernel: $*" >&2; exit 1; }
[ -r "$keyring" ] || die "missing $keyring (install debian-archive-keyring)"

# uri_for HOSTSUITE: print the first URI of the host entry serving HOSTSUITE.
uri_for() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v s="$1" 'BEGIN { RS = "" }
		    { u = ""; ok = 0; n = split($0, l, "\n")
		      for (i = 1; i <= n; i++) {
		        if (l[i] ~ /^[ \t]*#/) continue
		        if (l[i] ~ /^URIs:/)   { split(l[i], w); u = w[2] }
		        if (l[i] ~ /^Suites:/) { m = split(l[i], w)
		          for (j = 2; j <= m; j++) if (w[j] == s) ok = 1 }
		        if (l[i] ~ /^Types:/ && l[i] !~ /[ \t]deb([ \t]|$)/) { ok = -9 }
		      }
		      if (ok == 1 && u != "") { print u; exit } }' "$f"
	done
	[ -r /etc/apt/sources.list ] &&
	    sed -e 's/\[[^]]*\]//' /etc/apt/sources.list |
	    awk -v s="$1" '$1 == "deb" && $3 == s { print $2; exit }'
}
suffix=; case $suite in *-*) suffix=-${suite#*-} ;; esac
uri=$(uri_for "bookworm$suffix" | head -n1)
[ -n "$uri" ] || uri=$(uri_for bookworm | head -n1)
[ -n "$uri" ] || die "no bookworm entry with a URI in /etc/apt/sources.list{,.d/*.sources}"

# Private apt tree, one per suite; one fetch at a time per suite (vm-test.sh runs
# kernels in parallel: two fetches of one suite would share these files).
apt=$cache/apt/$suite
[ "$arch" = amd64 ] || apt=$apt-$arch
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/parts" "$cache/debs" "$cache/root"
exec 9> "$apt.lock"
flock 9 || die "cannot lock $apt.lock"
echo "deb [signed-by=$keyring] $uri $suite main" > "$apt/sources.list.new"
cmp -s "$apt/sources.list.new" "$apt/sources.list" 2>/dev/null ||
	{ mv "$apt/sources.list.new" "$apt/sources.list"; rm -f "$apt/stamp"; }
rm -f "$apt/sources.list.new"
: > "$apt/status"
cat > "$apt/apt.conf" <<CONF
Dir::Etc::sourcelist "$apt/sources.list";
Dir::Etc::sourceparts "$apt/parts";
Dir::Etc::parts "$apt/parts";
Dir::Etc::preferencesparts "$apt/parts";
Dir::Etc::main "/dev/null";
Dir::State "$apt";
Dir::State::lists "$apt/lists";
Dir::State::status "$apt/status";
Dir::Cache "$apt";
Dir::Cache::archives "$apt/archives";
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
Acquire::Languages "none";
APT::Sandbox::User "root";
CONF
export APT_CONFIG="$apt/apt.conf"

if [ -z "$(find "$apt/stamp" -mmin -"$refresh" 2>/dev/null)" ]; then
	if apt-get -q update >"$apt/update.log" 2>&1 &&
	    ! grep -q '^[WE]:' "$apt/update.log"; then
		touch "$apt/stamp"
	elif grep -q 'Release file .* is expired' "$apt/update.log" &&
	    apt-get -q -o Acquire::Check-Valid-Until=false update >"$apt/update.log" 2>&1 &&
	    ! grep -q '^E:' "$apt/update.log"; then
		echo "fetch-kernel: warning: the Release file of $suite has expired (a snapshot" \
			"mirror?); using it, its signature checked but not its Valid-Until date" >&2
		touch "$apt/stamp"
	elif ls "$apt/lists/"*_Packages* >/dev/null 2>&1; then
		echo "fetch-kernel: warning: apt-get update for $suite failed, using stale index" >&2
	else
		cat "$apt/update.log" >&2
		die "could not fetch the package index of $suite from $uri"
	fi
fi

# Newest version of the packages whose whole name matches the regex.
names=$(apt-cache pkgnames linux-image- | grep -Ex -- "$pattern" |
	grep -Ev -- '-(dbg|unsigned)$' || true)
[ -n "$names" ] || die "no package matching '^$pattern\$' in $suite ($uri)"
best=; bestv=
# shellcheck disable=SC2086 # $names is a word list
for pv in $(apt-cache show $names | awk '/^Package:/ { p = $2 } /^Version:/ { print p "=" $2 }'); do
	v=${pv#*=}
	if [ -z "$bestv" ] || dpkg --compare-versions "$v" gt "$bestv"; then
		best=${pv%%=*} bestv=$v
	fi
done
[ -n "$best" ] || die "no installable version of $names in $suite"

# fetch NAME VERSION: download NAME=VERSION unless cached; print the .deb path.
fetch() {
	deb=$cache/debs/${1}_${2}_$arch.deb
	if [ ! -s "$deb" ]; then
		echo "fetch-kernel: downloading $1=$2 from $suite" >&2
		tmp=$(mktemp -d "$cache/debs/dl.XXXXXX")
		(cd "$tmp" && apt-get -q download "$1=$2" >&2) ||
			{ rm -rf "$tmp"; die "could not fetch $1=$2 from $suite ($uri)"; }
		mv "$tmp"/*.deb "$deb" && rmdir "$tmp"
	fi
	echo "$deb"
}

# available NAME VERSION: true when the suite's index has NAME=VERSION.
available() {
	apt-cache madison "$1" 2>/dev/null | awk -F' *[|] *' -v v="$2" '$2 == v { f = 1 } END { exit !f }'
}

# Unpack the image package plus, for kernels >= 6.19 where Debian split it,
# the linux-binary-* (vmlinuz) and linux-modules-* packages it depends on, at
# exactly the version the image names.
root=$cache/root/${best}_$bestv
if [ ! -e "$root/.done" ] || [ ! -e "$root/vmlinuz" ] || [ ! -s "$root/kernel.info" ]; then
	rm -rf "$root"; mkdir -p "$root"
	deb=$(fetch "$best" "$bestv")
	debs=$deb
	info="image $best=$bestv"
	split=0 mods=
	for dep in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' |
	    sed -n 's/^ *\(linux-\(binary\|modules\)-[^ ]*\) (= \(.*\))$/\1=\3/p'); do
		n=${dep%%=*} v=${dep#*=}
		case $n in
		linux-binary-*)
			split=1
			available "$n" "$v" || die "$best=$bestv needs $n=$v, which $suite does not have"
			debs="$debs $(fetch "$n" "$v")"
			info="$info
binary $n=$v" ;;
		linux-modules-*)
			if available "$n" "$v"; then
				debs="$debs $(fetch "$n" "$v")"
				mods="$n=$v"
			else
				mods="none: $n=$v is not in $suite"
			fi ;;
		esac
	done
	[ "$split" = 1 ] || info="$info
binary (in the image package)"
	for deb in $debs; do
		dpkg-deb -x "$deb" "$root" || die "could not unpack $deb"
	done
	k=$(ls "$root"/boot/vmlinuz-* "$root"/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n1) ||
		true
	[ -n "$k" ] || die "no boot/vmlinuz-* or usr/lib/modules/*/vmlinuz in $debs"
	# the release the kernel was built as: boot/vmlinuz-<rel> or usr/lib/modules/<rel>/vmlinuz
	case $k in
	*/boot/vmlinuz-*) rel=${k##*/vmlinuz-} ;;
	*) rel=$(basename "$(dirname "$k")") ;;
	esac
	if [ -z "$mods" ]; then
		mods="(in the image package)"
	fi
	# modules must be built for that very release
	nmod=0
	for d in "$root"/lib/modules/*/kernel "$root"/usr/lib/modules/*/kernel; do
		[ -d "$d" ] || continue
		nmod=$((nmod + 1))
		[ "$(basename "$(dirname "$d")")" = "$rel" ] ||
			die "modules in $d are not for the kernel's release $rel"
	done
	if [ "$nmod" = 0 ] && [ "${mods#none}" = "$mods" ]; then
		die "$best=$bestv: no modules for $rel in $debs"
	fi
	ln -s "${k#"$root"/}" "$root/vmlinuz"
	printf '%s\nmodules %s\nrelease %s\n' "$info" "$mods" "$rel" > "$root/kernel.info"
	touch "$root/.done"
fi
echo "fetch-kernel: chose $suite: $(tr '\n' ';' < "$root/kernel.info" | sed 's/;$//; s/;/; /g')" >&2
echo "$root"
