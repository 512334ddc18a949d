// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and validation of vflash's load-time parameters.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>

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
 * vflash_parse_config() - turn module parameters into a configuration
 * @in: the parameters as given
 * @cfg: the configuration, complete only on success
 * @err: on failure, the parameter at fault and why
 *
 * Checks everything that can be checked without touching the system: the
 * frontend names against the registry, the profile name, the syntax and
 * bounds of sizes, that memmap_start and memmap_size come together, and
 * the store mode.
 *
 * Return: 0 or -EINVAL.
 */
int vflash_parse_config(const struct vflash_param_strings *in,
			struct vflash_config *cfg,
			struct vflash_param_error *err)
{
	const char *profile = in->profile ? in->profile :
					    VFLASH_DEFAULT_PROFILE;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	ret = parse_frontends(in->frontend, cfg, err);
	if (ret)
		return ret;

	cfg->profile = vflash_profile_find(profile);
	if (!cfg->profile) {
		char names[96];

		vflash_profile_names(names, sizeof(names));
		return refuse(err, "profile", profile,
			      "unknown profile, expected one of: %s", names);
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
	return 0;
}
