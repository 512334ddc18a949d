// SPDX-License-Identifier: GPL-2.0
/* Parsing and validation of vflash's load-time parameters. */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/params.h"
#include "core/vflash.h"

/*
 * The shift a memparse suffix stands for, or 0 if @c is none. In a hex
 * number, memparse reads "e" as a digit, so we do too.
 */
static unsigned int suffix_shift(char c, bool hex)
{
	switch (tolower(c)) {
	case 'k':
		return 10;
	case 'm':
		return 20;
	case 'g':
		return 30;
	case 't':
		return 40;
	case 'p':
		return 50;
	case 'e':
		return hex ? 0 : 60;
	default:
		return 0;
	}
}

/**
 * vflash_parse_bytes() - parse a byte count in memparse syntax
 * @s: a decimal, octal (leading 0) or hex (leading 0x) number, optionally
 *	followed by one of K, M, G, T, P, E (any case) and a newline
 * @out: the value, written only on success
 *
 * Unlike memparse(), trailing junk and overflow are errors.
 *
 * Return: 0, -EINVAL if @s is not such a number, -ERANGE if it does not
 * fit in 64 bits.
 */
int vflash_parse_bytes(const char *s, u64 *out)
{
	char buf[32];
	unsigned int shift;
	size_t len;
	bool hex;
	u64 val;
	int ret;

	if (!s)
		return -EINVAL;
	len = strlen(s);
	if (len && s[len - 1] == '\n')
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';

	hex = len > 2 && buf[0] == '0' && tolower(buf[1]) == 'x';
	shift = suffix_shift(buf[len - 1], hex);
	if (shift)
		buf[--len] = '\0';
	if (!len || !isdigit(buf[0]))
		return -EINVAL;

	ret = kstrtoull(buf, 0, &val);
	if (ret)
		return ret;
	if (shift && val > (U64_MAX >> shift))
		return -ERANGE;
	*out = val << shift;
	return 0;
}

static __printf(4, 5) int refuse(struct vflash_param_error *err,
				  const char *param, const char *value,
				  const char *fmt, ...)
{
	va_list args;

	err->param = param;
	err->value = value;
	va_start(args, fmt);
	vsnprintf(err->why, sizeof(err->why), fmt, args);
	va_end(args);
	return -EINVAL;
}

static const char * const store_names[VFLASH_STORE_NR] = {
	[VFLASH_STORE_FULL] = "full",
	[VFLASH_STORE_SPARSE] = "sparse",
	[VFLASH_STORE_NONE] = "none",
};

/**
 * vflash_store_mode_name() - the store= name of a backing store mode
 * @mode: the mode
 *
 * Return: "full", "sparse" or "none"; "?" for anything else.
 */
const char *vflash_store_mode_name(enum vflash_store_mode mode)
{
	return mode < VFLASH_STORE_NR ? store_names[mode] : "?";
}

/**
 * vflash_parse_store() - parse a store= value
 * @s: "full", "sparse" or "none", optionally followed by a newline (as a
 *	configfs or sysfs write gives it)
 * @mode: the mode, written only on success
 *
 * Return: 0, or -EINVAL for anything else (NULL and "" included).
 */
int vflash_parse_store(const char *s, enum vflash_store_mode *mode)
{
	int i;

	if (!s)
		return -EINVAL;
	i = sysfs_match_string(store_names, s);
	if (i < 0)
		return -EINVAL;
	*mode = i;
	return 0;
}

static int parse_frontends(const char *list, struct vflash_config *cfg,
			   struct vflash_param_error *err)
{
	char names[64];
	const char *p = list;

	vflash_frontend_names(names, sizeof(names));
	if (!list || !*list)
		return refuse(err, "frontend", NULL,
			      "missing; pass frontend=NAME, one of: %s",
			      names);

	cfg->nr_fe = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		const struct vflash_frontend *fe;
		unsigned int i;

		if (!len)
			return refuse(err, "frontend", list,
				      "empty name in the list, expected one of: %s",
				      names);
		fe = vflash_frontend_find(p, len);
		if (!fe)
			return refuse(err, "frontend", list,
				      "unknown frontend '%.*s', expected one of: %s",
				      (int)len, p, names);
		for (i = 0; i < cfg->nr_fe; i++)
			if (cfg->fe[i] == fe)
				return refuse(err, "frontend", list,
					      "'%s' is listed twice", fe->name);
		if (cfg->nr_fe == VFLASH_MAX_FRONTENDS)
			return refuse(err, "frontend", list,
				      "more than %d frontends",
				      VFLASH_MAX_FRONTENDS);
		cfg->fe[cfg->nr_fe++] = fe;
		p += len;
		if (!*p)
			return 0;
		p++;
	}
}

