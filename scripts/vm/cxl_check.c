// SPDX-License-Identifier: GPL-2.0
/*
 * cxl_check: data and mapping checks of the CXL frontend's /dev/vflash0,
 * for the VM suite scripts/vm/suites/cxl.sh. Exit status 0 on success;
 * every failure prints one line saying what differed.
 *
 *   fill DEV BYTES SEED      write a pattern over the first BYTES
 *   verify DEV BYTES SEED    check it
 *   share DEV                a fork()ed child and a process that maps the
 *                            device on its own see each other's writes
 *   remap DEV BYTES          mremap/munmap/mmap windows while a thread
 *                            sweeps BYTES (evicting), data checked
 *   bad DEV BYTES            MAP_PRIVATE, offset or length beyond the
 *                            device: EINVAL; a mapping mremap()ed past
 *                            the end: SIGBUS there (grown in place, or
 *                            by moving where the kernel refuses that;
 *                            it says which)
 *   hold DEV                 map, touch, close the fd, print "ready",
 *                            unmap when stdin reaches EOF
 *   hot DEV BYTES CACHE ROUNDS [MS]
 *                            page 0 re-read by plain loads between
 *                            sweeps of cold pages, MS (default 100) ms
 *                            apart (see hot())
 *   sweep DEV BYTES N        N sequential reads of one word per page
 *   rw DEV BYTES             read one word of every page, then write it
 *                            (read faults map read-only: the writes go
 *                            through pfn_mkwrite)
 *   stress DEV BYTES T ITERS T threads write and check stamps in pages
 *                            of their own
 *   rdonly DEV               an O_RDONLY file maps MAP_SHARED + PROT_READ;
 *                            PROT_WRITE (mmap or mprotect): EACCES;
 *                            MAP_PRIVATE: EINVAL
 *   thrash DEV BYTES SLOTS T MS RESIDENT
 *                            for MS ms, T threads write and check stamps
 *                            in one mapping of BYTES (<= 2 MiB, so one
 *                            page table: mincore() is a snapshot) while a
 *                            thread reads through a second mapping it
 *                            MADV_DONTNEEDs and mprotect()s; meanwhile
 *                            the present pages of each mapping never
 *                            outnumber SLOTS, and once the threads have
 *                            stopped those of both never outnumber the
 *                            sysfs counter file RESIDENT read before
 *   fault DEV BYTES T        T threads read random pages until killed
 *   forkdirty DEV BYTES      read every page (read-only PTEs), a fork()ed
 *                            child writes a stamp in each, the parent
 *                            checks the stamps after the child exits
 *   zeros DEV BYTES WRITE    every byte of the first BYTES reads zero;
 *                            then, if WRITE is 1, a word is stored in
 *                            every page through that same mapping (read
 *                            faults map read-only: pfn_mkwrite), so that
 *                            store=none's write path runs
 *   poison DEV BYTES PAGE ARMED
 *                            read every page (mapped), write 1 to the
 *                            file ARMED (the poison rule's armed file),
 *                            then: a load from PAGE gets SIGBUS with
 *                            si_code BUS_MCEERR_AR and si_addr the page,
 *                            twice; a store there too; the next page
 *                            reads
 *   poisonrace DEV BYTES PAGE ARMED
 *                            a thread loads from PAGE, not resident, its
 *                            NAND read slow (the caller raises the read
 *                            time); once the thread sleeps in that fault,
 *                            1 is written to ARMED: the load must end in
 *                            SIGBUS BUS_MCEERR_AR at the page (exit 3 if
 *                            the fault was over before the arming: no
 *                            race run)
 *   poisonwrite DEV BYTES PAGE ARMED BEFORE
 *                            a load from PAGE (mapped read-only) before
 *                            (BEFORE 1) or after (0: the rule lets it
 *                            through, e.g. `after` 1) 1 is written to
 *                            ARMED; the load reads, then a store there
 *                            gets SIGBUS BUS_MCEERR_AR
 *   fillat DEV PAGE BYTES SEED
 *   verifyat DEV PAGE BYTES SEED
 *                            fill and verify, BYTES from page PAGE on
 *                            (the pattern of fill over those BYTES)
 *   dump DEV PAGE N          pages PAGE .. PAGE + N - 1 to stdout
 *   load DEV PAGE N          stdin (N pages of it) into those pages
 *   zeroafter DEV PAGE       map and read page PAGE, print "ready", and
 *                            when stdin reaches EOF check, through the
 *                            same mapping, that the page reads as zeros
 *   sameafter DEV PAGE FILE  map and read page PAGE, print "ready", and
 *                            when stdin reaches EOF check, through the
 *                            same mapping, that the page holds FILE's
 *                            first 4096 bytes
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE	4096UL

static const char *dev;

static void die(const char *what)
{
	fprintf(stderr, "cxl_check: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_dev(void)
{
	int fd = open(dev, O_RDWR);

	if (fd < 0)
		die(dev);
	return fd;
}

static void *map_dev(size_t len, off_t off)
{
	int fd = open_dev();
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);

	if (p == MAP_FAILED)
		die("mmap");
	close(fd);
	return p;
}

static uint64_t word(uint64_t seed, uint64_t i)
{
	uint64_t x = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ i;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

static int fill_at(off_t off, size_t bytes, uint64_t seed, int check)
{
	volatile uint64_t *p = map_dev(bytes, off);
	uint64_t i, n = bytes / 8;

	for (i = 0; i < n; i++) {
		if (!check) {
			p[i] = word(seed, i);
		} else if (p[i] != word(seed, i)) {
			fprintf(stderr, "cxl_check: byte %llu: %#llx, want %#llx\n",
				(unsigned long long)i * 8,
				(unsigned long long)p[i],
				(unsigned long long)word(seed, i));
			return 1;
		}
	}
	munmap((void *)p, bytes);
	return 0;
}

/* Wait until *@w holds @v (written by another process). */
static int await(volatile uint64_t *w, uint64_t v)
{
	int n;

	for (n = 0; n < 100000; n++) {
		if (*w == v)
			return 0;
		usleep(100);
	}
	fprintf(stderr, "cxl_check: never saw %#llx (have %#llx)\n",
		(unsigned long long)v, (unsigned long long)*w);
	return 1;
}

