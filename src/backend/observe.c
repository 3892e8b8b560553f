/* Observation: see observe.h. Two sources behind one small table: NVML, loaded at run
 * time so that gemmtop builds and runs without it, and the amdgpu driver's hwmon files.
 * Both are read only: nothing here sets a clock, a power limit or any other device
 * setting. */
#include "backend/observe.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void Observation_clear(Observation *o) {
   memset(o, 0, sizeof *o);
   o->sm_mhz = o->sm_mhz_min = o->sm_mhz_start = o->mem_mhz = NAN;
   o->power_w = o->temp_c = o->energy_j = o->gflops_per_w = NAN;
}

double Observation_smMhz(const Observation *o) { return o->known && isfinite(o->sm_mhz) ? o->sm_mhz : 0; }

/* One reading of the driver; NaN where it gave nothing. */
typedef struct Sample_ {
   double sm_mhz, mem_mhz, power_w, temp_c;
   double energy_j;                /* the driver's running total */
   unsigned long long reasons;     /* NVML's clock event reasons (0 elsewhere) */
} Sample;

typedef struct Source_ {
   const char *name;
   void (*read)(void *state, Sample *s);
   void (*close)(void *state);
} Source;

static void clearSample(Sample *s) {
   s->sm_mhz = s->mem_mhz = s->power_w = s->temp_c = s->energy_j = NAN;
   s->reasons = 0;
}

/* ---- NVML ---- */

typedef struct nvmlDevice_st *NvmlDevice;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

/* The clock event reasons that mean the clock was held down (nvml.h's bits); idle, the
 * application clocks and sync boost are settings, not throttling. */
static const struct {
   unsigned long long bit;
   const char *what;
} nvmlReasons[] = {
    {0x4, "power cap"},          {0x8, "hardware slowdown"}, {0x20, "thermal"},
    {0x40, "thermal (hardware)"}, {0x80, "power brake"},
};

static struct {
   pthread_mutex_t lock;
   char path[PATH_MAX];            /* the library tried last, and whether it loaded */
   bool tried, ok;
   char why[160];
   void *lib;
   int (*init)(void);
   int (*count)(unsigned *);
   int (*byPci)(const char *, NvmlDevice *);
   int (*byIndex)(unsigned, NvmlDevice *);
   int (*clock)(NvmlDevice, int, unsigned *);
   int (*power)(NvmlDevice, unsigned *);
   int (*temperature)(NvmlDevice, int, unsigned *);
   int (*energy)(NvmlDevice, unsigned long long *);
   int (*reasons)(NvmlDevice, unsigned long long *);
} nvml = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void *nvmlSymbol(const char *name, const char *older) {
   void *f = dlsym(nvml.lib, name);
   return f || !older ? f : dlsym(nvml.lib, older);
}

/* Loads and initialises NVML once per library path (the tests point $GEMMTOP_NVML at a
 * made-up one, and at a missing one). */
