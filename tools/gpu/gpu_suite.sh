#!/bin/sh
# On the GPU machine: the whole suite (tests/run_all.sh) where a GPU is the default device.
# NVIDIA's OpenCL is registered (gpu_setup.sh), so the suite's unnamed device is the H100
# and PoCL is what the tests name; what the machine lacks comes from .device-carry/suite
# (tools/gpu/suite_bundle.sh, run here first). Carry build/gemmtop, build/gemmtop-nompi
# and .device-carry. GEMMTOP_TEST_JOBS scripts at once (default 6).
. tools/gpu/gpu_setup.sh
for f in .device-carry/suite/*.deb; do dpkg -x "$f" /; done
ldconfig
mkdir -p build/tests
tar xzf .device-carry/suite/tests.tgz -C build/tests --strip-components=1
"${BUILD:-build}"/gemmtop list devices 2>&1 | head -n 12
GEMMTOP_TEST_JOBS=${GEMMTOP_TEST_JOBS:-6} BUILD=build sh tests/run_all.sh
