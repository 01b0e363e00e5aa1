#!/usr/bin/env python3
"""GPU Frontier's measured-throughput step, run by a launch plan's task on its first node.

Written by `gpufrontier-cli plan` (or the app's Launch plan... dialog) into the plan folder and copied to
the cluster through file_mounts. Everything it needs comes from environment variables that the task's
envs set (GF_*): nothing from the command line, nothing pasted into shell text.

What it does:
  1. With GF_PROBE=1, runs ~/gpufrontier/libexec/gpufrontier/gpufrontier-probe --quick (from GPU Frontier's
     .tar.gz package) and keeps its JSON document.
  2. Measures the workload's training throughput for GF_MEASURE_SECONDS seconds:
     - with GF_USER_CMD: runs `bash -c "$GF_USER_CMD"` and reads the samples/s it reports, either written
       as a number to the file $GF_SAMPLES_PER_S_FILE (the last number wins) or printed on a line
       "gpufrontier: samples_per_s=N". The figure is over all GPUs of this node (GF_GPUS_PER_NODE); the
       command is stopped when the time is up.
     - else a synthetic PyTorch training step of the preset's shape on ONE GPU (cuda:0) at the preset's
       batch and precision: resnet50 (torchvision's ResNet-50 when installed, else the same bottleneck
       network defined below), bert-large-squad (24 x 1024 encoder, sequence 384), vit-b16 (12 x 768,
       197 tokens), gpt2-124m (12 x 768 causal, sequence 1024, 50257-token vocabulary), llm7b-lora
       (LLaMA-2-7B's 32 decoder layers, frozen in bf16, rank-16 adapters on all seven linear layers,
       sequence 512, gradient checkpointing as the preset; no embedding or LM head); any other workload: a stack of
       4096-wide linear layers sized to its FLOPs per sample (GF_FLOPS_PER_SAMPLE). Synthetic data; the
       figure approximates the real model (no data loading, same layer shapes).
     Beside the speed, how busy the GPU was (PROJECTION.md section 3.22): for the synthetic step, the union
     of the GPU's kernel and copy intervals over 5 profiled steps (torch.profiler) against the unprofiled
     step time; for a user command, nvidia-smi's utilization.gpu sampled once a second. A GPU busy well
     under 100 % waited for the host (or the input pipeline): a faster GPU would not shorten that step.
     And the host's PyTorch dispatch time (x.add_(1.0) on 16 floats, microseconds per op).
  3. Writes $GF_RESULT_DIR/$GF_PLAN_TASK.json (schema gpufrontier-measurement, version 1) and prints the
     same document on one line "GPUFRONTIER-MEASUREMENT {...}" so a job log carries it too.

Import it with `gpufrontier-cli measure --import FILE` or the app's Measurements page.
"""

import datetime
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

SCHEMA = "gpufrontier-measurement"


def env(name, default=""):
    return os.environ.get(name, default)


def env_int(name, default):
    try:
        return int(float(env(name, str(default))))
    except ValueError:
        return default


