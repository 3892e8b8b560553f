"""Nsight Compute's figures for one launch of gemmtop, as the GPU scripts read them: the
first kernel named gemm of the command `run`, the metrics named, with the clocks left as
they are. Shared by gpu_banks_ncu.py, gpu_hopper_ncu.py and gpu_limits_ncu.py.

`run` is the whole command ncu starts: the program first (an executable file: a command
without it, `run --preset ...`, made ncu answer "'run' does not exist or is not an
executable" on every row of gpu_limits_ncu.py's first run), then its arguments."""
import csv, io, os, re, subprocess, time

# Metrics that describe the launch or the device rather than a counter: --query-metrics
# does not list them, so they are never judged by that list.
UNLISTED = ("launch__", "device__", "profiler__")


def base_name(metric):
    """The name --query-metrics lists: without the roll-up and its suffixes."""
    return metric.split(".", 1)[0]


def program_problem(run):
    """Why ncu could not start run[0] (None when it can): it must name an executable file."""
    if not run:
        return "no program to profile"
    if not os.path.isfile(run[0]) or not os.access(run[0], os.X_OK):
        return f"the program to profile, '{run[0]}', is not an executable file (give its path, e.g. build/gemmtop)"
    return None


def listed_metrics():
    """The base names that `ncu --query-metrics` lists for this machine's GPU, and its text
    (empty when ncu could not list them: every metric is then tried)."""
    try:
        q = subprocess.run(["ncu", "--query-metrics"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return set(), f"ncu --query-metrics: {e}"
    names = set()
    for line in q.stdout.splitlines():
        words = line.split()
        if words and "__" in words[0]:
            names.add(words[0])
    return names, q.stdout + q.stderr


def _text(out):
    """What a timed-out child had written (bytes or text, or None)."""
    return out.decode(errors="replace") if isinstance(out, bytes) else (out or "")


def _parse(stdout):
    """{metric: (value or None, unit, text)} from the CSV of one kernel."""
    out = {}
    text = stdout[stdout.find('"ID"'):] if '"ID"' in stdout else ""
    for row in csv.DictReader(io.StringIO(text)):
        name = row.get("Metric Name")
        if not name or name in out:  # the first launch only
            continue
        raw = (row.get("Metric Value") or "").strip()
        try:
            value = float(raw.replace(",", ""))
        except ValueError:
            value = None
        out[name] = (value, (row.get("Metric Unit") or "").strip(), raw)
    return out


def profile(run, metrics, timeout=300, fallback=None, attempts=4):
    """One ncu invocation on the command run (program first) for metrics. Names this ncu
    rejects (those its ==ERROR== lines mention) are dropped and the rest asked again, up to
    `attempts` invocations in all; when ncu gives nothing and names none, the `fallback`
    metrics (a smaller set known to exist) are asked once. Returns {argv, rc, seconds,
    values, units, raw, rejected, missing, fallback, tail}: values only where ncu gave a
    number; missing: asked, accepted and absent from its table."""
    res = {"argv": None, "rc": None, "seconds": 0.0, "values": {}, "units": {}, "raw": {}, "rejected": [],
           "missing": [], "fallback": False, "tail": ""}
    why = program_problem(run)
    if why:
        res["tail"] = why
        return res
    asked = list(metrics)
    start = time.monotonic()
    got = {}
    for attempt in range(attempts):
        argv = ["ncu", "--clock-control", "none", "--kernel-name", "gemm", "--launch-count", "1", "--csv",
                "--print-units", "base", "--metrics", ",".join(asked)] + list(run)
        res["argv"] = argv
        try:
            n = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
            res["rc"], out, err = n.returncode, n.stdout, n.stderr
        except subprocess.TimeoutExpired as e:
            res["rc"], out, err = "timeout", _text(e.stdout), f"\nncu ran past {timeout} s"
        got = _parse(out)
        res["tail"] = (out[-1500:] + err[-1500:]) if not got else ""
        if got or res["rc"] == "timeout" or attempt == attempts - 1:
            break
        # Which of the names asked ncu refused: those its error lines mention.
        errors = "\n".join(l for l in (out + "\n" + err).splitlines() if "ERROR" in l)
        bad = [m for m in asked if re.search(r"\b" + re.escape(base_name(m)) + r"\b", errors)]
        if bad and len(bad) < len(asked):
            res["rejected"] += bad
            asked = [m for m in asked if m not in bad]
        elif fallback and not res["fallback"] and set(fallback) != set(asked):
            res["fallback"] = True
            asked = list(fallback)
        else:
            break
    res["seconds"] = round(time.monotonic() - start, 2)
    for name, (value, unit, raw) in got.items():
        res["raw"][name] = raw
        res["units"][name] = unit
        if value is not None:
            res["values"][name] = value
    res["missing"] = [m for m in asked if m not in got] if got else []
    return res


def measure(run, metrics):
    """{metric name: value} from ncu's CSV, and the end of its output (to show when empty)."""
    r = profile(run, metrics)
    return r["values"], r["tail"]
