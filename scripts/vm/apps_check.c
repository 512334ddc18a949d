// SPDX-License-Identifier: GPL-2.0
/*
 * apps_check: the apps suite's test program, run under the LD_PRELOAD
 * heap shim (vflashctl run); dynamically linked, so the shim can
 * interpose its malloc. Every check prints "FAIL ..." and exits 1 on a
 * mismatch, or exits 0.
 *
 *   apps_check where               malloc'd memory is a /dev/vflash mapping,
 *                                  and this process's procs line moves
 *   apps_check threads N ITERS     N threads allocate, fill, check, free
 *   apps_check fork                parent and child copies independent
 *   apps_check exec                after exec only the new image's file
 *   apps_check hold MIB            allocate and touch MIB MiB, print
 *                                  "ready PID", sleep until killed
 *   apps_check full                the device fills: NULL/ENOMEM, no SIGBUS
 *   apps_check huge MIB            one MIB MiB block, data, realloc
 *   apps_check aligned             the aligned family and usable sizes
 *   apps_check anon [heap-only]    private anonymous mmap on the device
 *                                  (in DRAM with heap-only): madvise
 *                                  DONTNEED zeroes, mremap keeps data,
 *                                  munmap gives the pages back, fork
 *   apps_check ioctl DEV           (without the shim) the region ioctls'
 *                                  rules: another file's region is not
 *                                  mapped, a whole-device file allocates
 *                                  none, a bad free is EINVAL, data
 *                                  freed is zeroed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../frontend_cxl/vflash_ioctl.h"

#define PROCS "/sys/kernel/debug/vflash/vflash0/procs"

static void failf(const char *what, long a, long b)
{
	printf("FAIL %s (%ld vs %ld)\n", what, a, b);
	fflush(stdout);
	exit(1);
}

/* Is [p, p + len) inside a mapping of a /dev/vflash node? */
static int on_device(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p, lo, hi;
	char line[512], path[256];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &lo, &hi,
			   path) < 2)
			continue;
		if (a >= lo && a + len <= hi && !strncmp(path, "/dev/vflash", 11))
			found = 1;
	}
	fclose(f);
	return found;
}

/* This process's procs line: how many, and the last one's numbers. */
static int procs_of(int pid, long *pages, long *resident, long *misses)
{
	char line[256], comm[64], mode[16];
	long pg, res, mi, wb;
	int p, n = 0;
	FILE *f = fopen(PROCS, "r");

	if (!f)
		failf("no " PROCS, 0, 0);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %63s %15s %ld %ld %ld %ld", &p, comm, mode,
			   &pg, &res, &mi, &wb) == 7 && p == pid) {
			n++;
			*pages = pg;
			*resident = res;
			*misses = mi;
		}
	fclose(f);
	return n;
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static int same(const unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed + i * 7))
			return 0;
	return 1;
}

static int cmd_where(void)
{
	size_t n = 4 << 20;
	unsigned char *big = malloc(n), *small = malloc(100);
	long pg0, res0, mi0, pg1, res1, mi1;

	if (!big || !small)
		failf("malloc", 0, 0);
	if (!on_device(big, n) || !on_device(small, 100))
		failf("malloc'd memory is not a /dev/vflash mapping", 0, 0);
	if (procs_of(getpid(), &pg0, &res0, &mi0) != 1)
		failf("procs lines of this process", procs_of(getpid(), &pg0, &res0, &mi0), 1);
	fill(big, n, 3);
	if (!same(big, n, 3))
		failf("data", 0, 0);
	procs_of(getpid(), &pg1, &res1, &mi1);
	if (pg1 < (long)(n >> 12))
		failf("region pages below the block", pg1, n >> 12);
	if (mi1 < mi0 + (long)(n >> 12))
		failf("misses of touching a fresh block", mi1 - mi0, n >> 12);
	if (res1 <= 0)
		failf("resident pages", res1, 0);
	free(big);
	procs_of(getpid(), &pg0, &res0, &mi0);
	if (pg0 != pg1 - (long)((n + 16 + 65535) / 65536 * 16))
		failf("region pages after free of the large block", pg0, pg1);
	printf("where ok: pages %ld misses %ld resident %ld\n", pg1, mi1, res1);
	return 0;
}

struct worker {
	pthread_t t;
	int id;
	int iters;
	unsigned char **shared;	/* blocks this thread frees for the next */
};

