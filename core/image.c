// SPDX-License-Identifier: GPL-2.0
/*
 * A held device's image: /sys/class/vflash/vflashN/image, read to save
 * the device, written to restore a new one (docs/design/image.md).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "backend_flash/flash.h"
#include "core/compat.h"
#include "core/vflash.h"

#define IMG_MAGIC		"VFLASHIM"
#define IMG_VERSION		2
#define IMG_HDR_BYTES		4096
#define IMG_CHUNK_MAGIC		0x4b434656	/* "VFCK" */
#define IMG_CHUNK_HDR		16
/* Payload of a chunk, unless one element is larger. */
#define IMG_CHUNK_PAYLOAD	(64 * 1024)
/* A data element: the logical page, then its bytes. */
#define IMG_DATA_BYTES		(8 + PAGE_SIZE)

/*
 * The sections: the flash model's, the frontends' (one byte per element:
 * a record per frontend with state, below), then the store's pages.
 */
#define IMG_SECT_FE		VFLASH_IMG_FLASH_NR
#define IMG_SECT_DATA		(IMG_SECT_FE + 1)
#define IMG_NR_SECT		(IMG_SECT_DATA + 1)
/* A frontend record: its index in frontend=, 4 bytes zero, its length. */
#define IMG_FE_REC		16
/* The most the frontends' section may hold. */
#define IMG_FE_MAX		((u64)SZ_1G)

/* Header fields (byte offsets). */
#define H_VERSION	8
#define H_HDR_BYTES	12
#define H_TOTAL		16
#define H_NR_SECT	24
#define H_CRC		28
#define H_SIZE		32
#define H_STORE		40
#define H_PROFILE	48
#define H_FRONTEND	80
#define H_SAVED_S	144
#define H_TABLE		160
#define H_NAME_BYTES	32
#define H_FE_BYTES	64
#define H_ROW_BYTES	40

static const char * const sect_names[IMG_NR_SECT] = {
	"flash state", "l2p", "p2l", "heat", "blocks", "dies", "frontends",
	"data",
};

/**
 * struct img_sect - one section of an image
 * @esz: bytes of an element
 * @per_chunk: elements of a full chunk
 * @elems: elements
 * @off: the section's first byte in the image
 * @bytes: its bytes, chunk headers included
 */
struct img_sect {
	u32 esz;
	u32 per_chunk;
	u64 elems;
	u64 off;
	u64 bytes;
};

/**
 * struct vflash_image - a device's save or restore in progress
 * @restoring: a restore (else a save)
 * @sect: the sections, as the header describes them
 * @total: the image's bytes
 * @hdr: the header
 * @buf: one chunk, header and payload
 * @buf_at: the image offset of the chunk in @buf (save), U64_MAX if none
 * @buf_len: bytes in @buf: of the chunk built (save), received (restore)
 * @data_chunk: save: the data chunk @data_lpn starts
 * @data_lpn: save: the first page to look at for that chunk
 * @rx: restore: bytes taken so far
 * @cur: restore: the section being received
 * @cur_chunk: restore: its chunk being received
 * @next_lpn: restore: the lowest page the next data element may name
 * @fe: the frontends' section, whole (save: built at its start; restore:
 *	taken chunk by chunk, handed to the frontends when complete)
 *
 * Held by &vflash_dev.img, under vflash_devices_lock.
 */
struct vflash_image {
	bool restoring;
	struct img_sect sect[IMG_NR_SECT];
	u64 total;
	u8 *hdr;
	u8 *buf;
	u64 buf_at;
	u32 buf_len;
	u64 data_chunk;
	u64 data_lpn;
	u64 rx;
	u32 cur;
	u64 cur_chunk;
	u64 next_lpn;
	u8 *fe;
};

static u32 img_crc(const void *p, size_t len)
{
	return crc32_le(~0U, p, len) ^ ~0U;
}

static u64 chunks_of(const struct img_sect *s)
{
	return DIV_ROUND_UP_ULL(s->elems, s->per_chunk);
}

/* Elements in chunk @k of @s. */
static u32 chunk_elems(const struct img_sect *s, u64 k)
{
	return min_t(u64, s->per_chunk, s->elems - k * s->per_chunk);
}

static u64 full_chunk_bytes(const struct img_sect *s)
{
	return IMG_CHUNK_HDR + (u64)s->per_chunk * s->esz;
}

