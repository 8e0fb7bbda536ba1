#!/usr/bin/env bash
# OpenSM's own dump files as the checker's source: hdor routes CELLIA with
# `-D 0x43 --dump_files_dir DIR`, and `osmtopo check --osm-dump DIR` must
# find every CA pair routed on the Hybrid-DOR path with no loop and no
# credit loop, the same verdict as from the live fabric.
#
# usage: test_osm_dump.sh NETFILE
. "$(dirname "$0")/lib.sh"

net=$1
e2e_init osm-dump
ibsim_start "$net"
mkdir -p "$WORK/dump"
opensm_once -- -R hdor -D 0x43 --dump_files_dir "$WORK/dump"
log_has "hdor tables configured on all switches" || e2e_fail "hdor did not route"
ls "$WORK/dump" | grep -q . || e2e_fail "OpenSM wrote no dump files"

"$OSMTOPO" check --json --engine hdor --osm-dump "$WORK/dump" \
	>"$WORK/dump.json" 2>"$WORK/dump.err" ||
	e2e_fail "check --osm-dump failed: $(cat "$WORK/dump.err" "$WORK/dump.json")"
sim "$OSMTOPO" check --json --engine hdor --live >"$WORK/live.json" 2>/dev/null ||
	e2e_fail "live check failed: $(cat "$WORK/live.json")"
cas=$(grep -c -E '^(Hca|Ca)' "$net")
for f in dump live; do
	[ "$(json_field "$WORK/$f.json" pairs)" -eq $((cas * (cas - 1))) ] ||
		e2e_fail "$f: $(json_field "$WORK/$f.json" pairs) pairs, expected $((cas * (cas - 1)))"
	for key in unreachable forwarding_loops credit_loops violations; do
		v=$(json_field "$WORK/$f.json" "$key")
		[ "$v" -eq 0 ] || e2e_fail "$f: $key = $v"
	done
done
e2e_log "ok: dump files ($(ls "$WORK/dump" | tr '\n' ' ')) and live fabric agree: $cas CAs, all Hybrid-DOR"
