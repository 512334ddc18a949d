// SPDX-License-Identifier: GPL-2.0
/*
 * nvme_fuzz: random NVMe admin and I/O commands through the kernel's
 * passthrough ioctls, for the VM suite scripts/vm/suites/nvmefuzz.sh.
 *
 *   fuzz CTRL NS [-s SEED] [-n COUNT] [-t SECONDS] [-q QUEUES] [-v]
 *	CTRL is the controller's char device (/dev/nvme0), NS the
 *	namespace's (/dev/ng0n1 or /dev/nvme0n1). Sends COUNT commands
 *	(default 5000), or as many as fit in SECONDS, chosen by a PRNG
 *	seeded with SEED (default: from the clock; always printed, so a run
 *	can be repeated with -s). QUEUES: the I/O queues the driver owns
 *	(default 64, all of them); Delete SQ/CQ only ever name others.
 *	Every command must come back with a status: a command the kernel
 *	timed out (EINTR, Host Aborted) or an oracle check below fails the
 *	run (exit 1). Ends with counts per status.
 *   raw DEV admin|io OPCODE NSID CDW10 CDW11 CDW12 LEN [OFFSET]
 *	One command with a buffer of LEN bytes at OFFSET into a
 *	page-aligned allocation (default 0); prints "status=0x.. result=0x.."
 *	and exits 0 if the command got a status, 1 if the ioctl failed.
 *
 * What is sent: any admin opcode, with random NSID, CDW2-3, CDW10-15 and
 * flags (FUSE, PSDT), weighted towards Identify (every CNS), Get Log Page
 * (offsets and lengths at, across and past the end of each log), Get and
 * Set Features (every FID and select), Create and Delete queues, Abort
 * and Keep Alive; any I/O opcode, weighted towards Read, Write, Compare,
 * Write Zeroes (with and without deallocate), Flush and Dataset
 * Management (up to 256 ranges, some past the end), with LBA ranges
 * inside, at and past the end of the namespace and where SLBA + NLB wraps
 * 2^64, and buffers shorter or longer than the command's own length
 * (also none: PRP1 = PRP2 = 0). The zoned commands too (a conventional
 * namespace refuses them): Zone Management Send (every action, Select
 * All), Receive (report sizes, filters, Partial Report, extended) and
 * Zone Append; Identify and Get Log Page with CSI 02h, the Changed Zone
 * List. And the FDP ones: its logs (20h-23h, LSI 1 mostly), features 1Dh
 * and 1Eh, I/O Management Receive and Send (RUH Status, RUH Update with
 * valid and invalid identifiers) and placed writes (DTYPE 2, DSPEC). And
 * Namespace Management (create: small sizes, NCAP above and below NSZE,
 * other LBA formats, protection, sharing, the NVM, Zoned and unknown
 * command sets; delete) and Attachment (attach and detach, with valid and
 * invalid Controller Lists), Identify of every namespace list and the
 * Changed Namespace List: where the device has room, namespaces come and
 * go (and with them the kernel's block devices) during the run.
 *
 * Left out, because they would legitimately take the controller away from
 * the driver or never complete:
 *  - Delete I/O SQ/CQ of a queue the driver owns (-q);
 *  - Create I/O SQ/CQ with a buffer: the kernel maps a passthrough buffer
 *    only for the ioctl, so a queue created on it would outlive its
 *    memory (they are sent without one: PRP1 = 0, which is refused);
 *  - Asynchronous Event Request: held until an event (the driver keeps
 *    its own outstanding);
 *  - metadata buffers (the namespace has no metadata);
 *  - a Namespace Management delete of NSID 1 or of every namespace
 *    (FFFFFFFFh), and a Namespace Attachment of NSID 1: namespace 1 is
 *    the one the run sends its I/O to, and checks afterwards.
 * Format NVM, Sanitize and the rest are sent: the controller does not
 * support them and must say so.
 *
 * Oracles (besides "a status comes back"): with NSID 1, no flags and a
 * big enough buffer, a Read, Write or Compare past the end is LBA Out of
 * Range, and one inside the namespace is not; an Identify Controller or a
 * Read without a buffer is never Success (its data would go to page 0).
 *
 * A command whose own length is longer than its buffer makes the
 * controller follow PRP entries the kernel never wrote: PRP2 = 0 for a
 * one-page buffer, the buffer's own second page read as a list for a
 * two-page one, and stale entries of the driver's PRP list page beyond
 * what it filled for a longer one. Without an IOMMU a real device would
 * then read or write whatever those say; so would vflash (and KASAN would
 * rightly report reads of freed pages). So such a buffer is kept within
 * two pages and zeroed: every entry the controller can reach is 0, which
 * it refuses (Data Transfer Error). Longer buffers always cover the
 * command, but one longer buffer is as harmful: if the command's own
 * transfer crosses exactly one page boundary, PRP2 is for the controller
 * a data page, while the kernel, mapping a buffer that crosses two or
 * more, made it a PRP list pointer into its DMA pool; the controller then
 * writes the command's data over the pool (a real device would too), and
 * later commands' PRP lists go wrong (an Identify with CNS 1Ch at a
 * dword offset into a 8 KiB buffer broke the fio verify after a fuzz
 * run). Such a buffer is cut to the command's own length.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PAGE		4096UL
#define BUF_BYTES	(1UL << 20)	/* 2x MDTS */
#define MAX_XFER	(512UL << 10)	/* the kernel's limit, MDTS */
#define TIMEOUT_MS	20000