/* Lays the sections out after the header; the image's bytes. */
static u64 layout(struct img_sect *sect)
{
	u64 off = IMG_HDR_BYTES;
	u32 i;

	for (i = 0; i < IMG_NR_SECT; i++) {
		struct img_sect *s = &sect[i];

		s->per_chunk = max_t(u32, 1, IMG_CHUNK_PAYLOAD / s->esz);
		s->off = off;
		s->bytes = chunks_of(s) * IMG_CHUNK_HDR + s->elems * s->esz;
		off += s->bytes;
	}
	return off;
}

/*
 * The device's own sections, its frontends' bytes and data pages counted
 * by the caller.
 */
static void device_sections(struct vflash_dev *vdev, struct img_sect *sect,
			    u64 fe_bytes, u64 data_pages)
{
	u32 i;

	for (i = 0; i < VFLASH_IMG_FLASH_NR; i++) {
		sect[i].esz = vflash_flash_img_elem_bytes(vdev->flash, i);
		sect[i].elems = vflash_flash_img_elems(vdev->flash, i);
	}
	sect[IMG_SECT_FE].esz = 1;
	sect[IMG_SECT_FE].elems = fe_bytes;
	sect[IMG_SECT_DATA].esz = IMG_DATA_BYTES;
	sect[IMG_SECT_DATA].elems = data_pages;
}

static size_t buf_bytes(const struct img_sect *sect)
{
	size_t most = 0;
	u32 i;

	for (i = 0; i < IMG_NR_SECT; i++)
		most = max_t(size_t, most, full_chunk_bytes(&sect[i]));
	return most;
}

static void image_free(struct vflash_image *img)
{
	if (!img)
		return;
	kvfree(img->buf);
	kvfree(img->fe);
	kfree(img->hdr);
	kfree(img);
}

/* What the device's pages are, as its image holds them: none is a hole. */
static const void *data_of(struct vflash_dev *vdev, u64 lpn)
{
	const void *p;

	if (!vflash_store_has_data(&vdev->backing))
		return NULL;
	p = vflash_store_read_page(&vdev->backing, lpn);
	return memchr_inv(p, 0, PAGE_SIZE) ? p : NULL;
}

static u64 count_data(struct vflash_dev *vdev)
{
	u64 lpn, n = 0, pages = vdev->cfg.size_bytes >> PAGE_SHIFT;

	if (!vflash_store_has_data(&vdev->backing))
		return 0;
	for (lpn = 0; lpn < pages; lpn++) {
		n += !!data_of(vdev, lpn);
		if (!(lpn % 4096))
			cond_resched();
	}
	return n;
}

static void build_header(struct vflash_dev *vdev, struct vflash_image *img)
{
	u8 *h = img->hdr;
	u32 i;

	memset(h, 0, IMG_HDR_BYTES);
	memcpy(h, IMG_MAGIC, 8);
	put_unaligned_le32(IMG_VERSION, h + H_VERSION);
	put_unaligned_le32(IMG_HDR_BYTES, h + H_HDR_BYTES);
	put_unaligned_le64(img->total, h + H_TOTAL);
	put_unaligned_le32(IMG_NR_SECT, h + H_NR_SECT);
	put_unaligned_le64(vdev->cfg.size_bytes, h + H_SIZE);
	put_unaligned_le32(vdev->cfg.store, h + H_STORE);
	strscpy(h + H_PROFILE, vdev->cfg.profile->name, H_NAME_BYTES);
	vflash_frontend_list(&vdev->cfg, h + H_FRONTEND, H_FE_BYTES);
	put_unaligned_le64(ktime_get_real_seconds(), h + H_SAVED_S);
	for (i = 0; i < IMG_NR_SECT; i++) {
		u8 *row = h + H_TABLE + i * H_ROW_BYTES;

		put_unaligned_le32(i, row);
		put_unaligned_le32(img->sect[i].esz, row + 4);
		put_unaligned_le64(img->sect[i].elems, row + 8);
		put_unaligned_le64(img->sect[i].off, row + 16);
		put_unaligned_le64(img->sect[i].bytes, row + 24);
		put_unaligned_le32(img->sect[i].per_chunk, row + 32);
	}
	put_unaligned_le32(img_crc(h, IMG_HDR_BYTES), h + H_CRC);
}

/*
 * The frontends' section: a record for each frontend that keeps state
 * for the held device. Return: its bytes, or a negative errno.
 */