static int share(void)
{
	volatile uint64_t *p = map_dev(4 * PAGE, 0);
	pid_t a, b;
	int st, bad = 0;

	p[0] = p[512] = p[1024] = 0;
	a = fork();
	if (a == 0)	/* inherits the mapping */
		_exit(await(&p[0], 1) || (p[512] = 2, await(&p[1024], 3)));
	b = fork();
	if (b == 0) {	/* maps the device itself */
		volatile uint64_t *q = map_dev(4 * PAGE, 0);

		_exit(await(&q[512], 2) || (q[1024] = 3, 0));
	}
	p[0] = 1;	/* parent -> child a -> process b -> child a */
	waitpid(a, &st, 0);
	bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	waitpid(b, &st, 0);
	bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	if (bad || p[512] != 2 || p[1024] != 3) {
		fprintf(stderr, "cxl_check: share: a process missed a write\n");
		return 1;
	}
	return 0;
}

struct sweeper {
	size_t bytes;
	volatile int stop;
};

static void *sweep_thread(void *arg)
{
	struct sweeper *s = arg;
	volatile uint64_t *p = map_dev(s->bytes, 0);
	uint64_t sum = 0, i;

	while (!s->stop)
		for (i = 0; i < s->bytes / 8 && !s->stop; i += PAGE / 8)
			sum += p[i];
	munmap((void *)p, s->bytes);
	return (void *)(uintptr_t)(sum & 1);
}

static int remap(size_t bytes)
{
	struct sweeper s = { .bytes = bytes };
	size_t win = 64 * PAGE;
	pthread_t t;
	int round, bad = 0;

	if (pthread_create(&t, NULL, sweep_thread, &s))
		die("pthread_create");
	for (round = 0; round < 20 && !bad; round++) {
		off_t off = (off_t)(round * 37 % (bytes / win - 1)) * win;
		uint64_t *p = map_dev(win, off), *q, i;
		void *hole;

		for (i = 0; i < win / 8; i += 64)
			p[i] = word(round, off / 8 + i);
		/* Move the window elsewhere, then drop its middle. */
		hole = mmap(NULL, win, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
		if (hole == MAP_FAILED)
			die("mmap hole");
		q = mremap(p, win, win, MREMAP_MAYMOVE | MREMAP_FIXED, hole);
		if (q == MAP_FAILED)
			die("mremap");
		if (munmap((char *)q + win / 4, win / 2))
			die("munmap");
		for (i = 0; i < win / 8; i += 64) {
			if (i >= win / 32 && i < 3 * win / 32)
				continue;
			if (q[i] != word(round, off / 8 + i))
				bad = 1;
		}
		/* Shrink what is left at the front. */
		q = mremap(q, win / 4, PAGE, 0);
		if (q == MAP_FAILED)
			die("mremap shrink");
		if (q[0] != word(round, off / 8))
			bad = 1;
		munmap(q, PAGE);
		munmap((char *)q + 3 * win / 4, win / 4);
		/* And the whole window again through a new mapping. */
		p = map_dev(win, off);
		for (i = 0; i < win / 8; i += 64)
			if (p[i] != word(round, off / 8 + i))
				bad = 1;
		munmap(p, win);
	}
	s.stop = 1;
	pthread_join(t, NULL);
	if (bad)
		fprintf(stderr, "cxl_check: remap: data changed\n");
	return bad;
}

static sigjmp_buf jump;
static volatile int got_sig;

static void on_signal(int sig)
{
	got_sig = sig;
	siglongjmp(jump, 1);
}

static int expect_einval(size_t len, off_t off, int flags, const char *what)
{
	int fd = open_dev();
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, off);

	close(fd);
	if (p != MAP_FAILED || errno != EINVAL) {
		fprintf(stderr, "cxl_check: %s: not EINVAL\n", what);
		return 1;
	}
	return 0;
}

