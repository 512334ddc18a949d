// SPDX-License-Identifier: GPL-2.0
/*
 * graphrank: the graph workload of make study-apps (docs/studies.md) and of
 * the apps suite. Builds a seeded random graph with a skewed degree
 * distribution in compressed sparse row form (every array malloc'd, so
 * under vflashctl run all of it lives on the device), runs a BFS from
 * vertex 0 and ITERS PageRank iterations over it, and prints:
 *
 *   answer V E REACHED LEVELSUM MAXLEVEL RANKSUM TOPVERTEX
 *   ops N            edges traversed (the BFS and every iteration)
 *   seconds S        wall time of the BFS and the iterations (CLOCK_MONOTONIC)
 *
 * The answer line depends only on the arguments: a run on the device must
 * print the one a run in DRAM prints. With a FILE argument its contents
 * are copied to standard output before the program exits (the study reads
 * its own /sys/kernel/debug/vflash/vflashN/procs line that way).
 *
 * usage: graphrank VERTICES DEGREE ITERS SEED [FILE]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* A target vertex, skewed: half the edges point into the first 1/16. */
static uint32_t pick(uint32_t nv)
{
	uint64_t r = rng();

	if (r & 1)
		return (uint32_t)((r >> 1) % (nv / 16 ? nv / 16 : 1));
	return (uint32_t)((r >> 1) % nv);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "graphrank: out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	uint32_t nv, deg, iters, v, i, *src, *dst, *off, *adj, *fill, *level, *queue;
	uint64_t ne, e, ops = 0, levelsum = 0, reached = 0, head = 0, tail = 0;
	uint32_t maxlevel = 0, top = 0;
	double *rank, *next, ranksum = 0, t0, t1;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: graphrank VERTICES DEGREE ITERS SEED [FILE]\n");
		return 2;
	}
	nv = strtoul(argv[1], NULL, 0);
	deg = strtoul(argv[2], NULL, 0);
	iters = strtoul(argv[3], NULL, 0);
	rng_state = strtoull(argv[4], NULL, 0) * 0x9E3779B97F4A7C15ULL + 1;
	if (nv < 2 || deg < 1) {
		fprintf(stderr, "graphrank: VERTICES >= 2, DEGREE >= 1\n");
		return 2;
	}
	ne = (uint64_t)nv * deg;

	/* Edge list, then CSR by counting sort on the source. */
	src = xmalloc(ne * sizeof(*src));
	dst = xmalloc(ne * sizeof(*dst));
	for (e = 0; e < ne; e++) {
		src[e] = (uint32_t)(e / deg);
		dst[e] = pick(nv);
	}
	off = calloc(nv + 1, sizeof(*off));
	fill = calloc(nv, sizeof(*fill));
	adj = xmalloc(ne * sizeof(*adj));
	if (!off || !fill) {
		fprintf(stderr, "graphrank: out of memory\n");
		return 1;
	}
	/* Undirected: each edge both ways for the BFS and the ranks. */
	for (e = 0; e < ne; e++)
		off[dst[e] + 1]++;
	for (v = 0; v < nv; v++)
		off[v + 1] += off[v];
	for (e = 0; e < ne; e++)
		adj[off[dst[e]] + fill[dst[e]]++] = src[e];
	free(fill);
	free(src);
	free(dst);

	level = xmalloc(nv * sizeof(*level));
	queue = xmalloc(nv * sizeof(*queue));
	rank = xmalloc(nv * sizeof(*rank));
	next = xmalloc(nv * sizeof(*next));

	t0 = now_s();
	/* BFS from 0 over the in-edges (edge (u, w) stored at w). */
	memset(level, 0xff, nv * sizeof(*level));
	level[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		uint32_t u = queue[head++];

		reached++;
		levelsum += level[u];
		if (level[u] > maxlevel)
			maxlevel = level[u];
		for (e = off[u]; e < off[u + 1]; e++) {
			uint32_t w = adj[e];

			ops++;
			if (level[w] == UINT32_MAX) {
				level[w] = level[u] + 1;
				queue[tail++] = w;
			}
		}
	}

	/* PageRank over the in-edges, out-degree DEG for every vertex. */
	for (v = 0; v < nv; v++)
		rank[v] = 1.0 / nv;
	for (i = 0; i < iters; i++) {
		double *t;

		for (v = 0; v < nv; v++) {
			double s = 0;

			for (e = off[v]; e < off[v + 1]; e++)
				s += rank[adj[e]];
			ops += off[v + 1] - off[v];
			next[v] = 0.15 / nv + 0.85 * s / deg;
		}
		t = rank;
		rank = next;
		next = t;
	}
	t1 = now_s();
	for (v = 0; v < nv; v++) {
		ranksum += rank[v];
		if (rank[v] > rank[top])
			top = v;
	}
	printf("answer %u %llu %llu %llu %u %.6f %u\n", nv, (unsigned long long)ne,
	       (unsigned long long)reached, (unsigned long long)levelsum,
	       maxlevel, ranksum, top);
	printf("ops %llu\n", (unsigned long long)ops);
	printf("seconds %.6f\n", t1 - t0);
	fflush(stdout);
	if (argc == 6) {
		char buf[4096];
		size_t n;
		FILE *f = fopen(argv[5], "r");

		if (!f) {
			perror(argv[5]);
			return 1;
		}
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(f);
	}
	free(level);
	free(queue);
	free(rank);
	free(next);
	free(adj);
	free(off);
	return 0;
}