/* Status field values (with DNR), as the ioctl returns them. */
#define SC_MASK		0x7ff
#define SC_DNR		0x4000
#define SC_LBA_RANGE	0x080
#define SC_HOST_ABORTED	0x371

static uint64_t rng;

/* xorshift64*: small, fast, reproducible from the seed. */
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int pct)
{
	return below(100) < pct;
}

static void die(const char *what)
{
	fprintf(stderr, "nvme_fuzz: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint8_t *buf;
static uint64_t nsze;
static uint32_t lba_bytes = 4096;
static unsigned int driver_queues = 64;
static int verbose;

static int submit(int fd, int admin, struct nvme_passthru_cmd *c)
{
	return ioctl(fd, admin ? NVME_IOCTL_ADMIN_CMD : NVME_IOCTL_IO_CMD, c);
}

/* Namespace 1 is zoned: Zone Append is an LBA-range command there. */
static int zoned;

/* Identify Namespace 1: its size, block size and command set. */
static void identify_ns(int ctrl)
{
	struct nvme_passthru_cmd c = {
		.opcode = 0x06, .nsid = 1, .addr = (uintptr_t)buf,
		.data_len = 4096, .cdw10 = 0, .timeout_ms = TIMEOUT_MS,
	};
	uint8_t flbas;

	memset(buf, 0, 4096);
	if (submit(ctrl, 1, &c) != 0)
		die("identify namespace");
	memcpy(&nsze, buf, 8);
	flbas = buf[26] & 0xf;
	lba_bytes = 1U << buf[128 + 4 * flbas + 2];
	/* CNS 05h with CSI 02h answers only for a zoned namespace. */
	c.cdw10 = 0x05;
	c.cdw11 = 0x02 << 24;
	zoned = submit(ctrl, 1, &c) == 0;
}

/* A random value, with the edges that matter more often. */
static uint32_t any32(void)
{
	switch (below(6)) {
	case 0:
		return 0;
	case 1:
		return 0xffffffff;
	case 2:
		return below(16);
	default:
		return rnd();
	}
}

static uint32_t any_nsid(void)
{
	static const uint32_t ids[] = { 0, 1, 1, 1, 2, 0xfffffffe, 0xffffffff };

	return chance(90) ? ids[below(7)] : (uint32_t)rnd();
}

/* A starting LBA: inside, near and at the end, beyond, near 2^64. */
static uint64_t any_slba(void)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return nsze - 1 - below(4);
	case 2:
		return nsze + below(4);
	case 3:
		return UINT64_MAX - below(4);
	case 4:
		return rnd();
	default:
		return below(nsze);
	}
}

