#!/usr/bin/env python3
"""Writes the classic POWER litmus families (tests/litmus/*.litmus) in herd's PPC format, and
tests/litmus/expected.csv (test, expected outcome of the condition's formula, source).

A thread is a list: accesses ("Wx=1", "Rx") joined by edges (po, sync, lwsync, addr, data,
ctrl, ctrlisync). Registers: r5, r6, r7 hold &x, &y, &z; loads go to r1, r3, r4 in order."""
import os, sys

LOCREG = {"x": "r5", "y": "r6", "z": "r7"}
DST = ["r1", "r3", "r4"]
SRC_HC = "Herding cats POWER model (Alglave, Maranget, Tautschnig 2014)"

def thread(tid, ops):
    out, loads, last, lab = [], 0, None, 0
    edge = "po"
    for op in ops:
        if op in ("po", "sync", "lwsync", "addr", "data", "ctrl", "ctrlisync"):
            edge = op
            continue
        loc = op[1]
        base = LOCREG[loc]
        if edge in ("sync", "lwsync"):
            out.append(edge)
        dep = None
        if edge in ("addr", "data", "ctrl", "ctrlisync"):
            dep = last
        if edge in ("ctrl", "ctrlisync"):
            out.append(f"cmpw {dep},{dep}")
            out.append(f"beq LC{tid}{lab}")
            out.append(f"LC{tid}{lab}:")
            lab += 1
            if edge == "ctrlisync":
                out.append("isync")
        if op[0] == "W":
            v = int(op.split("=")[1])
            if edge == "data":
                out.append(f"xor r9,{dep},{dep}")
                out.append(f"addi r8,r9,{v}")
            else:
                out.append(f"li r8,{v}")
            if edge == "addr":
                out.append(f"xor r9,{dep},{dep}")
                out.append(f"stwx r8,r9,{base}")
            else:
                out.append(f"stw r8,0({base})")
        else:
            d = DST[loads]
            loads += 1
            if edge == "addr":
                out.append(f"xor r9,{dep},{dep}")
                out.append(f"lwzx {d},r9,{base}")
            else:
                out.append(f"lwz {d},0({base})")
            last = d
        edge = "po"
    return out

def write(name, threads, cond, expected, source, d):
    cols = [thread(i, t) for i, t in enumerate(threads)]
    locs = sorted({op[1] for t in threads for op in t if op[0] in "RW" and len(op) > 1 and op[1] in LOCREG})
    init = " ".join(f"{i}:{LOCREG[l]}={l};" for i in range(len(threads)) for l in locs)
    init = " ".join(f"{l}=0;" for l in locs) + "\n" + init
    n = max(len(c) for c in cols)
    w = [max([len(f"P{i}")] + [len(x) for x in c]) for i, c in enumerate(cols)]
    rows = [" | ".join(f"P{i}".ljust(w[i]) for i in range(len(cols))) + " ;"]
    for k in range(n):
        rows.append(" | ".join((c[k] if k < len(c) else "").ljust(w[i]) for i, c in enumerate(cols)) + " ;")
    text = f"PPC {name}\n\"{source}\"\n{{\n{init}\n}}\n" + "\n".join(rows) + f"\nexists ({cond})\n"
    with open(os.path.join(d, name + ".litmus"), "w") as f:
        f.write(text)
    return (name, expected, source)

A, F = "Allowed", "Forbidden"

# The families: threads whose integer slots take the run's edges in order, and the condition.
FAMILIES = {
    "MP": ([["Wx=1", 0, "Wy=1"], ["Ry", 1, "Rx"]], "1:r1=1 /\\ 1:r3=0"),
    "SB": ([["Wx=1", 0, "Ry"], ["Wy=1", 1, "Rx"]], "0:r1=0 /\\ 1:r1=0"),
    "LB": ([["Rx", 0, "Wy=1"], ["Ry", 1, "Wx=1"]], "0:r1=1 /\\ 1:r1=1"),
    "WRC": ([["Wx=1"], ["Rx", 0, "Wy=1"], ["Ry", 1, "Rx"]], "1:r1=1 /\\ 2:r1=1 /\\ 2:r3=0"),
    "IRIW": ([["Wx=1"], ["Rx", 0, "Ry"], ["Wy=1"], ["Ry", 1, "Rx"]],
             "1:r1=1 /\\ 1:r3=0 /\\ 3:r1=1 /\\ 3:r3=0"),
    "2+2W": ([["Wx=2", 0, "Wy=1"], ["Wy=2", 1, "Wx=1"]], "x=2 /\\ y=2"),
    "R": ([["Wx=1", 0, "Wy=1"], ["Wy=2", 1, "Rx"]], "y=2 /\\ 1:r1=0"),
    "S": ([["Wx=2", 0, "Wy=1"], ["Ry", 1, "Wx=1"]], "x=2 /\\ 1:r1=1"),
    "ISA2": ([["Wx=1", 0, "Wy=1"], ["Ry", 1, "Wz=1"], ["Rz", 2, "Rx"]],
             "1:r1=1 /\\ 2:r1=1 /\\ 2:r3=0"),
}