static bool loadNvml(void) {
   const char *env = getenv("GEMMTOP_NVML");
   const char *path = env && *env ? env : "libnvidia-ml.so.1";
   pthread_mutex_lock(&nvml.lock);
   if (!nvml.tried || strcmp(nvml.path, path)) {
      snprintf(nvml.path, sizeof nvml.path, "%s", path);
      nvml.tried = true;
      nvml.ok = false;
      nvml.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!nvml.lib) {
         snprintf(nvml.why, sizeof nvml.why, "NVML not found (%s)", path);
      } else {
         *(void **)&nvml.init = nvmlSymbol("nvmlInit_v2", "nvmlInit");
         *(void **)&nvml.count = nvmlSymbol("nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
         *(void **)&nvml.byPci = nvmlSymbol("nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId");
         *(void **)&nvml.byIndex = nvmlSymbol("nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
         *(void **)&nvml.clock = nvmlSymbol("nvmlDeviceGetClockInfo", NULL);
         *(void **)&nvml.power = nvmlSymbol("nvmlDeviceGetPowerUsage", NULL);
         *(void **)&nvml.temperature = nvmlSymbol("nvmlDeviceGetTemperature", NULL);
         *(void **)&nvml.energy = nvmlSymbol("nvmlDeviceGetTotalEnergyConsumption", NULL);
         *(void **)&nvml.reasons =
            nvmlSymbol("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons");
         if (!nvml.init || !nvml.count || !nvml.byIndex)
            snprintf(nvml.why, sizeof nvml.why, "%s lacks nvmlInit or the device calls (too old?)", path);
         else if (nvml.init() != NVML_SUCCESS)
            snprintf(nvml.why, sizeof nvml.why, "NVML did not initialise (no NVIDIA driver running?)");
         else
            nvml.ok = true;
      }
   }
   bool ok = nvml.ok;
   pthread_mutex_unlock(&nvml.lock);
   return ok;
}

static void nvmlRead(void *state, Sample *s) {
   NvmlDevice d = (NvmlDevice)state;
   unsigned u;
   unsigned long long ull;
   if (nvml.clock && nvml.clock(d, NVML_CLOCK_SM, &u) == NVML_SUCCESS)
      s->sm_mhz = u;
   if (nvml.clock && nvml.clock(d, NVML_CLOCK_MEM, &u) == NVML_SUCCESS)
      s->mem_mhz = u;
   if (nvml.power && nvml.power(d, &u) == NVML_SUCCESS)
      s->power_w = u / 1e3; /* mW */
   if (nvml.temperature && nvml.temperature(d, NVML_TEMPERATURE_GPU, &u) == NVML_SUCCESS)
      s->temp_c = u;
   if (nvml.energy && nvml.energy(d, &ull) == NVML_SUCCESS)
      s->energy_j = (double)ull / 1e3; /* mJ */
   if (nvml.reasons && nvml.reasons(d, &ull) == NVML_SUCCESS)
      s->reasons = ull;
}

static void nothingToClose(void *state) { (void)state; }

static const Source nvmlSource = {"NVML", nvmlRead, nothingToClose};

/* The NVML device of dev: by PCI bus id, else the only one. */
static bool openNvml(const DeviceInfo *dev, void **state, char *desc, size_t desclen, char *why, size_t whylen) {
   if (!loadNvml()) {
      snprintf(why, whylen, "%s", nvml.why);
      return false;
   }
   NvmlDevice d = NULL;
   if (dev->pci_bus_id[0] && nvml.byPci && nvml.byPci(dev->pci_bus_id, &d) == NVML_SUCCESS) {
      snprintf(desc, desclen, "NVML, %s (by PCI bus id)", dev->pci_bus_id);
   } else {
      unsigned n = 0;
      if (nvml.count(&n) != NVML_SUCCESS || n != 1 || nvml.byIndex(0, &d) != NVML_SUCCESS) {
         snprintf(why, whylen, "NVML: %s", dev->pci_bus_id[0] ? "no device at the PCI bus id of this one"
                                           : n > 1 ? "several GPUs and no PCI bus id to tell which is this one"
                                                   : "no device");
         return false;
      }
      snprintf(desc, desclen, "NVML, its only GPU (%s)",
               dev->pci_bus_id[0] ? "PCI bus id not found" : "the runtime gave no PCI bus id");
   }
   *state = d;
   return true;
}

/* ---- amdgpu's hwmon files ---- */

typedef struct Hwmon_ {
   char dir[PATH_MAX];
} Hwmon;

static const char *sysfsRoot(void) {
   const char *env = getenv("GEMMTOP_SYSFS_ROOT");
   return env && *env ? env : "/sys";
}

/* A whole number from dir/name; false when absent or not a number. */
static bool readNumber(const char *dir, const char *name, double *v) {
   char path[PATH_MAX + 64];
   snprintf(path, sizeof path, "%s/%s", dir, name);
   FILE *f = fopen(path, "r");
   if (!f)
      return false;
   long long x;
   bool ok = fscanf(f, "%lld", &x) == 1;
   fclose(f);
   if (ok)
      *v = (double)x;
   return ok;
}

static bool isAmdgpu(const char *hwmon) {
   char path[PATH_MAX + 8], name[32] = "";
   snprintf(path, sizeof path, "%s/name", hwmon);
   FILE *f = fopen(path, "r");
   if (!f)
      return false;
   bool ok = fgets(name, sizeof name, f) && !strncmp(name, "amdgpu", 6) && (name[6] == '\n' || !name[6]);
   fclose(f);
   return ok;
}

/* The amdgpu hwmon folder under device (a PCI device's folder); false if none. */
static bool hwmonOf(const char *device, char *out, size_t len) {
   char dir[PATH_MAX];
   snprintf(dir, sizeof dir, "%s/hwmon", device);
   DIR *d = opendir(dir);
   if (!d)
      return false;
   bool found = false;
   for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
      if (strncmp(e->d_name, "hwmon", 5))
         continue;
      snprintf(out, len, "%s/%s", dir, e->d_name);
      found = isAmdgpu(out);
   }
   closedir(d);
   return found;
}

