#!/usr/bin/env python3
# df-static on intact Dragonfly+ fabrics drawn at random, one osmtopo
# against another (a baseline): 2..6 leaves, 1..5 spines, 1..3 global
# cables per spine, 1..5 CAs a leaf, 2..S*H+1 groups (fewer than the full
# count included), 1..3 cables per leaf-spine pair (weighted to 1), every
# arrangement, shuffled ports.  Each fabric: `osmtopo gen dragonfly ...`
# (by the first binary), then `osmtopo check --route df-static --patterns
# uniform` by each; a run whose check is not OK or has a credit loop
# counts as -1.  Prints the fabrics where the figures differ (a "*" line:
# uniform per binary, generator arguments), then the sums and how many
# fabrics each binary has above and below the first.
# usage: bench/dfp-intact.py COUNT SEED OSMTOPO_BASE OSMTOPO [OSMTOPO...]
import os, random, re, subprocess, sys, tempfile

count, seed, bins = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
rng = random.Random(seed)
net = os.path.join(tempfile.mkdtemp(prefix="dfp-intact."), "f.net")
tot = [0.0] * len(bins)
better = [0] * len(bins)
worse = [0] * len(bins)
for _ in range(count):
    L, S, H = rng.randint(2, 6), rng.randint(1, 5), rng.randint(1, 3)
    C, G = rng.randint(1, 5), rng.randint(2, S * H + 1)
    arr = rng.choice(["consecutive", "palm-tree", "random"])
    W, sh = rng.choice([1, 1, 2, 3]), rng.randint(1, 1000)
    a = ["dragonfly", str(L), str(H), "--spines", str(S), "--cas", str(C),
         "--groups", str(G), "--arrangement", arr, "--shuffle-ports", str(sh),
         "--seed", str(sh), "--widths", str(W)]
    if subprocess.run([bins[0], "gen"] + a + ["-o", net],
                      capture_output=True).returncode:
        continue
    th = []
    for b in bins:
        o = subprocess.run([b, "check", "--route", "df-static", "--patterns",
                            "uniform", net], capture_output=True,
                           text=True).stdout
        m = re.search(r"^\s+uniform(\s+\S+){6}\s+(\S+)", o, re.M)
        ok = re.search(r"credit loops:\s+0 ", o) and o.rstrip().endswith("OK")
        th.append(float(m.group(2)) if m and ok else -1.0)
    for i, t in enumerate(th):
        tot[i] += t
        worse[i] += t < th[0] - 1e-9
        better[i] += t > th[0] + 1e-9
    if len(set(th)) > 1:
        print("*", " ".join("%.4f" % t for t in th), " ".join(a[1:]),
              flush=True)
os.unlink(net)
os.rmdir(os.path.dirname(net))
print("sum", " ".join("%.3f" % t for t in tot), "above", better,
      "below", worse)
