// SPDX-License-Identifier: GPL-2.0
/*
 * crashcheck: a crash-consistency checker for vflash's NVMe frontend, in
 * the style of dm-log-writes, CrashMonkey and ALICE (docs/crashcheck.md).
 *
 * Threads issue a seeded random mix of NVMe commands through the
 * passthrough ioctls (NVME_IOCTL_IO_CMD/IO64_CMD on a namespace's block
 * device, NVME_IOCTL_ADMIN_CMD on its controller for Set Features), so
 * that the checker, not the block layer, decides every bit: Write, Write
 * with FUA, Flush, Dataset Management Deallocate, Write Zeroes with and
 * without DEAC (and with FUA), Read; with --fdp the writes carry a
 * placement directive (DTYPE 2h, DSPEC a random placement handle); on a
 * zoned namespace Write at the write pointer, Zone Append, Zone
 * Management Send (Reset, Finish, Open, Close), Flush, Read and Report
 * Zones, and with --zrwa zones opened with ZRWAA, written anywhere in
 * their window and flushed (action 11h, and by writes past it); on the dual frontend (frontend=nvme,cxl) also CXL stores through
 * a MAP_SHARED mapping of /dev/vflashN. --threads threads per namespace
 * (32: 32 commands in flight per namespace, one each), on --namespaces
 * namespaces (made with Namespace Management; one is deleted and made
 * anew between some rounds). Each thread owns a disjoint set of LBAs
 * (chunks, or whole zones), so every LBA's history is sequential and the
 * oracle is exact.
 *
 * Every LBA holds a self-describing record (magic, seed, namespace and
 * LBA, write id, checksum, a pattern): before the first round every LBA
 * of a conventional namespace is written durably with a record of its
 * own, and every round starts by writing the LBAs that read zeros again
 * (durably, fresh records), so zeros are a value that only a zeroing
 * command of the round (or, on a zoned namespace, an unwritten block)
 * can explain. Each round sets the write cache on or off, arms
 * faults/power_cut (/sys/class/vflash/vflashN/faults/, --device: sysfs,
 * so a locked-down host can run it), runs the load, ends (a cut; or a controller reset, a
 * clean shutdown, an injected timeout or delay with the kernel's
 * recovery, then a cut), waits for the namespaces to come back, reads
 * every LBA and checks it against the durability rules
 * (docs/crashcheck.md has the table; docs/faults.md the contract).
 *
 * Liveness: the LBAs whose value after a cut is older than their newest
 * completed operation are counted ("taken back"); a run that had rounds
 * with the write cache on and without power-loss protection ending in a
 * plain cut, and in which nothing was ever taken back, fails (exit 4):
 * the power-loss log must be alive for the check to mean anything.
 *
 * usage: crashcheck [options]   (crashcheck -h lists them)
 * The seed is printed first; --seed S replays a run's operations and its
 * cut points (the interleaving of the threads is the scheduler's).
 * The last line: "crashcheck: cuts N, LBAs checked M, violations V".
 * Exit status: 0 no violation, 1 violations, 2 usage, 3 the rig failed
 * (no device, an I/O error without a cut, the device did not come back),
 * 4 nothing was ever taken back (the log is not alive).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE		4096
#define MAGIC		0x316b636863727363ULL	/* "csrchck1" */
#define MAX_THREADS	1024
#define MAX_NS		8
#define READ_CHUNK	(128 * 1024)
#define VAL_ZERO	0ULL
#define VAL_CORRUPT	UINT64_MAX
#define VAL_UNCOR	(UINT64_MAX - 1)	/* reads fail: Write Uncorrectable */
#define SC_READ_ERROR	0x281	/* Unrecovered Read Error */
#define BASE_TID	0xffeU	/* the thread id of baseline records */

#define NQN_PREFIX	"nqn.2026-11.io.vflash:"

/* NVMe opcodes and bits */
#define OP_FLUSH	0x00
#define OP_WRITE	0x01
#define OP_READ		0x02
#define OP_UNCOR	0x04
#define OP_VERIFY	0x0c
#define OP_WZ		0x08
#define OP_DSM		0x09
#define OP_COPY		0x19
#define OP_ZMS		0x79
#define OP_ZMR		0x7a
#define OP_ZAPPEND	0x7d
#define ADM_IDENTIFY	0x06
#define ADM_SET_FEAT	0x09
#define ADM_GET_FEAT	0x0a
#define FEAT_VWC	0x06
#define CDW12_FUA	(1U << 30)
#define CDW12_DEAC	(1U << 25)
#define CDW12_DTYPE_PL	(2U << 20)	/* Data Placement directive */
#define DSM_AD		(1U << 2)
#define ZSA_CLOSE	1
#define ZSA_FINISH	2
#define ZSA_OPEN	3
#define ZSA_RESET	4
#define ZSA_ZRWA_FLUSH	0x11	/* Flush Explicit ZRWA Range */
#define ZMS_ZRWAA	(1U << 9)	/* CDW13: Open with ZRWA Allocate */
/* zone states (Report Zones, ZS) */
#define ZS_EMPTY	1
#define ZS_IOPEN	2
#define ZS_EOPEN	3
#define ZS_CLOSED	4
#define ZS_RO		0xd
#define ZS_FULL		0xe
#define ZS_OFFLINE	0xf

enum kind {
	K_WRITE, K_WZ, K_DEAC, K_DSM, K_CXL, K_FLUSH, K_READ,
	K_APPEND, K_ZRESET, K_ZFINISH, K_ZOPEN, K_ZCLOSE,
	K_COPY, K_UNCOR, K_VERIFY, K_ZOPENZ, K_ZFLUSH,
};
static const char *const kind_name[] = {
	"write", "write-zeroes", "write-zeroes+deac", "deallocate",
	"cxl-store", "flush", "read", "zone-append", "zone-reset",
	"zone-finish", "zone-open", "zone-close", "copy",
	"write-uncorrectable", "verify", "zone-open-zrwaa", "zrwa-flush",
};

/* How a round ends before its cut. */
enum ending { E_CUT, E_RESET, E_SHUTDOWN, E_TIMEOUT, E_DELAY, E_NR };
static const char *const ending_name[] = {
	"cut", "reset", "shutdown", "timeout", "delay",
};

/* Status of an operation. */
enum { S_INFLIGHT, S_OK, S_FAILED };

struct op {
	uint64_t wid;		/* value written (0: zeros) */
	uint64_t sub;		/* ticket before submission */
	uint64_t sub_ms;	/* when (now_ms()) */
	uint64_t done;		/* ticket after completion, 0 if none */
	uint64_t slba;		/* first LBA (first range for DSM; zone ops: the zone) */
	uint32_t nlb;		/* LBAs (all ranges for DSM) */
	uint8_t kind;
	uint8_t fua;
	uint8_t vwc_off;
	uint8_t status;
	uint8_t zrwa;		/* a write into a zone's ZRWA window */
	uint16_t dspec;		/* --fdp: the placement handle */
	uint64_t zwp;		/* ZRWA: the write pointer (flushed point) after it */
	int err;		/* ioctl: <0 errno, >0 NVMe status */
	uint64_t src[2];	/* copy: its source ranges' first LBAs */
	uint32_t srcn[2];	/* and lengths (0: no second range) */
	uint64_t *cv;		/* copy: the value each destination LBA gets */
};

/* An LBA's history since its baseline: references to the owner's ops. */
struct lent {
	uint64_t base;		/* baseline value */
	uint32_t n, cap;
	uint32_t *idx;		/* indexes into the owner's op table */
};

/* A zone of a zoned namespace (LBAs absolute). */
struct zone {
	uint64_t zs, cap;	/* first LBA, writable LBAs */
	uint64_t base_wp;	/* write pointer at the round's start */
	uint64_t wp;		/* the load's: after the last op issued */
	bool full;		/* the load's: Full (by writes or Finish) */
	bool open;		/* the load's: open (implicitly or explicitly) */
	bool empty;		/* the load's: Empty (Open with ZRWAA may take it) */
	bool zrwa_ok;		/* --zrwa: a zone the load may open with a ZRWA */
	bool zrwa;		/* the load's: holds a ZRWA */
	bool zrwa_round;	/* had a ZRWA this round: check_zone_zrwa() */
	uint64_t written;	/* the load's: end of the data written (ZRWA window) */
	uint32_t n, cap_ops;
	uint32_t *idx;		/* the round's ops on the zone */
};

struct nsx {
	unsigned int i;		/* index (0: namespace 1) */
	unsigned int nsid;
	char name[256];
	int fd;
	uint64_t nlba, nchunks;
	struct lent *lents;
	_Atomic uint64_t max_flush;	/* largest ticket of a completed flush */
	unsigned int w0;	/* its first worker */
	bool zoned;
	uint64_t zlbas;		/* zone size in LBAs */
	uint32_t nzones;
	struct zone *zones;
	/* --zrwa: the ZRWA (Identify CNS 05h): window, granularity, resources */
	uint32_t zrwas, zrwafg, nzrwa;
};

struct worker {
	pthread_t th;
	unsigned int id;	/* global */
	unsigned int li;	/* within its namespace */
	struct nsx *ns;
	uint64_t rng;
	struct op *ops;
	uint32_t nops, cap;
	unsigned char *buf, *rbuf;
	/* results of the round (the main thread watches the first two) */
	_Atomic uint64_t done_ops;
	atomic_bool failed;	/* an op failed: stopped */
	uint64_t fail_tick;
	uint64_t fail_sub;	/* the failed op's submission ticket */
	uint64_t fail_age_ms;	/* how long it was in flight */
	int fail_err;
	uint8_t fail_kind;
	uint64_t read_violations;
	uint32_t *hot;		/* hot chunks (zones) of the round */
	uint32_t nhot;
};

/* options */
static uint64_t seed;
static unsigned int tpn = 32, cuts_wanted = 10, ops_per_round = 24;
static unsigned int chunk_pages = 8, max_seconds, nr_ns = 1, fdp_handles;
static int vwc_mode = -1;	/* -1: random per round, 0 off, 1 on */
static int cut_mode = -1;	/* -1: mix, 0 file, 1 rule */
static bool use_cxl, use_faults, tamper, use_plp, recycle = true;
/*
 * --zrwa: on a zoned namespace with a Zone Random Write Area, some of
 * each thread's zones are opened with ZRWAA and written anywhere in
 * their window (overwrites too), flushed explicitly (action 11h) and by
 * writes past the window (docs/crashcheck.md).
 */
static bool use_zrwa;
/*
 * --stray-reset: the checker's own test of the kernel's recovery: in
 * rounds ended by a cut by hand one command is swallowed (the timeout
 * rule), so the kernel times it out, resets the controller (its write
 * cache back on) and aborts it, and the checker is not told: as when a
 * command outlives nvme_core.io_timeout on a busy host. Programs are
 * slow, so that writes complete after the reset too.
 */
static bool stray_reset;
static unsigned int endings_mask = 1U << E_CUT;
static unsigned int prog_ppm = 2000;
static unsigned int max_detail = 10;

/* device */
static char ctrl_name[256];
/*
 * --device NAME (vflash0 by default): its sysfs directory, fault rules
 * (sysfs: writable under kernel lockdown), the NVMe subsystem NQN its
 * controller and namespaces are known by (no other drive is touched),
 * and its CXL device node.
 */
static char dev_name[32] = "vflash0";
static char sysdev[64], faults[80], dev_nqn[96], cxl_node[48];
static int ctrl_fd = -1;
static unsigned int lbs, lpp;
static unsigned char *cxl_map;
static struct nsx nss[MAX_NS];
static unsigned int nr_threads;

/* oracle */
static struct worker workers[MAX_THREADS];
static _Atomic uint64_t tick = 1;
static _Atomic uint64_t ops_done;
static atomic_bool stop;
static unsigned int round_no;
static int round_vwc_off;
/*
 * The first round (write cache on, cut by hand) issues no Flush and no
 * FUA write: its cut finds the last writes in the cache, so a run's
 * liveness check does not hang on the luck of later rounds.
 */
static bool round_no_flush;
static uint64_t sd_tick;	/* a clean shutdown's: completed writes durable */
static uint64_t end_tick;	/* errors after it are the round's ending's */
/*
 * A controller reset sets the features back to their defaults (the write
 * cache on): a write with the cache set off is durable at its completion
 * only if it completed before the reset began (before this ticket).
 */
static uint64_t vwc_until;
static enum ending round_end;

/* totals */
static uint64_t t_cuts, t_checked, t_violations, t_ops, t_rolled, t_rule_cuts;
static uint64_t t_inflight, t_rig_errors, t_fault_rounds, t_taken, t_live_rounds;
static uint64_t t_kernel_resets;
static _Atomic uint64_t t_copies, t_uncors, t_verifies, t_uncor_reads;
/* --zrwa: opens with ZRWAA, window writes, overwrites, explicit and implicit flushes */
static _Atomic uint64_t t_zopens, t_zwrites, t_zover, t_zflushes, t_zimplicit;
static bool tamper_copy;
/* nvme_core.io_timeout: a command in flight that long meets the kernel's recovery */
static uint64_t io_timeout_ms = 30000;
static uint64_t t_ends[E_NR], t_recycled, t_base_lbas;
static long long lost0;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "crashcheck: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (seed %" PRIu64 ", round %u)\n", seed, round_no);
	va_end(ap);
	fflush(stdout);
	exit(3);
}

