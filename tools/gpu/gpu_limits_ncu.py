#!/usr/bin/env python3
"""What limits each kernel, by gemmtop's model (gemmtop explain, no counters) and by Nsight
Compute, side by side, on the GPU machine (issues 32 and 45, docs/limits.md). For every
preset of the ladders (myGEMM, DCU, MAGMA, fast, tensor, hopper; CUDA backend, the kernel
text gemmtop runs) at each size:

  python3 tools/gpu/gpu_limits_ncu.py [--sizes 2048,4096] [--raw FILE.jsonl] [--out DIR | --tgz FILE.tgz]
                                      [--budget SECONDS] [--banks] [PRESET ...]
  sh tools/gpu/gpu_round.sh limits:300:tools/gpu/gpu_limits.sh    (the GPU call: gpu_limits.sh)

Per preset and size: `gemmtop explain --format json` (the run and its limits: both lines),
`gemmtop banks --format json` (the bank trace, with --banks only: about a second a row, which
a 300 s call over the whole set cannot spare), and ONE ncu invocation on one `gemm`
launch (--launch-count 1, no warm-up) with a broad metric set (METRICS: DRAM, the L2 by
source, the L1, shared-memory wavefronts and conflicts of loads, stores, ldmatrix, cp.async,
wgmma and the TMA, each unit's speed of light, the tensor pipes, occupancy, waves, the
duration and the SM and memory clocks). Names that this ncu does not know are recorded,
not fatal: those `ncu --query-metrics` does not list are not asked for, and a name ncu
rejects when profiling is dropped and the rest asked again.

First the device's ceilings are measured, alone, within --measure-seconds (gemmtop list
devices --measure, the wgmma ones included; what it printed goes to peaks.txt; if it fails
or runs out of time the run goes on with the ceilings cached, and says so; --no-measure
keeps those cached). Then, in a pool of processes running ahead of the rows, each
configuration is compiled on the device without a launch (gemmtop inspect --code none);
each row waits only for its own compile, then takes its bank trace (launches: never beside
a timed one), one explain and one ncu, one after the other, then a second explain that
judges ncu's own launch (--judge-ms and --judge-mhz: ncu's duration and SM clock; ncu's
replay often runs at a lower clock than gemmtop's run, which moves a compute-bound kernel's
shares): the limiter's agreement is that one's, gemmtop's own run kept beside. Without presets named, the first 15 cover
every ladder (PRIORITY), then the rest by name; --part K/N keeps every N-th of that list
from the K-th (the 158 presets at one size take about 10 minutes: --part 1/2 and 2/2 in two
calls, each the same mix of ladders).

--raw FILE.jsonl keeps everything: a "device" line (the device, its ceilings, the metrics
asked, those ncu does not list, ncu's version), a "row" line per preset and size (explain's
two lines, the bank trace, ncu's argv, values, units, rejected and missing names, the
comparison), a "skipped" line for what the budget left out, and an "end" line. --out DIR
writes limits.jsonl, limits.md (the table below) and ncu's metric listing into DIR, and
--tgz FILE.tgz into one tarball, each rewritten after every row, so that a run stopped
early still leaves what it measured; stdout then gets a line per row and a short table
last. Without either the table goes to stdout. No file that exists is written over. --budget SECONDS starts no row that would end past it.

--rescore FILE.jsonl compares again, with the rules of this script, the rows a run recorded
(no GPU, no ncu, no gemmtop run): a change of the comparison is checked on the counters
already measured. It writes limits.jsonl and limits.md into --out (or the table to stdout).
With --replay gemmtop's limiter judges each row again as it is now, without the GPU:
`gemmtop explain --arch` on the call's device (its line as --device-file) compiles the kernel
offline and judges ncu's time at ncu's clock (and the run's own time at its clock), with the
bank ratio the call measured; what each row said before is kept under "recorded". A change
of the limiter is so tried on a GPU call's figures before a GPU is spent on it.

The comparison, per row: the model's global bytes that reach the L2 (explain's
l2_model_bytes: the L1's share taken out; the partial sums instead of C where a fix-up
writes C) against the bytes the SMs asked of the L2: those they received
(l1tex__m_xbar2l1tex_read_bytes) and those they wrote (l1tex__m_l1tex2xbar_write_bytes, or
the L2's write sectors). The L2's own count of sectors from the SMs
(lts__t_sectors_srcunit_tex x 32) is kept beside: on Hopper the L2 request coalescer (LRC)
merges reads of one sector by several SMs before the L2's slices count them, 1.0-2.3x fewer
on the H200; the lrc__ counters say how many it merged. The model's DRAM reads (explain's dram_read_bytes: A and B once, C
when beta is not 0, where they fit in the L2; a plain tile grid's waves reading their rows
and columns again where they do not; no comparison where gemmtop gives neither, the
compulsory reads for a run recorded before gemmtop gave them)
against DRAM's reads (C's writes stay in the L2 during the kernel: kept beside); where
gemmtop gives a second figure (dram_drift_bytes: the groups drifted apart in K), whether
DRAM's reads lie between the two, 10% either side, in a column of its own instead; the model's local-memory wavefronts of loads
(with --banks, for a kernel with `local_reuse:`: the trace's load wavefronts as compiled per
multiply-add of its small launch, times the row's multiply-adds; else bytes / 128 times the
trace's conflict ratio) against ncu's; occupancy and waves; the limiter
against the unit ncu's speed of light puts highest (SM: compute; DRAM: memory; L2: L2;
L1/shared: local memory or bank conflicts; gemmtop's tail, occupancy, latency and launch
agree when no unit reaches 60%). The shares that agree close each size's table (targets:
90%).

--backend and --device choose gemmtop's device (CUDA by default); tests/e2e/tools_limits_ncu.sh
runs the script on PoCL with a stand-in ncu."""
import argparse, gzip, json, os, subprocess, sys, tarfile, tempfile, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ncu_csv  # noqa: E402

