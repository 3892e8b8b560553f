#!/bin/sh
# Sourced by the GPU machine's MPI scripts (gpu_mpi.sh, gpu_mpi2.sh), before gpu_setup.sh
# (which would put the build without MPI in place of one whose libmpi it cannot find):
# sets MPIRUN. Open MPI is the machine's own mpirun when it has one (the H100 machine had
# Ubuntu's Open MPI 4.1.6 on 2026-11-24, ABI-compatible with Debian 12's 4.1.4 that gemmtop
# is built against); otherwise its Debian packages, carried in .device-carry/mpi/, are
# unpacked into a folder of their own, not over /. To carry them, on a Debian 12 machine
# with the network:
#   mkdir -p .device-carry/mpi && (cd .device-carry/mpi && apt-get download openmpi-bin \
#     openmpi-common libopenmpi3 libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
#     libfabric1 libucx0 libibverbs1 librdmacm1 libpsm2-2 libpsm-infinipath1 libnl-3-200 \
#     libnl-route-3-200 libnuma1 libmunge2 libxnvctrl0 libpciaccess0 libsqlite3-0 libltdl7)
# and carry .device-carry/mpi and build (made with MPI: `nm build/gemmtop | grep MPI_Init`).
if command -v mpirun >/dev/null 2>&1; then
   MPIRUN="mpirun --oversubscribe --bind-to none"
else
   MPIROOT=/tmp/gemmtop-mpi
   mkdir -p "$MPIROOT"
   for f in .device-carry/mpi/*.deb; do [ -e "$f" ] && dpkg -x "$f" "$MPIROOT"; done
   export OPAL_PREFIX="$MPIROOT/usr" PATH="$MPIROOT/usr/bin:$PATH"
   export LD_LIBRARY_PATH="$MPIROOT/usr/lib/x86_64-linux-gnu/openmpi/lib:$MPIROOT/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
   MPIRUN="orterun --oversubscribe --bind-to none"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
