#!/bin/sh
# On the GPU machine (an H100 with NVIDIA's driver, CUDA and PoCL; no OpenCL headers, no
# network; NVIDIA's OpenCL driver present but not registered): register NVIDIA's OpenCL driver with the
# ICD loader and unpack the carried CLBlast package. Sourced by the benchmark commands.
mkdir -p /etc/OpenCL/vendors
echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
for f in .device-carry/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export PATH="/usr/local/cuda/bin:$PATH" # cuobjdump: SASS in inspect
# A build carried without MPI (build/gemmtop-nompi), with the libraries the machine lacks
# (.device-carry/lib: cJSON, SQLite), stands in where the full build is absent or cannot start.
export LD_LIBRARY_PATH="$PWD/.device-carry/lib:$LD_LIBRARY_PATH"
if ! build/gemmtop --version > /dev/null 2>&1 && [ -x build/gemmtop-nompi ]; then
   cp build/gemmtop-nompi build/gemmtop
fi