static uint64_t rnd(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t *s, uint64_t n)
{
	return n ? rnd(s) % n : 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- files ---- */

static int read_str(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(out, len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	out[strcspn(out, "\n")] = 0;
	return 0;
}

static long long read_num(const char *path)
{
	char s[64];

	if (read_str(path, s, sizeof(s)))
		return -1;
	return strtoll(s, NULL, 0);
}

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

/* Write @val into faults/@rule/@file (faults/@rule without @file) */
static int rule_write(const char *rule, const char *file, const char *val)
{
	char path[256];

	if (file)
		snprintf(path, sizeof(path), "%s/%s/%s", faults, rule, file);
	else
		snprintf(path, sizeof(path), "%s/%s", faults, rule);
	return write_str(path, val);
}

static void rule_set(const char *rule, const char *file, const char *fmt, ...)
{
	char val[64];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	rc = rule_write(rule, file, val);
	if (rc)
		die("%s/%s/%s=%s: %s", faults, rule, file, val, strerror(-rc));
}

static long long rule_get(const char *rule, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/%s", faults, rule, file);
	return read_num(path);
}

static long long stat_get(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/stats/%s", sysdev, name);
	return read_num(path);
}

/* ---- records ---- */

static uint64_t csum(const unsigned char *b)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned int i;

	for (i = 0; i < lbs; i++)
		if (i < 32 || i >= 40)
			h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

/* A record's key: the namespace's NSID and the LBA. */
static uint64_t key(const struct nsx *ns, uint64_t lba)
{
	return (uint64_t)ns->nsid << 48 | lba;
}

/*
 * Copied records. A Copy puts another LBA's record (its key, its write id)
 * at its destination; such a value is named by a hash of the pair with bit
 * 63 set and bit 62 clear (a write id has both clear, VAL_UNCOR and
 * VAL_CORRUPT both set), and the pair is kept in a table to describe it
 * and to copy it on.
 */
struct cpair {
	uint64_t v, k, w;
};
static struct cpair *ctab;
static uint64_t ctab_size, ctab_used;
static pthread_mutex_t ctab_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_copyval(uint64_t v)
{
	return v >> 62 == 2;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ x >> 31;
}

static uint64_t copyval_of(uint64_t k, uint64_t w)
{
	return 1ULL << 63 | (mix64(k * 0x9e3779b97f4a7c15ULL ^ mix64(w)) >> 2);
}

static struct cpair *ctab_find(uint64_t v)
{
	uint64_t i;

	for (i = v & (ctab_size - 1); ctab[i].v; i = (i + 1) & (ctab_size - 1))
		if (ctab[i].v == v)
			return &ctab[i];
	return &ctab[i];
}

/* The value record (@k, @w) has at the LBA whose key is @at. */
static uint64_t copyval(uint64_t at, uint64_t k, uint64_t w)
{
	uint64_t v = copyval_of(k, w), i, n;
	struct cpair *p, *old;

	if (k == at || w == VAL_ZERO)
		return w;
	pthread_mutex_lock(&ctab_lock);
	if (2 * (ctab_used + 1) > ctab_size) {
		old = ctab;
		n = ctab_size;
		ctab_size = n ? 2 * n : 4096;
		ctab = calloc(ctab_size, sizeof(*ctab));
		if (!ctab)
			die("out of memory");
		for (i = 0; i < n; i++)
			if (old[i].v)
				*ctab_find(old[i].v) = old[i];
		free(old);
	}
	p = ctab_find(v);
	if (!p->v) {
		*p = (struct cpair){ v, k, w };
		ctab_used++;
	}
	pthread_mutex_unlock(&ctab_lock);
	return v;
}

/* The record (key, write id) value @v of the LBA whose key is @at holds. */
static bool record_of(uint64_t at, uint64_t v, uint64_t *k, uint64_t *w)
{
	struct cpair *p;
	bool ok;

	if (!is_copyval(v)) {
		*k = at;
		*w = v;
		return v != VAL_ZERO && v != VAL_UNCOR && v != VAL_CORRUPT;
	}
	pthread_mutex_lock(&ctab_lock);
	p = ctab_size ? ctab_find(v) : NULL;
	ok = p && p->v;
	if (ok) {
		*k = p->k;
		*w = p->w;
	}
	pthread_mutex_unlock(&ctab_lock);
	return ok;
}

static void fill(unsigned char *b, uint64_t k, uint64_t wid)
{
	uint64_t x = seed ^ wid * 0x9e3779b97f4a7c15ULL ^ k * 0xc2b2ae3d27d4eb4fULL;
	uint64_t *w = (uint64_t *)b;
	unsigned int i;

	w[0] = MAGIC;
	w[1] = seed;
	w[2] = k;
	w[3] = wid;
	for (i = 5; i < lbs / 8; i++)
		w[i] = rnd(&x);
	w[4] = csum(b);
}

/*
 * The value an LBA's bytes hold: VAL_ZERO, a write id, or VAL_CORRUPT
 * (with what is wrong in @why).
 */
static uint64_t decode(const unsigned char *b, uint64_t k, char *why,
		       size_t len)
{
	static __thread unsigned char *tmp;
	const uint64_t *w = (const uint64_t *)b;
	unsigned int i;

	for (i = 0; i < lbs / 8; i++)
		if (w[i])
			break;
	if (i == lbs / 8)
		return VAL_ZERO;
	if (!tmp && !(tmp = malloc(PAGE)))
		die("out of memory");
	if (w[0] == MAGIC && w[1] == seed && w[2] == k && w[3] &&
	    w[3] != VAL_CORRUPT) {
		fill(tmp, k, w[3]);
		if (!memcmp(tmp, b, lbs))
			return w[3];
	}
	/* Another LBA's record of the namespace: what a Copy puts there. */
	if (w[0] == MAGIC && w[1] == seed && w[2] != k && w[2] >> 48 == k >> 48 &&
	    w[3] && !is_copyval(w[3]) && w[3] < VAL_UNCOR) {
		fill(tmp, w[2], w[3]);
		if (!memcmp(tmp, b, lbs))
			return copyval(k, w[2], w[3]);
	}
	if (why)
		snprintf(why, len,
			 "corrupt: magic %s, seed %" PRIu64 ", nsid %" PRIu64
			 " lba %" PRIu64 ", wid %#" PRIx64 ", checksum %s",
			 w[0] == MAGIC ? "ok" : "bad", w[1], w[2] >> 48,
			 (uint64_t)(w[2] & 0xffffffffffffULL), w[3],
			 w[4] == csum(b) ? "ok" : "bad");
	return VAL_CORRUPT;
}

/* round: bits 63-44, thread + 1: 43-32, op + 1: 31-0 */
static uint64_t mkwid(unsigned int thread, uint32_t idx)
{
	return (uint64_t)round_no << 44 | (uint64_t)(thread + 1) << 32 |
	       (idx + 1);
}

static uint64_t base_wid(void)
{
	return mkwid(BASE_TID, 0);
}

static void describe(uint64_t v, char *out, size_t len)
{
	uint64_t t = (v >> 32) & 0xfff, k, w;

	if (v == VAL_ZERO)
		snprintf(out, len, "zeros");
	else if (v == VAL_CORRUPT)
		snprintf(out, len, "corrupt");
	else if (v == VAL_UNCOR)
		snprintf(out, len, "uncorrectable (Unrecovered Read Error)");
	else if (is_copyval(v) && record_of(0, v, &k, &w))
		snprintf(out, len, "a copy of nsid %" PRIu64 " lba %" PRIu64
			 "'s wid %#" PRIx64 " (round %" PRIu64 ")", k >> 48,
			 (uint64_t)(k & 0xffffffffffffULL), w, w >> 44);
	else if (is_copyval(v))
		snprintf(out, len, "a copied record %#" PRIx64, v);
	else if (t == BASE_TID + 1)
		snprintf(out, len, "wid %#" PRIx64 " (round %" PRIu64
			 " baseline)", v, v >> 44);
	else
		snprintf(out, len, "wid %#" PRIx64 " (round %" PRIu64
			 " thread %" PRIu64 " op %" PRIu64 ")", v, v >> 44,
			 t - 1, (uint64_t)((v & 0xffffffffULL) - 1));
}

/* ---- devices ---- */

static bool held(const char *name, char (*names)[256], unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* The device's live block device of @nsid, not one of @not: into @out */
static bool find_ns(unsigned int nsid, char (*not)[256], unsigned int nnot,
		    char *out, size_t len)
{
	char path[512], s[128];
	struct dirent *d;
	DIR *dir = opendir("/sys/block");
	bool found = false;

	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		unsigned int a, b;
		char tail;

		/* nvmeXnY only (nvmeXcYnZ are hidden paths) */
		if (sscanf(d->d_name, "nvme%un%u%c", &a, &b, &tail) != 2)
			continue;
		if (held(d->d_name, not, nnot))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/size", d->d_name);
		if (read_num(path) <= 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/nsid", d->d_name);
		if (read_num(path) != (long long)nsid)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/device/subsysnqn",
			 d->d_name);
		if (read_str(path, s, sizeof(s)) || strcmp(s, dev_nqn))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", d->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(out, len, "%s", d->d_name);
		found = true;
	}
	closedir(dir);
	return found;
}

/* The device's live controller other than @not: its name in ctrl_name */
static bool find_ctrl(const char *not)
{
	char path[512], s[128];
	struct dirent *d;
	DIR *dir = opendir("/sys/class/nvme");
	bool found = false;

	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		unsigned int a;
		char tail;

		if (sscanf(d->d_name, "nvme%u%c", &a, &tail) != 1)
			continue;
		if (not && !strcmp(not, d->d_name))
			continue;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/subsysnqn",
			 d->d_name);
		if (read_str(path, s, sizeof(s)) || strcmp(s, dev_nqn))
			continue;
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/state",
			 d->d_name);
		if (read_str(path, s, sizeof(s)) || strcmp(s, "live"))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", d->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(ctrl_name, sizeof(ctrl_name), "%s", d->d_name);
		found = true;
	}
	closedir(dir);
	return found;
}

/* The ioctl's result: 0, an NVMe status (> 0), or -errno. */
static int passthru(int fd, unsigned long req, void *c)
{
	int rc = ioctl(fd, req, c);

	return rc < 0 ? -errno : rc;
}

static int nvme_io(const struct nsx *ns, uint8_t opc, uint64_t slba,
		   uint32_t nlb, uint32_t cdw12, uint32_t cdw13, void *buf,
		   uint64_t *result)
{
	struct nvme_passthru_cmd64 c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.opcode = opc;
	c.nsid = ns->nsid;
	c.cdw10 = (uint32_t)slba;
	c.cdw11 = (uint32_t)(slba >> 32);
	c.cdw12 = (nlb - 1) | cdw12;
	c.cdw13 = cdw13;
	if (buf) {
		c.addr = (uintptr_t)buf;
		c.data_len = nlb * lbs;
	}
	rc = passthru(ns->fd, NVME_IOCTL_IO64_CMD, &c);
	if (result)
		*result = c.result;
	return rc;
}

static int nvme_rw(const struct nsx *ns, uint8_t opc, uint64_t slba,
		   uint32_t nlb, uint32_t flags, void *buf)
{
	return nvme_io(ns, opc, slba, nlb, flags, 0, buf, NULL);
}

static int nvme_flush(const struct nsx *ns)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_FLUSH;
	c.nsid = ns->nsid;
	return passthru(ns->fd, NVME_IOCTL_IO_CMD, &c);
}

struct dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

static int nvme_dsm(const struct nsx *ns, struct dsm_range *r,
		    unsigned int nr)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_DSM;
	c.nsid = ns->nsid;
	c.addr = (uintptr_t)r;
	c.data_len = nr * sizeof(*r);
	c.cdw10 = nr - 1;
	c.cdw11 = DSM_AD;
	return passthru(ns->fd, NVME_IOCTL_IO_CMD, &c);
}

/* Copy's Source Range Entry, descriptor format 0. */
struct copy_range {
	uint64_t rsvd0;
	uint64_t slba;
	uint16_t nlb;		/* 0's based */
	uint16_t rsvd18[7];
};

/* Copy (19h), format 0: the ranges of @o to @o->slba; CDW12 @flags. */
static int nvme_copy(const struct nsx *ns, const struct op *o,
		     uint32_t flags, uint32_t cdw13)
{
	struct nvme_passthru_cmd c;
	struct copy_range r[2];
	unsigned int nr = o->srcn[1] ? 2 : 1, i;

	memset(r, 0, sizeof(r));
	for (i = 0; i < nr; i++) {
		r[i].slba = o->src[i];
		r[i].nlb = (uint16_t)(o->srcn[i] - 1);
	}
	memset(&c, 0, sizeof(c));
	c.opcode = OP_COPY;
	c.nsid = ns->nsid;
	c.addr = (uintptr_t)r;
	c.data_len = nr * sizeof(r[0]);
	c.cdw10 = (uint32_t)o->slba;
	c.cdw11 = (uint32_t)(o->slba >> 32);
	c.cdw12 = (nr - 1) | flags;
	c.cdw13 = cdw13;
	return passthru(ns->fd, NVME_IOCTL_IO_CMD, &c);
}

/* Zone Management Send: @cdw13 the action (and its options), at @slba. */
static int zone_send13(const struct nsx *ns, uint64_t slba, uint32_t cdw13)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_ZMS;
	c.nsid = ns->nsid;
	c.cdw10 = (uint32_t)slba;
	c.cdw11 = (uint32_t)(slba >> 32);
	c.cdw13 = cdw13;
	return passthru(ns->fd, NVME_IOCTL_IO_CMD, &c);
}

static int zone_send(const struct nsx *ns, uint64_t zslba, unsigned int zsa)
{
	return zone_send13(ns, zslba, zsa);
}

/*
 * Report Zones: each zone's state and write pointer (a Full zone's: its
 * end of capacity), its capacity into ns->zones[].cap.
 */
static void report_zones(struct nsx *ns, uint8_t *state, uint64_t *wp)
{
	const uint32_t per = 255, len = 64 + per * 64;
	uint8_t *b;
	uint32_t z = 0, i, n;

	if (posix_memalign((void **)&b, PAGE, len))
		die("out of memory");
	while (z < ns->nzones) {
		struct nvme_passthru_cmd c;
		uint64_t zslba = (uint64_t)z * ns->zlbas;
		int rc;

		memset(&c, 0, sizeof(c));
		memset(b, 0, len);
		c.opcode = OP_ZMR;
		c.nsid = ns->nsid;
		c.addr = (uintptr_t)b;
		c.data_len = len;
		c.cdw10 = (uint32_t)zslba;
		c.cdw11 = (uint32_t)(zslba >> 32);
		c.cdw12 = len / 4 - 1;
		c.cdw13 = 1U << 16;	/* Report Zones, all states, partial */
		rc = passthru(ns->fd, NVME_IOCTL_IO_CMD, &c);
		if (rc)
			die("Report Zones on %s at zone %u: %d", ns->name, z, rc);
		memcpy(&n, b, 4);
		if (!n)
			die("Report Zones on %s at zone %u: no zone", ns->name, z);
		for (i = 0; i < n && i < per && z < ns->nzones; i++, z++) {
			const uint8_t *d = b + 64 + i * 64;
			uint64_t cap, zs, p;

			memcpy(&cap, d + 8, 8);
			memcpy(&zs, d + 16, 8);
			memcpy(&p, d + 24, 8);
			if (zs != (uint64_t)z * ns->zlbas)
				die("Report Zones on %s: zone %u starts at %" PRIu64,
				    ns->name, z, zs);
			ns->zones[z].cap = cap;
			state[z] = d[1] >> 4;
			wp[z] = state[z] == ZS_FULL ? zs + cap : p;
		}
	}
	free(b);
}

static int admin(struct nvme_passthru_cmd *c)
{
	return passthru(ctrl_fd, NVME_IOCTL_ADMIN_CMD, c);
}

static int set_vwc(bool on)
{
	struct nvme_passthru_cmd c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.opcode = ADM_SET_FEAT;
	c.cdw10 = FEAT_VWC;
	c.cdw11 = on;
	rc = admin(&c);
	if (rc)
		return rc;
	memset(&c, 0, sizeof(c));
	c.opcode = ADM_GET_FEAT;
	c.cdw10 = FEAT_VWC;
	rc = admin(&c);
	if (rc)
		return rc;
	return (c.result & 1) == on ? 0 : -EIO;
}

/* Unallocated NVM capacity (Identify Controller UNVMCAP), bytes */
static uint64_t unvmcap(void)
{
	struct nvme_passthru_cmd c;
	uint8_t *b;
	uint64_t v;

	if (posix_memalign((void **)&b, PAGE, PAGE))
		die("out of memory");
	memset(&c, 0, sizeof(c));
	c.opcode = ADM_IDENTIFY;
	c.addr = (uintptr_t)b;
	c.data_len = PAGE;
	c.cdw10 = 1;
	if (admin(&c))
		die("Identify Controller failed");
	memcpy(&v, b + 296, 8);
	free(b);
	return v;
}

/*
 * Open @ns's block device (its name set); read LBA 0 through it: the
 * namespace answers if the read succeeds, or fails with Unrecovered Read
 * Error (a Write Uncorrectable marked LBA 0: marks are durable).
 */
static bool open_ns(struct nsx *ns)
{
	unsigned char *b;
	char path[300];
	int fd, rc;

	snprintf(path, sizeof(path), "/dev/%s", ns->name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return false;
	rc = ioctl(fd, NVME_IOCTL_ID);
	if (rc != (int)ns->nsid) {
		close(fd);
		return false;
	}
	if (ioctl(fd, BLKSSZGET, &rc) || (rc != 512 && rc != 4096))
		die("%s: logical block size %d", ns->name, rc);
	if (lbs && (unsigned int)rc != lbs)
		die("%s: logical block size %d, not %u", ns->name, rc, lbs);
	lbs = rc;
	lpp = PAGE / lbs;
	if (posix_memalign((void **)&b, PAGE, PAGE))
		die("out of memory");
	ns->fd = fd;
	rc = nvme_rw(ns, OP_READ, 0, 1, 0, b);
	free(b);
	if (rc && !(rc > 0 && (rc & 0x7ff) == SC_READ_ERROR)) {
		ns->fd = -1;
		close(fd);
		return false;
	}
	return true;
}

/*
 * Wait (up to 30 s) for vflash's controller and every namespace, as
 * nodes other than the ones held open now (so their names are not
 * reused), and open them. The old descriptors are closed afterwards.
 */
static void reattach(void)
{
	char old[MAX_NS + 1][256], old_ctrl[256];
	int ofd[MAX_NS], ocfd = ctrl_fd;
	uint64_t t0 = now_ms();
	unsigned int i, nold = 0;

	snprintf(old_ctrl, sizeof(old_ctrl), "%s", ctrl_name);
	for (i = 0; i < nr_ns; i++) {
		ofd[i] = nss[i].fd;
		if (nss[i].fd >= 0)
			snprintf(old[nold++], 256, "%s", nss[i].name);
		nss[i].fd = -1;
	}
	for (;;) {
		bool all = true;
		char path[300];

		if (now_ms() - t0 > 30000)
			die("vflash's namespaces did not come back within 30 s");
		if (ctrl_fd == ocfd || ctrl_fd < 0) {
			if (!find_ctrl(old_ctrl[0] && ocfd >= 0 ? old_ctrl : NULL)) {
				usleep(20000);
				continue;
			}
			snprintf(path, sizeof(path), "/dev/%s", ctrl_name);
			ctrl_fd = open(path, O_RDWR);
			if (ctrl_fd < 0) {
				usleep(20000);
				continue;
			}
		}
		for (i = 0; i < nr_ns; i++) {
			struct nsx *ns = &nss[i];

			if (ns->fd >= 0)
				continue;
			if (!find_ns(ns->nsid, old, nold, ns->name,
				     sizeof(ns->name)) || !open_ns(ns))
				all = false;
		}
		if (all)
			break;
		usleep(20000);
	}
	for (i = 0; i < nr_ns; i++)
		if (ofd[i] >= 0)
			close(ofd[i]);
	if (ocfd >= 0 && ocfd != ctrl_fd)
		close(ocfd);
}

/*
 * The zoned namespace's ZRWA (Identify CNS 05h, CSI 02h): OZCS ZRWASUP,
 * NUMZRWA (0's based), ZRWAFG and ZRWAS in LBAs; 0 without one. The
 * zones the load may open with a ZRWA: every other one of each
 * thread's (zone z when z / threads is even), as many as there are
 * resources, so that Open with ZRWAA never meets ZRWA Resources
 * Unavailable.
 */
static void zrwa_geometry(struct nsx *ns)
{
	struct nvme_passthru_cmd c;
	uint32_t z, n = 0;
	uint16_t ozcs;
	uint8_t *b;

	if (posix_memalign((void **)&b, PAGE, PAGE))
		die("out of memory");
	memset(&c, 0, sizeof(c));
	c.opcode = ADM_IDENTIFY;
	c.nsid = ns->nsid;
	c.addr = (uintptr_t)b;
	c.data_len = PAGE;
	c.cdw10 = 5;		/* CNS 05h: I/O command set specific namespace */
	c.cdw11 = 2U << 24;	/* CSI 02h: zoned */
	if (admin(&c))
		die("Identify CNS 05h (zoned) of nsid %u failed", ns->nsid);
	memcpy(&ozcs, b + 2, 2);
	ns->zrwas = ns->zrwafg = ns->nzrwa = 0;
	if (ozcs & 2) {
		uint16_t v;

		memcpy(&ns->nzrwa, b + 44, 4);
		ns->nzrwa++;
		memcpy(&v, b + 48, 2);
		ns->zrwafg = v;
		memcpy(&v, b + 50, 2);
		ns->zrwas = v;
	}
	free(b);
	if (!use_zrwa)
		return;
	if (!ns->zrwas || !ns->zrwafg) {
		fprintf(stderr, "crashcheck: --zrwa: %s has no ZRWA (load vflash with zone_zrwa=1)\n",
			ns->name);
		exit(2);
	}
	for (z = 0; z < ns->nzones; z++) {
		ns->zones[z].zrwa_ok = (z / tpn) % 2 == 0 && n < ns->nzrwa;
		n += ns->zones[z].zrwa_ok;
	}
}

static void geometry(struct nsx *ns)
{
	unsigned long long bytes;
	char path[300], s[64];

	if (ioctl(ns->fd, BLKGETSIZE64, &bytes))
		die("BLKGETSIZE64: %s", strerror(errno));
	snprintf(path, sizeof(path), "/sys/block/%s/queue/zoned", ns->name);
	ns->zoned = !read_str(path, s, sizeof(s)) && strcmp(s, "none");
	if (ns->zoned) {
		uint8_t *st;
		uint64_t *wp;
		uint32_t z;

		snprintf(path, sizeof(path), "/sys/block/%s/queue/chunk_sectors",
			 ns->name);
		ns->zlbas = (uint64_t)read_num(path) * 512 / lbs;
		if (!ns->zlbas)
			die("%s: no zone size", ns->name);
		ns->nzones = bytes / lbs / ns->zlbas;
		if (ns->nzones < tpn)
			die("%s: %u zones, fewer than %u threads", ns->name,
			    ns->nzones, tpn);
		ns->nlba = (uint64_t)ns->nzones * ns->zlbas;
		ns->nchunks = ns->nzones;
		free(ns->zones);
		ns->zones = calloc(ns->nzones, sizeof(*ns->zones));
		st = calloc(ns->nzones, 1);
		wp = calloc(ns->nzones, sizeof(*wp));
		if (!ns->zones || !st || !wp)
			die("out of memory");
		for (z = 0; z < ns->nzones; z++)
			ns->zones[z].zs = (uint64_t)z * ns->zlbas;
		report_zones(ns, st, wp);
		free(st);
		free(wp);
		zrwa_geometry(ns);
		return;
	}
	if (use_zrwa) {
		fprintf(stderr, "crashcheck: --zrwa: %s is not a zoned namespace\n",
			ns->name);
		exit(2);
	}
	ns->nchunks = bytes / PAGE / chunk_pages;
	if (ns->nchunks < tpn)
		die("%s: %llu bytes: fewer chunks than threads", ns->name, bytes);
	/* The owned chunks only: a tail that is not a whole chunk is left. */
	ns->nlba = ns->nchunks * chunk_pages * lpp;
}

static void map_cxl(void)
{
	char path[128];
	long long size;
	int fd;

	snprintf(path, sizeof(path), "%s/size", sysdev);
	size = read_num(path);
	if (size <= 0)
		die("cannot read %s", path);
	fd = open(cxl_node, O_RDWR);
	if (fd < 0)
		die("%s: %s (--cxl needs frontend=nvme,cxl)", cxl_node,
		    strerror(errno));
	cxl_map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (cxl_map == MAP_FAILED)
		die("mmap %s: %s", cxl_node, strerror(errno));
	close(fd);
}

/* ---- namespaces: made with nvme-cli (Namespace Management) ---- */

static int shell(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Make and attach a namespace of @bytes; return its NSID. */
static unsigned int ns_create(uint64_t bytes, bool zoned)
{
	char cmd[512], line[256];
	unsigned int nsid = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "nvme create-ns /dev/%s --nsze=%" PRIu64 " --ncap=%" PRIu64
		 " --flbas=0%s 2>&1", ctrl_name, bytes / lbs, bytes / lbs,
		 zoned ? " --csi=2" : "");
	p = popen(cmd, "r");
	if (!p)
		die("popen");
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "nsid:");

		if (s)
			nsid = strtoul(s + 5, NULL, 0);
	}
	pclose(p);
	if (!nsid)
		die("%s: no NSID", cmd);
	if (shell("nvme attach-ns /dev/%s --namespace-id=%u --controllers=1 >/dev/null 2>&1",
		  ctrl_name, nsid))
		die("nvme attach-ns %u failed", nsid);
	return nsid;
}

