# SPDX-License-Identifier: GPL-2.0
#
# The invariants of a vflash trace (scripts/trace/check.sh runs it after
# events.awk). Variables (awk -v):
#   oh=NS      config/host_overhead_ns during the trace: each submit's
#              due_ns must be arrive_ns + model_ns - min(NS, model_ns)
#   whole=1    the trace holds every event since the device was idle and
#              empty of cached pages: every completion has its submit,
#              every fill and writeback its submit, the CXL slots' fills
#              and evictions alternate
#   overlap=all  no two operations of a die overlap (not under the
#              read-priority maintenance policy, where a host read passes
#              background work the trace already showed); default: host
#              operations only
#   dies=N     die numbers must be below N
#   slots=N    CXL slot numbers must be below N
# Requests pair by id (per device): the submits of one id are one
# command's (the same fe, qid, cid), a completion's id is its submits'
# and completes once, a NAND operation's id (not 0) is a submit's, a read
# that paid an array read has a NAND read of its id; with whole=1 every
# NVMe submit's id completes, and NVMe submits have doorbell_ns.
# Prints "KEY VALUE" counts, then "error ..." lines; exit 1 on any error.

function err(msg)
{
	errors++
	if (errors <= 20)
		print "error line " NR ": " msg
}

function num(k)
{
	if (!(k in V) || V[k] !~ /^-?[0-9]+$/) {
		err(EV " without a numeric " k ": " $0)
		return 0
	}
	return V[k] + 0
}

BEGIN {
	late_max = 0
	# Count these even when zero, so that a reader finds every key.
	n = split("events submit submit_read submit_write complete complete_nvme complete_cxl complete_paired early nand nand_read nand_program nand_erase nand_host nand_gc nand_migrate nand_paired doorbell clean clean_freed clean_gc clean_migrate cxl_miss cxl_fill cxl_prefetch_issue cxl_prefetch_hit cxl_evict cxl_evict_dirty cxl_writeback", keys)
	for (i = 1; i <= n; i++)
		c[keys[i]] = 0
}

/\[LOST [0-9]+ EVENTS\]/ || /CPU [0-9]+ LOST/ {
	err("the trace lost events (a bigger buffer_size_kb, or fewer events)")
	next
}

# The header of a tracefs trace file: fewer entries in the buffer than
# were written means the ring overwrote some.
/^# entries-in-buffer\/entries-written: [0-9]+\/[0-9]+/ {
	split($3, ew, "/")
	if (ew[1] != ew[2])
		err("the trace buffer overwrote " (ew[2] - ew[1]) " events (a bigger buffer_size_kb, or fewer events)")
	next
}

!vflash_event() { next }

{
	c["events"]++
	split(vflash_fields(EV), want, " ")
	if (!(1 in want)) {
		c["unknown"]++
		err("unknown event vflash_" EV)
		next
	}
	for (i = 1; i in want; i++)
		num(want[i])
}

EV == "request_submit" {
	c["submit"]++
	c["submit_" OP]++
	c["submit_" FE]++
	if (FE !~ /^(nvme|cxl|device)$/ || OP !~ /^(read|write|trim|flush)$/)
		err("submit with fe '" FE "' op '" OP "'")
	sum = num("die_wait_ns") + num("array_ns") + num("chan_wait_ns") + num("chan_ns") + num("host_wait_ns") + num("host_ns") + num("fw_ns")
	model = num("model_ns")
	if (sum != model)
		err("model_ns " int_str(model) " is not the sum of its parts " int_str(sum))
	if (num("bg_wait_ns") > num("die_wait_ns"))
		err("bg_wait_ns above die_wait_ns")
	arrive = num("arrive_ns")
	due = num("due_ns")
	if (due < arrive)
		err("due_ns before arrive_ns")
	if (oh != "" && due != arrive + model - (model < oh + 0 ? model : oh + 0))
		err("due_ns " int_str(due) " is not arrive_ns + model_ns - host_overhead_ns " int_str(arrive + model) " - " oh)
	if (OP != "flush" && num("count") < 1)
		err(OP " of " V["count"] " pages")
	sub_due[FE " " int_str(due)] = 1
	sub_req[FE " " OP " " V["lpn"] " " V["arrive_ns"] " " V["due_ns"]] = 1
	id = "vflash" DEV " id=" V["id"]
	who = FE " qid=" V["qid"] " cid=" V["cid"]
	if (num("id") <= 0)
		err("submit without a request id")
	else if ((id in sub_who) && sub_who[id] != who)
		err("request id " V["id"] " of " who " and of " sub_who[id])
	sub_who[id] = who
	if (num("array_ns") > 0 && OP == "read")
		want_nand_read[id] = NR
	if (FE == "nvme" && whole && !(id in done_id))
		want_done[id] = NR
	db = num("doorbell_ns")
	if (db > 0) {
		c["doorbell"]++
		if (db > arrive)
			err("doorbell_ns after arrive_ns (the fetch)")
		if (num("polled_ns") > db)
			err("polled_ns after doorbell_ns")
	} else if (FE == "nvme" && whole) {
		err("an nvme submit without doorbell_ns")
	} else if (num("polled_ns") > 0) {
		err("polled_ns without doorbell_ns")
	}
	next
}

