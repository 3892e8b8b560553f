/*@gemmtop
name:     test_syntax_error
title:    Does not compile (for the tests): a missing semicolon and an unknown name
ladder:   test
step:     2
hidden:   yes
operands: any
global:   N, M
local:    16, 16
*/
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0)
   C[col] = undefined_name;
}