# (family, edges, expected outcome under the Herding cats POWER model).
RUNS = [
    ("MP", "po po", A), ("MP", "sync sync", F), ("MP", "lwsync lwsync", F),
    ("MP", "sync addr", F), ("MP", "lwsync addr", F), ("MP", "sync ctrl", A),
    ("MP", "sync ctrlisync", F), ("MP", "lwsync ctrlisync", F), ("MP", "lwsync ctrl", A),
    ("MP", "sync po", A), ("MP", "po addr", A), ("MP", "po sync", A),
    ("MP", "po ctrlisync", A), ("MP", "lwsync po", A),
    ("SB", "po po", A), ("SB", "sync sync", F), ("SB", "lwsync lwsync", A),
    ("SB", "sync lwsync", A), ("SB", "sync po", A),
    ("LB", "po po", A), ("LB", "addr addr", F), ("LB", "data data", F), ("LB", "ctrl ctrl", F),
    ("LB", "sync sync", F), ("LB", "lwsync lwsync", F), ("LB", "data po", A),
    ("LB", "addr data", F), ("LB", "ctrlisync ctrlisync", F),
    ("WRC", "po po", A), ("WRC", "sync sync", F), ("WRC", "lwsync lwsync", F),
    ("WRC", "addr addr", A), ("WRC", "data addr", A), ("WRC", "sync addr", F),
    ("WRC", "lwsync addr", F), ("WRC", "data sync", A), ("WRC", "ctrlisync ctrlisync", A),
    ("IRIW", "po po", A), ("IRIW", "sync sync", F), ("IRIW", "lwsync lwsync", A),
    ("IRIW", "addr addr", A), ("IRIW", "sync lwsync", A), ("IRIW", "ctrlisync ctrlisync", A),
    ("2+2W", "po po", A), ("2+2W", "sync sync", F), ("2+2W", "lwsync lwsync", F),
    ("2+2W", "sync lwsync", F), ("2+2W", "sync po", A),
    ("R", "po po", A), ("R", "sync sync", F), ("R", "lwsync sync", A),
    ("R", "lwsync lwsync", A), ("R", "sync lwsync", A),
    ("S", "po po", A), ("S", "sync sync", F), ("S", "lwsync lwsync", F), ("S", "lwsync data", F),
    ("S", "sync addr", F), ("S", "lwsync ctrl", F), ("S", "po data", A), ("S", "sync po", A),
    ("ISA2", "po po po", A), ("ISA2", "sync sync sync", F), ("ISA2", "lwsync lwsync lwsync", F),
    ("ISA2", "sync data addr", F), ("ISA2", "lwsync data addr", F),
    ("ISA2", "lwsync ctrl ctrlisync", F), ("ISA2", "po data addr", A),
    ("ISA2", "lwsync po addr", A),
]

def suffix(*es):
    es = ["ctrl-isync" if e == "ctrlisync" else e for e in es]
    if all(e == "po" for e in es):
        return ""
    if len(set(es)) == 1:
        return "+" + es[0] + "s"
    return "+" + "+".join(es)

def main(d):
    rows = []
    for fam, edges, exp in RUNS:
        shape, cond = FAMILIES[fam]
        edges = edges.split()
        threads = [[edges[o] if isinstance(o, int) else o for o in t] for t in shape]
        rows.append(write(fam + suffix(*edges), threads, cond, exp, SRC_HC, d))
    # Speculation: a load satisfied from its own thread's store under a control dependency.
    ppo = "1:r1=1 /\\ 1:r3=1 /\\ 1:r4=0"
    rows.append(write("PPOCA", [["Wx=1", "sync", "Wy=1"], ["Ry", "ctrl", "Wz=1", "po", "Rz", "addr", "Rx"]], ppo, A, SRC_HC, d))
    rows.append(write("PPOAA", [["Wx=1", "sync", "Wy=1"], ["Ry", "addr", "Wz=1", "po", "Rz", "addr", "Rx"]], ppo, F, SRC_HC, d))
    # Single-location coherence.
    rows.append(write("CoRR", [["Wx=1"], ["Rx", "po", "Rx"]], "1:r1=1 /\\ 1:r3=0", F, SRC_HC, d))
    rows.append(write("CoWW", [["Wx=1", "po", "Wx=2"]], "x=1", F, SRC_HC, d))
    rows.append(write("CoRW", [["Rx", "po", "Wx=1"], ["Wx=2"]], "0:r1=2 /\\ x=2", F, SRC_HC, d))
    rows.append(write("CoWR", [["Wx=1", "po", "Rx"], ["Wx=2"]], "0:r1=2 /\\ x=1", F, SRC_HC, d))
    with open(os.path.join(d, "expected.csv"), "w") as f:
        f.write("test,expected,source\n")
        for n, e, s in rows:
            f.write(f"{n},{e},{s}\n")
    print(len(rows), "tests")

main(sys.argv[1] if len(sys.argv) > 1 else "tests/litmus")
