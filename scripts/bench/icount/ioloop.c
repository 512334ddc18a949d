// SPDX-License-Identifier: GPL-2.0
/*
 * ioloop: the guest side of `make bench-icount` (docs/performance.md):
 * N synchronous 4 KiB O_DIRECT reads or writes at random 4 KiB offsets of
 * DEV (QD1, one thread), between two markers `xchg %bx,%bx` that the
 * icount.so QEMU plugin turns into snapshots of its instruction counts.
 * With --mark it only executes one marker.
 *
 * usage: ioloop read|write DEV BYTES N [SEED]
 *        ioloop --mark
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void mark(void)
{
	__asm__ __volatile__("xchg %%bx, %%bx" ::: "memory");
}

int main(int argc, char **argv)
{
	uint64_t state, blocks, i, n;
	int fd, wr;
	void *buf;

	if (argc == 2 && !strcmp(argv[1], "--mark")) {
		mark();
		return 0;
	}
	if (argc < 5 || (strcmp(argv[1], "read") && strcmp(argv[1], "write"))) {
		fprintf(stderr, "usage: ioloop read|write DEV BYTES N [SEED]\n"
			"       ioloop --mark\n");
		return 2;
	}
	wr = !strcmp(argv[1], "write");
	blocks = strtoull(argv[3], NULL, 0) / 4096;
	n = strtoull(argv[4], NULL, 0);
	state = argc > 5 ? strtoull(argv[5], NULL, 0) : 1;
	state = state * 0x9e3779b97f4a7c15ull | 1;
	fd = open(argv[2], (wr ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0 || !blocks || posix_memalign(&buf, 4096, 4096)) {
		perror(argv[2]);
		return 1;
	}
	memset(buf, 0x5a, 4096);
	mark();
	for (i = 0; i < n; i++) {
		off_t off;
		ssize_t r;

		state ^= state << 13;
		state ^= state >> 7;
		state ^= state << 17;
		off = (off_t)(state % blocks) * 4096;
		r = wr ? pwrite(fd, buf, 4096, off) : pread(fd, buf, 4096, off);
		if (r != 4096) {
			perror(wr ? "pwrite" : "pread");
			return 1;
		}
	}
	mark();
	close(fd);
	return 0;
}
