#!/usr/bin/env python3
"""check-ct-objdump.py — constant-time evidence from object code: no branch and no memory address that may depend
on a secret, in the functions of x86-64 object files.

Valgrind cannot run AVX-512, so the ifma backend's real build is checked here, on what the compiler emitted
(objdump -d), instead of under memcheck. Every function of the given objects is checked, except those whose name
matches --skip (the variable-time functions of public inputs, e.g. verification; each --skip gives its reason).

The model (a forward data-flow analysis over each function's instructions, to a fixed point over its jumps):
  * Memory holds secrets: a value loaded from memory is SECRET, except a stack slot this function stored a known
    value into (spills and reloads keep their state), and RIP-relative data (constants of the object).
  * On entry, the argument registers (rdi, rsi, rdx, rcx, r8, r9) and rsp are pointers, PTR(reg): fine as the
    base of an address, SECRET for everything else (an argument may be a secret passed by value). Every other
    register is SECRET on entry; vector and mask registers are always SECRET; a call leaves the caller-saved
    registers and the flags SECRET.
  * PUBLIC: immediates, and what is computed from PUBLIC values alone (loop counters). PTR(r) +- PUBLIC is PTR(r),
    PTR(r) - PTR(r) is PUBLIC (an offset between two pointers from one argument); anything else mixing PTR is SECRET.
  * Rejected: a conditional branch (jcc, loop, jrcxz) whose flags are not PUBLIC; a memory operand whose index
    register is not PUBLIC or whose base register is SECRET; an indirect jump; div and idiv (their time depends on
    their operands); a gather or scatter (a vector index); a rep string instruction whose count is not PUBLIC.
    cmov, setcc, adc and sbb are fine: they take the same time whatever the flags.
An entry register may be declared PUBLIC for one function (--public FUNC_REGEX:REG:REASON), e.g. a key count n that
the function's contract makes public, and the result of a called function (--declassify CALLEE:REASON), e.g. a
verdict the contract makes public; such exceptions are printed with their reason.

Calls are not followed: functions called in the same objects are checked as functions of their own, and the others
(memcpy, the generic code the valgrind suites cover) are listed by name.

Usage: check-ct-objdump.py [--objdump PATH] [--skip REGEX:REASON]... [--public FUNC_REGEX:REG:REASON]...
                           [--declassify CALLEE:REASON]...
                           [--expect-functions REGEX]... [-v] OBJECT|@LISTFILE...
--expect-functions: fail unless some checked function's name matches (so a rename cannot empty the check).
Exit: 0 no violation; 1 a violation (each printed with its function, address and instruction); 2 bad usage or an
object objdump cannot read.
"""
import argparse
import os
import re
import subprocess
import sys

# ---- registers ---------------------------------------------------------------------------------------------------
GPR64 = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"] + ["r%d" % i for i in range(8, 16)]
ALIAS = {}
for r, (d, w, b) in {
    "rax": ("eax", "ax", "al"), "rbx": ("ebx", "bx", "bl"), "rcx": ("ecx", "cx", "cl"), "rdx": ("edx", "dx", "dl"),
    "rsi": ("esi", "si", "sil"), "rdi": ("edi", "di", "dil"), "rbp": ("ebp", "bp", "bpl"), "rsp": ("esp", "sp", "spl"),
}.items():
    for n in (r, d, w, b):
        ALIAS[n] = r
for n in ("ah", "bh", "ch", "dh"):
    ALIAS[n] = "r" + n[0] + "x"
for i in range(8, 16):
    for suf in ("", "d", "w", "b"):
        ALIAS["r%d%s" % (i, suf)] = "r%d" % i
ARGS = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"]
CALLER_SAVED = ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11"]
PARTIAL = {n for n in ALIAS if re.fullmatch(r"[abcd][xlh]|[sd]il|[sb]pl|[sd]i|[sb]p|r\d+[wb]", n)}

P = "P"  # PUBLIC
S = "S"  # SECRET; PTR(r) is the tuple ("A", r)


ANY = ("A", "*")  # a pointer from one of several public sources (a select between two arguments or constants)


def join(a, b):
    if a == b:
        return a
    if a != S and b != S:  # PUBLIC and pointers: still fine as the base of an address, nothing more
        return ANY
    return S


def is_ptr(s):
    return isinstance(s, tuple)


def pub_only(*xs):
    """the state of a value computed from xs by an operation other than +, -: PUBLIC from PUBLIC alone"""
    return P if all(x == P for x in xs) else S


