#!/usr/bin/env python3
"""The parts of tools/gpu/gpu_fp8.sh that make inputs and measure errors, and its summary.

  gpu_fp8.py DIR GEMMTOP BACKEND SIZES KS TF32_SIZES
      torch._scaled_mm (cuBLASLt FP8, e4m3 per-tensor) timed at SIZES; the promotion
      ablation at 4096 x 4096 x K for K in KS; 3xTF32's switches at TF32_SIZES beside cuBLAS
      SGEMM. gemmtop runs on .npy files that this script writes (--a, --b, --a-scale,
      --b-scale) and writes C back (--out); errors are max and median of |C - C64| / (|A||B|)
      over all of C, C64 in float64. Records go to DIR/torch.jsonl, one JSON object a line.
  gpu_fp8.py --summary DIR
      the short table of everything gpu_fp8.sh wrote into DIR.

PyTorch (on the GPU) makes the inputs and the float64 products. Without it (a stand-in run
on a machine with no GPU) the same steps run in plain Python at small sizes, so that paths
and parsing are tried; torch._scaled_mm is then recorded as not available. No numpy needed.
"""
import ctypes
import glob
import json
import math
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import time

try:
    import torch

    HAVE_TORCH = torch.cuda.is_available()
except Exception:  # noqa: BLE001 - any import failure means: no torch here
    torch = None
    HAVE_TORCH = False

# 3xTF32: hopper-5-order with each switch (docs/lesson-hopper.md); tf32, and gemmtop's own FP32
# kernels (CUDA cores; the second where the first's dynamic shared memory is not given), for scale
H5 = ["--preset", "hopper-5-order"]
TF32_CONFIGS = [
    ("3xTF32 preset (BN=256)", H5),
    ("3xTF32 BN=128", H5 + ["--set", "BN=128"]),
    ("3xTF32 LO=1", H5 + ["--set", "BN=128", "--set", "LO=1"]),
    ("3xTF32 SMALL=1", H5 + ["--set", "BN=128", "--set", "SMALL=1"]),
    ("3xTF32 PROMO=1", H5 + ["--set", "BN=128", "--set", "PROMO=1"]),
    ("3xTF32 PROMO=4", H5 + ["--set", "BN=128", "--set", "PROMO=4"]),
    ("3xTF32 ORDER=1", H5 + ["--set", "BN=128", "--set", "ORDER=1"]),
    ("3xTF32 LO+SMALL+PROMO=2", H5 + ["--set", "BN=128", "--set", "LO=1", "--set", "SMALL=1", "--set", "PROMO=2"]),
    ("tf32 (rounds to nearest, ties away)", ["--preset", "hopper-5-order-tf32"]),
    ("FP32 fast-02-warptile-cuda", ["--preset", "fast-02-warptile-cuda", "--layout", "NT"]),
    ("FP32 fast-02-warptile", ["--preset", "fast-02-warptile", "--layout", "NT"]),
]
# The promotion ablation: step 3 (per-tensor scales) promoted every 1, 2 and 4 k-blocks and never
STEP3_T = ["--preset", "hopper-fp8-3-persistent", "--scaling", "tensor"]
ABLATION_CONFIGS = [
    ("wgmma step 3 PROMOTE=1 (every 128)", STEP3_T + ["--set", "PROMOTE=1"]),
    ("wgmma step 3 PROMOTE=2 (every 256)", STEP3_T + ["--set", "PROMOTE=2"]),
    ("wgmma step 3 PROMOTE=4 (every 512)", STEP3_T + ["--set", "PROMOTE=4"]),
    ("wgmma step 3 PROMOTE=0 (never)", STEP3_T + ["--set", "PROMOTE=0"]),
    ("wgmma step 3 OVERLAP=1 (every 128)", STEP3_T + ["--set", "OVERLAP=1"]),
]
# The parts measure() runs (PARTS, words): torch._scaled_mm's timing, 3xTF32, the ablation;
# without scaled_mm the ablation leaves torch._scaled_mm's errors out too
PARTS = set(os.environ.get("PARTS", "scaled_mm 3xtf32 ablation").split())
ABLATION_M = int(os.environ.get("ABLATION_M", "4096"))
PLAIN_MAX = 256  # plain Python (no torch) handles sizes up to this


