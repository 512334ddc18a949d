// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libvflash-shim.so: an LD_PRELOAD heap on a CXL-mode vflash device
 * (docs/apps.md, docs/design/apps.md). The malloc family of the program
 * is served from private regions of /dev/vflash<N> (VFLASH_IOC_ALLOC),
 * mapped into one reserved window of the address space; fork() gives
 * the child its own copy of every region, on the device.
 *
 * Unless VFLASH_SHIM_HEAP_ONLY=1, private anonymous writable mmap()s
 * (not MAP_FIXED, MAP_STACK, MAP_GROWSDOWN, MAP_HUGETLB) are regions too,
 * and munmap, mremap and madvise(MADV_DONTNEED) on them are handled here.
 *
 * Environment: VFLASH_SHIM_DEVICE (default /dev/vflash0),
 * VFLASH_SHIM_HEAP_ONLY=1, VFLASH_SHIM_VERBOSE=1 (a line at start).
 *
 * Small sizes (up to SMALL_MAX) come from size classes carved out of 4
 * MiB chunk regions; larger ones get a region each, returned to the
 * device by free(). One mutex serialises the heap (thread-safe, simple).
 * Allocator metadata (the region table, the window bitmap) lives in
 * ordinary anonymous memory; program data lives on the device.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../frontend_cxl/vflash_ioctl.h"

#define EXPORT		__attribute__((visibility("default")))
#define GRANULE		((size_t)VFLASH_REGION_GRANULE)
#define CHUNK_BYTES	((size_t)4 << 20)
#define HDR		16
#define SMALL_MAX	((size_t)128 << 10)
#define MAGIC		0x76666c68u	/* "vflh" */
#define CLS_LARGE	0xffffu
#define CLS_ALIGNED	0xfffeu
#define NR_CLASSES	64

/* The header before every block the program sees. */
struct hdr {
	uint32_t magic;
	uint32_t cls;	/* class, CLS_LARGE, or CLS_ALIGNED */
	uint64_t size;	/* usable bytes; CLS_ALIGNED: bytes back to the block */
};

/* A region of the device mapped at @va. */
struct region {
	uintptr_t va;
	size_t len;
	size_t dead;	/* bytes munmap()ed (zeroed) of an mmap region */
	int mapped;	/* an mmap(), not the heap */
	uint64_t off;	/* on the device, through dev_fd */
	uint64_t child_off;	/* fork: the child's copy, through fork_fd */
};

static pthread_mutex_t heap_lock = PTHREAD_MUTEX_INITIALIZER;
static int state;	/* 0 not yet, 1 ready, -1 failed */
static int dev_fd = -1, fork_fd = -1, fork_failed, heap_only;
static char dev_path[256] = "/dev/vflash0";
static uintptr_t win_base;
static size_t win_len;
static uint8_t *win_map;	/* a byte per granule of the window: used */
static struct region *regions;
static size_t nr_regions, cap_regions;
static size_t class_size[NR_CLASSES];
static unsigned int nr_classes;
static void *free_list[NR_CLASSES];
static uintptr_t chunk_next, chunk_end;

/* The kernel's calls: this library's own mmap() is interposed. */
static void *sys_mmap(void *a, size_t len, int prot, int flags, int fd,
		      off_t off)
{
	return (void *)syscall(SYS_mmap, a, len, prot, flags, fd, off);
}

static int sys_munmap(void *a, size_t len)
{
	return (int)syscall(SYS_munmap, a, len);
}

static void say(const char *msg)
{
	ssize_t n = write(2, msg, strlen(msg));

	(void)n;
}

