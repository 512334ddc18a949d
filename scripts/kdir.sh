#!/bin/sh
# Print the kernel build directory to build vflash against.
#
# usage: scripts/kdir.sh [LINE]
#   LINE given (6.1, 6.12): the newest installed headers of that kernel
#   line, /usr/src/linux-headers-LINE.*-cloud-amd64 first, then any other
#   flavour of it (the running kernel's, if it is of that line, wins).
#   No LINE: the running kernel's build directory, or else the newest
#   headers of the default line, 6.1 (scripts/setup.sh installs them).
# Only headers that can build modules (have a Module.symvers) count.
set -u
line=${1:-}
run=/lib/modules/$(uname -r)/build
case "$line" in
'')
	if [ -e "$run/Makefile" ]; then
		echo "$run"
		exit 0
	fi
	line=6.1
	;;
*[!0-9.]*)
	echo "kdir.sh: not a kernel line: $line" >&2
	exit 2
	;;
esac
case "$(uname -r)" in
"$line".*|"$line"-*)
	if [ -e "$run/Makefile" ]; then
		echo "$run"
		exit 0
	fi
	;;
esac
# linux-headers-6.1.0-57-cloud-amd64, linux-headers-6.12.115+deb12-cloud-amd64
for flavour in -cloud-amd64 ''; do
	d=$(ls -d /usr/src/linux-headers-"$line".*"$flavour"/Module.symvers \
		/usr/src/linux-headers-"$line"-*"$flavour"/Module.symvers 2>/dev/null |
		sed 's,/Module.symvers$,,' | sort -V | tail -n 1)
	if [ -n "$d" ]; then
		echo "$d"
		exit 0
	fi
done
exit 0