static int bad(size_t bytes)
{
	volatile char *p;
	volatile int ret = 0;
	char *r, *q;
	int fd;

	ret |= expect_einval(PAGE, 0, MAP_PRIVATE, "MAP_PRIVATE");
	ret |= expect_einval(PAGE, bytes, MAP_SHARED, "offset at the end");
	ret |= expect_einval(bytes + PAGE, 0, MAP_SHARED, "length beyond");
	ret |= expect_einval(2 * PAGE, bytes - PAGE, MAP_SHARED,
			     "last page + 1");
	/*
	 * The last page maps. mremap() grows the mapping by a page past the
	 * device's end (a mapping of /dev/daxX.Y grows the same way), in
	 * place into a hole left for it in a reserved range: the last page
	 * still reads back, the page beyond the end is SIGBUS.
	 */
	r = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		die("mmap reserve");
	fd = open_dev();
	p = mmap(r, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 bytes - PAGE);
	if (p == MAP_FAILED)
		die("mmap last page");
	close(fd);
	p[PAGE - 1] = 7;
	munmap(r + PAGE, PAGE);
	q = mremap((void *)p, PAGE, 2 * PAGE, 0);
	if (q == MAP_FAILED && errno == ENOMEM) {
		/*
		 * 6.12 grows no VM_SPECIAL mapping (ours is VM_MIXEDMAP) in
		 * place, and with MREMAP_MAYMOVE still tries in place (and
		 * fails) while the space after it is free: fill that space,
		 * and the kernel moves the mapping to grow it.
		 */
		if (mmap(r + PAGE, PAGE, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
		    r + PAGE)
			die("mmap after the last page");
		q = mremap((void *)p, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
		munmap(r + PAGE, PAGE);
		printf("mremap: grown by moving\n");
	} else if (q == p) {
		printf("mremap: grown in place\n");
	}
	if (q == MAP_FAILED)
		die("mremap past the end");
	p = q;
	if (p[PAGE - 1] != 7) {
		fprintf(stderr, "cxl_check: last page lost its byte\n");
		ret = 1;
	}
	signal(SIGBUS, on_signal);
	signal(SIGSEGV, on_signal);
	if (!sigsetjmp(jump, 1))
		(void)p[PAGE];
	if (got_sig != SIGBUS) {
		fprintf(stderr, "cxl_check: access beyond the end: %s\n",
			got_sig ? strsignal(got_sig) : "no signal");
		ret = 1;
	}
	munmap((void *)p, 2 * PAGE);
	return ret;
}

static int fill(size_t bytes, uint64_t seed, int check)
{
	return fill_at(0, bytes, seed, check);
}

/*
 * Pages @page .. @page + @n - 1 to stdout (@out) or from stdin, through a
 * buffer: the loads and stores are this process's own (a write() from
 * the mapping to /dev/null would touch nothing).
 */
static int copy(off_t page, size_t n, int out)
{
	size_t len = n * PAGE, done = 0;
	char *p = map_dev(len, page * PAGE), *buf = malloc(len);
	ssize_t r;

	if (!buf)
		die("malloc");
	if (out)
		memcpy(buf, p, len);
	while (done < len) {
		r = out ? write(1, buf + done, len - done) :
			  read(0, buf + done, len - done);
		if (r < 0)
			die(out ? "write" : "read");
		if (!r) {
			fprintf(stderr, "cxl_check: stdin ended after %zu bytes\n",
				done);
			return 1;
		}
		done += r;
	}
	if (!out)
		memcpy(p, buf, len);
	free(buf);
	munmap(p, len);
	return 0;
}

/*
 * Map page @page and read it; "ready"; when stdin reaches EOF, the page
 * (deallocated meanwhile by the caller) reads as zeros, through the same
 * mapping.
 */
static int zeroafter(off_t page)
{
	volatile uint64_t *p = map_dev(PAGE, page * PAGE);
	uint64_t sum = 0, i;
	char c;

	for (i = 0; i < PAGE / 8; i++)
		sum |= p[i];
	printf("ready %s\n", sum ? "data" : "zeros");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	for (i = 0; i < PAGE / 8; i++) {
		if (p[i]) {
			fprintf(stderr, "cxl_check: byte %llu: %#llx, want 0\n",
				(unsigned long long)i * 8,
				(unsigned long long)p[i]);
			return 1;
		}
	}
	munmap((void *)p, PAGE);
	return 0;
}

static int sameafter(off_t page, const char *file)
{
	volatile uint64_t *p = map_dev(PAGE, page * PAGE);
	uint64_t want[PAGE / 8], sum = 0, i;
	FILE *f;
	char c;

	for (i = 0; i < PAGE / 8; i++)
		sum |= p[i];
	printf("ready %s\n", sum ? "data" : "zeros");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	f = fopen(file, "r");
	if (!f || fread(want, 1, PAGE, f) != PAGE)
		die(file);
	fclose(f);
	for (i = 0; i < PAGE / 8; i++) {
		if (p[i] != want[i]) {
			fprintf(stderr, "cxl_check: byte %llu: %#llx, want %#llx\n",
				(unsigned long long)i * 8,
				(unsigned long long)p[i],
				(unsigned long long)want[i]);
			return 1;
		}
	}
	munmap((void *)p, PAGE);
	return 0;
}

static int hold(void)
{
	volatile uint64_t *p = map_dev(PAGE, 0);
	char c;

	p[0] = 42;
	printf("ready\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	munmap((void *)p, PAGE);
	return 0;
}

/* Make the CPU walk the page tables again (a full TLB flush). */
static void tlb_churn(void)
{
	size_t len = 128 * PAGE, i;
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (a == MAP_FAILED)
		die("mmap anon");
	for (i = 0; i < len; i += PAGE)
		a[i] = 1;
	munmap(a, len);	/* more than 33 pages: the whole TLB is flushed */
}

/*
 * Page 0 is touched, then ROUNDS times: read by plain loads (a TLB
 * flush first, so the load sets the PTE's Accessed bit), a pause of @ms
 * for the sampler, and a sweep of 1/8 of the cache's worth of cold pages
 * that are each touched once. An Accessed-bit policy keeps page 0 (no
 * refault); fifo evicts it every cache's worth of cold pages, whatever
 * the pause (0 for a policy that does not sample). Prints the sum.
 */
static int hot(size_t bytes, size_t cache_bytes, int rounds, int ms)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	size_t cold = 1, batch = cache_bytes / PAGE / 8, i;
	uint64_t sum = p[0];
	int r;

	for (r = 0; r < rounds; r++) {
		tlb_churn();
		sum += p[0];
		if (ms > 0)
			usleep(ms * 1000);
		for (i = 0; i < batch; i++, cold++) {
			if (cold >= bytes / PAGE) {
				fprintf(stderr, "cxl_check: hot: device too small\n");
				return 1;
			}
			sum += p[cold * PAGE / 8];
		}
	}
	printf("%llu\n", (unsigned long long)sum);
	return 0;
}

static int sweep(size_t bytes, int n)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	uint64_t sum = 0, i;

	while (n--)
		for (i = 0; i < bytes / 8; i += PAGE / 8)
			sum += p[i];
	printf("%llu\n", (unsigned long long)sum);
	return 0;
}

static int rw(size_t bytes)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	uint64_t sum = 0, i;

	for (i = 0; i < bytes / 8; i += PAGE / 8)
		sum += p[i];
	for (i = 0; i < bytes / 8; i += PAGE / 8)
		p[i] = sum + i;
	for (i = 0; i < bytes / 8; i += PAGE / 8)
		if (p[i] != sum + i) {
			fprintf(stderr, "cxl_check: rw: page %llu lost its write\n",
				(unsigned long long)(i * 8 / PAGE));
			return 1;
		}
	munmap((void *)p, bytes);
	return 0;
}

