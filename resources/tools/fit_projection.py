#!/usr/bin/env python3
"""Projection model v2 prototype: fit, leave-one-GPU-out validation, anchors and uncertainty.

Reads resources/benchmarks/training_throughput.csv (built by build_benchmarks.py), gpu_arch.csv,
resources/gpu_specs.csv and resources/workloads.json, and:

  1. fits the few constants of model v2 (the GPU-to-GPU ratio model, stage 1; the TF32/FP32
     efficiencies, stage 2; the absolute efficiency of the roofline tier, stage 3);
  2. validates it leave-one-GPU-out against the measured data, next to today's model
     (PROJECTION.md sections 2-3: max() roofline with the default efficiencies);
  3. derives the per-tier uncertainty ranges from the validation errors;
  4. writes, with --write, into resources/benchmarks/:
       model_v2.json    fitted constants, assumptions, per-tier uncertainty, and per held-out GPU
                        the constants fitted without it (validation_folds: gpufrontier-cli validate)
       anchors.csv      per preset x GPU: the measured samples/s the app uses (reference stack)
       anchor_candidates.csv  every measurement anchors.csv is chosen from and converted with
       projections_v2.csv     golden projections for the C++ tests
       validation.csv   every leave-one-out prediction (v2 and today's model)
       validation.md    the before/after tables

Model v2 (details and the C++ recipe: /work/notes/model_v2.md):

    R_eff  = 1 / (1/R_p + 1/(eps * W * m_p))        power-limited tensor rate, TFLOP/s
    t_c    = F / (R_eff * 1e12 * rho_p)             compute time per sample (rho = 1 for fp16/bf16/fp8)
    t_m    = beta * B / (BW * 1e9)                  memory time per sample
    r_rel  = 1 / (t_c^p + t_m^p)^(1/p)              relative speed (p = 1: plain sum)
    roofline tier:     samples/s = phi * r_rel
    transferred tier:  samples/s = r_rel(target) * exp( sum_w w_r log(a_r / r_rel(r)) / sum_w w_r )
    measured tier:     samples/s = anchor (scaled to the user's batch/precision with r_rel)

Standard library only. Usage (from the repository root):
    python3 resources/tools/fit_projection.py            # fit + print the tables
    python3 resources/tools/fit_projection.py --write    # also write the files above
"""

import argparse
import collections
import csv
import functools
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(REPO, "resources", "benchmarks")

# ---------------------------------------------------------------------------------------------
# Fixed (not fitted) choices, each justified in model_v2.md
# ---------------------------------------------------------------------------------------------
# The per-step traffic per parameter (weights read in forward and backward, gradients, optimizer
# state) that the workload definitions (workloads.json bytes_per_sample, flops_bytes below) include:
# B = activation traffic + 40 B/param / batch. The model's own per-step term is kappa (fitted): the
# model sees B_model = activation traffic + kappa x params / batch.
WORKLOAD_BYTES_PER_PARAM = 40.0
# Energy per operation relative to fp16/bf16 tensor math, for the power limit: FP8 does twice the
# operations per joule, TF32 half. FP32 SIMT math is not power-limited in the model.
POWER_OPS_PER_FP16_OP = {"fp8": 2.0, "fp16": 1.0, "bf16": 1.0, "tf32": 0.5}
# Transfer weights: a reference GPU of the same architecture counts 3x (shares software maturity
# and efficiency quirks). Chosen among 5 weightings on the leave-one-out errors (see model_v2.md).
SAME_ARCH_WEIGHT = 3.0
# MLPerf BERT: NVIDIA's closed-division BERT code runs the encoder GEMMs in FP8 (Transformer Engine)
# on Hopper and Blackwell; rows there use the fp8 rate. Ada and Ampere rows use fp16.
MLPERF_BERT_FP8_ARCHS = ("hopper", "blackwell")
# Reference stack of each preset (the absolute level the app shows) = first entry of
# build_benchmarks.STACK_PREFERENCE.
REFERENCE_STACK = {
    "resnet50": "dle-pytorch-21.03",
    "bert-large-squad": "dle-pytorch-21.11",
    "vit-b16": "timm-pt1.12-nchw",
    "gpt2-124m": "llm.c",
    "llm7b-lora": None,
}
sys.path.insert(0, HERE)
from build_benchmarks import STACK_PREFERENCE  # noqa: E402

# Transformer shapes for the family rows (layers, width, vocabulary, parameters). GPT-2: Radford et
# al. 2019; MPT: mosaicml/llm-foundry yamls; Llama 3 8B: Meta model card (GQA, SwiGLU 14336).
SHAPES = {
    "gpt2-124m": (12, 768, 50257, 124.4e6), "gpt2-350m": (24, 1024, 50257, 355e6),
    "gpt2-774m": (36, 1280, 50257, 774e6), "gpt2-1558m": (48, 1600, 50257, 1558e6),
    "mpt-125m": (12, 768, 50368, 125e6), "mpt-350m": (24, 1024, 50368, 350e6),
    "mpt-760m": (24, 1536, 50368, 760e6), "mpt-1b": (24, 2048, 50368, 1.3e9),
    "mpt-3b": (32, 2560, 50368, 2.7e9), "mpt-7b": (32, 4096, 50368, 6.7e9),
    "mpt-13b": (40, 5120, 50368, 12.9e9), "mpt-30b": (48, 7168, 50368, 29.9e9),
    "llama3-8b": (32, 4096, 128256, 8.03e9),
}


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(row for row in f if not row.startswith("#")))


class Data:
    def __init__(self):
        self.rows = read_csv(os.path.join(BENCH, "training_throughput.csv"))
        self.specs = {r["id"]: r for r in read_csv(os.path.join(REPO, "resources", "gpu_specs.csv"))}
        self.arch = {r["id"]: r for r in read_csv(os.path.join(BENCH, "gpu_arch.csv"))}
        with open(os.path.join(REPO, "resources", "workloads.json"), encoding="utf-8") as f:
            self.presets = {w["id"]: w for w in json.load(f)["workloads"]}

    def spec(self, gpu, key):
        a = self.arch[gpu]
        v = a[key] if a["fit_only"] == "1" else self.specs[gpu][key]
        return float(v) if v else None

    def rate(self, gpu, prec):
        """Dense peak TFLOP/s for a precision, with the app's fallback rules (GPUS.md)."""
        s = lambda k: self.spec(gpu, k + "_tflops")
        chain = {"fp16": ("fp16", "bf16", "fp32"), "bf16": ("bf16", "fp16", "fp32"),
                 "fp8": ("fp8", "bf16", "fp16", "fp32"), "tf32": ("tf32", "fp32"),
                 "fp32": ("fp32",)}[prec]
        for p in chain:
            if s(p):
                return s(p), p
        return None, None


# ---------------------------------------------------------------------------------------------
# FLOPs and DRAM bytes per sample of every measured workload, by the method of workloads.json
# (the preset rows reproduce the preset figures exactly).
# ---------------------------------------------------------------------------------------------
def flops_bytes(data, workload, batch, seq, notes="", prec="fp16"):
    """F and B per sample. B = activation traffic + 40 B/param/step / batch; activations are
    stored in 16 bits in mixed precision and in 32 bits in TF32/FP32 training (x2)."""
    fb = _flops_bytes16(data, workload, batch, seq, notes)
    if fb is None or prec not in ("tf32", "fp32"):
        return fb
    f, b = fb
    params, batch = param_count(data, workload), float(batch)
    wt = 40.0 * params / batch
    return f, 2.0 * (b - wt) + wt


def param_count(data, workload):
    if workload == "resnet50-imagenet":
        return data.presets["resnet50"]["parameters"]
    if workload == "vit-b16-imagenet":
        return data.presets["vit-b16"]["parameters"]
    if workload.startswith("bert-large"):
        return 335141888
    key = workload.replace("-pretrain-seq2048", "").replace("-pretrain", "").replace("llama3.1", "llama3")
    return SHAPES[key][3]


def _flops_bytes16(data, workload, batch, seq, notes=""):
    b = float(batch)
    if workload == "resnet50-imagenet":
        w = data.presets["resnet50"]
    elif workload == "vit-b16-imagenet":
        w = data.presets["vit-b16"]
    else:
        w = None
    if w:
        act = w["bytes_per_sample"] - 40.0 * w["parameters"] / w["batch_per_gpu"]
        return float(w["flops_per_sample"]), act + 40.0 * w["parameters"] / b
    if workload.startswith("bert-large"):
        s, L, h, a, nmm, params = int(seq), 24, 1024, 16, 302e6, 335141888
        f = (2 * nmm + 4 * s * h * L) * 3 * s
        act = L * s * h * (34 + 5 * a * s / h)
        return f, 4 * act + 40.0 * params / b
    key = workload.replace("-pretrain-seq2048", "").replace("-pretrain", "").replace("llama3.1", "llama3")
    if key not in SHAPES:
        return None
    L, d, V, params = SHAPES[key]
    s = int(seq)
    nmm = params - V * d if key.startswith("llama") else 12 * L * d * d + V * d
    ckpt = 4.0 / 3.0 if "act ckpt True" in notes else 1.0   # full recomputation: one more forward
    f = (6 * nmm + 12 * L * d * s) * s * ckpt
    act = s * (L * 34 * d + 6 * V)
    return f, 4 * act + 40.0 * params / b


def precision_group(p):
    return {"fp16": "mixed", "bf16": "mixed", "fp8": "fp8", "tf32": "single", "fp32": "single"}[p]