EV == "request_complete" {
	c["complete"]++
	c["complete_" FE]++
	late = num("late_ns")
	if (late != num("actual_ns") - num("due_ns"))
		err("late_ns is not actual_ns - due_ns")
	if (late < 0) {
		c["early"]++
		err("completed " int_str(-late) " ns early")
	}
	if (late > late_max)
		late_max = late
	if (whole)
		want_due[FE " " int_str(num("due_ns"))] = NR
	id = "vflash" DEV " id=" V["id"]
	if (id in done_id)
		err("request id " V["id"] " completed twice (lines " done_id[id] " and " NR ")")
	done_id[id] = NR
	delete want_done[id]
	if (num("id") <= 0)
		err("a completion without a request id")
	else if (!(id in sub_who)) {
		if (whole)
			err("a completion of request id " V["id"] " without its submit")
	} else if (sub_who[id] != FE " qid=" V["qid"] " cid=" V["cid"])
		err("request id " V["id"] " completed as " FE " qid=" V["qid"] " cid=" V["cid"] " but submitted as " sub_who[id])
	else
		c["complete_paired"]++
	next
}

EV == "nand" {
	c["nand"]++
	c["nand_" OP]++
	c["nand_" WORK]++
	if (OP !~ /^(read|program|erase)$/ || WORK !~ /^(host|gc|migrate)$/)
		err("nand op '" OP "' work '" WORK "'")
	if (OP == "erase" && WORK == "host")
		err("an erase for the host")
	d = num("die")
	s = num("start_ns")
	e = num("end_ns")
	if (e < s)
		err("nand operation ends before it starts")
	if (dies != "" && d >= dies + 0)
		err("die " d " of " dies)
	# Operations of a die are traced in timeline order, under its lock.
	if (WORK == "host" || overlap == "all") {
		last = overlap == "all" ? die_end[d] : die_host_end[d]
		if (last != "" && s < last + 0)
			err("die " d ": " OP " " WORK " at " int_str(s) " overlaps an operation until " last)
	}
	if (die_end[d] == "" || e > die_end[d] + 0)
		die_end[d] = int_str(e)
	if (WORK == "host" && (die_host_end[d] == "" || e > die_host_end[d] + 0))
		die_host_end[d] = int_str(e)
	if (OP == "erase")
		erased[d " " V["block"] " " WORK " " V["end_ns"]] = 1
	# Charged within its request's submit, so traced before it.
	if (num("id") > 0)
		nand_id["vflash" DEV " id=" V["id"]] = NR
	else if (WORK == "host" && OP == "read")
		err("a host NAND read without a request id")
	if (OP == "read" && num("id") > 0)
		nand_read_id["vflash" DEV " id=" V["id"]] = 1
	next
}