struct stresser {
	pthread_t tid;
	unsigned int id, nr;
	size_t bytes;
	int iters, bad;
};

static void *stress_thread(void *arg)
{
	struct stresser *s = arg;
	volatile uint64_t *p = map_dev(s->bytes, 0);
	size_t pages = s->bytes / PAGE, pg, slot = s->id % 8;
	uint64_t x = s->id + 1, *want = calloc(pages, sizeof(*want));
	int it;

	if (!want)
		die("calloc");
	/* Each thread owns the pages pg % nr == id, one word in each. */
	for (pg = s->id; pg < pages; pg += s->nr)
		p[pg * PAGE / 8 + slot] = want[pg] = word(s->id, pg);
	for (it = 0; it < s->iters && !s->bad; it++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		pg = (x >> 33) % pages;
		pg = pg - pg % s->nr + s->id;
		if (pg >= pages)
			continue;
		if (p[pg * PAGE / 8 + slot] != want[pg])
			s->bad = 1;
		p[pg * PAGE / 8 + slot] = want[pg] = word(s->id + it, pg);
	}
	for (pg = s->id; pg < pages && !s->bad; pg += s->nr)
		if (p[pg * PAGE / 8 + slot] != want[pg])
			s->bad = 1;
	munmap((void *)p, s->bytes);
	free(want);
	return NULL;
}

