#!/usr/bin/env bash
# The hop rows the plugin writes for OpenSM (src/plugin/hops.c, the
# engines' build_lid_matrices) are OpenSM's own: ENGINE routes NETFILE
# with `-D 0x43 --dump_files_dir`, then minhop (OpenSM's min-hop
# matrices) on the same ibsim and LIDs, and opensm-lid-matrix.dump must
# hold, for every switch, exactly minhop's rows toward the switches' LIDs
# (every port's hop count), and no other row.
#
# usage: test_hop_rows.sh ENGINE NETFILE
. "$(dirname "$0")/lib.sh"

engine=$1
net=$2
e2e_init "hop-rows-$engine"
ibsim_start "$net"
mkdir -p "$WORK/plugin" "$WORK/minhop"
opensm_once --option qos=TRUE --option "routing_engine=$engine,no_fallback" -- \
	-D 0x47 --dump_files_dir "$WORK/plugin"
log_has "switch LIDs set in" ||
	e2e_fail "$engine did not set the hop rows"
log_has "$engine tables configured on all switches" ||
	e2e_fail "$engine did not route"
mv "$WORK/opensm.log" "$WORK/opensm-$engine.log"
opensm_once --option routing_engine=minhop -- \
	-D 0x47 --dump_files_dir "$WORK/minhop"
log_has "Starting switches' Min Hop Table Assignment" ||
	e2e_fail "minhop did not build OpenSM's own matrices"

# The switches' LIDs, from the LFT dump: "... of switch Lid N guid ..."
sed -n 's/.* of switch Lid \([0-9]*\) guid .*/\1/p' \
	"$WORK/minhop/opensm-lfts.dump" >"$WORK/switch-lids"
nsw=$(grep -c '^Switch' "$net")
[ "$(sort -u "$WORK/switch-lids" | wc -l)" -eq "$nsw" ] ||
	e2e_fail "$(wc -l <"$WORK/switch-lids") switch LIDs in the LFT dump, $nsw switches"
# minhop's rows toward switch LIDs; a row is "0xLLLL: hops... # portguid"
awk 'NR == FNR { sw[sprintf("0x%04x:", $1)] = 1; next }
	/^Switch/ || ($1 in sw) { print }' "$WORK/switch-lids" \
	"$WORK/minhop/opensm-lid-matrix.dump" >"$WORK/minhop.rows"
cp "$WORK/plugin/opensm-lid-matrix.dump" "$WORK/plugin.rows"
rows=$(grep -vc '^Switch' "$WORK/minhop.rows")
[ "$rows" -eq $((nsw * nsw)) ] ||
	e2e_fail "minhop has $rows switch-LID rows, expected $nsw x $nsw"
diff "$WORK/minhop.rows" "$WORK/plugin.rows" >"$WORK/rows.diff" ||
	e2e_fail "$engine's hop rows differ from minhop's: $(head -4 "$WORK/rows.diff")"
e2e_log "ok: $engine's hop rows ($rows rows of $nsw switches) are OpenSM's own"
