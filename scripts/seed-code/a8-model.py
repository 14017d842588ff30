#!/usr/bin/env python3
"""slicewise's Cortex-A8 cycle model: an ESTIMATE for a straight-line ARM-mode instruction stream
(objdump syntax, NEON included), repeated to steady state as llvm-mca repeats its input (issue 34).
It is OUR model, not llvm-mca: LLVM 19 describes the Cortex-A8 only with itineraries, which
llvm-mca does not read, so scripts/seed-code/mca-arm.sh fills its cortex-a8 column with this.

    scripts/seed-code/a8-model.py [--iterations N] [--stats] FILE    (one instruction a line)
    -> "cycles/iteration: C"  (--stats adds per-iteration counts of the NEON pipes' busy cycles)

Source of the figures: the Cortex-A8 Technical Reference Manual (ARM DDI 0344, chapter 16
"Instruction Cycle Timing"): 16.1-16.3 (integer pipeline stages E1-E5, when an instruction reads
its operands and produces its result, the dual-issue restrictions), 16.5-16.6 (the NEON pipeline:
stages N1-N6, the instruction queue, one data-processing plus one load/store/permute instruction
a cycle, dual issue only on the first and last cycle of a multi-cycle instruction, per-instruction
cycles with the source and result stage of each register). The NEON per-class figures below are
the TRM's as transcribed into GCC's gcc/config/arm/cortex-a8-neon.md (generated from the TRM
tables by CodeSourcery's neon-schedgen; its comments give "reads operands at Nx, result at Ny
on cycle k" for each class, and its cortex_a8_neon_type attribute which instructions are in
which class) -- the TRM's own table numbers were not re-checked here. VLD1/VST1 of 1-2 D
registers take 2 cycles, of 3-4 take 3 (GCC's figures, whatever the alignment; the Grøstl NEON
paper's lower bounds count 1 cycle for a 64-bit-aligned one, [V] §5.1: with that, the model
gives 1-2 c/B less for the seeds, further from the measurements). VLDM/VSTM/VPUSH/VPOP: two D
registers a cycle (not in GCC's table; none is in a Grøstl inner loop).

The model, cycle by cycle (all loads hit L1; branches predicted, taken ones free, as llvm-mca):
  * ARM issue: in order, at most 2 instructions a cycle (NEON ones included: every instruction
    passes the integer pipeline). A pair is refused when: both are loads/stores (one LS pipe;
    NEON loads/stores and NEON->ARM moves count), both multiplies, the second reads an integer
    register (or the flags, branches excepted) the first writes, or either is multi-cycle
    (LDM/STM/PUSH/POP of more than 2 registers: ceil(n/2) cycles; MUL-class: 2).
  * Integer operand timing (TRM 16.2): a register is read at E2 (ALU operands), at E1 (an
    operand that is shifted, a shift amount, an address, a multiply operand) or E3 (store data);
    results appear at E2 (ALU, base write-back), E3 (loads) or E5 (multiplies); an instruction
    reading at stage S a value produced at stage P by one issued at t may issue at t + P - S + 1.
  * NEON: each NEON instruction enters a 16-entry queue when the ARM side issues it (the ARM side
    stalls while the queue is full) and is issued from it in order, no earlier than the cycle
    after; a cycle issues at most one data-processing (ALU, shift, multiply) instruction and one
    load/store/permute instruction (VLD/VST, VEXT, VTBL, VTRN/VZIP/VUZP/VSWP/VREV, VDUP, VMOV
    between the register files). Integer ALU and immediate-shift instructions take 1 cycle on
    Q registers as on D; VBSL/VBIT/VBIF/VCNT, VSHL by register, VEXT/VTRN/VSWP and multiplies
    take 2 on Q, one per D half (the low half's operands read and result written a cycle before
    the high half's); VTBL 2 (1-2 table registers) or 3; an instruction of 3 or more cycles
    blocks both pipes on its middle cycles. Operand stages as for the integer side (Nx), per D
    register.
  * Calibration (docs/benchmarks-arm.md): on SUPERCOP's neon-table, neon-bitslice and neon-vperm
    the model gives 0.94-0.98x the Cortex-A8 cycles/byte measured in the Grøstl NEON paper
    ([V] Table 1), 0.91-0.93x on arm32 and 0.67x on arm11; nothing was fitted to them.
  * NEON -> ARM transfers (VMOV r, d): the integer register is ready 20 cycles after the NEON
    side issues the move (TRM 16.6: the NEON unit lags the integer pipeline).
Left out: cache misses and the L2, the load data queue's size, branch mispredictions and the
fetch of taken branches, the forwarding special cases that let some dependent ARM pairs
dual-issue, write-after-write hazards, and VFP (none of the analysed kernels uses it).

Cycles per iteration: the stream is run N times back to back (state carried over); the figure is
the growth of the last issue cycle over the second half of the iterations (the steady state).
"""
import re
import sys

