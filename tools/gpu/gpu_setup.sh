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
