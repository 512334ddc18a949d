// SPDX-License-Identifier: GPL-2.0
/*
 * icount.so: a QEMU TCG plugin that counts the guest instructions executed
 * at kernel addresses in [lo, hi), per translation block address, and
 * writes the cumulative counts each time the guest executes the marker
 * instruction `xchg %bx,%bx` (66 87 db) (scripts/bench/icount/mark.c) and
 * at exit. Instructions are counted whole translation blocks at a time
 * (a block entered is counted to its end: an exception in its middle
 * would over-count, which the I/O path does not take). A REP string
 * instruction counts once, as the CPU retires it: TCG ends a block after
 * each of its iterations and runs the next ones as a block of that one
 * instruction, so such one-instruction blocks count 0 (the iteration that
 * ended the block before was counted there). Deterministic: no sampling,
 * no timing.
 *
 * usage: qemu-system-x86_64 ... -plugin PATH/icount.so,lo=HEX,hi=HEX,out=FILE
 *
 * FILE gets, per mark (and a final one at exit), a line "mark N", then
 * "VADDR INSNS EXECS E0 ... E7" per block address seen so far (hex, then
 * decimal): its executions on all vCPUs, then on vCPU 0 to 7 (vCPUs
 * beyond count in E7), then "end". scripts/bench/icount/report.py
 * attributes them to vflash.ko's functions.
 *
 * The QEMU plugin API (QEMU 7.2, API version 1) is declared here, from
 * its documentation: Debian ships QEMU with plugin support but without
 * the header.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *udata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *udata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define NR_VCPUS 8

/* One translation of a block; several may share an address. */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t vcpu_execs[NR_VCPUS];	/* atomic; their sum is EXECS */
	struct block *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block *blocks;	/* under lock */
static uint64_t lo, hi;
static FILE *out;
static unsigned int marks;

static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	if (vcpu >= NR_VCPUS)
		vcpu = NR_VCPUS - 1;
	__atomic_fetch_add(&b->vcpu_execs[vcpu], 1, __ATOMIC_RELAXED);
}

static void dump(void)
{
	uint64_t execs[NR_VCPUS], all;
	struct block *b;
	int v;

	pthread_mutex_lock(&lock);
	fprintf(out, "mark %u\n", marks++);
	for (b = blocks; b; b = b->next) {
		all = 0;
		for (v = 0; v < NR_VCPUS; v++) {
			execs[v] = __atomic_load_n(&b->vcpu_execs[v],
						   __ATOMIC_RELAXED);
			all += execs[v];
		}
		fprintf(out, "%" PRIx64 " %" PRIu64 " %" PRIu64, b->vaddr,
			b->insns, all);
		for (v = 0; v < NR_VCPUS; v++)
			fprintf(out, " %" PRIu64, execs[v]);
		fputc('\n', out);
	}
	fprintf(out, "end\n");
	fflush(out);
	pthread_mutex_unlock(&lock);
}

static void mark_exec(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	dump();
}

static const unsigned char marker[] = { 0x66, 0x87, 0xdb };

/* Is @insn a REP/REPNE string instruction (MOVS, CMPS, STOS, LODS, SCAS)? */
static int rep_string(const struct qemu_plugin_insn *insn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn), i;
	int rep = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = b[i];

		if (c == 0xf2 || c == 0xf3)
			rep = 1;
		else if (c == 0x66 || c == 0x67 || c == 0x2e || c == 0x3e ||
			 c == 0x26 || c == 0x36 || c == 0x64 || c == 0x65 ||
			 (c >= 0x40 && c <= 0x4f))
			continue;
		else
			return rep && ((c >= 0xa4 && c <= 0xa7) ||
				       (c >= 0xaa && c <= 0xaf));
	}
	return 0;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b;

	(void)id;
	if (vaddr >= lo && vaddr < hi) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return;
		b->vaddr = vaddr;
		b->insns = n;
		if (n == 1 && rep_string(qemu_plugin_tb_get_insn(tb, 0)))
			b->insns = 0;
		pthread_mutex_lock(&lock);
		b->next = blocks;
		blocks = b;
		pthread_mutex_unlock(&lock);
		qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
						     QEMU_PLUGIN_CB_NO_REGS, b);
		return;
	}
	/* The marker runs in user space, below the kernel's half. */
	if (vaddr >> 63)
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
		    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	dump();
	fclose(out);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	const char *path = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "lo=", 3))
			lo = strtoull(argv[i] + 3, NULL, 16);
		else if (!strncmp(argv[i], "hi=", 3))
			hi = strtoull(argv[i] + 3, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	}
	if (!path || lo >= hi) {
		fprintf(stderr, "icount: usage: icount.so,lo=HEX,hi=HEX,out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