static s64 save_frontends(struct vflash_dev *vdev, u8 **out)
{
	void *part[VFLASH_MAX_FRONTENDS] = { };
	ssize_t len[VFLASH_MAX_FRONTENDS] = { };
	u64 total = 0;
	unsigned int i;
	s64 ret = 0;
	u8 *p;

	*out = NULL;
	for (i = 0; i < vdev->cfg.nr_fe; i++) {
		const struct vflash_frontend *fe = vdev->cfg.fe[i];

		if (!fe->img_save)
			continue;
		len[i] = fe->img_save(vdev, &part[i]);
		if (len[i] < 0) {
			ret = len[i];
			goto out;
		}
		if (len[i])
			total += IMG_FE_REC + len[i];
	}
	if (!total)
		goto out;
	ret = -ENOMEM;
	p = kvmalloc(total, GFP_KERNEL);
	if (!p)
		goto out;
	*out = p;
	for (i = 0; i < vdev->cfg.nr_fe; i++) {
		if (len[i] <= 0)
			continue;
		put_unaligned_le32(i, p);
		put_unaligned_le32(0, p + 4);
		put_unaligned_le64(len[i], p + 8);
		memcpy(p + IMG_FE_REC, part[i], len[i]);
		p += IMG_FE_REC + len[i];
	}
	ret = total;
out:
	for (i = 0; i < vdev->cfg.nr_fe; i++)
		if (len[i] > 0)
			kvfree(part[i]);
	return ret;
}

/* A save from offset 0: the model's moment, the header, the buffers. */
static int save_begin(struct vflash_dev *vdev)
{
	struct vflash_image *img;
	s64 fe_bytes;
	int ret;

	if (READ_ONCE(vdev->faults.pl.on)) {
		dev_err(&vdev->dev, "image: power_cut is armed without plp: disarm it first\n");
		return -EBUSY;
	}
	ret = vflash_flash_img_save_begin(vdev->flash, ktime_get_ns());
	if (ret)
		return ret;
	img = kzalloc(sizeof(*img), GFP_KERNEL);
	if (!img)
		return -ENOMEM;
	fe_bytes = save_frontends(vdev, &img->fe);
	if (fe_bytes < 0) {
		image_free(img);
		return fe_bytes;
	}
	device_sections(vdev, img->sect, fe_bytes, count_data(vdev));
	img->total = layout(img->sect);
	img->hdr = kmalloc(IMG_HDR_BYTES, GFP_KERNEL);
	img->buf = kvmalloc(buf_bytes(img->sect), GFP_KERNEL);
	if (!img->hdr || !img->buf) {
		image_free(img);
		return -ENOMEM;
	}
	img->buf_at = U64_MAX;
	build_header(vdev, img);
	image_free(vdev->img);
	vdev->img = img;
	return 0;
}

/* Data chunk @k's payload: its pages from the data cursor on. */
static void build_data(struct vflash_dev *vdev, struct vflash_image *img,
		       u64 k, u8 *p, u32 nr)
{
	u64 pages = vdev->cfg.size_bytes >> PAGE_SHIFT, lpn, skip;
	u32 got = 0;

	/* Sequential readers continue; any other starts the scan again. */
	if (k != img->data_chunk) {
		img->data_chunk = 0;
		img->data_lpn = 0;
	}
	skip = (k - img->data_chunk) * img->sect[IMG_SECT_DATA].per_chunk;
	for (lpn = img->data_lpn; lpn < pages && got < nr; lpn++) {
		const void *d = data_of(vdev, lpn);

		if (!(lpn % 4096))
			cond_resched();
		if (!d)
			continue;
		if (skip) {
			skip--;
			continue;
		}
		put_unaligned_le64(lpn, p);
		memcpy(p + 8, d, PAGE_SIZE);
		p += IMG_DATA_BYTES;
		got++;
	}
	img->data_chunk = k + 1;
	img->data_lpn = lpn;
}