# ---- .npy files, without numpy ------------------------------------------------------------
def npy_write(path, shape, descr, data):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % s for s in shape) if len(shape) == 1 else ", ".join(str(s) for s in shape))
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(data)


def npy_read(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:6] != b"\x93NUMPY":
        raise ValueError("%s is not a .npy file" % path)
    major = raw[6]
    if major == 1:
        hlen, start = struct.unpack("<H", raw[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", raw[8:12])[0], 12
    header = raw[start:start + hlen].decode("latin1")
    descr = re.search(r"'descr': *'([^']*)'", header).group(1)
    shape = tuple(int(x) for x in re.search(r"'shape': *\(([^)]*)\)", header).group(1).replace(",", " ").split())
    return shape, descr, raw[start + hlen:]


def tensor_bytes(t):
    t = t.contiguous().cpu()
    return ctypes.string_at(t.data_ptr(), t.numel() * t.element_size())


# ---- FP8 e4m3 in plain Python (the stand-in; PyTorch does it on the GPU) -------------------
def e4m3_encode(x):
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if a >= 448.0:
        return sign | 0x7E
    e = max(math.frexp(a)[1] - 1, -6) if a > 0 else -6
    step = 2.0 ** (e - 3)
    q = round(a / step) * step  # round() is round-half-even
    if q == 0:
        return sign
    e2 = math.frexp(q)[1] - 1
    if e2 < -6:
        return sign | int(q / 2.0 ** -9)
    return sign | ((e2 + 7) << 3) | (int(q / 2.0 ** (e2 - 3)) - 8)


def e4m3_decode(b):
    s = -1.0 if b & 0x80 else 1.0
    e, m = (b >> 3) & 0xF, b & 7
    return s * (m * 2.0 ** -9 if e == 0 else (1 + m / 8.0) * 2.0 ** (e - 7))


# ---- errors --------------------------------------------------------------------------------
def errors_plain(A, B, C, n, k, m):
    """A: m x k, B: n x k (rows), C: m x n, all lists of floats: max, median of |C - AB^T| / |A||B|^T."""
    e = []
    for i in range(m):
        for j in range(n):
            ref = sum(A[i][t] * B[j][t] for t in range(k))
            den = sum(abs(A[i][t] * B[j][t]) for t in range(k))
            e.append(abs(C[i * n + j] - ref) / den if den else 0.0)
    return max(e), statistics.median(e)


def errors_torch(A64, B64, C64):
    ref = A64 @ B64.T
    den = A64.abs() @ B64.abs().T
    e = ((C64 - ref).abs() / den).flatten()
    return float(e.max()), float(e.median())


# ---- gemmtop -------------------------------------------------------------------------------
class Gemmtop:
    def __init__(self, binary, backend, log):
        self.binary, self.backend, self.log = binary, backend.split(), log

    def run(self, args, timeout=40):
        cmd = [self.binary, "run"] + self.backend + args + ["--format", "json"]
        t0 = time.time()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            rc, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = 124, "", "timed out after %d s" % timeout
        self.log.write("$ %s\n(rc %d, %.1f s)\n%s%s\n" % (" ".join(cmd), rc, time.time() - t0, out[-4000:], err[-4000:]))
        self.log.flush()
        obj = None
        for line in out.splitlines():
            if line.startswith("{"):
                try:
                    obj = json.loads(line)
                except ValueError:
                    pass
        return rc, obj, err.strip().splitlines()[-1] if err.strip() else ""


HUNG = set(os.environ.get("HUNG", "").split())  # presets whose verification run never ended
TIMED_OUT = set()  # labels of configurations that ran past their limit here: not run again


def skip_why(label, select):
    """Why a configuration is not run now, or None."""
    if time.time() > float(os.environ.get("DEADLINE", "1e12")) - 5:
        return "the call's budget is spent"
    if label in TIMED_OUT:
        return "ran past its time limit at a smaller size"
    if any(a in HUNG for a in select):
        return "its preset's verification run never ended"
    return None


def out_of_time():
    """Past the call's budget (DEADLINE, seconds since the epoch, from gpu_fp8.sh) less 5 s."""
    return time.time() > float(os.environ.get("DEADLINE", "1e12")) - 5


class Records:
    def __init__(self, path):
        self.f = open(path, "a")

    def add(self, **kw):
        self.f.write(json.dumps(kw) + "\n")
        self.f.flush()


def read_c(path, m, n):
    shape, descr, data = npy_read(path)
    if shape != (m, n) or descr != "<f4":
        raise ValueError("%s: shape %s %s, wanted (%d, %d) <f4" % (path, shape, descr, m, n))
    if HAVE_TORCH:
        return torch.frombuffer(bytearray(data), dtype=torch.float32).reshape(m, n).cuda().double()
    return list(struct.unpack("<%df" % (m * n), data))


# ---- 3xTF32 against SGEMM ------------------------------------------------------------------
def tf32_check(g, rec, npy, sizes):
    for s in sizes:
        if not HAVE_TORCH and s > PLAIN_MAX:
            rec.add(part="3xtf32", size=s, skipped="no PyTorch here: plain Python takes sizes up to %d" % PLAIN_MAX)
            continue
        a_path, b_path = os.path.join(npy, "a%d.npy" % s), os.path.join(npy, "b%d.npy" % s)
        if HAVE_TORCH:
            gen = torch.Generator(device="cuda").manual_seed(43 + s)
            A = torch.randn(s, s, device="cuda", generator=gen, dtype=torch.float32)
            Bt = torch.randn(s, s, device="cuda", generator=gen, dtype=torch.float32)  # N x K: layout NT
            npy_write(a_path, (s, s), "<f4", tensor_bytes(A))
            npy_write(b_path, (s, s), "<f4", tensor_bytes(Bt))
            A64, B64 = A.double(), Bt.double()
            torch.backends.cuda.matmul.allow_tf32 = False
            for label, tf32 in (("cuBLAS SGEMM (torch, TF32 off)", False), ("cuBLAS TF32 (torch allow_tf32)", True)):
                torch.backends.cuda.matmul.allow_tf32 = tf32
                C = A @ Bt.T
                ms = time_cuda(lambda: A @ Bt.T)
                mx, md = errors_torch(A64, B64, C.double())
                rec.add(part="3xtf32", size=s, config=label, status="ok", tflops=2 * s ** 3 / ms / 1e9, max_err=mx,
                        median_err=md)
            torch.backends.cuda.matmul.allow_tf32 = False
        else:
            rnd = random.Random(43 + s)
            A = [[rnd.gauss(0, 1) for _ in range(s)] for _ in range(s)]
            Bt = [[rnd.gauss(0, 1) for _ in range(s)] for _ in range(s)]
            npy_write(a_path, (s, s), "<f4", struct.pack("<%df" % (s * s), *[x for r in A for x in r]))
            npy_write(b_path, (s, s), "<f4", struct.pack("<%df" % (s * s), *[x for r in Bt for x in r]))
            # the values as stored (float32)
            A = [list(struct.unpack("<%df" % s, struct.pack("<%df" % s, *r))) for r in A]
            Bt = [list(struct.unpack("<%df" % s, struct.pack("<%df" % s, *r))) for r in Bt]
            rec.add(part="3xtf32", size=s, config="cuBLAS SGEMM (torch, TF32 off)", status="not available",
                    why="no PyTorch on this machine")
        fp32_done = False
        for label, select in TF32_CONFIGS:
            why = skip_why(label, select)
            if label.startswith("FP32") and fp32_done:
                why = "gemmtop's FP32 row above ran"
            if why:
                rec.add(part="3xtf32", size=s, config=label, status="skipped", why=why)
                continue
            c_path = os.path.join(npy, "c.npy")
            if os.path.exists(c_path):
                os.remove(c_path)
            rc, obj, last = g.run(select + ["--size", str(s), "--a", a_path, "--b", b_path, "--out", c_path, "--reps", "5"])
            if rc in (124, -9):
                TIMED_OUT.add(label)
            r = dict(part="3xtf32", size=s, config=label, rc=rc, status=obj["status"] if obj else "no result",
                     message=(obj or {}).get("message", last), tflops=((obj or {}).get("gflops") or 0) / 1000,
                     max_rel_err=(obj or {}).get("max_rel_err"))
            fp32_done = fp32_done or (label.startswith("FP32") and rc == 0)
            if rc == 0 and os.path.exists(c_path):
                C = read_c(c_path, s, s)
                r["max_err"], r["median_err"] = errors_torch(A64, B64, C) if HAVE_TORCH else errors_plain(A, Bt, C, s, s, s)
            rec.add(**r)


# ---- the promotion ablation ----------------------------------------------------------------
def ablation(g, rec, npy, ks):
    m = ABLATION_M if HAVE_TORCH else min(ABLATION_M, 64)
    for k in ks:
        if not HAVE_TORCH and k > PLAIN_MAX:
            rec.add(part="ablation", k=k, skipped="no PyTorch here: plain Python takes K up to %d" % PLAIN_MAX)
            continue
        paths = {x: os.path.join(npy, "%s%d.npy" % (x, k)) for x in ("a8", "b8", "sa", "sb")}
        if HAVE_TORCH:
            gen = torch.Generator(device="cuda").manual_seed(4343 + k)
            a = torch.randn(m, k, device="cuda", generator=gen)
            b = torch.randn(m, k, device="cuda", generator=gen)  # N x K
            # per-tensor scales as users quantise: amax maps to e4m3's 448
            sa, sb = (a.abs().max() / 448.0).float(), (b.abs().max() / 448.0).float()
            a8, b8 = (a / sa).to(torch.float8_e4m3fn), (b / sb).to(torch.float8_e4m3fn)
            npy_write(paths["a8"], (m, k), "|u1", tensor_bytes(a8.view(torch.uint8)))
            npy_write(paths["b8"], (m, k), "|u1", tensor_bytes(b8.view(torch.uint8)))
            npy_write(paths["sa"], (1, 1), "<f4", struct.pack("<f", float(sa)))
            npy_write(paths["sb"], (1, 1), "<f4", struct.pack("<f", float(sb)))
            A64, B64 = a8.double() * float(sa), b8.double() * float(sb)
            for fast in (False, True) if "scaled_mm" in PARTS else ():
                label = "torch._scaled_mm FP32 out, use_fast_accum=%s" % fast
                try:
                    C = torch._scaled_mm(a8, b8.t(), scale_a=sa, scale_b=sb, out_dtype=torch.float32, use_fast_accum=fast)
                    mx, md = errors_torch(A64, B64, C.double())
                    rec.add(part="ablation", k=k, config=label, status="ok", max_err=mx, median_err=md)
                except Exception as e:  # noqa: BLE001 - record what PyTorch said, go on
                    rec.add(part="ablation", k=k, config=label, status="failed", message=str(e)[:300])
        else:
            rnd = random.Random(4343 + k)
            vals = {x: [rnd.gauss(0, 1) for _ in range(m * k)] for x in ("a", "b")}
            scale = {x: max(abs(v) for v in vals[x]) / 448.0 for x in vals}
            scale = {x: struct.unpack("<f", struct.pack("<f", s))[0] for x, s in scale.items()}
            q = {x: [e4m3_encode(v / scale[x]) for v in vals[x]] for x in vals}
            npy_write(paths["a8"], (m, k), "|u1", bytes(q["a"]))
            npy_write(paths["b8"], (m, k), "|u1", bytes(q["b"]))
            npy_write(paths["sa"], (1, 1), "<f4", struct.pack("<f", scale["a"]))
            npy_write(paths["sb"], (1, 1), "<f4", struct.pack("<f", scale["b"]))
            A = [[e4m3_decode(q["a"][i * k + t]) * scale["a"] for t in range(k)] for i in range(m)]
            Bt = [[e4m3_decode(q["b"][i * k + t]) * scale["b"] for t in range(k)] for i in range(m)]
            if "scaled_mm" in PARTS:
                rec.add(part="ablation", k=k, config="torch._scaled_mm", status="not available",
                        why="no PyTorch on this machine")
        for label, select in ABLATION_CONFIGS:
            why = skip_why(label, select)
            if why:
                rec.add(part="ablation", k=k, config=label, status="skipped", why=why)
                continue
            c_path = os.path.join(npy, "c.npy")
            base = select + ["-m", str(m), "-n", str(m), "-k", str(k), "--precision", "e4m3", "--a", paths["a8"],
                             "--a-scale", paths["sa"], "--b", paths["b8"], "--b-scale", paths["sb"], "--out", c_path,
                             "--reps", "5"]
            if os.path.exists(c_path):
                os.remove(c_path)
            rc, obj, last = g.run(base)
            if rc in (124, -9):
                TIMED_OUT.add(label)
            r = dict(part="ablation", k=k, config=label, rc=rc, status=obj["status"] if obj else "no result",
                     message=(obj or {}).get("message", last), tflops=((obj or {}).get("gflops") or 0) / 1000,
                     max_rel_err=(obj or {}).get("max_rel_err"), tolerance=(obj or {}).get("tolerance"))
            if not os.path.exists(c_path) and obj and obj.get("status") not in (None, "invalid"):
                # a result that failed verification is not written: its C, unverified, for the error
                g.run(base + ["--no-verify"])
            if os.path.exists(c_path):
                C = read_c(c_path, m, m)
                r["max_err"], r["median_err"] = errors_torch(A64, B64, C) if HAVE_TORCH else errors_plain(A, Bt, C, m, k, m)
            rec.add(**r)


# ---- torch._scaled_mm timed ----------------------------------------------------------------
def time_cuda(fn, warmup=5, reps=20):
    for _ in range(warmup):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def scaled_mm_timing(rec, sizes):
    if not HAVE_TORCH:
        rec.add(part="scaled_mm", status="not available", why="no PyTorch with CUDA on this machine")
        return
    rec.add(part="versions", torch=torch.__version__, cuda=torch.version.cuda, device=torch.cuda.get_device_name(0))
    for s in sizes:
        a = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)
        b = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)  # N x K, passed transposed (column-major)
        one = torch.ones((), device="cuda", dtype=torch.float32)
        for out, fast in ((torch.bfloat16, False), (torch.float32, False), (torch.bfloat16, True)):
            label = "torch._scaled_mm e4m3 tensor, %s out%s" % (str(out).split(".")[-1], ", fast accum" if fast else "")
            try:
                ms = time_cuda(lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=out,
                                                        use_fast_accum=fast))
                rec.add(part="scaled_mm", size=s, config=label, status="ok", tflops=2 * s ** 3 / ms / 1e9)
            except Exception as e:  # noqa: BLE001
                rec.add(part="scaled_mm", size=s, config=label, status="failed", message=str(e)[:300])


