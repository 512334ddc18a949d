// SPDX-License-Identifier: GPL-2.0
/*
 * Instant preconditioning: the state a workload leaves, computed by the
 * FTL's own write and cleaning code on a virtual clock, the device idle
 * after it (docs/design/precondition.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "backend_flash/ftl.h"

#define PRE_WRITTEN_MAX_PCT	10000
#define PRE_PE_MAX		1000000
#define PRE_AGE_MAX_S		1000000000ULL
/* replay=auto replays one die for all from this many logical pages on. */
#define PRE_DIE_MIN_LPAGES	BIT_ULL(20)
/* A tile has at least this many main-region (and SLC) blocks. */
#define PRE_TILE_BLOCKS		256
#define PRE_TILE_SLC_BLOCKS	64
/* Pages between reschedules and checks for a fatal signal. */
#define PRE_BATCH		4096
/* Tables are wiped this much at a time. */
#define PRE_WIPE_STEP_BYTES	(4UL << 20)

static const char * const workload_names[VFLASH_PRE_NR] = {
	[VFLASH_PRE_SEQ] = "seq",
	[VFLASH_PRE_RANDOM] = "random",
	[VFLASH_PRE_HOTCOLD] = "hotcold",
};

static const char * const replay_names[VFLASH_PRE_REPLAY_NR] = {
	[VFLASH_PRE_AUTO] = "auto",
	[VFLASH_PRE_FULL] = "full",
	[VFLASH_PRE_DIE] = "die",
	[VFLASH_PRE_TILE] = "tile",
};

static __printf(3, 4) int refuse(struct vflash_flash *f, int err,
				 const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("vflash%u: precondition: %pV\n", f->id, &vaf);
	va_end(args);
	return err;
}

static int name_index(const char * const *names, int n, const char *val)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], val))
			return i;
	return -1;
}

/* One "KEY=VALUE" word into @p; -EINVAL after one dmesg line. */
static int parse_word(struct vflash_flash *f, char *word,
		      struct vflash_precondition *p)
{
	char *val = strchr(word, '=');
	u32 a, b;
	int i;

	if (!val)
		return refuse(f, -EINVAL, "%s: not KEY=VALUE", word);
	*val++ = '\0';
	if (!strcmp(word, "workload")) {
		i = name_index(workload_names, VFLASH_PRE_NR, val);
		if (i < 0)
			return refuse(f, -EINVAL, "workload=%s: not seq, random or hotcold",
				      val);
		p->workload = i;
	} else if (!strcmp(word, "replay")) {
		i = name_index(replay_names, VFLASH_PRE_REPLAY_NR, val);
		if (i < 0)
			return refuse(f, -EINVAL, "replay=%s: not auto, full, die or tile",
				      val);
		p->replay = i;
	} else if (!strcmp(word, "hot")) {
		if (sscanf(val, "%u:%u", &a, &b) != 2 ||
		    strspn(val, "0123456789:") != strlen(val))
			return refuse(f, -EINVAL, "hot=%s: not LBA_PCT:WRITE_PCT",
				      val);
		p->hot_lba_pct = a;
		p->hot_write_pct = b;
	} else if (!strcmp(word, "fill")) {
		if (kstrtou32(val, 10, &p->fill_pct))
			return refuse(f, -EINVAL, "fill=%s: not a number", val);
	} else if (!strcmp(word, "written")) {
		if (kstrtou32(val, 10, &p->written_pct))
			return refuse(f, -EINVAL, "written=%s: not a number", val);
	} else if (!strcmp(word, "pe")) {
		if (kstrtou64(val, 10, &p->pe_cycles))
			return refuse(f, -EINVAL, "pe=%s: not a number", val);
	} else if (!strcmp(word, "age")) {
		if (kstrtou64(val, 10, &p->age_s))
			return refuse(f, -EINVAL, "age=%s: not a number", val);
	} else if (!strcmp(word, "seed")) {
		if (kstrtou64(val, 0, &p->seed))
			return refuse(f, -EINVAL, "seed=%s: not a number", val);
	} else {
		return refuse(f, -EINVAL, "%s: no such key (see %s)", word,
			      "docs/design/precondition.md");
	}
	return 0;
}

static u32 max_erase_count(const struct vflash_flash *f)
{
	u32 b, m = 0;

	for (b = 0; b < f->nr_blocks; b++)
		m = max(m, f->blocks[b].erase_count);
	return m;
}

/* Pages of a die's LBAs that go together by LBA (1: round robin), 0: none. */
static u32 die_extent(const struct vflash_flash *f)
{
	const struct vflash_placement_ops *pl =
		vff_ops(f, VFLASH_POLICY_PLACEMENT);

	return pl->round_robin ? 1 : pl->lba_extent;
}

