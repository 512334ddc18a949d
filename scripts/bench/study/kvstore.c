// SPDX-License-Identifier: GPL-2.0
/*
 * kvstore: a B+tree key-value store whose whole heap is one MAP_SHARED
 * mapping of --dev (the CXL frontend's /dev/vflash0, or a regular file for
 * a run on the host), driven by a YCSB-like request mix. It is the CXL
 * study's workload that is not a synthetic loop (docs/studies.md, "The key-value workload").
 *
 * Layout of the mapping (--heap bytes; nothing outside it is touched):
 *
 *   offset 0              superblock (one 4 KiB page): magic, sizes, the
 *                         root's node number, the tree's height, the node
 *                         and value allocators, the record count
 *   node 1, 2, ...        B+tree nodes of 4 KiB, node n at n * 4096,
 *                         bump-allocated upwards from the superblock
 *   ...                   (untouched: the pages between the two areas)
 *   value area            values, bump-allocated downwards from the end of
 *                         the heap, each --value-size bytes rounded up to 8;
 *                         an update overwrites its value in place
 *
 *   A node is a 16-byte header (leaf flag, key count, the next leaf's node
 *   number) and two arrays of 255 words: a leaf holds up to 255 sorted
 *   keys and the heap offsets of their values; an inner node up to 254
 *   keys and 255 children (child i holds the keys k with
 *   key[i-1] <= k < key[i]). Leaves are chained in key order for scans.
 *   Inserts split full nodes on the way down (one pass, no parent links);
 *   a split leaf keeps its lower half. Nothing is ever deleted.
 *
 * Records. Record number i (its "keynum") has the 8-byte key
 * fmix64(i), MurmurHash3's invertible finalizer, so keys are distinct and
 * scrambled. The load phase inserts keynums 0..N-1 in order, i.e. keys in a
 * scrambled order (YCSB's hashed insert order), and is timed as a whole
 * (load_s), not per operation. A value is: the key (8 bytes), its version
 * (8 bytes, 1 at the load, +1 per update), then bytes that are a function
 * of the key and the version. The process keeps each record's current
 * version in its own memory (not in the heap).
 *
 * Run phase, YCSB's core workloads (an update rewrites the whole value):
 *
 *   a  50% read, 50% update            zipfian keys
 *   b  95% read, 5% update             zipfian keys
 *   c  100% read                       zipfian keys
 *   d  95% read, 5% insert             reads pick the latest records
 *   e  95% scan, 5% insert             zipfian start key, 1-100 records
 *                                      (uniform), in key order
 *
 * A read looks the key up and copies its value out; a scan copies each
 * record's value. Key choice: a Zipfian rank (Gray et al.'s generator, as
 * YCSB's, theta --zipf, 0.99 by default; --zipf 0 is uniform) over the
 * records, turned into a keynum by a fixed permutation of the keynums
 * ("scrambled zipfian": the hot records are neither neighbours in the tree
 * nor in the value area). For e the permutation spans the records plus
 * the run's inserts, and a rank whose record is not inserted yet is drawn
 * again (YCSB does the same; after 1000 such draws, a uniform keynum). "Latest" (d) is keynum count-1-rank, the
 * rank Zipfian over the current count. Inserts take keynums N, N+1, ...
 *
 * Determinism: each thread draws its operation types from one xorshift
 * stream and its keys and scan lengths from another, both seeded from
 * --seed and the thread's number. One thread: the same --seed gives the
 * same sequence of operations. Several threads: each thread's sequence of
 * operation types and draws is the same; what a "latest" or scan draw
 * resolves to depends on how many inserts the other threads have done.
 *
 * Threads (--threads T): the run's operations are split evenly; one
 * pthread rwlock (writer-preferring) guards the tree: reads and scans hold
 * it shared, updates and inserts exclusively, so readers fault pages in
 * concurrently. The load phase is one thread.
 *
 * --verify: every read (and each record of a scan) checks the value's key,
 * that its version is the record's current version, and every byte after
 * them; a lookup that does not find a loaded key, or a node that is not a
 * node (a bad key count, a child outside the allocated nodes), is a
 * failure too. After the run, an untimed pass walks the leaf chain: keys
 * in order, each record exactly once, every value checked. A failure
 * prints the key on stderr and exits 1. The lookups and writes are the same
 * with or without --verify, so the device sees the same accesses.
 *
 * --corrupt-rank R (for the test suite only): after the load, map --dev a
 * second time and flip one byte in the value of the record that the mix's
 * key chooser ranks R (0: the hottest), then run as usual: with --verify
 * the run must exit 1 naming that key.
 *
 * Output, one line of key=value pairs on stdout:
 *   mix records ops threads zipf value_size seed
 *   ops_per_s          run-phase operations per second (all threads)
 *   p50_ns p99_ns p999_ns mean_ns
 *                      per-operation latency (lock wait included),
 *                      CLOCK_MONOTONIC, log-linear histogram (16 steps per
 *                      power of two, within 1/16); 0 with --untimed, which
 *                      reads no clock around each operation
 *   reads updates inserts scans scan_records   operations done
 *   heap_bytes         bytes of the mapping in use: superblock, nodes and
 *                      values (the mapping itself is --heap bytes)
 *   tree_height        levels, a lone leaf is 1
 *   nodes              B+tree nodes
 *   load_s run_s       the phases' wall times (run_s: first operation to
 *                      the last thread's end)
 *   verify verify_s    ok, or off without --verify; the time of the
 *                      pass over every record after the run
 *   dev_misses dev_refaults dev_evictions dev_dirty_writebacks
 *   dev_prefetch_issued dev_prefetch_hits
 *                      when --dev is /dev/vflashN: what the run phase
 *                      changed in /sys/class/vflash/vflashN/stats/
 *
 * Exit status: 0, 1 on a verify failure or a runtime error (a full heap,
 * mmap), 2 on bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../tools/toolkit.h"

#define NODE_SIZE	4096UL
#define LEAF_MAX	255	/* keys in a leaf */
#define INNER_MAX	254	/* keys in an inner node: 255 children */
#define MAX_THREADS	64
#define MAX_SCAN	100
#define MAX_VALUE	(1UL << 20)
#define MAGIC		0x3130765356454b56ULL	/* "VKEVSv01" */