static void ns_delete(unsigned int nsid)
{
	if (shell("nvme detach-ns /dev/%s --namespace-id=%u --controllers=1 >/dev/null 2>&1",
		  ctrl_name, nsid))
		die("nvme detach-ns %u failed", nsid);
	if (shell("nvme delete-ns /dev/%s --namespace-id=%u >/dev/null 2>&1",
		  ctrl_name, nsid))
		die("nvme delete-ns %u failed", nsid);
}

/* Wait for the block device of a new namespace and open it. */
static void ns_open_new(struct nsx *ns)
{
	char none[1][256] = { "" };
	uint64_t t0 = now_ms();

	ns->fd = -1;
	for (;;) {
		if (now_ms() - t0 > 30000)
			die("namespace %u did not appear within 30 s", ns->nsid);
		if (find_ns(ns->nsid, none, 0, ns->name, sizeof(ns->name)) &&
		    open_ns(ns))
			return;
		usleep(20000);
	}
}

/* ---- the load ---- */

static uint32_t new_op(struct worker *w, enum kind k, uint64_t slba,
		       uint32_t nlb)
{
	struct op *o;

	if (w->nops == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 1024;
		w->ops = xrealloc(w->ops, w->cap * sizeof(*w->ops));
		memset(w->ops + w->nops, 0,
		       (w->cap - w->nops) * sizeof(*w->ops));
	}
	o = &w->ops[w->nops];
	free(o->cv);
	memset(o, 0, sizeof(*o));
	o->kind = k;
	o->slba = slba;
	o->nlb = nlb;
	o->vwc_off = round_vwc_off;
	o->wid = (k == K_WRITE || k == K_CXL || k == K_APPEND) ?
		 mkwid(w->id, w->nops) : VAL_ZERO;
	return w->nops++;
}

/* The op joins the history of its LBAs (before it is submitted). */
static void push(struct nsx *ns, uint64_t slba, uint32_t nlb, uint32_t idx)
{
	uint64_t l;

	for (l = slba; l < slba + nlb; l++) {
		struct lent *e = &ns->lents[l];

		if (e->n == e->cap) {
			e->cap = e->cap ? e->cap * 2 : 4;
			e->idx = xrealloc(e->idx, e->cap * sizeof(*e->idx));
		}
		e->idx[e->n++] = idx;
	}
}

static void zpush(struct zone *z, uint32_t idx)
{
	if (z->n == z->cap_ops) {
		z->cap_ops = z->cap_ops ? z->cap_ops * 2 : 8;
		z->idx = xrealloc(z->idx, z->cap_ops * sizeof(*z->idx));
	}
	z->idx[z->n++] = idx;
}

static struct worker *owner(const struct nsx *ns, uint64_t lba)
{
	uint64_t c = ns->zoned ? lba / ns->zlbas : lba / lpp / chunk_pages;

	return &workers[ns->w0 + c % tpn];
}

/* A chunk (zone) of @w: one of the round's hot ones mostly. */
static uint64_t pick_chunk(struct worker *w)
{
	uint64_t mine = (w->ns->nchunks - w->li + tpn - 1) / tpn;

	if (w->nhot && below(&w->rng, 10) < 7)
		return w->hot[below(&w->rng, w->nhot)];
	return w->li + below(&w->rng, mine) * tpn;
}

static void pick_range(struct worker *w, uint64_t *slba, uint32_t *nlb)
{
	uint64_t per = (uint64_t)chunk_pages * lpp, first, off;

	first = pick_chunk(w) * per;
	if (lpp > 1 && below(&w->rng, 2)) {
		/* page-aligned start half the time with small LBAs */
		off = below(&w->rng, chunk_pages) * lpp;
	} else {
		off = below(&w->rng, per);
	}
	*slba = first + off;
	*nlb = 1 + below(&w->rng, per - off);
	/* mostly short */
	if (below(&w->rng, 4))
		*nlb = 1 + below(&w->rng, *nlb < 2 * lpp ? *nlb : 2 * lpp);
}

/* The value op @o leaves at @lba (one of its LBAs). */
static uint64_t op_val(const struct op *o, uint64_t lba)
{
	if (o->kind == K_COPY)
		return o->cv[lba - o->slba];
	if (o->kind == K_UNCOR)
		return VAL_UNCOR;
	return o->wid;
}

/* A write of its LBAs' data (durable by the write cache's rules). */
static bool is_write(uint8_t k)
{
	return k == K_WRITE || k == K_WZ || k == K_APPEND || k == K_COPY;
}

static void print_op(const struct worker *w, uint32_t i)
{
	const struct op *o = &w->ops[i];
	char d[96];

	if (o->kind == K_COPY && o->srcn[1])
		snprintf(d, sizeof(d), "the records of lbas %" PRIu64 "+%u, %"
			 PRIu64 "+%u", o->src[0], o->srcn[0], o->src[1],
			 o->srcn[1]);
	else if (o->kind == K_COPY)
		snprintf(d, sizeof(d), "the records of lbas %" PRIu64 "+%u",
			 o->src[0], o->srcn[0]);
	else if (o->kind == K_ZFLUSH)
		snprintf(d, sizeof(d), "the window below %" PRIu64 " flushed",
			 o->zwp);
	else
		describe(op_val(o, o->slba), d, sizeof(d));
	printf("    op %u: %s%s%s lbas %" PRIu64 "+%u -> %s; ticket %" PRIu64
	       ", %s", i, kind_name[o->kind], o->fua ? " fua" : "",
	       o->vwc_off && is_write(o->kind) ? " (vwc off)" : "",
	       o->slba, o->nlb, d, o->sub,
	       o->status == S_OK ? "completed" :
	       o->status == S_FAILED ? "failed" : "in flight");
	if (o->status == S_OK)
		printf(" at ticket %" PRIu64, o->done);
	if (o->status == S_FAILED)
		printf(" (%d)", o->err);
	if (fdp_handles && (o->kind == K_WRITE || o->kind == K_WZ ||
			    o->kind == K_COPY))
		printf(", placement handle %u", o->dspec);
	if (o->zrwa)
		printf(", into the ZRWA window (write pointer after it %" PRIu64 ")",
		       o->zwp);
	printf("\n");
}

static void print_history(struct nsx *ns, uint64_t lba)
{
	struct lent *e = &ns->lents[lba];
	struct worker *w = owner(ns, lba);
	char d[96];
	uint32_t i;

	describe(e->base, d, sizeof(d));
	printf("    baseline: %s\n", d);
	for (i = 0; i < e->n; i++)
		print_op(w, e->idx[i]);
	printf("    newest completed flush on the namespace submitted at ticket %" PRIu64 "%s",
	       atomic_load(&ns->max_flush),
	       sd_tick ? "; a clean shutdown made completed writes durable" : "");
	if (vwc_until != UINT64_MAX)
		printf("; a controller reset from ticket %" PRIu64
		       " put the write cache back on", vwc_until);
	printf("\n");
}

/* The value @lba must read while nothing is in flight on it. */
static uint64_t current_value(struct nsx *ns, uint64_t lba)
{
	struct lent *e = &ns->lents[lba];

	if (!e->n)
		return e->base;
	return op_val(&owner(ns, lba)->ops[e->idx[e->n - 1]], lba);
}

/*
 * A Read or Verify of @nlb LBAs from @slba returned @rc: Unrecovered Read
 * Error if one of them is marked uncorrectable (its last value), else
 * success (a Read: each LBA's last value). Return: false if @rc is
 * neither, an error not the device's answer to a read (the caller's).
 */
static bool do_read(struct worker *w, uint8_t kind, uint64_t slba,
		    uint32_t nlb, int rc)
{
	char why[160], d1[96], d2[96];
	bool uncor = false;
	uint32_t i;

	for (i = 0; i < nlb; i++)
		uncor |= current_value(w->ns, slba + i) == VAL_UNCOR;
	if (rc && (rc < 0 || (rc & 0x7ff) != SC_READ_ERROR))
		return false;
	if (rc)
		t_uncor_reads++;
	if (!!rc != uncor) {
		w->read_violations++;
		if (w->read_violations <= max_detail)
			printf("VIOLATION seed %" PRIu64 " round %u nsid %u lba %" PRIu64
			       ": a %s of %u LBAs during the load returned status %#x, want %s\n",
			       seed, round_no, w->ns->nsid, slba, kind_name[kind],
			       nlb, rc, uncor ? "Unrecovered Read Error (an LBA marked uncorrectable)" :
			       "success");
		return true;
	}
	if (rc || kind != K_READ)
		return true;
	for (i = 0; i < nlb; i++) {
		uint64_t want = current_value(w->ns, slba + i);
		uint64_t got = decode(w->rbuf + (size_t)i * lbs,
				      key(w->ns, slba + i), why, sizeof(why));

		if (got == want)
			continue;
		w->read_violations++;
		if (w->read_violations > max_detail)
			continue;
		describe(got, d1, sizeof(d1));
		describe(want, d2, sizeof(d2));
		printf("VIOLATION seed %" PRIu64 " round %u nsid %u lba %" PRIu64
		       ": a read during the load returned %s%s%s, want %s (the last completed op)\n",
		       seed, round_no, w->ns->nsid, slba + i, d1,
		       got == VAL_CORRUPT ? ": " : "",
		       got == VAL_CORRUPT ? why : "", d2);
	}
	return true;
}

/* Durable by itself (not counting a zone's later FUA write). */
static bool durable(const struct nsx *ns, const struct op *o)
{
	if (o->status != S_OK)
		return false;
	if (use_plp)
		return true;
	switch (o->kind) {
	case K_DSM:
	case K_DEAC:
	case K_CXL:
	case K_ZRESET:
	case K_UNCOR:
		return true;
	case K_WRITE:
	case K_WZ:
	case K_APPEND:
	case K_COPY:
		/* a write into a ZRWA window: only a flush of it (zone_sim()) */
		if (o->zrwa)
			return false;
		return o->fua || (o->vwc_off && o->done < vwc_until) ||
		       o->done < atomic_load(&ns->max_flush) ||
		       (sd_tick && o->done < sd_tick);
	}
	return false;
}

static void fail_op(struct worker *w, struct op *o, enum kind k, int rc)
{
	o->status = S_FAILED;
	o->err = rc;
	w->failed = true;
	w->fail_err = rc;
	w->fail_kind = k;
	w->fail_tick = atomic_fetch_add(&tick, 1);
	w->fail_sub = o->sub;
	w->fail_age_ms = now_ms() - o->sub_ms;
}

static void op_done(struct worker *w, struct op *o)
{
	o->done = atomic_fetch_add(&tick, 1);
	o->status = S_OK;
	if (o->kind == K_FLUSH) {
		uint64_t m = atomic_load(&w->ns->max_flush);

		while (m < o->sub &&
		       !atomic_compare_exchange_weak(&w->ns->max_flush, &m,
						     o->sub))
			;
	}
	w->done_ops++;
	atomic_fetch_add(&ops_done, 1);
}

/*
 * A Copy to @o->slba (@o->nlb LBAs) from the source ranges in @o->src and
 * @o->srcn (the thread's own LBAs, none in flight): the value each
 * destination LBA gets, into @cv, range by range as the device copies
 * (a range reads what the ones before it wrote). Before the copy joins
 * its LBAs' histories. Return: false if a source LBA is marked
 * uncorrectable (the copy would end there): no copy.
 */
static bool copy_values(struct worker *w, const struct op *o, uint64_t *cv)
{
	struct nsx *ns = w->ns;
	uint64_t done = 0, tmp[2 * PAGE / 512 * 64], k, wv, v, s;
	unsigned int r;
	uint32_t i;

	for (r = 0; r < 2 && o->srcn[r]; r++) {
		if (o->srcn[r] > sizeof(tmp) / sizeof(tmp[0]))
			return false;
		for (i = 0; i < o->srcn[r]; i++) {
			s = o->src[r] + i;
			v = s >= o->slba && s < o->slba + done ?
			    cv[s - o->slba] : current_value(ns, s);
			if (v == VAL_UNCOR)
				return false;
			tmp[i] = VAL_ZERO;
			if (record_of(key(ns, s), v, &k, &wv))
				tmp[i] = copyval(key(ns, o->slba + done + i), k, wv);
		}
		memcpy(cv + done, tmp, o->srcn[r] * sizeof(*cv));
		done += o->srcn[r];
	}
	return true;
}

/*
 * Make @o (kind K_COPY, destination set) a copy from one or two source
 * ranges that the thread owns, @pick choosing where each starts; its
 * values computed. Return: false (the op to be a Write instead) if no
 * such copy can be made.
 */
static bool make_copy(struct worker *w, struct op *o,
		      bool (*pick)(struct worker *w, uint32_t n, uint64_t *s))
{
	uint32_t n1 = o->nlb;

	if (o->nlb > 1 && below(&w->rng, 2)) {
		n1 = 1 + (uint32_t)below(&w->rng, o->nlb - 1);
		o->srcn[1] = o->nlb - n1;
	}
	o->srcn[0] = n1;
	if (!pick(w, o->srcn[0], &o->src[0]) ||
	    (o->srcn[1] && !pick(w, o->srcn[1], &o->src[1])))
		return false;
	o->cv = malloc(o->nlb * sizeof(*o->cv));
	if (!o->cv)
		die("out of memory");
	if (copy_values(w, o, o->cv))
		return true;
	free(o->cv);
	o->cv = NULL;
	return false;
}

/* A source range of @n LBAs in one of the thread's chunks. */
static bool conv_source(struct worker *w, uint32_t n, uint64_t *s)
{
	uint64_t per = (uint64_t)chunk_pages * lpp;

	if (n > per)
		return false;
	*s = pick_chunk(w) * per + below(&w->rng, per - n + 1);
	return *s + n <= w->ns->nlba;
}

/* A source range of @n LBAs below the write pointer of a thread's zone. */
static bool zoned_source(struct worker *w, uint32_t n, uint64_t *s)
{
	struct zone *z = &w->ns->zones[pick_chunk(w)];
	uint64_t end = z->full ? z->zs + z->cap : z->wp;

	if (end - z->zs < n)
		return false;
	*s = z->zs + below(&w->rng, end - z->zs - n + 1);
	return true;
}

/*
 * Command @o returned @rc: completed (a Read's or Verify's Unrecovered
 * Read Error too, checked against the marks), or failed. Return: false
 * to stop.
 */
static bool op_end(struct worker *w, struct op *o, int rc)
{
	bool readlike = o->kind == K_READ || o->kind == K_VERIFY;

	if (rc && !(readlike && rc > 0 && (rc & 0x7ff) == SC_READ_ERROR)) {
		fail_op(w, o, o->kind, rc);
		return false;
	}
	op_done(w, o);
	if (readlike)
		do_read(w, o->kind, o->slba, o->nlb, rc);
	t_copies += o->kind == K_COPY;
	t_uncors += o->kind == K_UNCOR;
	t_verifies += o->kind == K_VERIFY;
	return true;
}

