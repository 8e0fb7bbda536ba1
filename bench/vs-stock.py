#!/usr/bin/env python3
# osmtopo's engine against OpenSM's own on fabrics drawn at random, one
# `osmtopo compare` run per fabric (stock OpenSM under ibsim, the tables
# read back and checked): hdor against minhop, dfsssp and nue on KNS
# fabrics whose lines are fat trees (drawn as bench/kns-balance.py draws
# them, damaged at 0, 2, 5 or 10 % of the cables, sometimes 5 % of the
# line switches), or df-static against the same on Dragonfly+ fabrics
# (2..6 leaves, 2..5 spines, 1..3 global cables a spine, 1..5 CAs a
# leaf, 3..S*H+1 groups, every arrangement, 1 or 2 cables per leaf-spine
# pair, DROP of the cables missing).  One line per fabric: a flag, then
# per engine uniform (VLs used / credit loops), then the generator's
# arguments.  Flags: BELOW when the engine's uniform is under a stock
# engine's that has no credit loop (dfsssp, nue; or minhop without one),
# UNDER-LOOPING when it is only under minhop's with a credit loop,
# REFUSED (the engine said no: compare's note says why; a fabric the
# damage cut in two is one OpenSM sees in part), FAILED (routed, but no
# figures, e.g. the live check failed).  A summary at the end.
# usage: bench/vs-stock.py kns|dragonfly COUNT SEED [DROP]
#   (from a build directory: ./osmtopo and .libs, or OSMTOPO and
#   OSMTOPO_PLUGIN_DIR in the environment; DROP for dragonfly only,
#   default 0.05)
import importlib.util, os, random, subprocess, sys, tempfile

fam, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
drop = float(sys.argv[4]) if len(sys.argv) > 4 else 0.05
O = os.environ.get("OSMTOPO", os.path.abspath("osmtopo"))
env = dict(os.environ)
env.setdefault("OSMTOPO_PLUGIN_DIR", os.path.abspath(".libs"))
rng = random.Random(seed)
net = os.path.join(tempfile.mkdtemp(prefix="vs-stock."), "f.net")
ours = "hdor" if fam == "kns" else "df-static"
engines = [ours, "minhop", "dfsssp", "nue"]

if fam == "kns":
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "kns_balance", os.path.join(here, "kns-balance.py"))
    kb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kb)

def draw_kns():
    p = kb.draw(rng)
    dl = rng.choice([0, 0, 0.02, 0.05, 0.1])
    ds = rng.choice([0, 0, 0.05]) if dl else 0
    a = ["kns", str(p["k"]), str(p["n"]), "--cas", str(p["cas"]),
         "--links", str(p["links"]), "--down", ",".join(map(str, p["down"])),
         "--up", ",".join(map(str, p["up"]))]
    if len(p["par"]) > 1:
        a += ["--parallel", ",".join(map(str, p["par"][1:]))]
    a += ["--shuffle-ports", str(p["seed"] % 97)]
    if dl:
        a += ["--drop-links", str(dl), "--seed", str(p["seed"] % 1000)]
    if ds:
        a += ["--drop-switches", str(ds)]
    return a

def draw_dfp():
    L = rng.randint(2, 6); S = rng.randint(2, 5); H = rng.randint(1, 3)
    C = rng.randint(1, 5); full = S * H + 1
    G = rng.randint(3, full) if full >= 3 else 2
    arr = rng.choice(["consecutive", "palm-tree", "random"])
    W = rng.choice([1, 1, 2]); sh = rng.randint(1, 1000)
    a = ["dragonfly", str(L), str(H), "--spines", str(S), "--cas", str(C),
         "--groups", str(G), "--arrangement", arr, "--shuffle-ports", str(sh),
         "--seed", str(sh)]
    if W > 1:
        a += ["--widths", str(W)]
    if drop:
        a += ["--drop-links", str(drop)]
    return a

def figures(out):
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if not f or f[0] not in engines:
            continue
        if f[1] != "yes":
            continue  # "no": the engine refused (or its fallback routed)
        try:
            rows[f[0]] = (float(f[9]), f[4], int(f[5]))
        except (IndexError, ValueError):
            rows[f[0]] = None
    return rows

counts = {}
for i in range(count):
    a = draw_kns() if fam == "kns" else draw_dfp()
    g = subprocess.run([O, "gen"] + a + ["-o", net], capture_output=True,
                       text=True)
    if g.returncode:
        continue
    c = subprocess.run([O, "compare", "-t", "300", net] + engines,
                       capture_output=True, text=True, env=env)
    r = figures(c.stdout)
    me = r.get(ours)
    if ours not in r:
        flag = "REFUSED"
    elif me is None:
        flag = "FAILED"
    else:
        fair = [r[e][0] for e in engines[1:] if r.get(e) and r[e][2] == 0]
        loop = [r[e][0] for e in engines[1:] if r.get(e) and r[e][2] > 0]
        if fair and me[0] < max(fair) - 1e-3:
            flag = "BELOW"
        elif loop and me[0] < max(loop) - 1e-3:
            flag = "UNDER-LOOPING"
        else:
            flag = "ok"
    counts[flag] = counts.get(flag, 0) + 1
    cells = []
    for e in engines:
        v = r.get(e)
        cells.append("%s=%s" % (e, "%.3f(%s/%s)" % v if v else "-"))
    print("%-13s %s | %s" % (flag, "  ".join(cells), " ".join(a)), flush=True)
print("summary:", ", ".join("%s %d" % kv for kv in sorted(counts.items())))
