#!/usr/bin/env python3
"""cuBLAS SGEMM/DGEMM through PyTorch on the same device, for the reference column of
docs/perf.md: device-event timing, warm-up, median of 20, TF32 off (true FP32)."""
import statistics, sys, torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
sizes = [int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "1024,2048,4096,8192").split(",")]
for dtype in (torch.float32, torch.float64):
    for n in sizes:
        a = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        b = torch.rand(n, n, device="cuda", dtype=dtype) * 2 - 1
        for _ in range(5):
            torch.mm(a, b)
        times = []
        for _ in range(20):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); torch.mm(a, b); e.record(); e.synchronize()
            times.append(s.elapsed_time(e))
        ms = statistics.median(times)
        print(f"cublas {str(dtype).replace('torch.',''):8s} {n:5d} {ms:9.3f} ms {2*n**3/ms/1e6:10.1f} GFLOPS")