def measure(argv):
    d, binary, backend, sizes, ks, tf32_sizes = argv
    npy = os.path.join(d, "npy")
    os.makedirs(npy, exist_ok=True)
    rec = Records(os.path.join(d, "torch.jsonl"))
    rec.add(part="setup", torch=HAVE_TORCH)
    with open(os.path.join(d, "torch-runs.txt"), "a") as log:
        g = Gemmtop(binary, backend, log)
        for name, fn in (("scaled_mm", lambda: scaled_mm_timing(rec, [int(x) for x in sizes.split(",")])),
                         ("3xtf32", lambda: tf32_check(g, rec, npy, [int(x) for x in tf32_sizes.split()])),
                         ("ablation", lambda: ablation(g, rec, npy, [int(x) for x in ks.split()]))):
            if name not in PARTS:
                rec.add(part=name, status="skipped", why="not in PARTS (%s)" % " ".join(sorted(PARTS)))
                continue
            t0 = time.time()
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - one part's failure must not stop the others
                rec.add(part=name, status="script error", message="%s: %s" % (type(e).__name__, str(e)[:400]))
            print("%s: %.1f s" % (name, time.time() - t0), flush=True)


# ---- the summary ---------------------------------------------------------------------------
def jsonl(path):
    rows = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line.startswith("{"):
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    return rows