/* Puts chunk @k of section @si in the buffer. */
static int build_chunk(struct vflash_dev *vdev, struct vflash_image *img,
		       u32 si, u64 k)
{
	struct img_sect *s = &img->sect[si];
	u32 nr = chunk_elems(s, k), len = nr * s->esz;
	u8 *p = img->buf + IMG_CHUNK_HDR;
	int ret = 0;

	/* Whatever happens below, the buffer holds no chunk until it ends. */
	img->buf_at = U64_MAX;
	if (si == IMG_SECT_DATA)
		build_data(vdev, img, k, p, nr);
	else if (si == IMG_SECT_FE)
		memcpy(p, img->fe + k * s->per_chunk, nr);
	else
		ret = vflash_flash_img_get(vdev->flash, si, k * s->per_chunk,
					   nr, p);
	if (ret)
		return ret;
	put_unaligned_le32(IMG_CHUNK_MAGIC, img->buf);
	put_unaligned_le32(si, img->buf + 4);
	put_unaligned_le32(lower_32_bits(k), img->buf + 8);
	put_unaligned_le32(img_crc(p, len), img->buf + 12);
	img->buf_at = s->off + k * full_chunk_bytes(s);
	img->buf_len = IMG_CHUNK_HDR + len;
	return 0;
}

/**
 * vflash_image_read() - read part of a held device's image
 * @vdev: the device; vflash_devices_lock held
 * @buf: where to
 * @pos: the image offset; 0 (re)starts the save
 * @count: bytes wanted
 *
 * Return: bytes read (0 past the end), or a negative errno after one dmesg
 * line.
 */
ssize_t vflash_image_read(struct vflash_dev *vdev, char *buf, loff_t pos,
			  size_t count)
{
	struct vflash_image *img;
	u64 in, k;
	u32 si;
	int ret;

	if (!vdev->held) {
		dev_err(&vdev->dev, "image: the device is running: write held to its state first\n");
		return -EBUSY;
	}
	if (vdev->img && vdev->img->restoring) {
		dev_err(&vdev->dev, "image: a restore is in progress\n");
		return -EBUSY;
	}
	if (!pos) {
		ret = save_begin(vdev);
		if (ret)
			return ret;
	}
	img = vdev->img;
	if (!img) {
		dev_err(&vdev->dev, "image: read it from offset 0\n");
		return -EINVAL;
	}
	if (pos >= img->total)
		return 0;
	if (pos < IMG_HDR_BYTES) {
		count = min_t(u64, count, IMG_HDR_BYTES - pos);
		memcpy(buf, img->hdr + pos, count);
		return count;
	}
	for (si = 0; pos >= img->sect[si].off + img->sect[si].bytes; si++)
		;
	k = div64_u64(pos - img->sect[si].off, full_chunk_bytes(&img->sect[si]));
	if (img->buf_at != img->sect[si].off + k * full_chunk_bytes(&img->sect[si])) {
		ret = build_chunk(vdev, img, si, k);
		if (ret)
			return ret;
	}
	in = pos - img->buf_at;
	count = min_t(u64, count, img->buf_len - in);
	memcpy(buf, img->buf + in, count);
	return count;
}

/* Puts the device back as created after a refused restore. */
static void restore_undo(struct vflash_dev *vdev)
{
	struct vflash_image *img = vdev->img;
	u64 lpn;

	/* Fails only for a policy kind without its default: a bug. */
	WARN_ON_ONCE(vflash_flash_img_reset(vdev->flash));
	vflash_frontends_release(vdev);
	if (img && vflash_store_has_data(&vdev->backing)) {
		for (lpn = 0; lpn < img->next_lpn; lpn++) {
			vflash_store_zero(&vdev->backing, lpn, 0, PAGE_SIZE);
			if (!(lpn % 4096))
				cond_resched();
		}
	}
	image_free(img);
	vdev->img = NULL;
}

static __printf(2, 3) int refuse(struct vflash_dev *vdev, const char *fmt,
				  ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_err(&vdev->dev, "image: %pV\n", &vaf);
	va_end(args);
	return -EINVAL;
}