/*
 * The commands that every kind of namespace sends alike: Flush, Read,
 * Verify, Write Uncorrectable, and Zone Management Send's Reset, Finish,
 * Open and Close of the zone at @zs. Return: the status, or 0 for any
 * other kind (nothing sent).
 */
static int send_common(struct worker *w, enum kind k, uint64_t zs,
		       uint64_t slba, uint32_t nlb)
{
	const struct nsx *ns = w->ns;

	switch (k) {
	case K_FLUSH:
		return nvme_flush(ns);
	case K_READ:
		return nvme_rw(ns, OP_READ, slba, nlb, 0, w->rbuf);
	case K_VERIFY:
		return nvme_rw(ns, OP_VERIFY, slba, nlb, 0, NULL);
	case K_UNCOR:
		return nvme_rw(ns, OP_UNCOR, slba, nlb, 0, NULL);
	case K_ZRESET:
		return zone_send(ns, zs, ZSA_RESET);
	case K_ZFINISH:
		return zone_send(ns, zs, ZSA_FINISH);
	case K_ZOPEN:
		return zone_send(ns, zs, ZSA_OPEN);
	case K_ZCLOSE:
		return zone_send(ns, zs, ZSA_CLOSE);
	default:
		return 0;
	}
}

/* Conventional namespaces: one command. Return: false to stop. */
static bool conv_op(struct worker *w)
{
	struct nsx *ns = w->ns;
	uint64_t r = below(&w->rng, 100), slba = 0, l;
	uint32_t nlb = 0, idx, flags = 0, cdw13 = 0, j;
	struct dsm_range rg[3];
	unsigned int nr = 0;
	enum kind k;
	struct op *o;
	int rc = 0;

	if (use_cxl && ns->i == 0 && r < 12)
		k = K_CXL;
	else if (r < 40)
		k = K_WRITE;
	else if (r < 50)
		k = K_FLUSH;
	else if (r < 58)
		k = K_DSM;
	else if (r < 70)
		k = K_WZ;
	else if (r < 80)
		k = K_DEAC;
	else if (r < 88)
		k = r < 84 ? K_READ : r < 86 ? K_VERIFY : K_UNCOR;
	else if (r < 94)
		k = K_COPY;
	else
		k = K_WRITE;
	/* --tamper-copy: a thread's first command is a Copy */
	if (tamper_copy && !w->nops)
		k = K_COPY;
	if (k == K_CXL) {
		uint64_t page = pick_chunk(w) * chunk_pages +
				below(&w->rng, chunk_pages);

		slba = page * lpp;
		nlb = lpp;
		/*
		 * The CXL view neither sees nor clears a mark (docs/dual.md):
		 * a page with a marked LBA gets a Write instead.
		 */
		for (l = 0; l < nlb; l++)
			if (current_value(ns, slba + l) == VAL_UNCOR)
				k = K_WRITE;
		if (k == K_WRITE)
			pick_range(w, &slba, &nlb);
	} else if (k == K_DSM) {
		nr = 1 + below(&w->rng, 3);
		for (j = 0; j < nr; j++) {
			pick_range(w, &rg[j].slba, &rg[j].nlb);
			rg[j].cattr = 0;
		}
		slba = rg[0].slba;
		nlb = rg[0].nlb;
	} else if (k != K_FLUSH) {
		pick_range(w, &slba, &nlb);
	}
	if (k == K_WRITE || k == K_WZ || k == K_DEAC || k == K_COPY)
		flags = below(&w->rng, 4) == 0 ? CDW12_FUA : 0;
	if (round_no_flush) {
		flags = 0;
		if (k == K_FLUSH) {
			k = K_WRITE;
			pick_range(w, &slba, &nlb);
		}
	}
	idx = new_op(w, k, slba, nlb);
	o = &w->ops[idx];
	if (k == K_COPY && !make_copy(w, o, conv_source)) {
		/* a source marked uncorrectable: a Write instead */
		k = K_WRITE;
		o->kind = k;
		o->wid = mkwid(w->id, idx);
	}
	o->fua = !!flags;
	if (fdp_handles && (k == K_WRITE || k == K_WZ || k == K_COPY)) {
		o->dspec = below(&w->rng, fdp_handles);
		flags |= CDW12_DTYPE_PL;
		cdw13 = (uint32_t)o->dspec << 16;
	}
	if (k == K_DSM) {
		for (j = 0; j < nr; j++)
			push(ns, rg[j].slba, rg[j].nlb, idx);
	} else if (k != K_FLUSH && k != K_READ && k != K_VERIFY) {
		push(ns, slba, nlb, idx);
	}
	if (k == K_WRITE || k == K_CXL)
		for (l = 0; l < nlb; l++)
			fill(w->buf + l * lbs, key(ns, slba + l), o->wid);
	o->sub = atomic_fetch_add(&tick, 1);
	o->sub_ms = now_ms();
	switch (k) {
	case K_WRITE:
		rc = nvme_io(ns, OP_WRITE, slba, nlb, flags, cdw13, w->buf, NULL);
		break;
	case K_WZ:
		rc = nvme_io(ns, OP_WZ, slba, nlb, flags, cdw13, NULL, NULL);
		break;
	case K_DEAC:
		rc = nvme_rw(ns, OP_WZ, slba, nlb, flags | CDW12_DEAC, NULL);
		break;
	case K_DSM:
		rc = nvme_dsm(ns, rg, nr);
		break;
	case K_COPY:
		rc = nvme_copy(ns, o, flags, cdw13);
		break;
	case K_CXL:
		memcpy(cxl_map + slba / lpp * PAGE, w->buf, PAGE);
		break;
	default:
		rc = send_common(w, k, 0, slba, nlb);
		break;
	}
	return op_end(w, o, rc);
}

/*
 * --zrwa: the write pointer (flushed point) after a write of [@slba,
 * @end) into the ZRWA window of zone @z whose pointer is @wp: a write
 * that ends above the window flushes implicitly, the pointer moving up
 * by the fewest ZRWAFG multiples that bring its end into the window
 * (docs/zns.md); at the capacity the zone is Full.
 */
static uint64_t zrwa_wp_after(const struct nsx *ns, const struct zone *z,
			      uint64_t wp, uint64_t end)
{
	uint64_t cap = z->zs + z->cap, n;

	if (end <= wp + ns->zrwas)
		return wp;
	n = end - wp - ns->zrwas;
	n = (n + ns->zrwafg - 1) / ns->zrwafg * ns->zrwafg;
	return wp + n < cap ? wp + n : cap;
}

/*
 * The load's view of zone @z after Zone Management Send @k completed
 * (Reset, Finish, Open, Close; any other kind changes nothing here).
 */
static void zone_managed(struct zone *z, enum kind k)
{
	switch (k) {
	case K_ZRESET:
		z->wp = z->written = z->zs;
		z->full = false;
		z->open = false;
		z->zrwa = false;
		z->empty = true;
		break;
	case K_ZFINISH:
		z->full = true;
		z->open = false;
		z->zrwa = false;
		z->empty = false;
		break;
	case K_ZOPEN:
		z->open = true;
		z->empty = false;
		break;
	case K_ZCLOSE:
		z->open = false;
		break;
	default:
		break;
	}
}

/*
 * --zrwa: one command on zone @z, which the load opened with ZRWAA (or,
 * Empty, opens now): writes (and Copies) anywhere in the window from the
 * write pointer on, overwrites of its unflushed LBAs among them, writes
 * past the window (an implicit flush), Flush Explicit ZRWA Range, and the
 * zoned mix around them (Flush, Read, Verify, Write Uncorrectable below
 * the flushed point, Reset, Finish, Open, Close); @force, if not -1, the
 * kind (a window write, an explicit flush over the data written, an open
 * with ZRWAA). Return: false to stop.
 */
static bool zrwa_op(struct worker *w, struct zone *z, int force)
{
	struct nsx *ns = w->ns;
	uint64_t r = below(&w->rng, 100), slba = 0, end = z->zs + z->cap;
	uint64_t wp = z->wp, win = wp + ns->zrwas < end ? wp + ns->zrwas : end;
	uint64_t most = 2 * lpp, zwp = wp, l;
	uint32_t nlb = 0, idx, flags = 0;
	bool over = false;
	enum kind k;
	struct op *o;
	int rc = 0;

	if (!z->zrwa)
		k = K_ZOPENZ;
	else if (force >= 0)
		k = force;
	else if (r < 30)
		k = r < 6 ? K_COPY : K_WRITE;
	else if (r < 42)
		k = K_APPEND;	/* a write past the window, below */
	else if (r < 56)
		k = K_ZFLUSH;
	else if (r < 64)
		k = K_FLUSH;
	else if (r < 74)
		k = K_READ;
	else if (r < 79)
		k = K_ZRESET;
	else if (r < 82)
		k = K_ZFINISH;
	else if (r < 88)
		k = K_ZOPEN;
	else
		k = z->open && z->written > z->zs ? K_ZCLOSE : K_WRITE;
	if (round_no_flush && k == K_FLUSH)
		k = K_WRITE;
	if (k == K_READ) {
		uint64_t v = below(&w->rng, 10);

		k = v < 6 ? K_READ : v < 8 ? K_VERIFY : K_UNCOR;
		/* Verify and Write Uncorrectable below the flushed point */
		if (k != K_READ && wp == z->zs)
			k = K_READ;
		if (k == K_READ && z->written == z->zs)
			k = K_WRITE;
	}
	/* past the window: only if the zone goes on beyond it */
	if (k == K_APPEND && win == end)
		k = K_WRITE;
	if (below(&w->rng, 3) == 0)
		most = (uint64_t)chunk_pages * lpp;
	if (k == K_WRITE || k == K_COPY) {
		/* in the window; half the time over its unflushed data */
		if (z->written > wp && below(&w->rng, 2))
			slba = wp + below(&w->rng, z->written - wp);
		else
			slba = wp + below(&w->rng, win - wp);
		nlb = 1 + below(&w->rng, win - slba < most ? win - slba : most);
	} else if (k == K_APPEND) {
		/* a write ending past the window, at most twice it */
		uint64_t lim = wp + 2 * ns->zrwas < end ? wp + 2 * ns->zrwas : end;
		uint64_t e = win + 1 + below(&w->rng, lim - win);
		uint64_t room = e - wp;

		nlb = 1 + below(&w->rng, room < most ? room : most);
		slba = e - nlb;
		k = K_WRITE;
	} else if (k == K_ZFLUSH) {
		/* the flushed point moves by ZRWAFG multiples, or to the capacity */
		uint64_t kmax = (win - wp) / ns->zrwafg, kw;

		kw = (z->written - wp + ns->zrwafg - 1) / ns->zrwafg;
		if (kw < 1)
			kw = 1;
		if (kmax && kw > kmax)
			kw = kmax;
		if (kmax && force < 0 && below(&w->rng, 2))
			kw = 1 + below(&w->rng, kmax);
		zwp = kmax ? wp + kw * ns->zrwafg : end;
		slba = zwp - 1;
	} else if (k == K_READ) {
		uint64_t e = z->full ? end : z->written;

		slba = z->zs + below(&w->rng, e - z->zs);
		nlb = 1 + below(&w->rng, e - slba < 2 * lpp ? e - slba : 2 * lpp);
	} else if (k == K_VERIFY || k == K_UNCOR) {
		slba = z->zs + below(&w->rng, wp - z->zs);
		nlb = 1 + below(&w->rng, wp - slba < 2 * lpp ? wp - slba : 2 * lpp);
	} else if (k != K_FLUSH) {
		slba = z->zs;
		nlb = k == K_ZRESET ? (uint32_t)ns->zlbas : 0;
	}
	if (k == K_WRITE || k == K_COPY) {
		flags = below(&w->rng, 4) == 0 && !round_no_flush ? CDW12_FUA : 0;
		over = slba < z->written;
		zwp = zrwa_wp_after(ns, z, wp, slba + nlb);
	}
	idx = new_op(w, k, slba, nlb);
	o = &w->ops[idx];
	if (k == K_COPY && !make_copy(w, o, zoned_source)) {
		k = K_WRITE;
		o->kind = k;
		o->wid = mkwid(w->id, idx);
	}
	o->fua = !!flags;
	o->zrwa = k == K_WRITE || k == K_COPY;
	o->zwp = zwp;
	if (k != K_FLUSH && k != K_READ && k != K_VERIFY && k != K_UNCOR)
		zpush(z, idx);
	if (k == K_WRITE || k == K_ZRESET || k == K_COPY || k == K_UNCOR)
		push(ns, slba, nlb, idx);
	if (k == K_WRITE)
		for (l = 0; l < nlb; l++)
			fill(w->buf + (size_t)l * lbs, key(ns, slba + l), o->wid);
	if (k == K_ZOPENZ)
		z->zrwa_round = true;
	o->sub = atomic_fetch_add(&tick, 1);
	o->sub_ms = now_ms();
	switch (k) {
	case K_WRITE:
		rc = nvme_rw(ns, OP_WRITE, slba, nlb, flags, w->buf);
		break;
	case K_COPY:
		rc = nvme_copy(ns, o, flags, 0);
		break;
	case K_ZOPENZ:
		rc = zone_send13(ns, z->zs, ZSA_OPEN | ZMS_ZRWAA);
		break;
	case K_ZFLUSH:
		rc = zone_send13(ns, slba, ZSA_ZRWA_FLUSH);
		break;
	default:
		rc = send_common(w, k, z->zs, slba, nlb);
		break;
	}
	if (!op_end(w, o, rc))
		return false;
	switch (k) {
	case K_ZOPENZ:
		t_zopens++;
		z->zrwa = true;
		z->open = true;
		z->empty = false;
		z->written = z->wp;
		break;
	case K_WRITE:
	case K_COPY:
		t_zwrites++;
		t_zover += over;
		t_zimplicit += zwp > wp;
		if (slba + nlb > z->written)
			z->written = slba + nlb;
		/* fall through */
	case K_ZFLUSH:
		t_zflushes += k == K_ZFLUSH;
		z->wp = zwp;
		if (z->written < zwp)
			z->written = zwp;
		z->open = true;
		if (zwp == end) {
			z->full = true;
			z->open = false;
			z->zrwa = false;
		}
		break;
	default:
		zone_managed(z, k);
		break;
	}
	return true;
}

/*
 * Zoned namespaces: one command on one of the thread's zones. The
 * thread's zones are sequential histories: one command in flight each.
 */
static bool zoned_op(struct worker *w)
{
	struct nsx *ns = w->ns;
	uint64_t zi = pick_chunk(w), r = below(&w->rng, 100), slba = 0, res = 0;
	struct zone *z = &ns->zones[zi];
	uint32_t nlb = 0, idx, flags = 0, l;
	bool reset = false;
	enum kind k;
	struct op *o;
	int rc = 0;

	/*
	 * --zrwa: a zone that holds a ZRWA, or an Empty one to open with
	 * ZRWAA more than half the time, is zrwa_op()'s; the others of
	 * those zones are reset a quarter of the time, so they come back.
	 */
	if (use_zrwa && z->zrwa_ok) {
		uint64_t q = z->zrwa ? 0 : below(&w->rng, 100);

		if (z->zrwa || (z->empty && q < 60))
			return zrwa_op(w, z, -1);
		reset = !z->empty && q < 25;
	}
	/*
	 * --tamper --zrwa: each thread's first zone (if it may have a ZRWA)
	 * gets its first 8 commands: reset, open with ZRWAA, then writes
	 * into the window each flushed explicitly, so that a ZRWA flush's
	 * data is durable (the tamper round has the write cache off).
	 */
	if (use_zrwa && tamper && w->nops < 8 && ns->zones[w->li].zrwa_ok &&
	    !ns->zones[w->li].full) {
		z = &ns->zones[w->li];
		if (z->zrwa)
			return zrwa_op(w, z, z->written > z->wp ? K_ZFLUSH : K_WRITE);
		if (z->empty)
			return zrwa_op(w, z, K_ZOPENZ);
		reset = true;
	}
	if (reset) {
		k = K_ZRESET;
	} else if (z->full) {
		k = r < 60 ? K_ZRESET : r < 80 ? K_FLUSH : K_READ;
	} else if (r < 32) {
		k = r < 6 ? K_COPY : K_WRITE;
	} else if (r < 52) {
		k = K_APPEND;
	} else if (r < 62) {
		k = K_FLUSH;
	} else if (r < 72) {
		k = K_READ;
	} else if (r < 77) {
		k = K_ZRESET;
	} else if (r < 80) {
		k = K_ZFINISH;
	} else if (r < 88) {
		k = K_ZOPEN;
	} else {
		/*
		 * Close only a zone with data: one the load opened while
		 * empty may be Empty again after a controller reset, and
		 * closing an Empty zone is an invalid transition.
		 */
		k = z->open && z->wp > z->zs ? K_ZCLOSE : K_WRITE;
	}
	if (k == K_READ && z->wp == z->zs && !z->full)
		k = K_WRITE;
	/* a read's share: Verify and Write Uncorrectable on written LBAs */
	if (k == K_READ) {
		uint64_t v = below(&w->rng, 10);

		k = v < 6 ? K_READ : v < 8 ? K_VERIFY : K_UNCOR;
	}
	if (round_no_flush && k == K_FLUSH)
		k = z->full ? K_ZRESET : K_WRITE;
	if (k == K_WRITE || k == K_APPEND || k == K_COPY) {
		uint64_t room = z->zs + z->cap - z->wp, most = 2 * lpp;

		if (below(&w->rng, 3) == 0)
			most = (uint64_t)chunk_pages * lpp;
		slba = z->wp;
		nlb = 1 + below(&w->rng, room < most ? room : most);
		flags = below(&w->rng, 4) == 0 && !round_no_flush ? CDW12_FUA : 0;
	} else if (k == K_READ || k == K_VERIFY || k == K_UNCOR) {
		uint64_t end = z->full ? z->zs + z->cap : z->wp;

		slba = z->zs + below(&w->rng, end - z->zs);
		nlb = 1 + below(&w->rng, end - slba < 2 * lpp ? end - slba : 2 * lpp);
	} else if (k != K_FLUSH) {
		slba = z->zs;
		nlb = k == K_ZRESET ? (uint32_t)ns->zlbas : 0;
	}
	idx = new_op(w, k, slba, nlb);
	o = &w->ops[idx];
	if (k == K_COPY && !make_copy(w, o, zoned_source)) {
		/* no written source, or one marked uncorrectable */
		k = K_WRITE;
		o->kind = k;
		o->wid = mkwid(w->id, idx);
	}
	o->fua = !!flags;
	if (k != K_FLUSH && k != K_READ && k != K_VERIFY && k != K_UNCOR)
		zpush(z, idx);
	if (k == K_WRITE || k == K_APPEND || k == K_ZRESET || k == K_COPY ||
	    k == K_UNCOR)
		push(ns, slba, nlb, idx);
	if (k == K_WRITE || k == K_APPEND)
		for (l = 0; l < nlb; l++)
			fill(w->buf + (size_t)l * lbs, key(ns, slba + l), o->wid);
	o->sub = atomic_fetch_add(&tick, 1);
	o->sub_ms = now_ms();
	switch (k) {
	case K_WRITE:
		rc = nvme_rw(ns, OP_WRITE, slba, nlb, flags, w->buf);
		break;
	case K_APPEND:
		rc = nvme_io(ns, OP_ZAPPEND, z->zs, nlb, flags, 0, w->buf, &res);
		break;
	case K_COPY:
		rc = nvme_copy(ns, o, flags, 0);
		break;
	default:
		rc = send_common(w, k, z->zs, slba, nlb);
		break;
	}
	if (!op_end(w, o, rc))
		return false;
	if (k == K_APPEND && res != slba) {
		w->read_violations++;
		printf("VIOLATION seed %" PRIu64 " round %u nsid %u lba %" PRIu64
		       ": Zone Append to zone %" PRIu64 " returned LBA %" PRIu64
		       ", the write pointer was %" PRIu64 "\n", seed, round_no,
		       ns->nsid, slba, z->zs, res, slba);
	}
	switch (k) {
	case K_WRITE:
	case K_APPEND:
	case K_COPY:
		z->wp += nlb;
		z->written = z->wp;
		z->open = true;
		z->empty = false;
		if (z->wp == z->zs + z->cap) {
			z->full = true;
			z->open = false;
		}
		break;
	default:
		zone_managed(z, k);
		break;
	}
	return true;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	for (i = 0; i < ops_per_round && !atomic_load(&stop); i++)
		if (!(w->ns->zoned ? zoned_op(w) : conv_op(w)))
			break;
	return NULL;
}