static pthread_mutex_t swap_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *handoff[64];
static size_t handoff_len[64];

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = w->id * 1000003u;
	unsigned char *keep[32] = { 0 };
	size_t len[32] = { 0 };
	int i, k;

	for (i = 0; i < w->iters; i++) {
		k = rand_r(&seed) % 32;
		if (keep[k]) {
			if (!same(keep[k], len[k], k + w->id))
				failf("thread data", w->id, i);
			free(keep[k]);
		}
		len[k] = 1 + rand_r(&seed) % (rand_r(&seed) % 8 ? 2048 : 300000);
		keep[k] = rand_r(&seed) % 2 ? malloc(len[k]) : calloc(1, len[k]);
		if (!keep[k])
			failf("thread malloc", w->id, i);
		fill(keep[k], len[k], k + w->id);
		if (i % 16 == 0) {
			/* Blocks freed by another thread than their own. */
			unsigned char *p = malloc(777);
			int slot = rand_r(&seed) % 64;

			fill(p, 777, 9);
			pthread_mutex_lock(&swap_lock);
			if (handoff[slot] && !same(handoff[slot], handoff_len[slot], 9))
				failf("handed-off data", slot, 0);
			free(handoff[slot]);
			handoff[slot] = p;
			handoff_len[slot] = 777;
			pthread_mutex_unlock(&swap_lock);
		}
	}
	for (k = 0; k < 32; k++) {
		if (keep[k] && !same(keep[k], len[k], k + w->id))
			failf("thread data at the end", w->id, k);
		free(keep[k]);
	}
	return NULL;
}

static int cmd_threads(int n, int iters)
{
	struct worker w[16];
	int i;

	if (n > 16)
		n = 16;
	for (i = 0; i < n; i++) {
		w[i].id = i;
		w[i].iters = iters;
		if (pthread_create(&w[i].t, NULL, work, &w[i]))
			failf("pthread_create", i, 0);
	}
	for (i = 0; i < n; i++)
		pthread_join(w[i].t, NULL);
	if (!on_device(handoff[0] ? handoff[0] : handoff[1], 1))
		failf("handed-off block not on the device", 0, 0);
	printf("threads ok\n");
	return 0;
}

static int cmd_fork(void)
{
	size_t n = 1 << 20, i;
	unsigned char *a = malloc(n), *b = malloc(200);
	int to_child[2], to_parent[2], st;
	char c;
	pid_t pid;

	if (!a || !b || pipe(to_child) || pipe(to_parent))
		failf("setup", 0, 0);
	memset(a, 'A', n);
	strcpy((char *)b, "before");
	pid = fork();
	if (pid < 0)
		failf("fork", errno, 0);
	if (!pid) {
		long pg, res, mi;

		/* The parent wrote 'P' over its copy: ours still says 'A'. */
		if (read(to_child[0], &c, 1) != 1)
			_exit(3);
		for (i = 0; i < n; i++)
			if (a[i] != 'A')
				failf("child sees the parent's write", i, a[i]);
		if (strcmp((char *)b, "before"))
			failf("child's small block", 0, 0);
		if (!on_device(a, n))
			failf("child's copy is not on the device", 0, 0);
		if (procs_of(getpid(), &pg, &res, &mi) != 1 || pg <= 0)
			failf("child's procs line", pg, 0);
		memset(a, 'C', n);
		strcpy((char *)b, "child");
		/* Allocation works in the child. */
		free(malloc(300000));
		if (write(to_parent[1], "c", 1) != 1)
			_exit(3);
		_exit(0);
	}
	memset(a, 'P', n);
	if (write(to_child[1], "p", 1) != 1 || read(to_parent[0], &c, 1) != 1)
		failf("pipe", 0, 0);
	for (i = 0; i < n; i++)
		if (a[i] != 'P')
			failf("parent sees the child's write", i, a[i]);
	if (strcmp((char *)b, "before"))
		failf("parent's small block", 0, 0);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		failf("child's exit", st, 0);
	free(a);
	free(b);
	printf("fork ok\n");
	return 0;
}