def fmt(x, f="%.1f"):
    return f % x if isinstance(x, (int, float)) and x else "-"


def summary(d):
    print("== hopper-fp8 (issue 43): %s" % " | ".join(l.strip() for l in open(os.path.join(d, "device.txt"))
                                                       if l.strip() and not l.startswith(("ladder", "  "))))
    print("\n-- build (inspect on the device): SASS instructions, registers, spills")
    for f in sorted(glob.glob(os.path.join(d, "inspect-hopper-fp8-*.txt"))):
        name = os.path.basename(f)[8:-4]
        text = open(f, errors="replace").read()
        regs = re.search(r"^registers +(\d+)", text, re.M)
        spills = re.search(r"^spills +(.*)$", text, re.M)
        err = "" if regs else " " + (text.strip().splitlines() or ["(empty)"])[-1][:100]
        counts = "" if name.endswith("e5m2") else "QGMMA %3d UTMALDG %2d UBLKCP %2d " % (
            text.count("QGMMA"), text.count("UTMALDG"), text.count("UBLKCP"))
        print("  %-34s %sregisters %s, %s%s" % (name, counts, regs.group(1) if regs else "?",
                                               spills.group(1) if spills else "spills ?", err))
    print("\n-- correctness at %s, alpha 0.75, beta 0.5 (beta 0: b0), a run each, every result verified" %
          os.environ.get("ODD", "the odd size"))
    cols = [(p, sc, b) for p in ("e4m3", "e5m2") for sc in ("tensor", "block") for b in ("0.5", "0")]
    rows = {}
    for f in glob.glob(os.path.join(d, "verify", "*.rc")):
        mt = re.match(r"(.*)-(e4m3|e5m2)-(tensor|block)-b([0-9.]+)\.rc$", os.path.basename(f))
        if mt:
            rows.setdefault(mt.group(1), {})[mt.group(2, 3, 4)] = f[:-3]
    used = [c for c in cols if any(c in r for r in rows.values())]
    print("  %-30s %s" % ("", " ".join("%-13s" % ("%s %s%s" % (p, sc, "" if b == "0.5" else " b0")) for p, sc, b in used)))
    notes = []
    for name in sorted(rows):
        cells = []
        for c in used:
            base = rows[name].get(c)
            if not base:
                cells.append("%-13s" % "")
                continue
            rc = open(base + ".rc").read().strip()
            obj = (jsonl(base + ".json") or [{}])[-1]
            st = obj.get("status", "no result")
            msg = obj.get("message") or (open(base + ".err", errors="replace").read().strip().splitlines() or [""])[-1]
            if rc in ("124", "137"):
                st = "NEVER ENDED"
            elif st == "invalid" and REFUSED_BY_DESIGN.search(msg):
                st = "refused (ok)"
            elif st != "ok":
                notes.append("%s %s: %s: %s" % (name, " ".join(c), st, msg[:150]))
            cells.append("%-13s" % st)
        print("  %-30s %s" % (name, " ".join(cells)))
    for n in notes[:12]:
        print("      " + n)
    if len(notes) > 12:
        print("      ... %d more in verify/*.json" % (len(notes) - 12))
    print("\n-- TFLOPS (bench --rounds, medians; % of the vendor where gemmtop has one)")
    for f in BENCH_FILES:
        rows = jsonl(os.path.join(d, f))
        if not rows:
            print("  %s: no results (see %s)" % (f, f[:-5] + ".txt"))
            continue
        if f == "sweep.json":
            rows = sorted(rows, key=lambda r: -(r.get("gflops") or 0))
            print("  sweep at %s, best first:" % rows[0].get("size"))
        for r in rows:
            pct = r.get("pct_of_vendor")
            print("  %-32s %-6s %-10s %9s %-8s %s %s" % (r["config"], r.get("precision"), r.get("size"),
                                                      fmt((r.get("gflops") or 0) / 1000), r.get("status"),
                                                      ("%.0f%% of %s" % (pct, r.get("vendor"))) if pct else "",
                                                      r.get("params", "")))
        vend = {}
        for r in rows:  # the vendor's figure, once per size (its failures are in the lines below)
            if r.get("vendor") and r.get("size") not in vend:
                vend[r.get("size")] = r
                print("  %-32s %-6s %-10s %9s" % (r["vendor"], r.get("precision"), r.get("size"),
                                                fmt((r.get("vendor_gflops") or 0) / 1000)))
        txt = os.path.join(d, f[:-5] + ".txt")
        for line in open(txt, errors="replace") if os.path.exists(txt) else ():
            if re.match(r"^\S.* at \d+: ", line):  # bench's line for each result that is not verified
                print("      " + line.strip()[:170])
    rows = jsonl(os.path.join(d, "torch.jsonl"))
    print("\n-- torch._scaled_mm (cuBLASLt through PyTorch), TFLOPS")
    for r in rows:
        if r.get("part") in ("scaled_mm", "versions"):
            print("  " + (("%-52s %6s %9s %s" % (r.get("config"), r.get("size"), fmt(r.get("tflops")),
                                                 r.get("message", "") or r.get("status")))
                          if r.get("part") == "scaled_mm" and r.get("config") else json.dumps(r)))
    print("\n-- promotion ablation: e4m3 per-tensor, |C - C_exact| / (|A||B|) against the exact FP8 product")
    for r in rows:
        if r.get("part") == "ablation":
            if r.get("skipped"):
                print("  K=%s skipped: %s" % (r["k"], r["skipped"]))
                continue
            print("  K=%-6s %-44s max %9s median %9s %7s TFLOPS %s %s" % (
                r["k"], r.get("config"), fmt(r.get("max_err"), "%.2e"), fmt(r.get("median_err"), "%.2e"),
                fmt(r.get("tflops")), r.get("status"), (r.get("message") or r.get("why") or "")[:70]))
    print("\n-- 3xTF32 against cuBLAS SGEMM: max / median of |C - C64| / (|A||B|), normal inputs, NT")
    sg = {r["size"]: r for r in rows if r.get("part") == "3xtf32" and str(r.get("config", "")).startswith("cuBLAS SGEMM")}
    for r in rows:
        if r.get("part") == "3xtf32":
            if "size" not in r:  # the part itself skipped (PARTS)
                print("  %s: %s" % (r.get("status"), r.get("why") or r.get("message") or ""))
                continue
            if r.get("skipped"):
                print("  %s skipped: %s" % (r["size"], r["skipped"]))
                continue
            ref = sg.get(r["size"], {})
            ratio = ""
            if r.get("max_err") and ref.get("max_err") and ref.get("median_err"):
                ratio = "(%.1fx, %.1fx SGEMM's)" % (r["max_err"] / ref["max_err"], r["median_err"] / ref["median_err"])
            speed = ""
            if r.get("tflops") and ref.get("tflops"):
                speed = "%.2fx SGEMM's speed" % (r["tflops"] / ref["tflops"])
            print("  %-5s %-38s %8s TFLOPS  max %9s median %9s %s %s %s" % (
                r["size"], r.get("config"), fmt(r.get("tflops")), fmt(r.get("max_err"), "%.2e"),
                fmt(r.get("median_err"), "%.2e"), ratio, speed,
                "" if r.get("status") == "ok" else "%s: %s" % (r.get("status"), (r.get("message") or r.get("why") or "")[:80])))
    for r in rows:
        if r.get("status") == "script error":
            print("  script error in %s: %s" % (r["part"], r["message"]))
    print("\n-- frontier (bench --frontier)")
    for r in jsonl(os.path.join(d, "frontier.txt")):
        print("  %-12s %-32s %9s GFLOPS  max %9s median %9s %s" % (
            r.get("path"), r.get("config") or r.get("kind", ""), fmt(r.get("gflops")), fmt(r.get("max_err"), "%.2e"),
            fmt(r.get("median_err"), "%.2e"), r.get("status", "")))
    print("\n-- commands (exit status, seconds); non-zero ones are worth a look")
    for line in open(os.path.join(d, "status.txt")):
        print("  " + line.rstrip())
    headline(d, rows)


