/* The made-up NVML: see fake_nvml.h. Only the calls gemmtop makes, with NVML's shapes. */
#include <stdio.h>
#include <string.h>

#include "fake_nvml.h"

typedef struct nvmlDevice_st *nvmlDevice_t;
enum { OK = 0, NOT_SUPPORTED = 3, NOT_FOUND = 6 };

static FakeNvmlScript script;
static FakeNvmlCalls calls;
static int energy_calls, power_calls;

/* Exported for the test (and so not static, nor in a header of gemmtop's). */
void FakeNvml_script(const FakeNvmlScript *s);
const FakeNvmlCalls *FakeNvml_calls(void);
int nvmlInit_v2(void);
int nvmlDeviceGetCount_v2(unsigned *n);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvmlDevice_t *d);
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d);
int nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned *mhz);
int nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned *mw);
int nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned *c);
int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj);
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *reasons);

void FakeNvml_script(const FakeNvmlScript *s) {
   script = *s;
   memset(&calls, 0, sizeof calls);
   energy_calls = power_calls = 0;
}
const FakeNvmlCalls *FakeNvml_calls(void) { return &calls; }

static nvmlDevice_t theGpu(void) { return (nvmlDevice_t)&script; }

int nvmlInit_v2(void) { return script.init_result; }
int nvmlDeviceGetCount_v2(unsigned *n) {
   *n = script.count;
   return OK;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvmlDevice_t *d) {
   snprintf(calls.asked_pci, sizeof calls.asked_pci, "%s", bus);
   if (!script.pci_bus_id[0] || strcmp(bus, script.pci_bus_id))
      return NOT_FOUND;
   *d = theGpu();
   return OK;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t *d) {
   if (i >= script.count)
      return NOT_FOUND;
   *d = theGpu();
   return OK;
}
int nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned *mhz) {
   if (d != theGpu())
      return NOT_FOUND;
   if (type == 2) { /* memory */
      *mhz = script.mem_mhz;
      return OK;
   }
   if (type != 1 || script.nsm == 0)
      return NOT_SUPPORTED;
   int i = calls.sm++;
   *mhz = script.sm_mhz[i < script.nsm ? i : script.nsm - 1];
   return OK;
}
int nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned *mw) {
   if (script.npower == 0)
      return NOT_SUPPORTED;
   int i = power_calls++;
   *mw = script.power_mw[i < script.npower ? i : script.npower - 1];
   return OK;
}
int nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned *c) {
   *c = script.temp_c;
   return sensor == 0 ? OK : NOT_SUPPORTED;
}
int nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long *mj) {
   if (script.nenergy == 0)
      return NOT_SUPPORTED;
   int i = energy_calls++;
   *mj = script.energy_mj[i < script.nenergy ? i : script.nenergy - 1];
   return OK;
}
int nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t d, unsigned long long *reasons) {
   *reasons = script.reasons;
   return OK;
}
