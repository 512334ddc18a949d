// SPDX-License-Identifier: GPL-2.0
/*
 * mmap_lat: per-access latency of memory reached through mmap, for
 * comparing the CXL frontend's /dev/vflash0 with plain devdax and with
 * anonymous memory in one run.
 *
 * Each thread makes --accesses loads (or stores) at 4 KiB stride, one
 * 8-byte word per page at a line offset of its own, over a working set of
 * --ws bytes at the start of the mapping: random pages (rand), a random
 * cyclic pointer chase through the pages (chase: each load's address
 * comes from the previous load), or in order (seq). Each access is timed
 * with CLOCK_MONOTONIC; the histogram is log-linear (16 steps per power of
 * two), so percentiles are within 1/16 of the true value.
 *
 * --ws takes bytes (K, M, G suffixes) or a percentage of the device's
 * DRAM cache, "50%": the cache size is --cache BYTES or, when that is not
 * given and the target is /dev/vflashN, the cache_size= the module was
 * loaded with (/sys/module/vflash/parameters/cache_size; there is no
 * default to guess from, so a load without cache_size= needs --cache).
 * The working set is rounded down to whole pages.
 *
 * --first-touch: no warm-up, each page of the working set is accessed
 * exactly once in random order (the threads split the pages): every access
 * is a first touch, i.e. a page fault in a fresh mapping.
 *
 * --untimed: no clock reads around each access, so that mops is the
 * throughput of the accesses alone (for comparing hit paths); the
 * percentiles and the mean are then 0 and --cdf is refused.
 *
 * Two more patterns, for the CXL study (scripts/bench/study/cxl.sh):
 * --mode zipf: random pages drawn from a Zipf distribution of exponent
 * --zipf THETA (default 0.99) over the working set's pages, the ranks
 * scattered over the pages by a seeded shuffle (so that popular pages
 * are not neighbours; --perm-seed S seeds that shuffle apart from the
 * draws, so that runs with different --seed share their hot pages);
 * --mode stride: a strided scan, --stride K pages
 * (default 8): pages 0, K, 2K, ... to the end of the working set, then
 * 1, 1+K, ..., so that each pass touches every page once.
 * --write-pct P: each access of the timed loop and of --warm-accesses
 * is a store with probability P percent (the others loads); --write
 * makes every access a store, as before.
 * --warm-accesses N: after the warm-up's pass over every page (unless
 * --no-warm), N more untimed accesses of the pattern itself (the timed
 * loop goes on from where they stopped), so that the cache reaches the
 * pattern's steady state.
 * --reset FILE: after the warm-up, before the timed loop, write "0" to
 * FILE (e.g. /sys/class/vflash/vflash0/stats/reset), so that the
 * device's counters cover the timed accesses only.
 * --mincore: after the timed loop, count the working set's pages that
 * have a present PTE in this process (mincore()) and print present_pages=
 * (on /dev/vflash0, never more than the cache's resident pages).
 * --mark: the main thread executes the marker instruction `xchg %bx,%bx`
 * right before it lets the threads start their timed loops and again
 * after it has joined them, so that the icount.so QEMU plugin
 * (scripts/bench/icount/) snapshots its counts around the timed loop.
 * --seed S seeds every random choice (pages, stores, the chase, the
 * shuffles; mmap_lat sets its low bit, so 2 and 3 are the same seed);
 * the same seed gives the same sequence of accesses.
 *
 * Output, one line of key=value pairs: p50_ns p99_ns p999_ns mean_ns,
 * and mops (million accesses per second, all threads, timer included).
 * --cdf FILE writes "latency_ns cumulative_fraction" per histogram step.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "toolkit.h"

#define PAGE		4096UL
#define MAX_THREADS	256

enum mode { RAND, CHASE, SEQ, ZIPF, STRIDE };

static const char *const mode_names[] = {
	[RAND] = "rand", [CHASE] = "chase", [SEQ] = "seq",
	[ZIPF] = "zipf", [STRIDE] = "stride",
};

struct opts {
	const char *target;
	uint64_t map_bytes;
	uint64_t ws_bytes;
	const char *ws_pct;	/* --ws P%: P percent of the cache */
	uint64_t cache_bytes;
	uint64_t accesses;
	unsigned int threads;
	enum mode mode;
	int write;
	int first_touch;
	int mark;
	int warm;
	int untimed;
	const char *cdf;
	uint64_t seed;
	double zipf_theta;
	uint64_t stride;
	unsigned int write_pct;
	uint64_t warm_accesses;
	const char *reset;
	int mincore;
	uint64_t perm_seed;	/* zipf: the shuffle's seed, 0: --seed's */
	double *zipf_cdf;	/* zipf: cumulative probability of ranks 0..n-1 */
	uint64_t *zipf_page;	/* zipf: the page of each rank */
};