/* Without a PCI bus id: the only amdgpu card under class/drm (card0, card1; not card0-DP-1). */
static int onlyAmdgpu(char *out, size_t len) {
   char drm[PATH_MAX];
   snprintf(drm, sizeof drm, "%s/class/drm", sysfsRoot());
   DIR *d = opendir(drm);
   if (!d)
      return 0;
   int found = 0;
   for (struct dirent *e; (e = readdir(d)) != NULL;) {
      if (strncmp(e->d_name, "card", 4) || strchr(e->d_name, '-'))
         continue;
      char device[PATH_MAX + 300], hw[PATH_MAX];
      snprintf(device, sizeof device, "%s/%s/device", drm, e->d_name);
      if (hwmonOf(device, hw, sizeof hw) && found++ == 0)
         snprintf(out, len, "%s", hw);
   }
   closedir(d);
   return found;
}

static void hwmonRead(void *state, Sample *s) {
   const Hwmon *h = state;
   double v;
   if (readNumber(h->dir, "freq1_input", &v)) /* sclk, Hz */
      s->sm_mhz = v / 1e6;
   if (readNumber(h->dir, "freq2_input", &v)) /* mclk, Hz */
      s->mem_mhz = v / 1e6;
   if (readNumber(h->dir, "power1_average", &v) || readNumber(h->dir, "power1_input", &v)) /* microwatts */
      s->power_w = v / 1e6;
   if (readNumber(h->dir, "temp1_input", &v)) /* millidegrees */
      s->temp_c = v / 1e3;
   if (readNumber(h->dir, "energy1_input", &v)) /* microjoules */
      s->energy_j = v / 1e6;
}

static void hwmonClose(void *state) { free(state); }

static const Source hwmonSource = {"sysfs", hwmonRead, hwmonClose};

static bool openHwmon(const DeviceInfo *dev, void **state, char *desc, size_t desclen, char *why, size_t whylen) {
   Hwmon *h = calloc(1, sizeof *h);
   if (!h) {
      snprintf(why, whylen, "out of host memory");
      return false;
   }
   char device[PATH_MAX];
   snprintf(device, sizeof device, "%s/bus/pci/devices/%s", sysfsRoot(), dev->pci_bus_id);
   if (dev->pci_bus_id[0] && hwmonOf(device, h->dir, sizeof h->dir)) {
      snprintf(desc, desclen, "amdgpu hwmon, %s (by PCI bus id)", dev->pci_bus_id);
   } else {
      int n = onlyAmdgpu(h->dir, sizeof h->dir);
      if (n != 1) {
         snprintf(why, whylen, "amdgpu hwmon: %s under %s", n ? "several GPUs and no PCI bus id to tell which"
                                                                 : "no amdgpu sensors",
                  sysfsRoot());
         free(h);
         return false;
      }
      snprintf(desc, desclen, "amdgpu hwmon, its only GPU");
   }
   *state = h;
   return true;
}

/* ---- the observer ---- */

#define OBSERVE_MAX_SAMPLES 512

struct Observer_ {
   Source src;
   void *state;
   char desc[160];
   double (*now)(void *);
   void *now_arg;
   double t_begin, t_read;
   Sample first, last;
   double sm[OBSERVE_MAX_SAMPLES]; /* for the median; past the cap only the lowest is kept */
   int nsm;
   double sm_min, mem_sum, power_sum, temp_max;
   int nmem, npower;
   unsigned long long reasons;
};

