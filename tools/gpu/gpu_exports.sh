#!/bin/sh
# On the GPU machine (issues 43 and 49): exported kernels end to end. Each case is exported
# for CUDA (export-kernel), built with nvcc (in parallel), its launcher run on its own random
# inputs (verified against a product in double, timed with events) and gemmtop's own run of
# the same configuration timed beside it: the table gives the launcher's figure as % of
# gemmtop's. The default cases are the FP8 ladder's, per-tensor and block scales; then the
# check is shown to fail: a copy of a block-scaled launcher whose reference reads B's scales
# transposed must report wrong elements (exit 1), or the check proves nothing. CASES names
# another list (tools/gpu/gpu_shapes.sh gives the model shapes' kernels; exports-both.cases
# those and FP8's). With PyTorch on the machine, each case's PyTorch extension
# (NAME_torch.py) is built too, all at once, then run one at a time: its check against
# float64 and its time per call, which includes the call's host work.
# Run from the project's root after tools/gpu/gpu_setup.sh, with build/ carried:
#    sh tools/gpu/gpu_exports.sh          (results: $OUT/exports.tgz; a short table last)
# A stand-in run elsewhere (no GPU): B (the binary), ARCH and CUS (export for them with
# --arch and --compute-units, then nothing is launched), CASES (a file of cases, the format
# below).
B=${B:-build/gemmtop}
out=${OUT:-/tmp}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/exports" "$out"
d="$w/exports"
export XDG_CACHE_HOME="$w/cache" XDG_CONFIG_HOME="$w/config" XDG_DATA_HOME="$w/data"
{
   date -u
   nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
   "$B" --version 2>&1
} >"$d/about.txt"

# name | options of export-kernel and run (a preset and what it overrides)
cat >"$d/cases.txt" <<'EOF'
h6-e4m3-block-3840|--preset hopper-fp8-6-hybrid --size 3840x3840x4096
h6-e4m3-tensor-3840|--preset hopper-fp8-6-hybrid-tensor --size 3840x3840x4096
h6-e5m2-block-odd|--preset hopper-fp8-6-hybrid --precision e5m2 --size 1152x768x4096 --alpha 1.5 --beta -0.5
h6-e4m3-block-streamk|--preset hopper-fp8-6-hybrid --size 128x3840x14336
h5-e4m3-block-4096|--preset hopper-fp8-tuned-block --size 3840x3840x4096
h2-e4m3-block-2048|--preset hopper-fp8-2-blockscale --size 2048
mma1-e5m2-block|--kernel fp8mma1_scaled --precision e5m2 --scaling block --layout NT --size 2048x1024x4096 --alpha 1.5 --beta 0.5
EOF
[ -n "$CASES" ] && cp "$CASES" "$d/cases.txt"
target=
[ -n "$ARCH" ] && target="--arch $ARCH --compute-units ${CUS:-132}"

# 1. export every case
while IFS='|' read -r name opts; do
   [ -n "$name" ] || continue
   # shellcheck disable=SC2086 # the options are words
   "$B" export-kernel --backend cuda $target $opts --dir "$d/$name/src" >"$d/$name.export" 2>&1
   echo $? >"$d/$name.export.rc"
done <"$d/cases.txt"

