#!/usr/bin/env bash
# sf-mms end to end on a Slim Fly: the engine-independent run of
# test_ff_engines.sh (ibsim, stock OpenSM with the plugin, `-R sf-mms`,
# QoS on; LFTs, SL2VL tables and path SLs read back over MADs equal
# `osmtopo route --dump sf-mms` offline on the discovered fabric, a
# changed VL is caught, and `osmtopo check --live --engine sf-mms` finds
# every pair reached, no credit loop and the promise kept: minimal, at
# most 2 switch hops, VL 0 after a CA and VL 1 after a switch; on a
# damaged fabric, detour sources on the detour SLs and escape
# destinations on SL 1, their path SLs from the SA as offline; with LMC,
# every offset's LIDs, the non-minimal layers on their own SLs and VLs).
#
# usage: test_sf_mms.sh NETFILE|gen:ARGS [LMC]
exec "$(dirname "$0")/test_ff_engines.sh" sf-mms "$@"
