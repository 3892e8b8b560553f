"""Nsight Compute's figures for one launch of gemmtop, as the GPU scripts read them: the
first kernel named gemm of the command `run`, the metrics named, with the clocks left as
they are. Shared by gpu_banks_ncu.py and gpu_hopper_ncu.py."""
import csv, io, subprocess


def measure(run, metrics):
    """{metric name: value} from ncu's CSV, and the end of its output (to show when empty)."""
    n = subprocess.run(["ncu", "--clock-control", "none", "--kernel-name", "gemm", "--launch-count", "1", "--csv",
                        "--metrics", ",".join(metrics)] + run, capture_output=True, text=True)
    vals = {}
    text = n.stdout[n.stdout.find('"ID"'):] if '"ID"' in n.stdout else ""
    for row in csv.DictReader(io.StringIO(text)):
        try:
            vals[row["Metric Name"]] = float(row["Metric Value"].replace(",", ""))
        except (KeyError, ValueError):
            pass
    return vals, n.stdout[-1500:] + n.stderr[-1500:]