static int cmd_exec(int argc, char **argv)
{
	long pg, res, mi;
	char *p;

	if (argc > 2) {
		/* The new image: only its own open file of the device. */
		p = malloc(5000);
		if (!p || !on_device(p, 5000))
			failf("malloc after exec", 0, 0);
		if (procs_of(getpid(), &pg, &res, &mi) != 1)
			failf("procs lines after exec", procs_of(getpid(), &pg, &res, &mi), 1);
		if (pg != 1024)
			failf("region pages after exec (one chunk)", pg, 1024);
		printf("exec ok\n");
		return 0;
	}
	p = malloc(3 << 20);
	if (!p)
		failf("malloc", 0, 0);
	memset(p, 1, 3 << 20);
	execl("/proc/self/exe", argv[0], "exec", "child", (char *)NULL);
	failf("execl", errno, 0);
	return 1;
}

static int cmd_hold(long mib)
{
	size_t n = (size_t)mib << 20;
	unsigned char *p = malloc(n);

	if (!p)
		failf("malloc", mib, 0);
	fill(p, n, 5);
	printf("ready %d\n", getpid());
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static int cmd_full(void)
{
	void *blocks[4096];
	int n = 0, i;
	void *p;

	errno = 0;
	if (malloc((size_t)64 << 30))
		failf("malloc of 64 GiB succeeded", 0, 0);
	if (errno != ENOMEM)
		failf("errno of a too large malloc", errno, ENOMEM);
	/* Fill the device with 1 MiB blocks, each written whole. */
	for (;;) {
		errno = 0;
		p = malloc(1 << 20);
		if (!p)
			break;
		if (n == 4096)
			failf("the device never filled", n, 0);
		memset(p, 0x5a, 1 << 20);
		blocks[n++] = p;
	}
	if (errno != ENOMEM)
		failf("errno of malloc on a full device", errno, ENOMEM);
	if (n < 8)
		failf("blocks before the device was full", n, 8);
	for (i = 0; i < n; i++)
		free(blocks[i]);
	p = malloc(1 << 20);
	if (!p)
		failf("malloc after freeing everything", 0, 0);
	memset(p, 1, 1 << 20);
	free(p);
	printf("full ok: %d MiB before ENOMEM\n", n);
	return 0;
}

static int cmd_huge(long mib)
{
	size_t n = (size_t)mib << 20;
	unsigned char *p = malloc(n);

	if (!p || !on_device(p, n))
		failf("huge malloc on the device", mib, 0);
	fill(p, n, 11);
	p = realloc(p, n + (n >> 1));
	if (!p || !same(p, n, 11))
		failf("realloc kept the data", mib, 0);
	free(p);
	p = calloc(n, 1);
	if (!p)
		failf("huge calloc", 0, 0);
	for (size_t i = 0; i < n; i += 4096)
		if (p[i])
			failf("calloc'd memory not zero", i, p[i]);
	free(p);
	printf("huge ok\n");
	return 0;
}

static int cmd_aligned(void)
{
	size_t al[] = { 32, 64, 4096, 65536, 1 << 20 };
	unsigned int i;
	void *p;

	for (i = 0; i < sizeof(al) / sizeof(al[0]); i++) {
		if (posix_memalign(&p, al[i], 1000 + i) || (uintptr_t)p % al[i])
			failf("posix_memalign", al[i], 0);
		if (malloc_usable_size(p) < 1000 + i)
			failf("usable size of an aligned block", malloc_usable_size(p), 1000);
		memset(p, 7, 1000 + i);
		if (!on_device(p, 1000 + i))
			failf("aligned block not on the device", al[i], 0);
		free(p);
		p = aligned_alloc(al[i], 3 * al[i]);
		if (!p || (uintptr_t)p % al[i])
			failf("aligned_alloc", al[i], 0);
		free(p);
		p = memalign(al[i], 10);
		if (!p || (uintptr_t)p % al[i])
			failf("memalign", al[i], 0);
		free(p);
	}
	p = valloc(100);
	if (!p || (uintptr_t)p % 4096)
		failf("valloc", 0, 0);
	free(p);
	if (posix_memalign(&p, 24, 10) != EINVAL)
		failf("posix_memalign of a bad alignment", 0, EINVAL);
	p = malloc(10);
	if (malloc_usable_size(p) < 10)
		failf("usable size", malloc_usable_size(p), 10);
	p = realloc(p, 100000);
	if (!p || malloc_usable_size(p) < 100000)
		failf("realloc grows", 0, 0);
	free(p);
	printf("aligned ok\n");
	return 0;
}

static int cmd_ioctl(const char *dev)
{
	int a = open(dev, O_RDWR), b = open(dev, O_RDWR), w = open(dev, O_RDWR);
	struct vflash_region r = { .len = 100 }, r2 = { .len = 65536 }, bad;
	unsigned char *p;

	if (a < 0 || b < 0 || w < 0)
		failf("open", errno, 0);
	if (ioctl(a, VFLASH_IOC_ALLOC, &r) || r.len != 65536 || r.offset % 65536)
		failf("ALLOC of 100 bytes: one granule", r.len, 65536);
	p = mmap(NULL, r.len, PROT_READ | PROT_WRITE, MAP_SHARED, a, r.offset);
	if (p == MAP_FAILED)
		failf("mmap of its own region", errno, 0);
	memset(p, 0x77, r.len);
	/* Another file cannot map it, nor past its own region. */
	if (ioctl(b, VFLASH_IOC_ALLOC, &r2))
		failf("ALLOC on a second file", errno, 0);
	if (mmap(NULL, 65536, PROT_READ, MAP_SHARED, b, r.offset) != MAP_FAILED ||
	    errno != EACCES)
		failf("mapping another file's region", errno, EACCES);
	if (mmap(NULL, 2 * 65536, PROT_READ, MAP_SHARED, a, r.offset) != MAP_FAILED ||
	    errno != EACCES)
		failf("mapping past one's region", errno, EACCES);
	/* A file that maps the whole device allocates no region. */
	if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, w, 0) == MAP_FAILED)
		failf("whole-device mmap", errno, 0);
	bad.len = 65536;
	if (!ioctl(w, VFLASH_IOC_ALLOC, &bad) || errno != EBUSY)
		failf("ALLOC on a whole-device file", errno, EBUSY);
	bad.offset = r.offset;
	if (!ioctl(b, VFLASH_IOC_FREE, &bad) || errno != EINVAL)
		failf("FREE of another file's region", errno, EINVAL);
	bad.offset = r.offset + 4096;
	bad.len = 8192;
	if (ioctl(a, VFLASH_IOC_ZERO, &bad))
		failf("ZERO of two pages", errno, 0);
	if (p[0] != 0x77 || p[4096] || p[3 * 4096 - 1] || p[3 * 4096] != 0x77)
		failf("ZERO zeroed exactly its pages", p[4096], 0);
	bad.len = 2 * 65536;
	if (!ioctl(a, VFLASH_IOC_ZERO, &bad) || errno != EINVAL)
		failf("ZERO past the region", errno, EINVAL);
	bad.len = 0;
	if (!ioctl(a, VFLASH_IOC_ALLOC, &bad) || errno != EINVAL)
		failf("ALLOC of 0 bytes", errno, EINVAL);
	munmap(p, r.len);
	if (ioctl(a, VFLASH_IOC_FREE, &r))
		failf("FREE of one's region", errno, 0);
	/* The freed region comes back zeroed to the next owner. */
	r2.len = 65536;
	if (ioctl(a, VFLASH_IOC_ALLOC, &r2))
		failf("ALLOC again", errno, 0);
	p = mmap(NULL, r2.len, PROT_READ, MAP_SHARED, a, r2.offset);
	if (p == MAP_FAILED)
		failf("mmap again", errno, 0);
	for (size_t i = 0; i < r2.len; i++)
		if (p[i])
			failf("a reused region holds old data", i, p[i]);
	if (ioctl(a, 0x1234, &r2) != -1 || errno != ENOTTY)
		failf("an unknown ioctl", errno, ENOTTY);
	close(a);
	close(b);
	close(w);
	printf("ioctl ok\n");
	return 0;
}