def run_probe():
    probe = os.path.expanduser("~/gpufrontier/libexec/gpufrontier/gpufrontier-probe")
    if not os.path.exists(probe):
        return None, "gpufrontier-probe not found at %s (was the package built with CUDA?)" % probe
    try:
        out = subprocess.run([probe, "--quick"], capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "gpufrontier-probe failed: %s" % e
    try:
        return json.loads(out.stdout), None
    except ValueError:
        return None, "gpufrontier-probe exit %d, no JSON: %s" % (out.returncode, out.stderr.strip()[-500:])


class UtilizationSampler:
    """nvidia-smi's utilization.gpu (percent of the last sample period in which a kernel ran), once a second
    in a thread, for the GPUs `indices`; mean() averages the samples after the first `skip` fraction of the
    run (start-up and warm-up), over the GPUs."""

    def __init__(self, indices):
        import threading
        self.indices = ",".join(str(i) for i in indices)
        self.samples = []  # (time, mean percent over the GPUs)
        self.error = None
        self.started = self.stopped = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            try:
                out = subprocess.run(["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits",
                                      "-i", self.indices], capture_output=True, text=True, timeout=10)
                values = [float(v) for v in out.stdout.split() if v.strip().replace(".", "", 1).isdigit()]
                if out.returncode != 0 or not values:
                    self.error = "nvidia-smi gave no utilization (exit %d)" % out.returncode
                    return
                self.samples.append((time.time(), sum(values) / len(values)))
            except (OSError, subprocess.TimeoutExpired, ValueError) as e:
                self.error = "nvidia-smi failed: %s" % e
                return
            self._stop.wait(1.0)

    def start(self):
        self.started = time.time()
        self._thread.start()
        return self

    def stop(self):
        self.stopped = time.time()
        self._stop.set()
        self._thread.join(timeout=15)

    def kept(self, skip=0.2, window=None):
        """The samples over `window` (first, last time) when given, else after the first `skip` of the run."""
        if self.started is None or self.stopped is None:
            return []
        begin, end = window if window else (self.started + skip * (self.stopped - self.started), self.stopped)
        return [v for t, v in self.samples if begin <= t <= end]

    def mean(self, skip=0.2, window=None):
        kept = self.kept(skip, window)
        return sum(kept) / len(kept) if kept else None


def nvidia_smi_name(index):
    """The GPU's name as nvidia-smi gives it ("NVIDIA H200"), or None: a user command's document names its GPU
    by it when the plan sets no GF_GPU_ID (the synthetic path takes torch's device name)."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "-i", str(index)],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    name = out.stdout.strip().splitlines()[0].strip() if out.returncode == 0 and out.stdout.strip() else ""
    return name or None


def visible_gpu_indices(count):
    """The nvidia-smi indices of the first `count` GPUs CUDA sees (CUDA_VISIBLE_DEVICES when it lists numbers)."""
    listed = [v.strip() for v in env("CUDA_VISIBLE_DEVICES").split(",") if v.strip()]
    if listed and all(v.isdigit() for v in listed):
        return [int(v) for v in listed[:count]]
    return list(range(count))


def profiled_gpu_ms(torch, step, steps=5):
    """The GPU's busy time per step in ms: the union of its kernel, copy and set intervals over `steps`
    profiled steps (torch.profiler, CUDA activity). (None, why) where the profiler records no GPU activity."""
    try:
        from torch.profiler import ProfilerActivity, profile
    except ImportError:
        return None, "torch.profiler is not available"
    try:
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(steps):
                step()
            torch.cuda.synchronize()
        spans = sorted((e.time_range.start, e.time_range.end) for e in prof.events() if gpu_activity(e))
    except Exception as e:  # noqa: BLE001 (a profiler failure only loses this figure)
        return None, "the profiler failed: %s" % e
    if not spans:
        return None, "the profiler recorded no GPU activity (CUPTI unavailable?)"
    return busy_union(spans) / steps / 1000.0, None  # time_range is in microseconds


def gpu_activity(e):
    """A kernel, copy or set on the GPU: a CUDA event that is not a user annotation (Kineto also puts ranges such
    as "Optimizer.step#AdamW.step" on the GPU's timeline; they span idle gaps)."""
    if not str(getattr(e, "device_type", "")).endswith("CUDA") or not e.time_range.end > e.time_range.start:
        return False
    if getattr(e, "is_user_annotation", False):
        return False
    name = getattr(e, "name", "") or ""
    return not (name.startswith("Optimizer.") or name.startswith("ProfilerStep") or "#" in name)


def busy_union(spans):
    """The length of the union of (start, end) intervals (overlapping kernels on several streams count once)."""
    busy, begin, end = 0.0, None, None
    for s, e in sorted(spans):
        if begin is None or s > end:
            if begin is not None:
                busy += end - begin
            begin, end = s, e
        else:
            end = max(end, e)
    return busy + (end - begin if begin is not None else 0.0)


def host_op_us(torch, device, n=20000):
    """PyTorch's dispatch time on this host: x.add_(1.0) on 16 floats, microseconds per op (the GPU's work
    per op is far shorter than the host's, so the loop times the host)."""
    x = torch.zeros(16, device=device)
    for _ in range(1000):
        x.add_(1.0)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        x.add_(1.0)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / n * 1e6


NUMBER_LINE = re.compile(r"gpufrontier:\s*samples_per_s\s*=\s*([0-9.eE+-]+)")


def measure_user_command(command, seconds, sampler=None):
    """Runs the user's command for `seconds` and returns (samples/s over the node, note, (first, last) time
    of the reports it printed); `sampler` (UtilizationSampler) runs while it does."""
    fd, path = tempfile.mkstemp(prefix="gf-samples-")
    os.close(fd)
    child_env = dict(os.environ, GF_SAMPLES_PER_S_FILE=path)
    last = None
    reported = []
    start = time.time()
    proc = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=child_env, start_new_session=True)
    if sampler:
        sampler.start()
    try:
        deadline = start + seconds
        import selectors
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        while time.time() < deadline and proc.poll() is None:
            for _key, _ in sel.select(timeout=1.0):
                line = proc.stdout.readline()
                if line:
                    sys.stdout.write(line)
                    m = NUMBER_LINE.search(line)
                    if m:
                        last = float(m.group(1))
                        reported.append(time.time())
    finally:
        if sampler:
            sampler.stop()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        rest = proc.stdout.read() if proc.stdout else ""
        for line in rest.splitlines():
            m = NUMBER_LINE.search(line)
            if m:
                last = float(m.group(1))
    try:
        numbers = re.findall(r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?", open(path).read())
        if numbers:
            last = float(numbers[-1])
    finally:
        os.unlink(path)
    elapsed = time.time() - start
    window = (reported[0], reported[-1]) if len(reported) >= 2 else None
    if last is None or not last > 0:
        return None, "the command reported no samples/s within %.0f s" % elapsed, window
    return last, "user command, %.0f s" % elapsed, window


def synthetic_model(torch, workload, batch, flops_per_sample, device=None, checkpointing=False):
    nn = torch.nn

    def encoder(width, heads, ff, layers, causal=False):
        layer = nn.TransformerEncoderLayer(width, heads, ff, batch_first=True, norm_first=True, dropout=0.0)
        return nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    if workload == "resnet50":
        try:
            import torchvision
            model = torchvision.models.resnet50()
        except ImportError:
            model = resnet50(nn)
        return model, lambda: torch.randn(batch, 3, 224, 224), lambda out: out.float().logsumexp(1).mean()
    if workload == "bert-large-squad":
        model = encoder(1024, 16, 4096, 24)
        return model, lambda: torch.randn(batch, 384, 1024), lambda out: out.float().pow(2).mean()
    if workload == "vit-b16":
        class Vit(nn.Module):
            def __init__(self):
                super().__init__()
                self.patch = nn.Conv2d(3, 768, 16, 16)
                self.body = encoder(768, 12, 3072, 12)
                self.head = nn.Linear(768, 1000)

            def forward(self, x):
                x = self.patch(x).flatten(2).transpose(1, 2)
                x = torch.cat([x.mean(1, keepdim=True), x], 1)
                return self.head(self.body(x)[:, 0])
        return Vit(), lambda: torch.randn(batch, 3, 224, 224), lambda out: out.float().logsumexp(1).mean()
    if workload == "gpt2-124m":
        class Gpt(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(50257, 768)
                self.body = encoder(768, 12, 3072, 12)
                self.head = nn.Linear(768, 50257, bias=False)
                self.mask = None

            def forward(self, x):
                if self.mask is None or self.mask.size(0) != x.size(1):
                    self.mask = nn.Transformer.generate_square_subsequent_mask(x.size(1), device=x.device)
                return self.head(self.body(self.emb(x), mask=self.mask, is_causal=True))
        return (Gpt(), lambda: torch.randint(0, 50257, (batch, 1024)),
                lambda out: out.float().logsumexp(-1).mean())
    if workload == "llm7b-lora":
        # Built on the GPU in bf16 directly: 6.7B frozen parameters would take 27 GB of host memory and
        # minutes of initialisation in fp32 on the CPU.
        kw = {"device": device, "dtype": torch.bfloat16}

        class LoraLinear(nn.Module):
            def __init__(self, n_in, n_out, rank=16):
                super().__init__()
                self.base = nn.Linear(n_in, n_out, bias=False, **kw)
                self.base.weight.requires_grad_(False)
                self.a = nn.Linear(n_in, rank, bias=False, **kw)
                self.b = nn.Linear(rank, n_out, bias=False, **kw)

            def forward(self, x):
                return self.base(x) + self.b(self.a(x))

        class Block(nn.Module):
            """A LLaMA-2-7B decoder layer: q, k, v, o and the SwiGLU gate, up and down projections, every
            one frozen with a rank-16 adapter (the preset's 39,976,960 trainable parameters over 32 layers)."""

            def __init__(self):
                super().__init__()
                self.n1 = nn.LayerNorm(4096, **kw)
                self.q, self.k, self.v, self.o = (LoraLinear(4096, 4096) for _ in range(4))
                self.n2 = nn.LayerNorm(4096, **kw)
                self.gate = LoraLinear(4096, 11008)
                self.up = LoraLinear(4096, 11008)
                self.down = LoraLinear(11008, 4096)
                for p in (*self.n1.parameters(), *self.n2.parameters()):
                    p.requires_grad_(False)

            def forward(self, x):
                b, s, _ = x.shape
                h = self.n1(x)
                q, k, v = (proj(h).view(b, s, 32, 128).transpose(1, 2) for proj in (self.q, self.k, self.v))
                a = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
                x = x + self.o(a.transpose(1, 2).reshape(b, s, 4096))
                h = self.n2(x)
                return x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h))

        class Stack(nn.Module):
            """The 32 blocks; with checkpointing (the preset's setting) each block's activations are
            recomputed in the backward pass, as the preset's recompute FLOPs assume."""

            def __init__(self, checkpointing):
                super().__init__()
                self.blocks = nn.ModuleList([Block() for _ in range(32)])
                self.checkpointing = checkpointing

            def forward(self, x):
                for block in self.blocks:
                    if self.checkpointing and x.requires_grad:
                        x = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
                    else:
                        x = block(x)
                return x

        def lora_input():
            # Requires grad so that checkpointed blocks keep a graph although every base weight is frozen.
            return torch.randn(batch, 512, 4096, device=device, dtype=torch.bfloat16).requires_grad_(True)

        return Stack(checkpointing), lora_input, lambda out: out.float().pow(2).mean()
    # Any other workload: 4096-wide linear layers, 6 x 8 x 4096^2 FLOPs per token, as many tokens as
    # the workload's FLOPs per sample need.
    tokens = max(1, min(4096, round(flops_per_sample / (6 * 8 * 4096 * 4096)))) if flops_per_sample > 0 else 256
    model = nn.Sequential(*[nn.Linear(4096, 4096) for _ in range(8)])
    return model, lambda: torch.randn(batch, tokens, 4096), lambda out: out.float().pow(2).mean()


def resnet50(nn):
    class Bottleneck(nn.Module):
        def __init__(self, cin, width, stride):
            super().__init__()
            cout = width * 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
                nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
                nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.skip = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                         if stride != 1 or cin != cout else nn.Identity())
            self.relu = nn.ReLU(inplace=True)

        def forward(self, x):
            return self.relu(self.body(x) + self.skip(x))

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            layers.append(Bottleneck(cin, width, stride if i == 0 else 1))
            cin = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000)]
    return nn.Sequential(*layers)