static int check_size(const char *param, const char *value, u64 size,
		      struct vflash_param_error *err)
{
	if (!size)
		return refuse(err, param, value, "must not be zero");
	if (!PAGE_ALIGNED(size))
		return refuse(err, param, value,
			      "must be a multiple of the %lu-byte page size",
			      PAGE_SIZE);
	if (size < VFLASH_MIN_SIZE_BYTES)
		return refuse(err, param, value, "must be at least %llu MiB",
			      VFLASH_MIN_SIZE_BYTES >> 20);
	if (size > VFLASH_MAX_SIZE_BYTES)
		return refuse(err, param, value, "must be at most %llu TiB",
			      VFLASH_MAX_SIZE_BYTES >> 40);
	return 0;
}

static int parse_bytes_param(const char *param, const char *value, u64 *out,
			     struct vflash_param_error *err)
{
	int ret = vflash_parse_bytes(value, out);

	if (ret == -ERANGE)
		return refuse(err, param, value, "does not fit in 64 bits");
	if (ret)
		return refuse(err, param, value,
			      "not a number with an optional K/M/G/T/P/E suffix");
	return 0;
}

static int parse_memory(const struct vflash_param_strings *in,
			struct vflash_config *cfg,
			struct vflash_param_error *err)
{
	u64 start, size;
	int ret;

	cfg->use_memmap = in->memmap_start || in->memmap_size;
	if (!cfg->use_memmap) {
		const char *value = in->size ? in->size : VFLASH_DEFAULT_SIZE;

		ret = parse_bytes_param("size", value, &cfg->size_bytes, err);
		return ret ? ret : check_size("size", value, cfg->size_bytes,
					      err);
	}

	if (!in->memmap_start)
		return refuse(err, "memmap_size", in->memmap_size,
			      "given without memmap_start");
	if (!in->memmap_size)
		return refuse(err, "memmap_start", in->memmap_start,
			      "given without memmap_size");
	if (in->size)
		return refuse(err, "size", in->size,
			      "not allowed with memmap_start/memmap_size, whose range sets the size");

	ret = parse_bytes_param("memmap_start", in->memmap_start, &start, err);
	if (ret)
		return ret;
	ret = parse_bytes_param("memmap_size", in->memmap_size, &size, err);
	if (ret)
		return ret;
	if (!PAGE_ALIGNED(start))
		return refuse(err, "memmap_start", in->memmap_start,
			      "not aligned to the %lu-byte page size",
			      PAGE_SIZE);
	ret = check_size("memmap_size", in->memmap_size, size, err);
	if (ret)
		return ret;
	if (start + size < start)
		return refuse(err, "memmap_size", in->memmap_size,
			      "range end overflows the physical address space");
	cfg->memmap_start = start;
	cfg->size_bytes = size;
	return 0;
}

/**
 * struct geom_param - a geometry override
 * @name: the parameter
 * @in_off: offset of its string in struct vflash_param_strings
 * @bytes: memparse syntax (else a decimal number)
 * @min: smallest value
 * @max: largest value
 */
struct geom_param {
	const char *name;
	size_t in_off;
	bool bytes;
	u32 min, max;
};

#define GEOM(_name, _bytes, _min, _max) {				\
	.name = #_name, .bytes = _bytes, .min = _min, .max = _max,	\
	.in_off = offsetof(struct vflash_param_strings, _name),		\
}

/* In the order a refusal that more than one caused names them. */
static const struct geom_param geom_params[] = {
	GEOM(pages_per_block, false, VFLASH_MIN_PAGES_PER_BLOCK,
	     VFLASH_MAX_PAGES_PER_BLOCK),
	GEOM(page_size, true, VFLASH_MIN_PAGE_BYTES, VFLASH_MAX_PAGE_BYTES),
	GEOM(dies_per_channel, false, 1, VFLASH_MAX_DIES_PER_CHANNEL),
	GEOM(channels, false, 1, VFLASH_MAX_CHANNELS),
	GEOM(op_percent, false, VFLASH_MIN_OP_PCT, VFLASH_MAX_OP_PCT),
};

static const char *geom_value(const struct vflash_param_strings *in,
			      const struct geom_param *g)
{
	return *(const char * const *)((const char *)in + g->in_off);
}

/* The field of @model that @g overrides. */
static u32 *geom_field(struct vflash_profile *model,
		       const struct geom_param *g)
{
	if (!strcmp(g->name, "channels"))
		return &model->channels;
	if (!strcmp(g->name, "dies_per_channel"))
		return &model->dies_per_channel;
	if (!strcmp(g->name, "page_size"))
		return &model->flash_page_bytes;
	if (!strcmp(g->name, "pages_per_block"))
		return &model->pages_per_block;
	return &model->op_pct;
}

/* Parse and bound the value of override @g and put it in @model. */
static int parse_geom(const struct geom_param *g, const char *value,
		      struct vflash_profile *model,
		      struct vflash_param_error *err)
{
	u64 v;