def family_of(workload):
    if workload.startswith("resnet50"):
        return "resnet50"
    if workload.startswith("bert"):
        return "bert-large"
    if workload.startswith(("gpt2", "mpt", "llama")):
        return "gpt-decoder"
    return "vit"


# ---------------------------------------------------------------------------------------------
# Observations: one per (group, GPU); group = (workload, stack, precision group)
# ---------------------------------------------------------------------------------------------
def observations(data):
    grp = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in data.rows:
        if r["fit_use"] != "1" or not r["best_per_gpu_value"]:
            continue
        if flops_bytes(data, r["workload_src"], r["batch_per_gpu"], r["seq_len"]) is None:
            continue
        key = (r["workload_src"], r["stack"], precision_group(r["precision"]))
        grp[key][r["fit_gpu_id"]].append(r)
    obs = []
    for key, bygpu in grp.items():
        # 1-GPU rows when every GPU of the group has one; else the best per-GPU figure among
        # single-node runs of 1..8 GPUs (a multi-GPU per-GPU figure is a lower bound).
        all1 = all(any(r["gpu_count"] == "1" for r in lst) for lst in bygpu.values())
        for gpu, lst in bygpu.items():
            if all1:
                lst = [r for r in lst if r["gpu_count"] == "1"]
            one = [r for r in lst if r["nodes"] == "1" and int(r["gpu_count"]) <= 8] or lst
            r = max(one, key=lambda r: (float(r["best_per_gpu_value"]), -int(r["gpu_count"])))
            prec = r["precision"]
            arch = data.arch[gpu]["arch"]
            if r["workload_src"] == "bert-large-pretrain-mlperf" and arch in MLPERF_BERT_FP8_ARCHS:
                prec = "fp8"
            f, b = flops_bytes(data, r["workload_src"], r["batch_per_gpu"], r["seq_len"], r["notes"], prec)
            ppb = param_count(data, r["workload_src"]) / float(r["batch_per_gpu"])
            obs.append({
                "group": key, "gpu": gpu, "val": float(r["best_per_gpu_value"]), "F": f, "B": b,
                "act": b - WORKLOAD_BYTES_PER_PARAM * ppb, "ppb": ppb,
                "prec": prec, "batch": int(r["batch_per_gpu"]), "count": int(r["gpu_count"]),
                "arch": arch, "row": r["row_id"], "unit": r["per_gpu_unit"],
            })
    return obs


# ---------------------------------------------------------------------------------------------
# The models
# ---------------------------------------------------------------------------------------------
class ModelV2:
    """r_rel = 1 / (t_c^p + t_m^p)^(1/p), see the module doc string."""

    def __init__(self, data, beta=0.7, eps=3.0, p=1.0, rho_tf32=1.0, rho_fp32=1.0, phi=0.5, gamma=1.0,
                 arch_eta=None, l2_half_mb=None, kappa=WORKLOAD_BYTES_PER_PARAM):
        self.data = data
        self.beta, self.eps, self.p, self.gamma = beta, eps, p, gamma
        self.kappa = kappa                  # per-step traffic, B per parameter and step (fitted)
        self.arch_eta = arch_eta or {}      # variants only: per-architecture compute factor
        self.l2_half_mb = l2_half_mb        # variants only: DRAM traffic x 1/(1 + L2/l2_half_mb)
        self.rho_tf32, self.rho_fp32, self.phi = rho_tf32, rho_fp32, phi

    def constants(self):
        return {"beta": self.beta, "eps_tflops_per_w": self.eps, "p": self.p, "gamma_half_rate": self.gamma,
                "rho_tf32": self.rho_tf32, "rho_fp32": self.rho_fp32, "phi": self.phi, "kappa": self.kappa}

    def bytes_of(self, o):
        """The model's B of an observation: activation traffic + kappa x params / batch."""
        return o["act"] + self.kappa * o["ppb"]

    def times(self, gpu, prec, F, B):
        R, used = self.data.rate(gpu, prec)
        if R is None:
            return None
        if used in ("fp16", "bf16", "fp8") and self.data.arch[gpu]["half_rate_fp32_acc"] == "1":
            R *= self.gamma
        W = self.data.spec(gpu, "tdp_w")
        m = POWER_OPS_PER_FP16_OP.get(used)
        if m and W and self.eps > 0:
            R = 1.0 / (1.0 / R + 1.0 / (self.eps * W * m))
        rho = {"tf32": self.rho_tf32, "fp32": self.rho_fp32}.get(used, 1.0)
        rho *= self.arch_eta.get(self.data.arch[gpu]["arch"], 1.0)
        tc = F / (R * 1e12 * rho)
        tm = self.beta * B / (self.data.spec(gpu, "mem_bw_gbs") * 1e9)
        if self.l2_half_mb:
            tm /= 1.0 + float(self.data.arch[gpu]["l2_mb"] or 0) / self.l2_half_mb
        return tc, tm

    def rel(self, gpu, prec, F, B):
        t = self.times(gpu, prec, F, B)
        if t is None:
            return None
        tc, tm = t
        if self.p >= 50:
            return 1.0 / max(tc, tm)
        mx = max(tc, tm)
        return 1.0 / (mx * ((tc / mx) ** self.p + (tm / mx) ** self.p) ** (1.0 / self.p))

    def pred(self, o):
        return self.rel(o["gpu"], o["prec"], o["F"], self.bytes_of(o))


class ModelToday:
    """PROJECTION.md sections 2-3: max(F/(peak*eff), B/(bw*eff_mem)), default efficiencies."""
    EFF = {"fp32": 0.85, "tf32": 0.70, "fp16": 0.75, "bf16": 0.75, "fp8": 0.65}
    EFF_MEM = 0.85

    def __init__(self, data):
        self.data = data

    def rel(self, gpu, prec, F, B):
        R, used = self.data.rate(gpu, prec)
        if R is None:
            return None
        tc = F / (R * 1e12 * self.EFF[used])
        tm = B / (self.data.spec(gpu, "mem_bw_gbs") * 1e9 * self.EFF_MEM)
        return 1.0 / max(tc, tm)

    def pred(self, o):
        return self.rel(o["gpu"], o["prec"], o["F"], o["B"])


class ModelBandwidth:
    """Baseline: speed proportional to memory bandwidth (the issue's 'dividing bandwidths')."""

    def __init__(self, data):
        self.data = data

    def rel(self, gpu, prec, F, B):
        return self.data.spec(gpu, "mem_bw_gbs")

    def pred(self, o):
        return self.rel(o["gpu"], o["prec"], o["F"], o["B"])