struct node {
	uint32_t leaf;
	uint32_t n;		/* keys */
	uint64_t next;		/* leaf: the next leaf's node number, 0: none */
	uint64_t key[LEAF_MAX];
	uint64_t ptr[LEAF_MAX];	/* leaf: value offsets; inner: n + 1 children */
};

_Static_assert(sizeof(struct node) == NODE_SIZE, "a node is one page");

struct super {
	uint64_t magic;
	uint64_t heap_bytes;
	uint64_t value_size;
	uint64_t root;
	uint64_t height;
	uint64_t nodes;		/* node numbers in use, the superblock's 0 too */
	uint64_t val_low;	/* the lowest value's offset */
	uint64_t count;		/* records */
};

enum op { OP_READ, OP_UPDATE, OP_INSERT, OP_SCAN };

struct opts {
	const char *dev;
	uint64_t heap;
	uint64_t records;
	uint64_t ops;
	char mix;
	double theta;
	uint64_t value_size;
	uint64_t seed;
	unsigned int threads;
	int verify;
	int untimed;
	int64_t corrupt_rank;	/* -1: none */
};

/* The store: the mapping and a private copy of the superblock's state. */
struct store {
	uint8_t *base;
	struct super *sb;
	uint64_t heap;
	uint64_t vsz;		/* a value's slot: value_size rounded up to 8 */
	uint64_t value_size;
	uint64_t root, height, nodes, val_low, count;
	uint32_t *ver;		/* each keynum's current version */
	uint64_t cap;		/* keynums ver[] holds */
};

struct zipf {
	double theta, alpha, zetan, zeta2, eta, half_pow;
	uint64_t n;
};

struct thread {
	pthread_t tid;
	unsigned int id;
	uint64_t ops;
	uint64_t rng_op, rng_key;
	struct zipf z;		/* latest (d): over the current count */
	uint8_t *buf, *want;	/* a value copied out, the expected value */
	uint64_t hist[BUCKETS];
	uint64_t sum_ns, timed;
	uint64_t n_read, n_update, n_insert, n_scan, n_scanned;
	uint64_t start_ns, end_ns;	/* the thread's own run span */
};

static struct opts o;
static struct store st;
static pthread_rwlock_t lock;
static pthread_barrier_t start_line;
static struct zipf zbase;	/* over the records (a b c) or the domain (e) */
static uint64_t domain;		/* keynums the scrambled chooser ranks */
static unsigned int dom_bits;
static uint64_t dom_mask;

/* ---- small helpers ---- */

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kvstore: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void bad_arg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kvstore: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (kvstore --help for the usage)\n");
	exit(2);
}

static double uniform01(uint64_t *s)
{
	return (xorshift(s) >> 11) * 0x1p-53;
}

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A nonzero xorshift state from the seed, the thread and the stream. */
static uint64_t rng_seed(uint64_t seed, unsigned int thread, unsigned int stream)
{
	uint64_t s = splitmix(seed ^ splitmix(thread * 2 + stream + 1));

	return s ? s : 1;
}

#define FMIX_C1	0xff51afd7ed558ccdULL
#define FMIX_C2	0xc4ceb9fe1a85ec53ULL

/* The multiplicative inverse of odd @a modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - a * x;
	return x;
}

/* keynum -> key: MurmurHash3's fmix64, a bijection */
static uint64_t key_of(uint64_t keynum)
{
	uint64_t x = keynum;

	x ^= x >> 33;
	x *= FMIX_C1;
	x ^= x >> 33;
	x *= FMIX_C2;
	x ^= x >> 33;
	return x;
}

static uint64_t inv_c1, inv_c2;

static uint64_t keynum_of(uint64_t key)
{
	uint64_t x = key;

	x ^= x >> 33;
	x *= inv_c2;
	x ^= x >> 33;
	x *= inv_c1;
	x ^= x >> 33;
	return x;
}

/* ---- key choice ---- */

static void zipf_fix(struct zipf *z)
{
	z->eta = z->n > 2 ? (1 - pow(2.0 / z->n, 1 - z->theta)) /
			    (1 - z->zeta2 / z->zetan) : 0;
}

static void zipf_init(struct zipf *z, uint64_t n, double theta)
{
	uint64_t i;

	memset(z, 0, sizeof(*z));
	z->theta = theta;
	z->n = n;
	if (theta == 0)
		return;
	z->alpha = 1 / (1 - theta);
	z->half_pow = pow(0.5, theta);
	z->zeta2 = 1 + z->half_pow;
	for (i = 1; i <= n; i++)
		z->zetan += pow((double)i, -theta);
	zipf_fix(z);
}