static int stress(size_t bytes, unsigned int nr, int iters)
{
	struct stresser s[16];
	unsigned int i;
	int ret = 0;

	if (nr < 1 || nr > 16)
		nr = 4;
	for (i = 0; i < nr; i++) {
		s[i] = (struct stresser){ .id = i, .nr = nr, .bytes = bytes,
					  .iters = iters };
		if (pthread_create(&s[i].tid, NULL, stress_thread, &s[i]))
			die("pthread_create");
	}
	for (i = 0; i < nr; i++) {
		pthread_join(s[i].tid, NULL);
		if (s[i].bad) {
			fprintf(stderr, "cxl_check: stress: thread %u read wrong data\n",
				i);
			ret = 1;
		}
	}
	return ret;
}

static int rdonly(void)
{
	int fd = open(dev, O_RDONLY);
	volatile uint64_t *p;
	void *q;
	int bad = 0;

	if (fd < 0)
		die(dev);
	p = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "cxl_check: rdonly: MAP_SHARED + PROT_READ of an O_RDONLY file: %s\n",
			strerror(errno));
		return 1;
	}
	if (p[0] + p[512] == 1)		/* two read faults */
		printf("\n");
	if (!mprotect((void *)p, 2 * PAGE, PROT_READ | PROT_WRITE) ||
	    errno != EACCES) {
		fprintf(stderr, "cxl_check: rdonly: mprotect(PROT_WRITE) not refused with EACCES\n");
		bad = 1;
	}
	q = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (q != MAP_FAILED || errno != EACCES) {
		fprintf(stderr, "cxl_check: rdonly: a writable mapping not refused with EACCES\n");
		bad = 1;
	}
	q = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	if (q != MAP_FAILED || errno != EINVAL) {
		fprintf(stderr, "cxl_check: rdonly: MAP_PRIVATE not refused with EINVAL\n");
		bad = 1;
	}
	munmap((void *)p, 2 * PAGE);
	close(fd);
	return bad;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * Pages of [p, p + bytes) with a present PTE in this process, or of it
 * and [q, q + bytes) (another mapping of the same pages) if @q: a page
 * present in both counts once.
 */
static long present(void *p, void *q, size_t bytes)
{
	static unsigned char vp[(2UL << 20) / PAGE], vq[(2UL << 20) / PAGE];
	size_t i, n = bytes / PAGE;
	long count = 0;

	if (mincore(p, bytes, vp) || (q && mincore(q, bytes, vq)))
		die("mincore");
	for (i = 0; i < n; i++)
		count += (vp[i] | (q ? vq[i] : 0)) & 1;
	return count;
}

/* A MAP_SHARED mapping of the device at a 2 MiB boundary. */
static void *map_aligned(size_t bytes)
{
	size_t huge = 2UL << 20;
	char *r = mmap(NULL, bytes + huge, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;
	int fd = open_dev();
	void *p;

	if (r == MAP_FAILED)
		die("mmap (reserve)");
	a = (char *)(((uintptr_t)r + huge - 1) & ~(huge - 1));
	p = mmap(a, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	close(fd);
	return p;
}

struct thrasher {
	pthread_t tid;
	unsigned int id, nr;
	size_t bytes;
	volatile uint64_t *p;
	volatile int *stop;
	int bad;
	unsigned long ops;
};

static void *thrash_thread(void *arg)
{
	struct thrasher *t = arg;
	size_t pages = t->bytes / PAGE, pg, slot = t->id % 8;
	uint64_t x = t->id + 1, *want = calloc(pages, sizeof(*want));

	if (!want)
		die("calloc");
	/* Each thread owns the pages pg % nr == id, one word in each. */
	for (pg = t->id; pg < pages && !*t->stop; pg += t->nr)
		t->p[pg * PAGE / 8 + slot] = want[pg] = word(t->id, pg);
	if (pg < pages)		/* stopped before every page had a stamp */
		return NULL;
	while (!*t->stop && !t->bad) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		pg = (x >> 33) % pages;
		pg = pg - pg % t->nr + t->id;
		if (pg >= pages)
			continue;
		if (t->p[pg * PAGE / 8 + slot] != want[pg]) {
			fprintf(stderr, "cxl_check: thrash: thread %u page %zu: %#llx, want %#llx\n",
				t->id, pg,
				(unsigned long long)t->p[pg * PAGE / 8 + slot],
				(unsigned long long)want[pg]);
			t->bad = 1;
		}
		t->p[pg * PAGE / 8 + slot] = want[pg] = word(x, pg);
		t->ops++;
	}
	free(want);
	return NULL;
}

/* Reads through its own mapping, zapping and re-protecting it. */
static void *toggle_thread(void *arg)
{
	struct thrasher *t = arg;
	size_t pages = t->bytes / PAGE, pg;
	uint64_t x = 12345, sum = 0;

	while (!*t->stop) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		pg = (x >> 33) % pages;
		sum += t->p[pg * PAGE / 8];
		switch ((x >> 20) % 16) {
		case 0:
			if (madvise((void *)t->p, t->bytes, MADV_DONTNEED))
				die("madvise");
			break;
		case 1:
			if (mprotect((void *)t->p, t->bytes, PROT_NONE) ||
			    mprotect((void *)t->p, t->bytes, PROT_READ))
				die("mprotect");
			break;
		}
		t->ops++;
	}
	return (void *)(uintptr_t)(sum & 1);
}