def grad_scaler(torch, enabled):
    """torch.amp.GradScaler("cuda") where it exists (PyTorch 2.3+); torch.cuda.amp's before."""
    amp = getattr(torch, "amp", None)
    if amp is not None and hasattr(amp, "GradScaler"):
        try:
            return amp.GradScaler("cuda", enabled=enabled)
        except TypeError:
            pass
    return torch.cuda.amp.GradScaler(enabled=enabled)


def measure_synthetic(workload, seconds, batch, precision, flops_per_sample, checkpointing=False):
    try:
        import torch
        import torch.utils.checkpoint  # noqa: F401 (used by the LoRA stack)
    except ImportError:
        return None, "PyTorch is not installed", None, {}
    if not torch.cuda.is_available():
        return None, "no CUDA GPU visible to PyTorch", None, {}
    device = torch.device("cuda:0")
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(precision)
    if precision == "tf32":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    model, make_input, loss_of = synthetic_model(torch, workload, batch, flops_per_sample, device, checkpointing)
    model = model.to(device)
    if workload == "llm7b-lora":
        dtype = None  # the model is bf16 already; autocast would add nothing
    params = [p for p in model.parameters() if p.requires_grad]
    trainable = sum(p.numel() for p in params)
    opt = torch.optim.AdamW(params, lr=1e-4) if params else None
    scaler = grad_scaler(torch, dtype == torch.float16)
    x = make_input().to(device)

    def step():
        with torch.autocast("cuda", dtype=dtype or torch.float32, enabled=dtype is not None):
            loss = loss_of(model(x))
        scaler.scale(loss).backward()
        if opt:
            scaler.step(opt)
            scaler.update()
            opt.zero_grad(set_to_none=True)
        if x.grad is not None:
            x.grad = None

    for _ in range(5):
        step()
    torch.cuda.synchronize()
    sampler = UtilizationSampler(visible_gpu_indices(1)).start()
    steps = 0
    start = time.time()
    while time.time() - start < seconds:
        step()
        steps += 1
        if steps % 10 == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    elapsed = time.time() - start
    sampler.stop()
    peak_gb = torch.cuda.max_memory_allocated(device) / 1e9
    step_ms = elapsed / steps * 1000.0
    extra = {"step_ms": step_ms}
    utilization = sampler.mean()
    if utilization is not None:
        extra["gpu_utilization_pct"] = utilization
    busy_ms, why = profiled_gpu_ms(torch, step)
    if busy_ms is not None:
        extra.update(gpu_busy_ms_per_step=busy_ms, gpu_busy_fraction=min(1.0, busy_ms / step_ms),
                     gpu_busy_method="profiler")
    elif utilization is not None:
        extra.update(gpu_busy_fraction=min(1.0, utilization / 100.0), gpu_busy_method="nvidia-smi")
    if why:
        extra["busy_note"] = why
    if sampler.error:
        extra["busy_note"] = (extra.get("busy_note", "") + "; " + sampler.error).lstrip("; ")
    try:
        extra["host_op_us"] = host_op_us(torch, device)
    except Exception as e:  # noqa: BLE001 (a failed timing only loses this figure)
        extra["busy_note"] = (extra.get("busy_note", "") + "; host dispatch not timed: %s" % e).lstrip("; ")
    note = ("synthetic %s step, %d steps in %.1f s, batch %d, %s%s, %d trainable parameters, torch %s, "
            "peak %.1f GB allocated") % (workload, steps, elapsed, batch, precision,
                                         ", gradient checkpointing" if checkpointing else "", trainable,
                                         torch.__version__, peak_gb)
    return batch * steps / elapsed, note, torch.cuda.get_device_name(0), extra