# What a step refuses on purpose: block scales at step 1, block scales not promoted every k-block
REFUSED_BY_DESIGN = re.compile(r"block scales come at step 2|PROMOTE=0 is for --scaling tensor|"
                               r"PROMOTE=0, 2 and 4 are for --scaling tensor")
BENCH_FILES = ("bench-e4m3-tensor.json", "bench-e4m3-block.json", "bench-e5m2.json", "sweep.json")


def best(rows, pred):
    """The fastest verified row for which pred holds, or None."""
    ok = [r for r in rows if r.get("status") == "ok" and r.get("gflops") and pred(r)]
    return max(ok, key=lambda r: r["gflops"]) if ok else None


def headline(d, rows):
    """The last lines: what a reader of a call's tail needs, each figure's file in fp8.tgz."""
    print("\n== headline (details above and in fp8.tgz)")
    states = {}
    for f in glob.glob(os.path.join(d, "verify", "*.rc")):
        rc = open(f).read().strip()
        obj = (jsonl(f[:-3] + ".json") or [{}])[-1]
        msg = obj.get("message", "")
        st = "never ended" if rc in ("124", "137") else obj.get("status", "no result")
        if st == "invalid" and REFUSED_BY_DESIGN.search(msg):
            st = "refused by design"
        states.setdefault(st, []).append(os.path.basename(f)[:-3].replace("hopper-fp8-", ""))
    print("verify: " + "; ".join("%d %s%s" % (len(v), k, "" if k in ("ok", "refused by design") else
                                              " (" + ", ".join(sorted(v)[:6]) + ")") for k, v in sorted(states.items())))
    bench = [dict(r, scaling="block" if "block" in f else "tensor") for f in BENCH_FILES[:2]
             for r in jsonl(os.path.join(d, f))] + jsonl(os.path.join(d, BENCH_FILES[2]))
    sm = {(r.get("size"), r.get("config")): r for r in rows if r.get("part") == "scaled_mm"}
    for size in sorted({r.get("size") for r in bench if r.get("size")}, key=str):
        t = best(bench, lambda r: r["size"] == size and r["precision"] == "e4m3" and r.get("scaling") != "block")
        b = best(bench, lambda r: r["size"] == size and r["precision"] == "e4m3" and r.get("scaling") == "block")
        line = "e4m3 at %s: tensor %s" % (size, "%.0f TFLOPS (%s)%s" % (
            t["gflops"] / 1000, t["config"], ", %.0f%% of %s" % (t["pct_of_vendor"], t.get("vendor"))
            if t.get("pct_of_vendor") else "") if t else "none verified")
        if b:
            line += "; block %.0f TFLOPS (%s)%s" % (b["gflops"] / 1000, b["config"],
                                                   ", %.0f%% of tensor" % (100 * b["gflops"] / t["gflops"]) if t else "")
            if b.get("pct_of_vendor"):
                line += ", %.0f%% of %s" % (b["pct_of_vendor"], b.get("vendor"))
        else:
            line += "; block none verified"
        ref = sm.get((int(size) if str(size).isdigit() else size, "torch._scaled_mm e4m3 tensor, bfloat16 out"))
        if ref and ref.get("tflops"):
            line += "; torch._scaled_mm %.0f" % ref["tflops"]
        print(line)
    for size in sorted({r.get("size") for r in bench if r.get("precision") == "e5m2"}, key=str):
        e = best(bench, lambda r: r["size"] == size and r["precision"] == "e5m2")
        print("e5m2 at %s: %s" % (size, "%.0f TFLOPS (%s)" % (e["gflops"] / 1000, e["config"]) if e else "none verified"))
    sw = best(jsonl(os.path.join(d, "sweep.json")), lambda r: True)
    if sw:
        print("sweep best at %s: %s %s %.0f TFLOPS" % (sw.get("size"), sw["config"], sw.get("params", ""),
                                                      sw["gflops"] / 1000))
    for r in rows:
        if r.get("part") == "ablation" and r.get("max_err"):
            print("ablation K=%s %-30s max %.2e median %.2e" % (r["k"], r["config"], r["max_err"], r["median_err"]))
    sg = {r["size"]: r for r in rows if r.get("part") == "3xtf32" and str(r.get("config", "")).startswith("cuBLAS SGEMM")}
    for size, ref in sorted(sg.items()):
        cands = [r for r in rows if r.get("part") == "3xtf32" and r.get("size") == size and r.get("max_err") and
                 str(r.get("config", "")).startswith("3xTF32")]
        if cands and ref.get("max_err"):
            c = min(cands, key=lambda r: r["max_err"])
            print("3xTF32 at %s: best %s, %.1fx / %.1fx SGEMM's max / median error, %.2fx its speed" % (
                size, c["config"], c["max_err"] / ref["max_err"], c["median_err"] / ref["median_err"],
                (c.get("tflops") or 0) / ref["tflops"] if ref.get("tflops") else 0))
    late = [l.split()[0] for l in open(os.path.join(d, "status.txt")) if "skipped" in l or "rc=124" in l or "rc=137" in l]
    print("frontier: %s; cut short or skipped: %s" % (
        "%d rows" % len(jsonl(os.path.join(d, "frontier.txt"))), ", ".join(late) if late else "none"))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2])
    elif len(sys.argv) == 7:
        measure(sys.argv[1:])
    else:
        sys.exit(__doc__)
