#!/usr/bin/env python3
"""ifma_probe_critpath.py — the longest dependency chain through one function of an object file, in cycles, from
assumed instruction latencies: a static estimate for code that cannot run on the host (the IFMA ladder step
on a CPU without AVX-512). Not a measurement.

    python3 bench/ifma_probe_critpath.py OBJ [FUNCTION] [--ifma-lat 4] [--perm-lat 4] [--fwd 6]

Vector registers only (xmm/ymm/zmm N alias); vpmadd52* also read their destination; register moves cost 0 (renamed);
loads of the function's inputs are ready at 0; a reload of a stack slot waits for its store plus --fwd cycles
(store forwarding); vpmul*q cost --mul-lat; every other instruction costs 1 cycle. Prints the instruction count, the mnemonic counts and the
critical path with the mnemonics on it."""
import argparse
import collections
import re
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("obj")
ap.add_argument("function", nargs="?", default="ladderstep_ifma")
ap.add_argument("--ifma-lat", type=int, default=4)
ap.add_argument("--perm-lat", type=int, default=4)
ap.add_argument("--mul-lat", type=int, default=3)  # vpmuludq, vpmuldq, vpmullq (clang's 19 x)
ap.add_argument("--fwd", type=int, default=6)
a = ap.parse_args()

dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", a.obj], capture_output=True, text=True, check=True).stdout
body, on = [], False
for line in dis.splitlines():
    if line.endswith("<%s>:" % a.function):
        on = True
        continue
    if on and not line.strip():
        break
    if on and "\t" in line:
        body.append(line.split("\t", 1)[1].split("#")[0].strip())
if not body:
    raise SystemExit("%s: no function %s" % (a.obj, a.function))

lat = {"vpmadd52luq": a.ifma_lat, "vpmadd52huq": a.ifma_lat, "vpermq": a.perm_lat, "vpmuludq": a.mul_lat,
       "vpmuldq": a.mul_lat, "vpmullq": a.mul_lat}
moves = ("vmovdqa", "vmovdqa32", "vmovdqa64", "vmovdqu", "vmovdqu64", "vmovq")
ready, who, prev = {}, {}, {}
best = (0, None)
regs = lambda o: re.findall(r"%[xyz]mm(\d+)", o)
for i, ins in enumerate(body):
    parts = ins.split(None, 1)
    op = parts[0]
    ops = [o.strip() for o in re.split(r",(?![^(]*\))", parts[1])] if len(parts) > 1 else []
    if not ops:
        continue
    dst, srcs = ops[-1], ops[:-1]
    keys = [r for s in srcs for r in regs(s)] + ["mem:" + s for s in srcs if "(" in s]
    if op.startswith("vpmadd52"):
        keys += regs(dst)
    t, p = 0, None
    for k in keys:
        if ready.get(k, 0) > t:
            t, p = ready[k], who[k]
    prev[i] = p
    if "(" in dst:  # a store
        if "%rsp" in dst or "%rbp" in dst:
            ready["mem:" + dst], who["mem:" + dst] = t + a.fwd, i
        continue
    done = t + (0 if op in moves else lat.get(op, 1))
    for r in regs(dst):
        ready[r], who[r] = done, i
        if done > best[0]:
            best = (done, i)
chain, i = [], best[1]
while i is not None:
    chain.append(body[i].split()[0])
    i = prev[i]
print("%s %s: %d instructions" % (a.obj, a.function, len(body)))
print("  mnemonics:", ", ".join("%d %s" % (n, m) for m, n in collections.Counter(b.split()[0] for b in body).most_common()))
print("  critical path: %d cycles (IFMA latency %d, vpermq %d, vpmul*q %d, store forwarding %d, others 1), %d "
      "instructions: %s" % (best[0], a.ifma_lat, a.perm_lat, a.mul_lat, a.fwd, len(chain),
         ", ".join("%d %s" % (n, m) for m, n in collections.Counter(chain).most_common())))
