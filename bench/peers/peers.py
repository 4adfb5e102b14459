#!/usr/bin/python3
"""pir against PyTorch eager on four training workloads, from the same data and initial
weights: the small CNN (cnn.pir), a transformer encoder layer (transformer.pir), four pre-LN
residual blocks (ln_blocks.pir) and the MLP (mlp.pir), each one SGD step per batch with
`autodiff`, 16 batches per run. Three more kinds run when named in --models: an
embedding-bag classifier (embedding.pir: a gather from a large table and its scatter-add
gradient), an unrolled Elman RNN (rnn.pir: many small ops) and a small residual conv net
with group_norm and a strided conv (resnet.pir).

1. Writes each model's batches and initial weights as NPY files into a temporary folder
   next to a copy of its .pir program (both peers load the same files).
2. Losses, step for step: pir's losses of steps 1..32 (two runs) against PyTorch's from
   the same start; a step passes when |pir - torch| <= RTOL * max(1, |torch|).
3. Speed, per round (default 5) and within each round per thread count T (default 1 and
   2; the peers, and the thread counts within each peer, alternate their order from round
   to round, so a slow phase of the machine falls on every figure it compares): pir
   steps/s from two whole processes, 16 * (R2 - R1) steps over T(`run R2`) - T(`run R1`),
   so start-up, parse, NPY loads and compile cancel (R2 is raised per model until that
   difference takes about --min-seconds at one thread), with OPENBLAS_NUM_THREADS=T
   (pir's kernel threads). PyTorch in a child process per configuration,
   torch.set_num_threads(n) and its OpenBLAS at n threads for every n up to the largest
   T, with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE removed from its environment so that it
   runs its native kernels, each vector ISA its ATen kernels are built for and this CPU
   runs (ATEN_CPU_CAPABILITY: Debian's build picks AVX2 on an AVX-512 machine, where its
   AVX-512 kernels run the transformer about 5% faster and the CNN about 10% slower),
   and glibc's malloc set to keep freed memory
   (TORCH_MALLOC_TUNED; --torch-malloc default leaves glibc's defaults, under which
   PyTorch's steps took up to 2x as long here); at T threads its best configuration
   (n <= T threads and an ISA, highest median) is the peer. Wall: steps per second; CPU: steps per CPU
   second (user + system, all threads). The ratio pir / torch is taken per round; the
   median of the rounds is reported, and for each T past the first, the quotient of a
   round's ratio at T over its ratio at the first T, per round and its median.

usage: peers.py [--pir PATH] [--models cnn,transformer,ln_blocks,mlp(,embedding,rnn,resnet)] [--threads 1,2]
                [--rounds 5] [--runs 1,6] [--min-seconds 1.5] [--torch-malloc tuned|default]
                [--keep DIR] [--threads-bench PATH] [--losses-only]
PATH defaults to the build tree next to this script (../../build/repl/pir). Each
multi-threaded round also records the cross-core round trip (threads_bench, from the
same build), which on a virtual machine can change between rounds.
"""
import argparse
import ctypes
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS_PER_RUN = 16
RTOL = 2e-3  # f32, two implementations' summation orders, 32 SGD steps


# ---- data and initial weights (one RandomState per model) -------------------------------

