// SPDX-License-Identifier: GPL-2.0
/*
 * imgpatch FILE OFFSET VALUE: write VALUE, a 32-bit little-endian word,
 * at OFFSET of the vflash image FILE's header (its first 4 KiB), and put
 * the header's checksum right again (docs/design/image.md), so that a VM
 * test can make an image that lies about one field and passes the
 * checksum. Exit status 0, or 1 with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HDR_BYTES	4096
#define CRC_AT		28

/* zlib's crc32: reflected, polynomial 0xEDB88320, ~0 in and out. */
static uint32_t crc32(const unsigned char *p, size_t n)
{
	uint32_t c = ~0U;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c >> 1 ^ (0xEDB88320U & -(c & 1));
	}
	return ~c;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

int main(int argc, char **argv)
{
	unsigned char h[HDR_BYTES];
	unsigned long off;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: imgpatch FILE OFFSET VALUE\n");
		return 1;
	}
	off = strtoul(argv[2], NULL, 0);
	if (off > HDR_BYTES - 4 || (off < CRC_AT + 4 && off + 4 > CRC_AT)) {
		fprintf(stderr, "imgpatch: offset %lu: not a header field\n", off);
		return 1;
	}
	f = fopen(argv[1], "r+b");
	if (!f || fread(h, 1, HDR_BYTES, f) != HDR_BYTES) {
		perror("imgpatch");
		return 1;
	}
	put32(h + off, strtoul(argv[3], NULL, 0));
	put32(h + CRC_AT, 0);
	put32(h + CRC_AT, crc32(h, HDR_BYTES));
	if (fseek(f, 0, SEEK_SET) || fwrite(h, 1, HDR_BYTES, f) != HDR_BYTES ||
	    fclose(f)) {
		perror("imgpatch");
		return 1;
	}
	return 0;
}