/* ---- the check ---- */

/* Is @got allowed for @lba? Prints the violation if not. */
static bool check_lba(struct nsx *ns, uint64_t lba, uint64_t got,
		      const char *why, uint64_t *rolled, uint64_t *taken,
		      unsigned int *printed)
{
	struct lent *e = &ns->lents[lba];
	struct worker *w = owner(ns, lba);
	uint64_t allowed[64];
	unsigned int na = 0, k;
	int i, c = -1;
	char d[96];

	for (i = (int)e->n - 1; i >= 0; i--) {
		struct op *o = &w->ops[e->idx[i]];

		for (k = 0; k < na && allowed[k] != op_val(o, lba); k++)
			;
		if (k == na && na < 64)
			allowed[na++] = op_val(o, lba);
		if (c < 0 && o->status == S_OK)
			c = i;
		if (durable(ns, o))
			break;
	}
	for (k = 0; k < na && allowed[k] != e->base; k++)
		;
	if (i < 0 && k == na && na < 64)
		allowed[na++] = e->base;
	if (got != current_value(ns, lba))
		(*rolled)++;
	for (k = 0; k < na; k++) {
		int j;

		if (allowed[k] != got || got == VAL_CORRUPT)
			continue;
		/* Older than the newest completed op: taken back. */
		if (c >= 0) {
			for (j = c; j < (int)e->n; j++)
				if (op_val(&w->ops[e->idx[j]], lba) == got)
					break;
			if (j == (int)e->n)
				(*taken)++;
		}
		return true;
	}
	if (++*printed > max_detail)
		return false;
	describe(got, d, sizeof(d));
	printf("VIOLATION seed %" PRIu64 " round %u nsid %u lba %" PRIu64
	       " (4 KiB page %" PRIu64 ", thread %u): holds %s%s%s\n",
	       seed, round_no, ns->nsid, lba, lba / lpp, w->id, d,
	       got == VAL_CORRUPT ? ": " : "", got == VAL_CORRUPT ? why : "");
	/* What kind of violation: a durable op taken back, or a third value. */
	if (i >= 0) {
		struct op *o = &w->ops[e->idx[i]];
		bool older = got == e->base;
		int j;

		for (j = 0; j < i && !older; j++)
			older = op_val(&w->ops[e->idx[j]], lba) == got;
		printf("  => %s: the completed %s%s (op %u, durable: %s)\n",
		       older ? "taken back" : "a value never written here since the baseline",
		       kind_name[o->kind], o->fua ? " with FUA" : "", e->idx[i],
		       use_plp ? "power-loss protection" :
		       o->kind == K_DSM || o->kind == K_DEAC ? "deallocated at completion" :
		       o->kind == K_UNCOR ? "marked uncorrectable at completion" :
		       o->kind == K_CXL ? "a CXL store" :
		       o->fua ? "FUA" : o->vwc_off && o->done < vwc_until ? "write cache off" :
		       sd_tick && o->done < sd_tick ? "a clean shutdown followed" :
		       "a later flush completed");
	} else {
		printf("  => a value never written here since the baseline\n");
	}
	printf("  allowed:");
	for (k = 0; k < na; k++) {
		describe(allowed[k], d, sizeof(d));
		printf("%s %s", k ? "," : "", d);
	}
	printf("\n  history (oldest first):\n");
	print_history(ns, lba);
	return false;
}

static const char *zs_name(unsigned int s)
{
	switch (s) {
	case ZS_EMPTY: return "empty";
	case ZS_IOPEN: return "implicitly open";
	case ZS_EOPEN: return "explicitly open";
	case ZS_CLOSED: return "closed";
	case ZS_RO: return "read-only";
	case ZS_FULL: return "full";
	case ZS_OFFLINE: return "offline";
	}
	return "?";
}

/*
 * What zone LBA @l, below the write pointer after a cut, must hold: its
 * baseline if below @start (else zeros), then each op of its history but
 * op @skip (the thread's last op, in the branch where it did not happen;
 * UINT32_MAX: none), into @want; @alt the same but for a Write
 * Uncorrectable in flight at the cut, which may have marked it.
 */
static void below_wp(const struct nsx *ns, const struct worker *w,
		     uint64_t l, uint64_t start, uint32_t skip, uint64_t *want,
		     uint64_t *alt)
{
	const struct lent *e = &ns->lents[l];
	uint32_t i;

	*want = *alt = l < start ? e->base : VAL_ZERO;
	for (i = 0; i < e->n; i++) {
		const struct op *o = &w->ops[e->idx[i]];

		if (e->idx[i] == skip)
			continue;
		if (o->kind == K_UNCOR && o->status != S_OK) {
			*alt = VAL_UNCOR;
			continue;
		}
		*want = *alt = op_val(o, l);
	}
}

/*
 * Does @state fit zone @z's write pointer @wp after a cut: a zone that lost
 * data (a completed write of its ops [@from, @to) at or above @wp) is
 * Empty at its start, else Closed; one that lost nothing keeps its state
 * (docs/faults.md), which must fit its pointer. If not, why into @what.
 */
static void state_fits(const struct worker *w, const struct zone *z,
		       uint32_t from, uint32_t to, uint64_t wp, uint8_t state,
		       char *what, size_t len)
{
	bool lost = false, fits;
	uint32_t i;

	for (i = from; i < to; i++) {
		const struct op *o = &w->ops[z->idx[i]];

		if ((o->kind == K_WRITE || o->kind == K_APPEND ||
		     o->kind == K_COPY) &&
		    o->status == S_OK && o->slba + o->nlb > wp)
			lost = true;
	}
	if (wp == z->zs + z->cap)
		fits = state == ZS_FULL;
	else if (lost)
		fits = state == (wp == z->zs ? ZS_EMPTY : ZS_CLOSED);
	else if (wp == z->zs)
		fits = state == ZS_EMPTY || state == ZS_EOPEN;
	else
		fits = state == ZS_IOPEN || state == ZS_EOPEN ||
		       state == ZS_CLOSED;
	if (!fits)
		snprintf(what, len, "state %s with the write pointer at %" PRIu64
			 " (%s)", zs_name(state), wp,
			 lost ? "a zone that lost data: empty at its start, else closed" :
			 "a zone that lost nothing keeps its state, which must fit its pointer");
}

/*
 * A zone violation's detail: the history of its first bad LBA (if any,
 * with the value @v read there) and the zone's commands this round.
 */
static void zone_detail(struct nsx *ns, const struct worker *w,
			const struct zone *z, const uint64_t *v,
			uint64_t first_bad)
{
	char d[96];
	uint32_t i;

	if (first_bad != UINT64_MAX) {
		describe(v[first_bad - z->zs], d, sizeof(d));
		printf("  LBA %" PRIu64 " holds %s; its history:\n",
		       first_bad, d);
		print_history(ns, first_bad);
	}
	printf("  the zone's commands this round (oldest first):\n");
	for (i = 0; i < z->n; i++)
		print_op(w, z->idx[i]);
}

/*
 * The zoned rule (docs/faults.md): after a cut a zone's write pointer
 * is back at its durable point at most (the first LBA whose write was
 * taken back); every LBA below it holds its write since the last reset
 * (or its baseline), every LBA from it up reads zeros; the state is
 * Empty at the zone's start, Full at its capacity, else Closed. A Reset
 * is durable at its completion; a Flush, a FUA write (with every
 * earlier write of its zone), a write with the cache off and a clean
 * shutdown make writes durable; a Finish keeps the zone Full if nothing
 * below was taken back, and must if all of it was durable.
 * @v: the values read; returns the violations (printed up to the limit).
 */
static uint64_t check_zone(struct nsx *ns, struct zone *z, uint8_t state,
			   uint64_t wp, const uint64_t *v, uint64_t *rolled,
			   uint64_t *taken, unsigned int *printed)
{
	struct worker *w = owner(ns, z->zs);
	uint64_t start = z->base_wp, dur = z->base_wp, top = z->base_wp;
	uint64_t end = z->zs + z->cap, l, bad = 0, first_bad = UINT64_MAX;
	bool reset = false, fin_any = false, fin_done = false, skip_last = false;
	bool reset_may = false;
	uint32_t i, n = z->n, fin_at = 0, first = 0;
	char what[256] = "";

	/* A reset not known to have completed may have taken effect. */
	if (n && w->ops[z->idx[n - 1]].kind == K_ZRESET &&
	    w->ops[z->idx[n - 1]].status != S_OK) {
		reset_may = true;
		skip_last = true;
	}
	for (i = 0; i < n - skip_last; i++) {
		struct op *o = &w->ops[z->idx[i]];

		switch (o->kind) {
		case K_ZRESET:
			/* only the last one can be other than completed */
			start = dur = top = z->zs;
			reset = true;
			first = i + 1;
			fin_any = fin_done = false;
			break;
		case K_WRITE:
		case K_APPEND:
		case K_COPY:
			top = o->slba + o->nlb;
			if (durable(ns, o))
				dur = top;	/* and every earlier write */
			break;
		case K_ZFINISH:
			fin_any = true;
			fin_at = top;
			fin_done = o->status == S_OK;
			break;
		default:
			break;
		}
	}
	if (fin_done && dur >= fin_at)
		dur = end;	/* Finish over durable data: durable */
	(void)reset;
	/* The in-flight reset took effect: empty, every LBA zeros. */
	if (reset_may && wp == z->zs && state == ZS_EMPTY) {
		for (l = z->zs; l < end && !v[l - z->zs]; l++)
			;
		if (l == end)
			goto ok;
	}
	if (wp < dur || wp > (fin_any ? end : top))
		snprintf(what, sizeof(what),
			 "write pointer %" PRIu64 " outside [%" PRIu64 ", %" PRIu64
			 "] (durable point, highest written%s)", wp, dur,
			 fin_any ? end : top, fin_any ? " or finished" : "");
	for (l = z->zs; l < end; l++) {
		uint64_t want = VAL_ZERO, alt = VAL_ZERO, got = v[l - z->zs];

		if (l < wp)
			below_wp(ns, w, l, start,
				 skip_last ? z->idx[n - 1] : UINT32_MAX, &want, &alt);
		if (got == alt)
			want = alt;
		if (got != want && first_bad == UINT64_MAX)
			first_bad = l;
		if (got != current_value(ns, l))
			(*rolled)++;
	}
	if (!what[0] && first_bad != UINT64_MAX)
		snprintf(what, sizeof(what), "LBA %" PRIu64 " does not hold %s",
			 first_bad, first_bad < wp ? "its write below the write pointer" :
			 "zeros at or above the write pointer");
	/* The state must fit the write pointer (state_fits()). */
	if (!what[0])
		state_fits(w, z, first, n - skip_last, wp, state, what,
			   sizeof(what));
	if (what[0]) {
		bad = 1;
		if (++*printed <= max_detail) {
			printf("VIOLATION seed %" PRIu64 " round %u nsid %u zone %" PRIu64
			       " (LBAs %" PRIu64 "+%" PRIu64 ", thread %u): %s\n",
			       seed, round_no, ns->nsid, z->zs / ns->zlbas, z->zs,
			       z->cap, w->id, what);
			printf("  after the cut: %s, write pointer %" PRIu64
			       "; baseline write pointer %" PRIu64 "\n",
			       zs_name(state), wp, z->base_wp);
			zone_detail(ns, w, z, v, first_bad);
		}
		return bad;
	}
ok:
	/* Taken back: completed writes at or above the new write pointer. */
	for (i = first; i < n; i++) {
		struct op *o = &w->ops[z->idx[i]];

		if ((o->kind == K_WRITE || o->kind == K_APPEND ||
		     o->kind == K_COPY) &&
		    o->status == S_OK && o->slba + o->nlb > wp &&
		    !(reset_may && wp == z->zs && state == ZS_EMPTY))
			*taken += o->slba + o->nlb - (o->slba > wp ? o->slba : wp);
	}
	return 0;
}

/*
 * --zrwa: is a ZRWA flush by op @o durable? The blocks a flush (explicit,
 * a write's implicit one, or Finish's) moves below the write pointer are
 * programmed as a write with the write cache's rules, never FUA (FUA on a
 * write into the window commits nothing), at the op's completion: durable
 * once a Flush submitted after it completed, with the cache off, after a
 * clean shutdown; with power-loss protection if it took effect at all.
 */
static bool zflush_durable(const struct nsx *ns, const struct op *o)
{
	if (use_plp)
		return true;
	return o->status == S_OK &&
	       ((o->vwc_off && o->done < vwc_until) ||
		o->done < atomic_load(&ns->max_flush) ||
		(sd_tick && o->done < sd_tick));
}

/* What a zone's ops since the round's start allow after the cut. */
struct zsim {
	uint64_t dur;		/* the durable point: the pointer is not below */
	uint64_t top;		/* the pointer is not above */
	uint32_t first;		/* the first op after the last reset */
	bool zdur;		/* the durable point is a ZRWA flush's */
	bool zrwa;		/* a ZRWA flush or window write since the reset */
};

/*
 * --zrwa: zone @z after the cut, if its first @m ops this round took
 * effect (the m-th may be the one in flight). Writes outside a ZRWA
 * move the pointer and are durable by the zoned rule (a FUA write with
 * every earlier write); a write into the window moves nothing but its
 * implicit flush, and a flush (explicit, implicit, Finish's) makes the
 * window below its new pointer part of the zone, durable by
 * zflush_durable(). Without power-loss protection the unflushed window
 * is lost: the pointer goes back to the durable point at most, never
 * above the last flushed point (the capacity after a Finish); with it
 * the window is flushed at the cut: the pointer is at the end of the
 * data written, exactly.
 */
static void zone_sim(const struct nsx *ns, const struct zone *z, uint32_t m,
		     struct zsim *s)
{
	struct worker *w = owner(ns, z->zs);
	uint64_t end = z->zs + z->cap, wp = z->base_wp, written = z->base_wp;
	uint64_t fin_at = 0, nw;
	bool zrwa = false, fin_any = false, fin_done = false, plp_now;
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->dur = z->base_wp;
	for (i = 0; i < m; i++) {
		const struct op *o = &w->ops[z->idx[i]];

		/* with power-loss protection what took effect is durable */
		plp_now = use_plp;
		nw = wp;
		switch (o->kind) {
		case K_ZRESET:
			wp = written = s->dur = z->zs;
			zrwa = fin_any = fin_done = s->zdur = s->zrwa = false;
			s->first = i + 1;
			continue;
		case K_ZOPENZ:
			zrwa = true;
			continue;
		case K_WRITE:
		case K_APPEND:
		case K_COPY:
			if (o->zrwa) {
				s->zrwa = true;
				if (written < o->slba + o->nlb)
					written = o->slba + o->nlb;
				nw = zrwa_wp_after(ns, z, wp, o->slba + o->nlb);
				break;
			}
			wp = written = o->slba + o->nlb;
			if (durable(ns, o) || (plp_now && i == m - 1))
				s->dur = wp;
			continue;
		case K_ZFLUSH:
			s->zrwa = true;
			nw = o->zwp;
			break;
		case K_ZFINISH:
			/* a ZRWA zone's window is flushed first */
			if (zrwa)
				nw = written;
			fin_any = true;
			fin_done = o->status == S_OK;
			break;
		default:
			continue;
		}
		/* a flush from wp to nw */
		if (nw > wp) {
			if (zflush_durable(ns, o) || plp_now) {
				s->dur = nw;
				s->zdur = true;
			}
			wp = nw;
		}
		if (written < wp)
			written = wp;
		if (o->kind == K_ZFINISH) {
			fin_at = written;
			wp = end;
		}
		if (wp == end)
			zrwa = false;
	}
	/* power-loss protection: the window is flushed at the cut */
	if (use_plp && zrwa && written > wp) {
		wp = s->dur = written;
		s->zdur = true;
	}
	/* Finish over durable data: durable */
	if (fin_done && s->dur >= fin_at)
		s->dur = end;
	s->top = fin_any ? end : wp;
}

