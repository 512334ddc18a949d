#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prep.sh DIR: build the icount.so QEMU plugin into DIR (the
# "# vmtest-prep:" step of scripts/bench/vm/bench-icount.sh).
set -euo pipefail
dir=${1:?usage: prep.sh DIR}
cc -O2 -Wall -Wextra -shared -fPIC -pthread -o "$dir/icount.so" \
	"$(dirname "$0")/icount.c"