static long region_pages(void)
{
	long pg = 0, res, mi;

	procs_of(getpid(), &pg, &res, &mi);
	return pg;
}

static int cmd_anon(int heap_only)
{
	size_t n = 8 << 20, i;
	unsigned char *p, *q, *s;
	long pg0, pg1;
	int st;
	pid_t pid;

	/* Not ours: a stack, a reservation, a file: never on the device. */
	s = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (s == MAP_FAILED || on_device(s, 1))
		failf("a MAP_STACK mapping on the device", 0, 0);
	q = mmap(NULL, 1 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED || on_device(q, 1))
		failf("a PROT_NONE reservation on the device", 0, 0);
	munmap(s, 1 << 20);
	munmap(q, 1 << 20);
	pg0 = region_pages();
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		failf("anonymous mmap", errno, 0);
	if (heap_only) {
		if (on_device(p, n) || region_pages() != pg0)
			failf("heap-only: an anonymous mmap went to the device", 0, 0);
		printf("anon heap-only ok\n");
		return 0;
	}
	if (!on_device(p, n))
		failf("anonymous mmap not on the device", 0, 0);
	if (region_pages() != pg0 + (long)(n >> 12))
		failf("region pages of an 8 MiB mmap", region_pages() - pg0, n >> 12);
	for (i = 0; i < n; i += 4096)
		if (p[i])
			failf("a fresh mapping is not zero", i, p[i]);
	fill(p, n, 21);
	/* madvise(DONTNEED) zeroes exactly its pages. */
	if (madvise(p + (1 << 20), 1 << 20, MADV_DONTNEED))
		failf("madvise DONTNEED", errno, 0);
	for (i = 1 << 20; i < 2u << 20; i += 512)
		if (p[i])
			failf("a page after MADV_DONTNEED is not zero", i, p[i]);
	if (!same(p, 1 << 20, 21) || p[(2 << 20)] != (unsigned char)(21 + (2 << 20) * 7))
		failf("MADV_DONTNEED touched other pages", 0, 0);
	fill(p + (1 << 20), 1 << 20, 21 + (1 << 20) * 7);
	/* MADV_FREE may keep the data; ours does. */
	if (madvise(p, 4096, MADV_FREE) || !same(p, n, 21))
		failf("MADV_FREE", errno, 0);
	/* Grow: it moves, the data comes along; the old pages go back. */
	q = mremap(p, n, 2 * n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED || !on_device(q, 2 * n) || !same(q, n, 21))
		failf("mremap grows with the data", errno, 0);
	for (i = n; i < 2 * n; i += 4096)
		if (q[i])
			failf("the grown part is not zero", i, q[i]);
	pg1 = region_pages();
	if (pg1 != pg0 + (long)(2 * n >> 12))
		failf("region pages after mremap", pg1 - pg0, 2 * n >> 12);
	if (mremap(q, 2 * n, 4 * n, 0) != MAP_FAILED || errno != ENOMEM)
		failf("mremap without MAYMOVE that cannot grow in place", errno, ENOMEM);
	/* Shrink in place. */
	if (mremap(q, 2 * n, n, 0) != q || !same(q, n, 21))
		failf("mremap shrinks in place", errno, 0);
	/* fork: the child has its own copy. */
	pid = fork();
	if (!pid) {
		if (!same(q, n, 21) || !on_device(q, n))
			failf("the child's copy of the mapping", 0, 0);
		memset(q, 0, n);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		failf("the child", st, 0);
	if (!same(q, n, 21))
		failf("the child's write reached the parent", 0, 0);
	/* munmap in two halves: the region goes back with the second. */
	if (munmap(q + n, n) || region_pages() != pg1)
		failf("half a region unmapped stays held", region_pages(), pg1);
	if (munmap(q, n) || region_pages() != pg0)
		failf("region pages after munmap", region_pages() - pg0, 0);
	printf("anon ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(cmd, "where"))
		return cmd_where();
	if (!strcmp(cmd, "threads") && argc == 4)
		return cmd_threads(atoi(argv[2]), atoi(argv[3]));
	if (!strcmp(cmd, "fork"))
		return cmd_fork();
	if (!strcmp(cmd, "exec"))
		return cmd_exec(argc, argv);
	if (!strcmp(cmd, "hold") && argc == 3)
		return cmd_hold(atol(argv[2]));
	if (!strcmp(cmd, "full"))
		return cmd_full();
	if (!strcmp(cmd, "huge") && argc == 3)
		return cmd_huge(atol(argv[2]));
	if (!strcmp(cmd, "aligned"))
		return cmd_aligned();
	if (!strcmp(cmd, "anon"))
		return cmd_anon(argc > 2 && !strcmp(argv[2], "heap-only"));
	if (!strcmp(cmd, "ioctl") && argc == 3)
		return cmd_ioctl(argv[2]);
	fprintf(stderr, "usage: apps_check where|threads N ITERS|fork|exec|hold MIB|full|huge MIB|aligned\n");
	return 2;
}