def gen_data(model, np):
    rng = np.random.RandomState(0)
    f32 = np.float32
    n = lambda *s: rng.normal(size=s).astype(f32)
    if model == "cnn":
        return {"x": n(16, 32, 1, 28, 28), "y": rng.randint(0, 10, size=(16, 32)).astype(np.int32),
                "W1": n(8, 1, 3, 3) * f32(0.3), "b1": n(8, 1, 1) * f32(0.1),
                "W2": n(16, 8, 3, 3) * f32(0.1), "b2": n(16, 1, 1) * f32(0.1),
                "W3": n(784, 10) * f32(0.05), "b3": np.zeros(10, f32)}
    if model == "mlp":
        return {"x": n(16, 64, 784), "y": rng.randint(0, 10, size=(16, 64)).astype(np.int32),
                "W1": n(784, 256) * f32(0.05), "b1": np.zeros(256, f32),
                "W2": n(256, 10) * f32(0.05), "b2": np.zeros(10, f32)}
    if model == "transformer":
        d = {"x": n(16, 512, 128), "t": n(16, 512, 128)}
        for w in ("Wq", "Wk", "Wv", "Wo"):
            d[w] = n(128, 128) * f32(128 ** -0.5)
            d["b" + w[1]] = n(128) * f32(0.02)
        d.update({"W1": n(128, 512) * f32(128 ** -0.5), "b1": n(512) * f32(0.02),
                  "W2": n(512, 128) * f32(512 ** -0.5), "b2": n(128) * f32(0.02),
                  "g1": 1 + n(128) * f32(0.1), "be1": n(128) * f32(0.1),
                  "g2": 1 + n(128) * f32(0.1), "be2": n(128) * f32(0.1)})
        return d
    if model == "ln_blocks":
        d = {"x": n(16, 16, 1024), "t": n(16, 16, 1024)}
        for i in range(1, 5):
            d.update({"g%d" % i: 1 + n(1024) * f32(0.1), "be%d" % i: n(1024) * f32(0.1),
                      "W%d" % i: n(1024, 1024) * f32(0.5 / 32), "b%d" % i: n(1024) * f32(0.02)})
        return d
    if model == "embedding":
        return {"x": rng.randint(0, 8000, size=(16, 64, 32)).astype(np.int32),
                "y": rng.randint(0, 10, size=(16, 64)).astype(np.int32),
                "E": n(8000, 64) * f32(0.5), "W1": n(64, 128) * f32(64 ** -0.5), "b1": np.zeros(128, f32),
                "W2": n(128, 10) * f32(128 ** -0.5), "b2": np.zeros(10, f32)}
    if model == "rnn":
        return {"x": n(16, 16, 32, 64), "t": n(16, 32, 128),
                "Wx": n(64, 128) * f32(64 ** -0.5), "Wh": n(128, 128) * f32(128 ** -0.5), "b": n(128) * f32(0.02)}
    if model == "resnet":
        return {"x": n(16, 16, 8, 32, 32), "y": rng.randint(0, 10, size=(16, 16)).astype(np.int32),
                "W1": n(16, 8, 3, 3) * f32(0.2), "ga1": 1 + n(16) * f32(0.1), "be1": n(16) * f32(0.1),
                "W2": n(16, 16, 3, 3) * f32(0.1), "ga2": 1 + n(16) * f32(0.1), "be2": n(16) * f32(0.1),
                "W3": n(32, 16, 3, 3) * f32(0.1), "b3": n(32) * f32(0.1),
                "W4": n(32, 10) * f32(0.1), "b4": np.zeros(10, f32)}
    raise SystemExit("unknown model " + model)


# ---- the PyTorch peers (eager, the same ops) ---------------------------------------------

