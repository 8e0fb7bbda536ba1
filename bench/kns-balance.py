#!/usr/bin/env python3
# hdor on KNS fabrics whose lines are fat trees: uniform throughput against
# the bound, on fabrics drawn at random as tests/unit/test_hdor_ft.c draws
# them (k in 2..12, n 2 or 3, 1..3 stages, --links 1..3, --parallel 1..2,
# 1..3 CAs, shuffled ports).  Each fabric: `osmtopo gen kns ...`, then
# `osmtopo check --route hdor --patterns uniform`; the bound is the unit
# test's dor_bound() (see doc/kns-fattree.md).  Prints the worst SHOW
# fabrics (ratio, uniform, bound, generator line; BAD if the check is not
# OK, a path is not minimal, a credit loop or a VL other than 0), then the
# minimum, mean, median and count below 95% of uniform / bound, per --links.
# usage: OSMTOPO=build/plain/osmtopo bench/kns-balance.py [COUNT] [SEED]
#        [MIN_STAGES]; HARD=1 in the environment keeps only draws of the
#        class hard() names (rejection sampling from the same draws);
#        MAX_ROUTERS, MAX_CAS (default 144, 200, as the unit test's
#        draws) raise the size limits (400, 600 reach `kns 9 2 --cas 3`).
import math, random, subprocess, sys, os, statistics, tempfile

O = os.environ.get("OSMTOPO", "osmtopo")
MAX_ROUTERS = int(os.environ.get("MAX_ROUTERS", "144"))
MAX_CAS = int(os.environ.get("MAX_CAS", "200"))
KS = [2, 3, 4, 4, 6, 6, 8, 8, 9, 12]

def hard(p):
    # the class whose balance depended most on the labelling: 2+ stages,
    # routers on w_1 >= 2 leaves that do not divide the m_1 routers under
    # them, and the lines loaded above the CAs' own rate (2 or 3 CAs)
    return (len(p["down"]) >= 2 and p["up"][0] >= 2 and
            p["down"][0] % p["up"][0] != 0 and p["cas"] >= 2)

def draw(rng, links_choices=(1, 2, 3), par_choices=(1, 2), min_stages=1):
    if os.environ.get("HARD"):
        while True:
            p = draw1(rng, links_choices, par_choices, min_stages)
            if hard(p):
                return p
    return draw1(rng, links_choices, par_choices, min_stages)

def draw1(rng, links_choices=(1, 2, 3), par_choices=(1, 2), min_stages=1):
    while True:
        k = rng.choice(KS); n = 2 + rng.randrange(2)
        routers = k ** n
        if 4 <= routers <= MAX_ROUTERS:
            break
    cas = 1 + rng.randrange(3)
    while cas > 1 and routers * cas > MAX_CAS:
        cas -= 1
    stages = min_stages + rng.randrange(3 - min_stages + 1)
    rest = k; down = []; up = []; par = []
    i = 1
    while i <= stages:
        m = rest
        if i < stages:
            for _ in range(16):
                m = 2 + rng.randrange(rest)
                if rest % m == 0 and rest // m >= 2:
                    break
            if rest % m or rest // m < 2:
                stages = i; m = rest
        down.append(m); rest //= m
        up.append(1 + rng.randrange(2) if i == 1 else 1 + rng.randrange(3))
        par.append(rng.choice(par_choices))
        i += 1
    if stages == 1 and up[0] == 1:
        up[0] = 2
    links = rng.choice(links_choices)
    return dict(k=k, n=n, cas=cas, links=links, down=down, up=up, par=par,
                seed=rng.randrange(1 << 30))

def ceil_div(a, b):
    q = a / b; f = math.floor(q)
    return f + 1 if f < q - 1e-9 else f

def bound(p):
    k, n, c = p["k"], p["n"], p["cas"]
    N = c * k ** n; load = 1; kd = 1
    for d in range(n):
        u = c * kd / (N - 1)
        per = N / k / kd
        g = 1; W = 1; gs = 1
        for i in range(len(p["down"])):
            L = p["par"][i] if i else p["links"]
            B = W * p["up"][i]
            din = g * per; dout = (k - g) * per
            if g >= k:
                break
            load = max(load, ceil_div(din * (k - g) / gs, B * L) * gs * u,
                       ceil_div(dout * g / gs, B * L) * gs * u)
            if B == 1:
                load = max(load, ceil_div(din, L) * (k - g) * u,
                           ceil_div(dout, L) * g * u)
            g *= p["down"][i]; W = B
            if W == 1:
                gs = g
        kd *= k
    return 1 / load

def cmd(p):
    s = ["kns", str(p["k"]), str(p["n"]), "--cas", str(p["cas"]),
         "--links", str(p["links"]), "--down", ",".join(map(str, p["down"])),
         "--up", ",".join(map(str, p["up"]))]
    if len(p["down"]) >= 2:
        s += ["--parallel", ",".join(map(str, p["par"][1:]))]
    s += ["--shuffle-ports", str(p["seed"])]
    return s

def uniform(p, path):
    subprocess.run([O, "gen"] + cmd(p) + ["-o", path], check=True,
                   stdout=subprocess.DEVNULL)
    r = subprocess.run([O, "check", "--route", "hdor", "--patterns", "uniform",
                        path], capture_output=True, text=True)
    ok = r.stdout.rstrip().endswith("OK")
    vls = [l for l in r.stdout.splitlines() if l.startswith("VLs used")]
    mini = [l for l in r.stdout.splitlines() if l.startswith("minimal paths")]
    cl = [l for l in r.stdout.splitlines() if l.startswith("credit loops")]
    for l in r.stdout.splitlines():
        if l.strip().startswith("uniform ") and len(l.split()) == 8:
            return float(l.split()[-1]), ok, vls, mini, cl
    raise RuntimeError(r.stdout + r.stderr)

def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    ms = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    rng = random.Random(seed)
    rows = []
    fd, path = tempfile.mkstemp(suffix=".net")
    os.close(fd)
    for _ in range(count):
        p = draw(rng, min_stages=ms)
        b = bound(p)
        u, ok, vls, mini, cl = uniform(p, path)
        bad = "" if ok and "100.0%" in mini[0] and " 0 (" in cl[0] and vls[0].split()[-1] == "0" else " BAD " + repr((ok, vls, mini, cl))
        rows.append((u / b, u, b, " ".join(cmd(p)) + bad))
    os.unlink(path)
    rows.sort()
    for r in rows[:int(os.environ.get("SHOW", "12"))]:
        print("%.4f  u %.4f  bound %.4f  %s" % r)
    rs = [r[0] for r in rows]
    print("fabrics %d  min %.4f  mean %.4f  median %.4f  below95 %d" % (
        len(rs), min(rs), statistics.mean(rs), statistics.median(rs),
        sum(r < 0.95 - 1e-9 for r in rs)))
    for L in (1, 2, 3):
        sub = [r[0] for r in rows if ("--links %d " % L) in r[3]]
        if sub:
            print("  links %d: %d fabrics, min %.4f median %.4f below95 %d" % (
                L, len(sub), min(sub), statistics.median(sub), sum(r < 0.95 - 1e-9 for r in sub)))

if __name__ == "__main__":
    main()