QUEUE = 16          # NEON instruction queue entries
NEON_TO_ARM = 20    # NEON -> ARM register transfer penalty

COND = r"(?:eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)"
ARM_REG = {f"r{i}": i for i in range(13)}
ARM_REG.update({"sb": 9, "sl": 10, "fp": 11, "ip": 12, "sp": 13, "lr": 14, "pc": 15})
CPSR = 16


def neon_regs(tok):
    """D-register numbers named by one operand token (dN, qN, sN ignored, dN[x], {lists})."""
    out = []
    tok = tok.strip("{} ")
    for part in re.split(r"\s*,\s*", tok):
        m = re.fullmatch(r"([dq])(\d+)(?:\[\d*\])?\s*-\s*([dq])(\d+)", part)
        if m:
            a, b = int(m.group(2)), int(m.group(4))
            if m.group(1) == "q":
                a, b = 2 * a, 2 * b + 1
            out += list(range(a, b + 1))
            continue
        m = re.fullmatch(r"([dq])(\d+)(\[\d*\])?", part)
        if m:
            n = int(m.group(2))
            out += [2 * n, 2 * n + 1] if m.group(1) == "q" else [n]
    return out


def split_ops(s):
    """Top-level comma split (braces and brackets kept whole)."""
    ops, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def arm_regs_in(s):
    return [ARM_REG[r] for r in re.findall(r"\b(r1[0-2]|r[0-9]|sb|sl|fp|ip|sp|lr|pc)\b", s)]


class Insn:
    """One decoded instruction: for the ARM side `asrc` [(reg, stage)], `adst` [(reg, stage)],
    `acyc` issue cycles, `ls`, `mul`, `branch`; for NEON `neon` (pipe 'dp' or 'ls'), `ncyc`,
    `nsrc` [(d, stage, half)], `ndst` [(d, stage, half)], `to_arm` (integer regs it writes)."""
    __slots__ = ("text", "asrc", "adst", "acyc", "ls", "mul", "branch", "neon", "ncyc", "nsrc", "ndst", "to_arm")

    def __init__(self, text):
        self.text = text
        self.asrc, self.adst, self.acyc = [], [], 1
        self.ls = self.mul = self.branch = False
        self.neon, self.ncyc, self.nsrc, self.ndst, self.to_arm = None, 0, [], [], []


def address(ins, op, rest):
    """Address operand `[rn, ...]` (plus a post-index `rest`): registers read at E1; write-back."""
    for r in arm_regs_in(op + " " + " ".join(rest)):
        ins.asrc.append((r, 1))
    if op.endswith("!") or rest:
        base = arm_regs_in(op)[:1]
        ins.adst += [(b, 2) for b in base]