	if (g->bytes) {
		if (vflash_parse_bytes(value, &v))
			return refuse(err, g->name, value,
				      "not a number of bytes with an optional K/M suffix");
		if (v < g->min || v > g->max || !is_power_of_2(v))
			return refuse(err, g->name, value,
				      "must be a power of two from %u KiB to %u KiB (whole 4 KiB pages)",
				      g->min >> 10, g->max >> 10);
	} else {
		if (kstrtou64(value, 10, &v))
			return refuse(err, g->name, value,
				      "not a decimal number");
		if (v < g->min || v > g->max)
			return refuse(err, g->name, value,
				      "must be from %u to %u", g->min, g->max);
	}
	*geom_field(model, g) = v;
	return 0;
}

/* The first override given, to name in a refusal of the whole geometry. */
static const struct geom_param *
first_geom_given(const struct vflash_param_strings *in)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(geom_params); i++)
		if (geom_value(in, &geom_params[i]))
			return &geom_params[i];
	return NULL;
}

/* The checks between the geometry, the profile and the size. */
static int check_geometry(const struct vflash_param_strings *in,
			  struct vflash_config *cfg,
			  struct vflash_param_error *err)
{
	const struct vflash_profile *m = &cfg->model;
	const struct geom_param *g;
	u64 bytes;
	int ret;

	if (m->cell == VFLASH_CELL_QLC && m->pages_per_block % 4)
		return refuse(err, "pages_per_block", in->pages_per_block,
			      "must be a multiple of 4 with profile %s: a QLC program fills the 4 pages of a wordline",
			      m->name);

	ret = vflash_flash_metadata_bytes(m, cfg->size_bytes, &bytes);
	if (ret == -ENOMEM) {
		err->param = "size";
		err->value = NULL;
		strscpy(err->why, "no memory to check the geometry",
			sizeof(err->why));
		return ret;
	}
	if (!ret)
		return 0;
	g = first_geom_given(in);
	return refuse(err, g ? g->name : "size",
		      g ? geom_value(in, g) : in->size,
		      "%u x %u dies of %u-page blocks of %u KiB: %llu MiB needs more flash than the FTL addresses (2^32 4 KiB slots, at least %u blocks a die for GC)",
		      m->channels, m->dies_per_channel, m->pages_per_block,
		      m->flash_page_bytes >> 10, cfg->size_bytes >> 20,
		      VFLASH_FLASH_MIN_BLOCKS_PER_DIE);
}

/**
 * vflash_parse_config() - turn module parameters into a configuration
 * @in: the parameters as given
 * @cfg: the configuration, complete only on success
 * @err: on failure, the parameter at fault and why
 *
 * Checks all that needs no look at the system (free memory, /proc/iomem).
 *
 * Return: 0, -EINVAL, or -ENOMEM if the geometry could not be checked.
 */
int vflash_parse_config(const struct vflash_param_strings *in,
			struct vflash_config *cfg,
			struct vflash_param_error *err)
{
	const char *profile = in->profile ? in->profile :
					    VFLASH_DEFAULT_PROFILE;
	unsigned int i;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	ret = parse_frontends(in->frontend, cfg, err);
	if (ret)
		return ret;

	cfg->profile = vflash_profile_find(profile);
	if (!cfg->profile) {
		char names[160];

		vflash_profile_names(names, sizeof(names));
		return refuse(err, "profile", profile,
			      "unknown profile, expected one of: %s", names);
	}
	cfg->model = *cfg->profile;
	if (!cfg->model.op_pct)
		cfg->model.op_pct = VFLASH_DEFAULT_OP_PCT;
	for (i = 0; i < ARRAY_SIZE(geom_params); i++) {
		const char *value = geom_value(in, &geom_params[i]);

		if (!value)
			continue;
		ret = parse_geom(&geom_params[i], value, &cfg->model, err);
		if (ret)
			return ret;
	}

	ret = parse_memory(in, cfg, err);
	if (ret)
		return ret;

	if (vflash_parse_store(in->store ? in->store : VFLASH_DEFAULT_STORE,
			       &cfg->store))
		return refuse(err, "store", in->store,
			      "unknown store, expected one of: full sparse none");
	if (cfg->use_memmap && cfg->store != VFLASH_STORE_FULL)
		return refuse(err, "store", in->store,
			      "only full with memmap_start/memmap_size, whose range holds every page");
	if (in->hold && !sysfs_streq(in->hold, "0") && !sysfs_streq(in->hold, "1"))
		return refuse(err, "hold", in->hold, "must be 0 or 1");
	cfg->hold = in->hold && sysfs_streq(in->hold, "1");
	return in->alone ? 0 : check_geometry(in, cfg, err);
}