# ncu's metric names, from Nsight Compute's documentation and the earlier H100 runs
# (gpu_banks_ncu.py, gpu_hopper_ncu.py); a name this ncu does not have is recorded, not fatal.
METRICS = [
    # time and clocks
    "gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second", "dram__cycles_elapsed.avg.per_second",
    "sm__cycles_elapsed.max", "sm__cycles_active.avg",
    # DRAM and the L2
    "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors.sum", "lts__t_sectors_srcunit_tex.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
    "lts__t_sectors_srcunit_tex_lookup_hit.sum", "lts__t_sectors_srcunit_tex_lookup_miss.sum",
    "lts__t_sector_hit_rate.pct",
    # the L1: global loads and stores, local memory (spills)
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "l1tex__t_sector_hit_rate.pct",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    # shared memory: loads, stores, ldmatrix, cp.async, wgmma, the TMA
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", "smsp__inst_executed_op_ldsm.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", "smsp__inst_executed_op_ldgsts.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", "sm__sass_data_bytes_mem_shared_op_gmma.sum",
    "l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum", "smsp__sass_inst_executed_op_tma_ld.sum",
    # what the SMs received from the L2 (beside the L2's own sectors: the L2 answers TMA's requests
    # for a line that arrive together once), the partitions' fabric, the L2's return path
    "l1tex__m_xbar2l1tex_read_bytes.sum", "l1tex__m_l1tex2xbar_write_bytes.sum", "lts__t_sectors_srcunit_ltcfabric.sum",
    # the L2 request coalescer (Hopper): the SMs' read sectors in, those sent on to the L2, merged
    "lrc__xbar2gpc_sectors_op_read.sum", "lrc__lrc2xbar_sectors_op_read.sum",
    "lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum",
    "lts__lts2xbar_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed",
    # speed of light per unit
    "sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed",
    # the pipes: tensor (mma.sync: hmma; wgmma: gmma), FMA, issue
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    # occupancy and the launch
    "sm__maximum_warps_per_active_cycle_pct", "sm__warps_active.avg.pct_of_peak_sustained_active",
    "launch__waves_per_multiprocessor", "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks", "launch__registers_per_thread",
    "launch__grid_size", "launch__block_size", "launch__shared_mem_per_block_dynamic",
    "launch__shared_mem_per_block_static",
    # the L1's stages, each against its own peak: which one sets l1tex__throughput for global
    # loads that are not TMA's (the L1's tag lookups, its wavefronts out, its data pipe, its fill)
    "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_output_wavefronts_pipe_lsu.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum", "l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed",
    "l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed", "l1tex__f_wavefronts.avg.pct_of_peak_sustained_elapsed",
    "l1tex__lsuin_requests.avg.pct_of_peak_sustained_elapsed",
    "l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_elapsed",
    # the L2's stages, each as % of its peak (the parts ncu's lts__throughput is the largest of):
    # tags looked up, sectors in and out of the data banks, the crossbar's input and output ports
    "lts__t_requests.sum", "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed",
    "lts__t_sectors.avg.pct_of_peak_sustained_elapsed", "lts__d_sectors.avg.pct_of_peak_sustained_elapsed",
    "lts__d_sectors.sum", "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed",
]
# The names the comparison needs, all read by the earlier H100 scripts or in every ncu
# since 2020: asked alone when ncu refuses the broad set without naming what it refuses.
CORE = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "sm__maximum_warps_per_active_cycle_pct",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__waves_per_multiprocessor",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__throughput.avg.pct_of_peak_sustained_elapsed", "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"]
# ncu's unit -> the limiters of gemmtop's that name it (core/analyse/limiter.c: LimitKind_name).
UNITS = {"sm__throughput": ("compute",), "dram__throughput": ("memory",), "lts__throughput": ("L2",),
         "l1tex__throughput": ("local memory", "bank conflicts")}
NO_CEILING = ("tail", "occupancy", "latency", "launch")
LADDERS = ("0", "1", "dcu", "magma", "fast", "tensor", "hopper")
# The first presets, by name or prefix (the first preset that starts with it): every ladder
# within 15 rows, the steps issue 45 names first, so that a short GPU call covers them all.
PRIORITY = ("01-naive", "02-tiled", "03-wpt", "05-transposed", "06-2d", "10-padding", "11-clblas", "dcu-4", "dcu-6",
            "dcu-7", "magma-1", "fast-02", "tensor-5", "hopper-5-order-bf16", "hopper-5-order-tf32")
SHARES = (("limiter", "the same limiter (ncu's launch judged by gemmtop: its time and clock)"),
          ("bytes", "model bytes within 10% of the SMs' requests to the L2"),
          ("dram", "the model's DRAM reads within 10% of DRAM's, where it gives one figure"),
          ("dram_range", "DRAM's reads inside the model's two figures (groups in step, drifted apart in K; 10% either "
                         "side), where it gives two"),
          ("wavefronts", "local wavefronts within 10% of ncu's"),
          ("own", "the same limiter, gemmtop judging its own run (another launch, at its own clock)"),
          ("received", "model loads within 10% of the bytes the SMs received from the L2"),
          ("fabric", "the model's fabric between the L2's partitions within 10% of ncu's ltcfabric sectors, "
                     "where it gives one"))


def options():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("presets", nargs="*", help="presets to compare (default: every preset of the ladders)")
    ap.add_argument("--part", metavar="K/N",
                    help="only every N-th preset of the list, from the K-th (1/2 and 2/2: the set in two calls "
                         "of the same mix of ladders)")
    ap.add_argument("--size", type=int, action="append", help="a size (M = N = K); repeatable")
    ap.add_argument("--sizes", help="sizes separated by commas, 0: each preset's own (default 4096)")
    ap.add_argument("--raw", help="every figure as JSON Lines into this file")
    ap.add_argument("--out", help="limits.jsonl, limits.md and ncu's metric listing into this folder")
    ap.add_argument("--tgz", help="the same three files into this tarball")
    ap.add_argument("--budget", type=float, help="seconds: start no row that would end past them")
    ap.add_argument("--reps", type=int, default=3, help="explain's timed launches (default 3)")
    ap.add_argument("--banks", action="store_true",
                    help="take each row's bank trace too (about 1 s a row): its wavefronts as compiled, conflicts "
                         "included, per multiply-add, against ncu's; with --replay, the rows that have none are "
                         "traced here on PoCL under NVIDIA's bank model (labelled so)")
    ap.add_argument("--backend", default="cuda", help="gemmtop's backend (default cuda)")
    ap.add_argument("--device", help="gemmtop's --device")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                    help="processes that compile and trace at once before the timed part")
    ap.add_argument("--no-measure", action="store_true", help="keep the cached ceilings (no list devices --measure)")
    ap.add_argument("--measure-seconds", type=float, default=45,
                    help="time allowed to list devices --measure (default 45); past it the cached ceilings are used")
    ap.add_argument("--list-metrics", action="store_true", help="print the metrics asked of ncu and stop")
    ap.add_argument("--rescore", metavar="FILE.jsonl",
                    help="compare again the rows a run recorded (its limits.jsonl), with this script's rules; no GPU")
    ap.add_argument("--replay", action="store_true",
                    help="with --rescore: judge each row again with gemmtop's limiter as it is now (explain --arch on "
                         "the call's device, ncu's time and clock, the row's bank ratio), compiled offline; no GPU")
    o = ap.parse_args()
    sizes = list(o.size or [])
    for s in (o.sizes or "").split(","):
        if s.strip():
            try:
                sizes.append(int(s))
            except ValueError:
                ap.error(f"--sizes: '{s}' is not a whole number (e.g. --sizes 2048,4096)")
    o.sizes = sizes or [4096]
    if any(s < 0 for s in o.sizes):
        ap.error("sizes must be positive, or 0 for each preset's own size")
    # Never over a file that is there already: it may be an earlier run's only copy.
    for what, path in (("--raw", o.raw), ("--tgz", o.tgz), ("--out", o.out and os.path.join(o.out, "limits.jsonl"))):
        if path and os.path.exists(path):
            ap.error(f"{what}: {path} exists already; remove it or name another")
    return o


