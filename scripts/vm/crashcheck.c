// SPDX-License-Identifier: GPL-2.0
/*
 * crashcheck: a crash-consistency checker for vflash's NVMe frontend, in
 * the style of dm-log-writes, CrashMonkey and ALICE (docs/crashcheck.md).
 *
 * Several threads issue a seeded random mix of NVMe commands through the
 * passthrough ioctls (NVME_IOCTL_IO_CMD on the namespace's block device,
 * NVME_IOCTL_ADMIN_CMD on its controller for Set Features), so that the
 * checker, not the block layer, decides every bit: Write, Write with FUA,
 * Flush, Dataset Management Deallocate, Write Zeroes with and without
 * DEAC (and with FUA), Read; on the dual frontend (frontend=nvme,cxl) also
 * CXL stores through a MAP_SHARED mapping of /dev/vflash0. Each thread
 * owns a disjoint set of LBAs (chunks of --chunk 4 KiB pages, chunk c
 * belonging to thread c % threads), so every LBA's history is sequential
 * and the oracle is exact. Each round sets the volatile write cache on or
 * off (Set Features 06h; a power cut resets features, so every round sets
 * it after the power-up), arms faults/power_cut, runs the load, cuts the
 * power (by writing faults/power_cut/cut after a random number of
 * operations, or by the rule itself at its random `after`-th command),
 * waits for the namespace to come back, reads every LBA and checks it.
 * With --faults, program and erase failures are armed in some rounds, so
 * that GC moves and retires blocks under the load.
 *
 * Every LBA written holds a self-describing record: magic, seed, LBA,
 * write id, checksum, and the rest a pattern from them, so a read tells
 * exactly which write (or zeros) the LBA holds. A write id names its round,
 * thread and operation.
 *
 * The oracle: the durability rules (NVMe base specification, as vflash
 * implements them; docs/crashcheck.md):
 *
 *   operation                                     durable
 *   --------------------------------------------  ------------------------
 *   Write, Write Zeroes without DEAC; write       once a Flush *submitted
 *     cache on; no FUA                              after the write's
 *                                                   completion* completed
 *   Write, Write Zeroes without DEAC, with FUA    at its completion
 *   any Write or Write Zeroes while the write
 *     cache is off                                at its completion
 *   Dataset Management Deallocate, Write Zeroes   at its completion (the
 *     with DEAC                                     LBAs read zeros:
 *                                                   DLFEAT)
 *   CXL store (dual)                              once the store executed
 *   anything in flight at the cut (submitted,     may or may not have taken
 *     no successful completion)                     effect, per LBA
 *
 * So after a cut an LBA may hold the value of its newest durable
 * operation (or of the baseline read after the previous cut, if none is
 * durable), or of any operation on it issued after that one. Zeros are the
 * value of "never written" and of a deallocation. Anything else (a third
 * value, a torn or corrupt record, another LBA's record) is a violation:
 * the seed, round, LBA, what it held and the allowed set with every
 * operation's history are printed and the exit status is 1. The values
 * read become the next round's baseline. A Read during a round must
 * return exactly the value of the LBA's last operation (they all
 * completed: the history is sequential).
 *
 * "Submitted after the completion" is decided by one global ticket
 * counter: a write takes a ticket when its ioctl returned, a Flush one
 * before its ioctl starts; a Flush covers the writes whose ticket is
 * smaller than its own. A write that completed while a Flush was being
 * submitted may be left uncovered (more values allowed), never the
 * opposite.
 *
 * usage: crashcheck [options]   (crashcheck -h lists them)
 * The seed is printed first; --seed S replays a run's operations and its
 * cut points (the interleaving of the threads is the scheduler's).
 * The last line: "crashcheck: cuts N, LBAs checked M, violations V".
 * Exit status: 0 no violation, 1 violations, 2 usage, 3 the rig failed
 * (no device, an I/O error without a cut, the device did not come back).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#define MAX_THREADS	32
#define READ_CHUNK	(128 * 1024)
#define VAL_ZERO	0ULL
#define VAL_CORRUPT	UINT64_MAX

#define SYSDEV		"/sys/class/vflash/vflash0"
#define FAULTS		"/sys/kernel/debug/vflash/vflash0/faults"

/* NVMe opcodes and bits */
#define OP_FLUSH	0x00
#define OP_WRITE	0x01
#define OP_READ		0x02
#define OP_WZ		0x08
#define OP_DSM		0x09
#define ADM_SET_FEAT	0x09
#define ADM_GET_FEAT	0x0a
#define FEAT_VWC	0x06
#define CDW12_FUA	(1U << 30)
#define CDW12_DEAC	(1U << 25)
#define DSM_AD		(1U << 2)

enum kind { K_WRITE, K_WZ, K_DEAC, K_DSM, K_CXL, K_FLUSH, K_READ };
static const char *const kind_name[] = {
	"write", "write-zeroes", "write-zeroes+deac", "deallocate",
	"cxl-store", "flush", "read",
};

/* Status of an operation. */
enum { S_INFLIGHT, S_OK, S_FAILED };