def main():
    task = env("GF_PLAN_TASK", "gf-task")
    result_dir = env("GF_RESULT_DIR") or os.path.expanduser("~/gpufrontier-results")
    os.makedirs(result_dir, exist_ok=True)
    seconds = max(10, env_int("GF_MEASURE_SECONDS", 180))
    gpus_per_node = max(1, env_int("GF_GPUS_PER_NODE", 1))
    batch = max(1, env_int("GF_BATCH_PER_GPU", 32))
    precision = env("GF_PRECISION", "fp16")
    workload = env("GF_WORKLOAD")
    doc = {
        "schema": SCHEMA, "schema_version": 1, "task": task, "workload": workload,
        "gpu_id": env("GF_GPU_ID"), "accelerator": env("GF_ACCELERATOR"),
        "offer": {"id": env("GF_OFFER_ID"), "key": env("GF_OFFER_KEY"), "provider": env("GF_PROVIDER"),
                  "instance_type": env("GF_INSTANCE_TYPE"), "region": env("GF_REGION"), "zone": env("GF_ZONE"),
                  "spot": env("GF_SPOT") == "1"},
        "batch_per_gpu": batch, "precision": precision,
        "projected_samples_per_s": float(env("GF_PROJECTED_SAMPLES_PER_S") or 0) or None,
        "notes": [],
    }
    if env("GF_PROBE") == "1":
        probe, note = run_probe()
        doc["probe"] = probe
        if note:
            doc["notes"].append(note)
    command = env("GF_USER_CMD")
    device = None
    extra = {}
    if command:
        indices = visible_gpu_indices(gpus_per_node)
        device = nvidia_smi_name(indices[0])
        sampler = UtilizationSampler(indices)
        rate, note, window = measure_user_command(command, seconds, sampler)
        # Over the span the command reported its speed in (start-up and evaluation left out), else the later 80 %.
        utilization = sampler.mean(window=window)
        if utilization is not None:
            extra.update(gpu_utilization_pct=utilization, gpu_busy_fraction=min(1.0, utilization / 100.0),
                         gpu_busy_method="nvidia-smi", gpu_utilization_samples=len(sampler.kept(window=window)))
        if sampler.error:  # none at all, or it stopped part way (the mean is of the samples before)
            extra["busy_note"] = sampler.error
        doc["method"] = "user-command"
        gpu_count = gpus_per_node
    else:
        # The presets' own setting (resources/workloads.json: only the 7B LoRA preset checkpoints);
        # GF_GRADIENT_CHECKPOINTING=0/1 overrides it.
        checkpointing = env("GF_GRADIENT_CHECKPOINTING", "1" if workload == "llm7b-lora" else "0") == "1"
        rate, note, device, extra = measure_synthetic(workload, seconds, batch, precision,
                                                      float(env("GF_FLOPS_PER_SAMPLE") or 0), checkpointing)
        doc["method"] = "synthetic"
        gpu_count = 1
    doc["notes"].append(note)
    if "busy_note" in extra:
        doc["notes"].append(extra.pop("busy_note"))
    doc.update(extra)
    doc["device_name"] = device
    if not doc["accelerator"] and device:
        doc["accelerator"] = device  # lets the importer resolve the GPU when GF_GPU_ID is not set
    doc["gpu_count"] = gpu_count
    doc["samples_per_s"] = rate
    doc["samples_per_s_per_gpu"] = rate / gpu_count if rate else None
    doc["measured_seconds"] = seconds
    doc["measured_at"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    path = os.path.join(result_dir, task + ".json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
    print("GPUFRONTIER-MEASUREMENT " + json.dumps(doc, separators=(",", ":")), flush=True)
    print("gf_measure: wrote %s" % path, file=sys.stderr)
    return 0 if rate else 3


if __name__ == "__main__":
    sys.exit(main())