/* Tiles a die holds (docs/design/precondition.md); below 2, none. */
static u32 tiles_per_die(const struct vflash_flash *f)
{
	u32 q = (f->blocks_per_die - f->slc_per_die) / PRE_TILE_BLOCKS;

	if (f->hybrid)
		q = min(q, f->slc_per_die / PRE_TILE_SLC_BLOCKS);
	return q;
}

/* The request's values against their ranges; -EINVAL after one line. */
static int check_request(struct vflash_flash *f,
			 const struct vflash_precondition *p)
{
	if (p->workload >= VFLASH_PRE_NR)
		return refuse(f, -EINVAL, "workload= is required (seq, random or hotcold)");
	if (p->fill_pct < 1 || p->fill_pct > 100)
		return refuse(f, -EINVAL, "fill=%u: not in 1-100", p->fill_pct);
	if (p->written_pct < p->fill_pct ||
	    p->written_pct > PRE_WRITTEN_MAX_PCT)
		return refuse(f, -EINVAL, "written=%u: not in %u (fill)-%u",
			      p->written_pct, p->fill_pct,
			      PRE_WRITTEN_MAX_PCT);
	if (p->hot_lba_pct < 1 || p->hot_lba_pct > 99 ||
	    p->hot_write_pct < 1 || p->hot_write_pct > 99)
		return refuse(f, -EINVAL, "hot=%u:%u: each not in 1-99",
			      p->hot_lba_pct, p->hot_write_pct);
	if (p->pe_cycles > PRE_PE_MAX ||
	    p->pe_cycles + max_erase_count(f) > U32_MAX)
		return refuse(f, -EINVAL, "pe=%llu: not in 0-%u", p->pe_cycles,
			      PRE_PE_MAX);
	if (p->age_s > PRE_AGE_MAX_S)
		return refuse(f, -EINVAL, "age=%llu: not in 0-%llu", p->age_s,
			      PRE_AGE_MAX_S);
	if (p->replay >= VFLASH_PRE_REPLAY_NR)
		return refuse(f, -EINVAL, "replay=%u: not auto, full, die or tile",
			      p->replay);
	if ((p->replay == VFLASH_PRE_DIE || p->replay == VFLASH_PRE_TILE) &&
	    !die_extent(f))
		return refuse(f, -EINVAL, "replay=%s: placement %s treats dies apart",
			      replay_names[p->replay],
			      READ_ONCE(f->policy[VFLASH_POLICY_PLACEMENT])->name);
	if (p->replay == VFLASH_PRE_TILE && tiles_per_die(f) < 2)
		return refuse(f, -EINVAL, "replay=tile: %u blocks a die make no two tiles of %u",
			      f->blocks_per_die, PRE_TILE_BLOCKS);
	return 0;
}

/**
 * vflash_flash_precondition_parse() - read an instant preconditioning line
 * @f: the device (its number for the dmesg line, its geometry)
 * @line: "KEY=VALUE ..." (docs/design/precondition.md), a newline allowed
 * @p: receives the request, defaults for the keys not given
 *
 * Return: 0, -ENOMEM, or -EINVAL after one dmesg line naming the key.
 */
int vflash_flash_precondition_parse(struct vflash_flash *f, const char *line,
				    struct vflash_precondition *p)
{
	char *buf, *cur, *word;
	int ret = 0;