struct op {
	uint64_t wid;		/* value written (0: zeros) */
	uint64_t sub;		/* ticket before submission */
	uint64_t done;		/* ticket after completion, 0 if none */
	uint64_t slba;		/* first LBA (first range for DSM) */
	uint32_t nlb;		/* LBAs (all ranges for DSM) */
	uint8_t kind;
	uint8_t fua;
	uint8_t vwc_off;
	uint8_t status;
	int err;		/* ioctl: <0 errno, >0 NVMe status */
};

/* An LBA's history since its baseline: references to the owner's ops. */
struct lent {
	uint64_t base;		/* baseline value */
	uint32_t n, cap;
	uint32_t *idx;		/* indexes into the owner's op table */
};

struct worker {
	pthread_t th;
	unsigned int id;
	uint64_t rng;
	struct op *ops;
	uint32_t nops, cap;
	int fd;			/* namespace */
	unsigned char *buf, *rbuf;
	/* results of the round (the main thread watches the first two) */
	_Atomic uint64_t done_ops;
	atomic_bool failed;	/* an op failed: stopped */
	uint64_t fail_tick;
	int fail_err;
	uint8_t fail_kind;
	uint64_t read_violations;
	uint32_t *hot;		/* hot chunks of the round */
	uint32_t nhot;
};

/* options */
static uint64_t seed;
static unsigned int nr_threads = 4, cuts_wanted = 10, ops_per_round = 200;
static unsigned int chunk_pages = 8, max_seconds;
static int vwc_mode = -1;	/* -1: random per round, 0 off, 1 on */
static int cut_mode = -1;	/* -1: mix, 0 file, 1 rule */
static bool use_cxl, use_faults, tamper;
static unsigned int prog_ppm = 2000;
static unsigned int max_detail = 10;

/* device */
static char ns_name[256], ctrl_name[256];
static int ns_fd = -1, ctrl_fd = -1;
static unsigned int nsid, lbs, lpp;
static uint64_t nlba, npages, nchunks;
static unsigned char *cxl_map;
static uint64_t cxl_bytes;

/* oracle */
static struct lent *lents;
static struct worker workers[MAX_THREADS];
static _Atomic uint64_t tick = 1;
static _Atomic uint64_t max_flush;	/* largest ticket of a completed flush */
static _Atomic uint64_t ops_done;
static atomic_bool stop;
static unsigned int round_no;
static int round_vwc_off;

/* totals */
static uint64_t t_cuts, t_checked, t_violations, t_ops, t_rolled, t_rule_cuts;
static uint64_t t_inflight, t_rig_errors, t_fault_rounds;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "crashcheck: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (seed %" PRIu64 ", round %u)\n", seed, round_no);
	va_end(ap);
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

static void rule_set(const char *rule, const char *file, const char *fmt, ...)
{
	char path[256], val[64];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), FAULTS "/%s/%s", rule, file);
	rc = write_str(path, val);
	if (rc)
		die("%s=%s: %s", path, val, strerror(-rc));
}

static long long rule_get(const char *rule, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), FAULTS "/%s/%s", rule, file);
	return read_num(path);
}

static long long stat_get(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), SYSDEV "/stats/%s", name);
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

static void fill(unsigned char *b, uint64_t lba, uint64_t wid)
{
	uint64_t x = seed ^ wid * 0x9e3779b97f4a7c15ULL ^ lba * 0xc2b2ae3d27d4eb4fULL;
	uint64_t *w = (uint64_t *)b;
	unsigned int i;

	w[0] = MAGIC;
	w[1] = seed;
	w[2] = lba;
	w[3] = wid;
	for (i = 5; i < lbs / 8; i++)
		w[i] = rnd(&x);
	w[4] = csum(b);
}

/*
 * The value an LBA's bytes hold: VAL_ZERO, a write id, or VAL_CORRUPT
 * (with what is wrong in @why).
 */
static uint64_t decode(const unsigned char *b, uint64_t lba, char *why,
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
	if (w[0] == MAGIC && w[1] == seed && w[2] == lba && w[3] &&
	    w[3] != VAL_CORRUPT) {
		fill(tmp, lba, w[3]);
		if (!memcmp(tmp, b, lbs))
			return w[3];
	}
	if (why)
		snprintf(why, len,
			 "corrupt: magic %s, seed %" PRIu64 ", lba %" PRIu64
			 ", wid %#" PRIx64 ", checksum %s",
			 w[0] == MAGIC ? "ok" : "bad", w[1], w[2], w[3],
			 w[4] == csum(b) ? "ok" : "bad");
	return VAL_CORRUPT;
}

static uint64_t mkwid(unsigned int thread, uint32_t idx)
{
	return (uint64_t)round_no << 40 | (uint64_t)(thread + 1) << 32 |
	       (idx + 1);
}

static void describe(uint64_t v, char *out, size_t len)
{
	if (v == VAL_ZERO)
		snprintf(out, len, "zeros");
	else if (v == VAL_CORRUPT)
		snprintf(out, len, "corrupt");
	else
		snprintf(out, len, "wid %#" PRIx64 " (round %" PRIu64
			 " thread %" PRIu64 " op %" PRIu64 ")", v, v >> 40,
			 (uint64_t)(((v >> 32) & 0xff) - 1),
			 (uint64_t)((v & 0xffffffffULL) - 1));
}