/* The header against this device: nothing is changed before it passes. */
static int check_header(struct vflash_dev *vdev, struct vflash_image *img)
{
	struct img_sect mine[IMG_NR_SECT];
	char fe[H_FE_BYTES];
	u8 *h = img->hdr;
	u32 crc = get_unaligned_le32(h + H_CRC), i;

	if (memcmp(h, IMG_MAGIC, 8))
		return refuse(vdev, "not a vflash image");
	if (get_unaligned_le32(h + H_VERSION) != IMG_VERSION)
		return refuse(vdev, "format version %u, this vflash reads %u",
			      get_unaligned_le32(h + H_VERSION), IMG_VERSION);
	put_unaligned_le32(0, h + H_CRC);
	if (img_crc(h, IMG_HDR_BYTES) != crc)
		return refuse(vdev, "the header's checksum is wrong");
	if (get_unaligned_le32(h + H_HDR_BYTES) != IMG_HDR_BYTES ||
	    get_unaligned_le32(h + H_NR_SECT) != IMG_NR_SECT)
		return refuse(vdev, "a header of another layout");
	if (get_unaligned_le64(h + H_SIZE) != vdev->cfg.size_bytes)
		return refuse(vdev, "a device of %llu bytes, this one %llu",
			      get_unaligned_le64(h + H_SIZE), vdev->cfg.size_bytes);
	if (get_unaligned_le32(h + H_STORE) != vdev->cfg.store)
		return refuse(vdev, "store=%s, this device store=%s",
			      vflash_store_mode_name(get_unaligned_le32(h + H_STORE)),
			      vflash_store_mode_name(vdev->cfg.store));
	h[H_PROFILE + H_NAME_BYTES - 1] = '\0';
	if (strcmp(h + H_PROFILE, vdev->cfg.profile->name))
		return refuse(vdev, "profile=%s, this device profile=%s",
			      h + H_PROFILE, vdev->cfg.profile->name);
	h[H_FRONTEND + H_FE_BYTES - 1] = '\0';
	vflash_frontend_list(&vdev->cfg, fe, sizeof(fe));
	if (strcmp(h + H_FRONTEND, fe))
		return refuse(vdev, "frontend=%s, this device frontend=%s",
			      h + H_FRONTEND, fe);

	for (i = 0; i < IMG_NR_SECT; i++) {
		const u8 *row = h + H_TABLE + i * H_ROW_BYTES;

		img->sect[i].esz = get_unaligned_le32(row + 4);
		img->sect[i].elems = get_unaligned_le64(row + 8);
		if (get_unaligned_le32(row) != i || !img->sect[i].esz)
			return refuse(vdev, "section %u: not where it belongs", i);
	}
	device_sections(vdev, mine, img->sect[IMG_SECT_FE].elems,
			img->sect[IMG_SECT_DATA].elems);
	for (i = 0; i < IMG_NR_SECT; i++)
		if (img->sect[i].esz != mine[i].esz ||
		    img->sect[i].elems != mine[i].elems)
			break;
	if (i < IMG_NR_SECT)
		return refuse(vdev, "%s: %llu x %u B, here %llu x %u: another geometry or vflash",
			      sect_names[i], img->sect[i].elems, img->sect[i].esz,
			      mine[i].elems, mine[i].esz);
	if (img->sect[IMG_SECT_FE].elems > IMG_FE_MAX)
		return refuse(vdev, "frontends: %llu bytes, more than %llu",
			      img->sect[IMG_SECT_FE].elems, IMG_FE_MAX);
	if (img->sect[IMG_SECT_DATA].elems > vdev->cfg.size_bytes >> PAGE_SHIFT)
		return refuse(vdev, "more data pages than the device has");
	if (img->sect[IMG_SECT_DATA].elems &&
	    !vflash_store_has_data(&vdev->backing))
		return refuse(vdev, "data pages for a device of store=none");
	img->total = layout(img->sect);
	for (i = 0; i < IMG_NR_SECT; i++) {
		const u8 *row = h + H_TABLE + i * H_ROW_BYTES;

		if (get_unaligned_le64(row + 16) != img->sect[i].off ||
		    get_unaligned_le64(row + 24) != img->sect[i].bytes ||
		    get_unaligned_le32(row + 32) != img->sect[i].per_chunk)
			return refuse(vdev, "%s: laid out otherwise", sect_names[i]);
	}
	if (get_unaligned_le64(h + H_TOTAL) != img->total)
		return refuse(vdev, "%llu bytes, its sections make %llu",
			      get_unaligned_le64(h + H_TOTAL), img->total);
	img->buf = kvmalloc(buf_bytes(img->sect), GFP_KERNEL);
	if (img->sect[IMG_SECT_FE].elems)
		img->fe = kvmalloc(img->sect[IMG_SECT_FE].elems, GFP_KERNEL);
	if (!img->buf || (img->sect[IMG_SECT_FE].elems && !img->fe))
		return -ENOMEM;
	return 0;
}

