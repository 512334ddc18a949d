// SPDX-License-Identifier: GPL-2.0
/*
 * The flash model's sections of a device image: saved from a quiescent
 * model and restored into a new one (docs/design/image.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "backend_flash/ftl.h"
#include "policy/policy.h"

/* Knob, counter and policy names in an image, NUL-padded. */
#define NAME_BYTES	32

/*
 * The longest a saved time may lie ahead of its moment (a die's queue, a
 * program's end), and the oldest data an image may hold: beyond either,
 * the image is not one a device made.
 */
#define MAX_AHEAD_NS	(3600ULL * NSEC_PER_SEC)
#define MAX_AGE_NS	BIT_ULL(62)

/* The three bytes of a p2l entry, the 40 of a block. */
#define BLOCK_BYTES	40

/**
 * struct walk - one pass over an element's fields, saving or loading
 * @p: the next byte; NULL while measuring
 * @load: fields are read from @p into the model
 * @bad: a loaded time was out of its bounds
 * @len: bytes walked
 *
 * The same function walks an element for saving, loading and measuring, so
 * that the layout is written down once.
 */
struct walk {
	u8 *p;
	bool load;
	bool bad;
	u32 len;
};

static void w_bytes(struct walk *w, void *v, u32 n)
{
	w->len += n;
	if (!w->p)
		return;
	if (w->load)
		memcpy(v, w->p, n);
	else
		memcpy(w->p, v, n);
	w->p += n;
}

static void w_u64(struct walk *w, u64 *v)
{
	__le64 le = cpu_to_le64(*v);

	w_bytes(w, &le, sizeof(le));
	*v = le64_to_cpu(le);
}

static void w_u32(struct walk *w, u32 *v)
{
	__le32 le = cpu_to_le32(*v);

	w_bytes(w, &le, sizeof(le));
	*v = le32_to_cpu(le);
}

/*
 * A time as what remains of it after the image's moment (0: past). A
 * loaded one further ahead than MAX_AHEAD_NS marks the walk bad.
 */
static void w_time(struct walk *w, const struct vflash_flash *f, u64 *t)
{
	u64 rem = *t > f->img_now_ns ? *t - f->img_now_ns : 0;

	w_u64(w, &rem);
	if (!w->load)
		return;
	if (rem > MAX_AHEAD_NS)
		w->bad = true;
	*t = f->img_now_ns + min(rem, MAX_AHEAD_NS);
}

/*
 * A link's busy time (vff_link_busy_until()); loaded, the link is free
 * from it on. A held device's links have nothing booked past it.
 */
static void w_link(struct walk *w, const struct vflash_flash *f,
		   struct vff_link *l)
{
	u64 t = vff_link_busy_until(l);

	w_time(w, f, &t);
	if (w->load)
		vff_link_reset(l, t);
}

/*
 * A time past or ahead, as its signed distance from the image's moment;
 * loaded, one before the clock's start is 0, one too far ahead bad.
 */
static void w_span(struct walk *w, const struct vflash_flash *f, u64 *t)
{
	s64 d = *t - f->img_now_ns;
	u64 v = d;

	w_u64(w, &v);
	if (!w->load)
		return;
	d = v;
	if (d > (s64)MAX_AHEAD_NS)
		w->bad = true;
	else if (d < 0)
		/* 0 - v: how long before, S64_MIN included */
		*t = 0 - v < f->img_now_ns ? f->img_now_ns - (0 - v) : 0;
	else
		*t = f->img_now_ns + v;
}

static void w_name(struct walk *w, const char *name, char *got)
{
	char buf[NAME_BYTES] = {};

	if (!w->load)
		strscpy(buf, name, sizeof(buf));
	w_bytes(w, buf, sizeof(buf));
	if (w->load) {
		buf[NAME_BYTES - 1] = '\0';
		strscpy(got, buf, NAME_BYTES);
	}
}

/*
 * The figures the image's layout and meaning depend on. A restore refuses
 * an image whose figures differ from the device's.
 */