	*p = (struct vflash_precondition) {
		.workload = VFLASH_PRE_NR, .fill_pct = 100, .written_pct = 200,
		.hot_lba_pct = 20, .hot_write_pct = 80, .seed = 1,
		.replay = VFLASH_PRE_AUTO,
	};
	buf = kstrdup(line, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cur = buf;
	while (!ret && (word = strsep(&cur, " \t\n"))) {
		if (*word)
			ret = parse_word(f, word, p);
	}
	kfree(buf);
	return ret ?: check_request(f, p);
}

/* splitmix64: a seeded, fast, well-mixed sequence. */
static u64 pre_rand(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, @n), @n < 2^32. */
static u64 pre_below(u64 *s, u64 n)
{
	return ((pre_rand(s) >> 32) * n) >> 32;
}

/**
 * struct pre_gen - the workload's LBA sequence over [0, @n)
 * @state: the generator's state
 * @i: pages given so far
 * @n: the filled LBAs
 * @hot: the first @hot are the hot ones (hot/cold)
 * @workload: enum vflash_pre_workload
 * @hot_write_pct: the writes that go to them
 */
struct pre_gen {
	u64 state;
	u64 i;
	u64 n;
	u64 hot;
	u32 workload;
	u32 hot_write_pct;
};

/* A sequential pass first, so that the filled LBAs are the mapped ones. */
static u64 pre_next(struct pre_gen *g)
{
	u64 i = g->i++;

	if (i < g->n)
		return i;
	switch (g->workload) {
	case VFLASH_PRE_SEQ:
		div64_u64_rem(i, g->n, &i);
		return i;
	case VFLASH_PRE_HOTCOLD:
		if (g->hot < g->n) {
			if (pre_below(&g->state, 100) < g->hot_write_pct)
				return pre_below(&g->state, g->hot);
			return g->hot + pre_below(&g->state, g->n - g->hot);
		}
		fallthrough;
	default:
		return pre_below(&g->state, g->n);
	}
}

/* Die @d's LBA for sub-LBA @j of the one-die replay (die_extent() @x). */
static u64 pre_lba(const struct vflash_flash *f, u64 j, u32 d, u32 x)
{
	u32 rem;
	u64 q = div_u64_rem(j, x, &rem);

	return q * x * f->nr_dies + (u64)d * x + rem;
}

/* How many of die @d's sub-LBAs are below @fill. */
static u64 pre_share(const struct vflash_flash *f, u64 fill, u32 d, u32 x)
{
	u64 rem, rounds = div64_u64_rem(fill, (u64)x * f->nr_dies, &rem);

	return rounds * x + clamp_t(s64, (s64)rem - (s64)d * x, 0, x);
}

static void wipe_table(void *table, int c, u64 bytes)
{
	u64 off;

	for (off = 0; off < bytes; off += PRE_WIPE_STEP_BYTES) {
		memset(table + off, c, min_t(u64, bytes - off,
					     PRE_WIPE_STEP_BYTES));
		cond_resched();
	}
}

/* An empty model: nothing mapped, every block free (erase counts kept). */
static void pre_wipe(struct vflash_flash *f)
{
	u32 b, d, k;

	wipe_table(f->l2p, 0xff, f->nr_lpages * sizeof(*f->l2p));
	wipe_table(f->heat, 0, vff_heat_bytes(f->nr_lpages));
	for (b = 0; b < f->nr_blocks; b++) {
		struct vff_block *blk = &f->blocks[b];

		atomic_set(&blk->valid, 0);
		blk->wp = 0;
		blk->stream = 0;
		blk->seal_seq = 0;
		blk->seal_ns = 0;
	}
	for (d = 0; d < f->nr_dies; d++)
		vff_init_die(f, d);
	for (d = 0; d < f->nr_channels; d++)
		vff_link_reset(&f->channels[d].link, 0);
	vff_link_reset(&f->host, 0);
	atomic64_set(&f->seal_seq, 0);
	atomic64_set(&f->cursor, 0);
	WRITE_ONCE(f->no_room, false);
	for (k = 0; k < VFLASH_FLASH_MAX_PLACEMENT; k++) {
		atomic64_set(&f->ph_moved[k], 0);
		f->ph_moved_lpn[k] = 0;
		atomic64_set(&f->ph_retired[k], 0);
	}
	memset(f->zmap, 0, sizeof(f->zmap));
}

/* Every die, channel and the host link idle from @now; programs done. */
static void pre_idle(struct vflash_flash *f, u64 now)
{
	u32 d;

	for (d = 0; d < f->nr_dies; d++) {
		struct vff_die *die = &f->dies[d];

		die->trace_req = 0;
		die->busy_until_ns = now;
		die->fg_busy_until_ns = now;
		die->deferred_ns = 0;
		die->wb_head = 0;
		die->wb_count = 0;
		die->wb_used = 0;
		/* wb_pending: a partly filled host unit stays buffered. */
		die->durable_ns = 0;
		memset(die->bg_start_ns, 0, sizeof(die->bg_start_ns));
		memset(die->bg_end_ns, 0, sizeof(die->bg_end_ns));
		die->bg_last = 0;
	}
	for (d = 0; d < f->nr_channels; d++)
		vff_link_reset(&f->channels[d].link, now);
	vff_link_reset(&f->host, now);
}

/* When the replay's last operation ends, on its virtual clock. */
static u64 pre_end(const struct vflash_flash *f, u64 t)
{
	u32 d;

	for (d = 0; d < f->nr_dies; d++)
		t = max(t, f->dies[d].busy_until_ns);
	for (d = 0; d < f->nr_channels; d++)
		t = max(t, vff_link_busy_until(&f->channels[d].link));
	return t;
}

/*
 * The worker's passes come every 1.5 periods on average (it sleeps 1-2):
 * so many on the replay's clock, that of a host that keeps the device busy.
 */
#define PRE_WORKER_NS	(3 * VFF_WORKER_PERIOD_US * NSEC_PER_USEC / 2)

/*
 * The workload's @writes pages over sub-LBAs [0, @n): on die @die (one-die
 * replay, die_extent() @x) or where placement puts them (@die VFF_INVALID).
 * *@t is the virtual clock, the worker's passes @period apart on it.
 * Returns 0, -EINTR or -ENOSPC.
 */
static int pre_replay(struct vflash_flash *f,
		      const struct vflash_precondition *p, u64 n, u64 writes,
		      u32 die, u32 x, u64 period, u64 *t)
{
	struct pre_gen g = {
		.state = p->seed, .n = n, .workload = p->workload,
		.hot_write_pct = p->hot_write_pct,
		.hot = max_t(u64, div_u64(n * p->hot_lba_pct, 100), 1),
	};
	u64 i, pass = *t + period;
	u32 d;

	for (i = 0; i < writes; i++) {
		u64 j = pre_next(&g);
		u64 lpn = die == VFF_INVALID ? j : pre_lba(f, j, die, x);

		d = die;
		if (!vff_host_write(f, lpn, &d, t))
			return refuse(f, -ENOSPC, "no slot for page %llu: the model is left empty",
				      lpn);
		/* The worker's passes (vflash_flash_maintain()). */
		if (*t >= pass) {
			if (die != VFF_INVALID)
				vff_maintain_die(f, die, *t);
			else
				vflash_flash_maintain(f, *t);
			pass = *t + period;
		}
		if (i % PRE_BATCH == PRE_BATCH - 1) {
			cond_resched();
			if (fatal_signal_pending(current))
				return refuse(f, -EINTR, "interrupted: the model is left empty");
		}
	}
	return 0;
}

/*
 * Die 0's state onto every other die: sub-LBA j is LBA pre_lba(j, d) there;
 * a sub-LBA of die 0 beyond @fill on die d leaves its slot invalid.
 * @before: die 0's erase counts before the replay.
 */
static int pre_copy(struct vflash_flash *f, u64 fill, u64 n0, u32 x,
		    const u32 *before)
{
	u32 nd = f->nr_dies, bpd = f->blocks_per_die, d, i, s, r;
	u64 j, top = 0;

	for (d = 1; d < nd; d++) {
		struct vff_die *die = &f->dies[d], *d0 = &f->dies[0];
		u32 off = d * bpd;

		for (i = 0; i < bpd; i++) {
			struct vff_block *src = &f->blocks[i];
			struct vff_block *dst = &f->blocks[off + i];

			atomic_set(&dst->valid, atomic_read(&src->valid));
			dst->wp = src->wp;
			dst->state = src->state;
			dst->stream = src->stream;
			dst->next = src->next == VFF_INVALID ? VFF_INVALID :
				    src->next + off;
			dst->erase_count += src->erase_count - before[i];
			dst->seal_seq = src->seal_seq ?
					src->seal_seq * nd + d : 0;
			dst->seal_ns = src->seal_ns;
		}
		for (r = 0; r < VFF_NR_REGIONS; r++) {
			die->free_head[r] = d0->free_head[r] == VFF_INVALID ?
					    VFF_INVALID : d0->free_head[r] + off;
			die->nr_free[r] = d0->nr_free[r];
			for (s = 0; s < VFF_NR_STREAMS; s++)
				die->open[s][r] = d0->open[s][r] == VFF_INVALID ?
						  VFF_INVALID :
						  d0->open[s][r] + off;
		}
		die->wb_pending = d0->wb_pending;
		cond_resched();
	}
	for (i = 0; i < bpd; i++) {
		top = max(top, f->blocks[i].seal_seq);
		f->blocks[i].seal_seq *= nd;
	}
	atomic64_set(&f->seal_seq, top * nd + nd - 1);

	for (j = 0; j < n0; j++) {
		u32 slot = f->l2p[pre_lba(f, j, 0, x)];

		if (slot == VFF_INVALID)
			continue;
		for (d = 1; d < nd; d++) {
			u64 lpn = pre_lba(f, j, d, x);
			u32 to = slot + d * bpd * f->stride;

			if (lpn < fill) {
				vff_p2l_set(f, to, lpn);
				f->l2p[lpn] = to;
			} else {
				atomic_dec(&f->blocks[vff_block_of(f, to)].valid);
			}
		}
		if (j % (64 * PRE_BATCH) == 0)
			cond_resched();
	}
	return 0;
}

static u64 copied(struct vflash_flash *f)
{
	return vflash_flash_stat(f, VFLASH_STAT_GC_COPIED_PAGES) +
	       vflash_flash_stat(f, VFLASH_STAT_MIGRATED_PAGES);
}

/* A full block's seal time on the replay's clock becomes its data's age. */
static void pre_seal_ages(struct vflash_flash *f, u64 end, u64 age_ns)
{
	u64 end_ac = vff_age_clock(f, end);
	u32 b;

	for (b = 0; b < f->nr_blocks; b++) {
		struct vff_block *blk = &f->blocks[b];

		if (blk->state != VFF_BLK_FULL)
			blk->seal_ns = 0;
		else
			blk->seal_ns = (end_ac > blk->seal_ns ?
					end_ac - blk->seal_ns : 0) + age_ns;
	}
}

/*
 * The ages that full blocks' seal_ns hold become seal times on the age
 * clock at @now, which runs ahead if the oldest is older than the uptime.
 */
static void pre_ages(struct vflash_flash *f, u64 now)
{
	u64 oldest = 0, clock;
	u32 b;

	for (b = 0; b < f->nr_blocks; b++)
		if (f->blocks[b].state == VFF_BLK_FULL)
			oldest = max(oldest, f->blocks[b].seal_ns);
	clock = vff_age_clock(f, now);
	if (oldest > clock) {
		f->age_base_ns += oldest - clock;
		clock = oldest;
	}
	for (b = 0; b < f->nr_blocks; b++)
		if (f->blocks[b].state == VFF_BLK_FULL)
			f->blocks[b].seal_ns = clock - f->blocks[b].seal_ns;
}

/* A free block on its die's list (pushed at the head). */
static void pre_free(struct vflash_flash *f, struct vff_die *die,
		     enum vff_region r, u32 b)
{
	struct vff_block *blk = &f->blocks[b];

