#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every script whose help is its own header comment (a usage() or case
# printing `sed -n 'N,/END/...' "$0"`) prints all of it with -h: the
# lines from N up to END or the first line that is not a comment, "# "
# stripped, shellcheck directives left out, no trailing blank line. A
# `sed '$d'` in 16 scripts once dropped each help's last line.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
rc=0
n=0
while read -r f; do
	case $f in
	scripts/help-check.sh) continue ;;
	scripts/helpers.sh) continue ;;	# sourced
	esac
	start=$(grep -oE "sed -n '[0-9]+," "$f" | head -n 1 | tr -dc 0-9)
	end=$(grep -oE "sed -n '[0-9]+,/[^/]*/" "$f" | head -n 1 | sed 's/^[^/]*\///; s/\/$//')
	# a Python script's, by header_help of scripts/trace/tracelib.py:
	# from line 4 to the first line that is not a comment
	case $f in
	*.py)
		start=4
		end=
		;;
	esac
	# END as a literal prefix (a sed BRE such as "^# (HIT" is one)
	want=$(awk -v s="$start" -v e="${end#^}" '
		NR < s { next }
		!/^#/ || (e ~ /^#/ && index($0, e) == 1) { exit }
		/^# shellcheck/ { next }
		{ sub(/^# ?/, ""); print }' "$f" | sed '${/^$/d;}')
	got=$(timeout 20 "./$f" -h </dev/null 2>&1)
	n=$((n + 1))
	if [ "$got" != "$want" ]; then
		echo "help-check: $f: -h does not print its whole header" >&2
		diff <(echo "$want") <(echo "$got") | head -n 6 >&2
		rc=1
	fi
done < <({
	grep -rlE "sed -n '[0-9]+,/[^/]*/[^']*' \"\\\$0\"" scripts
	grep -rl --include='*.py' -e 'print(header_help(__file__))' -e 'report_start(.*__file__)' -e 'options(__file__' scripts
} | sort -u)
[ "$n" -ge 16 ] || { echo "help-check: only $n scripts found" >&2; exit 1; }
echo "help-check: $n scripts print their whole help"
exit $rc