/* A data length: none, the command's own, shorter, longer, random. */
static uint32_t any_len(uint32_t own)
{
	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return own / 2 & ~3U;
	case 2:
		return own + PAGE;
	case 3:
		return 4 * (1 + below(MAX_XFER / 4));
	default:
		return own;
	}
}

/*
 * An NSID for Namespace Management and Attachment: never 1 (the run's
 * namespace), never every namespace for a delete; the others a controller
 * of 32 namespaces may have, and invalid ones.
 */
static uint32_t ns_cmd_nsid(int may_be_all)
{
	uint32_t id;

	switch (below(8)) {
	case 0:
		return 0;
	case 1:
		return may_be_all ? 0xffffffff : 0xfffffffe;
	case 2:
		id = rnd();
		return id > 1 && id != 0xffffffff ? id : 2;
	default:
		return 2 + below(34);
	}
}

/*
 * Namespace Management (0Dh) and Attachment (15h): the NSID, the
 * operation and, in @buf, the create's Identify Namespace fields or the
 * Controller List. Return: 1 (the buffer is prepared).
 */
static int ns_cmd(struct nvme_passthru_cmd *c)
{
	uint64_t nsze;
	uint16_t n;

	memset(buf, 0, 2 * PAGE);
	c->cdw10 = chance(90) ? below(2) : any32();
	c->data_len = chance(90) ? 4096 : any_len(4096);
	if (c->opcode == 0x15) {
		c->nsid = ns_cmd_nsid(1);
		n = chance(85) ? 1 : below(4);
		memcpy(buf, &n, 2);
		for (; n; n--) {
			uint16_t id = chance(85) ? 1 : below(4);

			memcpy(buf + 2 * n, &id, 2);
		}
		return 1;
	}
	c->nsid = (c->cdw10 & 0xf) == 1 ? ns_cmd_nsid(0) : 0;
	/* CSI (CDW11 31:24): NVM mostly, Zoned, others. */
	c->cdw11 = (chance(60) ? 0 : chance(75) ? 2 : below(256)) << 24;
	/* Sizes of a few MiB, whole 16 MiB zones, none, too many. */
	switch (below(6)) {
	case 0:
		nsze = 4096 * (1 + below(2));
		break;
	case 1:
		nsze = chance(50) ? 0 : rnd();
		break;
	default:
		nsze = 1 + below(2048);
		break;
	}
	memcpy(buf, &nsze, 8);
	if (chance(10))
		nsze += chance(50) ? 1 : -1;
	memcpy(buf + 8, &nsze, 8);
	buf[26] = chance(90) ? 0 : rnd();	/* FLBAS */
	buf[29] = chance(90) ? 0 : rnd();	/* DPS */
	buf[30] = chance(90) ? 0 : rnd();	/* NMIC */
	return 1;
}

