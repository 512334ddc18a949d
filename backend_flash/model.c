// SPDX-License-Identifier: GPL-2.0
/*
 * What the model predicts for a profile (docs/design/model.md): the
 * model's own request path driven on a virtual clock, on a private scratch
 * model, in closed loops with no host time.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "backend_flash/flash.h"
#include "backend_flash/ftl.h"
#include "backend_flash/profile.h"
#include "policy/policy.h"

/* Blocks a die the scratch model has at least, so GC is the profile's. */
#define MODEL_BLOCKS_PER_DIE	64
/* Its logical capacity at most (tables of about 100 MiB). */
#define MODEL_MAX_BYTES		(64ULL << 30)
#define MODEL_MIN_BYTES		(64ULL << 20)
/* Commands in flight a die at saturation */
#define MODEL_SAT_QD_PER_DIE	32
#define MODEL_SAT_QD_MAX	1024
/* Requests a closed loop runs at most, and its warm-up share */
#define MODEL_REQS		100000
#define MODEL_WARM_DIV		10
/* The virtual clock's start: every timeline is idle long before. */
#define MODEL_T0		NSEC_PER_SEC
#define MODEL_SEQ_PAGES		32	/* 128 KiB */
#define MODEL_SEQ_QD		32

struct model_ctx {
	const struct vflash_profile *prof;
	const struct vflash_flash *like;
	u64 bytes;
	u64 t;		/* the virtual clock: after everything run so far */
	u64 *due;	/* a closed loop's slots */
	u32 sat_qd;
};

/* The scratch model's logical capacity. */
static u64 model_bytes(const struct vflash_profile *p)
{
	u64 block = (u64)p->pages_per_block * p->flash_page_bytes;
	u64 dies = (u64)p->channels * p->dies_per_channel;
	u64 bytes = block * dies * MODEL_BLOCKS_PER_DIE;

	/* Over-provisioning comes out of the physical blocks. */
	bytes = clamp(bytes - bytes / 8, MODEL_MIN_BYTES, MODEL_MAX_BYTES);
	return max(div64_u64(bytes, block * dies), 1ULL) * block * dies;
}

static struct vflash_flash *model_new(struct model_ctx *c)
{
	const struct vflash_policy *pol;
	struct vflash_flash *f;
	enum vflash_knob k;
	int kind;

	f = vflash_flash_create(c->prof, c->bytes);
	if (IS_ERR_OR_NULL(f))
		return f ? f : ERR_PTR(-ENOMEM);
	for (k = 0; c->like && k < VFLASH_KNOB_NR; k++)
		if (k != VFLASH_KNOB_PRECONDITION)
			vflash_flash_set_knob(f, k,
					      vflash_flash_knob(c->like, k));
	/* The model's time alone: no host's. */
	vflash_flash_set_knob(f, VFLASH_KNOB_HOST_OVERHEAD_NS, 0);
	for (kind = 0; c->like && kind < VFLASH_POLICY_NR; kind++) {
		pol = vflash_flash_policy(c->like, kind);
		if (pol && kind != VFLASH_POLICY_MAINTENANCE)
			vflash_flash_set_policy(f, pol);
	}
	/* Cleaning on the write path: no worker runs on the virtual clock. */
	pol = vflash_policy_find(VFLASH_POLICY_MAINTENANCE, "inline");
	if (pol)
		vflash_flash_set_policy(f, pol);
	c->t = MODEL_T0;
	return f;
}