O = options()
if O.list_metrics:
    print("\n".join(METRICS))
    sys.exit(0)
# Every path absolute: ncu starts the program by its path, and gemmtop finds its kernels
# and presets from the repository root, where each command runs.
B = os.path.abspath(os.environ.get("GEMMTOP_BIN") or os.path.join(ROOT, "build", "gemmtop"))
PRESETS = os.path.abspath((os.environ.get("GEMMTOP_PRESETS") or os.path.join(ROOT, "presets")).split(":")[0])
PART = None
if O.part:
    try:
        PART = tuple(int(x) for x in O.part.split("/"))
        if len(PART) != 2 or not 1 <= PART[0] <= PART[1]:
            raise ValueError
    except ValueError:
        sys.exit(f"gpu_limits_ncu.py: --part {O.part!r}: give K/N with 1 <= K <= N, e.g. 1/2")
why = None if O.rescore and not O.replay else ncu_csv.program_problem([B])
if why:
    sys.exit(f"gpu_limits_ncu.py: {why}: build it (make) or set GEMMTOP_BIN")
DEV_ARGS = ["--backend", O.backend] + (["--device", O.device] if O.device else [])


def remaining(cap):
    """Seconds a command may take: cap, or what the budget has left (at least 10)."""
    if not O.budget:
        return cap
    return max(10, min(cap, O.budget - (time.monotonic() - T0)))


RUNNING = set()  # gemmtop processes under way: the compiles the budget left are killed at the end


def gemmtop(cmd, timeout=300):
    p = subprocess.Popen([B] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    RUNNING.add(p)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return "timeout", "", f"gemmtop {' '.join(cmd[:1])} ran past {timeout} s"
    finally:
        RUNNING.discard(p)


def size_args(size):
    """gemmtop's size options: none for size 0, each preset then runs at its own (the decode
    presets' few rows, the shapes presets' skinny M)."""
    return [] if size == 0 else ["--size", str(size)]


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:300] if lines else "no output"


def presets():
    names = sorted(p[:-len(".preset")] for p in os.listdir(PRESETS) if p.endswith(".preset"))
    names = [n for n in names if n.startswith(LADDERS)]
    first = []
    for want in PRIORITY:
        hit = next((n for n in names if n == want), None) or next((n for n in names if n.startswith(want)), None)
        if hit and hit not in first:
            first.append(hit)
    return first + [n for n in names if n not in first]


def json_lines(text):
    """The lines of text that are JSON, parsed (explain's two; anything else skipped)."""
    lines = []
    for l in text.splitlines():
        try:
            lines.append(json.loads(l))
        except ValueError:
            pass
    return lines


def explain_json(preset, size, extra):
    """gemmtop explain --format json with extra options: (rc, its JSON lines, the last line said)."""
    rc, out, err = gemmtop(["explain"] + DEV_ARGS + ["--preset", preset] + size_args(size) + extra +
                           ["--format", "json", "--no-store"], timeout=remaining(120))
    lines = json_lines(out)
    ok = rc == 0 and len(lines) >= 2 and "limits" in lines[1]
    return rc, lines, ok, last_line(err or out)


def explain(preset, size):
    rc, lines, ok, said = explain_json(preset, size, ["--reps", str(O.reps)])
    if not ok:
        return {"rc": rc, "run": lines[0] if lines else None, "error": said}
    return {"rc": rc, "run": lines[0], "limits": lines[1]["limits"]}


def judged(preset, size, v):
    """explain's limiter for the run ncu measured: its duration and SM clock (--judge-ms,
    --judge-mhz), so that both tools judge the same launch (ncu's replay runs at its own
    clock, often well below gemmtop's)."""
    t, hz = v.get("gpu__time_duration.sum"), v.get("sm__cycles_elapsed.avg.per_second")
    if not t:
        return {"error": "ncu gave no duration"}
    args = ["--judge-ms", f"{t / 1e6:.6g}"] + (["--judge-mhz", f"{hz / 1e6:.6g}"] if hz else [])
    rc, lines, ok, said = explain_json(preset, size, args + ["--reps", "1", "--warmup", "0", "--no-verify"])
    return lines[1]["limits"] if ok else {"rc": rc, "error": said}


def banks(preset, size, dev_args=None):
    """The bank trace of the configuration's small problem, every group of it (up to 1024), as the
    compiler merges the accesses too: its wavefronts per multiply-add scale to the row's problem."""
    rc, out, err = gemmtop(["banks"] + (dev_args or DEV_ARGS) + ["--preset", preset] + size_args(size) +
                           ["--as-compiled", "--groups", "1024", "--format", "json"], timeout=remaining(120))
    try:
        return json.loads(out)
    except ValueError:
        return {"error": last_line(err or out), "rc": rc}


def coalescing(preset, size, dev_args):
    """How the configuration's global loads of A and B coalesce (gemmtop banks --coalescing)."""
    rc, out, err = gemmtop(["banks"] + dev_args + ["--preset", preset] + size_args(size) +
                           ["--coalescing", "--format", "json"], timeout=remaining(120))
    try:
        return json.loads(out)["coalescing"]
    except (ValueError, KeyError):
        return {"error": last_line(err or out), "rc": rc}