def decode_arm(ins, mn, ops):
    m = re.fullmatch(r"(ldrex|strex|ldrsb|ldrsh|ldrb|ldrh|ldrd|ldr|strb|strh|strd|str|"
                     r"ldm(?:ia|ib|da|db|fd|fa|ed|ea)?|stm(?:ia|ib|da|db|fd|fa|ed|ea)?|push|pop|"
                     r"blx|bl|bx|b|"
                     r"umull|smull|umlal|smlal|mul|mla|mls|"
                     r"and|eor|sub|rsb|add|adc|sbc|rsc|orr|orn|bic|mov|mvn|movw|movt|cmp|cmn|tst|teq|"
                     r"lsl|lsr|asr|ror|rrx|uxtb|uxth|sxtb|sxth|uxtab|uxtah|sxtab|sxtah|ubfx|sbfx|bfi|bfc|"
                     r"rev|rev16|revsh|clz|nop|pld|pkhbt|pkhtb|uxtb16|sxtb16|uxtab16|sel|usat|ssat|"
                     r"[us]q?h?(?:add|sub)(?:8|16)|[us]q?h?(?:asx|sax))(s?)(" + COND + r")?(?:\.[nw])?", mn)
    if not m:
        raise ValueError(f"a8-model: unknown instruction `{ins.text}`")
    base, setflags, cond = m.group(1), m.group(2), m.group(3)
    if cond and cond != "al":
        ins.asrc.append((CPSR, 2))
    if setflags:
        ins.adst.append((CPSR, 2))
    if base in ("nop", "pld"):
        if base == "pld":
            ins.ls = True
        return
    if base in ("b", "bl", "bx", "blx"):
        ins.branch = True
        ins.asrc = [(r, s) for r, s in ins.asrc if r != CPSR]  # predicted: no wait for the flags
        ins.asrc += [(r, 1) for r in arm_regs_in(" ".join(ops))]
        if base in ("bl", "blx"):
            ins.adst.append((14, 2))
        return
    if base in ("ldm", "stm", "push", "pop") or base.startswith(("ldm", "stm")):
        ins.ls = True
        lst = next(o for o in ops if o.startswith("{"))
        regs = []
        for a, b in re.findall(r"(\w+)(?:\s*-\s*(\w+))?", lst.strip("{}")):
            if b:
                regs += list(range(ARM_REG[a], ARM_REG[b] + 1))
            else:
                regs.append(ARM_REG[a])
        ins.acyc = max(1, (len(regs) + 1) // 2)
        if base in ("push", "pop"):
            basereg, wb = 13, True
        else:
            basereg, wb = ARM_REG[ops[0].rstrip("!")], ops[0].endswith("!")
        ins.asrc.append((basereg, 1))
        if wb:
            ins.adst.append((basereg, 2))
        if base == "pop" or base.startswith("ldm"):
            ins.adst += [(r, 3 + i // 2) for i, r in enumerate(regs)]
            ins.branch = 15 in regs
        else:
            ins.asrc += [(r, 3) for r in regs]
        return
    if base.startswith(("ldr", "str")):
        ins.ls = True
        k = next(i for i, o in enumerate(ops) if o.startswith("["))
        regs = [ARM_REG[o] for o in ops[:k]]
        address(ins, ops[k], ops[k + 1:])
        if base.startswith("ldr"):
            ins.adst += [(r, 3) for r in regs]
            if base == "strex":
                pass
        else:
            if base == "strex":
                ins.adst.append((regs[0], 3))
                regs = regs[1:]
            ins.asrc += [(r, 3) for r in regs]
        if base in ("ldrd", "strd"):
            ins.acyc = 1
        return
    if base in ("mul", "mla", "mls", "umull", "smull", "umlal", "smlal"):
        ins.mul = True
        ins.acyc = 2 if base in ("mul", "mla", "mls") else 3
        regs = [ARM_REG[o] for o in ops]
        nd = 2 if base in ("umull", "smull", "umlal", "smlal") else 1
        ins.adst += [(r, 5) for r in regs[:nd]]
        ins.asrc += [(r, 1) for r in regs[nd:]]
        if base in ("umlal", "smlal"):
            ins.asrc += [(r, 3) for r in regs[:nd]]
        return
    # data processing: dest (not for compares), first operand at E2, a shifted/second part at E1
    if base in ("cmp", "cmn", "tst", "teq"):
        ins.adst.append((CPSR, 2))
        dst, srcs = None, ops
    else:
        dst, srcs = ops[0], ops[1:]
        if base in ("movt", "bfi", "bfc"):
            ins.asrc.append((ARM_REG[dst], 2))
    for i, o in enumerate(srcs):
        regs = arm_regs_in(o)
        if not regs:
            continue
        shifted = any(re.match(r"(lsl|lsr|asr|ror|rrx)\b", x) for x in srcs[i + 1:]) or \
            base in ("lsl", "lsr", "asr", "ror", "rrx") or re.match(r"(lsl|lsr|asr|ror)\b", o)
        ins.asrc += [(r, 1 if shifted else 2) for r in regs]
    if dst is not None:
        ins.adst += [(r, 2) for r in arm_regs_in(dst)]


# Data-processing classes: mnemonic -> (stage Dn/Qn is read, stage Dm/Qm is read, result stage,
# cycles of the Q form; the D form takes 1). From the TRM's tables as GCC classifies them:
# logic/add/move 1 cycle even on Q registers (neon_int_1, neon_vmov), VBSL/VBIT/VBIF/VCNT on Q
# 2 cycles (neon_bit_ops_q), shifts by immediate N1 -> N3 (neon_shift_1), VSHL by register on Q
# 2 cycles (neon_shift_3), compares/abs N2 -> N4 (neon_int_4/5), multiplies N2 -> N6 (2 cycles on Q).
DP = {}
for _m in ("veor", "vand", "vorr", "vorn", "vbic", "vmvn", "vmov", "vadd", "vbsl", "vbit", "vbif"):
    DP[_m] = (2, 2, 3, 2 if _m in ("vbsl", "vbit", "vbif") else 1)
for _m in ("vsub", "vaddw", "vsubw"):
    DP[_m] = (2, 1, 3, 1)
for _m in ("vaddl", "vsubl", "vneg", "vpadd", "vmovl"):
    DP[_m] = (1, 1, 3, 1)
for _m in ("vabs", "vceq", "vcge", "vcgt", "vcle", "vclt", "vtst", "vqadd", "vqsub", "vhadd", "vrhadd", "vhsub"):
    DP[_m] = (2, 2, 4, 1)
for _m in ("vmax", "vmin", "vabd"):
    DP[_m] = (2, 1, 4, 1)
for _m in ("vcnt", "vcls", "vclz"):
    DP[_m] = (2, 2, 3, 2)
for _m in ("vshr", "vsli", "vsri", "vshll", "vshrn", "vmovn"):
    DP[_m] = (1, 1, 3, 1)
DP["vshl"] = (1, 1, 3, 2)  # by immediate 1 cycle on Q: see decode_neon
for _m in ("vqshl", "vrshl", "vqrshl", "vrshr", "vqshrn", "vrshrn"):
    DP[_m] = (1, 1, 4, 2)
for _m in ("vsra", "vrsra"):
    DP[_m] = (1, 1, 6, 1)
for _m in ("vmul", "vmla", "vmls", "vmull", "vmlal", "vqdmulh"):
    DP[_m] = (2, 2, 6, 2)
ACCUM = ("vbsl", "vbit", "vbif", "vsli", "vsri", "vsra", "vrsra", "vmla", "vmls", "vmlal")


def decode_neon(ins, mn, ops):
    base = mn.split(".")[0]
    m = re.fullmatch(r"(vldm(?:ia|db)?|vstm(?:ia|db)?|vldr|vstr|vmov|vmrs|vmsr|vpush|vpop)(" + COND + r")", base)
    if m:  # VFP-encoded instructions may be conditional in ARM mode
        base = m.group(1)
        if m.group(2) != "al":
            ins.asrc.append((CPSR, 2))
    is_q = any(re.fullmatch(r"q\d+", o) for o in ops)
    # loads and stores
    if base in ("vld1", "vld2", "vld3", "vld4", "vst1", "vst2", "vst3", "vst4", "vldr", "vstr",
                "vldmia", "vldmdb", "vstmia", "vstmdb", "vldm", "vstm", "vpush", "vpop"):
        ins.ls = True
        ins.neon = "ls"
        lst = next(o for o in ops if o.startswith("{") or re.fullmatch(r"[dq]\d+", o))
        regs = neon_regs(lst)
        n = len(regs)
        if base in ("vpush", "vpop"):
            ins.asrc.append((13, 1))
            ins.adst.append((13, 2))
        elif base.startswith(("vldm", "vstm")):
            b = ops[0].rstrip("!")
            ins.asrc.append((ARM_REG[b], 1))
            if ops[0].endswith("!"):
                ins.adst.append((ARM_REG[b], 2))
        else:
            k = next(i for i, o in enumerate(ops) if o.startswith("["))
            address(ins, ops[k], ops[k + 1:])
        if base in ("vldr", "vstr"):
            ins.ncyc = 1                      # neon_ldr / neon_str
        elif base in ("vld1", "vst1"):
            ins.ncyc = 2 if n <= 2 else 3     # neon_vld1_1_2_regs / _3_4_regs (and the VST1 ones)
        elif base in ("vld2", "vld3", "vld4", "vst2", "vst3", "vst4"):
            ins.ncyc = max(2, (n + 1) // 2 + 1)
        else:
            ins.ncyc = max(1, (n + 1) // 2)
        lane = "[" in lst
        if base.startswith(("vld", "vpop")):
            # results at N1 (N2 for VLD2-4), two D registers a cycle
            p = 1 if base in ("vld1", "vldr") or base.startswith("vldm") or base == "vpop" else 2
            if base.startswith(("vldm", "vpop")):
                ins.ndst = [(d, p, min(i // 2, ins.ncyc - 1)) for i, d in enumerate(regs)]
            else:  # "result at N1 (N2) on cycle <last>"
                ins.ndst = [(d, p, ins.ncyc - 1) for d in regs]
            if lane:
                ins.nsrc = [(d, 1, 0) for d in regs]
        else:
            ins.nsrc = [(d, 1, min(i // 2, ins.ncyc - 1)) for i, d in enumerate(regs)]
        return
    armops = [o for o in ops if re.fullmatch(r"(r1[0-2]|r[0-9]|sb|sl|fp|ip|sp|lr)", o)]
    # moves between the register files
    if base in ("vmov", "vdup") and armops:
        if ops[0] in armops:  # NEON -> ARM
            ins.ls = True
            ins.neon = "ls"
            ins.ncyc = 1
            ins.nsrc = [(d, 1, 0) for o in ops if o not in armops for d in neon_regs(o)]
            ins.to_arm = [ARM_REG[o] for o in armops]
        else:  # ARM -> NEON, a permute-pipe instruction, result at N2
            ins.neon = "ls"
            ins.asrc += [(ARM_REG[o], 2) for o in armops]
            dst = neon_regs(ops[0])
            ins.ncyc = 2 if (len(armops) == 2 or len(dst) == 2) else 1
            ins.ndst = [(d, 2, ins.ncyc - 1) for d in dst]
            if "[" in ops[0]:
                ins.nsrc = [(d, 1, 0) for d in dst]
        return
    if base in ("vmrs", "vmsr"):
        ins.neon, ins.ncyc, ins.ls = "ls", 1, True
        if base == "vmrs":
            ins.to_arm = arm_regs_in(ops[0])
        return
    # permutes: the load/store/permute pipe, sources at N1, results at N2 on the last cycle
    if base in ("vext", "vtbl", "vtbx", "vrev16", "vrev32", "vrev64", "vswp", "vtrn", "vzip", "vuzp", "vdup"):
        ins.neon = "ls"
        if base in ("vtbl", "vtbx"):
            tbl = neon_regs(ops[1])
            ins.ncyc = 2 if len(tbl) <= 2 else 3
            ins.nsrc = [(d, 1, 0) for o in ops[1:] for d in neon_regs(o)]
            if base == "vtbx":
                ins.nsrc += [(d, 1, 0) for d in neon_regs(ops[0])]
            ins.ndst = [(d, 2, ins.ncyc - 1) for d in neon_regs(ops[0])]
            return
        # neon_bp_simple: D forms, VREV, VDUP (1 cycle); neon_bp_2cycle: VEXT/VTRN/VSWP on Q;
        # neon_bp_3cycle: VZIP/VUZP on Q
        if base in ("vzip", "vuzp"):
            ins.ncyc = 3 if is_q else 1
        elif base in ("vdup", "vrev16", "vrev32", "vrev64"):
            ins.ncyc = 1
        else:
            ins.ncyc = 2 if is_q else 1
        if base in ("vswp", "vtrn", "vzip", "vuzp"):
            regs = [d for o in ops for d in neon_regs(o)]
            ins.nsrc = [(d, 1, 0) for d in regs]
            ins.ndst = [(d, 2, ins.ncyc - 1) for d in regs]
        else:
            dst = neon_regs(ops[0])
            ins.nsrc = [(d, 1, 0) for o in ops[1:] for d in neon_regs(o)]
            ins.ndst = [(d, 2, min(h, ins.ncyc - 1)) for h, d in enumerate(dst)]
        return
    # data processing
    ins.neon = "dp"
    if base not in DP:
        raise ValueError(f"a8-model: unknown NEON instruction `{ins.text}`")
    sn, sm, p, qcyc = DP[base]
    dst = neon_regs(ops[0])
    srcs = [neon_regs(o) for o in ops[1:]]
    if base in ("vshl", "vqshl", "vrshl", "vqrshl") and ops[-1].startswith("#"):
        qcyc = 1  # shift by immediate: neon_shift_1
    stages = [sn] * (len(srcs) - 1) + [sm] if srcs else []
    if base in ACCUM:
        srcs.append(dst)
        stages.append(3 if base in ("vsra", "vrsra", "vmla", "vmls", "vmlal") else 2)
    is_q = len(dst) == 2 or any(len(x) == 2 for x in srcs)
    ins.ncyc = qcyc if is_q else 1
    for x, st in zip(srcs, stages):
        if len(x) == 2 and ins.ncyc == 2:
            ins.nsrc += [(x[0], st, 0), (x[1], st, 1)]
        else:
            ins.nsrc += [(d, st, 0) for d in x]
    if len(dst) == 2 and ins.ncyc == 2:
        ins.ndst = [(dst[0], p, 0), (dst[1], p, 1)]
    else:
        ins.ndst = [(d, p, ins.ncyc - 1) for d in dst]


def decode(line):
    text = re.split(r"\s[;@]", line)[0].strip()
    ins = Insn(text)
    parts = text.split(None, 1)
    mn = parts[0].lower()
    ops = split_ops(parts[1]) if len(parts) > 1 else []
    ops = [re.sub(r"\s+", " ", o) for o in ops]
    if mn.startswith("v"):
        decode_neon(ins, mn, ops)
    else:
        decode_arm(ins, mn, ops)
    return ins


def simulate(lines, iterations=None, stats=False):
    prog = [decode(l) for l in lines if l.strip()]
    if not prog:
        return 0.0, {}
    if iterations is None:
        iterations = max(4, min(100, 400000 // len(prog)))
    aready = [0] * 17               # cycle + stage at which an integer register's value exists
    nready = [0] * 32               # the same for the NEON D registers
    dp_busy, ls_busy = set(), set()  # NEON pipe reservations (cycles)
    t_arm = 0                        # ARM issue: current cycle, and what is in it
    in_cycle = []                    # instructions issued in cycle t_arm
    arm_free = 0                     # first cycle after a multi-cycle ARM instruction
    t_neon = 0                       # last NEON issue cycle (in order)
    neon_times = []                  # NEON issue cycle of every NEON instruction so far
    ends = []
    busy_dp = busy_ls = 0
    for it in range(iterations):
        last = 0
        for ins in prog:
            # --- ARM side ---
            t = max(t_arm, arm_free)
            for r, s in ins.asrc:
                t = max(t, aready[r] - s + 1)
            if ins.neon is not None and len(neon_times) >= QUEUE:
                t = max(t, neon_times[-QUEUE])
            if t == t_arm and in_cycle:
                ok = len(in_cycle) < 2 and ins.acyc == 1
                for o in in_cycle:
                    if not ok:
                        break
                    if o.acyc > 1 or (o.ls and ins.ls) or (o.mul and ins.mul) or (o.branch and ins.branch):
                        ok = False
                    written = {r for r, _ in o.adst}
                    if any(r in written and not (r == CPSR and ins.branch) for r, _ in ins.asrc):
                        ok = False
                if not ok:
                    t += 1
            if t != t_arm:
                in_cycle = []
                t_arm = t
            in_cycle.append(ins)
            if ins.acyc > 1:
                arm_free = t + ins.acyc
            for r, p in ins.adst:
                aready[r] = t + p
            last = max(last, t + ins.acyc - 1)
            # --- NEON side ---
            if ins.neon is not None:
                n = max(t_neon, t + 1)
                for d, s, h in ins.nsrc:
                    n = max(n, nready[d] - s - h + 1)
                mine, other = (dp_busy, ls_busy) if ins.neon == "dp" else (ls_busy, dp_busy)
                c = ins.ncyc
                while True:
                    if all(n + k not in mine for k in range(c)) and all(n + k not in other for k in range(1, c - 1)):
                        break
                    n += 1
                for k in range(c):
                    mine.add(n + k)
                for k in range(1, c - 1):
                    other.add(n + k)
                if it == iterations - 1:
                    if ins.neon == "dp":
                        busy_dp += c
                    else:
                        busy_ls += c
                t_neon = n
                neon_times.append(n)
                for d, p, h in ins.ndst:
                    nready[d] = n + h + p
                for r in ins.to_arm:
                    aready[r] = n + NEON_TO_ARM + 2
                last = max(last, n + c - 1)
        ends.append(last)
        if len(dp_busy) > 4096:  # forget reservations far in the past
            lo = min(t_neon, t_arm) - 64
            dp_busy = {x for x in dp_busy if x >= lo}
            ls_busy = {x for x in ls_busy if x >= lo}
    h = iterations // 2
    cyc = (ends[-1] - ends[h - 1]) / (iterations - h)
    info = {"instructions": len(prog), "neon_dp_cycles": busy_dp, "neon_ls_perm_cycles": busy_ls,
            "arm_instructions": sum(1 for i in prog if i.neon is None), "iterations": iterations}
    return cyc, info


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--stats", action="store_true")
    a = ap.parse_args(argv)
    lines = [l for l in open(a.file) if l.strip() and not l.lstrip().startswith(".")]
    cyc, info = simulate(lines, a.iterations)
    print(f"cycles/iteration: {cyc:.1f}")
    if a.stats:
        for k, v in info.items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    main(sys.argv[1:])
