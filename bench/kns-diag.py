#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Why is a routing's busiest channel busy on a KNS with fat-tree lines?

usage: kns-diag.py [--bounce] NET LFT [N]

NET is an `osmtopo gen kns ...` net file (switch names S[dim,line,stage,pos],
routers R[...]), LFT the tables (`osmtopo route --lfts-only ENGINE NET`).
Every CA sends 1/(N-1) to every other CA along the tables (the uniform
pattern of `osmtopo check`); loads are summed on switch-to-switch links
only, each cable on its own (CA cables left out, so the throughput here
may exceed 1, where `osmtopo check` caps it at 1).  Prints:

 - the busiest link, the next ones, and the N (default 8) source/destination
   router pairs with most flows on it, each with its path;
 - what the busiest link is: a router's cable into a line where the router
   kept fewer cables than the most any router has into a line of that
   dimension ("router short of cables"), or a link inside a line where a
   switch kept fewer up cables than the most of its dimension and stage
   ("line short of capacity"), and what else its lines lost;
 - per line, the router pairs with no up*-down* path inside the line (the
   two-plane case: each kept only cables into different planes), and how
   many of them a third router of the line could bounce (reaches both
   up*-down*);
 - the dimension order (read off the routing's minimal paths: the
   recognizer numbers the dimensions from the cabling) and what it meets
   on the way of each flow on the busiest link: a router with no cable
   into a line ("no cable"), a two-plane pair ("two planes"), a pair no
   third router can bounce ("split line"), or nothing;
 - how many of those flows take non-minimal paths (twists, escape layers);
 - estimates of the busiest link when some flows are taken off: those
   only a bounce would re-route (dimension order meets two planes and
   nothing else); every flow to the destinations whose blocked sources
   all meet two planes alone; every non-minimal flow; every flow to a
   destination with any non-minimal flow.  They keep the other flows'
   paths: estimates, not bounds (another routing of some LIDs moves the
   spreading of the others, and flows put back on dimension order load
   channels again).

With --bounce, also a prototype of an in-line bounce (not built in
hdor): the flows of the estimate above (dimension order meets two
planes alone, and every flow to the destinations a bounce would put
back on dimension order) re-routed in dimension order, each line crossed
up*-down*, a two-plane pair through a third router of the line (down to
it and up again), greedily: each flow, destination by destination,
takes the path whose busiest link is least loaded, keeping one next hop
per (node, destination CA) as tables do (hdor's entries of the flows
kept; a crossing with no path left that keeps it is counted and
routed anyway).  The other flows keep hdor's paths.  VLs are not
modelled: it says what loads a bounce could reach, not that a
deadlock-free one exists.