/* ---- devices ---- */

/* vflash's live namespace other than @not: its name in ns_name */
static bool find_ns(const char *not)
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
		if (not && !strcmp(not, d->d_name))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/size", d->d_name);
		if (read_num(path) <= 0)
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/device/model",
			 d->d_name);
		if (read_str(path, s, sizeof(s)) || !strstr(s, "vflash"))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", d->d_name);
		if (access(path, F_OK))
			continue;
		snprintf(ns_name, sizeof(ns_name), "%s", d->d_name);
		found = true;
	}
	closedir(dir);
	return found;
}

/* vflash's live controller other than @not: its name in ctrl_name */
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
		snprintf(path, sizeof(path), "/sys/class/nvme/%s/model",
			 d->d_name);
		if (read_str(path, s, sizeof(s)) || !strstr(s, "vflash"))
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
static int passthru(int fd, unsigned long req, struct nvme_passthru_cmd *c)
{
	int rc = ioctl(fd, req, c);

	return rc < 0 ? -errno : rc;
}

static int nvme_rw(int fd, uint8_t opc, uint64_t slba, uint32_t nlb,
		   uint32_t flags, void *buf)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = opc;
	c.nsid = nsid;
	c.cdw10 = (uint32_t)slba;
	c.cdw11 = (uint32_t)(slba >> 32);
	c.cdw12 = (nlb - 1) | flags;
	if (buf) {
		c.addr = (uintptr_t)buf;
		c.data_len = nlb * lbs;
	}
	return passthru(fd, NVME_IOCTL_IO_CMD, &c);
}

static int nvme_flush(int fd)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_FLUSH;
	c.nsid = nsid;
	return passthru(fd, NVME_IOCTL_IO_CMD, &c);
}

struct dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};

static int nvme_dsm(int fd, struct dsm_range *r, unsigned int nr)
{
	struct nvme_passthru_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_DSM;
	c.nsid = nsid;
	c.addr = (uintptr_t)r;
	c.data_len = nr * sizeof(*r);
	c.cdw10 = nr - 1;
	c.cdw11 = DSM_AD;
	return passthru(fd, NVME_IOCTL_IO_CMD, &c);
}