	atomic_set(&blk->valid, 0);
	blk->wp = 0;
	blk->state = VFF_BLK_FREE;
	blk->stream = 0;
	blk->seal_seq = 0;
	blk->seal_ns = 0;
	blk->next = die->free_head[r];
	die->free_head[r] = b;
	die->nr_free[r]++;
}

/**
 * struct pre_layout - where a tile's blocks go on a die
 * @q: tiles per die
 * @first: per region, the region's first block of a die: the tile's, then
 *	the device's
 * @n: per region, blocks of the tile's region, then the device's
 */
struct pre_layout {
	u32 q;
	u32 first[2][VFF_NR_REGIONS];
	u32 n[2][VFF_NR_REGIONS];
};

static void pre_layout_of(struct pre_layout *l, const struct vflash_flash *t,
			  const struct vflash_flash *f, u32 q)
{
	const struct vflash_flash *of[2] = { t, f };
	u32 k;

	l->q = q;
	for (k = 0; k < 2; k++) {
		l->first[k][VFF_SLC] = 0;
		l->n[k][VFF_SLC] = of[k]->slc_per_die;
		l->first[k][VFF_MAIN] = of[k]->slc_per_die;
		l->n[k][VFF_MAIN] = of[k]->blocks_per_die - of[k]->slc_per_die;
	}
}

/*
 * The tile's blocks onto die @d: copy c of tile block i of a region is
 * the die's block c * n + i of that region; the blocks beyond q copies are
 * free. The first copy of an open block stays open, the others are full
 * (padded). Full blocks' seal_ns hold ages: the tile's times @q, plus
 * @age_ns.
 */
static void pre_lay_die(struct vflash_flash *f, struct vflash_flash *t,
			const struct pre_layout *l, u32 d, u64 t_end,
			u64 age_ns)
{
	struct vff_die *die = &f->dies[d];
	u64 end_ac = vff_age_clock(t, t_end);
	u64 top = atomic64_read(&t->seal_seq) + 1;
	u32 nd = f->nr_dies, s, r, k;

	for (r = 0; r < VFF_NR_REGIONS; r++) {
		die->free_head[r] = VFF_INVALID;
		die->nr_free[r] = 0;
		for (s = 0; s < VFF_NR_STREAMS; s++)
			die->open[s][r] = VFF_INVALID;
		if (!l->n[1][r])
			continue;
		for (k = l->n[1][r]; k-- > 0;) {
			u32 b = d * f->blocks_per_die + l->first[1][r] + k;
			u32 c = k / l->n[0][r], i = k % l->n[0][r];
			struct vff_block *dst = &f->blocks[b], *src;

			src = &t->blocks[l->first[0][r] + i];
			if (c >= l->q || src->state == VFF_BLK_FREE) {
				pre_free(f, die, r, b);
				continue;
			}
			dst->erase_count += src->erase_count;
			atomic_set(&dst->valid, atomic_read(&src->valid));
			dst->wp = src->wp;
			dst->stream = src->stream;
			dst->next = VFF_INVALID;
			if (src->state == VFF_BLK_OPEN && !c) {
				dst->state = VFF_BLK_OPEN;
				dst->seal_seq = 0;
				dst->seal_ns = 0;
				die->open[src->stream][r] = b;
			} else if (src->state == VFF_BLK_OPEN) {
				dst->state = VFF_BLK_FULL;
				dst->wp = f->slots[r];
				dst->seal_seq = (top * l->q + c) * nd + d;
				dst->seal_ns = age_ns;
			} else {
				dst->state = VFF_BLK_FULL;
				dst->seal_seq = (src->seal_seq * l->q + c) * nd + d;
				dst->seal_ns = (end_ac > src->seal_ns ?
						end_ac - src->seal_ns : 0) * l->q +
					       age_ns;
			}
		}
	}
	die->wb_pending = t->dies[0].wb_pending;
}

/* Where a block's slot @off is in p2l: vff_p2l_index() without divisions. */
static u64 pre_p2l_index(const struct vflash_flash *f, u32 d, u32 i, u32 off)
{
	u64 idx = (u64)d * f->p2l_per_die + off;

	if (i < f->slc_per_die)
		return idx + (u64)i * f->slots[VFF_SLC];
	return idx + (u64)f->slc_per_die * f->slots[VFF_SLC] +
	       (u64)(i - f->slc_per_die) * f->slots[VFF_MAIN];
}

/*
 * The tile's mapping onto every die: its page k of copy c is die d's
 * sub-LBA c * n_t + k, an LBA if below die d's share of @fill (else its
 * slot is left invalid). Copy by copy, page by page, die by die: l2p is
 * written in order (under round-robin placement).
 */
static int pre_lay_map(struct vflash_flash *f, struct vflash_flash *t,
		       const struct pre_layout *l, u64 fill, u32 x)
{
	u32 nd = f->nr_dies, d, c;
	u64 *share, k, nt = t->nr_lpages;

	share = kcalloc(nd, sizeof(*share), GFP_KERNEL);
	if (!share)
		return -ENOMEM;
	for (d = 0; d < nd; d++)
		share[d] = pre_share(f, fill, d, x);
	for (c = 0; c < l->q; c++) {
		for (k = 0; k < nt; k++) {
			u32 ts = t->l2p[k], tb, off, i;
			u64 j = c * nt + k, lpn;
			enum vff_region r;

			if (ts == VFF_INVALID)
				continue;
			tb = vff_block_of(t, ts);
			off = ts - tb * t->stride;
			r = vff_region_of(t, tb);
			/* The block's index in every die of @f. */
			i = l->first[1][r] + c * l->n[0][r] + tb -
			    l->first[0][r];
			lpn = pre_lba(f, j, 0, x);
			for (d = 0; d < nd; d++, lpn += x) {
				u32 b = d * f->blocks_per_die + i;
				u32 g = (lpn >> f->p2l_shift);
				u8 *e;

				if (j >= share[d]) {
					atomic_dec(&f->blocks[b].valid);
					continue;
				}
				e = f->p2l + VFF_P2L_BYTES *
				    pre_p2l_index(f, d, i, off);
				e[0] = g;
				e[1] = g >> 8;
				e[2] = g >> 16;
				f->l2p[lpn] = b * f->stride + off;
			}
			if (!(k % (16 * PRE_BATCH)))
				cond_resched();
		}
	}
	kfree(share);
	return 0;
}

/*
 * The tile replay: a scratch device of one die with 1/@q of a die's blocks
 * in each region replays 1/@q of die 0's share, its worker passes @q times
 * as often on its clock (a tile takes a die's pages @q times faster), and
 * is laid @q times over every die of @f (wiped). Its clock's times count
 * @q times.
 */
static int pre_tile(struct vflash_flash *f, const struct vflash_precondition *p,
		    u64 fill, u64 writes, u32 x, u32 q, u64 now,
		    struct vflash_precondition_result *res)
{
	struct vflash_profile prof = *f->prof;
	u64 nt = DIV_ROUND_UP(pre_share(f, fill, 0, x), q), t_clock = now;
	u32 main_t = (f->blocks_per_die - f->slc_per_die) / q;
	u32 slc_t = f->slc_per_die / q, d, k;
	struct pre_layout l;
	struct vflash_flash *t;
	u64 start;
	int ret;

