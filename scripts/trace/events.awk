# SPDX-License-Identifier: GPL-2.0
#
# The parser the scripts of scripts/trace/ share: awk -f events.awk -f X.awk.
# It reads vflash trace events as text, in any of the usual forms:
#   /sys/kernel/tracing/trace (or trace_pipe):
#     vflash0-nvme-110 [000] ..... 6.068: vflash_request_submit: vflash0 nvme read id=7 qid=1 cid=3 lpn=988 ...
#   trace-cmd report:
#     vflash0-nvme-110 [000]  6.068: vflash_request_submit: vflash0 nvme read id=7 qid=1 cid=3 lpn=988 ...
#   perf script:
#     vflash0-nvme 110 [000] 6.068: vflash:vflash_request_submit: vflash0 nvme read id=7 qid=1 cid=3 lpn=988 ...
# vflash_event() parses the current line; when it returns 1:
#   EV      the event's name without "vflash_": request_submit, nand, ...
#   DEV     the device number (vflashN)
#   NP, P[] the words without "=" after vflashN, in order (fe and op of a
#           request; op and work of a nand event; work of a clean event)
#   V[]     the key=value fields, by key (values as numbers: V[k] + 0)
# The positional words by event, under names: FE, OP, WORK ("" if none).

function vflash_event(    i, f, name, k, e)
{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^(vflash:)?vflash_[a-z_]+:$/)
			break
	if (i >= NF || $(i + 1) !~ /^vflash[0-9]+$/)
		return 0
	name = $i
	sub(/^vflash:/, "", name)
	EV = substr(name, 8, length(name) - 8)
	DEV = substr($(i + 1), 7) + 0
	NP = 0
	split("", P)
	split("", V)
	for (i += 2; i <= NF; i++) {
		f = $i
		e = index(f, "=")
		if (e) {
			k = substr(f, 1, e - 1)
			V[k] = substr(f, e + 1)
		} else {
			P[++NP] = f
		}
	}
	FE = OP = WORK = ""
	if (EV == "request_submit" || EV == "request_complete") {
		FE = P[1]
		OP = P[2]
	} else if (EV == "nand") {
		OP = P[1]
		WORK = P[2]
	} else if (EV == "clean") {
		WORK = P[1]
	}
	return 1
}

# The fields each event must have, space-separated (after vflashN).
function vflash_fields(ev)
{
	if (ev == "request_submit")
		return "id qid cid lpn count doorbell_ns polled_ns arrive_ns due_ns model_ns die_wait_ns bg_wait_ns array_ns chan_wait_ns chan_ns host_wait_ns host_ns fw_ns"
	if (ev == "request_complete")
		return "id qid cid lpn count due_ns actual_ns late_ns"
	if (ev == "nand")
		return "die id block start_ns end_ns"
	if (ev == "clean")
		return "die block moved freed start_ns end_ns"
	if (ev == "cxl_miss" || ev == "cxl_prefetch_issue" || ev == "cxl_prefetch_hit")
		return "lpn slot"
	if (ev == "cxl_fill")
		return "lpn slot prefetch submit_ns ready_ns"
	if (ev == "cxl_evict")
		return "lpn slot dirty"
	if (ev == "cxl_writeback")
		return "lpn submit_ns due_ns"
	return ""
}

# Integers of any size that double precision holds exactly (ns since boot
# do), printed without an exponent.
function int_str(x)
{
	return sprintf("%.0f", x)
}