Run from anywhere; python3 only, no modules beyond the standard library.
"""
import collections
import re
import sys


def parse_net(fn):
    peer, kind, cur = {}, {}, None
    for line in open(fn):
        m = re.match(r'^(Switch|Ca|Hca)\s+\d+\s+"([^"]+)"', line)
        if m:
            cur = m.group(2)
            kind[cur] = m.group(1)
            continue
        m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', line)
        if m and cur:
            peer[(cur, int(m.group(1)))] = (m.group(2), int(m.group(3)))
    return peer, kind


def parse_lft(fn):
    tab, owner, sw = {}, {}, None
    for line in open(fn):
        m = re.match(r"^Unicast lids .* of switch Lid \d+ guid \S+ \((.*)\):", line)
        if m:
            sw = m.group(1)
            tab[sw] = {}
            continue
        m = re.match(r"^0x([0-9a-f]+) (\d+) : \((.*) portguid \S+: '(.*)'\)", line)
        if m and sw:
            lid = int(m.group(1), 16)
            tab[sw][lid] = int(m.group(2))
            owner[lid] = m.group(4)
    return tab, owner


def swkey(n):
    m = re.match(r'S\[(\d+),(\d+),(\d+),(\d+)\]$', n)
    return tuple(map(int, m.groups())) if m else None


def main():
    args = [a for a in sys.argv[1:] if a != "--bounce"]
    bounce = len(args) < len(sys.argv) - 1
    net, lft = args[0], args[1]
    ntop = int(args[2]) if len(args) > 2 else 8
    peer, kind = parse_net(net)
    tab, owner = parse_lft(lft)
    cas = sorted(n for n, k in kind.items() if k != "Switch")
    calid = {}
    for lid, name in sorted(owner.items()):
        if kind.get(name, "Switch") != "Switch":
            calid.setdefault(name, lid)
    nb = collections.defaultdict(list)
    for (a, _), (b, _) in peer.items():
        if kind.get(a) == "Switch" and kind.get(b) == "Switch":
            nb[a].append(b)

    w = 1.0 / (len(cas) - 1)
    load = collections.Counter()
    flows = collections.defaultdict(list)
    path = {}
    for s in cas:
        r = peer[(s, 1)][0]
        for d in cas:
            if d == s:
                continue
            lid, x, p = calid[d], r, [r]
            for _ in range(128):
                port = tab[x][lid]
                nx = peer[(x, port)][0]
                if nx == d:
                    break
                load[(x, nx, port)] += w
                flows[(x, nx, port)].append((s, d))
                x = nx
                p.append(x)
            path[(r, peer[(d, 1)][0])] = p

    def busiest(ld):
        return max(ld, key=lambda e: (ld[e], e))

    busy = busiest(load)
    print("busiest %s port %d -> %s: load %.4f (throughput %.4f)" %
          (busy[0], busy[2], busy[1], load[busy], 1 / load[busy]))
    for e, v in [kv for kv in sorted(load.items(), key=lambda kv: (-kv[1], kv[0]))
                 if kv[0] != busy][:5]:
        print("  next %s port %d -> %s %.4f" % (e[0], e[2], e[1], v))

    # what the busiest link is
    lines = collections.defaultdict(set)
    for x in kind:
        k = swkey(x)
        if k:
            lines[k[:2]].add(x)
    cables = collections.Counter()  # (node, line) -> cables into the line
    for (a, _), (b, _) in peer.items():
        kb = swkey(b)
        if kb and kind.get(a) == "Switch":
            ka = swkey(a)
            if ka is None or ka[:2] == kb[:2]:
                cables[(a, kb[:2], 'up' if ka is None or ka[2] < kb[2] else 'down')] += 1
    # the most any router has into a line of dimension d, any switch of
    # dimension d and stage st up: the intact figures (lines of a
    # dimension are alike)
    rmax, smax, nmax = collections.Counter(), collections.Counter(), collections.Counter()
    for (x, ln, way), c in cables.items():
        if way != 'up':
            continue
        if swkey(x) is None:
            rmax[ln[0]] = max(rmax[ln[0]], c)
        else:
            k = (ln[0], swkey(x)[2])
            smax[k] = max(smax[k], c)
    for ln, sws in lines.items():
        nmax[ln[0]] = max(nmax[ln[0]], len(sws))
    a, b, _ = busy
    ka, kb = swkey(a), swkey(b)
    what = "other"
    if ka is None or kb is None:
        r, s = (a, kb) if ka is None else (b, ka)
        have = cables[(r, s[:2], 'up')]
        what = "router %s cable into line %s: %d of %d cables kept%s" % (
            r, s[:2], have, rmax[s[0]],
            " (router short of cables)" if have < rmax[s[0]] else "")
    elif ka[:2] == kb[:2]:
        lo = a if ka[2] < kb[2] else b
        st = swkey(lo)[2]
        have = cables[(lo, ka[:2], 'up')]
        what = "inside line %s, stage %d-%d: %s kept %d of %d up cables%s" % (
            ka[:2], st, st + 1, lo, have, smax[(ka[0], st)],
            " (line short of capacity)" if have < smax[(ka[0], st)] else "")
    print("  is: " + what)
    for s in sorted({k[:2] for k in (ka, kb) if k}):
        rs = sorted(x for x in kind if swkey(x) is None and
                    kind[x] == "Switch" and cables[(x, s, 'up')])
        short = ["%s %d" % (x, cables[(x, s, 'up')]) for x in rs
                 if cables[(x, s, 'up')] < rmax[s[0]]]
        sshort = ["%s %d" % (x, cables[(x, s, 'up')]) for x in sorted(lines[s])
                  if cables[(x, s, 'up')] < smax[(s[0], swkey(x)[2])]]
        print("  line %s: %d of %d switches; routers short of cables (of %d): %s; "
              "switches short of up cables: %s" %
              (s, len(lines[s]), nmax[s[0]], rmax[s[0]], ", ".join(short) or "none",
               ", ".join(sshort) or "none"))

    by = collections.Counter()
    for s, d in flows[busy]:
        by[(peer[(s, 1)][0], peer[(d, 1)][0])] += 1
    print("  %d flows, %d router pairs; most:" % (len(flows[busy]), len(by)))
    for (x, y), c in sorted(by.items(), key=lambda kv: (-kv[1], kv[0]))[:ntop]:
        print("    %3d %s -> %s: %s" % (c, x, y, ' '.join(path[(x, y)])))

    dist = {}

    def hops(x, y):
        if x not in dist:
            dd, q = {x: 0}, [x]
            for u in q:
                for v in nb[u]:
                    if v not in dd:
                        dd[v] = dd[u] + 1
                        q.append(v)
            dist[x] = dd
        return dist[x][y]

    def minimal(x, y):
        return len(path[(x, y)]) - 1 <= hops(x, y)

    # two-plane pairs: no up*-down* path inside the line
    npairs = nbounce = 0
    bpairs = {}
    where = collections.Counter()
    for key in sorted(lines):
        sws = lines[key]
        st = {x: swkey(x)[2] for x in sws}
        routers = sorted({y for x in sws for (xx, _), (y, _) in peer.items()
                          if xx == x and swkey(y) is None and kind.get(y) == "Switch"})
        reach = {}
        for r in routers:
            up = [y for (rr, _), (y, _) in peer.items() if rr == r and y in st]
            seen, q = set(up), list(up)
            for u in q:
                for v in nb[u]:
                    if v in st and st[v] == st[u] + 1 and v not in seen:
                        seen.add(v)
                        q.append(v)
            down, q, rs = set(seen), list(seen), set()
            for u in q:
                for v in nb[u]:
                    if v in st and st[v] == st[u] - 1 and v not in down:
                        down.add(v)
                        q.append(v)
                    elif st[u] == 1 and v in routers:
                        rs.add(v)
            reach[r] = rs
        for r in routers:
            for t in routers:
                if r == t or t in reach[r]:
                    continue
                npairs += 1
                where[key] += 1
                ok = any(b not in (r, t) and b in reach[r] and t in reach[b]
                         for b in routers)
                nbounce += ok
                bpairs[(key, r, t)] = ok
    print("router pairs with no up*-down* path in their line: %d (%d with a bounce router)%s" %
          (npairs, nbounce, "" if not where else "; lines " +
           ", ".join("%s:%d" % (k, v) for k, v in sorted(where.items()))))


    # dimension order, read off hdor's minimal paths (the recognizer
    # numbers the dimensions), and what it meets on each pair's way
    def coords(r):
        return tuple(int(v) for v in re.findall(r'\d+', r))

    pos, lineof = {}, {}
    for key in sorted(lines):
        rs = sorted({y for x in lines[key] for y in nb[x] if swkey(y) is None})
        if len(rs) < 2:
            continue
        cs = [coords(r) for r in rs]
        vary = [i for i in range(len(cs[0])) if len({c[i] for c in cs}) > 1]
        if len(vary) == 1:
            pos[key[0]] = vary[0]
    for key in sorted(lines):
        if key[0] not in pos:
            continue
        for y in sorted({y for x in lines[key] for y in nb[x] if swkey(y) is None}):
            c = list(coords(y))
            c[pos[key[0]]] = -1
            lineof[(key[0], tuple(c))] = key
    before = collections.Counter()
    for (x, y), pth in path.items():
        if x == y or not minimal(x, y):
            continue
        seq = []
        for z in pth:
            k = swkey(z)
            if k and (not seq or seq[-1] != k[0]):
                seq.append(k[0])
        if len(seq) == len(set(seq)):
            for i in range(len(seq)):
                for j in range(i + 1, len(seq)):
                    before[(seq[i], seq[j])] += 1
    dims = sorted(pos)
    order = sorted(dims, key=lambda d: -sum(1 for e in dims if before[(d, e)] > before[(e, d)]))

    def meets(x, y):
        """What dimension order from router x to router y runs into."""
        cur, cy, found = list(coords(x)), coords(y), set()
        for d in order:
            p = pos[d]
            if cur[p] == cy[p]:
                continue
            c = list(cur)
            c[p] = -1
            key = lineof.get((d, tuple(c)))
            nxt = list(cur)
            nxt[p] = cy[p]
            a, t = "R[%s]" % ",".join(map(str, cur)), "R[%s]" % ",".join(map(str, nxt))
            if key is None or not cables[(a, key, 'up')] or not cables[(t, key, 'up')]:
                found.add("no cable")
            elif (key, a, t) in bpairs:
                found.add("two planes" if bpairs[(key, a, t)] else "split line")
            cur = nxt
        return found

    cls = collections.Counter()
    for s_, d_ in flows[busy]:
        m = meets(peer[(s_, 1)][0], peer[(d_, 1)][0])
        cls[", ".join(sorted(m)) or "nothing"] += 1
    print("  dimension order %s; on the busiest, what it meets: %s" %
          (order, "; ".join("%s %d" % kv for kv in sorted(cls.items()))))
    # a destination whose every blocked source meets two planes alone:
    # a bounce would route all of its flows in dimension order again
    routers_ = sorted({peer[(c, 1)][0] for c in cas})
    bdest = set()
    for y in routers_:
        m = set()
        for x in routers_:
            if x != y:
                m |= meets(x, y)
        if m == {"two planes"}:
            bdest.add(y)
    rest0, rest3 = collections.Counter(), collections.Counter()
    for e, fl in flows.items():
        for s_, d_ in fl:
            x, y = peer[(s_, 1)][0], peer[(d_, 1)][0]
            if meets(x, y) != {"two planes"}:
                rest0[e] += w
            if y not in bdest:
                rest3[e] += w
    for name, rest in (("the flows only a bounce would re-route off (dimension "
                        "order meets two planes and nothing else)", rest0),
                       ("every flow to %d routers a bounce would make reachable "
                        "in dimension order off" % len(bdest), rest3)):
        if rest:
            e = busiest(rest)
            print("  estimate, %s: busiest %s port %d -> %s %.4f (throughput %.4f)" %
                  (name, e[0], e[2], e[1], rest[e], 1 / rest[e]))


    if bounce:
        bounce_estimate(locals())

    nm = sum(1 for s, d in flows[busy]
             if not minimal(peer[(s, 1)][0], peer[(d, 1)][0]))
    print("  non-minimal flows on it: %d of %d" % (nm, len(flows[busy])))
    rest1, rest2 = collections.Counter(), collections.Counter()
    bad = {y for (x, y) in path if x != y and not minimal(x, y)}
    for e, fl in flows.items():
        for s, d in fl:
            x, y = peer[(s, 1)][0], peer[(d, 1)][0]
            if minimal(x, y):
                rest1[e] += w
            if y not in bad:
                rest2[e] += w
    for name, rest in (("non-minimal flows off", rest1),
                       ("flows to %d routers with a non-minimal flow off" % len(bad),
                        rest2)):
        if not rest:
            print("  estimate, %s: no flow left" % name)
            continue
        e = busiest(rest)
        print("  estimate, %s: busiest %s port %d -> %s %.4f (throughput %.4f)" %
              (name, e[0], e[2], e[1], rest[e], 1 / rest[e]))


def bounce_estimate(v):
    """The --bounce prototype (see the top); v: main()'s variables."""
    peer, cas, flows, busy, w = v["peer"], v["cas"], v["flows"], v["busy"], v["w"]
    meets, bdest, path, lines = v["meets"], v["bdest"], v["path"], v["lines"]
    nb, bpairs, order, pos = v["nb"], v["bpairs"], v["order"], v["pos"]
    lineof, coords, busiest, kind = v["lineof"], v["coords"], v["busiest"], v["kind"]

    def moved(s, d):
        x, y = peer[(s, 1)][0], peer[(d, 1)][0]
        return y in bdest or meets(x, y) == {"two planes"}

    load = collections.Counter()
    for e, fl in flows.items():
        load[e] += w * sum(1 for s, d in fl if not moved(s, d))
    entry = {}
    pairs = []
    for d in cas:
        for s in cas:
            if s == d:
                continue
            if moved(s, d):
                pairs.append((s, d))
                continue
            p = path[(peer[(s, 1)][0], peer[(d, 1)][0])]
            for u, x in zip(p, p[1:]):
                entry[(u, d)] = x
    ports = collections.defaultdict(list)
    for (a, pa), (b, _) in peer.items():
        ports[(a, b)].append(pa)
    stg = {x: swkey(x)[2] for x in kind if swkey(x)}
    memo = {}

    def inline(x, key):
        return x in stg and swkey(x)[:2] == key

    def below(x, t):
        if (x, t) not in memo:
            memo[(x, t)] = any((y == t and stg[x] == 1) or
                               (inline(y, swkey(x)[:2]) and stg[y] == stg[x] - 1 and
                                below(y, t)) for y in nb[x])
        return memo[(x, t)]

    def updown(a, t, key):
        """The shortest up*-down* node paths a -> t inside line key."""
        level = [[a, y] for y in sorted(set(nb[a])) if inline(y, key)]
        while level:
            hit = [p for p in level if below(p[-1], t)]
            if hit:
                out = []
                while hit:
                    more = []
                    for p in hit:
                        if stg[p[-1]] == 1:
                            out.append(p + [t])
                            continue
                        more += [p + [y] for y in sorted(set(nb[p[-1]]))
                                 if inline(y, key) and stg[y] == stg[p[-1]] - 1 and below(y, t)]
                    hit = more
                return out
            level = [p + [y] for p in level for y in sorted(set(nb[p[-1]]))
                     if inline(y, key) and stg[y] == stg[p[-1]] + 1][:2000]
        return []

    def crossings(a, t, key):
        if (key, a, t) not in bpairs:
            return updown(a, t, key)
        rs = sorted({y for x in lines[key] for y in nb[x] if swkey(y) is None})
        return [p1 + p2[1:] for b in rs if b not in (a, t)
                for p1 in updown(a, b, key)[:50] for p2 in updown(b, t, key)[:50]]

    def cost(nodes):
        hops, worst, total = [], 0.0, 0.0
        for u, x in zip(nodes, nodes[1:]):
            pp = min(ports[(u, x)], key=lambda q: (load[(u, x, q)], q))
            hops.append((u, x, pp))
            worst = max(worst, load[(u, x, pp)] + w)
            total += load[(u, x, pp)]
        return (worst, total), hops

    broke = 0
    for s, d in pairs:
        cur, cy = list(coords(peer[(s, 1)][0])), coords(peer[(d, 1)][0])
        for dim in order:
            p = pos[dim]
            if cur[p] == cy[p]:
                continue
            c = list(cur)
            c[p] = -1
            nxt = list(cur)
            nxt[p] = cy[p]
            a = "R[%s]" % ",".join(map(str, cur))
            t = "R[%s]" % ",".join(map(str, nxt))
            cands = crossings(a, t, lineof[(dim, tuple(c))])
            ok = [q for q in cands
                  if all(entry.get((u, d), x) == x for u, x in zip(q, q[1:]))]
            if not ok:
                broke += 1
                ok = cands
            _, hops = min((cost(q) for q in ok), key=lambda ch: ch[0])
            for h in hops:
                load[h] += w
                entry.setdefault((h[0], d), h[1])
            cur = nxt
    on = sum(1 for s, d in flows[busy] if moved(s, d))
    e = busiest(load)
    print("  bounce prototype: %d flows re-routed (%d of the busiest link's); "
          "%d crossings found no path keeping one next hop per destination; "
          "busiest %s port %d -> %s %.4f (throughput %.4f)" %
          (len(pairs), on, broke, e[0], e[2], e[1], load[e], 1 / load[e]))


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