/*
 * --zrwa: the zoned rule (check_zone()) for a zone that held a ZRWA this
 * round, with the flushes zone_sim() follows. The last op, if in flight,
 * may or may not have taken effect: each is tried, the zone passing if
 * it fits either. @v: the values read; returns the violations (printed up
 * to the limit).
 */
static uint64_t check_zone_zrwa(struct nsx *ns, struct zone *z, uint8_t state,
				uint64_t wp, const uint64_t *v, uint64_t *rolled,
				uint64_t *taken, unsigned int *printed)
{
	struct worker *w = owner(ns, z->zs);
	uint64_t end = z->zs + z->cap, l, first_bad = UINT64_MAX;
	uint32_t i, n = z->n, m, b, nb = 1;
	bool last_inflight = n && w->ops[z->idx[n - 1]].status != S_OK;
	struct zsim s = { 0 };
	char what[320] = "";

	if (last_inflight)
		nb = 2;
	for (l = z->zs; l < end; l++)
		if (v[l - z->zs] != current_value(ns, l))
			(*rolled)++;
	for (b = 0; b < nb; b++) {
		m = n - b;
		zone_sim(ns, z, m, &s);
		what[0] = 0;
		first_bad = UINT64_MAX;
		/* An in-flight reset that took effect: empty, every LBA zeros. */
		if (m && w->ops[z->idx[m - 1]].kind == K_ZRESET &&
		    (wp != z->zs || state != ZS_EMPTY)) {
			snprintf(what, sizeof(what), "a reset took effect, but the zone is %s, write pointer %" PRIu64,
				 zs_name(state), wp);
			continue;
		}
		if (wp < s.dur || wp > s.top)
			snprintf(what, sizeof(what),
				 "write pointer %" PRIu64 " outside [%" PRIu64 ", %" PRIu64
				 "] (durable point%s, %s)", wp, s.dur, s.top,
				 s.zdur ? " a ZRWA flush's" : "",
				 use_plp ? "with power-loss protection the window flushed at the cut" :
				 "the last flushed point or finished: the unflushed ZRWA window is lost");
		for (l = z->zs; l < end && !what[0]; l++) {
			uint64_t want = VAL_ZERO, alt = VAL_ZERO, got = v[l - z->zs];

			if (l < wp)
				/* b: the branch where the last op did not happen */
				below_wp(ns, w, l, z->base_wp,
					 b ? z->idx[n - 1] : UINT32_MAX, &want, &alt);
			if (got == alt)
				want = alt;
			if (got != want) {
				first_bad = l;
				snprintf(what, sizeof(what), "LBA %" PRIu64 " does not hold %s",
					 l, l < wp ? "its last write (the window as flushed) below the write pointer" :
					 "zeros at or above the write pointer");
			}
		}
		if (!what[0])
			state_fits(w, z, s.first, m, wp, state, what,
				   sizeof(what));
		if (!what[0])
			break;
	}
	if (what[0]) {
		if (++*printed <= max_detail) {
			printf("VIOLATION seed %" PRIu64 " round %u nsid %u zone %" PRIu64
			       " (LBAs %" PRIu64 "+%" PRIu64 ", thread %u, ZRWA): %s%s\n",
			       seed, round_no, ns->nsid, z->zs / ns->zlbas, z->zs,
			       z->cap, w->id, what,
			       nb > 1 ? " (and so if its last op, in flight, did not take effect)" : "");
			printf("  after the cut: %s, write pointer %" PRIu64
			       "; baseline write pointer %" PRIu64 "; ZRWA window %u LBAs, flush granularity %u\n",
			       zs_name(state), wp, z->base_wp, ns->zrwas, ns->zrwafg);
			zone_detail(ns, w, z, v, first_bad);
		}
		return 1;
	}
	/* Taken back: completed writes at or above the new write pointer. */
	for (i = s.first; i < n; i++) {
		struct op *o = &w->ops[z->idx[i]];

		if ((o->kind == K_WRITE || o->kind == K_APPEND ||
		     o->kind == K_COPY) &&
		    o->status == S_OK && o->slba + o->nlb > wp)
			*taken += o->slba + o->nlb - (o->slba > wp ? o->slba : wp);
	}
	return 0;
}

/*
 * --tamper: the checker's own test. After the cut, undo one durable
 * operation behind the device's back, as a device that lost it would;
 * the check must report it. Conventional: an LBA put back to its value
 * before its newest durable op (write, with FUA while the rule is
 * disarmed), or a third value if there is none. Zoned: a zone holding
 * durable data is reset.
 */
static void do_tamper(void)
{
	struct nsx *ns = &nss[0];
	unsigned char *b;
	uint64_t lba, prev = 0, cur;
	int rc;

	if (ns->zoned && use_zrwa) {
		uint32_t zi;
		struct zsim s;

		/*
		 * --zrwa: a zone that was empty when this round opened it with
		 * ZRWAA, whose durable data is a ZRWA flush's (the flushes
		 * completed: the op in flight not counted): resetting it loses
		 * nothing but what that flush committed.
		 */
		for (zi = 0; zi < ns->nzones; zi++) {
			struct zone *z = &ns->zones[zi];
			struct worker *w = owner(ns, z->zs);
			bool inflight = z->n && w->ops[z->idx[z->n - 1]].status != S_OK;

			if (!z->zrwa_round)
				continue;
			zone_sim(ns, z, z->n - inflight, &s);
			if (s.zdur && s.dur > z->zs && (s.first || z->base_wp == z->zs))
				break;
		}
		if (zi == ns->nzones)
			die("--tamper --zrwa: no zone whose durable data is a ZRWA flush's");
		printf("crashcheck: tamper: zone %u (LBA %" PRIu64 ") reset behind the checker's back: its data up to LBA %" PRIu64
		       " are a durable ZRWA flush's\n", zi, ns->zones[zi].zs, s.dur);
		rc = zone_send(ns, ns->zones[zi].zs, ZSA_RESET);
		if (rc)
			die("--tamper: resetting zone %u: %d", zi, rc);
		return;
	}
	if (ns->zoned) {
		uint32_t zi;

		for (zi = 0; zi < ns->nzones; zi++) {
			struct zone *z = &ns->zones[zi];
			struct worker *w = owner(ns, z->zs);
			uint32_t i;
			bool d = z->base_wp > z->zs;

			for (i = 0; i < z->n; i++) {
				struct op *o = &w->ops[z->idx[i]];

				if (o->kind == K_ZRESET)
					d = false;
				if ((o->kind == K_WRITE || o->kind == K_APPEND ||
				     o->kind == K_COPY) && durable(ns, o))
					d = true;
			}
			if (d)
				break;
		}
		if (zi == ns->nzones)
			die("--tamper: no zone with durable data");
		printf("crashcheck: tamper: zone %u (LBA %" PRIu64 ") reset behind the checker's back\n",
		       zi, ns->zones[zi].zs);
		rc = zone_send(ns, ns->zones[zi].zs, ZSA_RESET);
		if (rc)
			die("--tamper: resetting zone %u: %d", zi, rc);
		return;
	}
	if (posix_memalign((void **)&b, PAGE, PAGE))
		die("out of memory");
	for (lba = 0; lba < ns->nlba; lba++) {
		struct lent *e = &ns->lents[lba];
		struct worker *w = owner(ns, lba);

		if (!e->n || !durable(ns, &w->ops[e->idx[e->n - 1]]) ||
		    (tamper_copy && w->ops[e->idx[e->n - 1]].kind != K_COPY))
			continue;
		cur = op_val(&w->ops[e->idx[e->n - 1]], lba);
		prev = e->n > 1 ? op_val(&w->ops[e->idx[e->n - 2]], lba) : e->base;
		if (prev != cur)
			break;
	}
	if (tamper_copy && lba == ns->nlba)
		die("--tamper-copy: no LBA whose newest op is a durable copy");
	if (tamper_copy) {
		printf("crashcheck: tamper: nsid %u LBA %" PRIu64 " put back to the value before its newest durable op, a copy (%#" PRIx64 ")\n",
		       ns->nsid, lba, prev);
	} else if (lba == ns->nlba) {
		lba = 0;
		prev = mkwid(owner(ns, lba)->id, 0xfffffff0);
		printf("crashcheck: tamper: nsid %u LBA %" PRIu64 " gets a third value, wid %#" PRIx64 "\n",
		       ns->nsid, lba, prev);
	} else {
		printf("crashcheck: tamper: nsid %u LBA %" PRIu64 " put back to the value before its newest durable op (%#" PRIx64 ")\n",
		       ns->nsid, lba, prev);
	}
	if (prev == VAL_ZERO) {
		rc = nvme_rw(ns, OP_WZ, lba, 1, CDW12_FUA, NULL);
	} else if (prev == VAL_UNCOR) {
		rc = nvme_rw(ns, OP_UNCOR, lba, 1, 0, NULL);
	} else {
		uint64_t k, wv;

		if (!record_of(key(ns, lba), prev, &k, &wv))
			die("--tamper: no record for %#" PRIx64, prev);
		fill(b, k, wv);
		rc = nvme_rw(ns, OP_WRITE, lba, 1, CDW12_FUA, b);
	}
	if (rc)
		die("--tamper: writing LBA %" PRIu64 ": %d", lba, rc);
	free(b);
}

/*
 * Read @m LBAs from @lba into @b; an LBA marked uncorrectable fails a
 * read (Unrecovered Read Error): the range is halved until each such LBA
 * is found alone and flagged in @unc (a few reads per mark, not one per
 * LBA). Return: 0, or the first other error.
 */
static int read_marked(struct nsx *ns, uint64_t lba, uint32_t m,
		       unsigned char *b, bool *unc)
{
	int rc = nvme_rw(ns, OP_READ, lba, m, 0, b);
	uint32_t h = m / 2;

	if (!(rc > 0 && (rc & 0x7ff) == SC_READ_ERROR))
		return rc;
	if (m == 1) {
		*unc = true;
		return 0;
	}
	rc = read_marked(ns, lba, h, b, unc);
	return rc ? rc : read_marked(ns, lba + h, m - h, b + (size_t)h * lbs,
				     unc + h);
}

/* Read @n LBAs from @lba into @v (values). */
static void read_values(struct nsx *ns, uint64_t lba, uint64_t n, uint64_t *v,
			unsigned char *b, char (*why)[160])
{
	uint32_t per = READ_CHUNK / lbs, m, i;
	bool unc[READ_CHUNK / 512];
	uint64_t done;
	int rc;

	for (done = 0; done < n; done += m) {
		m = n - done < per ? n - done : per;
		memset(unc, 0, sizeof(unc));
		rc = read_marked(ns, lba + done, m, b, unc);
		if (rc)
			die("reading %s LBAs %" PRIu64 "+%u after the cut: %d",
			    ns->name, lba + done, m, rc);
		for (i = 0; i < m; i++) {
			if (unc[i]) {
				v[done + i] = VAL_UNCOR;
				continue;
			}
			v[done + i] = decode(b + (size_t)i * lbs,
					     key(ns, lba + done + i),
					     why ? why[done + i] : NULL, 160);
		}
	}
}

static void clear_history(struct nsx *ns)
{
	uint64_t l;
	uint32_t z;

	for (l = 0; l < ns->nlba; l++)
		ns->lents[l].n = 0;
	if (ns->zoned)
		for (z = 0; z < ns->nzones; z++)
			ns->zones[z].n = 0;
}

/*
 * Read every LBA of @ns; check it; it becomes the baseline. Return the
 * violations. A violating LBA is zeroed (a zone reset) while the rule
 * is disarmed, so the next rounds start from a known value.
 */
static uint64_t check_ns(struct nsx *ns, uint64_t *rolled, uint64_t *taken)
{
	uint64_t per = READ_CHUNK / lbs, lba, n, i, bad = 0, *badlba = NULL;
	uint64_t nbad = 0, *v;
	char (*why)[160];
	unsigned int printed = 0;
	unsigned char *b;
	int rc;

	if (posix_memalign((void **)&b, PAGE, READ_CHUNK))
		die("out of memory");
	if (ns->zoned) {
		uint8_t *st = calloc(ns->nzones, 1);
		uint64_t *wp = calloc(ns->nzones, sizeof(*wp));
		uint32_t z;

		v = calloc(ns->zlbas, sizeof(*v));
		if (!st || !wp || !v)
			die("out of memory");
		report_zones(ns, st, wp);
		for (z = 0; z < ns->nzones; z++) {
			struct zone *zn = &ns->zones[z];
			uint64_t nb;

			read_values(ns, zn->zs, ns->zlbas, v, b, NULL);
			nb = zn->zrwa_round ?
			     check_zone_zrwa(ns, zn, st[z], wp[z], v, rolled,
					     taken, &printed) :
			     check_zone(ns, zn, st[z], wp[z], v, rolled, taken,
					&printed);
			bad += nb;
			if (nb) {
				rc = zone_send(ns, zn->zs, ZSA_RESET);
				if (rc)
					die("resetting zone %u: %d", z, rc);
				wp[z] = zn->zs;
				st[z] = ZS_EMPTY;
				memset(v, 0, ns->zlbas * sizeof(*v));
			}
			for (i = 0; i < ns->zlbas; i++)
				ns->lents[zn->zs + i].base = v[i];
			zn->base_wp = zn->wp = zn->written = wp[z];
			zn->full = st[z] == ZS_FULL;
			zn->open = false;
			zn->empty = st[z] == ZS_EMPTY;
			zn->zrwa = zn->zrwa_round = false;
			zn->n = 0;
		}
		free(st);
		free(wp);
		free(v);
		clear_history(ns);
		if (printed > max_detail)
			printf("  (%u more violations in this round not shown)\n",
			       printed - max_detail);
		free(b);
		return bad;
	}
	v = malloc(per * sizeof(*v));
	why = malloc(per * sizeof(*why));
	if (!v || !why)
		die("out of memory");
	for (lba = 0; lba < ns->nlba; lba += n) {
		n = ns->nlba - lba < per ? ns->nlba - lba : per;
		read_values(ns, lba, n, v, b, why);
		for (i = 0; i < n; i++) {
			if (!check_lba(ns, lba + i, v[i], why[i], rolled, taken,
				       &printed)) {
				bad++;
				badlba = xrealloc(badlba, (nbad + 1) * sizeof(*badlba));
				badlba[nbad++] = lba + i;
			}
			ns->lents[lba + i].base = v[i];
		}
	}
	clear_history(ns);
	if (printed > max_detail)
		printf("  (%u more violations in this round not shown)\n",
		       printed - max_detail);
	for (i = 0; i < nbad; i++) {
		rc = nvme_rw(ns, OP_WZ, badlba[i], 1, CDW12_FUA, NULL);
		if (rc)
			die("zeroing LBA %" PRIu64 ": %d", badlba[i], rc);
		ns->lents[badlba[i]].base = VAL_ZERO;
	}
	free(badlba);
	free(v);
	free(why);
	free(b);
	return bad;
}

/*
 * The baseline (the power-cut rule disarmed: nothing is logged, so what
 * is written is durable; a Flush on top): every LBA of a conventional
 * namespace that reads zeros (@all: every LBA) gets a record of its own
 * (this round's baseline write id). On a zoned namespace zeros are the
 * unwritten blocks above the write pointers: with @all, every zone is
 * reset and written durably up to a random point.
 */
static void write_baseline(struct nsx *ns, bool all, uint64_t *rng)
{
	uint32_t per = READ_CHUNK / lbs, n, k;
	uint64_t wid = base_wid(), lba;
	unsigned char *b;
	int rc;

	if (posix_memalign((void **)&b, PAGE, READ_CHUNK))
		die("out of memory");
	if (ns->zoned) {
		uint32_t z;

		if (!all) {
			free(b);
			return;
		}
		for (z = 0; z < ns->nzones; z++) {
			struct zone *zn = &ns->zones[z];
			uint64_t fillto;

			rc = zone_send(ns, zn->zs, ZSA_RESET);
			if (rc)
				die("baseline: resetting zone %u: %d", z, rc);
			fillto = zn->zs + below(rng, zn->cap / 2 + 1);
			/* --zrwa: half the zones that may have one start empty */
			if (use_zrwa && zn->zrwa_ok && below(rng, 2))
				fillto = zn->zs;
			for (lba = zn->zs; lba < zn->zs + ns->zlbas; lba++)
				ns->lents[lba].base = VAL_ZERO;
			for (lba = zn->zs; lba < fillto; lba += n) {
				n = fillto - lba < per ? fillto - lba : per;
				for (k = 0; k < n; k++) {
					fill(b + (size_t)k * lbs, key(ns, lba + k), wid);
					ns->lents[lba + k].base = wid;
				}
				rc = nvme_rw(ns, OP_WRITE, lba, n, CDW12_FUA, b);
				if (rc)
					die("baseline: writing zone %u: %d", z, rc);
				t_base_lbas += n;
			}
			zn->base_wp = zn->wp = zn->written = fillto;
			zn->full = false;
			zn->open = false;
			zn->empty = fillto == zn->zs;
			zn->zrwa = zn->zrwa_round = false;
			zn->n = 0;
		}
		if (nvme_flush(ns))
			die("baseline: flush failed");
		free(b);
		return;
	}
	for (lba = 0; lba < ns->nlba; lba += n) {
		/* a run of LBAs to write, at most a chunk's worth */
		while (lba < ns->nlba && !all && ns->lents[lba].base != VAL_ZERO &&
		       ns->lents[lba].base != VAL_UNCOR)
			lba++;
		for (n = 0; lba + n < ns->nlba && n < per &&
		     (all || ns->lents[lba + n].base == VAL_ZERO ||
		      ns->lents[lba + n].base == VAL_UNCOR); n++) {
			fill(b + (size_t)n * lbs, key(ns, lba + n), wid);
			ns->lents[lba + n].base = wid;
		}
		if (!n)
			break;
		rc = nvme_rw(ns, OP_WRITE, lba, n, CDW12_FUA, b);
		if (rc)
			die("baseline: writing %s LBAs %" PRIu64 "+%u: %d",
			    ns->name, lba, n, rc);
		t_base_lbas += n;
	}
	if (nvme_flush(ns))
		die("baseline: flush failed");
	free(b);
}