/* Items n+1..@n join (the zeta sum grows term by term, as YCSB's). */
static void zipf_grow(struct zipf *z, uint64_t n)
{
	if (n <= z->n)
		return;
	if (z->theta != 0) {
		while (z->n < n)
			z->zetan += pow((double)++z->n, -z->theta);
		zipf_fix(z);
	}
	z->n = n;
}

/* A rank in [0, n): 0 the most popular. */
static uint64_t zipf_next(const struct zipf *z, uint64_t *rng)
{
	double u, uz;
	uint64_t r;

	if (z->theta == 0)
		return xorshift(rng) % z->n;
	u = uniform01(rng);
	uz = u * z->zetan;
	if (uz < 1)
		return 0;
	if (uz < 1 + z->half_pow)
		return 1;
	r = (uint64_t)(z->n * pow(z->eta * u - z->eta + 1, z->alpha));
	return r < z->n ? r : z->n - 1;
}

/* A bijection of [0, 2^dom_bits). */
static uint64_t mix_bits(uint64_t x)
{
	unsigned int s = (dom_bits + 1) / 2;

	x = (x * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) & dom_mask;
	x ^= x >> s;
	x = (x * 0xd6e8feb86659fd93ULL) & dom_mask;
	x ^= x >> s;
	return x & dom_mask;
}

/* The scrambled chooser's keynum of @rank: cycle-walk into [0, domain). */
static uint64_t scramble(uint64_t rank)
{
	uint64_t x = rank;

	do
		x = mix_bits(x);
	while (x >= domain);
	return x;
}

/* The keynum that the mix's chooser ranks @rank among @count records. */
static uint64_t keynum_of_rank(uint64_t rank, uint64_t count)
{
	if (o.mix == 'd')
		return count - 1 - rank;
	return scramble(rank);
}

/* A keynum for a read, update or scan start (the lock held). */
static uint64_t choose(struct thread *t)
{
	uint64_t k, count = st.count;
	unsigned int tries;

	if (o.mix == 'd') {
		zipf_grow(&t->z, count);
		return keynum_of_rank(zipf_next(&t->z, &t->rng_key), count);
	}
	/*
	 * e: a rank whose record is not inserted yet is drawn again. When
	 * the run inserts far more records than were loaded, most draws miss
	 * early on: after 1000 of them, take a uniform keynum instead.
	 */
	for (tries = 0; tries < 1000; tries++) {
		k = scramble(zipf_next(&zbase, &t->rng_key));
		if (k < count)
			return k;
	}
	return xorshift(&t->rng_key) % count;
}

static enum op next_op(uint64_t *rng)
{
	unsigned int p = xorshift(rng) % 100;

	switch (o.mix) {
	case 'a': return p < 50 ? OP_READ : OP_UPDATE;
	case 'b': return p < 95 ? OP_READ : OP_UPDATE;
	case 'c': return OP_READ;
	case 'd': return p < 95 ? OP_READ : OP_INSERT;
	default: return p < 95 ? OP_SCAN : OP_INSERT;
	}
}

/* ---- values ---- */

/* The value of @key at @version, into @buf (value_size bytes). */
static void make_value(uint8_t *buf, uint64_t key, uint64_t version)
{
	uint64_t w, s = splitmix(key ^ (version * 0x2545f4914f6cdd1dULL));
	size_t i, n;

	memcpy(buf, &key, 8);
	memcpy(buf + 8, &version, 8);
	for (i = 16; i < st.value_size; i += 8) {
		w = splitmix(s + i);
		n = st.value_size - i < 8 ? st.value_size - i : 8;
		memcpy(buf + i, &w, n);
	}
}

static void verify_fail(uint64_t key, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kvstore: verify: key 0x%016llx (keynum %llu): ",
		(unsigned long long)key, (unsigned long long)keynum_of(key));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Copy the value at @off out to t->buf and, with --verify, check it. */
static void read_value(struct thread *t, uint64_t key, uint64_t off)
{
	uint64_t keynum = keynum_of(key), got_key, got_ver;
	size_t i;

	memcpy(t->buf, st.base + off, st.value_size);
	if (!o.verify)
		return;
	memcpy(&got_key, t->buf, 8);
	memcpy(&got_ver, t->buf + 8, 8);
	if (got_key != key)
		verify_fail(key, "the value at heap offset %llu carries key 0x%016llx",
			    (unsigned long long)off, (unsigned long long)got_key);
	if (keynum >= st.count || got_ver != st.ver[keynum])
		verify_fail(key, "version %llu, want %llu (heap offset %llu)",
			    (unsigned long long)got_ver,
			    keynum < st.count ? (unsigned long long)st.ver[keynum] : 0ULL,
			    (unsigned long long)off);
	make_value(t->want, key, got_ver);
	if (memcmp(t->buf, t->want, st.value_size)) {
		for (i = 0; t->buf[i] == t->want[i]; i++)
			;
		verify_fail(key, "byte %zu of the value is 0x%02x, want 0x%02x (heap offset %llu)",
			    i, t->buf[i], t->want[i],
			    (unsigned long long)(off + i));
	}
}