	prof.channels = 1;
	prof.dies_per_channel = 1;
	prof.placement_handles = f->nr_ph;
	t = vff_create_tile(&prof, nt, main_t, slc_t);
	if (IS_ERR(t))
		return PTR_ERR(t);
	memcpy(t->knob, f->knob, sizeof(t->knob));
	/* A die's share of the write buffer, as on the device. */
	t->knob[VFLASH_KNOB_WRITE_BUFFER_BYTES] =
		div_u64(f->knob[VFLASH_KNOB_WRITE_BUFFER_BYTES], f->nr_dies);
	for (k = 0; k < VFLASH_POLICY_NR; k++)
		t->policy[k] = READ_ONCE(f->policy[k]);
	t->id = f->id;

	writes = mul_u64_u64_div_u64(writes, nt, fill);
	start = ktime_get_ns();
	ret = pre_replay(t, p, nt, writes, VFF_INVALID, 1,
			 div_u64(PRE_WORKER_NS, q), &t_clock);
	res->replay_ns = ktime_get_ns() - start;
	res->host_pages = writes;
	res->program_pages = vflash_flash_stat(t, VFLASH_STAT_NAND_PROGRAM_PAGES);
	res->copied_pages = copied(t);
	res->erased_blocks = vflash_flash_stat(t, VFLASH_STAT_NAND_ERASE_BLOCKS);
	res->tiles = q;
	if (ret)
		goto out;
	t_clock = pre_end(t, t_clock);

