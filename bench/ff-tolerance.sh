#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#
# Benchmark: how much damage the FlatFly recognizer tolerates (seed 001,
# section 2.1 reports FlatFly mapped with 20% of switches and 15% of links
# missing, hypercube with 15% and 10%), and how long it takes on the
# seed's 4x8x8x8 reference.  Prints figures, asserts nothing; about a
# minute with the defaults.
#
# usage: bench/ff-tolerance.sh [SEEDS]   (from the build dir; default 100)
set -eu
seeds=${1:-100}
make -s bench/ff_tolerance
exec ./bench/ff_tolerance "$seeds" --big