class TorchPeer:
    LR = {"cnn": 0.05, "mlp": 0.1, "transformer": 0.01, "ln_blocks": 0.01, "embedding": 0.1, "rnn": 0.05,
          "resnet": 0.05}

    def __init__(self, model, data, torch):
        self.model, self.torch = model, torch
        self.F = torch.nn.functional
        self.x = torch.tensor(data["x"])
        tgt = data["y"] if "y" in data else data["t"]
        self.target = torch.tensor(tgt).long() if tgt.dtype.kind == "i" else torch.tensor(tgt)
        self.p = {k: torch.tensor(v).requires_grad_() for k, v in data.items() if k not in ("x", "y", "t")}
        self.lr = self.LR[model]

    def loss(self, x, t):
        F, p, torch = self.F, self.p, self.torch
        if self.model == "cnn":
            h = F.max_pool2d(torch.relu(F.conv2d(x, p["W1"], p["b1"].view(-1), padding=1)), 2)
            h = F.max_pool2d(torch.relu(F.conv2d(h, p["W2"], p["b2"].view(-1), padding=1)), 2)
            return F.nll_loss(F.log_softmax(h.reshape(32, 784) @ p["W3"] + p["b3"], 1), t)
        if self.model == "mlp":
            prob = torch.softmax(torch.relu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"], 1)
            return F.nll_loss(torch.log(prob), t)
        if self.model == "transformer":
            def heads(v):
                return v.reshape(8, 64, 4, 32).transpose(1, 2)
            q, k, v = (heads(x @ p["W" + c] + p["b" + c]) for c in "qkv")
            a = torch.softmax((q @ k.transpose(-1, -2)) * 0.17677669529663687, -1) @ v
            a = a.transpose(1, 2).reshape(512, 128) @ p["Wo"] + p["bo"]
            h = F.layer_norm(x + a, (128,), p["g1"], p["be1"])
            f = F.gelu(h @ p["W1"] + p["b1"], approximate="tanh") @ p["W2"] + p["b2"]
            o = F.layer_norm(h + f, (128,), p["g2"], p["be2"])
            return ((o - t) ** 2).mean()
        if self.model == "ln_blocks":
            h = x
            for i in range(1, 5):
                n = F.layer_norm(h, (1024,), p["g%d" % i], p["be%d" % i])
                h = h + F.gelu(n @ p["W%d" % i] + p["b%d" % i], approximate="tanh")
            return ((h - t) ** 2).mean()
        if self.model == "embedding":
            h = torch.relu(F.embedding(x.long(), p["E"]).mean(1) @ p["W1"] + p["b1"])
            return F.nll_loss(F.log_softmax(h @ p["W2"] + p["b2"], 1), t)
        if self.model == "rnn":
            h = None
            for s in range(x.shape[0]):
                a = x[s] @ p["Wx"]
                if h is not None:
                    a = a + h @ p["Wh"]
                h = torch.tanh(a + p["b"])
            return ((h - t) ** 2).mean()
        if self.model == "resnet":
            r1 = torch.relu(F.group_norm(F.conv2d(x, p["W1"], padding=1), 4, p["ga1"], p["be1"]))
            r2 = torch.relu(F.group_norm(F.conv2d(r1, p["W2"], padding=1), 4, p["ga2"], p["be2"]) + r1)
            r3 = torch.relu(F.conv2d(r2, p["W3"], p["b3"], stride=2, padding=1))
            return F.nll_loss(F.log_softmax(r3.mean((2, 3)) @ p["W4"] + p["b4"], 1), t)

    def step(self, i):
        i %= STEPS_PER_RUN
        l = self.loss(self.x[i], self.target[i])
        l.backward()
        with self.torch.no_grad():
            for t in self.p.values():
                t -= self.lr * t.grad
                t.grad = None
        return float(l)


def loaded_openblas():
    """The libopenblas this process mapped (torch's), or None."""
    with open("/proc/self/maps") as f:
        for line in f:
            if "libopenblas" in line:
                return ctypes.CDLL(line.split()[-1])
    return None


def torch_worker(a):
    import numpy as np
    import torch
    torch.set_num_threads(a.torch_threads)
    blas = loaded_openblas()
    if blas is not None:
        blas.openblas_set_num_threads(a.torch_threads)
    data = {k[:-4]: np.load(os.path.join(a.dir, k)) for k in os.listdir(a.dir) if k.endswith(".npy")}
    peer = TorchPeer(a.worker, data, torch)
    out = {}
    if a.losses:
        out["losses"] = [peer.step(i) for i in range(a.losses)]
    else:
        for i in range(STEPS_PER_RUN):
            peer.step(i)
        f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        w0, c0 = time.perf_counter(), time.process_time()
        for i in range(a.steps):
            peer.step(i)
        out["wall"], out["cpu"] = time.perf_counter() - w0, time.process_time() - c0
        out["faults"] = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0
    print(json.dumps(out))


def torch_info():
    import torch
    info = {"torch": torch.__version__, "threads_default": torch.get_num_threads()}
    for getter in ("torch.backends.cpu.get_cpu_capability()", "torch._C._get_cpu_capability()"):
        try:
            info["cpu_capability"] = str(eval(getter))
            break
        except Exception:
            pass
    info["mkldnn"] = bool(torch.backends.mkldnn.is_available())
    blas = loaded_openblas()
    if blas is not None:
        blas.openblas_get_corename.restype = ctypes.c_char_p
        blas.openblas_get_config.restype = ctypes.c_char_p
        info["openblas_core"] = blas.openblas_get_corename().decode()
        info["openblas_config"] = blas.openblas_get_config().decode()
    try:
        import threadpoolctl
        info["threadpoolctl"] = threadpoolctl.threadpool_info()
    except ImportError:
        info["threadpoolctl"] = "not installed"
    cfg = torch.__config__.show()
    info["config"] = [l.strip() for l in cfg.splitlines() if re.search(r"BLAS|CPU capability|MKL|LAPACK|OpenMP", l)]
    print(json.dumps(info))


# ---- the driver ---------------------------------------------------------------------------

def native_env():
    e = dict(os.environ)
    e.pop("OPENBLAS_CORETYPE", None)
    e.pop("OPENBLAS_L2_SIZE", None)
    return e


# glibc's malloc as PyTorch runs best with it here: with its defaults, a block of 128 KB
# or more is mapped and unmapped around each use, and the threshold that moves it onto
# the heap rises only after such a free, while the heap's top is given back to the
# system whenever twice the threshold lies free there; so a step's tensors took fresh
# pages again and again (the MLP: 320,000 page faults and 555 steps/s in 800 steps,
# against 35,000 and 1,090-1,225 with these settings; LN blocks 32-39 against 66-67
# steps/s; the CNN in some processes but not others, 193 against 291-319). A fixed
# threshold of 32 MB (glibc's largest) and a trim threshold of 1 GB keep freed memory
# for the next step, as jemalloc or tcmalloc would (PyTorch's CPU tuning guide
# recommends one of those; mimalloc preloaded measured the same as these settings).
TORCH_MALLOC_TUNED = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824"


def with_torch_malloc(env):
    """env with TORCH_MALLOC_TUNED added to any GLIBC_TUNABLES it already holds."""
    e = dict(env)
    e["GLIBC_TUNABLES"] = ":".join(v for v in (e.get("GLIBC_TUNABLES"), TORCH_MALLOC_TUNED) if v)
    return e


def torch_env(malloc):
    return with_torch_malloc(native_env()) if malloc == "tuned" else native_env()


# ATEN_CPU_CAPABILITY values to try besides PyTorch's own choice; PyTorch falls back to
# what the CPU and its build support, so each is kept only if it names an ISA that none
# before it did.
ATEN_CAPABILITIES = ("avx512", "avx2")


def torch_capabilities(env):
    """[(label, env)] for PyTorch's default ISA and every other one it will run here, each
    ISA once; label is the capability PyTorch reports for that environment."""
    out, seen = [], set()
    for cap in (None,) + ATEN_CAPABILITIES:
        e = dict(env)
        e.pop("ATEN_CPU_CAPABILITY", None)
        if cap:
            e["ATEN_CPU_CAPABILITY"] = cap
        info = json.loads(subprocess.run([sys.executable, __file__, "--info"], env=e, capture_output=True,
                                         text=True, check=True).stdout)
        used = next((l.split(":", 1)[1].strip() for l in info["config"] if "CPU capability" in l), cap or "default")
        if used not in seen:
            seen.add(used)
            out.append((used if cap else used + " (default)", e))
    return out


def child_cpu(cmd, env):
    """Runs cmd to completion: (wall s, the child's user + system CPU s, its stdout, its
    minor page faults)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit("%s exited %d:\n%s" % (" ".join(cmd), p.returncode, (out + err).decode()[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.decode(), after.ru_minflt - before.ru_minflt


CORE_PROBE = ("import numpy as np, time\n"
              "a = np.ones((160, 160), np.float32)\n"
              "t = time.perf_counter()\n"
              "for _ in range(3000): a @ a\n"
              "print(time.perf_counter() - t)\n")


def cores_delivered(n):
    """How many cores' worth of compute n copies of a one-thread load get at once: n times
    one copy's time alone over the slowest copy's time beside the others. Well below n,
    the machine did not give that round's multi-threaded runs n free cores."""
    env = dict(native_env(), OPENBLAS_NUM_THREADS="1")
    run = lambda k: [subprocess.Popen([sys.executable, "-c", CORE_PROBE], env=env, stdout=subprocess.PIPE) for _ in range(k)]
    alone = float(run(1)[0].communicate()[0])
    together = max(float(p.communicate()[0]) for p in run(n))
    return n * alone / together


def cross_core_ns(threads_bench):
    """The cache-line round trip between two threads' cores now (threads_bench's
    BM_CrossCoreRoundTrip), in ns; None without the benchmark. On a virtual machine it
    follows where the host runs the vCPUs, and every split of pir's pays it."""
    if not os.path.exists(threads_bench):
        return None
    out = subprocess.run([threads_bench, "--benchmark_filter=BM_CrossCoreRoundTrip", "--benchmark_format=json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)["benchmarks"][0]["round_trip_ns"]


def pir_program(d, model, session):
    text = open(os.path.join(HERE, model + ".pir")).read()
    text, n = re.subn(r"^run 1\nprint \$loss\n", session, text, flags=re.M)
    assert n == 1, model
    path = os.path.join(d, "%s_%d.pir" % (model, abs(hash(session)) % 10 ** 8))
    with open(path, "w") as f:
        f.write(text)
    return path


def pir_losses(out):
    found = re.findall(r"\$loss: f32\[16\] = \[([^\]]*)\]", out)
    assert found, out
    return [float(v) for run in found for v in run.split(",")]


def torch_cmd(model, d, threads, extra):
    return [sys.executable, os.path.abspath(__file__), "--worker", model, "--dir", d,
            "--torch-threads", str(threads)] + extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pir", default=os.path.join(HERE, "..", "..", "build", "repl", "pir"))
    ap.add_argument("--threads-bench", help="bench/threads_bench, for the cross-core round trip of each round "
                    "(default: beside --pir's build)")
    ap.add_argument("--models", default="cnn,transformer,ln_blocks,mlp")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", default="1,6", help="R1,R2: pir's steps/s from `run R1` and `run R2` (R2 at least)")
    ap.add_argument("--min-seconds", type=float, default=1.5,
                    help="raise R2 per model until pir's timed difference takes about this long at one thread")
    ap.add_argument("--losses-only", action="store_true",
                    help="check the losses step for step and stop (exit 1 if any differs, 77 without PyTorch)")
    ap.add_argument("--torch-malloc", choices=("tuned", "default"), default="tuned",
                    help="PyTorch's glibc malloc: tuned (TORCH_MALLOC_TUNED, its best here) or glibc's defaults")
    ap.add_argument("--keep", help="write the programs and data here instead of a temporary folder")
    ap.add_argument("--worker")
    ap.add_argument("--info", action="store_true")
    ap.add_argument("--dir")
    ap.add_argument("--torch-threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=0)
    ap.add_argument("--losses", type=int, default=0)
    a = ap.parse_args()
    if a.worker:
        return torch_worker(a)
    if a.info:
        return torch_info()

    import numpy as np
    if a.losses_only and subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode != 0:
        print("PyTorch is not installed (python3-torch): skipped")
        return 77
    pir = os.path.abspath(a.pir)
    threads_bench = a.threads_bench or os.path.join(os.path.dirname(os.path.dirname(pir)), "bench", "threads_bench")
    r1, r2 = (int(v) for v in a.runs.split(","))
    models = a.models.split(",")
    root = a.keep or tempfile.mkdtemp(prefix="pir_peers_")
    env_torch = torch_env(a.torch_malloc)
    print("CPU:", next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
          "| cores:", os.cpu_count(), "| load average at start:", open("/proc/loadavg").read().split()[0])
    print("torch malloc:", a.torch_malloc, "(GLIBC_TUNABLES=%s)" % env_torch.get("GLIBC_TUNABLES", ""))
    print("torch (native kernels):", subprocess.run([sys.executable, __file__, "--info"], env=env_torch,
                                                     capture_output=True, text=True, check=True).stdout.strip())
    dirs, progs, runs = {}, {}, {}
    failed = False
    for m in models:
        d = dirs[m] = os.path.join(root, m)
        os.makedirs(d, exist_ok=True)
        for k, v in gen_data(m, np).items():
            np.save(os.path.join(d, k + ".npy"), v)
        check = pir_program(d, m, "run 1\nprint $loss\nrun 1\nprint $loss\n")
        # Runs enough for pir's timed difference to last about --min-seconds at one thread:
        # a 30 ms difference (the MLP's 80 steps) is within this machine's start-up noise.
        env1 = dict(os.environ, OPENBLAS_NUM_THREADS="1")
        if not a.losses_only:
            program = lambda r: pir_program(d, m, "run %d\nprint $loss\n" % r)
            per_run = max(1e-4, (child_cpu([pir, "run", program(r2)], env1)[0] - child_cpu([pir, "run", program(r1)], env1)[0]) / (r2 - r1))
            runs[m] = max(r2, r1 + math.ceil(a.min_seconds / per_run))
            progs[m] = {r: program(r) for r in (r1, runs[m])}
        pl = pir_losses(child_cpu([pir, "run", check], env1)[2])
        tl = json.loads(child_cpu(torch_cmd(m, d, 1, ["--losses", str(len(pl))]), env_torch)[2])["losses"]
        diffs = [abs(p - t) / max(1.0, abs(t)) for p, t in zip(pl, tl)]
        ok = max(diffs) <= RTOL
        failed = failed or not ok
        print("%-12s losses steps 1..%d: %s (max |pir - torch| / max(1, |torch|) = %.2e, tolerance %.0e; "
              "first %.5f / %.5f, last %.5f / %.5f)" % (m, len(pl), "equal" if ok else "DIFFER", max(diffs), RTOL,
                                                         pl[0], tl[0], pl[-1], tl[-1]), flush=True)

    if a.losses_only:
        if not a.keep:
            shutil.rmtree(root)
        return 1 if failed else 0

    # Every round measures every thread count of both peers, in an order that alternates
    # between rounds, so that a slow phase of the machine falls on all the figures it
    # compares rather than on one thread count's pass.
    threads = [int(v) for v in a.threads.split(",")]
    isas = torch_capabilities(env_torch)
    print("torch ISAs (ATEN_CPU_CAPABILITY):", ", ".join(label for label, _ in isas), flush=True)
    configs = [(n, i) for n in range(1, max(threads) + 1) for i in range(len(isas))]  # (threads, ISA)
    env_pir = {T: dict(os.environ, OPENBLAS_NUM_THREADS=str(T)) for T in threads}
    rows = {m: {**{("pir", T): [] for T in threads}, **{c: [] for c in configs}} for m in models}
    delivered, trips = [], []
    for rnd in range(a.rounds):
        if max(threads) > 1:
            delivered.append(cores_delivered(max(threads)))
            trips.append(cross_core_ns(threads_bench))
        for m in models:
            steps = STEPS_PER_RUN * (runs[m] - r1)

            def run_pir():
                for T in (threads if rnd % 2 == 0 else threads[::-1]):
                    w1, c1, _, f1 = child_cpu([pir, "run", progs[m][r1]], env_pir[T])
                    w2, c2, _, f2 = child_cpu([pir, "run", progs[m][runs[m]]], env_pir[T])
                    rows[m][("pir", T)].append((steps / (w2 - w1), steps / max(c2 - c1, 1e-9), (f2 - f1) / steps))

            def run_torch():
                for c in (configs if rnd % 2 == 0 else configs[::-1]):
                    r = json.loads(child_cpu(torch_cmd(m, dirs[m], c[0], ["--steps", str(steps)]), isas[c[1]][1])[2])
                    rows[m][c].append((steps / r["wall"], steps / r["cpu"], r["faults"] / steps))
            for f in ((run_pir, run_torch) if rnd % 2 == 0 else (run_torch, run_pir)):
                f()

    summary = {}  # (model, T) -> (pir median steps/s, pir / torch median wall ratio, per-round wall ratios)
    for T in threads:
        for m in models:
            # PyTorch's best configuration at T threads: the highest median among
            # set_num_threads(n <= T) on each ISA.
            best = max((c for c in configs if c[0] <= T), key=lambda c: statistics.median(v[0] for v in rows[m][c]))
            pw = [v[0] for v in rows[m][("pir", T)]]
            pc = [v[1] for v in rows[m][("pir", T)]]
            tw = [v[0] for v in rows[m][best]]
            tc = [v[1] for v in rows[m][best]]
            rw = [p / t for p, t in zip(pw, tw)]
            rc = [p / t for p, t in zip(pc, tc)]
            summary[(m, T)] = (statistics.median(pw), statistics.median(rw), rw)
            print("threads=%d %-12s pir %8.1f steps/s  torch(best: set_num_threads(%d), %s) %8.1f steps/s  "
                  "pir/torch wall median %.2f (rounds %s)  CPU median %.2f\n"
                  "          steps/s per round: pir %s; torch %s; page faults per step (medians): pir %.1f, torch %.1f" % (
                      T, m, statistics.median(pw), best[0], isas[best[1]][0], statistics.median(tw), statistics.median(rw),
                      " ".join("%.2f" % r for r in rw), statistics.median(rc),
                      " ".join("%.0f" % v for v in pw), " ".join("%.0f" % v for v in tw),
                      statistics.median(v[2] for v in rows[m][("pir", T)]), statistics.median(v[2] for v in rows[m][best])),
                  flush=True)
            print("          torch medians, steps/s: %s" % "; ".join(
                "set_num_threads(%d) %s %.1f" % (c[0], isas[c[1]][0], statistics.median(v[0] for v in rows[m][c]))
                for c in configs if c[0] <= T), flush=True)
    if delivered:
        print("the machine delivered %s cores to %d one-thread loads at the start of each round"
              % (" ".join("%.2f" % d for d in delivered), max(threads)), flush=True)
        print("cross-core round trip at the start of each round (ns): %s" % (
            " ".join("?" if t is None else "%.0f" % t for t in trips)), flush=True)
    for T in threads[1:]:
        for m in models:
            (p1, r1_, rw1), (pT, rT, rwT) = summary[(m, threads[0])], summary[(m, T)]
            # The round's T-thread ratio over its own first-thread-count ratio: both from the same round.
            per_round = [x / y for x, y in zip(rwT, rw1)]
            print("%-12s pir(%d) / pir(%d) %.2f   pir / torch at %d threads %.2f, at %d %.2f; "
                  "their quotient per round %s (median %.2f)" % (
                      m, T, threads[0], pT / p1, T, rT, threads[0], r1_,
                      " ".join("%.2f" % q for q in per_round), statistics.median(per_round)))
    print("load average at end:", open("/proc/loadavg").read().split()[0])
    if not a.keep:
        shutil.rmtree(root)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
