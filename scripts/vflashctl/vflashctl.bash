# SPDX-License-Identifier: GPL-2.0
# bash completion for vflashctl (make install puts it in
# PREFIX/share/bash-completion/completions/vflashctl). Devices, policy
# kinds and names, knobs and fault rules come from the live
# /sys/class/vflash.

_vflashctl_devices() {
	local d
	for d in /sys/class/vflash/vflash*; do
		[[ -d $d ]] && echo "${d##*/}"
	done
}

# _vflashctl_rules DEV: the fault rules of DEV (default: the only device)
_vflashctl_rules() {
	local dev=$1 d
	if [[ -z $dev ]]; then
		mapfile -t d < <(_vflashctl_devices)
		((${#d[@]} == 1)) || return
		dev=${d[0]}
	fi
	[[ $dev == /dev/* ]] && dev=${dev#/dev/}
	[[ $dev == [0-9]* ]] && dev=vflash$dev
	for d in /sys/class/vflash/"$dev"/faults/*; do
		[[ -d $d ]] && echo "${d##*/}"
	done
}

_vflashctl() {
	local cur prev cmd dev i words=() nonopt=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmds="up save precondition model down list status stats policy config faults crashcheck namespace selftest run trace plot help"

	if ((COMP_CWORD == 1)); then
		mapfile -t COMPREPLY < <(compgen -W "$cmds --help" -- "$cur")
		return
	fi
	cmd=${COMP_WORDS[1]}
	# the arguments before the cursor that are not options
	for ((i = 2; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -* ]] || nonopt+=("${COMP_WORDS[i]}")
	done
	case $cmd in
	up)
		case $prev in
		--frontend) words=(nvme cxl none 'nvme,cxl') ;;
		--profile) words=(qlc-hybrid samsung-970pro tlc optane cxdvirt-znand znand cylon zn540) ;;
		--ko)
			mapfile -t COMPREPLY < <(compgen -f -X '!*.ko' -- "$cur")
			return
			;;
		--restore)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
			;;
		--size | --cache-size | --name) return ;;
		*)
			words=(--name --frontend --size --profile --cache-size --ko
				--restore --help
				lba_size= workers= cpus= spin_us= poll_idle_us=
				memmap_start= memmap_size= store=)
			;;
		esac
		;;
	down | selftest)
		case $prev in --tolerance | --reads | --hit-factor) return ;; esac
		mapfile -t words < <(_vflashctl_devices)
		[[ $cmd == selftest ]] && words+=(--tolerance --reads --hit-factor)
		[[ $cmd == down ]] && words+=(--all)
		words+=(--help)
		;;
	save)
		if ((${#nonopt[@]} == 1)); then
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
		fi
		mapfile -t words < <(_vflashctl_devices)
		words+=(--help)
		;;
	precondition)
		if ((${#nonopt[@]} == 0)); then
			mapfile -t words < <(_vflashctl_devices)
		elif ((${#nonopt[@]} == 1)); then
			words=(seq random hotcold)
		else
			words=(fill= written= hot= pe= age= seed= replay=full
				replay=die replay=tile replay=auto)
		fi
		words+=(--help)
		;;
	model)
		if ((${#nonopt[@]} == 0)); then
			mapfile -t words < <(_vflashctl_devices)
			words+=(qlc-hybrid samsung-970pro tlc optane cxdvirt-znand
				zn540 znand cylon)
		else
			words=(channels= dies_per_channel= page_size= pages_per_block=
				op_percent=)
		fi
		words+=(--help)
		;;
	list) words=(--help) ;;
	status)
		mapfile -t words < <(_vflashctl_devices)
		words+=(--json --help)
		;;
	namespace)
		if [[ $cur == /* ]]; then
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
		fi
		mapfile -t words < <(_vflashctl_devices)
		[[ " ${COMP_WORDS[*]:2:COMP_CWORD-2} " == *" --controller "* ]] || words+=(--controller)
		words+=(--help)
		;;
	faults)
		# [DEV] [arm FAULT [FILE=VALUE...] | disarm FAULT|all]
		dev=
		i=0
		if [[ ${nonopt[0]:-} == vflash* || ${nonopt[0]:-} == [0-9]* || ${nonopt[0]:-} == /* ]]; then
			dev=${nonopt[0]}
			i=1
		fi
		case ${nonopt[i]:-} in
		'')
			mapfile -t words < <(_vflashctl_devices)
			[[ -n $dev ]] && words=()
			words+=(arm disarm cut --help)
			;;
		arm)
			if [[ -z ${nonopt[i + 1]:-} ]]; then
				mapfile -t words < <(_vflashctl_rules "$dev")
			else
				words=(range= probability= after= times= delay_ns=)
				compopt -o nospace 2>/dev/null
			fi
			;;
		disarm)
			[[ -n ${nonopt[i + 1]:-} ]] && return
			mapfile -t words < <(_vflashctl_rules "$dev")
			words+=(all)
			;;
		*) return ;;
		esac
		;;
	crashcheck)
		case $prev in
		--cuts | --seconds | --threads | --ops | --seed | --fdp | --namespaces | --chunk | --program-ppm | --detail) return ;;
		--endings) words=('cut,reset,shutdown' 'cut,reset,shutdown,timeout,delay') ;;
		--vwc) words=(on off mix) ;;
		--cut) words=(file rule mix) ;;
		*)
			((${#nonopt[@]} == 0)) && mapfile -t words < <(_vflashctl_devices)
			words+=(--cuts --seconds --threads --ops --endings --vwc --cut --fdp
				--namespaces --plp --cxl --faults --seed --help)
			;;
		esac
		;;
	stats)
		[[ $prev == --watch || $prev == --count ]] && return
		mapfile -t words < <(_vflashctl_devices)
		words+=(--json --watch --count --reset --help)
		;;
	policy | config)
		dev=${nonopt[0]:-}
		case ${#nonopt[@]} in
		0) mapfile -t words < <(_vflashctl_devices) ;;
		1)
			[[ $cmd == policy ]] && i=policy || i=config
			for d in /sys/class/vflash/"$dev"/"$i"/*; do
				[[ -e $d ]] && words+=("${d##*/}")
			done
			;;
		2)
			[[ $cmd == policy ]] || return
			read -r -a words <"/sys/class/vflash/$dev/policy/${nonopt[1]}" 2>/dev/null
			words=("${words[@]//[\[\]]/}")
			;;
		*) return ;;
		esac
		;;
	plot)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	trace)
		case $prev in
		-o)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			return
			;;
		-e | -b) return ;;
		esac
		if ((${#nonopt[@]} == 0)) && [[ $cur == -* ]]; then
			words=(-t -e -b -o --help)
		else
			mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			return
		fi
		;;
	help) ((COMP_CWORD == 2)) && read -r -a words <<<"$cmds" ;;
	esac
	mapfile -t COMPREPLY < <(compgen -W "${words[*]}" -- "$cur")
}
complete -F _vflashctl vflashctl