enum { G_LPAGES_LO, G_LPAGES_HI, G_DIES, G_CHANNELS, G_LPP, G_SLOTS_SLC,
	G_SLOTS_MAIN, G_UNIT_SLC, G_UNIT_MAIN, G_BPD, G_SLC_PD, G_PH,
	G_P2L_PD, G_P2L_SHIFT, G_HYBRID, G_FIFO, G_WB_CAP, G_MAX_PH, G_STATS,
	G_KNOBS, G_POLICIES, G_HIST, G_NR };

static const char * const geom_names[G_NR] = {
	"pages (low)", "pages (high)", "dies", "channels",
	"pages per flash page", "SLC block slots", "main block slots",
	"SLC unit", "main unit", "blocks per die", "SLC blocks per die",
	"placement handles", "p2l entries per die", "p2l shift", "hybrid",
	"write-buffer FIFO", "write-buffer slots", "most placement handles",
	"counters", "knobs", "policy kinds", "histogram buckets",
};

static u32 nr_flash_policies(void)
{
	u32 k, n = 0;

	for (k = 0; k < VFLASH_POLICY_NR; k++)
		n += vff_flash_kind(k);
	return n;
}

static void geometry(const struct vflash_flash *f, u32 *g)
{
	g[G_LPAGES_LO] = lower_32_bits(f->nr_lpages);
	g[G_LPAGES_HI] = upper_32_bits(f->nr_lpages);
	g[G_DIES] = f->nr_dies;
	g[G_CHANNELS] = f->nr_channels;
	g[G_LPP] = f->lpp;
	g[G_SLOTS_SLC] = f->slots[VFF_SLC];
	g[G_SLOTS_MAIN] = f->slots[VFF_MAIN];
	g[G_UNIT_SLC] = f->unit[VFF_SLC];
	g[G_UNIT_MAIN] = f->unit[VFF_MAIN];
	g[G_BPD] = f->blocks_per_die;
	g[G_SLC_PD] = f->slc_per_die;
	g[G_PH] = f->nr_ph;
	g[G_P2L_PD] = f->p2l_per_die;
	g[G_P2L_SHIFT] = f->p2l_shift;
	g[G_HYBRID] = f->hybrid;
	g[G_FIFO] = f->wb_fifo_len;
	g[G_WB_CAP] = f->wb_cap;
	g[G_MAX_PH] = VFLASH_FLASH_MAX_PLACEMENT;
	g[G_STATS] = VFLASH_STAT_NR;
	g[G_KNOBS] = VFLASH_KNOB_NR;
	g[G_POLICIES] = nr_flash_policies();
	g[G_HIST] = VFF_HIST_BUCKETS;
}