def compile_only(item):
    """Compiles the configuration on the device without launching it (inspect, no listing):
    the disk cache keeps the program for explain and ncu."""
    preset, size = item
    start = time.monotonic()
    rc, _, err = gemmtop(["inspect"] + DEV_ARGS + ["--preset", preset] + size_args(size) + ["--code", "none"])
    return {"compile_rc": rc, "compile_error": None if rc == 0 else last_line(err),
            "compile_seconds": round(time.monotonic() - start, 2)}


def trace_wavefronts(b, run):
    """The load wavefronts of the bank trace as compiled (else as written), per multiply-add of
    the traced launch, times the row's multiply-adds; None without a trace that says what it
    traced a share of (its "launch")."""
    try:
        launch, groups = b["launch"], b["groups"]
        sites = (b.get("as_compiled") or b)["sites"]
        fmas = launch["m"] * launch["n"] * launch["k"] * groups / launch["work_groups"]
        row = run["m"] * run["n"] * run["k"]
    except (KeyError, TypeError, ZeroDivisionError):
        return None
    wf = sum(s["wavefronts"] for s in sites if s["kind"] == "load")
    return wf / fmas * row if fmas > 0 and wf > 0 else None


def store_wavefronts(b):
    """The bank trace's local store wavefronts (as written) per multiply-add of the traced launch,
    cp.async's left out (its load and store are one instruction; a site whose stores are all
    cp.async's says "async", a trace before that flag says so in its name)."""
    try:
        launch, groups = b["launch"], b["groups"]
        fmas = launch["m"] * launch["n"] * launch["k"] * groups / launch["work_groups"]
        wf = sum(s["wavefronts"] * s.get("store_requests", 0) / s["requests"] for s in b["sites"]
                 if s["requests"] and not s.get("async") and "cp.async" not in s.get("name", ""))
    except (KeyError, TypeError, ZeroDivisionError):
        return None
    return wf / fmas if fmas > 0 and wf > 0 else None


def bank_ratio(b):
    """Loads' wavefronts over the ideal in the bank trace (1 when the kernel reads no local memory)."""
    try:
        sites = [s for s in b["sites"] if s["kind"] == "load"]
    except (KeyError, TypeError):
        return None
    wf = sum(s["wavefronts"] for s in sites)
    ideal = sum(s["wavefronts"] - s["conflicts"] for s in sites)
    return wf / ideal if ideal > 0 else 1.0


def near(ours, theirs):
    if ours is None or theirs is None or theirs <= 0:
        return "-", None
    r = ours / theirs
    return ("ok" if abs(r - 1) <= 0.10 else f"{r:.2f}x"), abs(r - 1) <= 0.10


def dram_checks(c):
    """(one figure within 10% of DRAM's reads, DRAM's reads inside the model's range): the
    first where the model gives one figure, the second where it gives two (the groups in step
    and drifted apart in K), each None where it does not apply."""
    dm, drift, dram = c.get("dram_model_bytes", c["min_bytes"]), c.get("dram_drift_bytes"), c["dram_bytes"]
    if not drift:
        return near(dm, dram)[1], None
    if dm is None or dram is None or dram <= 0:
        return None, None
    return None, 0.9 * dm <= dram <= 1.1 * drift


def top_unit(v):
    known = {u: v.get(u + ".avg.pct_of_peak_sustained_elapsed") for u in UNITS}
    known = {u: x for u, x in known.items() if x is not None}
    if not known:
        return None, None
    u = max(known, key=known.get)
    return u, known[u]


def agrees(limiter, unit, pct):
    if limiter is None:
        return None
    if limiter in NO_CEILING:
        return pct < 60 if pct is not None else None
    return limiter in UNITS[unit] if unit else None