/* Return: 1 if the command's buffer is prepared (not to be randomized). */
static int admin_cmd(struct nvme_passthru_cmd *c)
{
	static const uint8_t logs[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x0c, 0x7f, 0xbf, 0x20, 0x21,
		0x22, 0x23,
	};
	static const uint32_t offs[] = { 0, 4, 60, 64, 68, 508, 512, 516, 4096 };
	static const uint8_t common[] = {
		0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x06, 0x08, 0x09, 0x0a,
		0x0a, 0x18, 0x02, 0x09, 0x06, 0x80, 0x84, 0x0d, 0x15, 0x7c,
		0x0d, 0x15,
	};
	uint32_t numd, qid;

	c->opcode = chance(85) ? common[below(sizeof(common))] : rnd();
	c->nsid = any_nsid();
	if (chance(10))
		c->flags = rnd();
	if (chance(10)) {
		c->cdw2 = rnd();
		c->cdw3 = rnd();
	}
	c->cdw10 = any32();
	c->cdw11 = any32();
	c->cdw12 = any32();
	c->cdw13 = chance(80) ? 0 : any32();
	c->cdw14 = chance(80) ? 0 : any32();
	c->cdw15 = chance(80) ? 0 : any32();
	c->data_len = any_len(4096);

	switch (c->opcode) {
	case 0x06:	/* Identify: every CNS, CSI 0 mostly */
		c->cdw10 = chance(90) ? below(0x20) : rnd();
		/* CNTID of the controller lists (CNS 12h, 13h). */
		if (chance(30))
			c->cdw10 = (c->cdw10 & 0xffff) | below(3) << 16;
		c->cdw11 = chance(80) ? 0 : (uint32_t)below(4) << 24;
		break;
	case 0x02:	/* Get Log Page */
		numd = chance(70) ? (128U << below(4)) / 4 - 1 : below(0x40000);
		c->cdw10 = logs[below(sizeof(logs))] | (numd & 0xffff) << 16;
		c->cdw11 = numd >> 16;
		c->cdw12 = chance(80) ? offs[below(9)] : rnd();
		c->cdw13 = chance(90) ? 0 : any32();
		/* CSI (CDW14 31:24): NVM mostly, Zoned sometimes. */
		if (chance(20))
			c->cdw14 = (uint32_t)below(4) << 24;
		/* LSI (CDW11 31:16): endurance group 1 mostly (FDP logs). */
		if (chance(50))
			c->cdw11 = (c->cdw11 & 0xffff) |
				   (chance(80) ? 1U : below(4)) << 16;
		c->data_len = any_len(4 * (numd + 1) > MAX_XFER ?
				      MAX_XFER : 4 * (numd + 1));
		break;
	case 0x09:	/* Set Features */
	case 0x0a:	/* Get Features */
		c->cdw10 = chance(90) ? below(0x20) | below(8) << 8 : rnd();
		/* FDP (1Dh) and FDP Events (1Eh): endurance group 1. */
		if ((c->cdw10 & 0xff) >= 0x1d && chance(70))
			c->cdw11 = (c->cdw11 & ~0xffffU) | 1;
		if (c->opcode == 0x09 && chance(90))
			c->cdw10 &= 0x7fffffff;
		c->cdw11 = chance(50) ? below(0x10000) : any32();
		c->data_len = chance(80) ? 0 : any_len(4096);
		break;
	case 0x00:	/* Delete I/O SQ */
	case 0x04:	/* Delete I/O CQ */
		qid = chance(50) ? 0 : driver_queues + 1 + below(0x10000);
		c->cdw10 = qid & 0xffff ? qid : 0;
		if (c->cdw10 && c->cdw10 <= driver_queues)
			c->cdw10 = 0;
		c->data_len = 0;
		break;
	case 0x01:	/* Create I/O SQ */
	case 0x05:	/* Create I/O CQ */
		c->data_len = 0;
		break;
	case 0x0c:	/* Asynchronous Event Request: held forever */
		c->opcode = 0x18;
		break;
	case 0x0d:	/* Namespace Management */
	case 0x15:	/* Namespace Attachment */
		return ns_cmd(c);
	}
	return 0;
}