/* Anonymous memory outside the heap, for metadata. */
static void *meta_map(size_t len)
{
	void *p = sys_mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int init_locked(void)
{
	const char *env = getenv("VFLASH_SHIM_DEVICE");
	size_t sz = 16, i;
	off_t dev_size;

	if (state)
		return state;
	state = -1;
	if (env && *env && strlen(env) < sizeof(dev_path))
		strcpy(dev_path, env);
	dev_fd = open(dev_path, O_RDWR | O_CLOEXEC);
	if (dev_fd < 0) {
		say("vflash shim: cannot open the device (VFLASH_SHIM_DEVICE): malloc fails\n");
		return state;
	}
	dev_size = lseek(dev_fd, 0, SEEK_END);
	if (dev_size <= 0)
		return state;
	/* Room for fragmentation: four times the device. */
	win_len = ((size_t)dev_size / GRANULE) * GRANULE * 4;
	win_base = (uintptr_t)sys_mmap(NULL, win_len, PROT_NONE,
				       MAP_PRIVATE | MAP_ANONYMOUS |
				       MAP_NORESERVE, -1, 0);
	if ((void *)win_base == MAP_FAILED)
		return state;
	win_map = meta_map(win_len / GRANULE);
	if (!win_map)
		return state;
	for (i = 0; i < NR_CLASSES && sz <= SMALL_MAX; i++) {
		class_size[i] = sz;
		/* Four classes per doubling above 128 bytes. */
		sz += sz < 128 ? 16 : (size_t)1 << (63 - __builtin_clzl(sz) - 2);
	}
	nr_classes = i;
	state = 1;
	env = getenv("VFLASH_SHIM_HEAP_ONLY");
	heap_only = env && *env == '1';
	env = getenv("VFLASH_SHIM_VERBOSE");
	if (env && *env == '1')
		say("vflash shim: heap on the device\n");
	return state;
}

/* A free run of @len bytes in the window, marked used; 0 if none. */
static uintptr_t va_alloc(size_t len)
{
	size_t n = len / GRANULE, total = win_len / GRANULE, i, run = 0;

	for (i = 0; i < total; i++) {
		run = win_map[i] ? 0 : run + 1;
		if (run == n) {
			memset(win_map + i + 1 - n, 1, n);
			return win_base + (i + 1 - n) * GRANULE;
		}
	}
	return 0;
}

static void va_free(uintptr_t va, size_t len)
{
	memset(win_map + (va - win_base) / GRANULE, 0, len / GRANULE);
}

static struct region *region_add(void)
{
	if (nr_regions == cap_regions) {
		size_t cap = cap_regions ? cap_regions * 2 : 256;
		struct region *r = meta_map(cap * sizeof(*r));

		if (!r)
			return NULL;
		if (regions) {
			memcpy(r, regions, nr_regions * sizeof(*r));
			sys_munmap(regions, cap_regions * sizeof(*r));
		}
		regions = r;
		cap_regions = cap;
	}
	return &regions[nr_regions++];
}

/* A new region of at least @len bytes, mapped; NULL with errno set. */
static struct region *region_new(size_t len)
{
	struct vflash_region arg = { .len = len };
	struct region *r;
	uintptr_t va;
	void *p;

	if (state != 1 && init_locked() != 1) {
		errno = ENOMEM;
		return NULL;
	}
	if (ioctl(dev_fd, VFLASH_IOC_ALLOC, &arg)) {
		errno = ENOMEM;
		return NULL;
	}
	va = va_alloc(arg.len);
	if (!va)
		goto err_free;
	p = sys_mmap((void *)va, arg.len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_FIXED, dev_fd, arg.offset);
	if (p == MAP_FAILED)
		goto err_va;
	r = region_add();
	if (!r)
		goto err_map;
	r->va = va;
	r->len = arg.len;
	r->off = arg.offset;
	r->dead = 0;
	r->mapped = 0;
	return r;
err_map:
	sys_mmap((void *)va, arg.len, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
err_va:
	va_free(va, arg.len);
err_free:
	ioctl(dev_fd, VFLASH_IOC_FREE, &arg);
	errno = ENOMEM;
	return NULL;
}

/* Give the region at @va back to the device and the window. */
static void region_del(uintptr_t va)
{
	struct vflash_region arg;
	size_t i;

	for (i = 0; i < nr_regions && regions[i].va != va; i++)
		;
	if (i == nr_regions)
		return;
	arg.offset = regions[i].off;
	arg.len = regions[i].len;
	/* Keep the window reserved. */
	sys_mmap((void *)va, arg.len, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
	ioctl(dev_fd, VFLASH_IOC_FREE, &arg);
	va_free(va, arg.len);
	regions[i] = regions[--nr_regions];
}

static int ours(const void *p)
{
	return state == 1 && (uintptr_t)p >= win_base &&
	       (uintptr_t)p < win_base + win_len;
}

static unsigned int class_of(size_t n)
{
	unsigned int lo = 0, hi = nr_classes - 1;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (class_size[mid] >= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void *alloc_locked(size_t size)
{
	struct hdr *h;

	if (state != 1 && init_locked() != 1) {
		errno = ENOMEM;
		return NULL;
	}
	if (size > SIZE_MAX / 2) {
		errno = ENOMEM;
		return NULL;
	}
	if (size + HDR <= SMALL_MAX) {
		unsigned int c = class_of(size + HDR);
		size_t bytes = class_size[c];

		h = free_list[c];
		if (h) {
			free_list[c] = *(void **)h;
		} else {
			if (chunk_next + bytes > chunk_end) {
				struct region *r = region_new(CHUNK_BYTES);

				if (!r)
					return NULL;
				chunk_next = r->va;
				chunk_end = r->va + r->len;
			}
			h = (struct hdr *)chunk_next;
			chunk_next += bytes;
		}
		h->magic = MAGIC;
		h->cls = c;
		h->size = bytes - HDR;
	} else {
		size_t len = (size + HDR + GRANULE - 1) / GRANULE * GRANULE;
		struct region *r = region_new(len);

		if (!r)
			return NULL;
		h = (struct hdr *)r->va;
		h->magic = MAGIC;
		h->cls = CLS_LARGE;
		h->size = r->len - HDR;
	}
	return h + 1;
}

static struct hdr *hdr_of(void *p)
{
	struct hdr *h = (struct hdr *)p - 1;

	if (h->magic != MAGIC)
		return NULL;
	if (h->cls == CLS_ALIGNED)
		h = (struct hdr *)((char *)p - h->size) - 1;
	return h->magic == MAGIC ? h : NULL;
}

static void free_locked(void *p)
{
	struct hdr *h = hdr_of(p);

	if (!h) {
		say("vflash shim: free() of a pointer that is not a block\n");
		abort();
	}
	h->magic = 0;
	if (h->cls == CLS_LARGE) {
		region_del((uintptr_t)h);
		return;
	}
	*(void **)h = free_list[h->cls];
	free_list[h->cls] = h;
}

static size_t usable(void *p)
{
	struct hdr *h = (struct hdr *)p - 1;
	size_t back = h->cls == CLS_ALIGNED ? h->size : 0;

	h = hdr_of(p);
	return h ? h->size - back : 0;
}

EXPORT void *malloc(size_t size)
{
	void *p;

	pthread_mutex_lock(&heap_lock);
	p = alloc_locked(size);
	pthread_mutex_unlock(&heap_lock);
	return p;
}

EXPORT void free(void *p)
{
	if (!p || !ours(p))
		return;
	pthread_mutex_lock(&heap_lock);
	free_locked(p);
	pthread_mutex_unlock(&heap_lock);
}

EXPORT void *calloc(size_t n, size_t size)
{
	struct hdr *h;
	void *p;

	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_lock(&heap_lock);
	p = alloc_locked(n * size);
	pthread_mutex_unlock(&heap_lock);
	if (!p)
		return NULL;
	h = (struct hdr *)((char *)p - HDR);
	/* A new large region reads as zeros (the kernel zeroed it). */
	if (h->cls != CLS_LARGE)
		memset(p, 0, n * size);
	return p;
}

EXPORT size_t malloc_usable_size(void *p)
{
	return p && ours(p) ? usable(p) : 0;
}

EXPORT void *realloc(void *p, size_t size)
{
	size_t have;
	void *q;

	if (!p)
		return malloc(size);
	if (!size) {
		free(p);
		return NULL;
	}
	if (!ours(p)) {
		errno = ENOMEM;
		return NULL;
	}
	have = usable(p);
	if (size <= have && size >= have / 2)
		return p;
	q = malloc(size);
	if (!q)
		return NULL;
	memcpy(q, p, size < have ? size : have);
	free(p);
	return q;
}

EXPORT void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

/* @align a power of two. */
static void *aligned(size_t align, size_t size)
{
	uintptr_t p, q;
	struct hdr *h;

	if (align <= HDR)
		return malloc(size);
	if (size > SIZE_MAX / 2 - align) {
		errno = ENOMEM;
		return NULL;
	}
	p = (uintptr_t)malloc(size + align + HDR);
	if (!p)
		return NULL;
	q = (p + HDR + align - 1) & ~(uintptr_t)(align - 1);
	h = (struct hdr *)q - 1;
	h->magic = MAGIC;
	h->cls = CLS_ALIGNED;
	h->size = q - p;
	return (void *)q;
}

static int pow2(size_t a)
{
	return a && !(a & (a - 1));
}

EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (!pow2(align) || align % sizeof(void *))
		return EINVAL;
	p = aligned(align, size);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
	if (!pow2(align)) {
		errno = EINVAL;
		return NULL;
	}
	return aligned(align, size);
}

EXPORT void *memalign(size_t align, size_t size)
{
	return aligned_alloc(align, size);
}

EXPORT void *valloc(size_t size)
{
	return aligned((size_t)sysconf(_SC_PAGESIZE), size);
}

EXPORT void *pvalloc(size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return aligned(pg, (size + pg - 1) / pg * pg);
}

/*
 * Private anonymous memory (unless VFLASH_SHIM_HEAP_ONLY=1). A partial
 * munmap() of a region zeroes that part (VFLASH_IOC_ZERO) and leaves it
 * mapped until the whole region is unmapped (docs/apps.md, limits).
 */
static int anon_ours(int prot, int flags)
{
	return !heap_only && (flags & MAP_ANONYMOUS) &&
	       (flags & MAP_TYPE) == MAP_PRIVATE && (prot & PROT_WRITE) &&
	       !(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE | MAP_STACK |
			  MAP_GROWSDOWN | MAP_HUGETLB));
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	struct region *r;
	uintptr_t va;

	if (!len || !anon_ours(prot, flags))
		return sys_mmap(addr, len, prot, flags, fd, off);
	pthread_mutex_lock(&heap_lock);
	if (state != 1 && init_locked() != 1) {
		pthread_mutex_unlock(&heap_lock);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	if (heap_only) {
		pthread_mutex_unlock(&heap_lock);
		return sys_mmap(addr, len, prot, flags, fd, off);
	}
	r = len > SIZE_MAX / 2 ? NULL :
	    region_new((len + GRANULE - 1) / GRANULE * GRANULE);
	if (!r) {
		pthread_mutex_unlock(&heap_lock);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	r->mapped = 1;
	va = r->va;
	pthread_mutex_unlock(&heap_lock);
	if ((prot & (PROT_READ | PROT_WRITE | PROT_EXEC)) !=
	    (PROT_READ | PROT_WRITE))
		mprotect((void *)va, len, prot);
	return (void *)va;
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd,
		    off_t off) __attribute__((alias("mmap")));

/* Zero [a, a + len) of region @r through the device; page-aligned. */
static void zero_part(struct region *r, uintptr_t a, size_t len)
{
	struct vflash_region arg;

	arg.offset = r->off + (a - r->va);
	arg.len = len;
	ioctl(dev_fd, VFLASH_IOC_ZERO, &arg);
}

/*
 * The part of [a, a + len) in region @i: its start and length (0 if
 * none), rounded to pages.
 */
static size_t overlap(size_t i, uintptr_t a, size_t len, uintptr_t *start)
{
	uintptr_t lo = a > regions[i].va ? a : regions[i].va;
	uintptr_t hi = a + len < regions[i].va + regions[i].len ?
		       a + len : regions[i].va + regions[i].len;

	lo &= ~(uintptr_t)4095;
	hi = (hi + 4095) & ~(uintptr_t)4095;
	if (hi > regions[i].va + regions[i].len)
		hi = regions[i].va + regions[i].len;
	*start = lo;
	return hi > lo ? hi - lo : 0;
}

static int in_window(const void *a)
{
	return state == 1 && (uintptr_t)a >= win_base &&
	       (uintptr_t)a < win_base + win_len;
}

EXPORT int munmap(void *addr, size_t len)
{
	uintptr_t a = (uintptr_t)addr, start;
	size_t i, n;

	if (!in_window(addr))
		return sys_munmap(addr, len);
	if (a & 4095 || !len) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&heap_lock);
	for (i = 0; i < nr_regions; ) {
		n = regions[i].mapped ? overlap(i, a, len, &start) : 0;
		if (n && (n == regions[i].len ||
			  regions[i].dead + n >= regions[i].len)) {
			region_del(regions[i].va);	/* moves the last here */
			continue;
		}
		if (n) {
			zero_part(&regions[i], start, n);
			regions[i].dead += n;
		}
		i++;
	}
	pthread_mutex_unlock(&heap_lock);
	return 0;
}

EXPORT int madvise(void *addr, size_t len, int advice)
{
	uintptr_t start;
	size_t i, n;

	if (!in_window(addr) ||
	    (advice != MADV_DONTNEED && advice != MADV_FREE))
		return (int)syscall(SYS_madvise, addr, len, advice);
	/* MADV_FREE may keep the data: it does. */
	if (advice == MADV_FREE)
		return 0;
	pthread_mutex_lock(&heap_lock);
	for (i = 0; i < nr_regions; i++) {
		n = overlap(i, (uintptr_t)addr, len, &start);
		if (n)
			zero_part(&regions[i], start, n);
	}
	pthread_mutex_unlock(&heap_lock);
	return 0;
}

EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	struct region *r = NULL, *nr;
	uintptr_t va, a = (uintptr_t)old;
	void *new_addr = NULL;
	size_t i, keep;
	va_list ap;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	if (!in_window(old))
		return (void *)syscall(SYS_mremap, old, old_len, new_len,
				       flags, new_addr);
	pthread_mutex_lock(&heap_lock);
	for (i = 0; i < nr_regions; i++)
		if (regions[i].va == a && regions[i].mapped)
			r = &regions[i];
	if (!r || !new_len || flags & MREMAP_FIXED) {
		pthread_mutex_unlock(&heap_lock);
		errno = EINVAL;
		return MAP_FAILED;
	}
	keep = (new_len + 4095) & ~(size_t)4095;
	if (keep <= r->len) {
		/* In place: what is cut off reads zeros if it comes back. */
		if (keep < old_len)
			zero_part(r, a + keep,
				  (((old_len + 4095) & ~(size_t)4095) - keep));
		pthread_mutex_unlock(&heap_lock);
		return old;
	}
	if (!(flags & MREMAP_MAYMOVE)) {
		pthread_mutex_unlock(&heap_lock);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	nr = region_new((new_len + GRANULE - 1) / GRANULE * GRANULE);
	if (!nr) {
		pthread_mutex_unlock(&heap_lock);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	nr->mapped = 1;
	va = nr->va;
	/* region_new() may have moved the table: find the old one again. */
	for (i = 0; i < nr_regions; i++)
		if (regions[i].va == a)
			r = &regions[i];
	memcpy((void *)va, old, old_len < r->len ? old_len : r->len);
	region_del(a);
	pthread_mutex_unlock(&heap_lock);
	return (void *)va;
}

static void others_prepare(void);
static void others_after(int child);

/*
 * fork: copy every region into a fresh region of a new open file, before
 * the fork, while the heap is locked; the child maps the copies at the
 * same addresses (the kernel copies no mapping of a region: VM_DONTCOPY)
 * and the parent closes the new file. Writes by other threads to the
 * heap between the copy and the fork are lost to the child (documented).
 */
static void fork_prepare(void)
{
	size_t i;

	others_prepare();
	pthread_mutex_lock(&heap_lock);
	fork_failed = 0;
	fork_fd = -1;
	if (state != 1 || !nr_regions)
		return;
	fork_fd = open(dev_path, O_RDWR | O_CLOEXEC);
	if (fork_fd < 0) {
		fork_failed = 1;
		return;
	}
	for (i = 0; i < nr_regions; i++) {
		struct vflash_region arg = { .len = regions[i].len };
		void *p;

		if (ioctl(fork_fd, VFLASH_IOC_ALLOC, &arg)) {
			fork_failed = 1;
			return;
		}
		p = sys_mmap(NULL, arg.len, PROT_READ | PROT_WRITE, MAP_SHARED,
			     fork_fd, arg.offset);
		if (p == MAP_FAILED) {
			fork_failed = 1;
			return;
		}
		memcpy(p, (void *)regions[i].va, arg.len);
		sys_munmap(p, arg.len);
		regions[i].child_off = arg.offset;
	}
}

/*
 * Other libraries' fork handlers. glibc runs child handlers in the order
 * they were registered, and a library initialised before this one (the
 * libjemalloc of Debian's redis registers from its constructor) would
 * have its child handler touch its memory on the device before
 * fork_child() has mapped the child's copies. So pthread_atfork()
 * (__register_atfork()) is interposed: the handlers are kept here and
 * run from ours: every other prepare handler (last registered first)
 * before the copy, every other child and parent handler (first
 * registered first) after ours. A library unloaded by dlclose() keeps
 * its handlers here (glibc would drop them): do not dlclose one that
 * registers fork handlers.
 */
#define MAX_ATFORK	64

struct atfork {
	void (*prepare)(void);
	void (*parent)(void);
	void (*child)(void);
};

static struct atfork atforks[MAX_ATFORK];
static int nr_atforks;
static pthread_mutex_t atfork_lock = PTHREAD_MUTEX_INITIALIZER;

EXPORT int __register_atfork(void (*prepare)(void), void (*parent)(void),
			     void (*child)(void), void *dso)
{
	(void)dso;
	pthread_mutex_lock(&atfork_lock);
	if (nr_atforks == MAX_ATFORK) {
		pthread_mutex_unlock(&atfork_lock);
		say("vflash shim: too many fork handlers\n");
		return ENOMEM;
	}
	atforks[nr_atforks].prepare = prepare;
	atforks[nr_atforks].parent = parent;
	atforks[nr_atforks].child = child;
	nr_atforks++;
	pthread_mutex_unlock(&atfork_lock);
	return 0;
}

static void others_prepare(void)
{
	int i;

	pthread_mutex_lock(&atfork_lock);
	for (i = nr_atforks - 1; i >= 0; i--)
		if (atforks[i].prepare)
			atforks[i].prepare();
}

static void others_after(int child)
{
	int i;

	if (child)
		pthread_mutex_init(&atfork_lock, NULL);
	for (i = 0; i < nr_atforks; i++) {
		void (*fn)(void) = child ? atforks[i].child : atforks[i].parent;

		if (fn)
			fn();
	}
	if (!child)
		pthread_mutex_unlock(&atfork_lock);
}

static void fork_parent(void)
{
	if (fork_fd >= 0)
		close(fork_fd);
	fork_fd = -1;
	pthread_mutex_unlock(&heap_lock);
	others_after(0);
}

static void fork_child(void)
{
	size_t i;

	if (fork_failed) {
		say("vflash shim: fork: no room on the device for the child's copy of the heap; the child exits\n");
		_exit(127);
	}
	if (fork_fd >= 0) {
		for (i = 0; i < nr_regions; i++) {
			void *p = sys_mmap((void *)regions[i].va,
					   regions[i].len,
					   PROT_READ | PROT_WRITE,
					   MAP_SHARED | MAP_FIXED, fork_fd,
					   regions[i].child_off);

			if (p == MAP_FAILED) {
				say("vflash shim: fork: cannot map the child's heap; the child exits\n");
				_exit(127);
			}
			regions[i].off = regions[i].child_off;
		}
		close(dev_fd);
		dev_fd = fork_fd;
		fork_fd = -1;
	}
	pthread_mutex_unlock(&heap_lock);
	others_after(1);
}

/* Our handlers, with the C library's own __register_atfork(). */
static void register_ours(void)
{
	int (*real)(void (*)(void), void (*)(void), void (*)(void), void *);

	real = (int (*)(void (*)(void), void (*)(void), void (*)(void),
			void *))dlvsym(RTLD_NEXT, "__register_atfork",
				       "GLIBC_2.3.2");
	if (!real || real(fork_prepare, fork_parent, fork_child, NULL))
		say("vflash shim: cannot register the fork handlers: a fork child would share nothing\n");
}

__attribute__((constructor)) static void shim_init(void)
{
	pthread_mutex_lock(&heap_lock);
	init_locked();
	pthread_mutex_unlock(&heap_lock);
	register_ours();
}
