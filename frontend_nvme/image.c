// SPDX-License-Identifier: GPL-2.0
/*
 * The NVMe frontend's part of a device image (docs/design/image.md): what
 * a real drive keeps across a power cycle, which a held device keeps in
 * its controller (VFN_KEPT_BYTES). One buffer, little-endian, in this order:
 *
 *   magic, the configuration it was made with (checked, never taken),
 *   SMART's counters, FDP, the zone handles, the 32 namespace slots (a
 *   zoned one with its zones and extensions), Write Uncorrectable's runs.
 *
 * Times (a zone's age) are kept relative to the moment of saving.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define MAGIC		"VFNVME\0\1"
#define NO_ZONE		U32_MAX
#define NO_AGE		U64_MAX

/* A writer: with @p NULL it only counts. */
struct wr {
	u8 *p;
	size_t len;
};

static void put(struct wr *w, const void *src, size_t n)
{
	if (w->p)
		memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void put8(struct wr *w, u8 v)
{
	put(w, &v, 1);
}

static void put16(struct wr *w, u16 v)
{
	__le16 x = cpu_to_le16(v);

	put(w, &x, sizeof(x));
}

static void put32(struct wr *w, u32 v)
{
	__le32 x = cpu_to_le32(v);

	put(w, &x, sizeof(x));
}

static void put64(struct wr *w, u64 v)
{
	__le64 x = cpu_to_le64(v);

	put(w, &x, sizeof(x));
}

/* A reader: a short buffer reads zeros and sets @bad. */
struct rd {
	const u8 *p;
	size_t len;
	size_t off;
	bool bad;
};

static void get(struct rd *r, void *dst, size_t n)
{
	if (r->len - r->off < n) {
		r->bad = true;
		r->off = r->len;
		memset(dst, 0, n);
		return;
	}
	memcpy(dst, r->p + r->off, n);
	r->off += n;
}

static u8 get8(struct rd *r)
{
	u8 v;

	get(r, &v, 1);
	return v;
}

static u16 get16(struct rd *r)
{
	__le16 x;

	get(r, &x, sizeof(x));
	return le16_to_cpu(x);
}

static u32 get32(struct rd *r)
{
	__le32 x;

	get(r, &x, sizeof(x));
	return le32_to_cpu(x);
}

static u64 get64(struct rd *r)
{
	__le64 x;

	get(r, &x, sizeof(x));
	return le64_to_cpu(x);
}

static void put_geo(struct wr *w, const struct vfn_zone_geo *g)
{
	put64(w, g->zsze);
	put64(w, g->zcap);
	put32(w, g->max_active);
	put32(w, g->max_open);
	put32(w, g->ext_bytes);
	put32(w, g->frl_s);
	put32(w, g->rrl_s);
	put32(w, g->zrwas);
	put32(w, g->zrwafg);
	put32(w, g->nr_zrwa);
}

static void get_geo(struct rd *r, struct vfn_zone_geo *g)
{
	g->zsze = get64(r);
	g->zcap = get64(r);
	g->max_active = get32(r);
	g->max_open = get32(r);
	g->ext_bytes = get32(r);
	g->frl_s = get32(r);
	g->rrl_s = get32(r);
	g->zrwas = get32(r);
	g->zrwafg = get32(r);
	g->nr_zrwa = get32(r);
}

static void put_ring(struct wr *w, const struct vfn_fdp_ring *ring)
{
	put(w, ring->ev, sizeof(ring->ev));
	put32(w, ring->next);
	put32(w, ring->nr);
}

static void put_zones(struct wr *w, const struct vfn_nsd *nd, u64 now)
{
	const struct vfn_zoned *z = &nd->zns;
	u32 i;

	put32(w, z->close_next);
	for (i = 0; i < VFN_ZC_NR; i++)
		put64(w, z->count[i]);
	put32(w, nd->nr_zones_changed);
	for (i = 0; i < min_t(u32, nd->nr_zones_changed, VFN_ZONES_CHANGED_MAX);
	     i++)
		put64(w, nd->zones_changed[i]);
	for (i = 0; i < z->nr_zones; i++) {
		const struct vfn_zone *zn = &z->zones[i];

		put64(w, zn->wp);
		put64(w, zn->written);
		put8(w, zn->state);
		put8(w, zn->ph);
		put8(w, zn->za);
		put8(w, zn->zrwa);
		put64(w, zn->state == VFN_ZS_EMPTY ? NO_AGE :
			 now - min(now, zn->since_ns));
	}
	if (z->ext_bytes)
		put(w, z->ext, (size_t)z->nr_zones * z->ext_bytes);
}

static void put_ns(struct wr *w, const struct vfn_nsd *nd, u64 now)
{
	u32 i;

	put8(w, nd->allocated);
	if (!nd->allocated)
		return;
	put64(w, nd->ns.nsze);
	put64(w, nd->ns.base);
	put32(w, nd->ns.id);
	put8(w, nd->ns.lba_shift);
	put8(w, nd->ns.zoned);
	put16(w, nd->ns.nr_ph);
	put(w, nd->ns.ruh, sizeof(nd->ns.ruh));
	put8(w, nd->ns.ruh_ctrl);
	put64(w, nd->pages);
	put32(w, nd->serial);
	put8(w, nd->attached);
	for (i = 0; i < VFN_ZC_NR; i++)
		put64(w, nd->zcounted[i]);
	if (nd->ns.zoned)
		put_zones(w, nd, now);
}

/* Where zone handle @h is lent: namespace slot and zone, or NO_ZONE. */
static void zph_of(const struct vfn_ctrl *c, u32 h, u32 *slot, u32 *zone)
{
	const struct vfn_zone *zn = c->zph[h];
	u32 i;

	*slot = NO_ZONE;
	*zone = NO_ZONE;
	if (!zn)
		return;
	for (i = 0; i < VFN_MAX_NS; i++) {
		const struct vfn_zoned *z = &c->nst.nsd[i].zns;

		if (c->nst.nsd[i].allocated && z->zones && zn >= z->zones &&
		    zn < z->zones + z->nr_zones) {
			*slot = i;
			*zone = zn - z->zones;
			return;
		}
	}
}

static void write_state(struct wr *w, const struct vfn_ctrl *c, u64 now)
{
	const struct vfn_nstab *t = &c->nst;
	u64 changed = 0, pos = 0, n;
	u32 i, slot, zone;

	put(w, MAGIC, 8);
	put8(w, t->lba_shift);
	put16(w, t->nruh);
	put32(w, c->nr_zph);
	put64(w, t->cap_pages);
	put_geo(w, &t->zgeo);
	put16(w, c->fdp.nruh);
	put64(w, c->fdp.runs_bytes);

	put32(w, t->serial);
	for (i = 0; i <= VFN_MAX_NS; i++)
		if (test_bit(i, t->changed))
			changed |= BIT_ULL(i);
	put64(w, changed);
	put64(w, c->host_read_cmds);
	put64(w, c->host_write_cmds);
	put64(w, c->host_read_units);
	put64(w, c->host_write_units);
	put64(w, c->powered_ns);
	put64(w, c->power_cycles);
	put64(w, c->unsafe_shutdowns);

	put(w, c->fdp.ev_enabled, sizeof(c->fdp.ev_enabled));
	put_ring(w, &c->fdp.host);
	put_ring(w, &c->fdp.ctrl);
	for (i = 0; i < VFN_FDP_MAX_RUH; i++) {
		put64(w, c->fdp.moved_seen[i]);
		put64(w, c->fdp.retired_seen[i]);
	}
	for (i = 0; i < c->nr_zph; i++) {
		zph_of(c, i, &slot, &zone);
		put32(w, slot);
		put32(w, zone);
	}
	for (i = 0; i < VFN_MAX_NS; i++)
		put_ns(w, &t->nsd[i], now);
	while (vfn_uncor_next(&t->uncor, &pos, &n)) {
		put64(w, pos);
		put64(w, n);
		pos += n;
	}
	put64(w, U64_MAX);
}

/**
 * vfn_img_save() - what a held controller keeps, as an image part
 * @c: the controller, detached (its dispatcher stopped)
 * @now: the moment of saving (ktime_get_ns())
 * @blob: receives the buffer, kvfree()d by the caller
 *
 * Return: its bytes, or -ENOMEM.
 */
ssize_t vfn_img_save(const struct vfn_ctrl *c, u64 now, void **blob)
{
	struct wr w = { };

	write_state(&w, c, now);
	w.p = kvmalloc(w.len, GFP_KERNEL);
	if (!w.p)
		return -ENOMEM;
	*blob = w.p;
	w.len = 0;
	write_state(&w, c, now);
	return w.len;
}

static __printf(2, 3) int refuse(struct vfn_ctrl *c, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_err(&c->vdev->dev, "image: nvme: %pV\n", &vaf);
	va_end(args);
	return -EINVAL;
}

static void get_ring(struct rd *r, struct vfn_fdp_ring *ring)
{
	get(r, ring->ev, sizeof(ring->ev));
	ring->next = get32(r);
	ring->nr = get32(r);
}

static bool zone_state_ok(u8 s)
{
	switch (s) {
	case VFN_ZS_EMPTY:
	case VFN_ZS_IOPEN:
	case VFN_ZS_EOPEN:
	case VFN_ZS_CLOSED:
	case VFN_ZS_RDONLY:
	case VFN_ZS_FULL:
	case VFN_ZS_OFFLINE:
		return true;
	default:
		return false;
	}
}

/* The zones of slot @i, its zones made (vfn_ns_make_zones()). */
static int get_zones(struct vfn_ctrl *c, struct rd *r, u32 i, u64 now)
{
	struct vfn_nsd *nd = &c->nst.nsd[i];
	struct vfn_zoned *z = &nd->zns;
	u32 k, active, open;

	z->close_next = get32(r);
	for (k = 0; k < VFN_ZC_NR; k++)
		z->count[k] = get64(r);
	nd->nr_zones_changed = get32(r);
	for (k = 0; k < min_t(u32, nd->nr_zones_changed, VFN_ZONES_CHANGED_MAX);
	     k++)
		nd->zones_changed[k] = get64(r);
	if (z->close_next >= z->nr_zones)
		return refuse(c, "namespace %u: zone %u to close next, of %u",
			      i + 1, z->close_next, z->nr_zones);
	for (k = 0; k < z->nr_zones && !r->bad; k++) {
		struct vfn_zone *zn = &z->zones[k];
		u64 start = (u64)k * z->zsze, age;
		u8 zrwa;

		zn->wp = get64(r);
		zn->written = get64(r);
		zn->state = get8(r);
		zn->ph = get8(r);
		zn->za = get8(r);
		zrwa = get8(r);
		zn->zrwa = zrwa;
		age = get64(r);
		zn->since_ns = age == NO_AGE ? 0 : now - min(now, age);
		if (!zone_state_ok(zn->state) || zn->wp < start ||
		    zn->wp > start + z->zcap || zn->written < start ||
		    zn->written > start + z->zsze || zn->ph >= max(1U, c->nr_zph) ||
		    zrwa > 1 || (zrwa && !z->zrwas))
			return refuse(c, "ns %u zone %u: state %u, wp %llu, written %llu, ph %u",
				      i + 1, k, zn->state, zn->wp, zn->written,
				      zn->ph);
		z->nr_iopen += zn->state == VFN_ZS_IOPEN;
		z->nr_eopen += zn->state == VFN_ZS_EOPEN;
		z->nr_closed += zn->state == VFN_ZS_CLOSED;
		z->nr_zrwa += zn->zrwa;
	}
	open = z->nr_iopen + z->nr_eopen;
	active = open + z->nr_closed;
	if ((z->max_open && open > z->max_open) ||
	    (z->max_active && active > z->max_active) ||
	    z->nr_zrwa > z->max_zrwa)
		return refuse(c, "ns %u: %u zones open, %u active, %u ZRWA: too many",
			      i + 1, open, active, z->nr_zrwa);
	if (z->ext_bytes)
		get(r, z->ext, (size_t)z->nr_zones * z->ext_bytes);
	return 0;
}

/* Slot @i: its namespace, checked against the table and the others. */
static int get_ns(struct vfn_ctrl *c, struct rd *r, u32 i, u64 now)
{
	struct vfn_nstab *t = &c->nst;
	struct vfn_nsd *nd = &t->nsd[i];
	u8 zoned, attached;
	u32 k;
	int ret;

	if (!get8(r))
		return 0;
	nd->ns.nsze = get64(r);
	nd->ns.base = get64(r);
	nd->ns.id = get32(r);
	nd->ns.lba_shift = get8(r);
	zoned = get8(r);
	nd->ns.zoned = zoned;
	nd->ns.nr_ph = get16(r);
	get(r, nd->ns.ruh, sizeof(nd->ns.ruh));
	nd->ns.ruh_ctrl = get8(r);
	nd->pages = get64(r);
	nd->serial = get32(r);
	attached = get8(r);
	nd->attached = attached;
	for (k = 0; k < VFN_ZC_NR; k++)
		nd->zcounted[k] = get64(r);
	if (r->bad)
		return 0;
	if (nd->ns.id != i + 1 || nd->ns.lba_shift != t->lba_shift ||
	    !nd->ns.nsze || nd->pages != vfn_ns_pages(t, nd->ns.nsze) ||
	    nd->ns.base > t->cap_pages ||
	    nd->pages > t->cap_pages - nd->ns.base ||
	    (nd->ns.zoned && !vfn_nstab_zoned(t)) ||
	    nd->ns.nr_ph > t->nruh || attached > 1 || zoned > 1)
		return refuse(c, "namespace %u: %llu blocks at page %llu: not one of this device",
			      i + 1, nd->ns.nsze, nd->ns.base);
	for (k = 0; k < nd->ns.nr_ph; k++)
		if (nd->ns.ruh[k] >= t->nruh)
			return refuse(c, "namespace %u: placement handle %u: RUH %u of %u",
				      i + 1, k, nd->ns.ruh[k], t->nruh);
	for (k = 0; k < i; k++) {
		const struct vfn_nsd *o = &t->nsd[k];

		if (o->allocated && o->ns.base < nd->ns.base + nd->pages &&
		    nd->ns.base < o->ns.base + o->pages)
			return refuse(c, "namespaces %u and %u overlap", k + 1,
				      i + 1);
	}
	if (nd->ns.zoned) {
		ret = vfn_ns_make_zones(t, nd);
		if (ret == -EINVAL)
			return refuse(c, "namespace %u: %llu blocks, not whole zones",
				      i + 1, nd->ns.nsze);
		if (ret)
			return ret;
	}
	/* From here vfn_nstab_exit() frees what it holds. */
	nd->allocated = true;
	return nd->ns.zoned ? get_zones(c, r, i, now) : 0;
}

/* Zone handle @h's zone: the one that says it holds @h. */
static int get_zph(struct vfn_ctrl *c, u32 h, u32 slot, u32 zone)
{
	const struct vfn_nsd *nd;

	c->zph[h] = NULL;
	if (slot == NO_ZONE && zone == NO_ZONE)
		return 0;
	nd = slot < VFN_MAX_NS ? &c->nst.nsd[slot] : NULL;
	if (!h || !nd || !nd->allocated || !nd->ns.zoned ||
	    zone >= nd->zns.nr_zones || nd->zns.zones[zone].ph != h)
		return refuse(c, "zone handle %u: zone %u of ns %u does not hold it",
			      h, zone, slot + 1);
	c->zph[h] = &nd->zns.zones[zone];
	return 0;
}

/* Every zone that holds a handle is the one the handle is lent to. */
static int check_handles(struct vfn_ctrl *c)
{
	u32 i, k;

	for (i = 0; i < VFN_MAX_NS; i++) {
		const struct vfn_nsd *nd = &c->nst.nsd[i];

		if (!nd->allocated || !nd->ns.zoned)
			continue;
		for (k = 0; k < nd->zns.nr_zones; k++) {
			u8 ph = nd->zns.zones[k].ph;

			if (ph && c->zph[ph] != &nd->zns.zones[k])
				return refuse(c, "zone %u of ns %u holds handle %u, lent elsewhere",
					      k, i + 1, ph);
		}
	}
	return 0;
}

static int get_uncor(struct vfn_ctrl *c, struct rd *r)
{
	u64 blocks = c->nst.cap_pages << (VFLASH_LPAGE_SHIFT -
					  c->nst.lba_shift);
	u64 next = 0, first, n;
	int ret;

	for (;;) {
		first = get64(r);
		if (r->bad || first == U64_MAX)
			return 0;
		n = get64(r);
		if (r->bad)
			return 0;
		if (first < next || !n || first >= blocks || n > blocks - first)
			return refuse(c, "uncorrectable blocks %llu+%llu: out of order or range",
				      first, n);
		ret = vfn_uncor_mark(&c->nst.uncor, first, n);
		if (ret)
			return ret;
		next = first + n;
	}
}

/**
 * vfn_img_load() - take an image part into a controller built from the
 *	device's configuration and never attached
 * @c: the controller (what it keeps as the configuration makes it)
 * @p: the part
 * @len: its bytes
 * @now: the moment of restoring (ktime_get_ns())
 *
 * The configuration (block size, zones, FDP, capacity) must be the one
 * the image was saved with; the rest of what it keeps is replaced.
 *
 * Return: 0, -ENOMEM, or -EINVAL after one dmesg line; on error the
 * caller frees @c.
 */
int vfn_img_load(struct vfn_ctrl *c, const void *p, size_t len, u64 now)
{
	struct vfn_nstab *t = &c->nst;
	struct rd r = { .p = p, .len = len };
	struct vfn_zone_geo geo;
	u8 magic[8], shift;
	bool zoned = false;
	u16 nruh, fdp_ruh;
	u32 zph_at[VFLASH_FLASH_MAX_PLACEMENT][2];
	u32 nr_zph, i;
	u64 cap, runs, changed;
	int ret;

	get(&r, magic, sizeof(magic));
	shift = get8(&r);
	nruh = get16(&r);
	nr_zph = get32(&r);
	cap = get64(&r);
	get_geo(&r, &geo);
	fdp_ruh = get16(&r);
	runs = get64(&r);
	if (r.bad || memcmp(magic, MAGIC, sizeof(magic)))
		return refuse(c, "not the NVMe frontend's state of this vflash");
	if (shift != t->lba_shift)
		return refuse(c, "lba_size=%u, this device %u", 1U << shift,
			      1U << t->lba_shift);
	if (cap != t->cap_pages)
		return refuse(c, "%llu pages of capacity, this device %llu",
			      cap, t->cap_pages);
	if (memcmp(&geo, &t->zgeo, sizeof(geo)) || nr_zph != c->nr_zph)
		return refuse(c, "zones of %llu blocks (zoned=%u), this device %llu (zoned=%u)",
			      geo.zsze, nr_zph ? 1 : 0, t->zgeo.zsze,
			      c->nr_zph ? 1 : 0);
	if (nruh != t->nruh || fdp_ruh != c->fdp.nruh ||
	    runs != c->fdp.runs_bytes)
		return refuse(c, "%u reclaim unit handles (fdp_ruhs), this device %u",
			      fdp_ruh, c->fdp.nruh);

	/* The table as the image has it, from empty. */
	vfn_nstab_exit(t);
	vfn_nstab_init(t, cap, shift, nruh, &geo);
	t->serial = get32(&r);
	changed = get64(&r);
	for (i = 0; i <= VFN_MAX_NS; i++)
		if (changed & BIT_ULL(i))
			__set_bit(i, t->changed);
	c->host_read_cmds = get64(&r);
	c->host_write_cmds = get64(&r);
	c->host_read_units = get64(&r);
	c->host_write_units = get64(&r);
	c->powered_ns = get64(&r);
	c->power_cycles = get64(&r);
	c->unsafe_shutdowns = get64(&r);

	get(&r, c->fdp.ev_enabled, sizeof(c->fdp.ev_enabled));
	get_ring(&r, &c->fdp.host);
	get_ring(&r, &c->fdp.ctrl);
	for (i = 0; i < VFN_FDP_MAX_RUH; i++) {
		c->fdp.moved_seen[i] = get64(&r);
		c->fdp.retired_seen[i] = get64(&r);
	}
	if (c->fdp.host.next >= VFN_FDP_EVENTS ||
	    c->fdp.host.nr > VFN_FDP_EVENTS ||
	    c->fdp.ctrl.next >= VFN_FDP_EVENTS ||
	    c->fdp.ctrl.nr > VFN_FDP_EVENTS)
		return refuse(c, "an FDP event log beyond its %u entries",
			      VFN_FDP_EVENTS);
	/* Read now, checked once the zones are in. */
	for (i = 0; i < nr_zph; i++) {
		zph_at[i][0] = get32(&r);
		zph_at[i][1] = get32(&r);
	}
	for (i = 0, ret = 0; i < VFN_MAX_NS && !ret && !r.bad; i++)
		ret = get_ns(c, &r, i, now);
	for (i = 0; i < nr_zph && !ret && !r.bad; i++)
		ret = get_zph(c, i, zph_at[i][0], zph_at[i][1]);
	if (!ret && !r.bad)
		ret = check_handles(c);
	if (!ret && !r.bad)
		ret = get_uncor(c, &r);
	if (ret)
		return ret;
	if (r.bad)
		return refuse(c, "its state ends early (%zu bytes)", len);
	if (r.off != len)
		return refuse(c, "%zu bytes after its end", len - r.off);
	/* Report Zones' buffer, as a create of a zoned namespace makes it. */
	for (i = 0; i < VFN_MAX_NS; i++)
		zoned |= t->nsd[i].allocated && t->nsd[i].ns.zoned;
	if (zoned && !c->zreport) {
		c->zreport = kvmalloc(VFN_MAX_XFER_BYTES, GFP_KERNEL);
		if (!c->zreport)
			return -ENOMEM;
	}
	return 0;
}