static void io_cmd(struct nvme_passthru_cmd *c, uint8_t *ranges_done)
{
	static const uint8_t common[] = {
		0x00, 0x01, 0x01, 0x02, 0x02, 0x02, 0x05, 0x08, 0x09, 0x09,
		0x04, 0x0c, 0x0d, 0x11, 0x19, 0x7f, 0x79, 0x79, 0x7a, 0x7d,
		0x7d, 0x12, 0x1d,
	};
	uint64_t slba = any_slba();
	uint32_t nlb, nr, i;

	c->opcode = chance(90) ? common[below(sizeof(common))] : rnd();
	/* The kernel refuses (EINVAL) an NSID not the namespace's own. */
	c->nsid = chance(98) ? 1 : any_nsid();
	if (chance(5))
		c->flags = rnd();
	nlb = chance(80) ? below(MAX_XFER / lba_bytes) : below(0x10000);
	c->cdw10 = slba;
	c->cdw11 = slba >> 32;
	c->cdw12 = nlb | (chance(20) ? (uint32_t)rnd() & 0xffff0000 : 0);
	c->cdw13 = chance(80) ? 0 : any32();
	c->cdw14 = chance(90) ? 0 : any32();
	c->cdw15 = chance(90) ? 0 : any32();
	c->data_len = any_len((nlb + 1) * lba_bytes > MAX_XFER ? MAX_XFER :
			      (nlb + 1) * lba_bytes);
	if (c->opcode == 0x09) {	/* Dataset Management: a range list */
		nr = chance(50) ? below(4) : below(256);
		c->cdw10 = nr;
		c->cdw11 = chance(80) ? 4 : any32();	/* AD */
		c->data_len = any_len(16 * (nr + 1));
		for (i = 0; i <= nr && 16 * (i + 1) <= BUF_BYTES; i++) {
			uint64_t s = any_slba();
			uint32_t n = chance(10) ? rnd() : below(1024);

			memcpy(buf + 16 * i + 4, &n, 4);
			memcpy(buf + 16 * i + 8, &s, 8);
		}
		*ranges_done = 1;
	}
	/* Placed writes: DTYPE 2 (CDW12 23:20), the handle in DSPEC. */
	if ((c->opcode == 0x01 || c->opcode == 0x08) && chance(20)) {
		c->cdw12 = (c->cdw12 & ~(0xfU << 20)) |
			   (chance(80) ? 2U : below(16)) << 20;
		c->cdw13 = (c->cdw13 & 0xffff) |
			   (chance(80) ? below(20) : rnd()) << 16;
	}
	if (c->opcode == 0x12 || c->opcode == 0x1d) {	/* I/O Management */
		/* MO (CDW10 7:0): RUH Status / Update mostly. */
		c->cdw10 = (chance(85) ? 1 : below(256)) |
			   (chance(70) ? below(8) : rnd()) << 16;
		c->data_len = any_len(4096);
		for (i = 0; i < 16 && 2 * (i + 1) <= BUF_BYTES; i++) {
			uint16_t pid = chance(80) ? below(20) : rnd();

			memcpy(buf + 2 * i, &pid, 2);
		}
		*ranges_done = 1;
	}
	if (c->opcode == 0x79) {	/* Zone Management Send */
		/* ZSA: the actions mostly, Select All sometimes. */
		c->cdw13 = (chance(85) ? 1 + below(5) : below(0x20)) |
			   (chance(15) ? 1U << 8 : 0);
		c->data_len = chance(90) ? 0 : any_len(4096);
	}
	if (c->opcode == 0x7a) {	/* Zone Management Receive */
		nr = chance(70) ? (64U << below(8)) / 4 - 1 : below(0x40000);
		c->cdw12 = nr;
		/* ZRA 0 mostly, a filter, Partial Report sometimes. */
		c->cdw13 = (chance(90) ? 0 : below(4)) |
			   (chance(60) ? 0 : below(10)) << 8 |
			   (chance(50) ? 1U << 16 : 0);
		c->data_len = any_len(4ULL * (nr + 1) > MAX_XFER ? MAX_XFER :
				      4 * (nr + 1));
	}
}

/* The bytes vflash would transfer for this command (0: none). */
static uint64_t own_len(int admin, const struct nvme_passthru_cmd *c)
{
	uint32_t numd = c->cdw10 >> 16 | (c->cdw11 & 0xffff) << 16;

	if (admin) {
		if (c->opcode == 0x06 || c->opcode == 0x0d || c->opcode == 0x15)
			return 4096;
		if (c->opcode == 0x02)
			return 4 * ((uint64_t)numd + 1);
		return 0;
	}
	switch (c->opcode) {
	case 0x01:
	case 0x02:
	case 0x05:
	case 0x7d:
		return ((c->cdw12 & 0xffff) + 1ULL) * lba_bytes;
	case 0x09:
		return 16 * ((c->cdw10 & 0xff) + 1ULL);
	case 0x7a:
		return 4 * ((uint64_t)c->cdw12 + 1);
	default:
		return 0;
	}
}

/* Host pages a transfer of @len bytes from page offset @off touches. */
static uint64_t pages_of(uint32_t off, uint64_t len)
{
	return (off + len + PAGE - 1) / PAGE;
}

/* Which I/O command an LBA-range oracle applies to. */
static int is_rw(uint8_t op)
{
	return op == 0x01 || op == 0x02 || op == 0x05 || (zoned && op == 0x7d);
}