static int set_vwc(bool on)
{
	struct nvme_passthru_cmd c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.opcode = ADM_SET_FEAT;
	c.cdw10 = FEAT_VWC;
	c.cdw11 = on;
	rc = passthru(ctrl_fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (rc)
		return rc;
	memset(&c, 0, sizeof(c));
	c.opcode = ADM_GET_FEAT;
	c.cdw10 = FEAT_VWC;
	rc = passthru(ctrl_fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (rc)
		return rc;
	return (c.result & 1) == on ? 0 : -EIO;
}

/*
 * Wait (up to 30 s) for vflash's namespace and controller other than
 * @old_ns/@old_ctrl (held open by the caller, so their names are not
 * reused), open them and read LBA 0 through them.
 */
static void attach(const char *old_ns, const char *old_ctrl)
{
	uint64_t t0 = now_ms();
	unsigned char *b;
	char path[300];
	int fd, cfd, rc;

	if (posix_memalign((void **)&b, PAGE, PAGE))
		die("out of memory");
	for (;;) {
		if (now_ms() - t0 > 30000)
			die("vflash's namespace did not come back within 30 s");
		if (!find_ns(old_ns) || !find_ctrl(old_ctrl)) {
			usleep(20000);
			continue;
		}
		snprintf(path, sizeof(path), "/dev/%s", ns_name);
		fd = open(path, O_RDWR);
		if (fd < 0) {
			usleep(20000);
			continue;
		}
		snprintf(path, sizeof(path), "/dev/%s", ctrl_name);
		cfd = open(path, O_RDWR);
		if (cfd < 0) {
			close(fd);
			usleep(20000);
			continue;
		}
		rc = ioctl(fd, NVME_IOCTL_ID);
		if (rc <= 0) {
			close(fd);
			close(cfd);
			usleep(20000);
			continue;
		}
		nsid = rc;
		if (ioctl(fd, BLKSSZGET, &rc) || (rc != 512 && rc != 4096))
			die("%s: logical block size %d", ns_name, rc);
		lbs = rc;
		if (nvme_rw(fd, OP_READ, 0, 1, 0, b)) {
			close(fd);
			close(cfd);
			usleep(20000);
			continue;
		}
		ns_fd = fd;
		ctrl_fd = cfd;
		break;
	}
	free(b);
}

static void detect_geometry(void)
{
	unsigned long long bytes;

	if (ioctl(ns_fd, BLKGETSIZE64, &bytes))
		die("BLKGETSIZE64: %s", strerror(errno));
	lpp = PAGE / lbs;
	nlba = bytes / lbs;
	npages = bytes / PAGE;
	nchunks = npages / chunk_pages;
	if (nchunks < nr_threads)
		die("%llu bytes: fewer chunks than threads", bytes);
	/* The owned chunks only: a tail that is not a whole chunk is left. */
	nlba = nchunks * chunk_pages * lpp;
}

static void map_cxl(void)
{
	long long size = read_num(SYSDEV "/size");
	int fd;

	if (size <= 0)
		die("cannot read " SYSDEV "/size");
	fd = open("/dev/vflash0", O_RDWR);
	if (fd < 0)
		die("/dev/vflash0: %s (--cxl needs frontend=nvme,cxl)",
		    strerror(errno));
	cxl_map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (cxl_map == MAP_FAILED)
		die("mmap /dev/vflash0: %s", strerror(errno));
	cxl_bytes = size;
	close(fd);
}

/* ---- the load ---- */

static uint32_t new_op(struct worker *w, enum kind k, uint64_t slba,
		       uint32_t nlb)
{
	struct op *o;

	if (w->nops == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 1024;
		w->ops = realloc(w->ops, w->cap * sizeof(*w->ops));
		if (!w->ops)
			die("out of memory");
	}
	o = &w->ops[w->nops];
	memset(o, 0, sizeof(*o));
	o->kind = k;
	o->slba = slba;
	o->nlb = nlb;
	o->vwc_off = round_vwc_off;
	o->wid = (k == K_WRITE || k == K_CXL) ? mkwid(w->id, w->nops) : VAL_ZERO;
	return w->nops++;
}

/* The op joins the history of its LBAs (before it is submitted). */
static void push(uint64_t slba, uint32_t nlb, uint32_t idx)
{
	uint64_t l;

	for (l = slba; l < slba + nlb; l++) {
		struct lent *e = &lents[l];

		if (e->n == e->cap) {
			e->cap = e->cap ? e->cap * 2 : 4;
			e->idx = realloc(e->idx, e->cap * sizeof(*e->idx));
			if (!e->idx)
				die("out of memory");
		}
		e->idx[e->n++] = idx;
	}
}

static unsigned int owner(uint64_t lba)
{
	return (lba / lpp / chunk_pages) % nr_threads;
}

/* A chunk of @w: one of the round's hot ones mostly, so LBAs get rewritten. */
static uint64_t pick_chunk(struct worker *w)
{
	uint64_t mine = (nchunks - w->id + nr_threads - 1) / nr_threads;

	if (w->nhot && below(&w->rng, 10) < 7)
		return w->hot[below(&w->rng, w->nhot)];
	return w->id + below(&w->rng, mine) * nr_threads;
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

static void print_history(uint64_t lba)
{
	struct lent *e = &lents[lba];
	struct worker *w = &workers[owner(lba)];
	char d[96];
	uint32_t i;

	describe(e->base, d, sizeof(d));
	printf("    baseline: %s\n", d);
	for (i = 0; i < e->n; i++) {
		struct op *o = &w->ops[e->idx[i]];

		describe(o->wid, d, sizeof(d));
		printf("    op %u: %s%s%s lbas %" PRIu64 "+%u -> %s; ticket %" PRIu64
		       ", %s", e->idx[i], kind_name[o->kind],
		       o->fua ? " fua" : "",
		       o->vwc_off && (o->kind == K_WRITE || o->kind == K_WZ) ?
		       " (vwc off)" : "",
		       o->slba, o->nlb, d, o->sub,
		       o->status == S_OK ? "completed" :
		       o->status == S_FAILED ? "failed" : "in flight");
		if (o->status == S_OK)
			printf(" at ticket %" PRIu64, o->done);
		if (o->status == S_FAILED)
			printf(" (%d)", o->err);
		printf("\n");
	}
	printf("    newest completed flush submitted at ticket %" PRIu64 "\n",
	       atomic_load(&max_flush));
}

/* The value @lba must read while nothing is in flight on it. */
static uint64_t current_value(uint64_t lba)
{
	struct lent *e = &lents[lba];

	if (!e->n)
		return e->base;
	return workers[owner(lba)].ops[e->idx[e->n - 1]].wid;
}

static void do_read(struct worker *w, uint64_t slba, uint32_t nlb, int rc)
{
	char why[160], d1[96], d2[96];
	uint32_t i;

	if (rc)
		return;
	for (i = 0; i < nlb; i++) {
		uint64_t want = current_value(slba + i);
		uint64_t got = decode(w->rbuf + (size_t)i * lbs, slba + i, why,
				      sizeof(why));

		if (got == want)
			continue;
		w->read_violations++;
		if (w->read_violations > max_detail)
			continue;
		describe(got, d1, sizeof(d1));
		describe(want, d2, sizeof(d2));
		printf("VIOLATION seed %" PRIu64 " round %u lba %" PRIu64
		       ": a read during the load returned %s%s%s, want %s (the last completed op)\n",
		       seed, round_no, slba + i, d1,
		       got == VAL_CORRUPT ? ": " : "",
		       got == VAL_CORRUPT ? why : "", d2);
	}
}

static bool durable(const struct op *o)
{
	if (o->status != S_OK)
		return false;
	switch (o->kind) {
	case K_DSM:
	case K_DEAC:
	case K_CXL:
		return true;
	case K_WRITE:
	case K_WZ:
		return o->fua || o->vwc_off || o->done < atomic_load(&max_flush);
	}
	return false;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	for (i = 0; i < ops_per_round && !atomic_load(&stop); i++) {
		uint64_t r = below(&w->rng, 100), slba = 0, l;
		uint32_t nlb = 0, idx, flags = 0, j;
		struct dsm_range rg[3];
		unsigned int nr = 0;
		enum kind k;
		struct op *o;
		int rc = 0;

		if (use_cxl && r < 12)
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
			k = K_READ;
		else
			k = K_WRITE;
		if (k == K_CXL) {
			uint64_t page = pick_chunk(w) * chunk_pages +
					below(&w->rng, chunk_pages);

			slba = page * lpp;
			nlb = lpp;
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
		if (k == K_WRITE || k == K_WZ || k == K_DEAC)
			flags = below(&w->rng, 4) == 0 ? CDW12_FUA : 0;
		idx = new_op(w, k, slba, nlb);
		o = &w->ops[idx];
		o->fua = !!flags;
		if (k == K_DSM) {
			for (j = 0; j < nr; j++)
				push(rg[j].slba, rg[j].nlb, idx);
		} else if (k != K_FLUSH && k != K_READ) {
			push(slba, nlb, idx);
		}
		if (k == K_WRITE || k == K_CXL)
			for (l = 0; l < nlb; l++)
				fill(w->buf + l * lbs, slba + l, o->wid);
		o->sub = atomic_fetch_add(&tick, 1);
		switch (k) {
		case K_WRITE:
			rc = nvme_rw(w->fd, OP_WRITE, slba, nlb, flags, w->buf);
			break;
		case K_WZ:
			rc = nvme_rw(w->fd, OP_WZ, slba, nlb, flags, NULL);
			break;
		case K_DEAC:
			rc = nvme_rw(w->fd, OP_WZ, slba, nlb,
				     flags | CDW12_DEAC, NULL);
			break;
		case K_DSM:
			rc = nvme_dsm(w->fd, rg, nr);
			break;
		case K_FLUSH:
			rc = nvme_flush(w->fd);
			break;
		case K_READ:
			rc = nvme_rw(w->fd, OP_READ, slba, nlb, 0, w->rbuf);
			break;
		case K_CXL:
			memcpy(cxl_map + slba / lpp * PAGE, w->buf, PAGE);
			break;
		}
		if (rc) {
			o->status = S_FAILED;
			o->err = rc;
			w->failed = true;
			w->fail_err = rc;
			w->fail_kind = k;
			w->fail_tick = atomic_fetch_add(&tick, 1);
			break;
		}
		o->done = atomic_fetch_add(&tick, 1);
		o->status = S_OK;
		if (k == K_FLUSH) {
			uint64_t m = atomic_load(&max_flush);

			while (m < o->sub &&
			       !atomic_compare_exchange_weak(&max_flush, &m,
							     o->sub))
				;
		}
		if (k == K_READ)
			do_read(w, slba, nlb, rc);
		w->done_ops++;
		atomic_fetch_add(&ops_done, 1);
	}
	return NULL;
}

/* ---- the check ---- */

/* Is @got allowed for @lba? Prints the violation if not. */
static bool check_lba(uint64_t lba, uint64_t got, const char *why,
		      uint64_t *rolled, unsigned int *printed)
{
	struct lent *e = &lents[lba];
	struct worker *w = &workers[owner(lba)];
	uint64_t allowed[64];
	unsigned int na = 0, k;
	char d[96];
	int i;

	for (i = (int)e->n - 1; i >= 0; i--) {
		struct op *o = &w->ops[e->idx[i]];

		for (k = 0; k < na && allowed[k] != o->wid; k++)
			;
		if (k == na && na < 64)
			allowed[na++] = o->wid;
		if (durable(o))
			break;
	}
	for (k = 0; k < na && allowed[k] != e->base; k++)
		;
	if (i < 0 && k == na && na < 64)
		allowed[na++] = e->base;
	if (got != current_value(lba))
		(*rolled)++;
	for (k = 0; k < na; k++)
		if (allowed[k] == got && got != VAL_CORRUPT)
			return true;
	if (++*printed > max_detail)
		return false;
	describe(got, d, sizeof(d));
	printf("VIOLATION seed %" PRIu64 " round %u lba %" PRIu64
	       " (4 KiB page %" PRIu64 ", thread %u): holds %s%s%s\n",
	       seed, round_no, lba, lba / lpp, owner(lba), d,
	       got == VAL_CORRUPT ? ": " : "", got == VAL_CORRUPT ? why : "");
	/* What kind of violation: a durable op taken back, or a third value. */
	if (i >= 0) {
		struct op *o = &w->ops[e->idx[i]];
		bool older = got == e->base;
		int j;

		for (j = 0; j < i && !older; j++)
			older = w->ops[e->idx[j]].wid == got;
		printf("  => %s: the completed %s%s (op %u, durable: %s)\n",
		       older ? "taken back" : "a value never written here since the baseline",
		       kind_name[o->kind], o->fua ? " with FUA" : "", e->idx[i],
		       o->kind == K_DSM || o->kind == K_DEAC ? "deallocated at completion" :
		       o->kind == K_CXL ? "a CXL store" :
		       o->fua ? "FUA" : o->vwc_off ? "write cache off" :
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
	print_history(lba);
	return false;
}

/*
 * --tamper: the checker's own test. After the cut, undo one durable
 * operation behind the device's back (write, with FUA while the rule is
 * disarmed, the value its LBA held before it), as a device that lost it
 * would; the check must report that LBA. Without such an LBA, write a
 * third value into one without history.
 */
static void do_tamper(void)
{
	unsigned char *b;
	uint64_t lba, prev = 0, cur;
	int rc;

	if (posix_memalign((void **)&b, PAGE, PAGE))
		die("out of memory");
	for (lba = 0; lba < nlba; lba++) {
		struct lent *e = &lents[lba];
		struct worker *w = &workers[owner(lba)];

		if (!e->n || !durable(&w->ops[e->idx[e->n - 1]]))
			continue;
		cur = w->ops[e->idx[e->n - 1]].wid;
		prev = e->n > 1 ? w->ops[e->idx[e->n - 2]].wid : e->base;
		if (prev != cur)
			break;
	}
	if (lba == nlba) {
		for (lba = 0; lba < nlba && lents[lba].n; lba++)
			;
		if (lba == nlba)
			die("--tamper: no LBA to tamper with");
		prev = mkwid(owner(lba), 0xfffffff0);
		printf("crashcheck: tamper: LBA %" PRIu64 " gets a third value, wid %#" PRIx64 "\n",
		       lba, prev);
	} else {
		printf("crashcheck: tamper: LBA %" PRIu64 " put back to the value before its newest durable op (%#" PRIx64 ")\n",
		       lba, prev);
	}
	if (prev == VAL_ZERO) {
		rc = nvme_rw(ns_fd, OP_WZ, lba, 1, CDW12_FUA, NULL);
	} else {
		fill(b, lba, prev);
		rc = nvme_rw(ns_fd, OP_WRITE, lba, 1, CDW12_FUA, b);
	}
	if (rc)
		die("--tamper: writing LBA %" PRIu64 ": %d", lba, rc);
	free(b);
}

/* Read every LBA; check it; it becomes the baseline. Return: violations. */
static uint64_t check_all(uint64_t *rolled)
{
	uint32_t per = READ_CHUNK / lbs, n, i;
	unsigned char *b;
	unsigned int printed = 0;
	uint64_t lba, bad = 0, *badlba = NULL, nbad = 0;
	char why[160];
	int rc;

	if (posix_memalign((void **)&b, PAGE, READ_CHUNK))
		die("out of memory");
	for (lba = 0; lba < nlba; lba += n) {
		n = nlba - lba < per ? nlba - lba : per;
		rc = nvme_rw(ns_fd, OP_READ, lba, n, 0, b);
		if (rc)
			die("reading LBAs %" PRIu64 "+%u after the cut: %d", lba,
			    n, rc);
		for (i = 0; i < n; i++) {
			uint64_t got = decode(b + (size_t)i * lbs, lba + i, why,
					      sizeof(why));

			if (!check_lba(lba + i, got, why, rolled, &printed)) {
				bad++;
				badlba = realloc(badlba, (nbad + 1) * sizeof(*badlba));
				if (!badlba)
					die("out of memory");
				badlba[nbad++] = lba + i;
			}
			lents[lba + i].base = got;
			lents[lba + i].n = 0;
		}
	}
	if (printed > max_detail)
		printf("  (%u more violations in this round not shown)\n",
		       printed - max_detail);
	/*
	 * A violating LBA is zeroed for good (the rule is disarmed: nothing
	 * is logged, so it is durable), so that the next rounds start from
	 * a known value.
	 */
	for (i = 0; i < nbad; i++) {
		rc = nvme_rw(ns_fd, OP_WZ, badlba[i], 1, CDW12_FUA, NULL);
		if (rc)
			die("zeroing LBA %" PRIu64 ": %d", badlba[i], rc);
		lents[badlba[i]].base = VAL_ZERO;
	}
	free(badlba);
	free(b);
	return bad;
}

/* ---- rounds ---- */

/* An error the device itself returned (not the host's: abort, no path). */
static bool device_error(int err)
{
	return err > 0 && (err & 0x7ff) < 0x300;
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

static void run_round(uint64_t *rng)
{
	uint64_t total = (uint64_t)nr_threads * ops_per_round;
	uint64_t target = 0, after = 0, cut_tick = 0, rolled = 0, bad, inflight = 0;
	uint64_t t0 = now_ms(), rops = 0, read_bad = 0, t_cut, t_back, t_chk;
	long long cuts0 = stat_get("fault_power_cuts");
	bool vwc_on, by_rule, fell_back = false, rig_err = false;
	char old_ns[256], old_ctrl[256];
	unsigned int i, j;
	int rc;

	round_no++;
	/*
	 * Mixed, a run's first two rounds are the write cache on with a cut
	 * by hand, then off with the rule's cut; then on 2/3 of the rounds,
	 * the rule in 1/3, at random.
	 */
	vwc_on = vwc_mode < 0 ? below(rng, 3) != 0 : vwc_mode;
	by_rule = cut_mode < 0 ? below(rng, 3) == 0 : cut_mode;
	if (round_no <= 2 && vwc_mode < 0)
		vwc_on = round_no == 1;
	if (round_no <= 2 && cut_mode < 0)
		by_rule = round_no == 2;
	round_vwc_off = !vwc_on;
	rc = set_vwc(vwc_on);
	if (rc)
		die("Set Features VWC=%d on %s: %d", vwc_on, ctrl_name, rc);
	if (use_faults)
		arm_faults(rng);
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
		target = below(rng, total);
		rule_set("power_cut", "probability", "0");
		rule_set("power_cut", "after", "0");
	}
	rule_set("power_cut", "armed", "1");

	atomic_store(&max_flush, 0);
	atomic_store(&ops_done, 0);
	atomic_store(&stop, false);
	for (i = 0; i < nr_threads; i++) {
		struct worker *w = &workers[i];
		uint64_t mine = (nchunks - i + nr_threads - 1) / nr_threads;

		w->id = i;
		w->rng = seed ^ (uint64_t)round_no * 0x100000001b3ULL ^
			 (uint64_t)(i + 1) << 56;
		w->nops = 0;
		w->done_ops = 0;
		w->failed = false;
		w->read_violations = 0;
		w->fd = ns_fd;
		w->nhot = 1 + below(&w->rng, 8);
		for (j = 0; j < w->nhot; j++)
			w->hot[j] = i + below(&w->rng, mine) * nr_threads;
		if (pthread_create(&w->th, NULL, worker_main, w))
			die("pthread_create");
	}
	if (!by_rule) {
		unsigned int delay = below(rng, 2000);

		for (;;) {
			bool all_stopped = true;

			for (i = 0; i < nr_threads; i++)
				if (!workers[i].failed &&
				    workers[i].done_ops < ops_per_round)
					all_stopped = false;
			if (all_stopped || atomic_load(&ops_done) >= target)
				break;
			usleep(100);
		}
		usleep(delay);
		cut_tick = atomic_fetch_add(&tick, 1);
		rc = write_str(FAULTS "/power_cut/cut", "1");
		if (rc)
			die("cutting the power: %s", strerror(-rc));
		atomic_store(&stop, true);
	}
	for (i = 0; i < nr_threads; i++)
		pthread_join(workers[i].th, NULL);
	t_cut = now_ms();
	if (by_rule && stat_get("fault_power_cuts") == cuts0) {
		/* The rule's command never came: cut by hand. */
		fell_back = true;
		cut_tick = atomic_fetch_add(&tick, 1);
		rc = write_str(FAULTS "/power_cut/cut", "1");
		if (rc)
			die("cutting the power: %s", strerror(-rc));
	}
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
		 * A failure before the cut, or one the device returned (a
		 * powered-off device returns nothing), is not the cut's.
		 */
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
	/* Hold the old nodes while looking, so their names are not reused. */
	snprintf(old_ns, sizeof(old_ns), "%s", ns_name);
	snprintf(old_ctrl, sizeof(old_ctrl), "%s", ctrl_name);
	{
		int ofd = ns_fd, ocfd = ctrl_fd;

		attach(old_ns, old_ctrl);
		close(ofd);
		close(ocfd);
	}
	t_back = now_ms();
	if (tamper && t_cuts + 1 == cuts_wanted)
		do_tamper();
	bad = check_all(&rolled);
	t_chk = now_ms();
	t_cuts++;
	t_rule_cuts += by_rule && !fell_back;
	t_checked += nlba;
	t_violations += bad + read_bad;
	t_ops += rops;
	t_rolled += rolled;
	t_inflight += inflight;
	printf("round %u: vwc %s, cut %s%s %" PRIu64 ", %" PRIu64
	       " ops, %" PRIu64 " not completed, %" PRIu64
	       " LBAs not at their last value, %" PRIu64 " violations, %s -> %s, %" PRIu64 " ms (load+cut %" PRIu64 ", back %" PRIu64 ", check %" PRIu64 ")\n",
	       round_no, vwc_on ? "on" : "off",
	       by_rule && !fell_back ? "by the rule after" : "by hand after",
	       by_rule && !fell_back ? "" : " ops",
	       by_rule && !fell_back ? after : (uint64_t)atomic_load(&ops_done),
	       rops, inflight, rolled, bad + read_bad, old_ns, ns_name,
	       now_ms() - t0, t_cut - t0, t_back - t_cut, t_chk - t_back);
	fflush(stdout);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: crashcheck [--seed S] [--cuts N] [--seconds S] [--threads T]\n"
		"	[--ops N] [--chunk PAGES] [--vwc on|off|mix] [--cut file|rule|mix]\n"
		"	[--cxl] [--faults] [--program-ppm PPM] [--detail N] [--tamper]\n"
		"  --cuts N       rounds, each ending in a power cut (default 10)\n"
		"  --seconds S    start no round after S seconds (default: no limit)\n"
		"  --threads T    load threads, each owning its LBAs (default 4)\n"
		"  --ops N        operations per thread per round at most (default 200)\n"
		"  --chunk PAGES  4 KiB pages per owned chunk (default 8)\n"
		"  --vwc MODE     volatile write cache each round (default mix: on 2/3)\n"
		"  --cut MODE     by writing power_cut/cut, by the rule's `after`,\n"
		"                 or mix (default: the rule a third of the rounds)\n"
		"  --cxl          CXL stores into /dev/vflash0 (frontend=nvme,cxl)\n"
		"  --faults       arm program_fail (PPM, once) and erase_fail (once) in\n"
		"                 some rounds while spare blocks last\n"
		"  --detail N     violations printed in full per round (default 10)\n"
		"  --tamper       the checker's own test: after the last cut, put one\n"
		"                 LBA back to its value before a durable op; the check\n"
		"                 must report it (exit status 1)\n");
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

int main(int argc, char **argv)
{
	uint64_t rng, t0, i;
	bool seeded = false;
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
		if (!strcmp(o, "--tamper")) {
			tamper = true;
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
			nr_threads = atoi(v);
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
		} else if (!strcmp(o, "--detail")) {
			max_detail = atoi(v);
		} else {
			usage();
		}
	}
	if (!nr_threads || nr_threads > MAX_THREADS || !ops_per_round ||
	    !chunk_pages || chunk_pages > 64 || !cuts_wanted ||
	    prog_ppm > 1000000)
		usage();
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
	attach(NULL, NULL);
	detect_geometry();
	if (use_cxl)
		map_cxl();
	printf("crashcheck: %s (%s), %" PRIu64 " LBAs of %u bytes, %u threads, %u ops a round, chunks of %u pages%s%s\n",
	       ns_name, ctrl_name, nlba, lbs, nr_threads, ops_per_round,
	       chunk_pages, use_cxl ? ", CXL stores" : "",
	       use_faults ? ", program/erase faults" : "");
	lents = calloc(nlba, sizeof(*lents));
	if (!lents)
		die("out of memory");
	for (a = 0; a < (int)nr_threads; a++) {
		struct worker *w = &workers[a];

		if (posix_memalign((void **)&w->buf, PAGE, chunk_pages * PAGE) ||
		    posix_memalign((void **)&w->rbuf, PAGE, chunk_pages * PAGE) ||
		    !(w->hot = calloc(8, sizeof(*w->hot))))
			die("out of memory");
	}
	/* The baseline: what the device holds now. */
	{
		uint64_t rolled = 0, bad;

		round_no = 0;
		bad = 0;
		for (i = 0; i < nlba; i++)
			lents[i].base = VAL_ZERO;
		/* Whatever is there counts: read it as the first baseline. */
		{
			uint32_t per = READ_CHUNK / lbs, n, k;
			unsigned char *b;

			if (posix_memalign((void **)&b, PAGE, READ_CHUNK))
				die("out of memory");
			for (i = 0; i < nlba; i += n) {
				n = nlba - i < per ? nlba - i : per;
				if (nvme_rw(ns_fd, OP_READ, i, n, 0, b))
					die("reading the baseline");
				for (k = 0; k < n; k++) {
					uint64_t v = decode(b + (size_t)k * lbs,
							    i + k, NULL, 0);

					if (v == VAL_CORRUPT) {
						/* not ours: make it zeros, durably */
						if (nvme_rw(ns_fd, OP_WZ, i + k, 1,
							    CDW12_FUA, NULL))
							die("zeroing the baseline");
						v = VAL_ZERO;
					}
					lents[i + k].base = v;
				}
			}
			free(b);
		}
		(void)rolled;
		(void)bad;
	}
	t0 = now_ms();
	while (t_cuts < cuts_wanted &&
	       (!max_seconds || now_ms() - t0 < max_seconds * 1000ULL))
		run_round(&rng);
	printf("crashcheck: %" PRIu64 " ops, %" PRIu64 " not completed at a cut, %" PRIu64
	       " LBAs found not at their last value, %" PRIu64 " cuts by the rule, %" PRIu64
	       " rounds with flash faults armed, %" PRIu64 " ms, %" PRIu64 " ms per cut\n",
	       t_ops, t_inflight, t_rolled, t_rule_cuts, t_fault_rounds,
	       now_ms() - t0, t_cuts ? (now_ms() - t0) / t_cuts : 0);
	if (t_rig_errors)
		printf("crashcheck: %" PRIu64 " rounds had I/O errors not caused by a cut\n",
		       t_rig_errors);
	printf("crashcheck: cuts %" PRIu64 ", LBAs checked %" PRIu64 ", violations %" PRIu64 "\n",
	       t_cuts, t_checked, t_violations);
	if (t_violations)
		return 1;
	return t_rig_errors ? 3 : 0;
}