def add_state(a, b):
    if a == P and b == P:
        return P
    if is_ptr(a) and b == P:
        return a
    if is_ptr(b) and a == P:
        return b
    return S


def sub_state(a, b):  # a - b
    if a == P and b == P:
        return P
    if is_ptr(a) and b == P:
        return a
    if is_ptr(a) and a == b and a != ANY:
        return P
    return S


# ---- operands ----------------------------------------------------------------------------------------------------
MEM_RE = re.compile(r"^(?:%[a-z]s:)?(?P<disp>-?(?:0x)?[0-9a-f]*)\((?P<base>%[a-z0-9]+)?(?:,(?P<index>%[a-z0-9]+))?"
                    r"(?:,(?P<scale>\d))?\)$")


def split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Op:
    """one operand: kind 'imm', 'reg' (name = the 64-bit register, or a vector/other register), 'mem', 'addr'"""

    def __init__(self, text):
        self.text = text
        t = re.sub(r"\{[^}]*\}", "", text).strip()  # AVX-512 decorations: {%k1}, {z}, {1to8}, {sae}
        self.indirect = t.startswith("*")
        t = t.lstrip("*")
        self.kind, self.reg, self.base, self.index, self.disp, self.scale = None, None, None, None, 0, 1
        if t.startswith("$"):
            self.kind = "imm"
        elif t.startswith("%") and ":" not in t:
            self.kind = "reg"
            self.raw = t[1:]
            self.reg = ALIAS.get(self.raw)  # None: a vector, mask, segment or other register
        else:
            m = MEM_RE.match(t)
            if m:
                self.kind = "mem"
                self.base = m.group("base")[1:] if m.group("base") else None
                self.index = m.group("index")[1:] if m.group("index") else None
                self.scale = int(m.group("scale")) if m.group("scale") else 1
                d = m.group("disp")
                self.disp = int(d, 16) if d and d not in ("-",) else 0
                if d.startswith("-"):
                    self.disp = -int(d[1:], 16) if d[1:] else 0
            elif re.match(r"^[0-9a-f]+( <.*>)?$", t):
                self.kind = "addr"
                self.addr = int(t.split()[0], 16)
            else:
                self.kind = "mem"  # an absolute or otherwise unparsed address: checked as an unknown base
                self.base = "?"

    def gpr(self):
        return self.reg if self.kind == "reg" else None


# ---- instructions ------------------------------------------------------------------------------------------------
PREFIXES = {"lock", "rep", "repz", "repnz", "repe", "repne", "notrack", "bnd", "data16", "cs", "ds", "es", "ss",
            "fs", "gs", "addr32",
            # objdump's encoding pseudo-prefixes (an EVEX form where a VEX one exists): no effect on what runs
            "{evex}", "{vex}", "{vex3}"}
JCC = re.compile(r"^(j(?!mp)[a-z]+|loop[a-z]*|jrcxz|jecxz|jcxz)$")
NO_FLAGS = re.compile(r"^(mov|lea|push|pop|set|cmov|not|bswap|shlx|shrx|sarx|rorx|mulx|pdep|pext|xchg|nop|endbr|"
                      r"cqto|cltq|cwtl|cltd|cwtd|cbtw|prefetch|lfence|mfence|sfence|pause|vzero|rdtsc)")
FLAG_READERS = re.compile(r"^(adc|sbb|cmov|set|rcl|rcr|adcx|adox)")
ALU = {"add", "sub", "adc", "sbb", "and", "or", "xor", "cmp", "test", "bt", "inc", "dec", "neg", "not", "shl", "shr",
       "sar", "sal", "rol", "ror", "rcl", "rcr", "imul", "mul", "shld", "shrd", "adcx", "adox"}
VEC_FLAGS = re.compile(r"^(kortest|ktest|v?ptest|v?u?comis|vtest)")


class Insn:
    def __init__(self, addr, text, reloc=None):
        self.addr, self.text, self.reloc = addr, text, reloc
        parts = text.split(None, 1)
        words = parts[0:1]
        rest = parts[1] if len(parts) > 1 else ""
        mn = parts[0] if parts else ""
        self.prefixes = []
        while mn in PREFIXES and rest:
            self.prefixes.append(mn)
            p2 = rest.split(None, 1)
            mn, rest = p2[0], (p2[1] if len(p2) > 1 else "")
        self.mn = mn
        del words
        rest = rest.split("#")[0].strip()
        if "<" in rest and self.mn.startswith(("j", "call", "loop")):
            self.ops = [Op(rest)]
        else:
            self.ops = [Op(o) for o in split_operands(rest)] if rest else []


