#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest-fio.sh DIR: build the fio that the test VM carries into
# DIR/fio (run by scripts/setup.sh; docs/develop/testing.md, "The guest's fio").
#
# It is Debian's own fio, the version installed on the host, from its
# Debian source package (Debian's patches applied), built static and
# without the engines that need other libraries (Ceph, Gluster, RDMA,
# NFS, PMDK, ...), which no suite uses. Debian's binary loads 64 shared
# libraries on every start: 0.7 s a run in the Debian kernel's VM, and
# 6 s under the debug kernel (KASAN and lockdep on every mmap and page
# fault), which the VM suites pay a few hundred times over.
#
# The source comes through apt, from the same archive as the machine's
# packages (a deb-src entry in a private list; the machine's own apt
# configuration is not touched). DIR/.version records the Debian
# version built, so that setup.sh rebuilds when fio is upgraded.
set -euo pipefail

dir=$1
ver=$(dpkg-query -W -f='${Version}' fio)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# The archive that fio's binary package comes from, and the release.
deburi=$(apt-get --print-uris -qq download "fio=$ver" | sed -n "s/^'\([^']*\)'.*/\1/p")
base=${deburi%%/pool/*}
if [ -z "$base" ] || [ "$base" = "$deburi" ]; then
	echo "guest-fio: cannot tell where fio $ver comes from" >&2
	exit 1
fi
. /etc/os-release
mkdir -p "$tmp/lists/partial" "$tmp/parts"
printf "deb-src %s %s main\n" "$base" "$VERSION_CODENAME" \
	"$base" "$VERSION_CODENAME-updates" >"$tmp/sources.list"
aptopts=(-o "Dir::Etc::SourceList=$tmp/sources.list"
	-o "Dir::Etc::SourceParts=$tmp/parts"
	-o "Dir::State::Lists=$tmp/lists" -o "APT::Get::List-Cleanup=0")
apt-get "${aptopts[@]}" update -qq
(cd "$tmp" && apt-get "${aptopts[@]}" source -qq --download-only "fio=$ver")
# apt checked the files against the archive's signed index; dpkg-source
# has no keyring for the .dsc's own signature and would only say so.
dpkg-source -x "$tmp"/fio_*.dsc "$tmp/src" >"$tmp/unpack.log" 2>&1 || {
	cat "$tmp/unpack.log" >&2
	exit 1
}

cd "$tmp/src"
./configure --build-static --disable-native --disable-numa --disable-rdma \
	--disable-rados --disable-rbd --disable-http --disable-gfapi \
	--disable-libnfs --disable-pmem --disable-xnvme --disable-libzbc \
	--disable-tcmalloc --disable-dfs >"$tmp/configure.log" 2>&1 || {
	cat "$tmp/configure.log" >&2
	exit 1
}
# The engines the suites use must be there.
grep -q '^Linux AIO support *yes' "$tmp/configure.log" || {
	echo "guest-fio: no libaio (libaio-dev missing?)" >&2
	exit 1
}
make -j"$(nproc)" fio >"$tmp/make.log" 2>&1 || {
	tail -n 30 "$tmp/make.log" >&2
	exit 1
}
./fio --enghelp | grep -qw io_uring_cmd || {
	echo "guest-fio: the build has no io_uring_cmd engine" >&2
	exit 1
}
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
cp fio "$dir.tmp/fio"
echo "$ver" >"$dir.tmp/.version"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "guest-fio: fio $ver, static, in $dir"
