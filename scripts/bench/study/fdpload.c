// SPDX-License-Identifier: GPL-2.0
/*
 * fdpload: the multi-tenant write load of `make study-fdp` (docs/studies.md,
 * study-fdp), issued through NVMe passthrough so that each write can carry
 * an FDP placement identifier (fio 3.33, Debian 12's, has no FDP).
 *
 * usage: fdpload [--fdp] [--writes N] [--read-every K] [--seed S] NSDEV
 *
 * Three tenants share the namespace's LBAs and, with --fdp, write through
 * their own reclaim unit handle (DTYPE 2h, DSPEC = handle):
 *   hot  (handle 1): the first 10 % of the LBAs, random, 60 % of the writes
 *   warm (handle 2): the next 30 %, random, 30 % of the writes
 *   cold (handle 3): the last 60 %, sequential (wrapping), 10 % of the writes
 * Data of different lifetimes mixed in one erase block is the case that
 * makes GC copy: the hot data dies fast, the cold lives on beside it.
 * First every LBA is written once, in order, with its tenant's handle; then
 * N writes (default: twice the LBAs) pick a tenant by weight. Every K-th
 * operation (default 8; 0 none; not 1) is instead a 4 KiB read of a
 * random LBA, timed.
 * One thread, synchronous: the order is the seed's alone.
 *
 * Prints "key value" lines: the writes of each tenant (precondition
 * included) and the read latency percentiles in ns.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define BLOCK		4096u
#define NVME_WRITE	0x01
#define NVME_READ	0x02
#define DTYPE_FDP	2u

struct tenant {
	const char *name;
	unsigned int handle;
	uint64_t first, nr;	/* its LBAs */
	unsigned int weight;	/* % of the writes */
	int sequential;
	uint64_t next;		/* sequential: the next LBA, relative */
	uint64_t writes;
};

static struct tenant tenants[] = {
	{ "hot", 1, 0, 0, 60, 0, 0, 0 },
	{ "warm", 2, 0, 0, 30, 0, 0, 0 },
	{ "cold", 3, 0, 0, 10, 1, 0, 0 },
};

#define NR_TENANTS	(sizeof(tenants) / sizeof(tenants[0]))

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void die(const char *what)
{
	fprintf(stderr, "fdpload: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* One 4 KiB command; the NVMe status, or -1 with errno. */
static int io(int fd, unsigned int nsid, int opcode, uint64_t lba,
	      unsigned int handle, int fdp, void *buf)
{
	struct nvme_passthru_cmd cmd = {
		.opcode = opcode,
		.nsid = nsid,
		.addr = (uintptr_t)buf,
		.data_len = BLOCK,
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
	};

	if (opcode == NVME_WRITE && fdp) {
		cmd.cdw12 = DTYPE_FDP << 20;
		cmd.cdw13 = handle << 16;
	}
	return ioctl(fd, NVME_IOCTL_IO_CMD, &cmd);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void write_one(int fd, unsigned int nsid, struct tenant *t,
		      uint64_t rel, int fdp, void *buf)
{
	int st;

	memcpy(buf, &rel, sizeof(rel));
	st = io(fd, nsid, NVME_WRITE, t->first + rel, t->handle, fdp, buf);
	if (st < 0)
		die("write");
	if (st) {
		fprintf(stderr, "fdpload: write of LBA %llu: NVMe status %#x\n",
			(unsigned long long)(t->first + rel), st);
		exit(1);
	}
	t->writes++;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fdpload [--fdp] [--writes N] [--read-every K] [--seed S] NSDEV\n"
		"  --fdp           place each tenant's writes with its handle (1-3)\n"
		"  --writes N      writes after the precondition (default 2 x LBAs)\n"
		"  --read-every K  every K-th operation is a timed read (default 8; 0: none;\n"
		"                  not 1)\n"
		"  --seed S        the load's seed (default 1)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fdp", no_argument, NULL, 'f' },
		{ "writes", required_argument, NULL, 'w' },
		{ "read-every", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t lbas, writes = 0, i, nr_reads = 0, *lat, seed = 1, op = 0;
	unsigned int every = 8, t, nsid;
	int fd, c, fdp = 0;
	unsigned long long size;
	void *buf;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fdp = 1;
			break;
		case 'w':
			writes = strtoull(optarg, NULL, 0);
			break;
		case 'r':
			every = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || every == 1)
		usage();
	fd = open(argv[optind], O_RDWR);
	if (fd < 0)
		die(argv[optind]);
	c = ioctl(fd, NVME_IOCTL_ID);
	if (c <= 0)
		die("NVME_IOCTL_ID (not an NVMe namespace?)");
	nsid = c;
	size = lseek(fd, 0, SEEK_END);
	if ((off_t)size < 0)
		die("lseek");
	lbas = size / BLOCK;
	if (lbas < 100) {
		fprintf(stderr, "fdpload: %s: too small\n", argv[optind]);
		return 1;
	}
	if (!writes)
		writes = 2 * lbas;
	rng_state ^= seed * 0x9e3779b97f4a7c15ull;
	tenants[0].nr = lbas / 10;
	tenants[1].first = tenants[0].nr;
	tenants[1].nr = lbas * 3 / 10;
	tenants[2].first = tenants[1].first + tenants[1].nr;
	tenants[2].nr = lbas - tenants[2].first;
	if (posix_memalign(&buf, BLOCK, BLOCK))
		return 1;
	memset(buf, 0xa5, BLOCK);
	/* Of every K operations, K - 1 are writes. */
	lat = calloc(every ? writes / (every - 1) + 1 : 1, sizeof(*lat));
	if (!lat)
		return 1;

	for (t = 0; t < NR_TENANTS; t++)
		for (i = 0; i < tenants[t].nr; i++)
			write_one(fd, nsid, &tenants[t], i, fdp, buf);

	for (i = 0; i < writes; op++) {
		unsigned int pick = rnd() % 100, acc = 0;
		struct tenant *tn = NULL;

		if (every && op % every == every - 1) {
			uint64_t t0 = now_ns();

			if (io(fd, nsid, NVME_READ, rnd() % lbas, 0, 0, buf))
				die("read");
			lat[nr_reads++] = now_ns() - t0;
			continue;
		}
		for (t = 0; t < NR_TENANTS && !tn; t++) {
			acc += tenants[t].weight;
			if (pick < acc)
				tn = &tenants[t];
		}
		if (tn->sequential) {
			write_one(fd, nsid, tn, tn->next, fdp, buf);
			tn->next = (tn->next + 1) % tn->nr;
		} else {
			write_one(fd, nsid, tn, rnd() % tn->nr, fdp, buf);
		}
		i++;
	}

	printf("lbas %llu\n", (unsigned long long)lbas);
	for (t = 0; t < NR_TENANTS; t++)
		printf("writes_%s %llu\n", tenants[t].name,
		       (unsigned long long)tenants[t].writes);
	printf("reads %llu\n", (unsigned long long)nr_reads);
	if (nr_reads) {
		qsort(lat, nr_reads, sizeof(*lat), cmp_u64);
		printf("read_p50_ns %llu\n",
		       (unsigned long long)lat[nr_reads / 2]);
		printf("read_p99_ns %llu\n",
		       (unsigned long long)lat[nr_reads * 99 / 100]);
		printf("read_p999_ns %llu\n",
		       (unsigned long long)lat[nr_reads * 999 / 1000]);
	}
	free(lat);
	free(buf);
	close(fd);
	return 0;
}