static long read_counter(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f || fscanf(f, "%ld", &v) != 1)
		die(path);
	fclose(f);
	return v;
}

static int thrash(size_t bytes, long slots, unsigned int nr, long ms,
		  const char *resident)
{
	struct thrasher t[17];
	volatile int stop = 0;
	volatile uint64_t *p, *q;
	long max = 0, n, r, checks = 0;
	uint64_t end = now_ms() + ms;
	unsigned long ops = 0;
	unsigned int i;
	int ret = 0;

	if (nr < 1 || nr > 16 || bytes > (2UL << 20) || bytes % PAGE) {
		fprintf(stderr, "cxl_check: thrash: 1-16 threads, <= 2 MiB\n");
		return 2;
	}
	p = map_aligned(bytes);
	q = map_aligned(bytes);
	if (mprotect((void *)q, bytes, PROT_READ))
		die("mprotect");
	for (i = 0; i <= nr; i++) {
		t[i] = (struct thrasher){ .id = i, .nr = nr, .bytes = bytes,
					  .p = i < nr ? p : q, .stop = &stop };
		if (pthread_create(&t[i].tid, NULL,
				   i < nr ? thrash_thread : toggle_thread, &t[i]))
			die("pthread_create");
	}
	/* At least 50 snapshots, however slow the machine. */
	while ((now_ms() < end || checks < 50) && !ret) {
		/* One page table each: each count is a snapshot. */
		n = present((void *)p, NULL, bytes);
		max = n > max ? n : max;
		if (n > slots || present((void *)q, NULL, bytes) > slots) {
			fprintf(stderr, "cxl_check: thrash: %ld pages present, %ld slots\n",
				n, slots);
			ret = 1;
		}
		checks++;
		usleep(500);
	}
	stop = 1;
	for (i = 0; i <= nr; i++) {
		pthread_join(t[i].tid, NULL);
		ret |= t[i].bad;
		ops += t[i].ops;
	}
	/* Quiet now: pages only leave; a present PTE maps a resident page. */
	r = read_counter(resident);
	n = present((void *)p, (void *)q, bytes);
	if (n > r) {
		fprintf(stderr, "cxl_check: thrash: %ld PTEs present, %ld pages resident\n",
			n, r);
		ret = 1;
	}
	printf("thrash: %lu accesses, %ld checks, at most %ld of %ld slots mapped\n",
	       ops, checks, max, slots);
	munmap((void *)p, bytes);
	munmap((void *)q, bytes);
	return ret;
}

static void *fault_thread(void *arg)
{
	struct thrasher *t = arg;
	size_t pages = t->bytes / PAGE;
	uint64_t x = t->id + 7, sum = 0;

	for (;;) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sum += t->p[(x >> 33) % pages * PAGE / 8];
		t->ops += sum & 1;
	}
	return NULL;
}

static int fault(size_t bytes, unsigned int nr)
{
	struct thrasher t[16];
	unsigned int i;

	if (nr < 1 || nr > 16)
		nr = 4;
	for (i = 0; i < nr; i++) {
		t[i] = (struct thrasher){ .id = i, .bytes = bytes,
					  .p = map_dev(bytes, 0) };
		if (pthread_create(&t[i].tid, NULL, fault_thread, &t[i]))
			die("pthread_create");
	}
	printf("faulting\n");
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}

static int forkdirty(size_t bytes)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	size_t pg, pages = bytes / PAGE;
	uint64_t sum = 0;
	pid_t pid;
	int st;

	for (pg = 0; pg < pages; pg++)
		sum += p[pg * PAGE / 8 + 1];
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (pg = 0; pg < pages; pg++)
			p[pg * PAGE / 8 + 1] = word(99, pg);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	for (pg = 0; pg < pages; pg++)
		if (p[pg * PAGE / 8 + 1] != word(99, pg)) {
			fprintf(stderr, "cxl_check: forkdirty: page %zu lost the child's write\n",
				pg);
			return 1;
		}
	munmap((void *)p, bytes);
	(void)sum;	/* the reads are volatile: they happen */
	return 0;
}

static siginfo_t bus_info;

static void on_sigbus(int sig, siginfo_t *si, void *uc __attribute__((unused)))
{
	bus_info = *si;
	got_sig = sig;
	siglongjmp(jump, 1);
}

/* One access to @p (a store if @store): the signal's si_code, or 0. */
static int access_code(volatile uint64_t *p, int store)
{
	got_sig = 0;
	memset(&bus_info, 0, sizeof(bus_info));
	if (!sigsetjmp(jump, 1)) {
		if (store)
			*p = 1;
		else
			(void)*p;
	}
	return got_sig == SIGBUS ? bus_info.si_code : 0;
}

