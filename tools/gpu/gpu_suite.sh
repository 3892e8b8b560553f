#!/bin/sh
# On the GPU machine: the whole suite (tests/run_all.sh) where a GPU is the default device.
# NVIDIA's OpenCL is registered (gpu_setup.sh), so the suite's unnamed device is the H100
# and PoCL is what the tests name; what the machine lacks comes from .device-carry/suite
# (tools/gpu/suite_bundle.sh, run here first). Carry build/gemmtop, build/gemmtop-nompi
# and .device-carry. GEMMTOP_UNIT_JOBS unit tests, then GEMMTOP_TEST_JOBS scripts, at
# once (default 8 and 12), and GEMMTOP_KERNEL_JOBS kernels at once inside cli_ladder and
# cli_ablate (default 8). The whole suite takes longer there than the ten minutes a device
# command may run (seen 2026-11-24: unit tests 25 s, the other scripts 273 s; cli_ladder,
# which verifies every variant on PoCL, and cli_ablate, which compiles every kernel on a
# cold PoCL, each over 540 s one kernel at a time), so it runs in two commands:
#   GEMMTOP_TEST_PARTS=unit sh tools/gpu/gpu_suite.sh; GEMMTOP_TEST_PARTS=e2e \
#      GEMMTOP_E2E_SCRIPTS='/(cli_[b-km-z]|cli_l[^a]|cli_a[^b]|[^c]|c[^l])[a-z_0-9]*\.sh$' sh tools/gpu/gpu_suite.sh
#   GEMMTOP_TEST_PARTS=e2e GEMMTOP_E2E_SCRIPTS='/cli_(ladder|ablate)' sh tools/gpu/gpu_suite.sh
. tools/gpu/gpu_setup.sh
# The bundle goes into a folder of its own: unpacked over / it would replace the
# machine's own programs and libraries. Its programs and Python modules come after the
# machine's; its libraries are found by LD_LIBRARY_PATH (the C runtime is not in it).
extra=/opt/gemmtop-suite
mkdir -p "$extra"
for f in .device-carry/suite/*.deb; do dpkg -x "$f" "$extra"; done
export PATH="$PATH:$extra/usr/bin"
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$extra/usr/lib/x86_64-linux-gnu"
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$extra/usr/lib/python3/dist-packages"
mkdir -p build/tests
tar xzf .device-carry/suite/tests.tgz -C build/tests --strip-components=1
# The device a test that names none gets: it must be the GPU.
build/gemmtop list devices 2>&1 | grep -E '^\[[0-9]+\]'
GEMMTOP_UNIT_JOBS=${GEMMTOP_UNIT_JOBS:-8} GEMMTOP_TEST_JOBS=${GEMMTOP_TEST_JOBS:-12} \
   GEMMTOP_KERNEL_JOBS=${GEMMTOP_KERNEL_JOBS:-8} BUILD=build sh tests/run_all.sh