/* The frontends' section is in: each record to its frontend. */
static int load_frontends(struct vflash_dev *vdev, struct vflash_image *img)
{
	u64 left = img->sect[IMG_SECT_FE].elems, len;
	bool seen[VFLASH_MAX_FRONTENDS] = { };
	const u8 *p = img->fe;
	u32 i;
	int ret;

	while (left) {
		const struct vflash_frontend *fe;

		if (left < IMG_FE_REC)
			return refuse(vdev, "frontends: a record cut short");
		i = get_unaligned_le32(p);
		len = get_unaligned_le64(p + 8);
		if (i >= vdev->cfg.nr_fe || seen[i] || get_unaligned_le32(p + 4) ||
		    len > left - IMG_FE_REC || !vdev->cfg.fe[i]->img_load)
			return refuse(vdev, "frontends: record of frontend %u of %u, %llu B",
				      i, vdev->cfg.nr_fe, len);
		seen[i] = true;
		fe = vdev->cfg.fe[i];
		ret = fe->img_load(vdev, p + IMG_FE_REC, len);
		if (ret)
			return ret;
		p += IMG_FE_REC + len;
		left -= IMG_FE_REC + len;
	}
	return 0;
}

static int apply_data(struct vflash_dev *vdev, struct vflash_image *img,
		      const u8 *p, u32 nr)
{
	u64 pages = vdev->cfg.size_bytes >> PAGE_SHIFT;
	u32 i;

	for (i = 0; i < nr; i++, p += IMG_DATA_BYTES) {
		u64 lpn = get_unaligned_le64(p);
		void *dst;

		if (lpn < img->next_lpn || lpn >= pages)
			return refuse(vdev, "data page %llu out of order or beyond the device",
				      lpn);
		dst = vflash_store_write_page(&vdev->backing, lpn, GFP_KERNEL);
		if (IS_ERR_OR_NULL(dst)) {
			dev_err(&vdev->dev, "image: no memory for page %llu\n",
				lpn);
			return dst ? PTR_ERR(dst) : -EINVAL;
		}
		/* Pages up to here are wiped if the restore is refused. */
		img->next_lpn = lpn + 1;
		memcpy(dst, p + 8, PAGE_SIZE);
	}
	return 0;
}

/* A received chunk: checked, then applied; the next one expected. */
static int take_chunk(struct vflash_dev *vdev, struct vflash_image *img)
{
	struct img_sect *s = &img->sect[img->cur];
	u32 nr = chunk_elems(s, img->cur_chunk);
	const u8 *p = img->buf + IMG_CHUNK_HDR;
	int ret;

	if (get_unaligned_le32(img->buf) != IMG_CHUNK_MAGIC ||
	    get_unaligned_le32(img->buf + 4) != img->cur ||
	    get_unaligned_le32(img->buf + 8) != lower_32_bits(img->cur_chunk))
		return refuse(vdev, "%s: chunk %llu is not where it belongs",
			      sect_names[img->cur], img->cur_chunk);
	if (get_unaligned_le32(img->buf + 12) != img_crc(p, nr * s->esz))
		return refuse(vdev, "%s: chunk %llu's checksum is wrong",
			      sect_names[img->cur], img->cur_chunk);
	if (img->cur == IMG_SECT_DATA) {
		ret = apply_data(vdev, img, p, nr);
	} else if (img->cur == IMG_SECT_FE) {
		memcpy(img->fe + img->cur_chunk * s->per_chunk, p, nr);
		ret = img->cur_chunk + 1 < chunks_of(s) ? 0 :
		      load_frontends(vdev, img);
	} else {
		ret = vflash_flash_img_put(vdev->flash, img->cur,
					   img->cur_chunk * s->per_chunk, nr, p);
	}
	if (ret)
		return ret;
	img->buf_len = 0;
	img->cur_chunk++;
	return 0;
}

/* The bytes the chunk being received has in all. */
static u32 expected(struct vflash_image *img)
{
	/* Empty sections have no chunk. */
	while (img->cur < IMG_NR_SECT &&
	       img->cur_chunk >= chunks_of(&img->sect[img->cur])) {
		img->cur++;
		img->cur_chunk = 0;
	}
	if (img->cur == IMG_NR_SECT)
		return 0;
	return IMG_CHUNK_HDR + chunk_elems(&img->sect[img->cur],
					   img->cur_chunk) *
	       img->sect[img->cur].esz;
}