static int poison(size_t bytes, size_t page, const char *armed)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	volatile uint64_t *q = p + page * (PAGE / 8);
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO };
	uint64_t sum = 0;
	size_t i;
	int fd, ret = 0, code;

	if ((page + 2) * PAGE > bytes) {
		fprintf(stderr, "cxl_check: poison: PAGE + 1 beyond BYTES\n");
		return 2;
	}
	for (i = 0; i < bytes / 8; i += PAGE / 8)
		sum += p[i];
	fd = open(armed, O_WRONLY);
	if (fd < 0 || write(fd, "1\n", 2) != 2)
		die(armed);
	close(fd);
	sigaction(SIGBUS, &sa, NULL);
	for (i = 0; i < 3; i++) {
		code = access_code(q, i == 2);
		if (code != BUS_MCEERR_AR ||
		    bus_info.si_addr != (void *)q ||
		    bus_info.si_addr_lsb != 12) {
			fprintf(stderr,
				"cxl_check: poison: %s %zu: si_code %d (want %d), si_addr %p (want %p), lsb %d\n",
				i == 2 ? "store" : "load", i, code,
				BUS_MCEERR_AR, bus_info.si_addr, (void *)q,
				(int)bus_info.si_addr_lsb);
			ret = 1;
		}
	}
	code = access_code(q + PAGE / 8, 0);
	if (code) {
		fprintf(stderr, "cxl_check: poison: the next page: si_code %d\n",
			code);
		ret = 1;
	}
	printf("poison: 3 SIGBUS BUS_MCEERR_AR at page %zu (sum %llx)\n", page,
	       (unsigned long long)sum);
	munmap((void *)p, bytes);
	return ret;
}

static void arm(const char *armed)
{
	int fd = open(armed, O_WRONLY);

	if (fd < 0 || write(fd, "1\n", 2) != 2)
		die(armed);
	close(fd);
}

/* Whether a code from access_code() is the poison's, at @q. */
static int poison_code_ok(const char *what, int code, volatile uint64_t *q)
{
	if (code == BUS_MCEERR_AR && bus_info.si_addr == (void *)q &&
	    bus_info.si_addr_lsb == 12)
		return 1;
	fprintf(stderr,
		"cxl_check: %s: si_code %d (want %d), si_addr %p (want %p), lsb %d\n",
		what, code, BUS_MCEERR_AR, bus_info.si_addr, (void *)q,
		(int)bus_info.si_addr_lsb);
	return 0;
}

struct race_arg {
	volatile uint64_t *q;
	volatile pid_t tid;
	volatile int code;
	volatile int done;
};

static void *race_loader(void *p)
{
	struct race_arg *a = p;

	a->tid = gettid();
	a->code = access_code(a->q, 0);
	a->done = 1;
	return NULL;
}

/*
 * The state letter of thread @tid of this process ('?' if unknown). Plain
 * system calls, no stdio: its buffer's allocation could want mmap_lock,
 * which the faulting thread holds for reading while it sleeps.
 */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *r;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	r = strrchr(buf, ')');
	return r && r[1] == ' ' ? r[2] : '?';
}

static int poisonrace(size_t bytes, size_t page, const char *armed)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	struct race_arg a = { .q = p + page * (PAGE / 8) };
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO };
	pthread_t t;
	char st;

	if ((page + 1) * PAGE > bytes) {
		fprintf(stderr, "cxl_check: poisonrace: PAGE beyond BYTES\n");
		return 2;
	}
	sigaction(SIGBUS, &sa, NULL);
	if (pthread_create(&t, NULL, race_loader, &a))
		die("pthread_create");
	/* Asleep in the kernel: in the fault, waiting for the NAND read. */
	do {
		usleep(1000);
		st = a.tid ? task_state(a.tid) : '?';
	} while (!a.done && st != 'D' && st != 'S');
	if (a.done) {
		pthread_join(t, NULL);
		fprintf(stderr, "cxl_check: poisonrace: the load was over before the arming\n");
		return 3;
	}
	arm(armed);
	st = task_state(a.tid);
	if (a.done || (st != 'D' && st != 'S')) {
		pthread_join(t, NULL);
		fprintf(stderr, "cxl_check: poisonrace: the fault ended before the arming (state %c)\n",
			st);
		return 3;
	}
	pthread_join(t, NULL);
	if (!poison_code_ok("poisonrace: the load armed mid-fault", a.code, a.q))
		return 1;
	printf("poisonrace: SIGBUS BUS_MCEERR_AR at page %zu, armed mid-fault\n",
	       page);
	munmap((void *)p, bytes);
	return 0;
}

