/* A made-up NVML (libnvidia-ml) for test_observe: built as a shared library beside the
 * tests (libfake_nvml.so), loaded by gemmtop through $GEMMTOP_NVML, and scripted by the
 * test through FakeNvml_script in the same loaded copy. */
#ifndef GEMMTOP_FAKE_NVML_H
#define GEMMTOP_FAKE_NVML_H

#define FAKE_NVML_MAX 16

typedef struct FakeNvmlScript_ {
   int init_result;                 /* nvmlInit_v2's answer (0: success) */
   unsigned count;                  /* GPUs it lists */
   char pci_bus_id[32];             /* the one GPU found by PCI bus id ("": none) */
   unsigned sm_mhz[FAKE_NVML_MAX];  /* the SM clock, one a call (the last one repeats) */
   int nsm;
   unsigned mem_mhz;
   unsigned power_mw[FAKE_NVML_MAX];
   int npower;
   unsigned temp_c;
   unsigned long long energy_mj[FAKE_NVML_MAX]; /* the running total, one a call */
   int nenergy;                     /* 0: the call fails (an older GPU without the counter) */
   unsigned long long reasons;      /* clock event reasons (nvml.h bits) */
} FakeNvmlScript;

typedef struct FakeNvmlCalls_ {
   int sm;                          /* SM clock queries so far */
   char asked_pci[32];              /* the PCI bus id last asked for */
} FakeNvmlCalls;

typedef void FakeNvmlScriptFn(const FakeNvmlScript *script);
typedef const FakeNvmlCalls *FakeNvmlCallsFn(void);

#endif