/* ---- the tree ---- */

static void corrupt(const char *what, uint64_t nr)
{
	fprintf(stderr, "kvstore: corrupt tree: %s (node %llu)\n", what,
		(unsigned long long)nr);
	exit(1);
}

static struct node *node_at(uint64_t nr)
{
	struct node *x;

	if (!nr || nr >= st.nodes)
		corrupt("a node number outside the allocated nodes", nr);
	x = (struct node *)(st.base + nr * NODE_SIZE);
	if (x->leaf > 1 || x->n > (x->leaf ? LEAF_MAX : INNER_MAX))
		corrupt("a bad node header", nr);
	return x;
}

static uint64_t alloc_node(int leaf)
{
	uint64_t nr = st.nodes;
	struct node *x;

	if ((nr + 1) * NODE_SIZE > st.val_low)
		die("the heap is full (%llu nodes, values from offset %llu): give a larger --heap",
		    (unsigned long long)nr, (unsigned long long)st.val_low);
	st.nodes = st.sb->nodes = nr + 1;
	x = (struct node *)(st.base + nr * NODE_SIZE);
	x->leaf = leaf;
	x->n = 0;
	x->next = 0;
	return nr;
}

static uint64_t alloc_value(void)
{
	if (st.val_low < st.nodes * NODE_SIZE + st.vsz)
		die("the heap is full (%llu nodes, values from offset %llu): give a larger --heap",
		    (unsigned long long)st.nodes, (unsigned long long)st.val_low);
	st.val_low -= st.vsz;
	st.sb->val_low = st.val_low;
	return st.val_low;
}

