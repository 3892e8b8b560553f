/* Device properties from the names a runtime gives, and the choice of a device from what
 * a user types. The only code that reads vendor and platform strings. */
#define _GNU_SOURCE /* strcasestr */
#include "backend/device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *DeviceType_name(DeviceType t) {
   switch (t) {
   case DEVICE_GPU: return "GPU";
   case DEVICE_CPU: return "CPU";
   case DEVICE_ACCELERATOR: return "accelerator";
   default: return "other";
   }
}

const char *VendorKind_name(VendorKind v) {
   switch (v) {
   case VENDOR_NVIDIA: return "NVIDIA";
   case VENDOR_AMD: return "AMD";
   case VENDOR_INTEL: return "Intel";
   default: return "other";
   }
}

/* Case-sensitive: "AMD" in any case would be found in "Lambda". */
static VendorKind vendorIn(const char *s) {
   if (strstr(s, "NVIDIA"))
      return VENDOR_NVIDIA;
   if (strstr(s, "Advanced Micro Devices") || strstr(s, "AuthenticAMD") || strstr(s, "AMD"))
      return VENDOR_AMD;
   if (strstr(s, "Intel"))
      return VENDOR_INTEL;
   return VENDOR_OTHER;
}

/* The compute capability times 10 of an NVIDIA architecture ("sm_90a": 90), else 0. */
static int smOf(const char *arch) {
   if (strncmp(arch, "sm_", 3) != 0)
      return 0;
   char *end;
   long cc = strtol(arch + 3, &end, 10);
   return end != arch + 3 && cc > 0 && cc < 10000 ? (int)cc : 0;
}

void Device_classify(DeviceInfo *d) {
   /* The architecture says it best; then the vendor, the name, the platform. */
   d->vendor_kind = !strncmp(d->arch, "sm_", 3) ? VENDOR_NVIDIA : !strncmp(d->arch, "gfx", 3) ? VENDOR_AMD : VENDOR_OTHER;
   const char *names[] = {d->vendor, d->name, d->platform};
   for (size_t i = 0; i < sizeof names / sizeof names[0] && d->vendor_kind == VENDOR_OTHER; i++)
      d->vendor_kind = vendorIn(names[i]);
   /* PoCL's platform is "Portable Computing Language"; its devices' versions say "PoCL". */
   d->is_pocl = strstr(d->platform, "Portable Computing Language") || strcasestr(d->version, "pocl") ||
                strcasestr(d->driver, "pocl");
   d->tensor_ptx = d->inline_ptx && smOf(d->arch) >= 80; /* sm_80 and newer ("sm_90a", "sm_100") */
   d->limits.tensor_ptx = d->tensor_ptx;
   d->limits.tensor_sm = d->tensor_ptx ? smOf(d->arch) : 0;
   d->limits.compute_units = d->compute_units;
   d->limits.cpu = d->type == DEVICE_CPU;
}

/* ---- --device ---- */

static bool isPocl(const DeviceInfo *d) { return d->is_pocl; }
static bool isNvidia(const DeviceInfo *d) { return d->vendor_kind == VENDOR_NVIDIA; }
static bool isAmd(const DeviceInfo *d) { return d->vendor_kind == VENDOR_AMD; }
static bool isIntel(const DeviceInfo *d) { return d->vendor_kind == VENDOR_INTEL; }
static bool isCpu(const DeviceInfo *d) { return d->type == DEVICE_CPU; }
static bool isGpu(const DeviceInfo *d) { return d->type == DEVICE_GPU; }
static bool isAny(const DeviceInfo *d) { return d != NULL; }

static const struct {
   const char *alias;
   bool (*test)(const DeviceInfo *d);
} kinds[] = {
    {"pocl", isPocl}, {"nvidia", isNvidia}, {"amd", isAmd}, {"intel", isIntel}, {"cpu", isCpu}, {"gpu", isGpu},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

bool Device_isKind(const char *word) {
   for (size_t k = 0; k < NKINDS; k++)
      if (!strcmp(word, kinds[k].alias))
         return true;
   return false;
}

void Device_kindNames(char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
   for (size_t k = 0; k < NKINDS && used < len; k++)
      used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", kinds[k].alias);
}

void Device_kinds(const DeviceInfo *d, char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
   for (size_t k = 0; k < NKINDS && used < len; k++)
      if (kinds[k].test(d))
         used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", kinds[k].alias);
}

/* The best device that passes test: a GPU, else an accelerator, else a CPU, else any. */
static int best(const DeviceInfo *devs, int count, bool (*test)(const DeviceInfo *d)) {
   static const DeviceType order[] = {DEVICE_GPU, DEVICE_ACCELERATOR, DEVICE_CPU, DEVICE_OTHER};
   for (size_t t = 0; t < sizeof order / sizeof order[0]; t++)
      for (int i = 0; i < count; i++)
         if (devs[i].type == order[t] && test(&devs[i]))
            return i;
   return -1;
}

/* "no device matches 'x'; the devices: [0] NAME (PLATFORM, CPU), ...; or a kind: pocl,
 * ...; see ..." — devices that do not fit are counted, not cut off mid-name. */
static void noMatch(const DeviceInfo *devs, int count, const char *want, char *err, size_t errlen) {
   static const char tail[] = "; see 'gemmtop list devices'";
   char kindList[128] = "";
   for (size_t k = 0; k < NKINDS; k++)
      snprintf(kindList + strlen(kindList), sizeof kindList - strlen(kindList), "%s%s", k ? ", " : "", kinds[k].alias);
   int n = snprintf(err, errlen, "no device matches '%s'; the devices:", want);
   int shown = 0;
   for (int i = 0; i < count && n >= 0 && (size_t)n < errlen; i++) {
      char one[400];
      snprintf(one, sizeof one, "%s [%d] %s (%s, %s)", i ? "," : "", i, devs[i].name, devs[i].platform,
               DeviceType_name(devs[i].type));
      if ((size_t)n + strlen(one) + strlen(kindList) + sizeof tail + 40 >= errlen)
         break;
      n += snprintf(err + n, errlen - (size_t)n, "%s", one);
      shown++;
   }
   if (n < 0 || (size_t)n >= errlen)
      return;
   if (shown < count)
      n += snprintf(err + n, errlen - (size_t)n, " and %d more", count - shown);
   if ((size_t)n < errlen)
      snprintf(err + n, errlen - (size_t)n, "; or a kind: %s%s", kindList, tail);
}

int Device_pick(const DeviceInfo *devs, int count, const char *want, char *err, size_t errlen) {
   if (count <= 0) {
      snprintf(err, errlen, "no device");
      return -1;
   }
   if (!want)
      return best(devs, count, isAny);
   char *end;
   long idx = strtol(want, &end, 10);
   if (end != want && !*end) {
      if (idx >= 0 && idx < count)
         return (int)idx;
      snprintf(err, errlen, "no device %ld: there are %d (0 to %d); see 'gemmtop list devices'", idx, count, count - 1);
      return -1;
   }
   for (size_t k = 0; k < NKINDS; k++)
      if (!strcasecmp(want, kinds[k].alias)) {
         int i = best(devs, count, kinds[k].test);
         if (i < 0)
            noMatch(devs, count, want, err, errlen);
         return i;
      }
   for (int i = 0; i < count; i++)
      if (*want && (strcasestr(devs[i].name, want) || strcasestr(devs[i].platform, want)))
         return i;
   noMatch(devs, count, want, err, errlen);
   return -1;
}