def parse_objdump(objdump, path):
    """{function name: [Insn]} of an object, from objdump -dr (AT&T syntax; relocations name the call targets)"""
    try:
        out = subprocess.run([objdump, "-dr", "-w", "--no-show-raw-insn", path], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print("check-ct-objdump: %s: objdump failed: %s" % (path, getattr(e, "stderr", "") or e), file=sys.stderr)
        sys.exit(2)
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            cur = m.group(2)
            funcs.setdefault(cur, [])
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(R_X86_64_\S+)\s+(\S+)", line)
        if m and cur and funcs[cur]:
            funcs[cur][-1].reloc = m.group(3)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m and cur is not None:
            text = m.group(2).strip()
            reloc = None
            r = re.search(r"\s+[0-9a-f]+: R_X86_64_\S+\s+(\S+)$", text)  # -w puts a relocation on its line
            if r:
                reloc, text = r.group(1), text[:r.start()].strip()
            if text and not text.startswith("(bad)"):
                funcs[cur].append(Insn(int(m.group(1), 16), text, reloc))
            elif text.startswith("(bad)"):
                funcs[cur].append(Insn(int(m.group(1), 16), "(bad)"))
    return funcs


def call_target(ins):
    """the name a direct call or jump goes to: its relocation's symbol, or the <name> objdump shows (no offset)"""
    if ins.reloc:
        return re.sub(r"[-+]0x[0-9a-f]+$", "", ins.reloc)
    m = re.search(r"<([^>+]+)>$", ins.text)
    return m.group(1) if m else None


def written_regs(funcs):
    """{function: the GPRs it may change, its callees' included}: gcc's interprocedural register allocation keeps
    values in caller-saved registers across a call to a local function that does not touch them, so a call clobbers
    only these (all caller-saved ones for a function outside the objects)"""
    own, callees = {}, {}
    for name, insns in funcs.items():
        w, c = set(), set()
        for ins in insns:
            if ins.mn.startswith("call") or (ins.mn.startswith("jmp") and call_target(ins) in funcs and
                                             call_target(ins) != name and not ins.ops[0].indirect):
                t = call_target(ins)
                if t in funcs and not ins.ops[0].indirect:
                    c.add(t)
                else:
                    w |= set(CALLER_SAVED)
                continue
            if ins.mn.startswith(("mul", "imul", "div", "idiv", "cq", "cl", "cw", "cb", "rdtsc", "cpuid", "xgetbv",
                                  "rep", "stos", "movs", "lods", "loop")) or ins.prefixes:
                w |= {"rax", "rdx", "rcx", "rsi", "rdi", "rbx"}
            for o in ins.ops[-1:] + (ins.ops[:-1] if ins.mn.startswith(("xchg", "xadd", "mulx")) else []):
                if o.gpr():
                    w.add(o.gpr())
        own[name], callees[name] = w, c
    changed = True
    while changed:
        changed = False
        for name in funcs:
            for c in callees[name]:
                if not own[c] <= own[name]:
                    own[name] |= own[c]
                    changed = True
    return own


# ---- the analysis ------------------------------------------------------------------------------------------------
class State:
    __slots__ = ("regs", "flags", "slots", "rsp")

    def __init__(self):
        self.regs, self.flags, self.slots, self.rsp = {}, S, {}, 0

    def copy(self):
        n = State()
        n.regs, n.flags, n.slots, n.rsp = dict(self.regs), self.flags, dict(self.slots), self.rsp
        return n

    def get(self, r):
        return self.regs.get(r, S)

    def merge(self, o):
        """self := self join o; True when self changed"""
        changed = False
        for r in set(self.regs) | set(o.regs):
            v = join(self.get(r), o.get(r))
            if v != self.get(r):
                changed = True
            self.regs[r] = v
        f = join(self.flags, o.flags)
        changed |= f != self.flags
        self.flags = f
        if self.rsp != o.rsp:  # stack offsets disagree: forget the slots
            changed |= bool(self.slots) or self.rsp is not None
            self.slots, self.rsp = {}, None
        else:
            for k in list(self.slots):
                v = join(self.slots[k], o.slots.get(k, S))
                if k not in o.slots:
                    del self.slots[k]
                    changed = True
                elif v != self.slots[k]:
                    self.slots[k] = v
                    changed = True
        return changed


def vreg(op):
    """the pseudo-register of a vector register operand (xmmN, ymmN and zmmN are one register), or None"""
    if op is None or op.kind != "reg" or op.reg is not None:
        return None
    m = re.fullmatch(r"[xyz]mm(\d+)", op.raw)
    return "v" + m.group(1) if m else None


def entry_state(public_regs):
    st = State()
    for r in GPR64:
        st.regs[r] = S
    for r in ARGS:
        st.regs[r] = ("A", r)
    st.regs["rsp"] = ("A", "rsp")
    for r in public_regs:
        st.regs[r] = P
    return st


def slot_key(st, op):
    """the stack slot of a memory operand (rsp-relative, with the pushes and pops since entry), or None"""
    if op.kind != "mem" or op.index or op.base != "rsp" or st.rsp is None:
        return None
    return op.disp + st.rsp


REG_SIZE = {}
for _r in GPR64:
    REG_SIZE[_r] = 8
for _n, _r in ALIAS.items():
    REG_SIZE[_n] = 8 if _n == _r else 4 if (_n.startswith("e") or _n.endswith("d")) else \
        2 if (_n in ("ax", "bx", "cx", "dx", "si", "di", "bp", "sp") or _n.endswith("w")) else 1


def access_size(mn, ops):
    """bytes moved by a GPR instruction's memory operand: from a register operand, else the mnemonic's suffix"""
    for o in ops:
        if o.kind == "reg" and o.reg:
            return REG_SIZE[o.raw]
    return {"q": 8, "l": 4, "w": 2, "b": 1}.get(mn[-1:], 0)


def imm_value(text):
    v = int(text.lstrip("$"), 16)
    return v - (1 << 64) if v >= 1 << 63 else v


def escaped_floor(insns):
    """the lowest frame offset (entry-relative, as slot keys) whose address the function takes (lea d(%rsp), or rsp
    copied): a callee, or a store through such a pointer, may write from there up, never below (C objects do not
    extend below their address), so the spill slots under it survive calls. rsp's moves are followed in order."""
    delta, floor, fp = 0, None, False
    for ins in insns:
        if delta is None:
            break
        mn, ops = ins.mn, ins.ops
        if mn.startswith("mov") and len(ops) == 2 and ops[0].gpr() == "rsp" and ops[1].gpr() == "rbp":
            fp = True  # rbp is the frame pointer from here
        if mn.startswith("push"):
            delta -= 8
        elif mn.startswith("pop"):
            delta += 8
        elif ops and ops[-1].gpr() == "rsp":
            if mn.startswith(("sub", "add")) and ops[0].kind == "imm":
                delta += -imm_value(ops[0].text) if mn.startswith("sub") else imm_value(ops[0].text)
            elif mn.startswith("and"):
                delta = 0
            elif mn.startswith("lea") and ops[0].kind == "mem" and ops[0].base == "rbp":
                pass  # the epilogue of a frame-pointer function: rsp back to the saved registers
            else:
                delta = None
        elif mn.startswith("lea") and ops and ops[0].kind == "mem" and ops[0].base == "rsp":
            d = ops[0].disp + delta
            floor = d if floor is None else min(floor, d)
        elif fp and mn.startswith("lea") and ops and ops[0].kind == "mem" and ops[0].base == "rbp":
            floor = -(1 << 62)  # a pointer into the frame from the frame pointer: offsets not followed
        elif any(o.kind == "reg" and o.reg == "rsp" for o in ops[:-1]) and not mn.startswith(("cmp", "test")) and \
                not (mn.startswith("mov") and ops[-1].gpr() == "rbp"):  # the frame pointer, followed apart
            floor = delta if floor is None else min(floor, delta)
    if delta is None:
        return -(1 << 62)  # rsp moved in a way not followed: every slot may be written
    return floor if floor is not None else (1 << 62)


def check_function(name, insns, public_regs, clobbers, declassified=()):
    """violations [(addr, text, why)] and external call targets of one function"""
    if not insns:
        return [], set()
    floor = escaped_floor(insns)
    by_addr = {ins.addr: i for i, ins in enumerate(insns)}
    states = [None] * len(insns)
    states[0] = entry_state(public_regs)
    work = [0]
    violations, calls = {}, set()

    def succ(i):
        ins = insns[i]
        out = []
        if ins.mn.startswith("ret") or ins.mn in ("ud2", "hlt") or (ins.mn.startswith("jmp")):
            pass
        elif i + 1 < len(insns):
            out.append(i + 1)
        if (ins.mn.startswith("j") or ins.mn.startswith("loop")) and ins.ops and ins.ops[0].kind == "addr":
            t = by_addr.get(ins.ops[0].addr)
            if t is not None:
                out.append(t)
            elif not ins.reloc and not (ins.mn.startswith("jmp") and call_target(ins) in clobbers):
                violations[(ins.addr, "jump")] = (ins.addr, ins.text, "a jump out of the function's instructions")
            elif ins.mn.startswith("jmp"):
                calls.add(call_target(ins))  # a tail call
        return out

    size = 0

    def forget_escaped(st):
        for kk in list(st.slots):
            if kk[0] + kk[1] > floor:
                del st.slots[kk]

    def viol(ins, why):
        violations[(ins.addr, why)] = (ins.addr, ins.text, why)

    def addr_check(st, ins, op):
        if op.kind != "mem":
            return
        if op.base == "?":
            viol(ins, "an address objdump's text does not show plainly")
            return
        b = P if op.base in (None, "rip") else (st.get(ALIAS[op.base]) if op.base in ALIAS else S)
        if op.index:
            ir = ALIAS.get(op.index)
            if ir is None:
                viol(ins, "a vector index (gather/scatter)")
                return
            x = st.get(ir)
            scale = op.scale or 1
            # base + index: with scale 1 either may be the pointer (gcc writes (%counter,%pointer,1) too)
            if (x != P and not (scale == 1 and b == P and is_ptr(x))) or add_state(b, x if scale == 1 else P) == S:
                viol(ins, "memory index %%%s may depend on a secret" % op.index if x != P or b == P else
                     "memory base %%%s may depend on a secret" % op.base)
                return
        if b == S:
            viol(ins, "memory base %%%s may depend on a secret" % op.base)

    def load(st, op):
        if op.kind == "imm":
            return P
        if op.kind == "reg":
            return st.get(op.reg) if op.reg else S
        if op.kind == "mem":
            if op.base == "rip" and not op.index:
                return P  # the object's own constants
            k = slot_key(st, op)
            if k is not None and (k, size) in st.slots:
                return st.slots[(k, size)]
            return S
        return S

    def store(st, op, v, size):
        """a store of size bytes (0: unknown, up to a zmm's 64)"""
        if op.kind != "mem":
            return
        k = slot_key(st, op)
        if k is not None:
            n = size or 64
            for kk in list(st.slots):
                if kk[0] < k + n and k < kk[0] + kk[1]:
                    del st.slots[kk]
            if size in (4, 8) and v != S:
                st.slots[(k, size)] = v
        else:
            b = st.get(ALIAS[op.base]) if op.base in ALIAS else S
            if op.base == "rsp" or (op.base == "rbp" and b in (("A", "rsp"), ANY)):
                st.slots = {}  # a store into the frame not followed: forget what the slots hold
            elif b in (("A", "rsp"), ANY):
                forget_escaped(st)

    def write(st, op, v):
        if op.kind == "reg":
            if op.reg:
                if op.raw in PARTIAL:
                    v = join(v, st.get(op.reg))
                st.regs[op.reg] = v
        elif op.kind == "mem":
            store(st, op, v, size)

    def step(i, st):
        nonlocal size
        ins = insns[i]
        mn, ops = ins.mn, ins.ops
        size = access_size(mn, ops)
        for op in ops:
            if op.kind == "mem" and not mn.startswith("lea") and not mn.startswith("nop"):
                addr_check(st, ins, op)
        if mn.startswith("nop") or mn.startswith("endbr") or mn in ("xchg",) and len(ops) == 2 and \
                ops[0].text == ops[1].text:
            return
        if JCC.match(mn):
            if mn.startswith(("loop", "jrcxz", "jecxz", "jcxz")):
                need = pub_only(st.get("rcx"), st.flags if mn in ("loope", "loopne", "loopz", "loopnz") else P)
            else:
                need = st.flags
            if need != P:
                viol(ins, "a conditional branch on flags that may depend on a secret")
            return
        if mn.startswith("jmp"):
            if ops and ops[0].indirect:
                viol(ins, "an indirect jump")
            return
        if mn.startswith("call"):
            if ops and ops[0].indirect:
                t = ops[0]
                if (t.kind == "reg" and load(st, t) != P) or t.kind == "mem":
                    viol(ins, "an indirect call through a value that may be secret")
            t = call_target(ins) if not (ops and ops[0].indirect) else None
            if t:
                calls.add(t)
            for r in (clobbers[t] & set(CALLER_SAVED)) | {"rax"} if t in clobbers else CALLER_SAVED:
                st.regs[r] = S
            if t in declassified:
                st.regs["rax"] = P
            st.flags = S
            forget_escaped(st)
            return
        if mn.startswith("ret"):
            return
        if mn in ("div", "divq", "divl", "idiv", "idivq", "idivl", "divb", "divw", "idivb", "idivw"):
            viol(ins, "a division (its time depends on its operands)")
            st.regs["rax"] = st.regs["rdx"] = S
            st.flags = S
            return
        if mn.startswith(("vpgather", "vgather", "vpscatter", "vscatter")):
            viol(ins, "a gather or scatter (an address per lane from a vector)")
            return
        if ins.prefixes and any(p.startswith("rep") for p in ins.prefixes):
            if st.get("rcx") != P:
                viol(ins, "a rep string instruction with a count that may be secret")
            used = {"stos": ("rdi",), "scas": ("rdi",), "lods": ("rsi",)}.get(mn[:4], ("rdi", "rsi"))
            for r in used:
                if st.get(r) == S:
                    viol(ins, "a rep string instruction with an address that may be secret")
            if st.get("rdi") == ("A", "rsp"):
                forget_escaped(st)
            elif st.get("rdi") != P and not is_ptr(st.get("rdi")):
                st.slots = {}
            st.regs["rcx"] = P
            return
        if mn.startswith("push"):
            size = 8
            v = load(st, ops[0]) if ops else S
            if st.rsp is not None:
                st.rsp -= 8
                st.slots[(st.rsp, 8)] = v
            return
        if mn.startswith("pop"):
            size = 8
            v = st.slots.get((st.rsp, 8), S) if st.rsp is not None else S
            if st.rsp is not None:
                st.rsp += 8
            if ops:
                write(st, ops[0], v)
            return
        if mn.startswith("leave"):
            st.regs["rsp"] = st.get("rbp")
            st.rsp = None
            st.slots = {}
            st.regs["rbp"] = S
            return
        dst = ops[-1] if ops else None
        srcs = ops[:-1]
        # the stack pointer moved by a constant (frame set-up), or in a way not followed
        if dst is not None and dst.gpr() == "rsp":
            if mn.startswith(("sub", "add")) and srcs and srcs[0].kind == "imm" and st.rsp is not None:
                imm = imm_value(srcs[0].text)
                st.rsp += -imm if mn.startswith("sub") else imm
            elif mn.startswith("mov") and srcs and srcs[0].gpr() == "rbp":
                st.rsp, st.slots = None, {}
            else:  # and $-64, %rsp (alignment): the frame is a fresh one from here
                st.rsp, st.slots = 0 if mn.startswith("and") else None, {}
            st.regs["rsp"] = ("A", "rsp") if mn.startswith(("sub", "add", "and")) else st.get("rsp")
            if not mn.startswith("mov"):
                st.flags = S
            return
        vec = any(o.kind == "reg" and o.reg is None for o in ops) or mn.startswith(("v", "k")) and \
            not mn.startswith("vzero")
        if vec:
            # gcc parks general registers in xmm registers (vmovq %rax,%xmm1 ... vmovq %xmm1,%rbx): followed for
            # moves of a whole register between the two kinds and between vector registers; any other write makes
            # a vector register SECRET
            vsrc = vreg(ops[0]) if len(ops) == 2 else None
            vdst = vreg(dst) if dst is not None else None
            if mn in ("vmovq", "movq") and len(ops) == 2 and ops[0].gpr() and vdst is not None and \
                    REG_SIZE.get(ops[0].raw) == 8:
                st.regs[vdst] = st.get(ops[0].gpr())
                return
            if mn in ("vmovq", "movq") and len(ops) == 2 and vsrc is not None and dst.gpr() and \
                    REG_SIZE.get(dst.raw) == 8:
                write(st, dst, st.get(vsrc))
                return
            if re.match(r"^v?mov(dq[au](64|32)?|ap[sd]|up[sd])$", mn) and vsrc is not None and vdst is not None:
                st.regs[vdst] = st.get(vsrc)
                return
            if vdst is not None:
                st.regs[vdst] = S
            if dst is not None and dst.gpr():
                write(st, dst, S)
            elif dst is not None and dst.kind == "mem":
                vs = [o.raw[0] for o in ops[:-1] if o.kind == "reg" and o.reg is None and re.fullmatch(r"[xyz]mm\d+", o.raw)]
                n = {"x": 16, "y": 32, "z": 64}.get(vs[0], 0) if vs else 0
                if re.match(r"^v?(pextrq|movq|movsd|movlp[sd]|movhp[sd])$", mn):
                    n = 8  # one quadword of the register
                elif re.match(r"^v?(pextrd|movd|movss|extractps)$", mn):
                    n = 4
                elif re.match(r"^v?pextr[bw]$", mn):
                    n = 2
                store(st, dst, S, n)
            if VEC_FLAGS.match(mn):
                st.flags = S
            return
        base = mn if mn in ALU or mn[:-1] not in ALU else mn[:-1]  # addq -> add
        # known families
        if mn.startswith("lea"):
            a = ops[0]
            if a.kind == "mem":
                b = P if a.base in (None, "rip") else (st.get(ALIAS[a.base]) if a.base in ALIAS else S)
                x = st.get(ALIAS[a.index]) if a.index in ALIAS else (P if a.index is None else S)
                scale = int(re.search(r",(\d)\)", a.text).group(1)) if a.index and re.search(r",(\d)\)", a.text) \
                    else 1
                xv = x if scale == 1 else (P if x == P else S)
                v = add_state(b, xv)
            else:
                v = S
            write(st, dst, v)
            return
        if mn.startswith(("mov", "movz", "movs", "movabs")) and len(ops) == 2:
            v = load(st, ops[0])
            if mn.startswith(("movs", "movz")) and not mn.startswith(("movsq", "movsl", "movsb", "movsw")):
                v = P if v == P else S if not is_ptr(v) else S
            write(st, dst, v)
            return
        if mn.startswith("cmov") and len(ops) == 2:
            a, b = load(st, ops[0]), st.get(dst.gpr()) if dst.gpr() else S
            v = join(a, b) if st.flags == P else S
            write(st, dst, v)
            return
        if mn.startswith("set"):
            write(st, dst, st.flags)
            return
        if base in ("xor", "sub", "sbb") and len(ops) == 2 and ops[0].kind == "reg" and ops[0].text == ops[1].text:
            v = P if base != "sbb" else st.flags
            write(st, dst, v)
            st.flags = v if base != "sbb" else st.flags
            return
        if base in ("cmp",) and len(ops) == 2:
            st.flags = sub_state(load(st, ops[1]), load(st, ops[0]))
            return
        if base in ("test", "bt") and len(ops) == 2:
            st.flags = pub_only(load(st, ops[0]), load(st, ops[1]))
            return
        if mn in ("cqto", "cltd", "cwtd"):
            st.regs["rdx"] = pub_only(st.get("rax"))
            return
        if mn in ("cltq", "cwtl", "cbtw"):
            st.regs["rax"] = pub_only(st.get("rax"))
            return
        if mn.startswith("xchg") and len(ops) == 2:
            a, b = load(st, ops[0]), load(st, ops[1])
            write(st, ops[0], b)
            write(st, ops[1], a)
            return
        if mn.startswith(("mul", "imul")) and len(ops) == 1:
            v = pub_only(st.get("rax"), load(st, ops[0]))
            st.regs["rax"] = st.regs["rdx"] = v
            st.flags = v
            return
        if mn.startswith("mulx") and len(ops) == 3:
            v = pub_only(st.get("rdx"), load(st, ops[0]))
            write(st, ops[1], v)
            write(st, ops[2], v)
            return
        if dst is None:
            st.flags = S
            return
        old = load(st, dst)
        src_vals = [load(st, o) for o in srcs]
        reads_flags = FLAG_READERS.match(mn) is not None
        if base in ("add", "sub") and len(ops) == 2:
            v = add_state(old, src_vals[0]) if base == "add" else sub_state(old, src_vals[0])
        elif base in ("inc", "dec", "neg") and len(ops) == 1:
            v = old if (base != "neg" and (old == P or is_ptr(old))) else pub_only(old)
        elif mn.startswith("imul") and len(ops) == 3:
            v = pub_only(*src_vals)
        elif re.match(r"^(mov|shlx|shrx|sarx|rorx|andn|bzhi|pdep|pext|popcnt|lzcnt|tzcnt|bsf|bsr|blsi|blsr|blsmsk)",
                      mn):
            v = pub_only(*src_vals)  # dest not read
        else:
            v = pub_only(old, *src_vals)
        if reads_flags:
            v = pub_only(v, st.flags) if v == P else S
        write(st, dst, v)
        if not NO_FLAGS.match(mn):
            st.flags = v if not is_ptr(v) else S

    seen = 0
    t = os.environ.get("CHECK_CT_TRACE", "")  # FUNCTION+0xOFFSET: print the states reaching that instruction
    trace = (t.split("+")[0], int(t.split("+")[1], 16)) if "+" in t else None
    while work:
        i = work.pop()
        seen += 1
        if seen > 200000:
            violations[(0, "fixpoint")] = (0, "", "the analysis did not converge")
            break
        st = states[i].copy()
        if trace and trace == (name, insns[i].addr - insns[0].addr):
            print("trace %s+0x%x: %s; flags %s; rsp %s; slots %s" % (name, trace[1], sorted(st.regs.items()), st.flags,
                                                                  st.rsp, sorted(st.slots.items())))
        step(i, st)
        for j in succ(i):
            if states[j] is None:
                states[j] = st.copy()
                work.append(j)
            elif states[j].merge(st):
                work.append(j)
    return sorted(violations.values()), calls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], add_help=True)
    ap.add_argument("--objdump", default="objdump")
    ap.add_argument("--skip", action="append", default=[], metavar="REGEX:REASON")
    ap.add_argument("--public", action="append", default=[], metavar="FUNC_REGEX:REG:REASON")
    ap.add_argument("--declassify", action="append", default=[], metavar="CALLEE:REASON")
    ap.add_argument("--expect-functions", action="append", default=[], metavar="REGEX")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("objects", nargs="+")
    a = ap.parse_args()
    skips, publics = [], []
    for s in a.skip:
        if ":" not in s:
            print("check-ct-objdump: --skip %s: give REGEX:REASON" % s, file=sys.stderr)
            return 2
        rx, why = s.split(":", 1)
        skips.append((re.compile(rx), why))
    for s in a.public:
        parts = s.split(":", 2)
        if len(parts) != 3 or parts[1] not in ARGS:
            print("check-ct-objdump: --public %s: give FUNC_REGEX:REG:REASON, REG an argument register" % s,
                  file=sys.stderr)
            return 2
        publics.append((re.compile(parts[0]), parts[1], parts[2]))
    declassified = {}
    for s_ in a.declassify:
        if ":" not in s_:
            print("check-ct-objdump: --declassify %s: give CALLEE:REASON" % s_, file=sys.stderr)
            return 2
        callee, why = s_.split(":", 1)
        declassified[callee] = why
        print("note: the result of %s taken as public: %s" % (callee, why))
    objects = []
    for o in a.objects:  # @FILE: one object a line (ctest passes a target's objects so)
        if o.startswith("@"):
            try:
                with open(o[1:]) as f:
                    objects += [line.strip() for line in f if line.strip()]
            except OSError as e:
                print("check-ct-objdump: %s: %s" % (o[1:], e.strerror), file=sys.stderr)
                return 2
        else:
            objects.append(o)
    total, bad, checked, external = 0, 0, [], set()
    for path in objects:
        funcs = parse_objdump(a.objdump, path)
        clobbers = written_regs(funcs)
        for name, insns in funcs.items():
            if not insns:
                continue
            sk = [why for rx, why in skips if rx.search(name)]
            if sk:
                if a.verbose:
                    print("skip %s: %s" % (name, sk[0]))
                continue
            pubs = [(r, why) for rx, r, why in publics if rx.search(name)]
            for r, why in pubs:
                print("note: %s: %%%s taken as public: %s" % (name, r, why))
            v, calls = check_function(name, insns, [r for r, _ in pubs], clobbers, declassified)
            checked.append(name)
            external |= calls
            total += len(insns)
            for addr, text, why in v:
                print("%s: %s+0x%x: %s: %s" % (path.split("/")[-1], name, addr - insns[0].addr, text, why))
                bad += 1
            if a.verbose:
                print("checked %s: %d instructions, %d violation(s)" % (name, len(insns), len(v)))
    own = set(checked)
    ext = sorted(c for c in external if c not in own)
    for rx in a.expect_functions:
        if not any(re.search(rx, n) for n in checked):
            print("check-ct-objdump: no checked function matches %s (checked: %s)" % (rx, ", ".join(checked) or
                                                                                     "none"))
            bad += 1
    print("check-ct-objdump: %d function(s), %d instructions, %d violation(s)%s" %
          (len(checked), total, bad, ("; calls outside them, not checked here: " + ", ".join(ext)) if ext else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
