// SPDX-License-Identifier: GPL-2.0
/*
 * plcheck: writes to a block device under load until its power is cut,
 * remembering what was acknowledged, flushed and written with FUA, then
 * checks what the device holds after it came back (the VM suite
 * scripts/vm/suites/powercut.sh, docs/faults.md).
 *
 *   load DEV STATE [-p PAGES] [-t THREADS] [-f FUA_PCT] [-F FLUSH_MS]
 *	[-s SECONDS]
 *	THREADS writers (default 4) each own every THREADS-th of the first
 *	PAGES blocks (default 4096) and rewrite random ones of theirs with
 *	O_DIRECT, FUA_PCT % of them (default 10) also O_DSYNC (on a block
 *	device the kernel sends those with FUA and then a flush); a flusher
 *	calls fsync() every FLUSH_MS ms (default 20). Each block written
 *	carries its number, a sequence number and a checksum. Runs until a
 *	write fails (the power was cut) or SECONDS pass (default 60), then
 *	writes STATE: per block, the last sequence number issued, the last
 *	acknowledged, the last acknowledged before a completed flush
 *	started, and the last acknowledged FUA write.
 *   verify DEV STATE [plp]
 *	Every block must hold a well-formed record of itself (or zeros if it
 *	was never durably written) whose sequence number is at least that
 *	of its last flushed or FUA write (with plp: its last acknowledged
 *	write) and at most the last issued. Prints how many acknowledged
 *	writes were lost (allowed without plp) and exits 1 on a violation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLK		4096
#define MAGIC		0x706c636b5f763121ULL	/* "plck_v1!" */
#define MAX_THREADS	64

struct rec {
	uint64_t magic;
	uint64_t lba;
	uint64_t seq;
	uint64_t sum;
};

/* Per block; seq 0 means none. */
struct blk_state {
	_Atomic uint64_t issued;
	_Atomic uint64_t acked;
	uint64_t flushed;
	_Atomic uint64_t fua;
};

static struct blk_state *st;
static uint64_t nr_pages = 4096;
static unsigned int nr_threads = 4, fua_pct = 10, flush_ms = 20;
static unsigned int seconds = 60;
static int fd_direct, fd_dsync;
static atomic_bool stop;
static atomic_ulong writes_done, flushes_done;

static void die(const char *msg)
{
	perror(msg);
	exit(2);
}

static uint64_t sum_of(const unsigned char *buf)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = offsetof(struct rec, sum) + 8; i < BLK; i++)
		h = (h ^ buf[i]) * 1099511628211ULL;
	return h;
}