struct stats {
	unsigned long sent, status[0x800], kernel_refused, failed;
};

static void count(struct stats *st, int ret)
{
	st->sent++;
	if (ret < 0)
		st->kernel_refused++;
	else
		st->status[ret & SC_MASK]++;
}

static int check(const struct nvme_passthru_cmd *c, int admin, int ret,
		 unsigned long n)
{
	uint64_t slba = c->cdw10 | (uint64_t)c->cdw11 << 32;
	uint64_t nlb = (c->cdw12 & 0xffff) + 1;
	const char *bad = NULL;

	if (ret < 0 && errno == EINTR)
		bad = "timed out (the kernel cancelled it)";
	else if (ret >= 0 && (ret & SC_MASK) == SC_HOST_ABORTED)
		bad = "aborted by the host";
	else if (!admin && ret >= 0 && is_rw(c->opcode) && c->nsid == 1 &&
		 !c->flags && c->data_len >= nlb * lba_bytes &&
		 nlb * lba_bytes <= MAX_XFER) {
		int past = slba >= nsze || nlb > nsze - slba;

		if (past && (ret & SC_MASK) != SC_LBA_RANGE)
			bad = "past the end but not LBA Out of Range";
		if (!past && (ret & SC_MASK) == SC_LBA_RANGE)
			bad = "inside the namespace but LBA Out of Range";
	} else if (ret == 0 && !c->data_len && !c->flags &&
		   ((admin && c->opcode == 0x06 && (c->cdw10 & 0xff) == 1) ||
		    (!admin && c->opcode == 0x02 && c->nsid == 1))) {
		bad = "succeeded without a buffer (data went to page 0)";
	}
	if (!bad && !verbose)
		return 0;
	fprintf(bad ? stderr : stdout,
		"#%lu %s op=0x%02x flags=0x%02x nsid=0x%x cdw10=0x%x cdw11=0x%x cdw12=0x%x cdw13=0x%x cdw14=0x%x cdw15=0x%x len=%u: ret=%d (0x%x)%s%s\n",
		n, admin ? "admin" : "io", c->opcode, c->flags, c->nsid,
		c->cdw10, c->cdw11, c->cdw12, c->cdw13, c->cdw14, c->cdw15,
		c->data_len, ret, ret < 0 ? errno : ret, bad ? ": " : "",
		bad ? bad : "");
	return !!bad;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int fuzz(int argc, char **argv)
{
	unsigned long n, count_max = 5000, i;
	double t_max = 0, t0, slowest = 0;
	uint64_t seed = 0;
	struct stats *st;
	int ctrl, ns, opt;

	if (argc < 3) {
		fprintf(stderr, "usage: nvme_fuzz fuzz CTRL NS [-s SEED] [-n COUNT] [-t SECONDS] [-q QUEUES] [-v]\n");
		return 2;
	}
	optind = 3;
	while ((opt = getopt(argc, argv, "s:n:t:q:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			count_max = strtoul(optarg, NULL, 0);
			break;
		case 't':
			t_max = strtod(optarg, NULL);
			break;
		case 'q':
			driver_queues = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			return 2;
		}
	}
	if (!seed)
		seed = (uint64_t)time(NULL) * 1000003 + getpid();
	rng = seed;
	printf("nvme_fuzz: seed=%" PRIu64 " (repeat with -s %" PRIu64 ")\n",
	       seed, seed);
	fflush(stdout);

	ctrl = open(argv[1], O_RDWR);
	if (ctrl < 0)
		die(argv[1]);
	ns = open(argv[2], O_RDWR);
	if (ns < 0)
		die(argv[2]);
	st = calloc(1, sizeof(*st));
	if (!st)
		die("calloc");
	identify_ns(ctrl);
	printf("nvme_fuzz: nsze=%" PRIu64 " lba=%u bytes%s\n", nsze, lba_bytes,
	       zoned ? ", zoned" : "");

	t0 = now_s();
	for (n = 0; n < count_max; n++) {
		struct nvme_passthru_cmd c = { 0 };
		int admin = chance(40), ret;
		uint8_t ranges = 0;
		uint32_t off;
		uint64_t own;
		int short_buf;
		double t;

		if (t_max && now_s() - t0 > t_max)
			break;
		if (admin)
			ranges = admin_cmd(&c);
		else
			io_cmd(&c, &ranges);
		/* Page-aligned mostly; dword offsets sometimes. */
		off = chance(85) ? 0 : 4 * below(PAGE / 4);
		if (c.data_len > BUF_BYTES - off)
			c.data_len = BUF_BYTES - off;
		own = own_len(admin, &c);
		short_buf = c.data_len < own;
		if (!short_buf && own && pages_of(off, own) == 2 &&
		    pages_of(off, c.data_len) > 2)
			c.data_len = own;
		if (short_buf) {	/* see the header: two zeroed pages */
			if (c.data_len > 2 * PAGE - off)
				c.data_len = (2 * PAGE - off) & ~3UL;
			memset(buf, 0, 2 * PAGE);
		} else if (c.opcode & 2) {
			memset(buf, 0, (off + c.data_len + PAGE - 1) & ~(PAGE - 1));
		} else if (!ranges)
			for (i = 0; i < c.data_len / 8; i += 61)
				((uint64_t *)(buf + off))[i] = rnd();
		c.addr = c.data_len ? (uintptr_t)(buf + off) : 0;
		c.timeout_ms = TIMEOUT_MS;
		t = now_s();
		ret = submit(admin ? ctrl : ns, admin, &c);
		t = now_s() - t;
		if (t > slowest)
			slowest = t;
		count(st, ret);
		if (check(&c, admin, ret, n))
			st->failed++;
	}

	printf("nvme_fuzz: %lu commands in %.1f s (slowest %.3f s), %lu refused by the kernel (errno), %lu failed checks\n",
	       st->sent, now_s() - t0, slowest, st->kernel_refused, st->failed);
	for (i = 0; i < 0x800; i++)
		if (st->status[i])
			printf("nvme_fuzz: status 0x%03lx: %lu\n", i, st->status[i]);
	printf("nvme_fuzz: seed=%" PRIu64 "\n", seed);
	return st->failed ? 1 : 0;
}

static int raw(int argc, char **argv)
{
	struct nvme_passthru_cmd c = { 0 };
	unsigned long off;
	int fd, ret, admin;

	if (argc < 9) {
		fprintf(stderr, "usage: nvme_fuzz raw DEV admin|io OPCODE NSID CDW10 CDW11 CDW12 LEN [OFFSET]\n");
		return 2;
	}
	admin = !strcmp(argv[2], "admin");
	c.opcode = strtoul(argv[3], NULL, 0);
	c.nsid = strtoul(argv[4], NULL, 0);
	c.cdw10 = strtoul(argv[5], NULL, 0);
	c.cdw11 = strtoul(argv[6], NULL, 0);
	c.cdw12 = strtoul(argv[7], NULL, 0);
	c.data_len = strtoul(argv[8], NULL, 0);
	off = argc > 9 ? strtoul(argv[9], NULL, 0) : 0;
	if (c.data_len + off > BUF_BYTES) {
		fprintf(stderr, "nvme_fuzz: LEN + OFFSET over %lu\n", BUF_BYTES);
		return 2;
	}
	c.addr = c.data_len ? (uintptr_t)(buf + off) : 0;
	c.timeout_ms = TIMEOUT_MS;
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		die(argv[1]);
	ret = submit(fd, admin, &c);
	if (ret < 0)
		die("ioctl");
	printf("status=0x%x result=0x%x\n", ret, c.result);
	return 0;
}

int main(int argc, char **argv)
{
	if (posix_memalign((void **)&buf, PAGE, BUF_BYTES))
		die("posix_memalign");
	memset(buf, 0, BUF_BYTES);
	if (argc > 1 && !strcmp(argv[1], "fuzz"))
		return fuzz(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "raw"))
		return raw(argc - 1, argv + 1);
	fprintf(stderr, "usage: nvme_fuzz fuzz|raw ...\n");
	return 2;
}
