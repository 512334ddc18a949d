// SPDX-License-Identifier: GPL-2.0
/*
 * mkzonefs: format a zoned block device for zonefs, as the VM suite zns
 * needs it (Debian 12 has no zonefs-tools). zonefs keeps one 4 KiB
 * super block at the start of the device's first zone: its magic, a
 * CRC-32 (the kernel's crc32_le, seed ~0, no final inversion) computed
 * with the CRC field zero, a label, a UUID and feature flags (none set:
 * files get uid 0, gid 0, mode 0640). Every other zone becomes a file.
 *
 *   mkzonefs DEV [LABEL]
 *	Resets the first zone (the caller resets the others if it wants them
 *	empty), then writes the super block at its write pointer with
 *	O_DIRECT. Exit 0 on success, 1 on a failure (a message says which).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SUPER_BYTES	4096
#define ZONEFS_MAGIC	0x5a4f4653
#define LABEL_OFF	8
#define LABEL_LEN	64
#define UUID_OFF	(LABEL_OFF + LABEL_LEN)
#define UUID_LEN	16

/* The kernel's crc32_le(~0, ...): reflected polynomial, no final xor. */
static uint32_t crc32_le(uint32_t crc, const uint8_t *p, size_t n)
{
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return crc;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

int main(int argc, char **argv)
{
	struct blk_zone_range first;
	unsigned int zone_sectors;
	uint8_t *sb;
	int fd, i;

	if (argc < 2 || argc > 3 || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "--help")) {
		fprintf(stderr, "usage: mkzonefs DEV [LABEL]\n");
		return argc < 2 || argc > 3 ? 2 : 0;
	}
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (ioctl(fd, BLKGETZONESZ, &zone_sectors) || !zone_sectors) {
		fprintf(stderr, "mkzonefs: %s is not a zoned device\n", argv[1]);
		return 1;
	}
	first.sector = 0;
	first.nr_sectors = zone_sectors;
	if (ioctl(fd, BLKRESETZONE, &first)) {
		perror("mkzonefs: resetting the first zone");
		return 1;
	}
	if (posix_memalign((void **)&sb, SUPER_BYTES, SUPER_BYTES))
		return 1;
	memset(sb, 0, SUPER_BYTES);
	put_le32(sb, ZONEFS_MAGIC);
	strncpy((char *)sb + LABEL_OFF, argc > 2 ? argv[2] : "vflash",
		LABEL_LEN - 1);
	srand(getpid());
	for (i = 0; i < UUID_LEN; i++)
		sb[UUID_OFF + i] = rand();
	put_le32(sb + 4, crc32_le(~0U, sb, SUPER_BYTES));
	if (pwrite(fd, sb, SUPER_BYTES, 0) != SUPER_BYTES || fsync(fd)) {
		perror("mkzonefs: writing the super block");
		return 1;
	}
	close(fd);
	free(sb);
	return 0;
}