def compare(lim, v, ratio, same=None, run=None, trace=None):
    """The agreement of the model with ncu's figures v: what the Markdown row and the shares use.
    same: explain's limits for ncu's own launch (judged()); the limiter's agreement is that
    one's, gemmtop's own run kept beside."""
    unit, pct = top_unit(v)
    own = agrees(lim["limiter"], unit, pct)
    agree = agrees(same.get("limiter"), unit, pct) if same and "limiter" in same else own
    lts = v.get("lts__t_sectors_srcunit_tex.sum")
    lts = lts * 32 if lts is not None else None
    # What the SMs asked of the L2: what they received and what they wrote. The L2's slices
    # count fewer reads where the request coalescer merged several SMs' (kept beside).
    got, sent = v.get("l1tex__m_xbar2l1tex_read_bytes.sum"), v.get("l1tex__m_l1tex2xbar_write_bytes.sum")
    if sent is None and v.get("lts__t_sectors_srcunit_tex_op_write.sum") is not None:
        sent = 32 * v["lts__t_sectors_srcunit_tex_op_write.sum"]
    l2 = got + sent if got is not None and sent is not None else lts
    rd, wr = v.get("dram__bytes_read.sum"), v.get("dram__bytes_write.sum")
    # Reads against reads: C's writes stay in the L2 during the kernel (H200: a 2048 FP32 C
    # of 16.8 MB wrote 3-19 MB to DRAM), so they are kept beside, not compared. A gemmtop
    # without min_read_bytes: everything against everything, as before.
    if lim.get("min_read_bytes") is not None:
        dram, min_bytes = rd, lim["min_read_bytes"]
    else:
        dram = (rd or 0) + (wr or 0) if rd is not None or wr is not None else None
        min_bytes = lim.get("min_bytes")
    # The model's DRAM reads where gemmtop gives them (the compulsory ones where the operands
    # fit in the L2, the waves' re-reads where they do not). Where a gemmtop that gives them
    # gives none (stream-K's grid, a cluster's order: the model does not know), none: the row
    # is not compared. A gemmtop from before them: the compulsory ones.
    dram_model = lim.get("dram_read_bytes") if "dram_read_bytes" in lim else min_bytes
    # Where gemmtop gives a second figure, what the groups read drifted apart in K: DRAM's
    # reads lie between the two and the model does not say where (docs/limits.md, rule 3).
    dram_drift = lim.get("dram_drift_bytes")
    # The model's local reads against the LSU's load wavefronts; not for a kernel whose reads
    # are wgmma's operands (ncu counts those as gmma wavefronts, of another size).
    gmma = v.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum") or 0
    # From the bank trace when the row has one (what the compiled code asks of the banks,
    # conflicts included: docs/banks-ncu.md), else the model's bytes / 128 times its ratio;
    # only for a kernel whose model counts local reads per multiply-add (`local_reuse:`), the
    # rate the trace's small problem is scaled by (a decode kernel's reductions are not).
    traced = trace_wavefronts(trace, run) if trace and run and lim.get("local_bytes") and not gmma else None
    model_wf = traced or (lim["local_bytes"] / 128 * (ratio or 1) if lim.get("local_bytes") and not gmma else None)
    ncu_wf = v.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
    # The model's bytes that reach the L2 (the L1's share taken out), else all of them; where
    # a fix-up writes C, the kernel's own stores are the partial sums (store_bytes), as the
    # limiter counts them. A run recorded before explain gave store_bytes: its workspace
    # where a fix-up ran (--rescore).
    model = lim.get("l2_model_bytes") or lim.get("model_bytes")
    c_stores = (lim["min_bytes"] - lim["min_read_bytes"]) if lim.get("min_read_bytes") is not None else 0
    stores = lim.get("store_bytes")
    if stores is None and run and run.get("fixup_ms") and run.get("workspace_bytes"):
        stores = run["workspace_bytes"]
    if model and stores:
        model = model - c_stores + stores
    # What crossed between the L2's two partitions, against the model's (explain's
    # l2_fabric_bytes: DRAM's reads once, half the stores).
    fabric = 32 * v["lts__t_sectors_srcunit_ltcfabric.sum"] if v.get("lts__t_sectors_srcunit_ltcfabric.sum") is not None else None
    # Its loads (the stores taken out) against the bytes the SMs received from the L2.
    loads = model - (stores or c_stores) if model else None
    return {"ncu_unit": unit, "ncu_pct": pct, "limiter_agrees": agree, "own_limiter_agrees": own,
            "same_run_limiter": same.get("limiter") if same else None, "l2_request_bytes": l2,
            "l2_request_source": "the SMs' reads and writes" if l2 is not None and l2 is not lts else "the L2's sectors",
            "lts_request_bytes": lts, "lrc_merged_sectors": v.get("lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum"),
            "dram_bytes": dram,
            "dram_write_bytes": wr, "model_bytes": model, "min_bytes": min_bytes, "dram_model_bytes": dram_model, "dram_drift_bytes": dram_drift, "model_wavefronts": model_wf,
            "wavefronts_from": "trace" if traced else "model" if model_wf else None, "ncu_wavefronts": ncu_wf, "bank_ratio": ratio, "model_loads": loads,
            "sm_received_bytes": v.get("l1tex__m_xbar2l1tex_read_bytes.sum"),
            "fabric_model_bytes": lim.get("l2_fabric_bytes"), "fabric_bytes": fabric}


def cell(text):
    """Text from gemmtop or ncu as one Markdown cell: no pipe or line break can end it."""
    return " ".join(str(text).split()).replace("|", "\\|")


def fmt(x, f="{:.0f}"):
    return "-" if x is None else f.format(x)


def md_row(preset, size, row):
    """The row of the Markdown table, or why there is none."""
    ex, nc = row["explain"], row["ncu"]
    if "limits" not in ex:
        return f"| {preset} | {size} | | gemmtop failed: {cell(ex['error'][:160])} | | | | | | | | | |"
    run, lim = ex["run"], ex["limits"]
    if run.get("status") != "ok" or not run.get("gflops"):
        return (f"| {preset} | {size} | | {cell(run.get('status'))}: {cell(str(run.get('message', ''))[:160])} "
                f"| | | | | | | | | |")
    if not nc["values"]:
        return (f"| {preset} | {size} | {run['gflops']:.0f} | - | {lim['limiter']} | ncu gave nothing: "
                f"{cell(last_line(nc['tail'])[:120])} | | | | | | | |")
    c, v = row["compare"], nc["values"]
    b, _ = near(c["model_bytes"], c["l2_request_bytes"])
    dm = c.get("dram_model_bytes", c["min_bytes"])  # a run compared before the model's DRAM reads: the compulsory
    d, _ = near(dm, c["dram_bytes"])
    if c.get("dram_drift_bytes"):  # two figures: the groups in step, and drifted apart in K
        d = "inside" if dram_checks(c)[1] else "outside"
        dm_text = f"{fmt(dm, '{:.3g}')}-{fmt(c['dram_drift_bytes'], '{:.3g}')}"
    else:
        dm_text = fmt(dm, '{:.3g}')
    w, _ = near(c["model_wavefronts"], c["ncu_wavefronts"])
    occ = lim.get("occupancy")
    r, _ = near(c.get("model_loads"), c.get("sm_received_bytes"))
    yes = {True: "yes", False: "NO", None: "-"}
    same = row.get("judged") or {}
    same_words = (f"{same['limiter']}: {cell(same['words'][:90])}" if "limiter" in same
                  else f"not judged: {cell(str(same.get('error', 'no ncu time'))[:90])}")
    return (f"| {preset} | {size} | {run['gflops']:.0f} | {same_words} | {lim['limiter']} |"
            f" {c['ncu_unit'].split('__')[0] if c['ncu_unit'] else '-'} {fmt(c['ncu_pct'])}% | "
            f"{yes[c['limiter_agrees']]} ({yes[c.get('own_limiter_agrees')]}) | "
            f"{fmt(c['model_bytes'], '{:.3g}')} / {fmt(c['l2_request_bytes'], '{:.3g}')} {b} "
            f"({fmt(c.get('lts_request_bytes'), '{:.3g}')}) | "
            f"{fmt(c.get('model_loads'), '{:.3g}')} / {fmt(c.get('sm_received_bytes'), '{:.3g}')} {r} | "
            f"{dm_text} / {fmt(c['dram_bytes'], '{:.3g}')} {d} | "
            f"{fmt(c['model_wavefronts'], '{:.3g}')} / {fmt(c['ncu_wavefronts'], '{:.3g}')} {w} | "
            f"{fmt(occ * 100 if occ else None)}% / {fmt(v.get('sm__maximum_warps_per_active_cycle_pct'))}% / "
            f"{fmt(v.get('sm__warps_active.avg.pct_of_peak_sustained_active'))}% | "
            f"{fmt(lim.get('waves'), '{:.2f}')} / {fmt(v.get('launch__waves_per_multiprocessor'), '{:.2f}')} |")