static u64 model_rnd(u64 *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

/**
 * model_loop() - a closed loop of requests on the scratch model
 * @c: the context; c->t is where the loop starts, and moves past its end
 * @f: the scratch model
 * @op: read or write
 * @qd: requests in flight
 * @pages: 4 KiB pages a request
 * @seq: sequential from LBA 0, else uniformly random (seeded)
 * @span: logical pages the requests cover
 * @n: requests
 * @per_s: receives requests per second after the warm-up
 *
 * The slot whose request completes first submits the next at that time
 * (the loop's requests are each submitted as the previous one in its slot
 * completes, with no host time). The rate counts from the end of a
 * warm-up: 10 % of the requests, and for writes as many more as fill the
 * write buffer (until then a write completes at once).
 *
 * Return: 0, or -EINTR on a fatal signal.
 */
static int model_loop(struct model_ctx *c, struct vflash_flash *f,
		      enum vflash_io op, u32 qd, u32 pages, bool seq, u64 span,
		      u64 n, u64 *per_s)
{
	u64 seed = 1, next = 0, t0 = c->t, now = c->t, last = c->t, lpn;
	u64 warm = n / MODEL_WARM_DIV, k, v;
	u32 q, min;

	/* Writes: the write buffer fills before the rate is the programs'. */
	if (op == VFLASH_IO_WRITE)
		warm = min(n / 2, warm + qd +
			   div64_u64(vflash_flash_knob(f, VFLASH_KNOB_WRITE_BUFFER_BYTES),
				     (u64)pages * PAGE_SIZE));
	span = max(span / pages, 1ULL);
	/* c->due: a binary min-heap of the slots' completions */
	for (q = 0; q < qd; q++)
		c->due[q] = c->t;
	for (k = 0; k < n; k++) {
		now = c->due[0];
		if (k == warm)
			t0 = now;
		lpn = seq ? next++ % span : model_rnd(&seed) % span;
		v = vflash_flash_submit(f, op, lpn * pages, pages, now);
		last = max(last, v);
		/* the root's slot submits again: sift its completion down */
		for (q = 0;; q = min) {
			min = q;
			if (2 * q + 1 < qd && c->due[2 * q + 1] < v)
				min = 2 * q + 1;
			if (2 * q + 2 < qd && c->due[2 * q + 2] <
			    (min == q ? v : c->due[min]))
				min = 2 * q + 2;
			if (min == q)
				break;
			c->due[q] = c->due[min];
		}
		c->due[q] = v;
		if (!(k % 1024)) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	/* n - warm submissions from t0 to now: n - warm - 1 intervals */
	*per_s = now > t0 ? div64_u64((n - warm - 1) * NSEC_PER_SEC, now - t0) :
			    0;
	/* The next loop starts with every timeline idle. */
	c->t = last + NSEC_PER_SEC;
	return 0;
}

/* One request on an idle model: its latency. */
static u64 model_one(struct model_ctx *c, struct vflash_flash *f,
		     enum vflash_io op, u64 lpn)
{
	u64 due = vflash_flash_submit(f, op, lpn, 1, c->t);
	u64 lat = due - c->t;

	c->t = due + NSEC_PER_SEC;
	return lat;
}

/* @f, instantly preconditioned by @workload (100 or 200 % written). */
static int model_precondition(struct model_ctx *c, struct vflash_flash *f,
			      u32 workload, u32 written_pct)
{
	struct vflash_precondition p = {
		.workload = workload, .fill_pct = 100,
		.written_pct = written_pct, .hot_lba_pct = 20,
		.hot_write_pct = 80, .seed = 1, .replay = VFLASH_PRE_AUTO,
	};

	return vflash_flash_precondition(f, &p, c->t);
}

/* Writes on a new model: one, then random ones (no GC yet). */
static int model_writes(struct model_ctx *c, struct vflash_model *m)
{
	struct vflash_flash *f = model_new(c);
	u64 pages = c->bytes >> PAGE_SHIFT, v;
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	m->write_lat_ns = model_one(c, f, VFLASH_IO_WRITE, pages / 2);
	ret = model_loop(c, f, VFLASH_IO_WRITE, 1, 1, false, pages,
			 min(pages / 8, 20000ULL), &m->randwrite_qd1_iops);
	if (!ret)
		ret = model_loop(c, f, VFLASH_IO_WRITE, c->sat_qd, 1, false,
				 pages, min(pages / 4, (u64)MODEL_REQS),
				 &m->randwrite_sat_iops);
	vflash_flash_destroy(f);
	if (ret)
		return ret;
	/* Sequential writes on another new model: no GC either. */
	f = model_new(c);
	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = model_loop(c, f, VFLASH_IO_WRITE, MODEL_SEQ_QD, MODEL_SEQ_PAGES,
			 true, pages,
			 min(pages / MODEL_SEQ_PAGES / 2, (u64)MODEL_REQS), &v);
	if (!ret)
		m->seqwrite_mbps = div64_u64(v * MODEL_SEQ_PAGES * PAGE_SIZE,
					     1000000);
	vflash_flash_destroy(f);
	return ret;
}

/* Reads of a model every page of which is written (sequentially). */
static int model_reads(struct model_ctx *c, struct vflash_model *m)
{
	struct vflash_flash *f = model_new(c);
	u64 pages = c->bytes >> PAGE_SHIFT, v;
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = model_precondition(c, f, VFLASH_PRE_SEQ, 100);
	if (ret)
		goto out;
	m->read_lat_ns = model_one(c, f, VFLASH_IO_READ, pages / 2);
	ret = model_loop(c, f, VFLASH_IO_READ, 1, 1, false, pages,
			 min(pages, 20000ULL), &m->randread_qd1_iops);
	if (!ret)
		ret = model_loop(c, f, VFLASH_IO_READ, c->sat_qd, 1, false,
				 pages, MODEL_REQS, &m->randread_sat_iops);
	if (!ret)
		ret = model_loop(c, f, VFLASH_IO_READ, MODEL_SEQ_QD,
				 MODEL_SEQ_PAGES, true, pages,
				 min(pages / MODEL_SEQ_PAGES, (u64)MODEL_REQS),
				 &v);
	if (!ret)
		m->seqread_mbps = div64_u64(v * MODEL_SEQ_PAGES * PAGE_SIZE,
					    1000000);
out:
	vflash_flash_destroy(f);
	return ret;
}

/* Random writes after instant preconditioning to steady state. */
static int model_steady(struct model_ctx *c, struct vflash_model *m)
{
	struct vflash_flash *f = model_new(c);
	u64 pages = c->bytes >> PAGE_SHIFT;
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = model_precondition(c, f, VFLASH_PRE_RANDOM, 200);
	if (!ret)
		ret = model_loop(c, f, VFLASH_IO_WRITE, c->sat_qd, 1, false,
				 pages, min(pages, (u64)MODEL_REQS),
				 &m->steady_write_iops);
	if (!ret)
		m->steady_waf_milli = vflash_flash_write_amplification(f);
	vflash_flash_destroy(f);
	return ret;
}

/**
 * vflash_flash_model_predict() - what the model predicts for a profile
 * @prof: the profile, with its geometry
 * @like: a device whose knobs and flash policies the prediction takes, or
 *	NULL for the profile's defaults; only read
 * @m: receives the figures
 *
 * Runs the model's own request path on private scratch models (no store,
 * no frontend, no worker), a few seconds at most; sleeps.
 *
 * Return: 0; -ENOMEM; -EINTR on a fatal signal; or what the scratch
 * model's creation or preconditioning failed with.
 */
int vflash_flash_model_predict(const struct vflash_profile *prof,
			       const struct vflash_flash *like,
			       struct vflash_model *m)
{
	struct model_ctx c = { .prof = prof, .like = like };
	int ret;

	memset(m, 0, sizeof(*m));
	c.bytes = model_bytes(prof);
	c.sat_qd = min_t(u32, MODEL_SAT_QD_MAX, MODEL_SAT_QD_PER_DIE *
			 prof->channels * prof->dies_per_channel);
	c.due = kcalloc(max_t(u32, c.sat_qd, MODEL_SEQ_QD), sizeof(*c.due),
			GFP_KERNEL);
	if (!c.due)
		return -ENOMEM;
	m->bytes = c.bytes;
	m->sat_qd = c.sat_qd;
	ret = model_writes(&c, m);
	if (!ret)
		ret = model_reads(&c, m);
	if (!ret)
		ret = model_steady(&c, m);
	kfree(c.due);
	return ret;
}

/**
 * vflash_flash_model_show() - the figures as "key value" lines
 * @m: the figures
 * @buf: receives them
 * @size: its size
 *
 * Return: the length written.
 */
int vflash_flash_model_show(const struct vflash_model *m, char *buf,
			    size_t size)
{
	return scnprintf(buf, size,
			 "read_lat_ns %llu\nwrite_lat_ns %llu\n"
			 "randread_qd1_iops %llu\nrandread_sat_iops %llu\n"
			 "randwrite_qd1_iops %llu\nrandwrite_sat_iops %llu\n"
			 "seqread_mbps %llu\nseqwrite_mbps %llu\n"
			 "steady_write_iops %llu\nsteady_waf_milli %llu\n"
			 "sat_qd %u\nscratch_bytes %llu\n",
			 m->read_lat_ns, m->write_lat_ns,
			 m->randread_qd1_iops, m->randread_sat_iops,
			 m->randwrite_qd1_iops, m->randwrite_sat_iops,
			 m->seqread_mbps, m->seqwrite_mbps,
			 m->steady_write_iops, m->steady_waf_milli,
			 m->sat_qd, m->bytes);
}