# 2. build them in parallel; the planted fault from the first block-scaled case
first=$(sed -n 's/^\([^|]*block[^|]*\)|.*/\1/p' "$d/cases.txt" | head -n 1)
if [ -n "$first" ] && [ -d "$d/$first/src" ]; then
   cp -r "$d/$first/src" "$d/planted"
   l=$(ls "$d/planted"/*_launch.cu | head -n 1)
   sed -i 's|scalesB\[(size_t)(p) / 128 \* GEMM_NB + (size_t)(j) / 128\]|scalesB[(size_t)(j) / 128 * GEMM_KB + (size_t)(p) / 128]|' "$l"
   grep -q 'scalesB\[(size_t)(j) / 128' "$l" && echo planted >"$d/planted/what.txt"
fi
for s in "$d"/*/src "$d/planted"; do
   [ -f "$s/Makefile" ] && (make -C "$s" >"$s/make.log" 2>&1; echo $? >"$s/make.rc") &
done
wait

# 3. run each launcher, then gemmtop's run of the same case
pack() { (cd "$w" && tar czf "$out/exports.tgz.part" --exclude=torch-build exports && mv "$out/exports.tgz.part" "$out/exports.tgz"); }
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
echo "seed $seed" >>"$d/about.txt"
launch() { # folder -> launch.txt, launch.rc
   l=$(ls "$1"/*_launch 2>/dev/null | head -n 1)
   if [ -z "$l" ] || [ -n "$ARCH" ]; then
      echo "not launched" >"$1/launch.txt"
      echo 2 >"$1/launch.rc"
      return
   fi
   t0=$(date +%s)
   (cd "$1" && timeout 120 "./$(basename "$l")" 0 "$seed") >"$1/launch.txt" 2>&1
   echo $? >"$1/launch.rc"
   echo "$(($(date +%s) - t0)) s" >"$1/launch.seconds"
}
while IFS='|' read -r name opts; do
   [ -n "$name" ] || continue
   launch "$d/$name/src"
   if [ -z "$ARCH" ]; then
      # shellcheck disable=SC2086
      timeout 120 "$B" run --backend cuda $opts --reps 20 --vendor --format json >"$d/$name.run.json" 2>"$d/$name.run.err"
   fi
   pack # what ran comes back even if the call is cut short
done <"$d/cases.txt"
[ -d "$d/planted" ] && launch "$d/planted"
pack

# The PyTorch extensions: built at once (each in its own folder: two cases may share a
# kernel), then run one at a time, as the launchers are (a time taken beside another's build
# or run is not the kernel's).
if python3 -c "import torch; assert torch.cuda.is_available()" >"$d/torch-about.txt" 2>&1 && [ -z "$ARCH" ]; then
   python3 -c "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda)" >>"$d/torch-about.txt" 2>&1
   torch_run() { # folder, then the script's arguments
      s=$1
      shift
      py=$(ls "$s"/*_torch.py 2>/dev/null | head -n 1)
      [ -n "$py" ] && (cd "$s" && TORCH_EXTENSIONS_DIR="$s/torch-build" timeout 400 python3 "$(basename "$py")" "$@")
   }
   while IFS='|' read -r name opts; do
      [ -n "$name" ] && (torch_run "$d/$name/src" --build >"$d/$name/src/torch-build.txt" 2>&1 </dev/null) &
   done <"$d/cases.txt"
   wait
   while IFS='|' read -r name opts; do
      [ -n "$name" ] || continue
      torch_run "$d/$name/src" "$seed" >"$d/$name/src/torch.txt" 2>&1 </dev/null
      echo $? >"$d/$name/src/torch.rc"
   done <"$d/cases.txt"
   pack
fi

# The short table: the launcher's figure and check beside gemmtop's.
python3 - "$d" <<'PY'
import json, os, re, sys
d = sys.argv[1]
print(open(os.path.join(d, "about.txt")).read().strip())
def rd(p, default=""):
    try:
        return open(p).read().strip()
    except OSError:
        return default
def launcher(folder):
    txt = rd(os.path.join(folder, "launch.txt"))
    rc = rd(os.path.join(folder, "launch.rc"), "?")
    m = re.search(r"([0-9.]+) GFLOPS", txt)
    bad = re.search(r"(\d+) of (\d+) .*?(beyond|wrong)", txt)
    return (float(m.group(1)) if m else None), rc, txt
def torch_ext(folder):  # the PyTorch extension's GFLOPS and check, where it ran
    txt, rc = rd(os.path.join(folder, "torch.txt")), rd(os.path.join(folder, "torch.rc"), "")
    if not rc:
        return None, ""
    m = re.search(r"([0-9.]+) GFLOPS \(seed", txt)
    v = re.search(r"^(verified|WRONG)[^\n]*", txt, re.M)
    return (float(m.group(1)) if m else None), "torch rc %s %s" % (rc, v.group(0)[:60] if v else txt.splitlines()[-1][:90] if txt else "")
print("%-24s %-7s %-5s %11s %11s %7s %11s  %s" % ("case", "export", "nvcc", "launcher", "gemmtop", "ratio",
                                               "vendor", "launcher's check"))
for line in open(os.path.join(d, "cases.txt")):
    if "|" not in line:
        continue
    name = line.split("|")[0]
    src = os.path.join(d, name, "src")
    erc = rd(os.path.join(d, name + ".export.rc"), "?")
    mrc = rd(os.path.join(src, "make.rc"), "-")
    gf, rc, txt = launcher(src)
    ours = vendor = None
    verdict = ""
    try:
        r = json.loads(open(os.path.join(d, name + ".run.json")).readline())
        ours = r.get("gflops")
        vendor = (r.get("vendor") or {}).get("gflops") if isinstance(r.get("vendor"), dict) else r.get("vendor_gflops")
        verdict = "gemmtop %s %.1e" % ("verified" if r.get("verified") else "NOT verified", r.get("max_rel_err") or 0)
    except (OSError, ValueError):
        verdict = rd(os.path.join(d, name + ".run.err"))[-120:] or rd(os.path.join(d, name + ".export"))[-160:]
    last = txt.splitlines()[-1] if txt else ""
    print("%-24s %-7s %-5s %11s %11s %7s %11s  rc %s %s | %s" % (
        name, erc, mrc, "%.0f" % gf if gf else "-", "%.0f" % ours if ours else "-",
        "%.1f%%" % (100 * gf / ours) if gf and ours else "-", "%.0f" % vendor if vendor else "-", rc, last[:70], verdict))
    tg, tv = torch_ext(src)
    if tv:
        print("%-24s %-13s %11s %11s %7s %11s  %s" % ("", "  PyTorch ext", "%.0f" % tg if tg else "-",
              "%.0f" % ours if ours else "-", "%.1f%%" % (100 * tg / ours) if tg and ours else "-", "", tv))
p = os.path.join(d, "planted")
if os.path.isdir(p):
    gf, rc, txt = launcher(p)
    last = txt.splitlines()[-1] if txt else ""
    print("planted fault (%s): launcher rc %s (1 expected: wrong elements found) | %s" % (
        rd(os.path.join(p, "what.txt"), "NOT planted"), rc, last[:100]))
PY
