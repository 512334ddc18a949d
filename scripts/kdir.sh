#!/bin/sh
# Print the kernel build directory to build vflash against: the running
# kernel's, or else the newest installed /usr/src/linux-headers-* that can
# build modules (has a Module.symvers).
set -u
d=/lib/modules/$(uname -r)/build
if [ -e "$d/Makefile" ]; then
	echo "$d"
	exit 0
fi
ls -d /usr/src/linux-headers-*/Module.symvers 2>/dev/null |
	sed 's,/Module.symvers$,,' | sort -V | tail -n 1