/* The first i with key < x->key[i] (inner: the child to follow). */
static unsigned int upper_bound(const struct node *x, uint64_t key)
{
	unsigned int lo = 0, hi = x->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (key < x->key[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The first i with key <= x->key[i]. */
static unsigned int lower_bound(const struct node *x, uint64_t key)
{
	unsigned int lo = 0, hi = x->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (x->key[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t find_leaf(uint64_t key)
{
	uint64_t nr = st.root, h;
	struct node *x;

	for (h = 1; h < st.height; h++) {
		x = node_at(nr);
		if (x->leaf)
			corrupt("a leaf above the leaf level", nr);
		nr = x->ptr[upper_bound(x, key)];
	}
	if (!node_at(nr)->leaf)
		corrupt("an inner node at the leaf level", nr);
	return nr;
}

static void check_value_off(uint64_t off, uint64_t nr)
{
	if (off < st.val_low || off + st.vsz > st.heap || (off - st.val_low) % st.vsz)
		corrupt("a value offset outside the value area", nr);
}

/* The value offset of @key, or 0 if it is not in the tree. */
static uint64_t lookup(uint64_t key)
{
	uint64_t nr = find_leaf(key);
	struct node *x = node_at(nr);
	unsigned int i = lower_bound(x, key);

	if (i == x->n || x->key[i] != key)
		return 0;
	check_value_off(x->ptr[i], nr);
	return x->ptr[i];
}

static int full(const struct node *x)
{
	return x->n == (x->leaf ? LEAF_MAX : INNER_MAX);
}

/* Split the full child @i of @p (not full) in two. */
static void split_child(struct node *p, unsigned int i)
{
	uint64_t lnr = p->ptr[i], rnr, sep;
	struct node *l = node_at(lnr), *r;
	unsigned int mid, j;

	rnr = alloc_node(l->leaf);
	r = node_at(rnr);
	if (l->leaf) {
		mid = l->n / 2;
		r->n = l->n - mid;
		memcpy(r->key, l->key + mid, r->n * 8);
		memcpy(r->ptr, l->ptr + mid, r->n * 8);
		r->next = l->next;
		l->next = rnr;
		l->n = mid;
		sep = r->key[0];
	} else {
		mid = l->n / 2;
		sep = l->key[mid];
		r->n = l->n - mid - 1;
		memcpy(r->key, l->key + mid + 1, r->n * 8);
		memcpy(r->ptr, l->ptr + mid + 1, (r->n + 1) * 8);
		l->n = mid;
	}
	for (j = p->n; j > i; j--) {
		p->key[j] = p->key[j - 1];
		p->ptr[j + 1] = p->ptr[j];
	}
	p->key[i] = sep;
	p->ptr[i + 1] = rnr;
	p->n++;
}

static void insert(uint64_t key, uint64_t voff)
{
	uint64_t nr, h, newroot;
	struct node *x;
	unsigned int i;

	x = node_at(st.root);
	if (full(x)) {
		newroot = alloc_node(0);
		x = node_at(newroot);
		x->ptr[0] = st.root;
		split_child(x, 0);
		st.root = st.sb->root = newroot;
		st.height = st.sb->height = st.height + 1;
	}
	nr = st.root;
	for (h = 1; h < st.height; h++) {
		x = node_at(nr);
		i = upper_bound(x, key);
		if (full(node_at(x->ptr[i]))) {
			split_child(x, i);
			if (key >= x->key[i])
				i++;
		}
		nr = x->ptr[i];
	}
	x = node_at(nr);
	if (!x->leaf)
		corrupt("an inner node at the leaf level", nr);
	i = lower_bound(x, key);
	if (i < x->n && x->key[i] == key)
		corrupt("a key inserted twice", nr);
	memmove(x->key + i + 1, x->key + i, (x->n - i) * 8);
	memmove(x->ptr + i + 1, x->ptr + i, (x->n - i) * 8);
	x->key[i] = key;
	x->ptr[i] = voff;
	x->n++;
}

/* A new record (the next keynum) with version 1; the lock held. */
static void insert_record(uint8_t *buf)
{
	uint64_t keynum = st.count, key = key_of(keynum), off;

	if (keynum >= st.cap)
		die("keynum %llu beyond the %llu planned", (unsigned long long)keynum,
		    (unsigned long long)st.cap);
	off = alloc_value();
	make_value(buf, key, 1);
	memcpy(st.base + off, buf, st.value_size);
	insert(key, off);
	st.ver[keynum] = 1;
	st.count = st.sb->count = keynum + 1;
}

/* ---- operations ---- */

static void op_read(struct thread *t)
{
	uint64_t key = key_of(choose(t)), off = lookup(key);

	if (!off)
		verify_fail(key, "not found in the tree");
	read_value(t, key, off);
	t->n_read++;
}

static void op_update(struct thread *t)
{
	uint64_t keynum = choose(t), key = key_of(keynum), off = lookup(key);

	if (!off)
		verify_fail(key, "not found in the tree");
	make_value(t->buf, key, ++st.ver[keynum]);
	memcpy(st.base + off, t->buf, st.value_size);
	t->n_update++;
}

static void op_scan(struct thread *t)
{
	uint64_t start = key_of(choose(t)), nr = find_leaf(start);
	unsigned int len = 1 + xorshift(&t->rng_key) % MAX_SCAN, got = 0, i;
	struct node *x = node_at(nr);

	i = lower_bound(x, start);
	if (i == x->n || x->key[i] != start)
		verify_fail(start, "the scan's start key is not in the tree");
	while (got < len) {
		if (i == x->n) {
			if (!x->next)
				break;
			nr = x->next;
			x = node_at(nr);
			i = 0;
			continue;
		}
		check_value_off(x->ptr[i], nr);
		read_value(t, x->key[i], x->ptr[i]);
		i++;
		got++;
	}
	t->n_scan++;
	t->n_scanned += got;
}

static void do_op(struct thread *t, enum op op)
{
	if (op == OP_READ || op == OP_SCAN) {
		pthread_rwlock_rdlock(&lock);
		if (op == OP_READ)
			op_read(t);
		else
			op_scan(t);
	} else {
		pthread_rwlock_wrlock(&lock);
		if (op == OP_UPDATE) {
			op_update(t);
		} else {
			insert_record(t->buf);
			t->n_insert++;
		}
	}
	pthread_rwlock_unlock(&lock);
}

static void *run(void *arg)
{
	struct thread *t = arg;
	uint64_t i, t0, t1, ns;
	enum op op;

	pthread_barrier_wait(&start_line);
	t->start_ns = now_ns();
	for (i = 0; i < t->ops; i++) {
		op = next_op(&t->rng_op);
		if (o.untimed) {
			do_op(t, op);
			continue;
		}
		t0 = now_ns();
		do_op(t, op);
		t1 = now_ns();
		ns = t1 - t0;
		t->hist[bucket(ns)]++;
		t->sum_ns += ns;
		t->timed++;
	}
	t->end_ns = now_ns();
	return NULL;
}

/* After the run: every record once, in key order, each value checked. */
static void verify_all(struct thread *t)
{
	uint64_t nr = st.root, h, seen = 0, prev = 0;
	struct node *x = node_at(nr);
	unsigned int i;

	for (h = 1; h < st.height; h++) {
		if (x->leaf)
			corrupt("a leaf above the leaf level", nr);
		nr = x->ptr[0];
		x = node_at(nr);
	}
	for (;;) {
		if (!x->leaf)
			corrupt("an inner node in the leaf chain", nr);
		for (i = 0; i < x->n; i++) {
			if (seen && x->key[i] <= prev)
				verify_fail(x->key[i], "out of order after key 0x%016llx",
					    (unsigned long long)prev);
			check_value_off(x->ptr[i], nr);
			read_value(t, x->key[i], x->ptr[i]);
			prev = x->key[i];
			seen++;
		}
		if (!x->next)
			break;
		nr = x->next;
		x = node_at(nr);
	}
	if (seen != st.count) {
		fprintf(stderr, "kvstore: verify: %llu records in the leaves, want %llu\n",
			(unsigned long long)seen, (unsigned long long)st.count);
		exit(1);
	}
}

/* ---- setup ---- */

static uint64_t parse_count(const char *name, const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		bad_arg("%s: '%s' is not a whole number", name, s);
	return v;
}

static uint64_t parse_size(const char *name, const char *s)
{
	char *end;
	uint64_t v, mul = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		bad_arg("%s: '%s' is not a size", name, s);
	switch (*end) {
	case 'G': case 'g': mul = 1ULL << 30; end++; break;
	case 'M': case 'm': mul = 1ULL << 20; end++; break;
	case 'K': case 'k': mul = 1ULL << 10; end++; break;
	default: break;
	}
	if (*end || v > UINT64_MAX / mul)
		bad_arg("%s: '%s' is not a size (bytes, or K, M, G)", name, s);
	return v * mul;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kvstore --dev PATH --heap BYTES --records N --ops N\n"
		"               --mix a|b|c|d|e [--zipf THETA] [--value-size BYTES]\n"
		"               [--seed S] [--threads T] [--verify] [--untimed]\n"
		"\n"
		"A B+tree key-value store in one MAP_SHARED mapping of PATH\n"
		"(/dev/vflashN, or a regular file, grown to BYTES if smaller):\n"
		"load N records, then run N operations of a YCSB core mix.\n"
		"\n"
		"  --dev PATH          the device or file to map\n"
		"  --heap BYTES        bytes to map (K, M, G suffixes)\n"
		"  --records N         records loaded before the run\n"
		"  --ops N             operations of the run phase (0: load only)\n"
		"  --mix a|b|c|d|e     a 50%% read 50%% update, b 95/5, c all reads,\n"
		"                      d 95%% read latest 5%% insert,\n"
		"                      e 95%% scan (1-%d records) 5%% insert\n"
		"  --zipf THETA        Zipfian key choice, 0 <= THETA < 1\n"
		"                      (default 0.99; 0: uniform)\n"
		"  --value-size BYTES  value size, 16 to 1M (default 1000)\n"
		"  --seed S            the run's random seed (default 1)\n"
		"  --threads T         run-phase threads, 1 to %d (default 1)\n"
		"  --verify            check every value read; exit 1 on a mismatch\n"
		"  --untimed           no clock around each operation (no percentiles)\n"
		"  --corrupt-rank R    (tests) flip a byte of the R-th hottest record\n"
		"                      through a second mapping after the load\n"
		"\n"
		"Output: one line of key=value pairs (see the source's header).\n",
		MAX_SCAN, MAX_THREADS);
}

static void parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "dev", required_argument, NULL, 'D' },
		{ "heap", required_argument, NULL, 'H' },
		{ "records", required_argument, NULL, 'r' },
		{ "ops", required_argument, NULL, 'o' },
		{ "mix", required_argument, NULL, 'm' },
		{ "zipf", required_argument, NULL, 'z' },
		{ "value-size", required_argument, NULL, 'v' },
		{ "seed", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 'T' },
		{ "verify", no_argument, NULL, 'V' },
		{ "untimed", no_argument, NULL, 'U' },
		{ "corrupt-rank", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, have_ops = 0;
	uint64_t v;
	char *end;

	o = (struct opts) { .theta = 0.99, .value_size = 1000, .seed = 1,
			    .threads = 1, .corrupt_rank = -1 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", lo, NULL)) != -1) {
		switch (c) {
		case 'D': o.dev = optarg; break;
		case 'H': o.heap = parse_size("--heap", optarg); break;
		case 'r': o.records = parse_count("--records", optarg); break;
		case 'o':
			o.ops = parse_count("--ops", optarg);
			have_ops = 1;
			break;
		case 'm':
			if (strlen(optarg) != 1 || !strchr("abcde", optarg[0]))
				bad_arg("--mix: '%s' is not one of a b c d e", optarg);
			o.mix = optarg[0];
			break;
		case 'z':
			errno = 0;
			o.theta = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o.theta >= 0) ||
			    o.theta >= 1)
				bad_arg("--zipf: '%s' is not a number in [0, 1)", optarg);
			break;
		case 'v': o.value_size = parse_size("--value-size", optarg); break;
		case 's': o.seed = parse_count("--seed", optarg); break;
		case 'T':
			v = parse_count("--threads", optarg);
			if (!v || v > MAX_THREADS)
				bad_arg("--threads: %llu is not in 1..%d",
					(unsigned long long)v, MAX_THREADS);
			o.threads = v;
			break;
		case 'V': o.verify = 1; break;
		case 'U': o.untimed = 1; break;
		case 'X':
			v = parse_count("--corrupt-rank", optarg);
			if (v > INT64_MAX)
				bad_arg("--corrupt-rank: %s is too large", optarg);
			o.corrupt_rank = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case ':':
			bad_arg("%s needs a value", argv[optind - 1]);
			break;
		default:
			bad_arg("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad_arg("unexpected argument '%s'", argv[optind]);
	if (!o.dev)
		bad_arg("--dev PATH is required");
	if (!o.heap)
		bad_arg("--heap BYTES is required (and not 0)");
	if (!o.records)
		bad_arg("--records N is required (and not 0)");
	if (!have_ops)
		bad_arg("--ops N is required");
	if (!o.mix)
		bad_arg("--mix a|b|c|d|e is required");
	if (o.value_size < 16 || o.value_size > MAX_VALUE)
		bad_arg("--value-size: %llu is not in 16..%lu (the key and version take 16)",
			(unsigned long long)o.value_size, MAX_VALUE);
	if (o.records > (1ULL << 40))
		bad_arg("--records: %llu is too many", (unsigned long long)o.records);
	if (o.ops > (1ULL << 40))
		bad_arg("--ops: %llu is too many", (unsigned long long)o.ops);
}

/* The run's inserts: the op-type streams replayed (they are separate). */
static uint64_t count_inserts(void)
{
	uint64_t n = 0, i, s;
	unsigned int k;

	if (o.mix != 'd' && o.mix != 'e')
		return 0;
	for (k = 0; k < o.threads; k++) {
		s = rng_seed(o.seed, k, 0);
		for (i = 0; i < o.ops / o.threads + (k < o.ops % o.threads); i++)
			n += next_op(&s) == OP_INSERT;
	}
	return n;
}

/*
 * The most heap the records can need: every value, and leaves no more than
 * half full after splits (127 keys) with the inner nodes above them.
 */
static uint64_t heap_needed(uint64_t recs)
{
	uint64_t vsz = (o.value_size + 7) & ~7ULL, nodes = 0, level;

	level = recs / (LEAF_MAX / 2) + 1;
	while (level > 1) {
		nodes += level;
		level = level / ((INNER_MAX + 1) / 2) + 1;
	}
	nodes += 2;
	return NODE_SIZE * (1 + nodes) + (recs * vsz + NODE_SIZE - 1) / NODE_SIZE * NODE_SIZE;
}

static uint8_t *map_dev(const char *path, uint64_t bytes)
{
	struct stat sb;
	void *p;
	int fd;

	/* No regular file stands in for a device node that is not there. */
	fd = open(path, O_RDWR | (strncmp(path, "/dev/", 5) ? O_CREAT : 0), 0644);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (fstat(fd, &sb))
		die("%s: %s", path, strerror(errno));
	if (S_ISREG(sb.st_mode) && (uint64_t)sb.st_size < bytes &&
	    ftruncate(fd, bytes))
		die("%s: cannot grow it to %llu bytes: %s", path,
		    (unsigned long long)bytes, strerror(errno));
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap %s (%llu bytes): %s%s", path, (unsigned long long)bytes,
		    strerror(errno), errno == EINVAL ? " (is --heap beyond the device?)" : "");
	close(fd);
	return p;
}

/* Zero the superblock and make an empty tree: one leaf, the root. */
static void format(void)
{
	st.sb = (struct super *)st.base;
	memset(st.sb, 0, sizeof(*st.sb));
	st.vsz = (o.value_size + 7) & ~7ULL;
	st.value_size = o.value_size;
	st.nodes = 1;
	st.val_low = st.heap;
	st.count = 0;
	st.sb->heap_bytes = st.heap;
	st.sb->value_size = o.value_size;
	st.sb->nodes = 1;
	st.sb->val_low = st.heap;
	st.root = st.sb->root = alloc_node(1);
	st.height = st.sb->height = 1;
	st.sb->magic = MAGIC;
}

/* --corrupt-rank: flip a byte of a record's value through a new mapping. */
static void corrupt_record(uint64_t rank)
{
	uint64_t keynum, key, off;
	uint8_t *p;

	for (;; rank++) {
		if (rank >= (o.mix == 'd' ? st.count : domain))
			die("--corrupt-rank: no loaded record at that rank");
		keynum = keynum_of_rank(rank, st.count);
		if (keynum < st.count)
			break;
	}
	key = key_of(keynum);
	off = lookup(key);
	if (!off)
		die("--corrupt-rank: keynum %llu not found", (unsigned long long)keynum);
	/* the middle of the bytes after the key and version, or the version */
	off += st.value_size > 16 ? 16 + (st.value_size - 16) / 2 : 8;
	p = map_dev(o.dev, st.heap);
	p[off] ^= 0x5a;
	munmap(p, st.heap);
	fprintf(stderr, "kvstore: corrupted key 0x%016llx (keynum %llu) at heap offset %llu through a second mapping\n",
		(unsigned long long)key, (unsigned long long)keynum,
		(unsigned long long)off);
}

/* /sys/class/vflash/vflashN/stats/ of a --dev /dev/vflashN, or NULL. */
static const char *stats_dir(void)
{
	static char dir[256];
	const char *name = strrchr(o.dev, '/');

	name = name ? name + 1 : o.dev;
	if (strncmp(name, "vflash", 6))
		return NULL;
	snprintf(dir, sizeof(dir), "/sys/class/vflash/%s/stats", name);
	return access(dir, R_OK) ? NULL : dir;
}

static const char *const dev_stats[] = {
	"misses", "refaults", "evictions", "dirty_writebacks",
	"prefetch_issued", "prefetch_hits",
};
#define NR_DEV_STATS	(sizeof(dev_stats) / sizeof(dev_stats[0]))

static void read_stats(const char *dir, uint64_t *v)
{
	char path[320];
	unsigned long long x;
	unsigned int i;
	FILE *f;

	for (i = 0; i < NR_DEV_STATS; i++) {
		v[i] = 0;
		snprintf(path, sizeof(path), "%s/%s", dir, dev_stats[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &x) == 1)
			v[i] = x;
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	static struct thread th[MAX_THREADS];
	static uint64_t hist[BUCKETS];
	uint64_t inserts, need, t0, t1, t2, t3, run_end, total = 0, timed = 0, sum = 0;
	uint64_t s0[NR_DEV_STATS], s1[NR_DEV_STATS], i;
	uint64_t n_read = 0, n_update = 0, n_insert = 0, n_scan = 0, n_scanned = 0;
	pthread_rwlockattr_t la;
	const char *sdir;
	unsigned int k, b;
	double load_s, run_s;

	parse(argc, argv);
	inv_c1 = inverse(FMIX_C1);
	inv_c2 = inverse(FMIX_C2);
	if (keynum_of(key_of(12345)) != 12345)
		die("the key hash does not invert");

	inserts = count_inserts();
	need = heap_needed(o.records + inserts);
	if (o.heap < need)
		bad_arg("--heap %llu is too small for %llu records of %llu bytes: give at least %llu",
			(unsigned long long)o.heap,
			(unsigned long long)(o.records + inserts),
			(unsigned long long)o.value_size, (unsigned long long)need);
	if (o.heap % NODE_SIZE)
		bad_arg("--heap %llu is not a multiple of %lu", (unsigned long long)o.heap,
			NODE_SIZE);

	/* The chooser: ranks over the records (e: plus the run's inserts). */
	domain = o.records + (o.mix == 'e' ? inserts : 0);
	for (dom_bits = 0; (1ULL << dom_bits) < domain; dom_bits++)
		;
	dom_mask = (1ULL << dom_bits) - 1;
	zipf_init(&zbase, o.mix == 'd' ? o.records : domain, o.theta);

	st.cap = o.records + inserts;
	st.ver = calloc(st.cap, sizeof(*st.ver));
	if (!st.ver)
		die("out of memory for %llu versions", (unsigned long long)st.cap);
	st.heap = o.heap;
	st.base = map_dev(o.dev, o.heap);
	format();

	for (k = 0; k < o.threads; k++) {
		th[k].id = k;
		th[k].ops = o.ops / o.threads + (k < o.ops % o.threads);
		th[k].rng_op = rng_seed(o.seed, k, 0);
		th[k].rng_key = rng_seed(o.seed, k, 1);
		th[k].z = zbase;
		th[k].buf = malloc(o.value_size);
		th[k].want = malloc(o.value_size);
		if (!th[k].buf || !th[k].want)
			die("out of memory");
	}

	/* Load: keynums in order, so keys in a scrambled order. */
	t0 = now_ns();
	for (i = 0; i < o.records; i++)
		insert_record(th[0].buf);
	t1 = now_ns();
	load_s = (t1 - t0) / 1e9;

	if (o.corrupt_rank >= 0)
		corrupt_record(o.corrupt_rank);

	pthread_rwlockattr_init(&la);
	pthread_rwlockattr_setkind_np(&la, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&lock, &la);
	pthread_barrier_init(&start_line, NULL, o.threads + 1);
	sdir = stats_dir();
	if (sdir)
		read_stats(sdir, s0);
	for (k = 0; k < o.threads; k++)
		if (pthread_create(&th[k].tid, NULL, run, &th[k]))
			die("pthread_create: %s", strerror(errno));
	pthread_barrier_wait(&start_line);
	for (k = 0; k < o.threads; k++)
		pthread_join(th[k].tid, NULL);
	t2 = now_ns();
	if (sdir)
		read_stats(sdir, s1);
	/*
	 * The threads' own span: the main thread may run late after the
	 * barrier (a busy host), and its clock would shorten the run.
	 */
	t1 = th[0].start_ns;
	run_end = th[0].end_ns;
	for (k = 1; k < o.threads; k++) {
		if (th[k].start_ns < t1)
			t1 = th[k].start_ns;
		if (th[k].end_ns > run_end)
			run_end = th[k].end_ns;
	}
	run_s = (run_end - t1) / 1e9;

	if (o.verify)
		verify_all(&th[0]);
	t3 = now_ns();

	for (k = 0; k < o.threads; k++) {
		for (b = 0; b < BUCKETS; b++)
			hist[b] += th[k].hist[b];
		timed += th[k].timed;
		sum += th[k].sum_ns;
		n_read += th[k].n_read;
		n_update += th[k].n_update;
		n_insert += th[k].n_insert;
		n_scan += th[k].n_scan;
		n_scanned += th[k].n_scanned;
	}
	total = n_read + n_update + n_insert + n_scan;
	printf("mix=%c records=%llu ops=%llu threads=%u zipf=%g value_size=%llu seed=%llu"
	       " ops_per_s=%.0f p50_ns=%llu p99_ns=%llu p999_ns=%llu mean_ns=%llu"
	       " reads=%llu updates=%llu inserts=%llu scans=%llu scan_records=%llu"
	       " heap_bytes=%llu tree_height=%llu nodes=%llu load_s=%.3f run_s=%.3f"
	       " verify=%s verify_s=%.3f",
	       o.mix, (unsigned long long)o.records, (unsigned long long)total,
	       o.threads, o.theta, (unsigned long long)o.value_size,
	       (unsigned long long)o.seed,
	       run_s > 0 ? total / run_s : 0.0,
	       (unsigned long long)percentile(hist, timed, 0.50),
	       (unsigned long long)percentile(hist, timed, 0.99),
	       (unsigned long long)percentile(hist, timed, 0.999),
	       (unsigned long long)(timed ? sum / timed : 0),
	       (unsigned long long)n_read, (unsigned long long)n_update,
	       (unsigned long long)n_insert, (unsigned long long)n_scan,
	       (unsigned long long)n_scanned,
	       (unsigned long long)(st.nodes * NODE_SIZE + st.heap - st.val_low),
	       (unsigned long long)st.height, (unsigned long long)(st.nodes - 1),
	       load_s, run_s, o.verify ? "ok" : "off", (t3 - t2) / 1e9);
	if (sdir)
		for (k = 0; k < NR_DEV_STATS; k++)
			printf(" dev_%s=%llu", dev_stats[k],
			       (unsigned long long)(s1[k] - s0[k]));
	printf("\n");
	munmap(st.base, st.heap);
	return 0;
}