static void fill(unsigned char *buf, uint64_t lba, uint64_t seq)
{
	struct rec *r = (struct rec *)buf;
	uint64_t x = lba * 0x9e3779b97f4a7c15ULL ^ seq;
	size_t i;

	for (i = sizeof(*r); i < BLK; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[i] = x >> 56;
	}
	r->magic = MAGIC;
	r->lba = lba;
	r->seq = seq;
	r->sum = sum_of(buf);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void *writer(void *arg)
{
	unsigned int id = (uintptr_t)arg;
	uint64_t seed = 0x1234567ULL * (id + 1), mine, lba, seq;
	unsigned char *buf;

	if (posix_memalign((void **)&buf, BLK, BLK))
		return NULL;
	mine = (nr_pages - id + nr_threads - 1) / nr_threads;
	while (!atomic_load(&stop)) {
		bool fua = rnd(&seed) % 100 < fua_pct;

		lba = id + (rnd(&seed) % mine) * nr_threads;
		seq = atomic_load(&st[lba].issued) + 1;
		atomic_store(&st[lba].issued, seq);
		fill(buf, lba, seq);
		if (pwrite(fua ? fd_dsync : fd_direct, buf, BLK,
			   (off_t)lba * BLK) != BLK) {
			atomic_store(&stop, true);
			break;
		}
		atomic_store(&st[lba].acked, seq);
		if (fua)
			atomic_store(&st[lba].fua, seq);
		atomic_fetch_add(&writes_done, 1);
	}
	free(buf);
	return NULL;
}

/* A flush covers the writes acknowledged before it was sent. */
static void *flusher(void *arg)
{
	uint64_t *snap = calloc(nr_pages, sizeof(*snap)), i;
	struct timespec ts = { flush_ms / 1000, flush_ms % 1000 * 1000000L };

	(void)arg;
	if (!snap)
		return NULL;
	while (!atomic_load(&stop)) {
		nanosleep(&ts, NULL);
		for (i = 0; i < nr_pages; i++)
			snap[i] = atomic_load(&st[i].acked);
		if (fsync(fd_direct)) {
			atomic_store(&stop, true);
			break;
		}
		for (i = 0; i < nr_pages; i++)
			if (snap[i] > st[i].flushed)
				st[i].flushed = snap[i];
		atomic_fetch_add(&flushes_done, 1);
	}
	free(snap);
	return NULL;
}

static int load(int argc, char **argv)
{
	pthread_t th[MAX_THREADS + 1];
	time_t end;
	unsigned int i;
	FILE *out;
	int opt;

	optind = 4;
	while ((opt = getopt(argc, argv, "p:t:f:F:s:")) != -1) {
		switch (opt) {
		case 'p': nr_pages = strtoull(optarg, NULL, 0); break;
		case 't': nr_threads = atoi(optarg); break;
		case 'f': fua_pct = atoi(optarg); break;
		case 'F': flush_ms = atoi(optarg); break;
		case 's': seconds = atoi(optarg); break;
		default: return 2;
		}
	}
	if (!nr_pages || !nr_threads || nr_threads > MAX_THREADS ||
	    nr_threads > nr_pages)
		return 2;
	st = calloc(nr_pages, sizeof(*st));
	fd_direct = open(argv[2], O_WRONLY | O_DIRECT);
	fd_dsync = open(argv[2], O_WRONLY | O_DIRECT | O_DSYNC);
	if (!st || fd_direct < 0 || fd_dsync < 0)
		die(argv[2]);
	for (i = 0; i < nr_threads; i++)
		pthread_create(&th[i], NULL, writer, (void *)(uintptr_t)i);
	pthread_create(&th[nr_threads], NULL, flusher, NULL);
	end = time(NULL) + seconds;
	while (!atomic_load(&stop) && time(NULL) < end)
		usleep(10000);
	atomic_store(&stop, true);
	for (i = 0; i <= nr_threads; i++)
		pthread_join(th[i], NULL);
	out = fopen(argv[3], "w");
	if (!out)
		die(argv[3]);
	fprintf(out, "%llu\n", (unsigned long long)nr_pages);
	for (i = 0; i < nr_pages; i++)
		fprintf(out, "%llu %llu %llu %llu\n",
			(unsigned long long)st[i].issued,
			(unsigned long long)st[i].acked,
			(unsigned long long)st[i].flushed,
			(unsigned long long)st[i].fua);
	fclose(out);
	printf("load: %lu writes, %lu flushes, stopped by %s\n",
	       atomic_load(&writes_done), atomic_load(&flushes_done),
	       time(NULL) < end ? "a failed write or flush" : "the clock");
	return 0;
}

static int verify(int argc, char **argv)
{
	unsigned long long issued, acked, flushed, fua, n, lost = 0, bad = 0;
	bool plp = argc > 4 && !strcmp(argv[4], "plp");
	unsigned char *buf, zero[BLK] = { 0 };
	struct rec *r;
	uint64_t i, need;
	FILE *in;
	int fd;

	in = fopen(argv[3], "r");
	fd = open(argv[2], O_RDONLY | O_DIRECT);
	if (!in || fd < 0 || fscanf(in, "%llu", &n) != 1 ||
	    posix_memalign((void **)&buf, BLK, BLK))
		die("verify");
	r = (struct rec *)buf;
	for (i = 0; i < n; i++) {
		if (fscanf(in, "%llu %llu %llu %llu", &issued, &acked, &flushed,
			   &fua) != 4)
			die("state file");
		if (pread(fd, buf, BLK, (off_t)i * BLK) != BLK)
			die("pread");
		need = plp ? acked : (flushed > fua ? flushed : fua);
		if (!memcmp(buf, zero, BLK)) {
			if (need) {
				printf("block %llu: zeros, wanted seq >= %llu\n",
				       (unsigned long long)i,
				       (unsigned long long)need);
				bad++;
			}
			lost += acked > 0;
			continue;
		}
		if (r->magic != MAGIC || r->lba != i || r->sum != sum_of(buf) ||
		    r->seq > issued || r->seq < need) {
			printf("block %llu: magic %d lba %llu seq %llu sum %d; issued %llu acked %llu flushed %llu fua %llu\n",
			       (unsigned long long)i, r->magic == MAGIC,
			       (unsigned long long)r->lba,
			       (unsigned long long)r->seq,
			       r->sum == sum_of(buf), issued, acked, flushed,
			       fua);
			bad++;
			continue;
		}
		lost += r->seq < acked;
	}
	printf("verify: %llu blocks, %llu acknowledged writes lost, %llu violations%s\n",
	       n, lost, bad, plp ? " (plp)" : "");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc >= 4 && !strcmp(argv[1], "load"))
		rc = load(argc, argv);
	else if (argc >= 4 && !strcmp(argv[1], "verify"))
		rc = verify(argc, argv);
	if (rc == 2)
		fprintf(stderr, "usage: plcheck load DEV STATE [-p PAGES] [-t THREADS] [-f FUA_PCT] [-F FLUSH_MS] [-s SECONDS] | verify DEV STATE [plp]\n");
	return rc;
}