static int walk_geometry(struct walk *w, struct vflash_flash *f)
{
	u32 mine[G_NR], got[G_NR];
	int i;

	geometry(f, mine);
	for (i = 0; i < G_NR; i++) {
		got[i] = mine[i];
		w_u32(w, &got[i]);
		if (w->load && got[i] != mine[i]) {
			pr_err("vflash%u: image: %s %u, this device %u: another geometry or vflash\n",
			       f->id, geom_names[i], got[i], mine[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* @sum: the counters; NULL while measuring. */
static int walk_counters(struct walk *w, struct vflash_flash *f,
			 struct vff_stats *sum)
{
	char name[NAME_BYTES];
	u32 i;

	if (!sum) {
		w->len += VFLASH_STAT_NR * (NAME_BYTES + 8) +
			  VFLASH_FLASH_MAX_PLACEMENT * 16 + 16 +
			  VFF_HIST_BUCKETS * 16;
		return 0;
	}
	for (i = 0; i < VFLASH_STAT_NR; i++) {
		w_name(w, vflash_flash_stat_name(i), name);
		w_u64(w, &sum->count[i]);
		if (w->load && strcmp(name, vflash_flash_stat_name(i))) {
			pr_err("vflash%u: image: counter %u is %.31s, this vflash's %s\n",
			       f->id, i, name, vflash_flash_stat_name(i));
			return -EINVAL;
		}
	}
	for (i = 0; i < VFLASH_FLASH_MAX_PLACEMENT; i++) {
		w_u64(w, &sum->ph_host_pages[i]);
		w_u64(w, &sum->ph_media_pages[i]);
	}
	w_u64(w, &sum->erased_slots);
	w_u64(w, &sum->late_max_ns);
	for (i = 0; i < VFF_HIST_BUCKETS; i++) {
		w_u64(w, &sum->read_hist[i]);
		w_u64(w, &sum->late_hist[i]);
	}
	return 0;
}

/* The counters saved: the sum over every CPU, the largest lateness. */
static void sum_counters(struct vflash_flash *f, struct vff_stats *sum)
{
	int cpu;
	u32 i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct vff_stats *s = per_cpu_ptr(f->stats, cpu);

		for (i = 0; i < VFLASH_STAT_NR; i++)
			sum->count[i] += s->count[i];
		for (i = 0; i < VFLASH_FLASH_MAX_PLACEMENT; i++) {
			sum->ph_host_pages[i] += s->ph_host_pages[i];
			sum->ph_media_pages[i] += s->ph_media_pages[i];
		}
		sum->erased_slots += s->erased_slots;
		sum->late_max_ns = max(sum->late_max_ns, s->late_max_ns);
		for (i = 0; i < VFF_HIST_BUCKETS; i++) {
			sum->read_hist[i] += s->read_hist[i];
			sum->late_hist[i] += s->late_hist[i];
		}
	}
}

static int walk_knobs(struct walk *w, struct vflash_flash *f)
{
	char name[NAME_BYTES];
	u32 k;

	for (k = 0; k < VFLASH_KNOB_NR; k++) {
		u64 v = f->knob[k];

		w_name(w, vflash_flash_knob_name(k), name);
		w_u64(w, &v);
		if (!w->load)
			continue;
		if (strcmp(name, vflash_flash_knob_name(k))) {
			pr_err("vflash%u: image: knob %u is %.31s, this vflash's %s\n",
			       f->id, k, name, vflash_flash_knob_name(k));
			return -EINVAL;
		}
		if (!vflash_knob_in_range(vff_knob_range(k), f->id, v))
			return -EINVAL;
		f->knob[k] = v;
	}
	return 0;
}

static int walk_policies(struct walk *w, struct vflash_flash *f)
{
	char name[NAME_BYTES];
	u32 k, kind;

	for (k = 0; k < VFLASH_POLICY_NR; k++) {
		const struct vflash_policy *pol;

		if (!vff_flash_kind(k))
			continue;
		kind = k;
		pol = f->policy[k];
		w_u32(w, &kind);
		w_name(w, pol ? pol->name : "", name);
		if (!w->load)
			continue;
		pol = kind == k ? vflash_policy_find(kind, name) : NULL;
		if (!pol) {
			pr_err("vflash%u: image: policy %u %.31s: not registered here\n",
			       f->id, kind, name);
			return -EINVAL;
		}
		f->policy[k] = pol;
	}
	return 0;
}

/*
 * FLASH_STATE: the geometry first (a restore refuses another device's
 * image before it changes anything), then counters, knobs, policies and
 * what the model keeps beside its tables.
 */
static int walk_state(struct walk *w, struct vflash_flash *f)
{
	struct vff_stats *sum = NULL;
	u64 seal_seq, cursor, req_id, v;
	u32 i, u;
	int ret;

	ret = walk_geometry(w, f);
	if (ret)
		return ret;
	if (w->p) {
		sum = kzalloc(sizeof(*sum), GFP_KERNEL);
		if (!sum)
			return -ENOMEM;
	}
	if (w->p && !w->load)
		sum_counters(f, sum);
	ret = walk_counters(w, f, sum);
	/* A new device's counters are all 0: the sums go to one CPU's. */
	if (!ret && w->p && w->load)
		*per_cpu_ptr(f->stats, cpumask_first(cpu_possible_mask)) = *sum;
	kfree(sum);
	if (!ret)
		ret = walk_knobs(w, f);
	if (!ret)
		ret = walk_policies(w, f);
	if (ret)
		return ret;

	seal_seq = atomic64_read(&f->seal_seq);
	cursor = atomic64_read(&f->cursor);
	req_id = atomic64_read(&f->req_id);
	w_u64(w, &seal_seq);
	w_u64(w, &cursor);
	w_u64(w, &req_id);
	w_link(w, f, &f->host);
	/* The oldest data's age: a restore's age clock starts beyond it. */
	v = f->age_base_ns;
	w_u64(w, &v);
	if (w->load)
		f->age_base_ns = v;
	for (i = 0; i < VFF_NR_REGIONS; i++) {
		u = atomic_read(&f->nr_bad[i]);
		w_u32(w, &u);
		if (w->load)
			atomic_set(&f->nr_bad[i], u);
	}
	u = f->no_room;
	w_u32(w, &u);
	if (w->load)
		f->no_room = u;
	u = f->zone_ph;
	w_u32(w, &u);
	if (w->load)
		f->zone_ph = u;
	for (i = 0; i < VFLASH_FLASH_MAX_PLACEMENT; i++) {
		v = atomic64_read(&f->ph_moved[i]);
		w_u64(w, &v);
		if (w->load)
			atomic64_set(&f->ph_moved[i], v);
		w_u64(w, &f->ph_moved_lpn[i]);
		v = atomic64_read(&f->ph_retired[i]);
		w_u64(w, &v);
		if (w->load)
			atomic64_set(&f->ph_retired[i], v);
		w_u64(w, &f->zmap[i].first_lpn);
		w_u32(w, &f->zmap[i].first_die);
		w_u32(w, &f->zmap[i].width);
	}
	for (i = 0; i < f->nr_channels; i++)
		w_link(w, f, &f->channels[i].link);
	if (!w->load)
		return 0;
	atomic64_set(&f->seal_seq, seal_seq);
	atomic64_set(&f->cursor, cursor);
	atomic64_set(&f->req_id, req_id);
	if (w->bad || f->age_base_ns > MAX_AGE_NS) {
		pr_err("vflash%u: image: a time or data age out of its bounds\n",
		       f->id);
		return -EINVAL;
	}
	return 0;
}

/* A block reference in a die's record: none, or one of its region's. */
static bool die_block_ok(const struct vflash_flash *f, u32 d, u32 r, u32 b)
{
	return b == VFF_INVALID ||
	       (b < f->nr_blocks && vff_die_of_block(f, b) == d &&
		vff_region_of(f, b) == r);
}

static int walk_die(struct walk *w, struct vflash_flash *f, u32 d)
{
	struct vff_die *die = &f->dies[d];
	u32 s, r, i, u;

	for (r = 0; r < VFF_NR_REGIONS; r++) {
		w_u32(w, &die->free_head[r]);
		w_u32(w, &die->nr_free[r]);
		for (s = 0; s < VFF_NR_STREAMS; s++)
			w_u32(w, &die->open[s][r]);
	}
	w_u32(w, &die->wb_head);
	w_u32(w, &die->wb_count);
	w_u32(w, &die->wb_used);
	w_u32(w, &die->wb_pending);
	w_u32(w, &die->bg_last);
	u = die->undo_used;
	w_u32(w, &u);
	die->undo_used = u;
	w_time(w, f, &die->busy_until_ns);
	w_time(w, f, &die->fg_busy_until_ns);
	w_u64(w, &die->deferred_ns);
	w_time(w, f, &die->durable_ns);
	for (i = 0; i < VFF_BG_SPANS; i++) {
		w_span(w, f, &die->bg_start_ns[i]);
		w_span(w, f, &die->bg_end_ns[i]);
	}
	for (i = 0; i < f->wb_fifo_len; i++) {
		w_time(w, f, &die->wb_end_ns[i]);
		w_u32(w, &die->wb_slots[i]);
	}
	if (!w->load)
		return 0;
	for (r = 0; r < VFF_NR_REGIONS; r++) {
		bool ok = die_block_ok(f, d, r, die->free_head[r]) &&
			  die->nr_free[r] <= f->blocks_per_die;

		for (s = 0; s < VFF_NR_STREAMS; s++)
			ok = ok && die_block_ok(f, d, r, die->open[s][r]);
		if (!ok) {
			pr_err("vflash%u: image: die %u: a block of another die or region\n",
			       f->id, d);
			return -EINVAL;
		}
	}
	if (die->wb_head >= f->wb_fifo_len || die->wb_count >= f->wb_fifo_len ||
	    die->wb_used > f->wb_cap || die->wb_pending > f->wb_cap ||
	    die->bg_last >= VFF_BG_SPANS || w->bad ||
	    die->deferred_ns > MAX_AHEAD_NS) {
		pr_err("vflash%u: image: die %u: write buffer or times out of their bounds\n",
		       f->id, d);
		return -EINVAL;
	}
	for (i = 0, u = 0; i < die->wb_count; i++)
		u += die->wb_slots[(die->wb_head + i) % f->wb_fifo_len];
	if (u != die->wb_used) {
		pr_err("vflash%u: image: die %u: the write buffer's slots do not add up\n",
		       f->id, d);
		return -EINVAL;
	}
	return 0;
}

static u32 die_bytes(struct vflash_flash *f)
{
	struct walk w = {};

	walk_die(&w, f, 0);
	return w.len;
}

static u32 state_bytes(struct vflash_flash *f)
{
	struct walk w = {};

	walk_state(&w, f);
	return w.len;
}

/**
 * vflash_flash_img_elem_bytes() - the size of one element of a section
 * @f: the device
 * @s: the section
 *
 * Return: bytes, or 0 for an unknown section.
 */
u32 vflash_flash_img_elem_bytes(struct vflash_flash *f,
				enum vflash_img_sect s)
{
	switch (s) {
	case VFLASH_IMG_FLASH_STATE:
		return state_bytes(f);
	case VFLASH_IMG_L2P:
		return sizeof(*f->l2p);
	case VFLASH_IMG_P2L:
		return VFF_P2L_BYTES;
	case VFLASH_IMG_HEAT:
		return 1;
	case VFLASH_IMG_BLOCKS:
		return BLOCK_BYTES;
	case VFLASH_IMG_DIES:
		return die_bytes(f);
	default:
		return 0;
	}
}

/**
 * vflash_flash_img_elems() - the elements of a section
 * @f: the device
 * @s: the section
 *
 * Return: the count, 0 for an unknown section.
 */
u64 vflash_flash_img_elems(const struct vflash_flash *f,
			   enum vflash_img_sect s)
{
	switch (s) {
	case VFLASH_IMG_FLASH_STATE:
		return 1;
	case VFLASH_IMG_L2P:
		return f->nr_lpages;
	case VFLASH_IMG_P2L:
		return (u64)f->nr_dies * f->p2l_per_die;
	case VFLASH_IMG_HEAT:
		return vff_heat_bytes(f->nr_lpages);
	case VFLASH_IMG_BLOCKS:
		return f->nr_blocks;
	case VFLASH_IMG_DIES:
		return f->nr_dies;
	default:
		return 0;
	}
}

static void put_le32(u8 *p, u32 v)
{
	__le32 le = cpu_to_le32(v);

	memcpy(p, &le, sizeof(le));
}

static u32 get_le32(const u8 *p)
{
	__le32 le;

	memcpy(&le, p, sizeof(le));
	return le32_to_cpu(le);
}

static void put_le64(u8 *p, u64 v)
{
	__le64 le = cpu_to_le64(v);

	memcpy(p, &le, sizeof(le));
}

static u64 get_le64(const u8 *p)
{
	__le64 le;

	memcpy(&le, p, sizeof(le));
	return le64_to_cpu(le);
}

/* The age of a block's data on the image's moment (age clock). */
static u64 block_age(const struct vflash_flash *f, const struct vff_block *b)
{
	u64 ac = vff_age_clock(f, f->img_now_ns);

	return ac > b->seal_ns ? ac - b->seal_ns : 0;
}

static void get_block(const struct vflash_flash *f, u32 i, u8 *p)
{
	const struct vff_block *b = &f->blocks[i];

	memset(p, 0, BLOCK_BYTES);
	put_le32(p, atomic_read(&b->valid));
	put_le32(p + 4, b->wp);
	p[8] = b->state;
	p[9] = b->stream;
	put_le32(p + 12, b->next);
	put_le32(p + 16, b->erase_count);
	put_le64(p + 24, b->seal_seq);
	put_le64(p + 32, block_age(f, b));
}

static int put_block(struct vflash_flash *f, u32 i, const u8 *p)
{
	struct vff_block *b = &f->blocks[i];
	u32 valid = get_le32(p), wp = get_le32(p + 4), next = get_le32(p + 12);
	u32 slots = f->slots[vff_region_of(f, i)];
	u64 age = get_le64(p + 32);

	/* A quiescent model has no victim: cleaning ends under the die lock. */
	if (valid > slots || wp > slots || p[8] > VFF_BLK_BAD ||
	    p[8] == VFF_BLK_VICTIM ||
	    p[9] >= VFF_NR_STREAMS || (next != VFF_INVALID && next >= f->nr_blocks) ||
	    age > f->img_oldest_ns) {
		pr_err("vflash%u: image: block %u: a field out of its range\n",
		       f->id, i);
		return -EINVAL;
	}
	atomic_set(&b->valid, valid);
	b->wp = wp;
	b->state = p[8];
	b->stream = p[9];
	b->next = next;
	b->erase_count = get_le32(p + 16);
	b->seal_seq = get_le64(p + 24);
	b->seal_ns = vff_age_clock(f, f->img_now_ns) - age;
	return 0;
}

static int put_l2p(struct vflash_flash *f, u64 lpn, u32 slot)
{
	u32 b = vff_block_of(f, slot);

	if (slot != VFF_INVALID &&
	    (b >= f->nr_blocks || slot % f->stride >= f->slots[vff_region_of(f, b)])) {
		pr_err("vflash%u: image: l2p[%llu] = %u: no such slot\n",
		       f->id, lpn, slot);
		return -EINVAL;
	}
	f->l2p[lpn] = slot;
	return 0;
}

static bool in_section(const struct vflash_flash *f, enum vflash_img_sect s,
		       u64 first, u32 nr)
{
	u64 n = vflash_flash_img_elems(f, s);

	return first <= n && nr <= n - first;
}

/**
 * vflash_flash_img_save_begin() - start saving the flash model
 * @f: the device: no request in flight, its worker stopped
 * @now_ns: the moment its times are saved relative to
 *
 * Return: 0; -EBUSY (one dmesg line) while the worker runs or power-loss
 * records wait on open units (a power cut armed without power-loss
 * protection: their pages' contents are not decided).
 */
int vflash_flash_img_save_begin(struct vflash_flash *f, u64 now_ns)
{
	u64 ac = vff_age_clock(f, now_ns), oldest = 0;
	u32 b;

	if (f->worker) {
		pr_err("vflash%u: image: the GC worker runs: the device is not quiescent\n",
		       f->id);
		return -EBUSY;
	}
	if (vff_undo_waiting(f)) {
		pr_err("vflash%u: image: writes wait to be durable (power_cut armed without plp): disarm it first\n",
		       f->id);
		return -EBUSY;
	}
	f->img_now_ns = now_ns;
	for (b = 0; b < f->nr_blocks; b++)
		if (ac > f->blocks[b].seal_ns)
			oldest = max(oldest, ac - f->blocks[b].seal_ns);
	/* What the image's FLASH_STATE carries as the oldest age. */
	f->img_oldest_ns = oldest;
	return 0;
}

/**
 * vflash_flash_img_get() - elements of a section, as the image holds them
 * @f: the device, between vflash_flash_img_save_begin() and the end of
 *	the save (the caller keeps requests and the worker out)
 * @s: the section
 * @first: the first element
 * @nr: elements
 * @buf: room for @nr times vflash_flash_img_elem_bytes()
 *
 * Return: 0, -EINVAL for elements beyond the section, -ENOMEM.
 */
int vflash_flash_img_get(struct vflash_flash *f, enum vflash_img_sect s,
			 u64 first, u32 nr, void *buf)
{
	u8 *p = buf;
	u32 i, esz;

	if (!in_section(f, s, first, nr))
		return -EINVAL;
	switch (s) {
	case VFLASH_IMG_FLASH_STATE: {
		u64 base = f->age_base_ns;
		struct walk w = { .p = p };
		int ret;

		/* The oldest age stands where a restore reads its age base. */
		f->age_base_ns = f->img_oldest_ns;
		ret = nr ? walk_state(&w, f) : 0;
		f->age_base_ns = base;
		return ret;
	}
	case VFLASH_IMG_L2P:
		for (i = 0; i < nr; i++)
			put_le32(p + 4 * i, f->l2p[first + i]);
		return 0;
	case VFLASH_IMG_P2L:
		memcpy(p, f->p2l + first * VFF_P2L_BYTES, nr * VFF_P2L_BYTES);
		return 0;
	case VFLASH_IMG_HEAT:
		memcpy(p, f->heat + first, nr);
		return 0;
	case VFLASH_IMG_BLOCKS:
		for (i = 0; i < nr; i++)
			get_block(f, first + i, p + i * BLOCK_BYTES);
		return 0;
	case VFLASH_IMG_DIES:
		esz = die_bytes(f);
		for (i = 0; i < nr; i++) {
			struct walk w = { .p = p + i * esz };

			walk_die(&w, f, first + i);
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * vflash_flash_img_load_begin() - start restoring into a new device
 * @f: a device that never took a request, its worker stopped
 * @now_ns: the moment the image's times are restored relative to
 *
 * Return: 0, or -EBUSY (one dmesg line) for a device that ran.
 */
int vflash_flash_img_load_begin(struct vflash_flash *f, u64 now_ns)
{
	u32 b;

	for (b = 0; b < f->nr_blocks; b++)
		if (f->blocks[b].state != VFF_BLK_FREE ||
		    f->blocks[b].erase_count)
			break;
	if (f->worker || b < f->nr_blocks) {
		pr_err("vflash%u: image: a restore needs a new device that never ran\n",
		       f->id);
		return -EBUSY;
	}
	f->img_now_ns = now_ns;
	f->img_state_in = false;
	memset(f->img_in, 0, sizeof(f->img_in));
	return 0;
}

static int put_elems(struct vflash_flash *f, enum vflash_img_sect s,
		     u64 first, u32 nr, const u8 *p)
{
	u32 i, esz;
	int ret;

	switch (s) {
	case VFLASH_IMG_FLASH_STATE: {
		struct walk w = { .p = (u8 *)p, .load = true };
		u64 oldest;

		if (!nr)
			return 0;
		ret = walk_state(&w, f);
		if (ret)
			return ret;
		/* The age clock starts beyond the oldest data's age. */
		oldest = f->age_base_ns;
		f->age_base_ns = oldest > f->img_now_ns ? oldest - f->img_now_ns : 0;
		f->img_oldest_ns = oldest;
		f->img_state_in = true;
		return 0;
	}
	case VFLASH_IMG_L2P:
		for (i = 0; i < nr; i++) {
			ret = put_l2p(f, first + i, get_le32(p + 4 * i));
			if (ret)
				return ret;
		}
		return 0;
	case VFLASH_IMG_P2L:
		memcpy(f->p2l + first * VFF_P2L_BYTES, p, nr * VFF_P2L_BYTES);
		return 0;
	case VFLASH_IMG_HEAT:
		memcpy(f->heat + first, p, nr);
		return 0;
	case VFLASH_IMG_BLOCKS:
		for (i = 0; i < nr; i++) {
			ret = put_block(f, first + i, p + i * BLOCK_BYTES);
			if (ret)
				return ret;
		}
		return 0;
	case VFLASH_IMG_DIES:
		esz = die_bytes(f);
		for (i = 0; i < nr; i++) {
			struct walk w = { .p = (u8 *)p + i * esz, .load = true };

			ret = walk_die(&w, f, first + i);
			if (ret)
				return ret;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * vflash_flash_img_put() - take elements of a section from an image
 * @f: the device, after vflash_flash_img_load_begin()
 * @s: the section; FLASH_STATE before every other
 * @first: the first element
 * @nr: elements
 * @buf: @nr times vflash_flash_img_elem_bytes()
 *
 * Each element is checked on its own; the whole at
 * vflash_flash_img_finish(). After a refusal the caller resets the device
 * (vflash_flash_img_reset()).
 *
 * Return: 0, or -EINVAL after one dmesg line naming what is wrong.
 */
int vflash_flash_img_put(struct vflash_flash *f, enum vflash_img_sect s,
			 u64 first, u32 nr, const void *buf)
{
	const u8 *p = buf;
	int ret;

	if (!in_section(f, s, first, nr) || first != f->img_in[s]) {
		pr_err("vflash%u: image: section %u: elements %llu+%u out of order\n",
		       f->id, s, first, nr);
		return -EINVAL;
	}
	if (s != VFLASH_IMG_FLASH_STATE && !f->img_state_in) {
		pr_err("vflash%u: image: tables before the flash state\n", f->id);
		return -EINVAL;
	}
	ret = put_elems(f, s, first, nr, p);
	if (!ret)
		f->img_in[s] += nr;
	return ret;
}

/*
 * Every die's open blocks are open, for their stream and region, with
 * room left (a full block is sealed at once); bad blocks as counted.
 */
static int check_open(struct vflash_flash *f, char *why, size_t size)
{
	u32 d, s, r, b, bad[VFF_NR_REGIONS] = {};

	for (d = 0; d < f->nr_dies; d++)
		for (s = 0; s < VFF_NR_STREAMS; s++)
			for (r = 0; r < VFF_NR_REGIONS; r++) {
				b = f->dies[d].open[s][r];
				if (b == VFF_INVALID ||
				    (f->blocks[b].state == VFF_BLK_OPEN &&
				     f->blocks[b].stream == s &&
				     f->blocks[b].wp < f->slots[r]))
					continue;
				snprintf(why, size,
					 "die %u stream %u region %u: open block %u is not open for it",
					 d, s, r, b);
				return -EINVAL;
			}
	for (b = 0; b < f->nr_blocks; b++)
		bad[vff_region_of(f, b)] += f->blocks[b].state == VFF_BLK_BAD;
	for (r = 0; r < VFF_NR_REGIONS; r++)
		if (bad[r] != atomic_read(&f->nr_bad[r])) {
			snprintf(why, size, "region %u: %u bad blocks, %d counted",
				 r, bad[r], atomic_read(&f->nr_bad[r]));
			return -EINVAL;
		}
	return 0;
}

/**
 * vflash_flash_img_finish() - check a restored model as a whole
 * @f: the device, every section put
 * @why: receives what is wrong
 * @size: size of @why
 *
 * Return: 0, -EINVAL (@why says why: the caller resets the device), or
 * -ENOMEM.
 */
int vflash_flash_img_finish(struct vflash_flash *f, char *why, size_t size)
{
	enum vflash_img_sect s;
	int ret;

	for (s = 0; s < VFLASH_IMG_FLASH_NR; s++)
		if (f->img_in[s] != vflash_flash_img_elems(f, s)) {
			snprintf(why, size, "section %u: %llu of %llu elements",
				 s, f->img_in[s], vflash_flash_img_elems(f, s));
			return -EINVAL;
		}
	if (vff_knob(f, VFLASH_KNOB_GC_LOW_PCT) >
	    vff_knob(f, VFLASH_KNOB_GC_HIGH_PCT) ||
	    vff_knob(f, VFLASH_KNOB_ZONE_DIES) > f->nr_dies) {
		snprintf(why, size, "knobs that contradict each other");
		return -EINVAL;
	}
	ret = check_open(f, why, size);
	if (!ret)
		ret = vflash_flash_check(f, why, size);
	return ret == -EUCLEAN ? -EINVAL : ret;
}

/**
 * vflash_flash_img_reset() - back to a new device after a refused restore
 * @f: the device, no request in flight, the worker stopped
 *
 * Completes whatever signal is pending: a half-reset model would not be
 * a new one.
 *
 * Return: 0, or -EINVAL (a policy kind without its default: a bug).
 */
int vflash_flash_img_reset(struct vflash_flash *f)
{
	return vff_init_state(f, false);
}