	start = ktime_get_ns();
	pre_layout_of(&l, t, f, q);
	for (d = 0; d < f->nr_dies; d++) {
		pre_lay_die(f, t, &l, d, t_clock, p->age_s * NSEC_PER_SEC);
		cond_resched();
	}
	atomic64_set(&f->seal_seq,
		     ((atomic64_read(&t->seal_seq) + 2) * q) * f->nr_dies);
	ret = pre_lay_map(f, t, &l, fill, x);
	res->copy_ns = ktime_get_ns() - start;
out:
	vflash_flash_destroy(t);
	return ret;
}

/* The device as it may be preconditioned, or -EBUSY after one line. */
static int check_device(struct vflash_flash *f)
{
	if (f->worker)
		return refuse(f, -EBUSY, "the GC worker runs: the device is not held");
	if (vff_failures_possible(f))
		return refuse(f, -EBUSY, "bad blocks, or program or erase failures armed");
	if (vff_undo_waiting(f))
		return refuse(f, -EBUSY, "power-loss records wait on open units");
	if (READ_ONCE(f->zone_ph))
		return refuse(f, -EBUSY, "the device has zone handles");
	return 0;
}

/**
 * struct pre_handles - the per-handle counters a frontend reports from
 * @moved: vflash_flash.ph_moved
 * @moved_lpn: vflash_flash.ph_moved_lpn
 * @retired: vflash_flash.ph_retired
 *
 * They are never reset (the NVMe frontend's FDP events are their
 * increments, kept across holds and in images): the replay's moves are no
 * host's history, so they are put back as they were after it.
 */
struct pre_handles {
	u64 moved[VFLASH_FLASH_MAX_PLACEMENT];
	u64 moved_lpn[VFLASH_FLASH_MAX_PLACEMENT];
	u64 retired[VFLASH_FLASH_MAX_PLACEMENT];
};

static void pre_handles_save(const struct vflash_flash *f,
			     struct pre_handles *h)
{
	u32 k;