def tally(rows):
    """{share key: [agrees...]} over rows that ncu and gemmtop both measured."""
    t = {k: [] for k, _ in SHARES}
    for row in rows:
        c = row.get("compare")
        if not c:
            continue
        checks = {"limiter": c["limiter_agrees"], "bytes": near(c["model_bytes"], c["l2_request_bytes"])[1],
                  "dram": dram_checks(c)[0], "dram_range": dram_checks(c)[1],
                  "wavefronts": near(c["model_wavefronts"], c["ncu_wavefronts"])[1],
                  "own": c.get("own_limiter_agrees"),
                  "received": near(c.get("model_loads"), c.get("sm_received_bytes"))[1],
                  "fabric": near(c.get("fabric_model_bytes"), c.get("fabric_bytes"))[1]}
        for k, ok in checks.items():
            if ok is not None:
                t[k].append(ok)
    return t


def share(xs):
    return f"{100 * sum(xs) / len(xs):.0f}% ({sum(xs)} of {len(xs)})" if xs else "none measured"

HEADER = ("| preset | size | GFLOPS | gemmtop limiter of ncu's launch | of its own run | ncu highest unit | "
          "agree (own run) | model bytes / the SMs' requests to the L2 (the L2's count) | "
          "model loads / received by the SMs | "
          "model DRAM reads (the compulsory ones where they fit in the L2; groups in step-drifted apart where those differ) / DRAM reads | local wavefronts (bank trace as compiled, else model x banks / ncu) | occupancy ours / theoretical / achieved | "
          "waves ours / ncu |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def replay_one(devfile, arch, r):
    """The row judged again offline: (judged, own limits), or errors in their place."""
    ex, v = r.get("explain") or {}, (r.get("ncu") or {}).get("values") or {}
    run, lim = ex.get("run") or {}, ex.get("limits") or {}
    base = (["explain", "--backend", "cuda", "--arch", arch, "--device-file", devfile, "--preset", r["preset"]]
            + size_args(r["size"]) + ["--format", "json"])
    if lim.get("bank_ratio") and lim["bank_ratio"] >= 1:
        base += ["--bank-ratio", f"{lim['bank_ratio']:.6g}"]
    # The loads' coalescing: the call's own trace (explain's), else one taken here (--banks).
    load = lim.get("load_ratio") or ((r.get("coalescing") or {}).get("total") or {}).get("ratio")
    if load and load >= 1:
        base += ["--load-ratio", f"{load:.6g}"]
    # The local stores per multiply-add: the call's explain traced them; else the row's bank trace.
    stores = lim.get("store_wavefronts")
    stores = stores / (run["m"] * run["n"] * run["k"]) if stores and run.get("m") else store_wavefronts(r.get("banks"))
    if stores:
        base += ["--store-wavefronts", f"{stores:.6g}"]

    def judge(ms, mhz):
        if not ms:
            return {"error": "no time to judge"}
        rc, out, err = gemmtop(base + ["--judge-ms", f"{ms:.6g}"] + (["--judge-mhz", f"{mhz:.6g}"] if mhz else []),
                               timeout=300)
        lines = json_lines(out)
        return lines[1]["limits"] if rc == 0 and len(lines) >= 2 and "limits" in lines[1] else \
            {"rc": rc, "error": last_line(err or out)}

    hz = v.get("sm__cycles_elapsed.avg.per_second")
    t = v.get("gpu__time_duration.sum")
    return (judge(t / 1e6 if t else None, hz / 1e6 if hz else None),
            judge(run.get("time_ms"), run.get("sm_mhz")))


def replay_all(head, rows):
    """--replay: every row with ncu's figures and explain's limits judged again (a pool of
    --jobs); a row whose replay fails keeps what it recorded, and says so."""
    dev = head.get("device") or {}
    arch = (dev.get("version") or "").split(",")[0].strip()
    if not arch.startswith("sm_"):
        sys.exit(f"gpu_limits_ncu.py: --replay: the call's device names no sm_ architecture ({dev.get('version')!r})")
    devfile = os.path.join(tempfile.mkdtemp(prefix="gpu-limits-replay-"), "device.json")
    with open(devfile, "w") as f:
        f.write(json.dumps(dev) + "\n")
    todo = [r for r in rows if "limits" in (r.get("explain") or {}) and (r.get("ncu") or {}).get("values")]
    local = ["--backend", "opencl", "--device", "pocl", "--bank-model", "nvidia"]
    with ThreadPoolExecutor(max_workers=max(1, O.jobs)) as pool:
        if O.banks:  # what the call did not trace, on this machine's PoCL under NVIDIA's model, first:
            # the judgement takes the loads' coalescing and the bank trace's stores (replay_one)
            loads = [r for r in todo if not r["explain"]["limits"].get("load_ratio")
                     and not r["explain"]["limits"].get("smem_fill_bytes")]
            for r, c in zip(loads, pool.map(lambda r: coalescing(r["preset"], r["size"], local), loads)):
                if "total" in c:
                    c["traced_offline"] = "PoCL on this machine (--replay --banks)"
                r["coalescing"] = c
            untraced = [r for r in todo if "sites" not in (r.get("banks") or {})]
            for r, b in zip(untraced, pool.map(lambda r: banks(r["preset"], r["size"], local), untraced)):
                if "sites" in b:
                    b["traced_offline"] = "PoCL on this machine, NVIDIA's bank model (--replay --banks)"
                r["banks"] = b
        results = list(pool.map(lambda r: replay_one(devfile, arch, r), todo))
    failed = 0
    for r, (judged_now, own_now) in zip(todo, results):
        r["recorded"] = {"judged": r.get("judged"), "limits": r["explain"]["limits"]}
        if "limiter" in judged_now and "limiter" in own_now:
            r["judged"], r["explain"]["limits"] = judged_now, own_now
        else:
            failed += 1
            r["replay_error"] = (judged_now.get("error") or own_now.get("error"))
    print(f"# replayed {len(todo) - failed} of {len(todo)} rows offline for {arch}"
          f"{f'; {failed} kept as recorded (replay_error says why)' if failed else ''}", flush=True)


def rescore(path):
    """--rescore: the recorded rows compared again (compare(), md_row(), tally() as they are now)."""
    try:
        opener = gzip.open if path.endswith(".gz") else open  # the runs kept in docs/data are gzipped
        with opener(path, "rt", encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        sys.exit(f"gpu_limits_ncu.py: --rescore {path}: {e}")
    head = next((l for l in lines if l.get("kind") == "device"), None)
    rows = [l for l in lines if l.get("kind") == "row"]
    if not head or not rows:
        sys.exit(f"gpu_limits_ncu.py: --rescore {path}: no device line or no rows: not a gpu_limits_ncu.py run")
    if O.replay:
        replay_all(head, rows)
    by_size, out = {}, []
    for r in rows:
        ex, values = r.get("explain") or {}, (r.get("ncu") or {}).get("values")
        if "limits" in ex and values:
            r["compare"] = compare(ex["limits"], values, bank_ratio(r.get("banks")), r.get("judged"), ex.get("run"),
                                   r.get("banks"))
        r["md"] = md_row(r["preset"], r["size"], r)
        by_size.setdefault(r["size"], []).append(r)
        out.append(r)
    dev = head.get("device") or {}
    text = [f"# gemmtop's limiter against Nsight Compute: {dev.get('name')}, driver {dev.get('driver')}, "
            f"measured {head.get('date', '?')}, compared again {time.strftime('%Y-%m-%d')}\n",
            f"Re-scored from {os.path.basename(path)} (gpu_limits_ncu.py --rescore): the counters of that run, "
            f"this script's comparison; nothing was measured again.\n"]
    for size, rs in by_size.items():
        t = tally(rs)
        text += [f"\n## Size {size}\n", HEADER] + [r["md"] for r in rs] + [""]
        text += [f"- {what}: {share(t[k])}" for k, what in SHARES]
    body = "\n".join(text) + "\n"
    if O.out:
        os.makedirs(O.out, exist_ok=True)
        with open(os.path.join(O.out, "limits.jsonl"), "w", encoding="utf-8") as f:
            f.write(json.dumps(dict(head, rescored={"from": path, "date": time.strftime("%Y-%m-%d %H:%M:%S")}),
                               sort_keys=True) + "\n")
            for r in out:
                f.write(json.dumps({k: v for k, v in r.items() if k != "md"}, sort_keys=True) + "\n")
        with open(os.path.join(O.out, "limits.md"), "w", encoding="utf-8") as f:
            f.write(body)
    else:
        print(body)
    print("\n| size | rows | ncu measured | same limiter | bytes vs the SMs' requests | model vs DRAM reads | "
          "DRAM inside the drift range | wavefronts | same limiter, own run | loads vs received | "
          "fabric vs ltcfabric |\n|---|---|---|---|---|---|---|---|---|---|---|")
    for size, rs in by_size.items():
        t = tally(rs)
        print(f"| {size} | {len(rs)} | {sum(1 for r in rs if (r.get('ncu') or {}).get('values'))} | "
              + " | ".join(share(t[k]) for k, _ in SHARES) + " |")


if O.rescore:
    rescore(O.rescore)
    sys.exit(0)


# ---- the device and its ceilings ----
T0 = time.monotonic()
names = O.presets or presets()
if O.part:
    names = names[PART[0] - 1::PART[1]]
items = [(p, s) for s in O.sizes for p in names]  # every preset at the first size before the next size
FILES = bool(O.out or O.tgz)  # the table into files, a line per row on stdout
work = O.out or tempfile.mkdtemp(prefix="gpu-limits-")
os.makedirs(work, exist_ok=True)
# The ceilings first, alone (nothing else on the device), within their own time.
measured = "not measured (--no-measure)"
if not O.no_measure:
    print(f"# measuring the ceilings (at most {O.measure_seconds:.0f} s)...", flush=True)
    rc, out, err = gemmtop(["list", "devices", "--backend", O.backend, "--measure"], timeout=O.measure_seconds)
    with open(os.path.join(work, "peaks.txt"), "w") as f:
        f.write(f"# gemmtop list devices --backend {O.backend} --measure: exit {rc}, "
                f"{time.monotonic() - T0:.1f} s\n{out}\n{err}")
    # What could not be measured (a ceiling named with why), else "".
    measured = err.strip() if rc == 0 else f"measuring failed ({rc}): {last_line(err or out)}; the cached ceilings are used"
    print(f"# ceilings: exit {rc} in {time.monotonic() - T0:.1f} s{'; ' + last_line(err) if err.strip() else ''}",
          flush=True)
# Each configuration's compile and bank trace, in a pool that runs ahead of the rows.
pool = ThreadPoolExecutor(max_workers=max(1, O.jobs))
prepared = {item: pool.submit(compile_only, item) for item in items}
rc, out, _ = gemmtop(["list", "devices", "--backend", O.backend, "--format", "json"])
devs = []
for l in out.splitlines():
    try:
        devs.append(json.loads(l))
    except ValueError:
        pass
if O.device is not None and O.device.isdigit():
    dev = next((d for d in devs if d.get("index") == int(O.device)), None)
else:
    dev = next((d for d in devs if d.get("default")), devs[0] if devs else None)
if not dev:
    sys.exit(f"gpu_limits_ncu.py: gemmtop sees no {O.backend} device")
listed, listing = ncu_csv.listed_metrics()
unlisted = [m for m in METRICS if listed and not m.startswith(ncu_csv.UNLISTED) and ncu_csv.base_name(m) not in listed]
ASK = [m for m in METRICS if m not in unlisted]
try:
    version = subprocess.run(["ncu", "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
except (OSError, subprocess.TimeoutExpired) as e:
    version = f"ncu --version: {e}"

# ---- output: JSON Lines, Markdown, the folder or the tarball ----
raw_path = O.raw or os.path.join(work, "limits.jsonl")
raw = open(raw_path, "w")
md = [f"# gemmtop's limiter against Nsight Compute: {dev.get('name')}, driver {dev.get('driver')}, ceilings measured "
      f"{dev.get('peaks_measured', '?')}, {time.strftime('%Y-%m-%d')}\n",
      f"ncu: {version.splitlines()[-1] if version else '?'}; sizes {', '.join(map(str, O.sizes))}; "
      f"{len(unlisted)} metric names not in this ncu's listing: {', '.join(unlisted) or 'none'}\n"]

def emit(obj):
    raw.write(json.dumps(obj, sort_keys=True) + "\n")
    raw.flush()


def write_file(path, text):
    """text into path through a temporary name: a run stopped meanwhile leaves the last whole file."""
    with open(path + ".part", "w") as f:
        f.write(text)
    os.replace(path + ".part", path)


def save(rows_by_size, skipped):
    """limits.md from the rows so far, beside the JSON Lines; the tarball rebuilt the same way."""
    text = list(md)
    for size in O.sizes:
        rows = rows_by_size.get(size, [])
        text += [f"\n## Size {size}\n", HEADER] + [r["md"] for r in rows]
        t = tally(rows)
        text.append("")
        text += [f"- {what}: {share(t[k])}" for k, what in SHARES]
    if skipped:
        text.append(f"\nLeft out by the budget ({O.budget:.0f} s): " + ", ".join(f"{p} at {s}" for p, s in skipped))
    body = "\n".join(text) + "\n"
    if not FILES:
        return body
    write_file(os.path.join(work, "limits.md"), body)
    write_file(os.path.join(work, "ncu-query-metrics.txt"), listing)
    if not O.tgz:
        return body
    tmp = O.tgz + ".part"
    with tarfile.open(tmp, "w:gz") as tar:
        tar.add(raw_path, arcname="limits.jsonl")
        tar.add(os.path.join(work, "limits.md"), arcname="limits.md")
        tar.add(os.path.join(work, "ncu-query-metrics.txt"), arcname="ncu-query-metrics.txt")
        if os.path.exists(os.path.join(work, "peaks.txt")):
            tar.add(os.path.join(work, "peaks.txt"), arcname="peaks.txt")
    os.replace(tmp, O.tgz)
    return body


emit({"kind": "device", "device": dev, "backend": O.backend, "ncu_version": version, "metrics_asked": ASK,
      "metrics_not_listed": unlisted, "listing_found": bool(listed), "sizes": O.sizes, "reps": O.reps,
      "gemmtop": B, "date": time.strftime("%Y-%m-%d %H:%M:%S"), "measure_messages": measured, "cache_control": "ncu's default (flushed each pass)",
      "clock_control": "none"})


rows_by_size, skipped, spent = {}, [], []
for preset, size in items:
    elapsed = time.monotonic() - T0
    per_row = sum(spent) / len(spent) if spent else 0
    if O.budget and elapsed + per_row > O.budget:
        skipped.append((preset, size))
        emit({"kind": "skipped", "preset": preset, "size": size, "why": f"budget: {elapsed:.0f} s of {O.budget:.0f}"})
        continue
    start = time.monotonic()
    compiled = prepared[(preset, size)].result()
    waited = round(time.monotonic() - start, 2)
    row = {"kind": "row", "preset": preset, "size": size, "compile": compiled, "waited_seconds": waited,
           "banks": banks(preset, size) if O.banks else {"error": "not taken (no --banks)"}}
    row["banks_seconds"] = round(time.monotonic() - start - waited, 2)
    row["explain"] = explain(preset, size)
    cmd = [B, "run"] + DEV_ARGS + ["--preset", preset] + size_args(size) + ["--reps", "1", "--warmup", "0",
                                   "--no-verify", "--no-store"]
    if "limits" in row["explain"] and row["explain"]["run"].get("status") == "ok":
        row["ncu"] = ncu_csv.profile(cmd, ASK, timeout=remaining(300), fallback=[m for m in CORE if m in ASK])
        # A name refused once is refused for every row: not asked again.
        ASK = [m for m in ASK if m not in row["ncu"]["rejected"]]
        ratio = bank_ratio(row["banks"])
        row["judged"] = judged(preset, size, row["ncu"]["values"]) if row["ncu"]["values"] else None
        row["compare"] = (compare(row["explain"]["limits"], row["ncu"]["values"], ratio, row["judged"],
                                  row["explain"]["run"], row["banks"]) if row["ncu"]["values"] else None)
    else:
        row["ncu"] = {"argv": None, "values": {}, "tail": "not profiled: gemmtop's run failed", "rejected": [],
                      "missing": []}
        row["compare"] = None
    row["seconds"] = round(time.monotonic() - start, 2)
    spent.append(row["seconds"])
    row["md"] = md_row(preset, size, row)
    rows_by_size.setdefault(size, []).append(row)
    emit({k: v for k, v in row.items() if k != "md"})
    body = save(rows_by_size, skipped)
    lim = row["explain"].get("limits", {}).get("limiter", "failed")
    c = row["compare"] or {}
    got = len(row["ncu"]["values"])
    if FILES:
        print(f"{preset} {size}: {lim}; ncu {got} figures, highest {c.get('ncu_unit') or '-'} "
              f"{fmt(c.get('ncu_pct'))}%; {row['seconds']:.1f} s (waited {waited:.1f} s for its compile of "
              f"{compiled['compile_seconds']:.1f} s, banks {row['banks_seconds']:.1f} s)", flush=True)

pool.shutdown(wait=False, cancel_futures=True)  # what the budget left out is not prepared
for p in list(RUNNING):  # nor compiled on after the table
    p.kill()
rejected = sorted({m for rows in rows_by_size.values() for r in rows for m in r["ncu"].get("rejected", [])})
emit({"kind": "end", "seconds": round(time.monotonic() - T0, 1), "rows": sum(map(len, rows_by_size.values())),
      "skipped": len(skipped), "rejected_when_profiling": rejected})
raw.close()
body = save(rows_by_size, skipped)
if not FILES:
    print(body)
# The short table last.
print("\n| size | rows | ncu measured | same limiter | bytes vs L2 | model vs DRAM reads | "
      "DRAM inside the drift range | wavefronts | same limiter, own run | loads vs received | fabric vs ltcfabric |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for size in O.sizes:
    rows = rows_by_size.get(size, [])
    t = tally(rows)
    print(f"| {size} | {len(rows)} | {sum(1 for r in rows if r['ncu']['values'])} | "
          + " | ".join(share(t[k]) for k, _ in SHARES) + " |")
print(f"\n{len(skipped)} rows left out by the budget; {len(unlisted)} metric names not in ncu's listing, "
      f"{len(rejected)} rejected when profiling: {', '.join(unlisted + rejected) or 'none'}; "
      f"{time.monotonic() - T0:.0f} s; {O.tgz or O.out or 'the table above'}")