EV == "clean" {
	c["clean"]++
	c["clean_" WORK]++
	if (WORK !~ /^(gc|migrate)$/)
		err("clean work '" WORK "'")
	if (num("end_ns") < num("start_ns"))
		err("clean ends before it starts")
	f = num("freed")
	if (f != 0 && f != 1)
		err("freed=" f)
	if (f) {
		c["clean_freed"]++
		want_erase[num("die") " " V["block"] " " WORK " " V["end_ns"]] = NR
	}
	if (dies != "" && num("die") >= dies + 0)
		err("die " V["die"] " of " dies)
	next
}

EV ~ /^cxl_/ {
	c[EV]++
	lpn = V["lpn"]
	if (EV != "cxl_writeback") {
		slot = num("slot")
		if (slots != "" && slot >= slots + 0)
			err("slot " slot " of " slots)
	}
}

EV == "cxl_fill" {
	if (num("ready_ns") < num("submit_ns"))
		err("fill ready before it was submitted")
	if (whole && (slot in holds))
		err("fill of slot " slot " with lpn " lpn " while it holds lpn " holds[slot])
	holds[slot] = lpn
	filled[slot] = lpn " " num("prefetch")
	c["cxl_fill_prefetch" num("prefetch")]++
	if (whole)
		want_req["cxl read " lpn " " V["submit_ns"] " " V["ready_ns"]] = NR
	next
}

EV == "cxl_miss" || EV == "cxl_prefetch_issue" {
	pf = EV == "cxl_miss" ? 0 : 1
	if (whole && filled[slot] != lpn " " pf)
		err(EV " of lpn " lpn " in slot " slot ", whose last fill was '" filled[slot] "'")
	next
}

EV == "cxl_prefetch_hit" {
	if (whole && filled[slot] != lpn " 1")
		err("prefetch hit of lpn " lpn " in slot " slot ", whose last fill was '" filled[slot] "'")
	next
}

EV == "cxl_evict" {
	if (num("dirty"))
		c["cxl_evict_dirty"]++
	if (whole && holds[slot] != lpn)
		err("eviction of lpn " lpn " from slot " slot ", which holds '" holds[slot] "'")
	delete holds[slot]
	next
}

EV == "cxl_writeback" {
	if (num("due_ns") < num("submit_ns"))
		err("writeback due before it was submitted")
	if (whole)
		want_req["cxl write " lpn " " V["submit_ns"] " " V["due_ns"]] = NR
	next
}

END {
	for (k in nand_id) {
		if (k in sub_who)
			c["nand_paired"]++
		else
			err("(line " nand_id[k] ") a NAND operation of " k " without its submit")
	}
	for (k in want_nand_read)
		if (!(k in nand_read_id))
			err("(line " want_nand_read[k] ") a read of " k " that paid an array read without its NAND read")
	for (k in want_done)
		err("(line " want_done[k] ") nvme request " k " submitted, never completed")
	for (k in want_due)
		if (!(k in sub_due))
			err("(line " want_due[k] ") a completion without a submit of the same due_ns: " k)
	for (k in want_erase)
		if (!(k in erased))
			err("(line " want_erase[k] ") a clean that freed its block without its erase: " k)
	for (k in want_req)
		if (!(k in sub_req))
			err("(line " want_req[k] ") a fill or writeback without its request_submit: " k)
	if (c["cxl_miss"] != c["cxl_fill_prefetch0"])
		err(c["cxl_miss"] " misses but " c["cxl_fill_prefetch0"] " demand fills")
	if (c["cxl_prefetch_issue"] != c["cxl_fill_prefetch1"])
		err(c["cxl_prefetch_issue"] " prefetches issued but " c["cxl_fill_prefetch1"] " prefetch fills")
	if (c["cxl_writeback"] != c["cxl_evict_dirty"])
		err(c["cxl_evict_dirty"] " dirty evictions but " c["cxl_writeback"] " writebacks")
	if (whole && c["complete_nvme"] > c["submit_nvme"] + 0)
		err("more nvme completions than submits")
	c["late_max"] = int_str(late_max)
	c["errors"] = errors + 0
	delete c["cxl_fill_prefetch0"]
	delete c["cxl_fill_prefetch1"]
	for (k in c)
		print k, c[k] | "sort"
	close("sort")
	exit (errors > 0)
}