	for (k = 0; k < VFLASH_FLASH_MAX_PLACEMENT; k++) {
		h->moved[k] = atomic64_read(&f->ph_moved[k]);
		h->moved_lpn[k] = f->ph_moved_lpn[k];
		h->retired[k] = atomic64_read(&f->ph_retired[k]);
	}
}

static void pre_handles_put(struct vflash_flash *f,
			    const struct pre_handles *h)
{
	u32 k;

	for (k = 0; k < VFLASH_FLASH_MAX_PLACEMENT; k++) {
		atomic64_set(&f->ph_moved[k], h->moved[k]);
		f->ph_moved_lpn[k] = h->moved_lpn[k];
		atomic64_set(&f->ph_retired[k], h->retired[k]);
	}
}

static int pre_run(struct vflash_flash *f, const struct vflash_precondition *p,
		   u64 now, struct vflash_precondition_result *res)
{
	u64 fill = max_t(u64, div_u64(f->nr_lpages * p->fill_pct, 100), 1);
	u64 writes = div_u64(f->nr_lpages * p->written_pct, 100);
	u32 x = die_extent(f), *before = NULL, b, i;
	u64 t = now, n = fill, start, prog0, copy0, erase0;
	struct pre_handles handles;
	char why[160];
	int ret;

	pre_handles_save(f, &handles);
	writes = max(writes, fill);
	res->replay = p->replay;
	if (res->replay == VFLASH_PRE_AUTO && x &&
	    f->nr_lpages >= PRE_DIE_MIN_LPAGES)
		res->replay = tiles_per_die(f) >= 2 ? VFLASH_PRE_TILE :
			      f->nr_dies > 1 ? VFLASH_PRE_DIE : VFLASH_PRE_FULL;
	if (res->replay == VFLASH_PRE_AUTO)
		res->replay = VFLASH_PRE_FULL;
	if (res->replay == VFLASH_PRE_TILE) {
		pre_wipe(f);
		ret = pre_tile(f, p, fill, writes, x, tiles_per_die(f), now,
			       res);
		if (ret)
			goto err;
		pre_idle(f, now);
		goto aged;
	}
	if (res->replay == VFLASH_PRE_DIE) {
		before = kvmalloc_array(f->blocks_per_die, sizeof(*before),
					GFP_KERNEL);
		if (!before)
			return -ENOMEM;
		for (i = 0; i < f->blocks_per_die; i++)
			before[i] = f->blocks[i].erase_count;
		n = pre_share(f, fill, 0, x);
		writes = mul_u64_u64_div_u64(writes, n, fill);
	}

	pre_wipe(f);
	prog0 = vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES);
	copy0 = copied(f);
	erase0 = vflash_flash_stat(f, VFLASH_STAT_NAND_ERASE_BLOCKS);
	start = ktime_get_ns();
	ret = pre_replay(f, p, n, writes,
			 res->replay == VFLASH_PRE_DIE ? 0 : VFF_INVALID, x,
			 PRE_WORKER_NS, &t);
	res->replay_ns = ktime_get_ns() - start;
	res->host_pages = writes;
	res->program_pages = vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES) -
			     prog0;
	res->copied_pages = copied(f) - copy0;
	res->erased_blocks = vflash_flash_stat(f, VFLASH_STAT_NAND_ERASE_BLOCKS) -
			     erase0;
	t = pre_end(f, t);
	start = ktime_get_ns();
	if (!ret && res->replay == VFLASH_PRE_DIE)
		ret = pre_copy(f, fill, n, x, before);
	res->copy_ns = ktime_get_ns() - start;
	kvfree(before);
	if (ret)
		goto err;

	pre_idle(f, now);
	pre_seal_ages(f, t, p->age_s * NSEC_PER_SEC);