# ---------------------------------------------------------------------------------------------
# Fitting (Nelder-Mead, standard library)
# ---------------------------------------------------------------------------------------------
def nelder_mead(f, x0, step=0.3, iters=3000, tol=1e-12):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (step if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts, vals = [pts[i] for i in order], [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) < tol:
            break
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        xr = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fc = f(xc)
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
    i = min(range(n + 1), key=lambda i: vals[i])
    return pts[i], vals[i]


def minimize(f, x0):
    x, v = nelder_mead(f, x0, 0.5)
    for step in (0.2, 0.1, 0.05):
        x, v = nelder_mead(f, x, step)
    return x, v


def by_group(obs):
    g = collections.defaultdict(list)
    for o in obs:
        g[o["group"]].append(o)
    return g


def group_weights(obs):
    """Groups of one family, stack and precision share a weight of 1 in total (the seven MPT
    sizes of llm-foundry say the same thing about the same three GPUs)."""
    fam = collections.defaultdict(set)
    for o in obs:
        w, s, pg = o["group"]
        fam[(family_of(w), s, pg)].add(o["group"])
    return {g: 1.0 / len(s) for s in fam.values() for g in s}


def relative_sse(model, obs, weights):
    """Sum of squared log residuals after removing each group's own level (the group's software
    stack sets the absolute level; only GPU-to-GPU ratios inside a group are compared)."""
    s = 0.0
    for g, lst in by_group(obs).items():
        if len(lst) < 2:
            continue
        e = [math.log(o["val"] / model.pred(o)) for o in lst]
        m = sum(e) / len(e)
        s += weights[g] * sum((x - m) ** 2 for x in e) * len(e) / (len(e) - 1)
    return s


# Like-for-like software stacks without a shared GPU: same framework, memory format, precision and
# era; their levels (mean log(measured / r_rel)) are softly tied with SIGMA_LINK (see model_v2.md).
LINKS = [
    ("resnet50-imagenet", "dle-pytorch-21.03", "timm-pt1.12-nhwc"),
    ("resnet50-imagenet", "dle-tf1-20.06-xla", "tf_cnn_benchmarks-ngc"),
]
SIGMA_LINK = 0.15
# Fit the per-step traffic kappa (B per parameter and step) instead of fixing it at the workload
# definitions' 40 B? Small batches (BERT SQuAD at batch 2-4 on 16 GB V100s, the tf_cnn_benchmarks batch
# sweeps) are slower than 40 B/param/step can explain (optimizer kernels, AMP gradient unscale, launch
# overhead per step). Fitted (~150 B) it lowers the worst held-out errors (BERT SQuAD max 0.354 ->
# 0.155) but raises the typical ones (all mixed-precision transfers: median 0.049 -> 0.079; roofline
# tier 0.337 -> 0.415), so it is not used (PROJECTION.md 3.5; variant J of --variants).
FIT_KAPPA = False
SIGMA_RESID = 0.10
USE_LINKS = True


def link_sse(model, obs):
    groups = by_group(obs)
    s = 0.0
    for w, a, b in LINKS:
        ga, gb = (w, a, "mixed"), (w, b, "mixed")
        if ga in groups and gb in groups and groups[ga] and groups[gb]:
            la = statistics.mean(math.log(o["val"] / model.pred(o)) for o in groups[ga])
            lb = statistics.mean(math.log(o["val"] / model.pred(o)) for o in groups[gb])
            s += ((la - lb) / SIGMA_LINK) ** 2 * SIGMA_RESID ** 2
    return s


def fit_stage1(data, obs, fit_p=True, fit_gamma=True, links=None, power=True, arch_eta=(), cache=False,
               fit_kappa=None):
    """beta, eps, p, gamma and the per-step traffic kappa on the mixed-precision (fp16/bf16/fp8)
    groups. power/arch_eta/cache/fit_kappa: model variants for the comparison table (--variants);
    the chosen model is the default."""
    links = USE_LINKS if links is None else links
    fit_kappa = FIT_KAPPA if fit_kappa is None else fit_kappa
    k_at = 4 + len(arch_eta) + (1 if cache else 0)
    mixed = [o for o in obs if precision_group(o["prec"]) != "single"]
    W = group_weights(mixed)
    arch_eta = list(arch_eta)

    def unpack(x):
        p = 1.0 + math.exp(x[2]) if fit_p else 1.0
        g = 1.0 + 1.0 / (1.0 + math.exp(-x[3])) if fit_gamma else 1.0   # gamma in [1, 2]
        m = ModelV2(data, beta=math.exp(x[0]), eps=math.exp(x[1]) if power else 0.0, p=p, gamma=g)
        m.arch_eta = {a: math.exp(x[4 + i]) for i, a in enumerate(arch_eta)}
        if cache:
            m.l2_half_mb = math.exp(x[4 + len(arch_eta)])
        if fit_kappa:
            m.kappa = WORKLOAD_BYTES_PER_PARAM * math.exp(x[k_at])
        return m

    def objective(x):
        m = unpack(x)
        s = relative_sse(m, mixed, W) + (link_sse(m, mixed) if links else 0.0)
        # weak prior on the per-architecture factors (variants only): log-normal, sigma 0.5
        s += sum((x[4 + i] / 0.5) ** 2 for i in range(len(arch_eta))) * 0.01
        return s

    x0 = ([math.log(0.7), math.log(3.0), math.log(0.5), 0.0] + [0.0] * len(arch_eta) + ([math.log(50.0)] if cache else [])
          + ([0.0] if fit_kappa else []))
    x, _ = minimize(objective, x0)
    m = unpack(x)
    if fit_p and m.p < 1.0 + 1e-3:
        m.p = 1.0            # at the boundary: report the plain sum
    return m


def precision_pairs(obs):
    """(mixed observation, single observation) of the same workload, stack and GPU."""
    groups = by_group(obs)
    out = []
    for g, lst in groups.items():
        sg = (g[0], g[1], "single")
        if g[2] != "mixed" or sg not in groups:
            continue
        single = {o["gpu"]: o for o in groups[sg]}
        out += [(o, single[o["gpu"]]) for o in lst if o["gpu"] in single]
    return out


def fit_stage2(model, obs):
    """rho_tf32, rho_fp32 with the stage-1 constants fixed: the TF32/FP32 groups fix the ratios
    between GPUs, the same-GPU mixed vs TF32/FP32 pairs fix the level against the fp16 path."""
    single = [o for o in obs if precision_group(o["prec"]) == "single"]
    pairs = precision_pairs(obs)
    if not single:
        return model
    W = group_weights(single)

    def objective(x):
        model.rho_tf32, model.rho_fp32 = math.exp(x[0]), math.exp(x[1])
        s = relative_sse(model, single, W)
        for m, o in pairs:
            e = math.log((o["val"] / m["val"]) / (model.pred(o) / model.pred(m)))
            s += e * e / len(pairs) * 4.0   # the pairs weigh like ~4 groups
        return s

    x, _ = minimize(objective, [0.0, 0.0])
    objective(x)
    return model


# Absolute calibration (stage 3): the reference stack of each preset plus llm-foundry for LLM
# pre-training. phi = geometric mean of measured / r_rel over the family's GPUs, then over families.
PHI_FAMILIES = {
    "resnet50": lambda o: o["group"][0] == "resnet50-imagenet" and o["group"][1] == "dle-pytorch-21.03",
    "bert-large-squad": lambda o: o["group"][0] == "bert-large-squad-finetune" and o["group"][1] in ("dle-pytorch-21.11", "dle-pytorch-20.06"),
    "vit-b16": lambda o: o["group"][0] == "vit-b16-imagenet" and o["group"][1] == "timm-pt1.12-nchw",
    "gpt2-124m": lambda o: o["group"][0] == "gpt2-124m" and o["group"][1] == "llm.c",
    "mpt (llm-foundry)": lambda o: o["group"][1] == "llm-foundry" and o["prec"] in ("bf16", "fp16"),
}


def samples_of(o):
    """Per-GPU figure in samples/s of the F/B definition (tokens/s -> sequences/s)."""
    if o["unit"] == "tokens/s":
        w = o["group"][0]
        seq = 8192 if w.startswith("llama") else 2048 if w.startswith("mpt") else 1024
        return o["val"] / seq
    return o["val"]


def phi_by_family(model, obs):
    out = {}
    for fam, sel in PHI_FAMILIES.items():
        lst = [o for o in obs if sel(o) and precision_group(o["prec"]) == "mixed"]
        if lst:
            out[fam] = (math.exp(statistics.mean(math.log(samples_of(o) / model.pred(o)) for o in lst)), lst)
    return out


def fit_stage3(model, obs):
    fams = phi_by_family(model, obs)
    model.phi = math.exp(statistics.mean(math.log(v[0]) for v in fams.values()))
    return model, fams


def fit_all(data, obs, fit_p=True, fit_gamma=True, links=None, **variant):
    m = fit_stage1(data, obs, fit_p, fit_gamma, links, **variant)
    fit_stage2(m, obs)
    fit_stage3(m, obs)
    return m


# ---------------------------------------------------------------------------------------------
# Transfer and leave-one-GPU-out validation
# ---------------------------------------------------------------------------------------------
def transfer(model, refs, target_gpu, target_arch, target_rel, same_arch_weight=SAME_ARCH_WEIGHT):
    """refs: list of (gpu, arch, measured, r_rel). Weighted geometric mean of the measured/model
    ratios of the references, times the model's speed of the target."""
    num = den = 0.0
    for gpu, arch, meas, rel in refs:
        if gpu == target_gpu:
            continue
        w = same_arch_weight if arch == target_arch else 1.0
        num += w * math.log(meas / rel)
        den += w
    if den == 0:
        return None
    return math.exp(num / den) * target_rel


def loo_groups(data, obs, make_model, families=None, precisions=("mixed", "fp8")):
    """For each GPU: refit without every observation of that GPU, then predict it in every group
    that has it and at least one other GPU, from the other GPUs of that group."""
    groups = by_group(obs)
    gpus = sorted({o["gpu"] for o in obs})
    out = []
    for g in gpus:
        targets = [(gr, lst) for gr, lst in groups.items() if len(lst) >= 2
                   and any(o["gpu"] == g for o in lst) and precision_group(lst[0]["prec"]) in precisions
                   and (families is None or family_of(gr[0]) in families)]
        if not targets:
            continue
        model = make_model([o for o in obs if o["gpu"] != g])
        for gr, lst in targets:
            t = [o for o in lst if o["gpu"] == g][0]
            refs = [(o["gpu"], o["arch"], o["val"], model.pred(o)) for o in lst if o["gpu"] != g]
            pr = transfer(model, refs, g, t["arch"], model.pred(t))
            out.append({"group": gr, "gpu": g, "measured": t["val"], "projected": pr,
                        "logerr": math.log(pr / t["val"]), "row": t["row"], "batch": t["batch"],
                        "prec": t["prec"], "count": t["count"]})
    return out


def stats(errs):
    a = [abs(e) for e in errs]
    if not a:
        return None
    return {"n": len(a), "median": statistics.median(a), "max": max(a),
            "p10": percentile(errs, 10), "p90": percentile(errs, 90)}


def percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return None
    k = (len(xs) - 1) * q / 100.0
    f = math.floor(k)
    c = min(f + 1, len(xs) - 1)
    return xs[f] + (xs[c] - xs[f]) * (k - f)


# ---------------------------------------------------------------------------------------------
# Anchors (the measured tier the app ships) and the app's end-to-end procedure
# ---------------------------------------------------------------------------------------------
def stack_offsets(model, obs):
    """Per group: mean log(measured / r_rel) = the software stack's level for that workload."""
    return {g: statistics.mean(math.log(o["val"] / model.pred(o)) for o in lst)
            for g, lst in by_group(obs).items()}


def conversion_factors(model, obs, preset, workload, ref_stack, exclude_gpu=None):
    """Factor that turns a per-GPU figure of stack S into the preset's reference stack:
    shared GPUs -> geometric mean of the ratios (method 'shared-gpu'); none -> ratio of the
    groups' levels relative to the model ('model')."""
    groups = {g: lst for g, lst in by_group(obs).items()
              if g[0] == workload and precision_group(lst[0]["prec"]) != "single"}
    use = {g: [o for o in lst if o["gpu"] != exclude_gpu] for g, lst in groups.items()}
    ref = [g for g in use if g[1] == ref_stack]
    out = {}
    if not ref or not use[ref[0]]:
        return out
    ref_g = ref[0]
    ref_vals = {o["gpu"]: o["val"] for o in use[ref_g]}
    ref_level = statistics.mean(math.log(o["val"] / model.pred(o)) for o in use[ref_g])
    for g, lst in use.items():
        if not lst:
            continue
        if g == ref_g:
            out[g[1]] = (1.0, "reference", [])
            continue
        shared = [o for o in lst if o["gpu"] in ref_vals]
        if shared:
            f = math.exp(statistics.mean(math.log(ref_vals[o["gpu"]] / o["val"]) for o in shared))
            out[g[1]] = (f, "shared-gpu", sorted(o["gpu"] for o in shared))
        else:
            lvl = statistics.mean(math.log(o["val"] / model.pred(o)) for o in lst)
            out[g[1]] = (math.exp(ref_level - lvl), "model", [])
    return out


def anchors_for(data, model, obs, preset, exclude_gpu=None):
    """Per GPU: the preset's per-GPU samples/s in its reference stack, from the most preferred
    stack that measured it (STACK_PREFERENCE), converted with conversion_factors."""
    ref_stack = REFERENCE_STACK[preset]
    if not ref_stack:
        return {}
    wl = {"resnet50": "resnet50-imagenet", "bert-large-squad": "bert-large-squad-finetune",
          "vit-b16": "vit-b16-imagenet", "gpt2-124m": "gpt2-124m"}[preset]
    conv = conversion_factors(model, obs, preset, wl, ref_stack, exclude_gpu)
    prefs = STACK_PREFERENCE[preset]
    best = {}
    for o in obs:
        if o["group"][0] != wl or o["gpu"] == exclude_gpu or o["group"][1] not in conv:
            continue
        if precision_group(o["prec"]) == "single" or o["group"][1] not in prefs:
            continue
        k = prefs.index(o["group"][1])
        if o["gpu"] not in best or k < best[o["gpu"]][0]:
            best[o["gpu"]] = (k, o)
    out = {}
    for gpu, (_, o) in best.items():
        f, method, shared = conv[o["group"][1]]
        out[gpu] = {"obs": o, "value": samples_of(o) * f, "factor": f, "method": method,
                    "shared": shared, "stack": o["group"][1]}
    return out


def anchor_candidates(obs, preset):
    """(observation, stack rank) of every mixed-precision measurement of the preset's workload in one of
    its preferred stacks: what anchors_for chooses from (and conversion_factors converts)."""
    ref_stack = REFERENCE_STACK[preset]
    if not ref_stack:
        return []
    wl = {"resnet50": "resnet50-imagenet", "bert-large-squad": "bert-large-squad-finetune",
          "vit-b16": "vit-b16-imagenet", "gpt2-124m": "gpt2-124m"}[preset]
    prefs = STACK_PREFERENCE[preset]
    out = [(o, prefs.index(o["group"][1])) for o in obs
           if o["group"][0] == wl and precision_group(o["prec"]) != "single" and o["group"][1] in prefs]
    return sorted(out, key=lambda x: (x[1], x[0]["gpu"]))


def constants_json(m, digits=4):
    """The fitted constants in model_v2.json's "constants" shape (fixed choices included)."""
    return {
        "beta": round(m.beta, digits), "eps_tflops_per_w": round(m.eps, digits), "p": round(m.p, digits),
        "gamma_half_rate": round(m.gamma, digits),
        "rho": {"fp8": 1.0, "fp16": 1.0, "bf16": 1.0, "tf32": round(m.rho_tf32, digits), "fp32": round(m.rho_fp32, digits)},
        "power_ops": POWER_OPS_PER_FP16_OP,
        "phi": round(m.phi, digits),
        "same_arch_weight": SAME_ARCH_WEIGHT,
        "bytes_per_param_per_step": WORKLOAD_BYTES_PER_PARAM,
        "kappa_bytes_per_param_per_step": round(m.kappa, digits),
    }


def end_to_end(data, obs, make_model, preset):
    """The app's procedure for a GPU without a measurement of the preset: hold the GPU out of
    everything (fit, stack conversion, anchors), transfer from the remaining anchors, compare
    with the GPU's own anchor (its measurement converted to the reference stack with factors
    that do not use the GPU). GPUs whose only conversion would be model-based are skipped."""
    full = anchors_for(data, make_model(obs), obs, preset)
    out = []
    for g, a in sorted(full.items()):
        train = [o for o in obs if o["gpu"] != g]
        model = make_model(train)
        anchors = anchors_for(data, model, train, preset)
        if not anchors:
            continue
        o = a["obs"]
        # truth: g's measurement in the reference stack, conversion without g
        conv = conversion_factors(model, obs, preset, o["group"][0], REFERENCE_STACK[preset], exclude_gpu=g)
        f, method, _ = conv.get(o["group"][1], (None, None, None))
        if f is None or method == "model":
            continue
        truth = samples_of(o) * f
        refs = [(x, an["obs"]["arch"], an["value"], model.pred(an["obs"])) for x, an in anchors.items()]
        pr = transfer(model, refs, g, o["arch"], model.pred(o))
        out.append({"preset": preset, "gpu": g, "truth_stack": o["group"][1], "truth": truth,
                    "projected": pr, "logerr": math.log(pr / truth), "n_anchors": len(anchors)})
    return out


# ---------------------------------------------------------------------------------------------
# Other validations: roofline tier (leave one family out), stack conversion, repeatability,
# precision and batch scaling of a measurement
# ---------------------------------------------------------------------------------------------
def roofline_lofo(model, obs):
    fams = phi_by_family(model, obs)
    out = []
    for fam, (_, lst) in fams.items():
        others = [math.log(v[0]) for f, v in fams.items() if f != fam]
        phi = math.exp(statistics.mean(others))
        for o in lst:
            pr = phi * model.pred(o)
            out.append({"family": fam, "gpu": o["gpu"], "measured": samples_of(o), "projected": pr,
                        "logerr": math.log(pr / samples_of(o)), "stack": o["group"][1], "workload": o["group"][0]})
    return out


def today_absolute(data, obs):
    t = ModelToday(data)
    out = []
    for fam, sel in PHI_FAMILIES.items():
        for o in obs:
            if sel(o) and precision_group(o["prec"]) == "mixed":
                pr = t.pred(o)
                out.append({"family": fam, "gpu": o["gpu"], "measured": samples_of(o), "projected": pr,
                            "logerr": math.log(pr / samples_of(o)), "stack": o["group"][1], "workload": o["group"][0]})
    return out


def stack_conversion_errors(obs):
    """Two stacks measured the same workload on >= 2 common GPUs: convert GPU g from stack A to
    stack B with the factor of the other common GPUs; the error is what a 'measured,
    stack-converted' anchor can be off by."""
    groups = by_group(obs)
    out = []
    keys = [g for g in groups if precision_group(groups[g][0]["prec"]) == "mixed"]
    for a in keys:
        for b in keys:
            if a >= b or a[0] != b[0]:
                continue
            va = {o["gpu"]: o["val"] for o in groups[a]}
            vb = {o["gpu"]: o["val"] for o in groups[b]}
            common = sorted(set(va) & set(vb))
            if len(common) < 2:
                continue
            for g in common:
                rest = [x for x in common if x != g]
                f = math.exp(statistics.mean(math.log(vb[x] / va[x]) for x in rest))
                out.append({"workload": a[0], "from": a[1], "to": b[1], "gpu": g,
                            "logerr": math.log(va[g] * f / vb[g])})
    return out


def repeatability(data):
    """Spread of repeated measurements of one GPU/workload/stack/GPU count (MLPerf submitters and
    rounds): log(value / median of the repeats)."""
    rep = collections.defaultdict(list)
    for r in data.rows:
        if r["fit_use"] == "1" and r["stack"] == "mlperf-nvidia" and r["per_gpu_value"]:
            rep[(r["workload_src"], r["fit_gpu_id"], r["gpu_count"])].append(r)
    out = []
    for k, lst in rep.items():
        vals = []
        for r in lst:
            vals += [float(r["per_gpu_value"])]
            if r["mlperf_per_gpu_min"] and r["mlperf_per_gpu_max"]:
                vals += [float(r["mlperf_per_gpu_min"]), float(r["mlperf_per_gpu_max"])]
        vals = sorted(set(vals))
        if len(vals) >= 2:
            med = statistics.median(vals)
            out += [math.log(v / med) for v in vals]
    return out


def precision_scaling_errors(model, obs):
    """Same GPU, same stack and workload measured in mixed precision and in TF32/FP32: scale the
    mixed-precision figure with the model's precision ratio and compare (in-sample: the pairs
    also fit rho, so this is a fit residual, not a held-out error)."""
    out = []
    for o, s in precision_pairs(obs):
        pr = o["val"] * model.pred(s) / model.pred(o)
        out.append({"workload": o["group"][0], "stack": o["group"][1], "gpu": o["gpu"], "from": o["prec"],
                    "to": s["prec"], "measured": s["val"], "projected": pr, "logerr": math.log(pr / s["val"])})
    return out


def batch_scaling_errors(data, model):
    """1-GPU batch sweeps of one stack (server-gear tf_cnn_benchmarks, 64..512): scale the
    largest-batch figure to the other batches with the model (per-step traffic kappa B/param/batch)."""
    sweeps = collections.defaultdict(list)
    for r in data.rows:
        if r["source_id"].startswith("SERVERGEAR") and r["gpu_count"] == "1":
            sweeps[r["fit_gpu_id"]].append(r)
    out = []
    for gpu, lst in sweeps.items():
        top = max(lst, key=lambda r: int(r["batch_per_gpu"]))
        p50 = param_count(data, "resnet50-imagenet")
        f, b = flops_bytes(data, "resnet50-imagenet", top["batch_per_gpu"], "")
        r_top = model.rel(gpu, "fp16", f, model_bytes(model, b, p50, top["batch_per_gpu"]))
        for r in lst:
            if r is top:
                continue
            f2, b2 = flops_bytes(data, "resnet50-imagenet", r["batch_per_gpu"], "")
            pr = float(top["per_gpu_value"]) * model.rel(gpu, "fp16", f2, model_bytes(model, b2, p50, r["batch_per_gpu"])) / r_top
            out.append({"gpu": gpu, "batch": int(r["batch_per_gpu"]), "from_batch": int(top["batch_per_gpu"]),
                        "measured": float(r["per_gpu_value"]), "projected": pr,
                        "logerr": math.log(pr / float(r["per_gpu_value"]))})
    return out


# ---------------------------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------------------------
VALIDATION_SETS = [
    # (label, families, precision groups, group filter)
    ("resnet50", ("resnet50",), ("mixed",), None),
    ("bert-large-squad (SQuAD rows only)", ("bert-large",), ("mixed", "fp8"),
     lambda g: g[0] == "bert-large-squad-finetune"),
    ("bert-large family (SQuAD + pre-training ph1/ph2 + MLPerf)", ("bert-large",), ("mixed", "fp8"), None),
    ("gpt-decoder family (MPT, Llama 3 8B; for gpt2-124m / llm7b-lora)", ("gpt-decoder",), ("mixed", "fp8"), None),
    ("resnet50 fp32/tf32 (Torch7, DLE TF32/FP32)", ("resnet50",), ("single",), None),
    ("bert-large tf32/fp32 (DLE)", ("bert-large",), ("single",), None),
]


# ---------------------------------------------------------------------------------------------
# Reference implementation of the app's projection (golden values for the C++ tests)
# ---------------------------------------------------------------------------------------------
NON_NVIDIA_ARCHS = ("cdna", "rdna", "tpu", "gaudi", "ai100")


def model_bytes(model, b, params, batch):
    """The model's B for a workload B defined with 40 B/param/step: the per-step part becomes kappa
    (ModelToday and other models without kappa: unchanged)."""
    k = getattr(model, "kappa", WORKLOAD_BYTES_PER_PARAM)
    return b + (k - WORKLOAD_BYTES_PER_PARAM) * float(params) / float(batch)


def preset_fb(w, batch, prec, kappa=WORKLOAD_BYTES_PER_PARAM):
    """F, B of a preset at another batch/precision as the model sees it: B = activations + kappa
    B/param/step / batch (the preset's own B has 40 B/param/step); activations x2 in TF32/FP32."""
    wt_p = WORKLOAD_BYTES_PER_PARAM * w["parameters"] / w["batch_per_gpu"]
    act = w["bytes_per_sample"] - wt_p
    if precision_group(prec) == "single" and precision_group(w["precision"]) != "single":
        act *= 2.0
    return float(w["flops_per_sample"]), act + kappa * w["parameters"] / float(batch)


@functools.lru_cache(maxsize=None)
def vendor_levels():
    """Rule AG (PROJECTION.md 3.31): {gpu id: log level} of other_vendor_levels.json (score_mlperf_extra.py
    --write-levels), the factor the app puts on another vendor's GPU's relative speed."""
    with open(os.path.join(BENCH, "other_vendor_levels.json"), encoding="utf-8") as f:
        return {g: v["log_level"] for g, v in json.load(f)["levels"].items()}


def vendor_factor(gpu):
    return math.exp(vendor_levels().get(gpu, 0.0))


def project(data, model, preset_id, gpu, anchors, ranges):
    """(tier, samples/s, low, high, detail) for one GPU of a preset, or None (no compute rate)."""
    w = data.presets[preset_id]
    prec = w["precision"]
    F, B = preset_fb(w, w["batch_per_gpu"], prec, model.kappa)
    r_t = model.rel(gpu, prec, F, B)
    if r_t is None or not data.spec(gpu, "mem_bw_gbs"):
        return None
    # Rule AG: the app's relative speed of another vendor's GPU carries its level (SpeedModel::relativeSpeed); the
    # anchors are NVIDIA GPUs', without one.
    r_t *= vendor_factor(gpu)
    arch = data.arch[gpu]["arch"]
    an = anchors.get(preset_id, {})
    if gpu in an:
        a = an[gpu]
        fa, ba = preset_fb(w, a["obs"]["batch"], a["obs"]["prec"], model.kappa)
        val = a["value"] * r_t / (model.rel(gpu, a["obs"]["prec"], fa, ba) * vendor_factor(gpu))
        tier = "measured" if a["method"] == "reference" else "measured-converted"
        detail = "%s %s x%.3f (%s)" % (a["stack"], a["obs"]["row"], a["factor"], a["method"])
    elif an:
        refs = []
        for g, a in an.items():
            fa, ba = preset_fb(w, a["obs"]["batch"], a["obs"]["prec"], model.kappa)
            refs.append((g, a["obs"]["arch"], a["value"], model.rel(g, a["obs"]["prec"], fa, ba) * vendor_factor(g)))
        val = transfer(model, refs, gpu, arch, r_t)
        tier = "transferred" if any(r[1] == arch for r in refs) else "transferred-cross-arch"
        detail = "from " + "|".join(sorted(an))
        if arch in NON_NVIDIA_ARCHS and not any(r[1] in NON_NVIDIA_ARCHS for r in refs):
            # no measurement of this vendor anywhere: the transfer is unvalidated, use the roofline range
            tier = "transferred-other-vendor"
    else:
        val = model.phi * r_t
        tier = "roofline"
        detail = "phi %.3f" % model.phi
    lo, hi = ranges[tier]
    # ranges are percentiles of log(projected/measured): true speed = projected x exp(-err)
    return tier, val, val * math.exp(-hi), val * math.exp(-lo), detail


VARIANTS = [
    ("baseline: memory bandwidth ratio only", "bw"),
    ("today: max() roofline, PROJECTION.md efficiencies", None),
    ("A: sum/p-norm, 6 per-arch compute factors, no power limit", dict(power=False, fit_gamma=False, links=False,
                                                                     arch_eta=("volta", "ampere-ga10x", "ada", "hopper", "blackwell", "turing"))),
    ("B: A + L2 cache term", dict(power=False, fit_gamma=False, links=False, cache=True,
                                  arch_eta=("volta", "ampere-ga10x", "ada", "hopper", "blackwell", "turing"))),
    ("C: global (beta, p) only", dict(power=False, fit_gamma=False, links=False)),
    ("D: C + power limit eps", dict(fit_gamma=False, links=False)),
    ("E: D + half-rate factor gamma (within-group data only)", dict(links=False)),
    ("F (chosen): E + like-for-like stack links", dict()),
    ("G: F + L2 cache term", dict(cache=True)),
    ("H: F + per-arch factors (hopper, blackwell, ada)", dict(arch_eta=("hopper", "blackwell", "ada"))),
    ("I: F with MLPerf BERT fp16 everywhere (no FP8 assumption)", "nofp8"),
    ("J: F + fitted per-step traffic kappa (rejected)", dict(fit_kappa=True)),
]


def run_variants(data, obs):
    global MLPERF_BERT_FP8_ARCHS
    print("| variant | constants | " + " | ".join(v[0].split(" (")[0] for v in VALIDATION_SETS[:4]) + " |")
    print("|---|---|" + "---|" * 4)
    for label, v in VARIANTS:
        o = obs
        if v is None or v == "bw":
            make = (lambda tr: ModelToday(data)) if v is None else (lambda tr: ModelBandwidth(data))
            consts = ""
        else:
            kw = {} if v == "nofp8" else v
            if v == "nofp8":
                saved = MLPERF_BERT_FP8_ARCHS
                MLPERF_BERT_FP8_ARCHS = ()
                o = observations(data)
                MLPERF_BERT_FP8_ARCHS = saved
            make = (lambda kw: (lambda tr: fit_all(data, tr, True, **kw)))(kw)
            m = make(o)
            c = m.constants()
            consts = "beta %.2f, eps %.2f, p %.2f, gamma %.2f, kappa %.0f" % (
                c["beta"], c["eps_tflops_per_w"], c["p"], c["gamma_half_rate"], c["kappa"])
            if m.arch_eta:
                consts += ", " + ", ".join("%s %.2f" % kv for kv in m.arch_eta.items())
            if m.l2_half_mb:
                consts += ", L2_half %.0f MB" % m.l2_half_mb
        res = loo_groups(data, o, make, precisions=("mixed", "fp8"))
        cells = []
        for _, fams, precs, filt in VALIDATION_SETS[:4]:
            st = stats([e["logerr"] for e in res if family_of(e["group"][0]) in fams and (filt is None or filt(e["group"]))])
            cells.append("%.3f / %.3f" % (st["median"], st["max"]))
        print("| %s | %s | %s |" % (label, consts, " | ".join(cells)), flush=True)


HELD_OUT_SPLITS_NOTE = (
    "per split (leave one GPU out, leave one source out, the time split of validate_splits.py): the measured "
    "figures (observations: workload, stack, GPU, precision, FLOPs, activation bytes and parameters per "
    "sample: B = activation_bytes + kappa x params_per_sample) and the folds, each with the constants fitted "
    "without what it holds out, the p10-p90 transferred range of its own training data where computed, and "
    "its cases (a target observation transferred from reference observations). gpufrontier-cli validate "
    "projects every case with the app's own model and reports median and max |log error| and the coverage "
    "of the shipped tier ranges (and of the fold's own range); fit_projection_summary holds this tool's "
    "figures for the same cases, computed with the rounded constants, which the C++ test checks against.")
SPLIT_TITLES = {
    "leave_one_gpu_out": "leave one GPU out (every mixed-precision group with 2+ GPUs)",
    "leave_one_source_out": "leave one source out",
    "time_split": "fitted on figures measured up to 2022, later architectures (Ada, Hopper, Blackwell) projected",
}


def model_from_constants(data, c):
    """ModelV2 with the constants of a constants_json() object (the rounded constants the app reads)."""
    return ModelV2(data, beta=c["beta"], eps=c["eps_tflops_per_w"], p=c["p"], rho_tf32=c["rho"]["tf32"],
                   rho_fp32=c["rho"]["fp32"], phi=c["phi"], gamma=c["gamma_half_rate"],
                   kappa=c["kappa_bytes_per_param_per_step"])


def held_out_splits_json(data, split_folds, ranges):
    """model_v2.json "held_out_splits": per split its observations, folds and this tool's summary."""
    out = collections.OrderedDict()
    for split, folds in split_folds.items():
        index, observations_out, folds_out, errs, fold_inside = {}, [], [], [], 0
        fold_n = 0

        def ref(o):
            if id(o) not in index:
                index[id(o)] = len(observations_out)
                observations_out.append(collections.OrderedDict([
                    ("workload", o["group"][0]), ("stack", o["group"][1]), ("gpu", o["gpu"]),
                    ("precision", o["prec"]), ("flops", float("%.7g" % o["F"])),
                    ("activation_bytes", float("%.7g" % o["act"])), ("params_per_sample", float("%.7g" % o["ppb"])),
                    ("measured", o["val"]), ("row", o["row"])]))
            return index[id(o)]

        for label, model, frange, cases in folds:
            consts = constants_json(model, 6)
            m = model_from_constants(data, consts)
            fold_cases = []
            for e in cases:
                t, refs = e["target"], e["refs"]
                fold_cases.append({"target": ref(t), "references": [ref(o) for o in refs]})
                pr = transfer(m, [(o["gpu"], o["arch"], o["val"], m.pred(o)) for o in refs], t["gpu"], t["arch"],
                              m.pred(t))
                err = math.log(pr / t["val"])
                lo, hi = ranges["transferred-cross-arch" if e["cross"] else "transferred"]
                errs.append((err, lo <= err <= hi))
                if frange is not None:
                    fold_n += 1
                    fold_inside += frange[0] <= err <= frange[1]
            folds_out.append(collections.OrderedDict([
                ("held_out", label), ("constants", consts),
                ("range", [round(frange[0], 4), round(frange[1], 4)] if frange is not None else None),
                ("cases", fold_cases)]))
        s = stats([e for e, _ in errs])
        summary = collections.OrderedDict([
            ("n", s["n"]), ("median_abs_log_error", round(s["median"], 4)), ("max_abs_log_error", round(s["max"], 4)),
            ("coverage_shipped_ranges", round(sum(1 for _, i in errs if i) / len(errs), 4)),
            ("coverage_fold_ranges", round(fold_inside / fold_n, 4) if fold_n else None)])
        out[split] = collections.OrderedDict([("title", SPLIT_TITLES[split]), ("observations", observations_out),
                                              ("folds", folds_out), ("fit_projection_summary", summary)])
        print("held-out split %-22s n=%3d median|e| %.3f max|e| %.3f coverage (shipped ranges) %3.0f %%%s" % (
            split, s["n"], s["median"], s["max"], 100.0 * summary["coverage_shipped_ranges"],
            "" if not fold_n else ", (each fold's own range) %3.0f %%" % (100.0 * summary["coverage_fold_ranges"])))
    return out


def fmt_row(e):
    return "| %s | %s | %s | %.4g | %.4g | %+.3f |" % (
        e["group"][0], e["group"][1], e["gpu"], e["measured"], e["projected"], e["logerr"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="write model_v2.json, anchors.csv, validation.*")
    ap.add_argument("--no-fit-p", action="store_true", help="fix p = 1 instead of fitting it")
    ap.add_argument("--variants", action="store_true", help="leave-one-GPU-out table of model variants (slow)")
    args = ap.parse_args()

    data = Data()
    obs = observations(data)
    fit_p = not args.no_fit_p
    if args.variants:
        run_variants(data, obs)
        return

    # One fit per training set (every GPU held out once is shared by loo_groups, end_to_end and the
    # validation folds the app ships).
    fits = {}

    def make_v2(train):
        key = tuple(sorted({o["gpu"] for o in train}))
        if key not in fits:
            fits[key] = fit_all(data, train, fit_p)
        return fits[key]

    def make_today(train):
        return ModelToday(data)

    model = make_v2(obs)
    _, phi_fams = fit_stage3(model, obs)
    c = model.constants()
    print("Model v2 constants: " + ", ".join("%s=%.4g" % kv for kv in c.items()))
    for fam, (phi, lst) in phi_fams.items():
        print("  phi[%s] = %.3f over %d GPU(s)" % (fam, phi, len(lst)))

    # leave-one-GPU-out, both models
    loo_v2 = loo_groups(data, obs, make_v2, precisions=("mixed", "fp8", "single"))
    loo_today = loo_groups(data, obs, make_today, precisions=("mixed", "fp8", "single"))
    today_map = {(e["group"], e["gpu"]): e for e in loo_today}

    def select(entries, fams, precs, filt):
        return [e for e in entries if family_of(e["group"][0]) in fams
                and precision_group(e["prec"]) in precs and (filt is None or filt(e["group"]))]

    summary = []
    lines = ["## Leave-one-GPU-out, relative speed (log error of the transfer from the other GPUs of the same source and stack)", ""]
    for label, fams, precs, filt in VALIDATION_SETS:
        a = select(loo_v2, fams, precs, filt)
        b = select(loo_today, fams, precs, filt)
        sa, sb = stats([e["logerr"] for e in a]), stats([e["logerr"] for e in b])
        ngpu = len({e["gpu"] for e in a})
        summary.append((label, ngpu, sa, sb))
        lines += ["### " + label, "",
                  "| workload | stack | GPU | measured | v2 projected | v2 log err | today projected | today log err |",
                  "|---|---|---|---|---|---|---|---|"]
        for e in sorted(a, key=lambda e: (e["group"][1], e["gpu"], e["group"][0])):
            t = today_map[(e["group"], e["gpu"])]
            lines.append("| %s | %s | %s | %.4g | %.4g | %+.3f | %.4g | %+.3f |" % (
                e["group"][0], e["group"][1], e["gpu"], e["measured"], e["projected"], e["logerr"],
                t["projected"], t["logerr"]))
        if sa:
            lines += ["", "v2: n=%d, median |log err| %.3f, max %.3f; today: median %.3f, max %.3f" % (
                sa["n"], sa["median"], sa["max"], sb["median"], sb["max"]), ""]

    # the app's end-to-end procedure (anchors across stacks) for the presets with >= 3 anchors
    e2e = []
    for preset in ("resnet50", "bert-large-squad"):
        e2e += end_to_end(data, obs, make_v2, preset)
    e2e_today = []
    for preset in ("resnet50", "bert-large-squad"):
        e2e_today += end_to_end(data, obs, make_today, preset)

    lofo = roofline_lofo(model, obs)
    tabs = today_absolute(data, obs)
    conv = stack_conversion_errors(obs)
    rep = repeatability(data)
    prec = precision_scaling_errors(model, obs)
    bat = batch_scaling_errors(data, model)

    transferred_errs = [e["logerr"] for e in loo_v2 if precision_group(e["prec"]) != "single"]
    groups_all = by_group(obs)
    same_arch, cross_arch = [], []
    for e in loo_v2:
        if precision_group(e["prec"]) == "single":
            continue
        a = data.arch[e["gpu"]]["arch"]
        others = [o for o in groups_all[e["group"]] if o["gpu"] != e["gpu"]]
        (same_arch if any(o["arch"] == a for o in others) else cross_arch).append(e["logerr"])
    # The shipped ranges pool every held-out split (issue 22 item 4): leave one GPU out (above), leave one
    # source out and the time split (validate_splits.py: each refitted without what it holds out), by the
    # tier the app would give the target (a reference of its architecture or not).
    import validate_splits
    split_folds = {}
    time_errs, _, loso_errs, _ = validate_splits.held_out_splits(data, split_folds)
    # leave one GPU out as folds of the same shape (mixed precision and fp8: the transferred tiers)
    logo_folds = collections.OrderedDict()
    for e in loo_v2:
        if precision_group(e["prec"]) == "single":
            continue
        t = [o for o in groups_all[e["group"]] if o["gpu"] == e["gpu"]][0]
        refs = [o for o in groups_all[e["group"]] if o["gpu"] != e["gpu"]]
        if e["gpu"] not in logo_folds:
            # The fold's own range (issue 22 item 4): the transferred range of a leave-one-GPU-out run on the
            # fold's training data alone (a nested refit per GPU, as validate_splits does per source).
            g = e["gpu"]
            frange = validate_splits.transferred_range(
                validate_splits.restricted(data, lambda r, g=g: r["fit_gpu_id"] != g),
                [o for o in obs if o["gpu"] != g])
            logo_folds[g] = (g, make_v2([o for o in obs if o["gpu"] != g]), frange, [])
        fold = logo_folds[e["gpu"]]
        fold[3].append(dict(e, target=t, refs=refs, cross=not any(o["arch"] == t["arch"] for o in refs)))
    split_folds = collections.OrderedDict([("leave_one_gpu_out", list(logo_folds.values())),
                                           ("leave_one_source_out", split_folds["leave_one_source_out"]),
                                           ("time_split", split_folds["time_split"])])
    same_arch_loo, cross_arch_loo = list(same_arch), list(cross_arch)
    for e in time_errs + loso_errs:
        (cross_arch if e["cross"] else same_arch).append(e["logerr"])
    unc = {
        "measured": {"basis": "MLPerf repeats (submitters/rounds) of one GPU, workload and GPU count",
                     **stats(rep)},
        "measured_converted": {"basis": "stack conversion leave-one-GPU-out (two stacks, >= 2 common GPUs)",
                               **stats([e["logerr"] for e in conv])},
        "transferred": {"basis": "leave-one-GPU-out transfer, all mixed-precision groups", **stats(transferred_errs)},
        "transferred_same_arch": {"basis": "a reference GPU of the target's architecture exists; leave one GPU out (n=%d), "
                                           "leave one source out and the time split pooled" % len(same_arch_loo),
                                  **stats(same_arch)},
        "transferred_cross_arch": {"basis": "no reference GPU of the target's architecture; leave one GPU out (n=%d), "
                                            "leave one source out and the time split pooled" % len(cross_arch_loo),
                                   **stats(cross_arch)},
        "transferred_end_to_end": {"basis": "app procedure: anchors across stacks, resnet50 + bert-large-squad",
                                   **stats([e["logerr"] for e in e2e])},
        "transferred_single_precision": {"basis": "leave-one-GPU-out transfer, TF32/FP32 groups",
                                         **stats([e["logerr"] for e in loo_v2 if precision_group(e["prec"]) == "single"])},
        "precision_scaled": {"basis": "same GPU and stack, mixed -> TF32/FP32 with the model ratio",
                             **stats([e["logerr"] for e in prec])},
        "batch_scaled": {"basis": "1-GPU batch sweeps 64..512 (tf_cnn_benchmarks)", **stats([e["logerr"] for e in bat])},
        "roofline": {"basis": "absolute, phi fitted on the other families (leave one family out)",
                     **stats([e["logerr"] for e in lofo])},
    }

    # ----- print -----
    print()
    print("Before/after, leave-one-GPU-out relative speed (|log error|):")
    print("  %-66s %5s %4s   %-17s %-17s" % ("set", "GPUs", "n", "v2 median / max", "today median / max"))
    for label, ngpu, sa, sb in summary:
        if sa:
            print("  %-66s %5d %4d   %.3f / %.3f     %.3f / %.3f" % (label, ngpu, sa["n"], sa["median"], sa["max"], sb["median"], sb["max"]))
    for preset in ("resnet50", "bert-large-squad"):
        a = stats([e["logerr"] for e in e2e if e["preset"] == preset])
        b = stats([e["logerr"] for e in e2e_today if e["preset"] == preset])
        if a:
            print("  %-66s %5d %4d   %.3f / %.3f     %.3f / %.3f" % (
                preset + " end-to-end (app anchors, reference stack)", a["n"], a["n"], a["median"], a["max"], b["median"], b["max"]))
    a, b = stats([e["logerr"] for e in lofo]), stats([e["logerr"] for e in tabs])
    print("  %-66s %5s %4d   %.3f / %.3f     %.3f / %.3f" % ("absolute, roofline tier vs reference stacks (v2: leave one family out)",
                                                          "", a["n"], a["median"], a["max"], b["median"], b["max"]))
    print()
    print("Uncertainty per tier (signed log(projected/measured) percentiles; time range = projected time x [exp(p10), exp(p90)]):")
    for k, v in unc.items():
        print("  %-30s n=%3d p10=%+.3f p90=%+.3f  median|e|=%.3f max|e|=%.3f  (%s)" % (
            k, v["n"], v["p10"], v["p90"], v["median"], v["max"], v["basis"]))

    if not args.write:
        return

    # ----- write -----
    anchors = {}
    for preset in data.presets:
        anchors[preset] = anchors_for(data, model, obs, preset)
    with open(os.path.join(BENCH, "anchors.csv"), "w", newline="", encoding="utf-8") as f:
        f.write("# Measured tier of projection model v2: per preset and GPU, the per-GPU samples/s in the preset's\n"
                "# reference stack (resources/tools/fit_projection.py --write; do not edit). value = source figure x\n"
                "# stack_factor; tier: measured (reference stack) or measured-converted (another stack, factor from\n"
                "# GPUs measured in both stacks, or from the model when none is shared). batch_per_gpu/precision are\n"
                "# those of the measurement: the app scales to the user's batch/precision with the model ratio.\n"
                "# GPUs marked fit_only=1 in gpu_arch.csv (no gpus.csv row, specs in gpu_arch.csv) are references\n"
                "# of the transferred tier only: no offer has them.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["preset_id", "gpu_id", "samples_per_s", "tier", "stack", "stack_factor", "factor_method",
                    "factor_gpus", "measured_per_gpu", "batch_per_gpu", "precision", "gpu_count", "row_id"])
        for preset, an in anchors.items():
            for gpu, a in sorted(an.items()):
                # fit-only GPUs (gpu_arch.csv fit_only=1, no gpus.csv row) are kept: never an offer's GPU,
                # but a reference of the transfer like in project() below (their specs: gpu_arch.csv)
                o = a["obs"]
                tier = "measured" if a["method"] == "reference" else "measured-converted"
                w.writerow([preset, gpu, "%.4g" % a["value"], tier, a["stack"], "%.4f" % a["factor"], a["method"],
                            "|".join(a["shared"]), "%.4g" % samples_of(o), o["batch"], o["prec"], o["count"], o["row"]])

    with open(os.path.join(BENCH, "validation.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kind", "workload", "stack", "precision", "gpu", "measured", "projected_v2", "logerr_v2",
                    "projected_today", "logerr_today", "row_id"])
        for e in loo_v2:
            t = today_map[(e["group"], e["gpu"])]
            w.writerow(["loo-transfer", e["group"][0], e["group"][1], e["prec"], e["gpu"], "%.5g" % e["measured"],
                        "%.5g" % e["projected"], "%.4f" % e["logerr"], "%.5g" % t["projected"], "%.4f" % t["logerr"], e["row"]])
        tmap = {(e["preset"], e["gpu"]): e for e in e2e_today}
        for e in e2e:
            t = tmap.get((e["preset"], e["gpu"]))
            w.writerow(["end-to-end", e["preset"], e["truth_stack"], "", e["gpu"], "%.5g" % e["truth"],
                        "%.5g" % e["projected"], "%.4f" % e["logerr"],
                        "%.5g" % t["projected"] if t else "", "%.4f" % t["logerr"] if t else "", ""])
        tmap = {(e["workload"], e["gpu"], e["stack"]): e for e in tabs}
        for e in lofo:
            t = tmap.get((e["workload"], e["gpu"], e["stack"]))
            w.writerow(["roofline-absolute", e["family"], e["stack"], "", e["gpu"], "%.5g" % e["measured"],
                        "%.5g" % e["projected"], "%.4f" % e["logerr"],
                        "%.5g" % t["projected"] if t else "", "%.4f" % t["logerr"] if t else "", ""])

    # Validation folds: for every GPU that is a measured anchor of a preset with >= 2 anchors, the
    # constants refitted without any observation of that GPU. `gpufrontier-cli validate` projects the
    # held-out GPU with them (and recomputes the anchors and stack factors without the GPU from
    # anchor_candidates.csv), so no measurement of the held-out GPU reaches its projection.
    fold_gpus = sorted({g for p in data.presets for g in anchors_for(data, model, obs, p)
                        if len(anchors_for(data, model, obs, p)) >= 2})
    folds = {g: constants_json(make_v2([o for o in obs if o["gpu"] != g]), 6) for g in fold_gpus}

    with open(os.path.join(BENCH, "anchor_candidates.csv"), "w", newline="", encoding="utf-8") as f:
        f.write("# Every mixed-precision measurement of a preset's workload in one of its software stacks\n"
                "# (build_benchmarks.STACK_PREFERENCE; stack_rank 0 = the reference stack), one per GPU and stack\n"
                "# (fit_projection.py observations(); --write, do not edit). anchors.csv is what the app makes of\n"
                "# them with every GPU (stack factors from shared GPUs, else from the model); `gpufrontier-cli\n"
                "# validate` recomputes the anchors and factors without the held-out GPU. samples_per_s = per GPU,\n"
                "# in the preset's unit.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["preset_id", "gpu_id", "stack", "stack_rank", "samples_per_s", "batch_per_gpu", "precision",
                    "gpu_count", "row_id"])
        for preset in data.presets:
            for o, rank in anchor_candidates(obs, preset):
                w.writerow([preset, o["gpu"], o["group"][1], rank, "%.6g" % samples_of(o), o["batch"], o["prec"],
                            o["count"], o["row"]])

    model_json = {
        "schema_version": 1,
        "generated_by": "resources/tools/fit_projection.py --write",
        "formula": {
            "R_eff": "1 / (1/R_p + 1/(eps_tflops_per_w * tdp_w * power_ops[p_used]))  (no power term for fp32 or when tdp_w is empty)",
            "t_c": "F / (R_eff * 1e12 * rho[p_used])",
            "t_m": "beta * B / (mem_bw_gbs * 1e9)",
            "B": "activation traffic + kappa_bytes_per_param_per_step * trainable parameters / batch (a workload's bytes_per_sample counts bytes_per_param_per_step = 40 per parameter and step; the model replaces that part)",
            "r_rel": "1 / (t_c^p + t_m^p)^(1/p)",
            "roofline": "phi * r_rel",
            "transferred": "r_rel(target) * exp(sum_r w_r * ln(anchor_r / r_rel(r)) / sum_r w_r), w_r = same_arch_weight if arch(r) == arch(target) else 1",
            "measured": "anchor * r_rel(gpu; user's batch, precision) / r_rel(gpu; anchor's batch, precision)",
        },
        "constants": constants_json(model, 4),
        "phi_by_family": {k: round(v[0], 4) for k, v in phi_fams.items()},
        "assumptions": [
            "MLPerf BERT rows on Hopper/Blackwell ran FP8 (Transformer Engine); other MLPerf rows fp16.",
            "Parts whose FP32-accumulate tensor rate is half the FP16-accumulate rate (gpu_arch.csv half_rate_fp32_acc) train at gamma x the FP32-accumulate rate.",
            "Like-for-like stacks without a shared GPU (DLE PyTorch 21.03 ~ timm NHWC; DLE TF1 ~ tf_cnn_benchmarks) are tied softly (sigma 0.15).",
            "TF32/FP32 training stores activations in 32 bits: activation bytes x2 (weight traffic unchanged).",
            "The per-step traffic kappa (B per trainable parameter and step: weights, gradients, optimizer state) is the workload definitions' 40 B; fitting it was tried and rejected (PROJECTION.md 3.5).",
            "Per-GPU figures of multi-GPU runs are lower bounds of the 1-GPU speed; the best single-node figure (1..8 GPUs) is used.",
            "Groups (workload x software stack x precision) have free levels; only ratios inside a group are fitted.",
        ],
        "validation_folds_note": "per held-out GPU: the constants refitted without any measurement of that GPU "
                                 "(gpufrontier-cli validate); same keys as constants",
        "validation_folds": folds,
        "uncertainty": {k: {kk: (round(vv, 4) if isinstance(vv, float) else vv) for kk, vv in v.items()} for k, v in unc.items()},
        "tier_ranges_note": "[p10, p90] of log(projected/measured): time range = projected time x [exp(p10), exp(p90)], "
                            "samples/s range = projected x [exp(-p90), exp(-p10)]",
        "tier_ranges": {
            "measured": [round(unc["measured"]["p10"], 4), round(unc["measured"]["p90"], 4)],
            "measured-converted": [round(unc["measured_converted"]["p10"], 4), round(unc["measured_converted"]["p90"], 4)],
            "transferred": [round(unc["transferred_same_arch"]["p10"], 4), round(unc["transferred_same_arch"]["p90"], 4)],
            "transferred-cross-arch": [round(unc["transferred_cross_arch"]["p10"], 4), round(unc["transferred_cross_arch"]["p90"], 4)],
            "transferred-tf32-fp32": [round(unc["transferred_single_precision"]["p10"], 4),
                                      round(unc["transferred_single_precision"]["p90"], 4)],
            "roofline": [round(unc["roofline"]["p10"], 4), round(unc["roofline"]["p90"], 4)],
            "transferred-other-vendor": [round(unc["roofline"]["p10"], 4), round(unc["roofline"]["p90"], 4)],
        },
    }
    ranges = model_json["tier_ranges"]
    model_json["held_out_splits_note"] = HELD_OUT_SPLITS_NOTE
    model_json["held_out_splits"] = held_out_splits_json(data, split_folds, ranges)
    with open(os.path.join(BENCH, "projections_v2.csv"), "w", newline="", encoding="utf-8") as f:
        f.write("# Model v2 reference projections (fit_projection.py --write): single-GPU samples/s of every preset on every\n"
                "# GPU with a compute rate, at the preset's batch and precision; low/high = the tier's 10th-90th percentile\n"
                "# range. Golden values for the C++ implementation. today = PROJECTION.md roofline (default efficiencies).\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["preset_id", "gpu_id", "tier", "samples_per_s", "low", "high", "r_rel", "today", "detail"])
        tmodel = ModelToday(data)
        for pid, wl in data.presets.items():
            for gpu in data.specs:
                pr = project(data, model, pid, gpu, anchors, ranges)
                if pr is None:
                    continue
                tier, val, lo, hi, detail = pr
                rr = model.rel(gpu, wl["precision"], *preset_fb(wl, wl["batch_per_gpu"], wl["precision"],
                                                               model.kappa)) * vendor_factor(gpu)
                td = tmodel.rel(gpu, wl["precision"], wl["flops_per_sample"], wl["bytes_per_sample"])
                w.writerow([pid, gpu, tier, "%.4g" % val, "%.4g" % lo, "%.4g" % hi, "%.6g" % rr, "%.4g" % td, detail])

    with open(os.path.join(BENCH, "model_v2.json"), "w", encoding="utf-8") as f:
        json.dump(model_json, f, indent=2)
        f.write("\n")

    md = ["# Model v2 validation (generated by resources/tools/fit_projection.py --write)", "",
          "Constants: " + ", ".join("%s = %.4g" % kv for kv in model.constants().items()), "",
          "## Summary (|log error|; relative = transfer from the other GPUs of the same source/stack)", "",
          "| set | GPUs | n | v2 median | v2 max | today median | today max |", "|---|---|---|---|---|---|---|"]
    for label, ngpu, sa, sb in summary:
        if sa:
            md.append("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f |" % (label, ngpu, sa["n"], sa["median"], sa["max"], sb["median"], sb["max"]))
    for preset in ("resnet50", "bert-large-squad"):
        a = stats([e["logerr"] for e in e2e if e["preset"] == preset])
        b = stats([e["logerr"] for e in e2e_today if e["preset"] == preset])
        if a:
            md.append("| %s end-to-end (app anchors) | %d | %d | %.3f | %.3f | %.3f | %.3f |" % (preset, a["n"], a["n"], a["median"], a["max"], b["median"], b["max"]))
    a, b = stats([e["logerr"] for e in lofo]), stats([e["logerr"] for e in tabs])
    md.append("| absolute: roofline tier vs reference stacks | | %d | %.3f | %.3f | %.3f | %.3f |" % (a["n"], a["median"], a["max"], b["median"], b["max"]))
    md += ["", "## End-to-end (the app's procedure; truth = the GPU's measurement converted to the reference stack)", "",
           "| preset | GPU | truth stack | truth | v2 projected | v2 log err | today log err |", "|---|---|---|---|---|---|---|"]
    tmap = {(e["preset"], e["gpu"]): e for e in e2e_today}
    for e in e2e:
        t = tmap.get((e["preset"], e["gpu"]))
        md.append("| %s | %s | %s | %.4g | %.4g | %+.3f | %s |" % (e["preset"], e["gpu"], e["truth_stack"], e["truth"], e["projected"],
                                                             e["logerr"], "%+.3f" % t["logerr"] if t else ""))
    md += ["", "## Absolute, roofline tier (v2: phi from the other families; today: PROJECTION.md roofline)", "",
           "| family | workload | stack | GPU | measured | v2 | v2 log err | today | today log err |", "|---|---|---|---|---|---|---|---|---|"]
    tmap = {(e["workload"], e["gpu"], e["stack"]): e for e in tabs}
    for e in lofo:
        t = tmap[(e["workload"], e["gpu"], e["stack"])]
        md.append("| %s | %s | %s | %s | %.4g | %.4g | %+.3f | %.4g | %+.3f |" % (e["family"], e["workload"], e["stack"], e["gpu"], e["measured"],
                                                                            e["projected"], e["logerr"], t["projected"], t["logerr"]))
    md += ["", "## Scaling a measurement", "", "| kind | workload/GPU | from | to | measured | projected | log err |", "|---|---|---|---|---|---|---|"]
    for e in prec:
        md.append("| precision | %s %s %s | %s | %s | %.4g | %.4g | %+.3f |" % (e["workload"], e["stack"], e["gpu"], e["from"], e["to"], e["measured"], e["projected"], e["logerr"]))
    for e in bat:
        md.append("| batch | resnet50 tf_cnn_benchmarks %s | %d | %d | %.4g | %.4g | %+.3f |" % (e["gpu"], e["from_batch"], e["batch"], e["measured"], e["projected"], e["logerr"]))
    md += ["", "## Uncertainty per tier (signed log errors)", "", "| tier | basis | n | p10 | p90 | median abs | max abs |", "|---|---|---|---|---|---|---|"]
    for k, v in unc.items():
        md.append("| %s | %s | %d | %+.3f | %+.3f | %.3f | %.3f |" % (k, v["basis"], v["n"], v["p10"], v["p90"], v["median"], v["max"]))
    md += [""] + lines
    with open(os.path.join(BENCH, "validation.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    print("wrote model_v2.json, anchors.csv, validation.csv, validation.md to", BENCH)


if __name__ == "__main__":
    main()
