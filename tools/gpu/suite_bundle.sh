#!/bin/sh
# Here, before tools/gpu/gpu_suite.sh: bundles what the whole suite needs on the GPU
# machine and does not find there, into .device-carry/suite (carried with the run): the
# unit tests, stripped, and the Debian packages of cmocka, python3-jsonschema and
# rsvg-convert with their libraries (fonts, perl, Python itself and the C runtime left
# out; one font kept). gpu_suite.sh unpacks them into a folder of their own, never over
# the machine's system. Needs `make test` built first and Debian's package mirror.
set -e
cd "$(dirname "$0")/../.."
out=.device-carry/suite
rm -rf "$out" && mkdir -p "$out/tests"
# The tests and what they load beside themselves (libfake_nvml.so, test_observe's NVML).
for t in build/tests/test_* build/tests/*.so; do
   case "$t" in *.d) continue ;; esac
   strip -o "$out/tests/$(basename "$t")" "$t"
done
tar czf "$out/tests.tgz" -C "$out" tests && rm -rf "$out/tests"
pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
   --no-enhances --no-pre-depends librsvg2-bin python3-jsonschema libcmocka0 | grep '^[a-z]' | sort -u |
   grep -vE '^(fonts-|xfonts-|perl|libperl|python3(\.[0-9]+)?(-minimal)?$|libpython3|libc6$|libgcc-s1$|libstdc\+\+6$|gcc-[0-9]+-base$)')
(cd "$out" && apt-get download $pkgs >/dev/null)
du -sh "$out"