/* ---- rounds ---- */

/* An error the device itself returned (not the host's: abort, no path). */
static bool device_error(int err)
{
	return err > 0 && (err & 0x7ff) < 0x300;
}

/*
 * An error a round's ending explains: the host's (aborted, no path,
 * the device gone), or the controller's aborts of a reset (Command
 * Abort Requested 07h, Aborted due to SQ Deletion 08h).
 */
static bool ending_error(int err)
{
	return !device_error(err) || (err & 0x7ff) == 0x07 ||
	       (err & 0x7ff) == 0x08;
}

/*
 * An error the host's recovery caused: its own (aborted, no path),
 * Command Abort Requested (07h), the controller's completion of the
 * Abort the nvme driver sends when a command times out (crashcheck
 * sends none), or Aborted due to SQ Deletion (08h): the reset that
 * follows deletes the I/O queues of the still-live controller, which
 * completes what it had not fetched so (vfn_sq_delete(); the crash
 * suite's stray-reset run exited 3 on it twice on 2026-12-06, on 6.1
 * and on 6.12, both on a loaded host). A block request so aborted is
 * retried; a passthrough one (every command crashcheck sends) is not, and
 * its status reaches us.
 */
static bool host_aborted(int err)
{
	return !device_error(err) || (err & 0x7ff) == 0x07 ||
	       (err & 0x7ff) == 0x08;
}

static void arm_faults(uint64_t *rng)
{
	long long spare = stat_get("spare_blocks");

	/* The first round arms both, then a third of the rounds. */
	if (below(rng, 3) && round_no > 1)
		return;
	/* Leave room: a device without spare goes read-only for good. */
	if (spare < 12)
		return;
	t_fault_rounds++;
	if (rule_get("program_fail", "armed") == 0) {
		rule_set("program_fail", "probability", "%u", prog_ppm);
		rule_set("program_fail", "times", "1");
		rule_set("program_fail", "armed", "1");
	}
	if ((below(rng, 2) || round_no == 1) &&
	    rule_get("erase_fail", "armed") == 0) {
		rule_set("erase_fail", "times", "1");
		rule_set("erase_fail", "armed", "1");
	}
}

/* --fdp: the placement policy, die-affinity in half the rounds. */
static void pick_placement(uint64_t *rng)
{
	static char first[64];
	char s[256], path[128], *p, *q;

	snprintf(path, sizeof(path), "%s/policy/placement", sysdev);
	if (read_str(path, s, sizeof(s)))
		return;
	if (!first[0] && (p = strchr(s, '[')) && (q = strchr(p, ']'))) {
		*q = 0;
		snprintf(first, sizeof(first), "%s", p + 1);
	}
	if (!first[0])
		return;
	if (write_str(path, below(rng, 2) ? "die-affinity" : first))
		die("cannot switch the placement policy");
}

/* The round's ending: the first rounds take each enabled one in turn. */
static enum ending pick_ending(uint64_t *rng)
{
	unsigned int list[E_NR], n = 0, e;

	for (e = E_RESET; e < E_NR; e++)
		if (endings_mask & 1U << e)
			list[n++] = e;
	if (!n)
		return E_CUT;
	if (round_no >= 3 && round_no - 3 < n)
		return list[round_no - 3];
	if (round_no < 3 || ((endings_mask & 1U << E_CUT) && below(rng, 2)))
		return E_CUT;
	return list[below(rng, n)];
}

static bool nvme_state_live(void)
{
	char path[320], s[32];

	snprintf(path, sizeof(path), "/sys/class/nvme/%s/state", ctrl_name);
	return !read_str(path, s, sizeof(s)) && !strcmp(s, "live");
}

/* The PCI address of the controller, for unbind/bind */
static void pci_addr(char *out, size_t len)
{
	char path[300], link[256], *b;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/nvme/%s/device", ctrl_name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		die("%s: %s", path, strerror(errno));
	link[n] = 0;
	b = strrchr(link, '/');
	snprintf(out, len, "%s", b ? b + 1 : link);
}

static void cut_now(uint64_t *cut_tick)
{
	int rc;

	*cut_tick = atomic_fetch_add(&tick, 1);
	rc = rule_write("power_cut", "cut", "1");
	if (rc)
		die("cutting the power: %s", strerror(-rc));
}

/* Wait until the workers stopped or @target ops completed. */
static void wait_ops(uint64_t target)
{
	unsigned int i;

	for (;;) {
		bool all_stopped = true;

		for (i = 0; i < nr_threads; i++)
			if (!workers[i].failed &&
			    workers[i].done_ops < ops_per_round)
				all_stopped = false;
		if (all_stopped || atomic_load(&ops_done) >= target)
			return;
		usleep(100);
	}
}

/* Namespace Management between rounds: the last namespace made anew. */
static void write_baseline(struct nsx *ns, bool all, uint64_t *rng);

static void recycle_ns(uint64_t *rng)
{
	struct nsx *ns = &nss[nr_ns - 1];
	uint64_t bytes = ns->zoned ? (uint64_t)ns->nzones * ns->zlbas * lbs :
			 0;
	unsigned long long size;
	unsigned int old = ns->nsid;

	if (ioctl(ns->fd, BLKGETSIZE64, &size))
		die("BLKGETSIZE64: %s", strerror(errno));
	if (!bytes)
		bytes = size;
	close(ns->fd);
	ns->fd = -1;
	ns_delete(ns->nsid);
	ns->nsid = ns_create(bytes, ns->zoned);
	ns_open_new(ns);
	geometry(ns);
	clear_history(ns);
	write_baseline(ns, true, rng);
	printf("round %u: namespace %u deleted, namespace %u (%s) made in its place\n",
	       round_no, old, ns->nsid, ns->name);
	t_recycled++;
}

/*
 * Slow programs: some rounds set the program times to SLOW_PROG_NS, so
 * that Flush and FUA commands, and the programs a clean shutdown or a
 * reset waits for, are in flight when the round ends and its cut comes.
 */
#define SLOW_PROG_NS	"40000000"

static void slow_programs(bool on)
{
	static const char *const name[2] = { "main_prog_ns", "slc_prog_ns" };
	static char saved[2][32];
	char knob[2][128];
	unsigned int i;

	for (i = 0; i < 2; i++)
		snprintf(knob[i], sizeof(knob[i]), "%s/config/%s", sysdev, name[i]);
	for (i = 0; i < 2; i++) {
		if (on) {
			if (read_str(knob[i], saved[i], sizeof(saved[i])))
				die("%s: cannot read it", knob[i]);
			if (write_str(knob[i], SLOW_PROG_NS))
				die("%s: refused " SLOW_PROG_NS, knob[i]);
		} else if (write_str(knob[i], saved[i])) {
			die("%s: refused %s", knob[i], saved[i]);
		}
	}
}

static void run_round(uint64_t *rng)
{
	uint64_t total = (uint64_t)nr_threads * ops_per_round;
	uint64_t target = 0, after = 0, cut_tick = 0, rolled = 0, taken = 0;
	uint64_t bad = 0, inflight = 0, t0 = now_ms(), rops = 0, read_bad = 0;
	uint64_t t_cut, t_back, t_chk;
	long long cuts0 = stat_get("fault_power_cuts"), lostr = stat_get("power_cut_lost_writes");
	bool vwc_on, by_rule, fell_back = false, rig_err = false, slow;
	bool kernel_reset = false;
	char ends[96] = "";
	unsigned int i, j;
	int rc;

	round_no++;
	sd_tick = 0;
	end_tick = 0;
	vwc_until = UINT64_MAX;
	if (nr_ns > 1 && recycle && round_no > 1 && round_no % 3 == 0)
		recycle_ns(rng);
	/* Zeros read after the last cut get fresh records (durable). */
	for (i = 0; i < nr_ns; i++)
		write_baseline(&nss[i], false, rng);
	vwc_on = vwc_mode < 0 ? below(rng, 3) != 0 : vwc_mode;
	by_rule = cut_mode < 0 ? below(rng, 3) == 0 : cut_mode;
	if (round_no <= 2 && vwc_mode < 0)
		vwc_on = round_no == 1;
	if (round_no <= 2 && cut_mode < 0)
		by_rule = round_no == 2;
	round_end = pick_ending(rng);
	round_no_flush = round_no == 1 && vwc_on && !by_rule;
	/* half the resets and shutdowns, a sixth of the plain cuts */
	slow = round_no > 2 && below(rng, round_end == E_RESET ||
					   round_end == E_SHUTDOWN ? 2 : 6) == 0;
	if (round_end == E_TIMEOUT || round_end == E_DELAY)
		slow = false;
	/*
	 * The liveness round programs slowly: the writes it completed in the
	 * last SLOW_PROG_NS before its cut are still being programmed, so
	 * the cut takes them back even where programs are quick (SLC) and a
	 * background flush empties the cache between writes (qlc-hybrid
	 * with maintenance=background found nothing to take back).
	 */
	if (round_no_flush || (stray_reset && round_end == E_CUT && !by_rule))
		slow = true;
	if (round_end != E_CUT)
		by_rule = false;
	round_vwc_off = !vwc_on;
	rc = set_vwc(vwc_on);
	if (rc)
		die("Set Features VWC=%d on %s: %d", vwc_on, ctrl_name, rc);
	if (fdp_handles)
		pick_placement(rng);
	if (use_faults)
		arm_faults(rng);
	if (round_end == E_TIMEOUT || round_end == E_DELAY) {
		const char *r = round_end == E_TIMEOUT ? "timeout" : "delay";

		rule_set(r, "armed", "0");
		rule_set(r, "range", "all");
		rule_set(r, "probability", "1000000");
		rule_set(r, "times", "1");
		rule_set(r, "after", "%" PRIu64, below(rng, total / 2));
		if (round_end == E_DELAY)
			rule_set(r, "delay_ns", "%" PRIu64,
				 below(rng, 2) ? 300000000ULL : 2500000000ULL);
		rule_set(r, "armed", "1");
	}
	rule_set("power_cut", "armed", "0");
	if (by_rule) {
		/*
		 * Matching commands (those with LBAs but DSM) are 70 to 82 %
		 * of the mix: the rule's command comes within the round.
		 */
		after = below(rng, total / 2);
		rule_set("power_cut", "probability", "1000000");
		rule_set("power_cut", "after", "%" PRIu64, after);
	} else {
		/* the liveness round cuts after a quarter of its ops at least */
		target = round_no_flush ? total / 4 + below(rng, total - total / 4) :
					  below(rng, total);
		/* --tamper --zrwa: time for the flushes (zoned_op()) */
		if (tamper && use_zrwa && t_cuts + 1 == cuts_wanted)
			target = total / 2 + target / 2;
		rule_set("power_cut", "probability", "0");
		rule_set("power_cut", "after", "0");
	}
	rule_set("power_cut", "armed", "1");
	if (slow)
		slow_programs(true);

	atomic_store(&ops_done, 0);
	atomic_store(&stop, false);
	for (i = 0; i < nr_ns; i++)
		atomic_store(&nss[i].max_flush, 0);
	for (i = 0; i < nr_threads; i++) {
		struct worker *w = &workers[i];
		uint64_t mine = (w->ns->nchunks - w->li + tpn - 1) / tpn;

		w->rng = seed ^ (uint64_t)round_no * 0x100000001b3ULL ^
			 (uint64_t)(i + 1) << 52;
		w->nops = 0;
		w->done_ops = 0;
		w->failed = false;
		w->read_violations = 0;
		w->nhot = 1 + below(&w->rng, mine < 8 ? mine : 8);
		for (j = 0; j < w->nhot; j++)
			w->hot[j] = w->li + below(&w->rng, mine) * tpn;
		if (pthread_create(&w->th, NULL, worker_main, w))
			die("pthread_create");
	}
	switch (round_end) {
	case E_CUT:
		if (by_rule)
			break;
		if (stray_reset) {
			uint64_t t = now_ms();

			/*
			 * One command swallowed (the timeout rule): the
			 * kernel times it out twice, resets the controller
			 * and aborts it; the checker is not told.
			 */
			rule_set("timeout", "armed", "0");
			rule_set("timeout", "range", "all");
			rule_set("timeout", "probability", "1000000");
			rule_set("timeout", "times", "1");
			rule_set("timeout", "after", "%" PRIu64, below(rng, total / 4));
			rule_set("timeout", "armed", "1");
			for (;;) {
				bool any = false;

				for (i = 0; i < nr_threads; i++)
					any |= workers[i].failed;
				if (any || now_ms() - t > 30000)
					break;
				usleep(1000);
			}
			while (!nvme_state_live() && now_ms() - t < 60000)
				usleep(10000);
			rule_set("timeout", "armed", "0");
			snprintf(ends, sizeof(ends), ", a stray reset by %" PRIu64 " ops",
				 (uint64_t)atomic_load(&ops_done));
		}
		wait_ops(target);
		usleep(below(rng, 2000));
		cut_now(&cut_tick);
		atomic_store(&stop, true);
		break;
	case E_RESET: {
		char path[320];

		wait_ops(target);
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/reset_controller",
			 ctrl_name);
		end_tick = atomic_fetch_add(&tick, 1);
		vwc_until = end_tick;
		/* returns once the reset is done; the load goes on */
		rc = write_str(path, "1");
		if (rc)
			die("%s: %s", path, strerror(-rc));
		snprintf(ends, sizeof(ends), ", reset at ticket %" PRIu64 " to %" PRIu64,
			 end_tick, (uint64_t)atomic_load(&tick));
		if (!slow)
			usleep(below(rng, 5000));
		cut_now(&cut_tick);
		atomic_store(&stop, true);
		break;
	}
	case E_SHUTDOWN: {
		char addr[256];

		wait_ops(target);
		pci_addr(addr, sizeof(addr));
		end_tick = atomic_fetch_add(&tick, 1);
		/* nvme_remove: the namespaces go, then CC.SHN, SHST complete */
		rc = write_str("/sys/bus/pci/drivers/nvme/unbind", addr);
		if (rc)
			die("unbinding %s: %s", addr, strerror(-rc));
		sd_tick = atomic_fetch_add(&tick, 1);
		snprintf(ends, sizeof(ends), ", unbind at ticket %" PRIu64 " to %" PRIu64,
			 end_tick, sd_tick);
		atomic_store(&stop, true);
		for (i = 0; i < nr_threads; i++)
			pthread_join(workers[i].th, NULL);
		rc = write_str("/sys/bus/pci/drivers/nvme/bind", addr);
		if (rc)
			die("binding %s: %s", addr, strerror(-rc));
		reattach();
		cut_now(&cut_tick);
		break;
	}
	case E_TIMEOUT:
	case E_DELAY: {
		const char *r = round_end == E_TIMEOUT ? "timeout" : "delay";
		uint64_t t = now_ms(), seen = 0;

		/*
		 * The load ends; the kernel recovers the lost command (a
		 * reset, after two timeouts). The first moment the
		 * controller is seen out of the live state is taken as the
		 * reset's start: a command the reset controller executed
		 * completes after that (the reset takes far longer than a
		 * poll), so a write completed before it met the write cache
		 * as the round set it.
		 */
		for (;;) {
			bool all_stopped = true;

			for (i = 0; i < nr_threads; i++)
				if (!workers[i].failed &&
				    workers[i].done_ops < ops_per_round)
					all_stopped = false;
			if (!seen && !nvme_state_live())
				seen = atomic_fetch_add(&tick, 1);
			if (all_stopped)
				break;
			usleep(200);
		}
		while (!nvme_state_live() && now_ms() - t < 30000)
			usleep(10000);
		if (seen) {
			vwc_until = seen;
		} else if (!vwc_on) {
			/* no reset seen: the write cache must still be off */
			struct nvme_passthru_cmd c;

			memset(&c, 0, sizeof(c));
			c.opcode = ADM_GET_FEAT;
			c.cdw10 = FEAT_VWC;
			if (admin(&c) || (c.result & 1))
				vwc_until = 0;
		}
		snprintf(ends, sizeof(ends), ", %s injected %lld, reset seen at ticket %" PRIu64
			 ", recovered by ticket %" PRIu64, r, rule_get(r, "injected"),
			 seen, (uint64_t)atomic_load(&tick));
		rule_set(r, "armed", "0");
		cut_now(&cut_tick);
		atomic_store(&stop, true);
		break;
	}
	default:
		break;
	}
	if (round_end != E_SHUTDOWN)
		for (i = 0; i < nr_threads; i++)
			pthread_join(workers[i].th, NULL);
	t_cut = now_ms();
	if (by_rule && stat_get("fault_power_cuts") == cuts0) {
		/* The rule's command never came: cut by hand. */
		fell_back = true;
		cut_now(&cut_tick);
	}
	if (slow)
		slow_programs(false);
	if (stat_get("fault_power_cuts") != cuts0 + 1)
		die("fault_power_cuts went from %lld to %lld", cuts0,
		    stat_get("fault_power_cuts"));
	if (rule_get("power_cut", "armed") != 0)
		die("power_cut still armed after the cut");
	for (i = 0; i < nr_threads; i++) {
		struct worker *w = &workers[i];

		rops += w->done_ops;
		read_bad += w->read_violations;
		for (j = 0; j < w->nops; j++)
			inflight += w->ops[j].status != S_OK;
		if (!w->failed)
			continue;
		/*
		 * A failure before the cut (or the round's ending), or one
		 * the device returned (a powered-off device returns
		 * nothing), is not the cut's.
		 */
		if (round_end != E_CUT && w->fail_tick >= end_tick &&
		    ending_error(w->fail_err))
			continue;
		/*
		 * The host aborted it before the cut by hand (or, whatever the
		 * cut, after it was in flight for nvme_core.io_timeout): a
		 * command outlived io_timeout (slow programs on a busy host),
		 * and the kernel's recovery reset the controller, which puts the
		 * features back to their defaults (the write cache on). Not
		 * the rig's fault; as after a reset ending, a write with the
		 * cache set off is durable at completion only if it
		 * completed before that reset could begin: before the
		 * aborted command was submitted.
		 */
		if (host_aborted(w->fail_err) &&
		    (((!by_rule || fell_back) && w->fail_tick < cut_tick) ||
		     w->fail_age_ms >= io_timeout_ms)) {
			if (!kernel_reset)
				printf("crashcheck: round %u: thread %u's %s aborted by the host (%d) before the cut: the kernel reset the controller; writes with the cache off durable at completion only before ticket %" PRIu64 "\n",
				       round_no, i, kind_name[w->fail_kind], w->fail_err,
				       w->fail_sub);
			kernel_reset = true;
			if (w->fail_sub < vwc_until)
				vwc_until = w->fail_sub;
			continue;
		}
		if (device_error(w->fail_err) ||
		    (!by_rule && w->fail_tick < cut_tick) ||
		    (by_rule && fell_back)) {
			printf("crashcheck: round %u: thread %u's %s failed (%d) not by the cut\n",
			       round_no, i, kind_name[w->fail_kind], w->fail_err);
			rig_err = true;
		}
	}
	if (rig_err)
		t_rig_errors++;
	t_kernel_resets += kernel_reset;
	reattach();
	t_back = now_ms();
	if (tamper && t_cuts + 1 == cuts_wanted)
		do_tamper();
	for (i = 0; i < nr_ns; i++)
		bad += check_ns(&nss[i], &rolled, &taken);
	t_chk = now_ms();
	t_cuts++;
	t_ends[round_end]++;
	t_rule_cuts += by_rule && !fell_back;
	for (i = 0; i < nr_ns; i++)
		t_checked += nss[i].nlba;
	t_violations += bad + read_bad;
	t_ops += rops;
	t_rolled += rolled;
	t_inflight += inflight;
	t_taken += taken;
	if (vwc_on && !use_plp && round_end != E_SHUTDOWN)
		t_live_rounds++;
	printf("round %u: vwc %s%s%s, end %s%s, cut %s%s %" PRIu64 ", %" PRIu64
	       " ops, %" PRIu64 " not completed, %" PRIu64
	       " LBAs not at their last value, %" PRIu64 " taken back (%lld page writes), %" PRIu64
	       " violations, %s, %" PRIu64 " ms (load+cut %" PRIu64 ", back %" PRIu64 ", check %" PRIu64 ")\n",
	       round_no, vwc_on ? "on" : "off", round_no_flush ? " (no flush, no FUA)" : "",
	       slow ? ", programs " SLOW_PROG_NS " ns" : "",
	       ending_name[round_end], ends,
	       by_rule && !fell_back ? "by the rule after" : "by hand after",
	       by_rule && !fell_back ? "" : " ops",
	       by_rule && !fell_back ? after : (uint64_t)atomic_load(&ops_done),
	       rops, inflight, rolled, taken,
	       stat_get("power_cut_lost_writes") - lostr, bad + read_bad,
	       nss[0].name, now_ms() - t0, t_cut - t0, t_back - t_cut,
	       t_chk - t_back);
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: crashcheck [--seed S] [--cuts N] [--seconds S] [--threads T]\n"
		"	[--ops N] [--chunk PAGES] [--vwc on|off|mix] [--cut file|rule|mix]\n"
		"	[--cxl] [--faults] [--program-ppm PPM] [--fdp N] [--namespaces K]\n"
		"	[--no-recycle] [--endings LIST] [--plp] [--detail N] [--tamper]\n"
		"	[--stray-reset] [--tamper-copy] [--zrwa]\n"
		"	[--device vflashN]\n"
		"  --device NAME  the vflash device (default vflash0): only its NVMe\n"
		"                 namespaces (by subsystem NQN) are written\n"
		"  --cuts N       rounds, each ending in a power cut (default 10)\n"
		"  --seconds S    start no round after S seconds (default: no limit)\n"
		"  --threads T    load threads per namespace, each owning its LBAs\n"
		"                 (zones) with one command in flight (default 32)\n"
		"  --ops N        operations per thread per round at most (default 24)\n"
		"  --chunk PAGES  4 KiB pages per owned chunk (default 8)\n"
		"  --vwc MODE     volatile write cache each round (default mix: on 2/3)\n"
		"  --cut MODE     by writing power_cut/cut, by the rule's `after`,\n"
		"                 or mix (default: the rule a third of the rounds)\n"
		"  --cxl          CXL stores into /dev/vflashN (frontend=nvme,cxl)\n"
		"  --faults       arm program_fail (PPM, once) and erase_fail (once) in\n"
		"                 some rounds while spare blocks last\n"
		"  --fdp N        writes carry the placement directive, DSPEC 0 to N-1\n"
		"                 (fdp=1 fdp_ruhs=N); die-affinity placement half the rounds\n"
		"  --namespaces K K namespaces (the missing ones made from the unallocated\n"
		"                 capacity); every third round the last one is deleted and\n"
		"                 made anew (not with --no-recycle)\n"
		"  --endings LIST comma-separated: cut, reset (controller reset under\n"
		"                 load), shutdown (driver unbind: a clean shutdown, then\n"
		"                 bind), timeout, delay (an injected fault and the\n"
		"                 kernel's recovery); each followed by a cut (default cut)\n"
		"  --plp          power-loss protection on: every acknowledged write\n"
		"                 must survive (no liveness check)\n"
		"  --detail N     violations printed in full per round (default 10)\n"
		"  --stray-reset  the checker's own test: rounds cut by hand get a command\n"
		"                 swallowed, so the kernel resets the controller, which the\n"
		"                 checker is not told about; programs slow\n"
		"  --tamper       the checker's own test: after the last cut, undo one\n"
		"                 durable write behind the device's back; the check\n"
		"                 must report it (exit status 1)\n"
		"  --tamper-copy  the same with a durable Copy: each thread's first\n"
		"                 command is a Copy, and one LBA whose newest op is a\n"
		"                 durable Copy is put back (conventional namespaces)\n"
		"  --zrwa         zoned namespaces with a ZRWA (zone_zrwa=1): some of each\n"
		"                 thread's zones are opened with ZRWAA, written anywhere in\n"
		"                 their window (overwrites too), flushed explicitly and by\n"
		"                 writes past the window; an unflushed window is lost at a\n"
		"                 cut (flushed with --plp); with --tamper a zone whose\n"
		"                 durable data a ZRWA flush committed is reset\n");
	exit(2);
}