static int restore_begin(struct vflash_dev *vdev)
{
	struct vflash_image *img;
	int ret;

	if (vdev->ran || vdev->restored) {
		dev_err(&vdev->dev, "image: a restore needs a device made held that never ran\n");
		return -EBUSY;
	}
	/* Written again from its start: what the last attempt took goes. */
	vflash_image_drop(vdev, true);
	ret = vflash_flash_img_load_begin(vdev->flash, ktime_get_ns());
	if (ret)
		return ret;
	img = kzalloc(sizeof(*img), GFP_KERNEL);
	if (img)
		img->hdr = kmalloc(IMG_HDR_BYTES, GFP_KERNEL);
	if (!img || !img->hdr) {
		image_free(img);
		return -ENOMEM;
	}
	img->restoring = true;
	image_free(vdev->img);
	vdev->img = img;
	return 0;
}

static int restore_take(struct vflash_dev *vdev, const u8 *buf, size_t count)
{
	struct vflash_image *img = vdev->img;
	char why[160];
	int ret;

	while (count) {
		u32 n, want;

		if (img->rx < IMG_HDR_BYTES) {
			n = min_t(u64, count, IMG_HDR_BYTES - img->rx);
			memcpy(img->hdr + img->rx, buf, n);
			img->rx += n;
			buf += n;
			count -= n;
			if (img->rx == IMG_HDR_BYTES) {
				ret = check_header(vdev, img);
				if (ret)
					return ret;
			}
			continue;
		}
		want = expected(img);
		if (!want)
			return refuse(vdev, "bytes beyond its end");
		n = min_t(u64, count, want - img->buf_len);
		memcpy(img->buf + img->buf_len, buf, n);
		img->buf_len += n;
		img->rx += n;
		buf += n;
		count -= n;
		if (img->buf_len == want) {
			ret = take_chunk(vdev, img);
			if (ret)
				return ret;
		}
	}
	if (img->rx < IMG_HDR_BYTES || img->rx < img->total)
		return 0;
	ret = vflash_flash_img_finish(vdev->flash, why, sizeof(why));
	if (ret)
		return refuse(vdev, "the flash model does not hold together: %s",
			      why);
	vdev->restored = true;
	image_free(img);
	vdev->img = NULL;
	dev_info(&vdev->dev, "restored from an image\n");
	return 0;
}

/**
 * vflash_image_write() - take part of an image into a new held device
 * @vdev: the device; vflash_devices_lock held
 * @buf: the bytes
 * @pos: their image offset; 0 starts the restore, then in order
 * @count: bytes
 *
 * A refusal puts the device back as it was made.
 *
 * Return: @count, or a negative errno after one dmesg line.
 */
ssize_t vflash_image_write(struct vflash_dev *vdev, const char *buf,
			   loff_t pos, size_t count)
{
	int ret;

	if (!vdev->held) {
		dev_err(&vdev->dev, "image: the device is running: a restore needs a device made held\n");
		return -EBUSY;
	}
	if (!pos) {
		ret = restore_begin(vdev);
		if (ret)
			return ret;
	}
	if (!vdev->img || !vdev->img->restoring || pos != vdev->img->rx) {
		ret = refuse(vdev, "write it in order, from offset 0");
		goto undo;
	}
	ret = restore_take(vdev, buf, count);
	if (ret)
		goto undo;
	return count;
undo:
	if (vdev->img && vdev->img->restoring)
		restore_undo(vdev);
	return ret;
}

/**
 * vflash_image_incomplete() - is a restore under way and not finished?
 * @vdev: the device; vflash_devices_lock held
 * @got: bytes taken
 * @total: bytes the image has (0 before its header is in)
 *
 * Return: true if so.
 */
bool vflash_image_incomplete(struct vflash_dev *vdev, u64 *got, u64 *total)
{
	if (!vdev->img || !vdev->img->restoring)
		return false;
	*got = vdev->img->rx;
	*total = vdev->img->rx >= IMG_HDR_BYTES ? vdev->img->total : 0;
	return true;
}

/**
 * vflash_image_drop() - end a save, or refuse an unfinished restore
 * @vdev: the device; vflash_devices_lock held
 * @undo: an unfinished restore puts the device back as made (false: the
 *	device is being destroyed, nothing of it is used again)
 */
void vflash_image_drop(struct vflash_dev *vdev, bool undo)
{
	if (undo && vdev->img && vdev->img->restoring)
		restore_undo(vdev);
	image_free(vdev->img);
	vdev->img = NULL;
}
