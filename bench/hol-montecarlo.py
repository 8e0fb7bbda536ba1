#!/usr/bin/env python3
# The reference for the simulator's head-of-line test (tests/unit/test_sim.c):
# Karol, Hluchyj and Morgan's slotted N x N switch with FIFO inputs, every
# input saturated, each head's destination uniform over the other N - 1
# outputs (a CA never sends to itself), each output serving one of its
# contending heads at random per slot.  Prints the throughput per input.
# usage: bench/hol-montecarlo.py [SLOTS] [SEED]
import random
import sys

slots = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)


def draw(i, n):
    d = rng.randrange(n - 1)
    return d + 1 if d >= i else d


for n in (2, 4, 8, 16, 32):
    head = [draw(i, n) for i in range(n)]
    served = 0
    warm = slots // 10
    for t in range(slots):
        want = {}
        for i in range(n):
            want.setdefault(head[i], []).append(i)
        for out, inputs in want.items():
            i = rng.choice(inputs)
            head[i] = draw(i, n)
            if t >= warm:
                served += 1
    print("N=%d: %.4f" % (n, served / ((slots - warm) * n)))