struct thread {
	pthread_t tid;
	unsigned int id;
	const struct opts *o;
	volatile uint8_t *base;
	uint64_t *order;	/* first-touch: the pages, shuffled */
	uint64_t nr_order;
	uint64_t hist[BUCKETS];
	uint64_t sum_ns;
	uint64_t count;
	uint64_t stores;
	uint64_t start_ns, end_ns;	/* the thread's own loop */
	uint64_t sink;
	uint64_t wseed;		/* --write-pct's choices */
};

static pthread_barrier_t start_line, warmed;

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': case 'g':
		v <<= 10;
		/* fall through */
	case 'M': case 'm':
		v <<= 10;
		/* fall through */
	case 'K': case 'k':
		v <<= 10;
		end++;
		break;
	default:
		break;
	}
	if (*end || end == s) {
		fprintf(stderr, "mmap_lat: bad size '%s'\n", s);
		exit(2);
	}
	return v;
}

/* The cache_size= vflash was loaded with, or 0 if it was not given. */
static uint64_t vflash_cache_bytes(void)
{
	char buf[64];
	size_t n;
	FILE *f;

	f = fopen("/sys/module/vflash/parameters/cache_size", "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	if (!n || !strcmp(buf, "(null)"))
		return 0;
	return parse_size(buf);
}

/* --ws P%: P percent of the cache, in whole pages. */
static uint64_t ws_from_pct(struct opts *o)
{
	char *end;
	double pct = strtod(o->ws_pct, &end);

	if (end == o->ws_pct || strcmp(end, "%") || pct <= 0) {
		fprintf(stderr, "mmap_lat: bad --ws '%s'\n", o->ws_pct);
		exit(2);
	}
	if (!o->cache_bytes && !strncmp(o->target, "/dev/vflash", 11))
		o->cache_bytes = vflash_cache_bytes();
	if (!o->cache_bytes) {
		fprintf(stderr, "mmap_lat: --ws %s needs --cache BYTES\n",
			o->ws_pct);
		exit(2);
	}
	return (uint64_t)(o->cache_bytes * pct / 100) / PAGE * PAGE;
}

static void shuffle(uint64_t *a, uint64_t n, uint64_t *seed)
{
	uint64_t i, j, t;

	for (i = n - 1; i > 0 && n; i--) {
		j = xorshift(seed) % (i + 1);
		t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

static inline uint64_t touch(struct thread *t, uint64_t page, unsigned int line)
{
	volatile uint64_t *w = (volatile uint64_t *)(t->base + page * PAGE +
						     line * 64);
	const struct opts *o = t->o;

	if (o->write || (o->write_pct &&
			 xorshift(&t->wseed) % 100 < o->write_pct)) {
		t->stores++;
		*w = page;
		return page;
	}
	return *w;
}

/* A Zipf-distributed page: the rank whose cumulative probability first
 * exceeds a uniform draw, then that rank's page. */
static inline uint64_t zipf_page(const struct opts *o, uint64_t pages,
				 uint64_t *seed)
{
	double u = (xorshift(seed) >> 11) * (1.0 / 9007199254740992.0);
	uint64_t lo = 0, hi = pages - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (o->zipf_cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return o->zipf_page[lo];
}

/* One access of the timed loop; returns the page it touched. */
static inline uint64_t step(struct thread *t, uint64_t p, uint64_t pages,
			    uint64_t *seed, unsigned int line)
{
	switch (t->o->mode) {
	case RAND:
		p = xorshift(seed) % pages;
		t->sink += touch(t, p, line);
		break;
	case CHASE:
		p = *(volatile uint64_t *)(t->base + p * PAGE);
		break;
	case SEQ:
		p = p + 1 == pages ? 0 : p + 1;
		t->sink += touch(t, p, line);
		break;
	case ZIPF:
		p = zipf_page(t->o, pages, seed);
		t->sink += touch(t, p, line);
		break;
	case STRIDE:
		p += t->o->stride;
		if (p >= pages) {
			/* the next column; after the last, the first */
			p = p % t->o->stride + 1;
			if (p >= t->o->stride || p >= pages)
				p = 0;
		}
		t->sink += touch(t, p, line);
		break;
	}
	return p;
}

static void record(struct thread *t, uint64_t ns)
{
	t->hist[bucket(ns)]++;
	t->sum_ns += ns;
	t->count++;
}

static void *run(void *arg)
{
	struct thread *t = arg;
	const struct opts *o = t->o;
	uint64_t pages = o->ws_bytes / PAGE, seed = o->seed + 7919 * t->id;
	unsigned int line = t->id % (PAGE / 64);
	uint64_t i, p = 0, t0, t1;

	t->wseed = (seed ^ 0x5851f42d4c957f2dULL) | 1;
	/* The chase's links live in word 0 of each page. */
	if (o->mode == CHASE)
		line = 0;
	p = xorshift(&seed) % pages;
	if (o->warm && !o->first_touch)
		for (i = t->id; i < pages; i += o->threads)
			t->sink += touch(t, i, line);
	if (!o->first_touch)
		for (i = 0; i < o->warm_accesses; i++)
			p = step(t, p, pages, &seed, line);
	t->stores = 0;
	if (o->reset)
		pthread_barrier_wait(&warmed);
	pthread_barrier_wait(&start_line);
	t->start_ns = now_ns();

	if (o->first_touch) {
		for (i = 0; i < t->nr_order; i++) {
			t0 = now_ns();
			t->sink += touch(t, t->order[i], line);
			t1 = now_ns();
			record(t, t1 - t0);
		}
	} else if (o->untimed) {
		for (i = 0; i < o->accesses; i++)
			p = step(t, p, pages, &seed, line);
		t->count = o->accesses;
		t->sink += p;
	} else {
		for (i = 0; i < o->accesses; i++) {
			t0 = now_ns();
			p = step(t, p, pages, &seed, line);
			t1 = now_ns();
			record(t, t1 - t0);
		}
		t->sink += p;
	}
	t->end_ns = now_ns();
	return NULL;
}

/* The Zipf tables: rank r has weight 1 / (r + 1)^theta; ranks are dealt
 * to pages by a shuffle. */
static void build_zipf(struct opts *o, uint64_t pages, uint64_t *seed)
{
	double sum = 0;
	uint64_t i;

	o->zipf_cdf = malloc(pages * sizeof(*o->zipf_cdf));
	o->zipf_page = malloc(pages * sizeof(*o->zipf_page));
	if (!o->zipf_cdf || !o->zipf_page) {
		perror("mmap_lat: malloc");
		exit(1);
	}
	for (i = 0; i < pages; i++) {
		sum += pow((double)(i + 1), -o->zipf_theta);
		o->zipf_cdf[i] = sum;
		o->zipf_page[i] = i;
	}
	for (i = 0; i < pages; i++)
		o->zipf_cdf[i] /= sum;
	o->zipf_cdf[pages - 1] = 2;	/* above any draw, whatever the rounding */
	shuffle(o->zipf_page, pages, seed);
}

/* --reset FILE: write "0" to it */
static void reset_file(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs("0\n", f) == EOF || fclose(f)) {
		fprintf(stderr, "mmap_lat: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* A random cyclic permutation of the pages, written into the pages. */
static void build_chase(volatile uint8_t *base, uint64_t pages, uint64_t *seed)
{
	uint64_t *perm = malloc(pages * sizeof(*perm)), i;

	if (!perm) {
		perror("mmap_lat: malloc");
		exit(1);
	}
	for (i = 0; i < pages; i++)
		perm[i] = i;
	shuffle(perm, pages, seed);
	for (i = 0; i < pages; i++)
		*(volatile uint64_t *)(base + perm[i] * PAGE) =
			perm[(i + 1) % pages];
	free(perm);
}

/* The icount.so plugin's marker (scripts/bench/icount/icount.c). */
static void mark(void)
{
	__asm__ __volatile__("xchg %%bx, %%bx" ::: "memory");
}

static const char usage_text[] =
	"usage: mmap_lat --target PATH|anon [--map-size BYTES]\n"
	"       --ws BYTES|P% [--cache BYTES]\n"
	"       [--threads T] [--accesses N]\n"
	"       [--mode rand|chase|seq|zipf|stride] [--zipf THETA]\n"
	"       [--stride PAGES]\n"
	"       [--write] [--write-pct P] [--first-touch] [--no-warm]\n"
	"       [--warm-accesses N] [--reset FILE] [--mincore] [--untimed]\n"
	"       [--perm-seed S] [--mark]\n"
	"       [--cdf FILE]\n"
	"       [--seed S]\n";

static void usage(void)
{
	fputs(usage_text, stderr);
	fprintf(stderr, "mmap_lat --help says what each option does\n");
	exit(2);
}

static void help(void)
{
	fputs(usage_text, stdout);
	printf("\n"
	       "Per-access latency of memory reached through mmap: /dev/vflashN (the\n"
	       "CXL frontend), a devdax device, any file, or anonymous memory (anon).\n"
	       "Each thread makes --accesses timed loads (or stores) of one 8-byte word\n"
	       "per 4 KiB page over the working set; the percentiles are within 1/16.\n"
	       "\n"
	       "  --target PATH|anon  what to map (anon: anonymous memory, the DRAM baseline)\n"
	       "  --map-size BYTES    mapping size (default: the working set)\n"
	       "  --ws BYTES|P%%       working set at the start of the mapping (K, M, G\n"
	       "                      suffixes), or P percent of the device DRAM cache\n"
	       "  --cache BYTES       that cache's size (default: /dev/vflashN's cache_size=\n"
	       "                      module parameter)\n"
	       "  --threads T         threads, each its own accesses (default 1)\n"
	       "  --accesses N        timed accesses per thread (default 1000000)\n"
	       "  --mode M            rand (default): random pages; chase: a random cyclic\n"
	       "                      pointer chase; seq: in order; zipf: Zipf-distributed\n"
	       "                      pages (--zipf THETA, default 0.99); stride: pages 0,\n"
	       "                      K, 2K, ... then 1, 1+K, ... (--stride K, default 8)\n"
	       "  --perm-seed S       seeds zipf's shuffle of ranks over pages apart from\n"
	       "                      the draws\n"
	       "  --write             every access a store\n"
	       "  --write-pct P       each access a store with probability P percent\n"
	       "  --first-touch       no warm-up; each page accessed exactly once, in random\n"
	       "                      order: every access a first touch (a page fault)\n"
	       "  --no-warm           no warm-up pass over the pages\n"
	       "  --warm-accesses N   N more untimed accesses of the pattern after the\n"
	       "                      warm-up pass\n"
	       "  --reset FILE        write 0 to FILE before the timed loop (e.g.\n"
	       "                      /sys/class/vflash/vflash0/stats/reset)\n"
	       "  --mincore           count the working set's pages present in this\n"
	       "                      process afterwards (present_pages=)\n"
	       "  --untimed           no clock reads per access: mops only (percentiles 0)\n"
	       "  --cdf FILE          write \"latency_ns cumulative_fraction\" per step\n"
	       "  --mark              execute the marker xchg %%bx,%%bx before and after the\n"
	       "                      timed loops (for the icount.so QEMU plugin)\n"
	       "  --seed S            seeds every random choice (its low bit is set)\n"
	       "  --help              this text\n"
	       "\n"
	       "Output, one line: p50_ns= p99_ns= p999_ns= mean_ns= mops= (million\n"
	       "accesses per second, all threads). Exit status 0, 1 on a failure, 2 for\n"
	       "a usage error.\n");
	exit(0);
}

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "target", required_argument, NULL, 't' },
		{ "map-size", required_argument, NULL, 'm' },
		{ "ws", required_argument, NULL, 'w' },
		{ "cache", required_argument, NULL, 'C' },
		{ "threads", required_argument, NULL, 'T' },
		{ "accesses", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'M' },
		{ "write", no_argument, NULL, 'W' },
		{ "first-touch", no_argument, NULL, 'f' },
		{ "no-warm", no_argument, NULL, 'N' },
		{ "untimed", no_argument, NULL, 'U' },
		{ "cdf", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "zipf", required_argument, NULL, 'z' },
		{ "stride", required_argument, NULL, 'S' },
		{ "write-pct", required_argument, NULL, 'P' },
		{ "warm-accesses", required_argument, NULL, 'A' },
		{ "reset", required_argument, NULL, 'R' },
		{ "mark", no_argument, NULL, 'K' },
		{ "mincore", no_argument, NULL, 'I' },
		{ "perm-seed", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*o = (struct opts) { .threads = 1, .accesses = 1000000, .warm = 1,
			     .seed = 0x9e3779b97f4a7c15ULL, .zipf_theta = 0.99,
			     .stride = 8 };
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'h': help(); break;
		case 't': o->target = optarg; break;
		case 'm': o->map_bytes = parse_size(optarg); break;
		case 'w':
			if (strchr(optarg, '%'))
				o->ws_pct = optarg;
			else
				o->ws_bytes = parse_size(optarg);
			break;
		case 'C': o->cache_bytes = parse_size(optarg); break;
		case 'T': o->threads = strtoul(optarg, NULL, 0); break;
		case 'n': o->accesses = parse_size(optarg); break;
		case 'M':
			if (!strcmp(optarg, "rand"))
				o->mode = RAND;
			else if (!strcmp(optarg, "chase"))
				o->mode = CHASE;
			else if (!strcmp(optarg, "seq"))
				o->mode = SEQ;
			else if (!strcmp(optarg, "zipf"))
				o->mode = ZIPF;
			else if (!strcmp(optarg, "stride"))
				o->mode = STRIDE;
			else
				usage();
			break;
		case 'z':
			o->zipf_theta = strtod(optarg, &end);
			if (end == optarg || *end || o->zipf_theta < 0)
				usage();
			break;
		case 'S':
			o->stride = strtoull(optarg, &end, 0);
			if (end == optarg || *end || !o->stride)
				usage();
			break;
		case 'P':
			o->write_pct = strtoul(optarg, &end, 0);
			if (end == optarg || *end || o->write_pct > 100)
				usage();
			break;
		case 'A': o->warm_accesses = parse_size(optarg); break;
		case 'R': o->reset = optarg; break;
		case 'K': o->mark = 1; break;
		case 'I': o->mincore = 1; break;
		case 'Q': o->perm_seed = strtoull(optarg, NULL, 0) | 1; break;
		case 'W': o->write = 1; break;
		case 'f': o->first_touch = 1; break;
		case 'N': o->warm = 0; break;
		case 'U': o->untimed = 1; break;
		case 'c': o->cdf = optarg; break;
		case 's': o->seed = strtoull(optarg, NULL, 0) | 1; break;
		default: usage();
		}
	}
	if (o->target && o->ws_pct)
		o->ws_bytes = ws_from_pct(o);
	if (!o->target || !o->ws_bytes || o->ws_bytes % PAGE ||
	    !o->threads || o->threads > MAX_THREADS || !o->accesses)
		usage();
	if (!o->map_bytes)
		o->map_bytes = o->ws_bytes;
	if (o->ws_bytes > o->map_bytes) {
		fprintf(stderr, "mmap_lat: --ws is larger than --map-size\n");
		exit(2);
	}
	if (o->untimed && (o->first_touch || o->cdf)) {
		fprintf(stderr, "mmap_lat: --untimed takes neither --first-touch nor --cdf\n");
		exit(2);
	}
	if (o->first_touch && o->mode != RAND && o->mode != SEQ) {
		fprintf(stderr, "mmap_lat: --first-touch takes rand or seq\n");
		exit(2);
	}
	if (o->mode == CHASE && o->write_pct) {
		fprintf(stderr, "mmap_lat: --mode chase takes no --write-pct\n");
		exit(2);
	}
}

static volatile uint8_t *map_target(const struct opts *o)
{
	void *p;
	int fd;

	if (!strcmp(o->target, "anon")) {
		p = mmap(NULL, o->map_bytes, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	} else {
		fd = open(o->target, O_RDWR);
		if (fd < 0) {
			fprintf(stderr, "mmap_lat: %s: %s\n", o->target,
				strerror(errno));
			exit(1);
		}
		p = mmap(NULL, o->map_bytes, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
		close(fd);
	}
	if (p == MAP_FAILED) {
		fprintf(stderr, "mmap_lat: mmap %s: %s\n", o->target,
			strerror(errno));
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	static struct thread th[MAX_THREADS];
	static uint64_t hist[BUCKETS];
	uint64_t pages, total = 0, sum = 0, sink = 0, *order = NULL, i, seed;
	uint64_t t0, t1, per, stores = 0;
	volatile uint8_t *base;
	struct opts o;
	unsigned int k, b;
	FILE *f;

	parse(argc, argv, &o);
	pages = o.ws_bytes / PAGE;
	seed = o.seed;
	base = map_target(&o);
	if (o.mode == CHASE)
		build_chase(base, pages, &seed);
	if (o.mode == ZIPF) {
		uint64_t pseed = o.perm_seed ? o.perm_seed : seed;

		build_zipf(&o, pages, &pseed);
	}
	if (o.first_touch) {
		order = malloc(pages * sizeof(*order));
		if (!order) {
			perror("mmap_lat: malloc");
			return 1;
		}
		for (i = 0; i < pages; i++)
			order[i] = i;
		if (o.mode == RAND)
			shuffle(order, pages, &seed);
	}
	pthread_barrier_init(&start_line, NULL, o.threads + 1);
	pthread_barrier_init(&warmed, NULL, o.threads + 1);
	per = (pages + o.threads - 1) / o.threads;
	for (k = 0; k < o.threads; k++) {
		th[k].id = k;
		th[k].o = &o;
		th[k].base = base;
		if (order && k * per < pages) {
			th[k].order = order + k * per;
			th[k].nr_order = pages - k * per < per ? pages - k * per : per;
		}
		if (pthread_create(&th[k].tid, NULL, run, &th[k])) {
			perror("mmap_lat: pthread_create");
			return 1;
		}
	}
	if (o.reset) {
		pthread_barrier_wait(&warmed);
		reset_file(o.reset);
	}
	if (o.mark)
		mark();
	pthread_barrier_wait(&start_line);
	for (k = 0; k < o.threads; k++)
		pthread_join(th[k].tid, NULL);
	if (o.mark)
		mark();
	/*
	 * The run's span is from the first thread's start to the last one's
	 * end, as the threads saw them: the main thread may be scheduled
	 * late after the barrier, on a busy host long after the threads.
	 */
	t0 = th[0].start_ns;
	t1 = th[0].end_ns;
	for (k = 1; k < o.threads; k++) {
		if (th[k].start_ns < t0)
			t0 = th[k].start_ns;
		if (th[k].end_ns > t1)
			t1 = th[k].end_ns;
	}

	for (k = 0; k < o.threads; k++) {
		for (b = 0; b < BUCKETS; b++)
			hist[b] += th[k].hist[b];
		total += th[k].count;
		sum += th[k].sum_ns;
		sink += th[k].sink;
		stores += th[k].stores;
	}
	if (!total) {
		fprintf(stderr, "mmap_lat: no accesses\n");
		return 1;
	}
	printf("target=%s mode=%s%s threads=%u ws_bytes=%llu accesses=%llu p50_ns=%llu p99_ns=%llu p999_ns=%llu mean_ns=%llu mops=%.3f sink=%llu",
	       o.target, mode_names[o.mode],
	       o.first_touch ? "-first-touch" : "", o.threads,
	       (unsigned long long)o.ws_bytes, (unsigned long long)total,
	       (unsigned long long)percentile(hist, total, 0.50),
	       (unsigned long long)percentile(hist, total, 0.99),
	       (unsigned long long)percentile(hist, total, 0.999),
	       (unsigned long long)(sum / total),
	       total * 1000.0 / (double)(t1 - t0),
	       (unsigned long long)(sink & 0xff));
	/* New keys go at the end of the line; those of the new options
	 * only when they are given. */
	if (o.write_pct)
		printf(" stores=%llu", (unsigned long long)stores);
	if (o.mode == ZIPF)
		printf(" zipf=%g", o.zipf_theta);
	if (o.mode == STRIDE)
		printf(" stride=%llu", (unsigned long long)o.stride);
	if (o.mincore) {
		unsigned char *vec = malloc(pages);
		uint64_t present = 0;

		if (!vec || mincore((void *)base, o.ws_bytes, vec)) {
			perror("mmap_lat: mincore");
			return 1;
		}
		for (i = 0; i < pages; i++)
			present += vec[i] & 1;
		free(vec);
		printf(" present_pages=%llu", (unsigned long long)present);
	}
	printf(" elapsed_ns=%llu\n", (unsigned long long)(t1 - t0));
	if (o.cdf) {
		uint64_t seen = 0;

		f = fopen(o.cdf, "w");
		if (!f) {
			fprintf(stderr, "mmap_lat: %s: %s\n", o.cdf, strerror(errno));
			return 1;
		}
		fprintf(f, "# latency_ns cumulative_fraction (%s)\n", o.target);
		for (b = 0; b < BUCKETS; b++) {
			if (!hist[b])
				continue;
			seen += hist[b];
			fprintf(f, "%llu %.6f\n",
				(unsigned long long)bucket_floor(b),
				(double)seen / total);
		}
		fclose(f);
	}
	munmap((void *)base, o.map_bytes);
	free(order);
	free(o.zipf_cdf);
	free(o.zipf_page);
	return 0;
}