aged:
	pre_ages(f, now);
	for (b = 0; b < f->nr_blocks; b++)
		f->blocks[b].erase_count += p->pe_cycles;
	start = ktime_get_ns();
	ret = vflash_flash_check(f, why, sizeof(why));
	res->check_ns = ktime_get_ns() - start;
	if (ret == -EUCLEAN)
		ret = refuse(f, ret, "the FTL's invariants broke (%s): the model is left empty",
			     why);
	if (ret)
		goto err;
	pre_handles_put(f, &handles);
	vflash_flash_reset_stats(f);
	WRITE_ONCE(f->knob[VFLASH_KNOB_PRECONDITION], p->fill_pct == 100);
	res->done = true;
	return 0;
err:
	pre_wipe(f);
	pre_idle(f, now);
	pre_handles_put(f, &handles);
	vflash_flash_reset_stats(f);
	WRITE_ONCE(f->knob[VFLASH_KNOB_PRECONDITION], 0);
	return ret;
}

/**
 * vflash_flash_precondition() - put the model in the state a workload
 *	leaves, without timing
 * @f: the device, quiescent: no request in flight, the worker stopped (a
 *	held device)
 * @p: the request (vflash_flash_precondition_parse())
 * @now_ns: the current time: the device is idle from then on
 *
 * The mapping, valid counts, free lists, open blocks, erase counts and
 * seal times become those the FTL's own write and cleaning code leaves
 * after @p's workload on a new device (docs/design/precondition.md); the
 * counters are reset. The store is not the model's and is not touched.
 *
 * Return: 0; -EINVAL (a bad request) or -EBUSY (a device that may not be
 * preconditioned now), each after one dmesg line, nothing changed;
 * -ENOMEM, nothing changed; -EINTR (a fatal signal), -ENOSPC or -EUCLEAN
 * (bugs), after one dmesg line, with the model left empty.
 */
int vflash_flash_precondition(struct vflash_flash *f,
			      const struct vflash_precondition *p, u64 now_ns)
{
	struct vflash_precondition_result res = { };
	int ret;

	mutex_lock(&f->maint_lock);
	ret = check_request(f, p);
	if (!ret)
		ret = check_device(f);
	if (!ret)
		ret = pre_run(f, p, now_ns, &res);
	if (!ret) {
		f->pre_last = *p;
		f->pre_res = res;
	}
	mutex_unlock(&f->maint_lock);
	return ret;
}

/**
 * vflash_flash_precondition_show() - the last instant preconditioning
 * @f: the device
 * @buf: receives two lines: the request, and what the replay did
 * @size: its size
 *
 * Return: the length written ("none" before any run).
 */
int vflash_flash_precondition_show(struct vflash_flash *f, char *buf,
				   size_t size)
{
	const struct vflash_precondition *p = &f->pre_last;
	const struct vflash_precondition_result *r = &f->pre_res;

	if (!r->done)
		return scnprintf(buf, size, "none\n");
	return scnprintf(buf, size,
			 "workload=%s fill=%u written=%u hot=%u:%u pe=%llu age=%llu seed=%llu replay=%s\n"
			 "replay=%s tiles=%u host_pages=%llu program_pages=%llu copied_pages=%llu erased_blocks=%llu write_amplification=%llu replay_ms=%llu copy_ms=%llu check_ms=%llu\n",
			 workload_names[p->workload], p->fill_pct,
			 p->written_pct, p->hot_lba_pct, p->hot_write_pct,
			 p->pe_cycles, p->age_s, p->seed,
			 replay_names[p->replay], replay_names[r->replay],
			 r->tiles, r->host_pages, r->program_pages, r->copied_pages,
			 r->erased_blocks,
			 r->host_pages ? div64_u64(r->program_pages * 1000,
						   r->host_pages) : 0,
			 div_u64(r->replay_ns, NSEC_PER_MSEC),
			 div_u64(r->copy_ns, NSEC_PER_MSEC),
			 div_u64(r->check_ns, NSEC_PER_MSEC));
}