static double realNow(void *arg) {
   (void)arg;
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

Observer *Observer_open(const DeviceInfo *dev, char *why, size_t whylen) {
   snprintf(why, whylen, "no observer for %s", dev->name);
   if (dev->is_pocl || dev->type != DEVICE_GPU)
      return NULL; /* a CPU's clocks are not the driver's to tell */
   Observer *o = calloc(1, sizeof *o);
   if (!o) {
      snprintf(why, whylen, "out of host memory");
      return NULL;
   }
   bool ok = false;
   if (dev->vendor_kind == VENDOR_NVIDIA && (ok = openNvml(dev, &o->state, o->desc, sizeof o->desc, why, whylen)))
      o->src = nvmlSource;
   else if (dev->vendor_kind == VENDOR_AMD && (ok = openHwmon(dev, &o->state, o->desc, sizeof o->desc, why, whylen)))
      o->src = hwmonSource;
   if (!ok) {
      free(o);
      return NULL;
   }
   o->now = realNow;
   return o;
}

void Observer_close(Observer *o) {
   if (!o)
      return;
   o->src.close(o->state);
   free(o);
}

const char *Observer_describe(const Observer *o) { return o->desc; }

void Observer_useClock(Observer *o, double (*now_ms)(void *arg), void *arg) {
   o->now = now_ms ? now_ms : realNow;
   o->now_arg = arg;
}

static void readOne(Observer *o) {
   Sample s;
   clearSample(&s);
   o->src.read(o->state, &s);
   o->t_read = o->now(o->now_arg);
   if (isfinite(s.sm_mhz)) {
      if (o->nsm < OBSERVE_MAX_SAMPLES)
         o->sm[o->nsm++] = s.sm_mhz;
      o->sm_min = isfinite(o->sm_min) ? fmin(o->sm_min, s.sm_mhz) : s.sm_mhz;
   }
   if (isfinite(s.mem_mhz)) {
      o->mem_sum += s.mem_mhz;
      o->nmem++;
   }
   if (isfinite(s.power_w)) {
      o->power_sum += s.power_w;
      o->npower++;
   }
   if (isfinite(s.temp_c))
      o->temp_max = isfinite(o->temp_max) ? fmax(o->temp_max, s.temp_c) : s.temp_c;
   o->reasons |= s.reasons;
   o->last = s;
}

void Observer_begin(Observer *o) {
   o->nsm = o->nmem = o->npower = 0;
   o->mem_sum = o->power_sum = 0;
   o->sm_min = o->temp_max = NAN;
   o->reasons = 0;
   readOne(o);
   o->first = o->last;
   o->t_begin = o->t_read;
}

void Observer_sample(Observer *o) {
   if (o->now(o->now_arg) - o->t_read >= OBSERVE_SAMPLE_MS)
      readOne(o);
}

static int compareDoubles(const void *a, const void *b) {
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

/* Throttling: the clock fell past OBSERVE_CLOCK_FALL of its start, or the driver named a
 * reason that holds the clock down. */
static void judgeThrottling(const Observer *o, Observation *out) {
   char reasons[64] = "";
   for (size_t i = 0; i < sizeof nvmlReasons / sizeof nvmlReasons[0]; i++)
      if (o->reasons & nvmlReasons[i].bit)
         snprintf(reasons + strlen(reasons), sizeof reasons - strlen(reasons), "%s%s", reasons[0] ? ", " : "",
                  nvmlReasons[i].what);
   bool fell = isfinite(out->sm_mhz_start) && isfinite(out->sm_mhz_min) &&
               out->sm_mhz_min < out->sm_mhz_start * (1 - OBSERVE_CLOCK_FALL);
   out->throttled = fell || reasons[0];
   if (fell)
      snprintf(out->throttle_reason, sizeof out->throttle_reason, "clock fell %.0f -> %.0f MHz%s%s%s",
               out->sm_mhz_start, out->sm_mhz_min, reasons[0] ? " (" : "", reasons, reasons[0] ? ")" : "");
   else if (reasons[0])
      snprintf(out->throttle_reason, sizeof out->throttle_reason, "%s", reasons);
}

void Observer_end(Observer *o, int launches, double flops_per_launch, double gflops, Observation *out) {
   readOne(o);
   Observation_clear(out);
   snprintf(out->source, sizeof out->source, "%s", o->src.name);
   if (o->nsm > 0) {
      qsort(o->sm, (size_t)o->nsm, sizeof o->sm[0], compareDoubles);
      out->sm_mhz = o->nsm % 2 ? o->sm[o->nsm / 2] : (o->sm[o->nsm / 2 - 1] + o->sm[o->nsm / 2]) / 2;
      out->sm_mhz_min = o->sm_min;
      out->sm_mhz_start = o->first.sm_mhz;
   }
   if (o->nmem > 0)
      out->mem_mhz = o->mem_sum / o->nmem;
   out->temp_c = o->temp_max;
   double window_ms = o->t_read - o->t_begin;
   double used_j = o->last.energy_j - o->first.energy_j; /* NaN when either is unknown */
   if (launches > 0 && used_j > 0 && window_ms >= OBSERVE_MIN_ENERGY_MS) {
      out->energy_j = used_j / launches;
      out->power_w = used_j / (window_ms / 1e3);
      if (flops_per_launch > 0)
         out->gflops_per_w = flops_per_launch / out->energy_j / 1e9;
   } else if (o->npower > 0) {
      out->power_w = o->power_sum / o->npower;
      if (gflops > 0 && out->power_w > 0)
         out->gflops_per_w = gflops / out->power_w;
   }
   judgeThrottling(o, out);
   out->known = isfinite(out->sm_mhz) || isfinite(out->mem_mhz) || isfinite(out->power_w) ||
                isfinite(out->temp_c) || isfinite(out->energy_j);
}