static int parse_mode(const char *s, const char *a, const char *b)
{
	if (!strcmp(s, a))
		return 0;
	if (!strcmp(s, b))
		return 1;
	if (!strcmp(s, "mix"))
		return -1;
	usage();
	return 0;
}

static unsigned int parse_endings(const char *s)
{
	char buf[128], *t, *save = NULL;
	unsigned int m = 0, e;

	snprintf(buf, sizeof(buf), "%s", s);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		for (e = 0; e < E_NR && strcmp(t, ending_name[e]); e++)
			;
		if (e == E_NR)
			usage();
		m |= 1U << e;
	}
	return m;
}

/* Set up the namespaces: namespace 1 and the ones to make. */
static unsigned int existing_namespaces(void);

static void setup_namespaces(void)
{
	uint64_t cap, each;
	unsigned int i, have;

	nss[0].i = 0;
	nss[0].nsid = 1;
	nss[0].fd = -1;
	nr_ns = nr_ns ? nr_ns : 1;
	{
		unsigned int want = nr_ns;

		nr_ns = 1;
		reattach();
		nr_ns = want;
	}
	geometry(&nss[0]);
	if (nr_ns == 1)
		return;
	have = existing_namespaces();
	if (have == nr_ns)
		return;
	cap = unvmcap();
	each = cap / (nr_ns - have);
	if (nss[0].zoned)
		each -= each % (nss[0].zlbas * lbs);
	else
		each -= each % (PAGE * chunk_pages);
	if (!each)
		die("no unallocated capacity for %u more namespaces (load with ns1_size=)",
		    nr_ns - have);
	for (i = have; i < nr_ns; i++) {
		nss[i].i = i;
		nss[i].nsid = ns_create(each, nss[0].zoned);
		ns_open_new(&nss[i]);
		geometry(&nss[i]);
	}
}

/* The namespaces other than 1 that vflash's controller has already. */
static unsigned int existing_namespaces(void)
{
	char none[1][256] = { "" };
	unsigned int nsid, n = 1;

	for (nsid = 2; nsid <= 32 && n < nr_ns; nsid++) {
		struct nsx *ns = &nss[n];

		ns->nsid = nsid;
		if (!find_ns(nsid, none, 0, ns->name, sizeof(ns->name)) ||
		    !open_ns(ns))
			continue;
		ns->i = n++;
		geometry(ns);
	}
	return n;
}

int main(int argc, char **argv)
{
	uint64_t rng, t0;
	bool seeded = false;
	unsigned int i, j;
	int a;

	for (a = 1; a < argc; a++) {
		const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(o, "--cxl")) {
			use_cxl = true;
			continue;
		}
		if (!strcmp(o, "--faults")) {
			use_faults = true;
			continue;
		}
		if (!strcmp(o, "--tamper-copy")) {
			tamper = tamper_copy = true;
			continue;
		}
		if (!strcmp(o, "--tamper")) {
			tamper = true;
			continue;
		}
		if (!strcmp(o, "--stray-reset")) {
			stray_reset = true;
			continue;
		}
		if (!strcmp(o, "--plp")) {
			use_plp = true;
			continue;
		}
		if (!strcmp(o, "--zrwa")) {
			use_zrwa = true;
			continue;
		}
		if (!strcmp(o, "--no-recycle")) {
			recycle = false;
			continue;
		}
		if (!v)
			usage();
		a++;
		if (!strcmp(o, "--seed")) {
			seed = strtoull(v, NULL, 0);
			seeded = true;
		} else if (!strcmp(o, "--cuts")) {
			cuts_wanted = atoi(v);
		} else if (!strcmp(o, "--seconds")) {
			max_seconds = atoi(v);
		} else if (!strcmp(o, "--threads")) {
			tpn = atoi(v);
		} else if (!strcmp(o, "--ops")) {
			ops_per_round = atoi(v);
		} else if (!strcmp(o, "--chunk")) {
			chunk_pages = atoi(v);
		} else if (!strcmp(o, "--vwc")) {
			vwc_mode = parse_mode(v, "off", "on");
		} else if (!strcmp(o, "--cut")) {
			cut_mode = parse_mode(v, "file", "rule");
		} else if (!strcmp(o, "--program-ppm")) {
			prog_ppm = atoi(v);
		} else if (!strcmp(o, "--fdp")) {
			fdp_handles = atoi(v);
			if (!fdp_handles || fdp_handles > 16)
				usage();
		} else if (!strcmp(o, "--namespaces")) {
			nr_ns = atoi(v);
			if (!nr_ns || nr_ns > MAX_NS)
				usage();
		} else if (!strcmp(o, "--endings")) {
			endings_mask = parse_endings(v);
		} else if (!strcmp(o, "--detail")) {
			max_detail = atoi(v);
		} else if (!strcmp(o, "--device")) {
			unsigned int n;
			char tail;

			if (sscanf(v, "vflash%u%c", &n, &tail) != 1)
				usage();
			snprintf(dev_name, sizeof(dev_name), "vflash%u", n);
		} else {
			usage();
		}
	}
	if (!tpn || tpn * nr_ns > MAX_THREADS || !ops_per_round ||
	    !chunk_pages || chunk_pages > 64 || !cuts_wanted ||
	    prog_ppm > 1000000 || !endings_mask)
		usage();
	nr_threads = tpn * nr_ns;
	snprintf(sysdev, sizeof(sysdev), "/sys/class/vflash/%s", dev_name);
	snprintf(faults, sizeof(faults), "%s/faults", sysdev);
	snprintf(dev_nqn, sizeof(dev_nqn), NQN_PREFIX "%s", dev_name);
	snprintf(cxl_node, sizeof(cxl_node), "/dev/%s", dev_name);
	if (access(faults, F_OK))
		die("no %s: vflash not loaded, no device %s, or a vflash without sysfs fault rules",
		    faults, dev_name);
	if (read_num("/sys/module/nvme_core/parameters/io_timeout") > 0)
		io_timeout_ms = read_num("/sys/module/nvme_core/parameters/io_timeout") * 1000;
	if (!seeded) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (uint64_t)ts.tv_sec * 1000003 ^ ts.tv_nsec ^ getpid();
		seed &= 0xffffffffffffULL;
	}
	printf("crashcheck: seed %" PRIu64 " (replay with --seed %" PRIu64 ")\n",
	       seed, seed);
	fflush(stdout);
	rng = seed;
	if (use_plp) {
		int rc;

		rule_set("power_cut", "armed", "0");
		rc = rule_write("plp", NULL, "1");
		if (rc)
			die("%s/plp: %s", faults, strerror(-rc));
	}
	setup_namespaces();
	if (use_cxl)
		map_cxl();
	for (i = 0; i < nr_ns; i++) {
		struct nsx *ns = &nss[i];

		ns->w0 = i * tpn;
		ns->lents = calloc(ns->nlba, sizeof(*ns->lents));
		if (!ns->lents)
			die("out of memory");
		printf("crashcheck: nsid %u %s (%s), %" PRIu64 " LBAs of %u bytes%s",
		       ns->nsid, ns->name, ctrl_name, ns->nlba, lbs,
		       ns->zoned ? ", zoned" : "");
		if (ns->zoned)
			printf(" (%u zones of %" PRIu64 " LBAs, capacity %" PRIu64 ")",
			       ns->nzones, ns->zlbas, ns->zones[0].cap);
		if (ns->zoned && ns->zrwas)
			printf(", ZRWA window %u LBAs, flush granularity %u, %u resources",
			       ns->zrwas, ns->zrwafg, ns->nzrwa);
		printf("\n");
		for (j = 0; j < tpn; j++) {
			struct worker *w = &workers[ns->w0 + j];

			w->id = ns->w0 + j;
			w->li = j;
			w->ns = ns;
			if (posix_memalign((void **)&w->buf, PAGE, chunk_pages * PAGE) ||
			    posix_memalign((void **)&w->rbuf, PAGE, chunk_pages * PAGE) ||
			    !(w->hot = calloc(8, sizeof(*w->hot))))
				die("out of memory");
		}
	}
	printf("crashcheck: %u threads a namespace, %u ops a round, chunks of %u pages%s%s%s%s%s, endings",
	       tpn, ops_per_round, chunk_pages, use_cxl ? ", CXL stores" : "",
	       use_faults ? ", program/erase faults" : "",
	       fdp_handles ? ", FDP placement directives" : "",
	       use_plp ? ", power-loss protection" : "",
	       use_zrwa ? ", ZRWA" : "");
	for (i = 0; i < E_NR; i++)
		if (endings_mask & 1U << i)
			printf(" %s", ending_name[i]);
	printf("\n");
	/* The first baseline: every LBA a record of its own, durable. */
	round_no = 0;
	for (i = 0; i < nr_ns; i++)
		write_baseline(&nss[i], true, &rng);
	lost0 = stat_get("power_cut_lost_writes");
	t0 = now_ms();
	while (t_cuts < cuts_wanted &&
	       (!max_seconds || now_ms() - t0 < max_seconds * 1000ULL))
		run_round(&rng);
	printf("crashcheck: %" PRIu64 " ops, %" PRIu64 " not completed at a cut, %" PRIu64
	       " LBAs found not at their last value, %" PRIu64 " cuts by the rule, %" PRIu64
	       " rounds with flash faults armed, %" PRIu64 " ms, %" PRIu64 " ms per cut\n",
	       t_ops, t_inflight, t_rolled, t_rule_cuts, t_fault_rounds,
	       now_ms() - t0, t_cuts ? (now_ms() - t0) / t_cuts : 0);
	printf("crashcheck: endings");
	for (i = 0; i < E_NR; i++)
		printf(" %s %" PRIu64, ending_name[i], t_ends[i]);
	printf(", namespaces made anew %" PRIu64 ", baseline LBAs written %" PRIu64 "\n",
	       t_recycled, t_base_lbas);
	printf("crashcheck: copies %" PRIu64 ", write uncorrectables %" PRIu64
	       ", verifies %" PRIu64 ", reads and verifies that met a mark %" PRIu64
	       ", copied records %" PRIu64 "\n", (uint64_t)t_copies,
	       (uint64_t)t_uncors, (uint64_t)t_verifies, (uint64_t)t_uncor_reads,
	       ctab_used);
	if (use_zrwa)
		printf("crashcheck: zrwa: opens %" PRIu64 ", window writes %" PRIu64
		       ", overwrites %" PRIu64 ", explicit flushes %" PRIu64
		       ", implicit flushes %" PRIu64 "\n", (uint64_t)t_zopens,
		       (uint64_t)t_zwrites, (uint64_t)t_zover,
		       (uint64_t)t_zflushes, (uint64_t)t_zimplicit);
	printf("crashcheck: taken back %" PRIu64 " LBAs in %" PRIu64
	       " rounds with the write cache on and a cut, power_cut_lost_writes %lld\n",
	       t_taken, t_live_rounds, stat_get("power_cut_lost_writes") - lost0);
	if (t_rig_errors)
		printf("crashcheck: %" PRIu64 " rounds had I/O errors not caused by a cut\n",
		       t_rig_errors);
	if (t_kernel_resets)
		printf("crashcheck: %" PRIu64 " rounds had a controller reset by the kernel's recovery (a command outlived nvme_core.io_timeout)\n",
		       t_kernel_resets);
	printf("crashcheck: cuts %" PRIu64 ", LBAs checked %" PRIu64 ", violations %" PRIu64 "\n",
	       t_cuts, t_checked, t_violations);
	if (t_violations)
		return 1;
	if (t_rig_errors)
		return 3;
	if (!use_plp && t_live_rounds && !t_taken) {
		printf("crashcheck: LIVENESS: no cut took anything back in %" PRIu64
		       " rounds with the write cache on: the power-loss log is not alive\n",
		       t_live_rounds);
		return 4;
	}
	return 0;
}