static int poisonwrite(size_t bytes, size_t page, const char *armed,
		       int before)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	volatile uint64_t *q = p + page * (PAGE / 8);
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO };
	int code;

	if ((page + 1) * PAGE > bytes) {
		fprintf(stderr, "cxl_check: poisonwrite: PAGE beyond BYTES\n");
		return 2;
	}
	sigaction(SIGBUS, &sa, NULL);
	if (!before)
		arm(armed);
	code = access_code(q, 0);
	if (code) {
		fprintf(stderr, "cxl_check: poisonwrite: the load: si_code %d\n",
			code);
		return 1;
	}
	if (before)
		arm(armed);
	if (!poison_code_ok("poisonwrite: the store", access_code(q, 1), q))
		return 1;
	printf("poisonwrite: the store to page %zu mapped read-only %s arming: SIGBUS BUS_MCEERR_AR\n",
	       page, before ? "before" : "after");
	munmap((void *)p, bytes);
	return 0;
}

static int zeros(size_t bytes, int write)
{
	volatile uint64_t *p = map_dev(bytes, 0);
	uint64_t i;

	for (i = 0; i < bytes / 8; i++)
		if (p[i]) {
			fprintf(stderr, "cxl_check: byte %llu: %#llx, want 0\n",
				(unsigned long long)i * 8,
				(unsigned long long)p[i]);
			return 1;
		}
	for (i = 0; write && i < bytes / 8; i += PAGE / 8)
		p[i] = i + 1;
	munmap((void *)p, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	size_t bytes;

	if (argc < 3) {
		fprintf(stderr, "usage: see the comment of scripts/vm/cxl_check.c\n");
		return 2;
	}
	dev = argv[2];
	bytes = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
	if (!strcmp(argv[1], "fill") && argc == 5)
		return fill(bytes, strtoull(argv[4], NULL, 0), 0);
	if (!strcmp(argv[1], "verify") && argc == 5)
		return fill(bytes, strtoull(argv[4], NULL, 0), 1);
	if (!strcmp(argv[1], "share"))
		return share();
	if (!strcmp(argv[1], "remap") && argc == 4)
		return remap(bytes);
	if (!strcmp(argv[1], "bad") && argc == 4)
		return bad(bytes);
	if (!strcmp(argv[1], "hold"))
		return hold();
	if (!strcmp(argv[1], "hot") && (argc == 6 || argc == 7))
		return hot(bytes, strtoull(argv[4], NULL, 0), atoi(argv[5]),
			   argc == 7 ? atoi(argv[6]) : 100);
	if (!strcmp(argv[1], "sweep") && argc == 5)
		return sweep(bytes, atoi(argv[4]));
	if (!strcmp(argv[1], "rw") && argc == 4)
		return rw(bytes);
	if (!strcmp(argv[1], "stress") && argc == 6)
		return stress(bytes, atoi(argv[4]), atoi(argv[5]));
	if (!strcmp(argv[1], "rdonly"))
		return rdonly();
	if (!strcmp(argv[1], "thrash") && argc == 8)
		return thrash(bytes, atol(argv[4]), atoi(argv[5]),
			      atol(argv[6]), argv[7]);
	if (!strcmp(argv[1], "fault") && argc == 5)
		return fault(bytes, atoi(argv[4]));
	if (!strcmp(argv[1], "forkdirty") && argc == 4)
		return forkdirty(bytes);
	if (!strcmp(argv[1], "fillat") && argc == 6)
		return fill_at(bytes * PAGE, strtoull(argv[4], NULL, 0),
			       strtoull(argv[5], NULL, 0), 0);
	if (!strcmp(argv[1], "verifyat") && argc == 6)
		return fill_at(bytes * PAGE, strtoull(argv[4], NULL, 0),
			       strtoull(argv[5], NULL, 0), 1);
	if (!strcmp(argv[1], "dump") && argc == 5)
		return copy(bytes, strtoull(argv[4], NULL, 0), 1);
	if (!strcmp(argv[1], "load") && argc == 5)
		return copy(bytes, strtoull(argv[4], NULL, 0), 0);
	if (!strcmp(argv[1], "zeroafter") && argc == 4)
		return zeroafter(bytes);
	if (!strcmp(argv[1], "sameafter") && argc == 5)
		return sameafter(bytes, argv[4]);
	if (!strcmp(argv[1], "zeros") && argc == 5)
		return zeros(bytes, atoi(argv[4]));
	if (!strcmp(argv[1], "poison") && argc == 6)
		return poison(bytes, strtoull(argv[4], NULL, 0), argv[5]);
	if (!strcmp(argv[1], "poisonrace") && argc == 6)
		return poisonrace(bytes, strtoull(argv[4], NULL, 0), argv[5]);
	if (!strcmp(argv[1], "poisonwrite") && argc == 7)
		return poisonwrite(bytes, strtoull(argv[4], NULL, 0), argv[5],
				   atoi(argv[6]));
	fprintf(stderr, "cxl_check: bad arguments\n");
	return 2;
}
