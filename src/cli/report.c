#include "cli/report.h"

#include <math.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/analyse/waves.h"
#include "core/run/devicefile.h"
#include "base/util.h"

void Report_jsonString(FILE *out, const char *s) {
   fputc('"', out);
   for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
      if (*p == '"' || *p == '\\')
         fprintf(out, "\\%c", *p);
      else if (*p == '\n')
         fputs("\\n", out);
      else if (*p == '\t')
         fputs("\\t", out);
      else if (*p < 0x20)
         fprintf(out, "\\u%04x", *p);
      else
         fputc(*p, out);
   }
   fputc('"', out);
}

/* JSON numbers: NaN and infinities are not JSON; they become null. */
static void jsonNumber(FILE *out, const char *key, double v, bool comma) {
   if (isfinite(v))
      fprintf(out, "\"%s\":%.6g%s", key, v, comma ? "," : "");
   else
      fprintf(out, "\"%s\":null%s", key, comma ? "," : "");
}

/* A measured rate as "%.1f", or "not measured" (0). */
static const char *peakText(double gflops, char buf[24]) {
   if (gflops > 0)
      snprintf(buf, 24, "%.1f", gflops);
   else
      snprintf(buf, 24, "not measured");
   return buf;
}

/* A measured rate and a comma; only the comma where it is unknown (0). */
static void csvPeak(FILE *out, double gflops) {
   if (gflops > 0)
      fprintf(out, "%.6g", gflops);
   fputc(',', out);
}

void Report_devicesHeader(FILE *out, OutputFormat f) {
   if (f == FORMAT_CSV)
      fputs("index,backend,platform,name,type,compute_units,clock_mhz,max_work_group,max_work_item_0,max_work_item_1,"
            "max_work_item_2,local_mem_bytes,global_mem_bytes,fp64,driver,version,default,fp32_peak_gflops,"
            "fp64_peak_gflops,copy_peak_gbps,kinds,tensor_ptx,tensor_tf32_peak_gflops,tensor_f16_peak_gflops,"
            "tensor_bf16_peak_gflops,tensor_fp8_peak_gflops,read_peak_gbps,l2_peak_gbps,l2_bytes,wgmma_tf32_peak_gflops,"
            "wgmma_f16_peak_gflops,wgmma_bf16_peak_gflops,wgmma_fp8_peak_gflops,tensor_peaks_sm_mhz\n",
            out);
}

/* "kinds":["pocl","amd","cpu"] from "pocl, amd, cpu". */
static void jsonKinds(FILE *out, const char *kinds) {
   fputs(",\"kinds\":[", out);
   for (const char *p = kinds; *p;) {
      size_t n = strcspn(p, ",");
      fprintf(out, "%s\"%.*s\"", p == kinds ? "" : ",", (int)n, p);
      p += n;
      p += strspn(p, ", ");
   }
   fputc(']', out);
}

void Report_backendDevices(FILE *out, OutputFormat f, const Backend *be, const DeviceInfo *devs, int n, int best,
                           const Peaks *peaks, const char *why) {
   const char *backend = be->name;
   if (f == FORMAT_TABLE) {
      char caps[512];
      Backend_describeCaps(be, caps, sizeof caps);
      if (n > 0)
         fprintf(out, "%s: %d device%s (%s)\n", be->title, n, n == 1 ? "" : "s", caps);
      else
         fprintf(out, "%s: %s\n", be->title, why && why[0] ? why : "no device");
   }
   for (int i = 0; i < n; i++) {
      const DeviceInfo *d = &devs[i];
      const DeviceLimits *l = &d->limits;
      const Peaks *pk = peaks && peaks[i].known ? &peaks[i] : NULL;
      char kinds[128];
      Device_kinds(d, kinds, sizeof kinds);
      if (f == FORMAT_JSON) {
         fprintf(out, "{\"schema\":%d,\"index\":%d,\"backend\":", REPORT_SCHEMA, d->index);
         Report_jsonString(out, backend);
         fputs(",\"platform\":", out);
         Report_jsonString(out, d->platform);
         fputs(",\"name\":", out);
         Report_jsonString(out, d->name);
         fprintf(out,
                 ",\"type\":\"%s\",\"compute_units\":%u,\"clock_mhz\":%u,\"max_work_group\":%zu,"
                 "\"max_work_item\":[%zu,%zu,%zu],\"local_mem_bytes\":%llu,\"global_mem_bytes\":%llu,\"fp64\":%s,"
                 "\"driver\":",
                 DeviceType_name(d->type), d->compute_units, d->clock_mhz, l->max_wg, l->max_wi[0], l->max_wi[1],
                 l->max_wi[2], l->local_mem, d->global_mem, l->fp64 ? "true" : "false");
         Report_jsonString(out, d->driver);
         fputs(",\"version\":", out);
         Report_jsonString(out, d->version);
         fprintf(out, ",\"default\":%s", i == best ? "true" : "false");
         jsonKinds(out, kinds);
         fprintf(out, ",\"tensor_ptx\":%s,\"l2_bytes\":%llu", d->tensor_ptx ? "true" : "false", d->l2_bytes);
         if (pk) {
            fputc(',', out);
            jsonNumber(out, "fp32_peak_gflops", pk->gflops[PEAK_FP32], true);
            jsonNumber(out, "fp64_peak_gflops", pk->gflops[PEAK_FP64], true);
            jsonNumber(out, "copy_peak_gbps", pk->copy_gbps, true);
            /* null where the file predates them */
            jsonNumber(out, "local_peak_gbps", pk->local_gbps > 0 ? pk->local_gbps : NAN, true);
            jsonNumber(out, "launch_us", pk->launch_us > 0 ? pk->launch_us : NAN, true);
            jsonNumber(out, "read_peak_gbps", pk->read_gbps > 0 ? pk->read_gbps : NAN, true);
            jsonNumber(out, "l2_peak_gbps", pk->l2_gbps > 0 ? pk->l2_gbps : NAN, true);
            /* null where not measured (peaks_not_measured says why) or absent */
            for (size_t t = 0; t < sizeof DeviceFile_tensorPeaks / sizeof DeviceFile_tensorPeaks[0]; t++) {
               const PeakJsonName *name = &DeviceFile_tensorPeaks[t];
               double v = name->wgmma ? pk->wgmma_gflops[name->kind] : pk->gflops[name->kind];
               jsonNumber(out, name->name, v > 0 ? v : NAN, true);
            }
            fputs("\"peaks_not_measured\":", out);
            Report_jsonString(out, pk->not_measured);
            fputc(',', out);
            jsonNumber(out, "tensor_peaks_sm_mhz", pk->tensor_sm_mhz > 0 ? pk->tensor_sm_mhz : NAN, true);
            jsonNumber(out, "peaks_sm_mhz", pk->sm_mhz > 0 ? pk->sm_mhz : NAN, true);
            jsonNumber(out, "peaks_mem_mhz", pk->mem_mhz > 0 ? pk->mem_mhz : NAN, true);
            fputs("\"peaks_measured\":", out);
            Report_jsonString(out, pk->measured_at);
         }
         fputs("}\n", out);
      } else if (f == FORMAT_CSV) {
         char buf[256];
         snprintf(buf, sizeof buf, "%d", d->index);
         Util_csvField(out, buf, false);
         Util_csvField(out, backend, false);
         Util_csvField(out, d->platform, false);
         Util_csvField(out, d->name, false);
         Util_csvField(out, DeviceType_name(d->type), false);
         fprintf(out, "%u,%u,%zu,%zu,%zu,%zu,%llu,%llu,%s,", d->compute_units, d->clock_mhz, l->max_wg, l->max_wi[0],
                 l->max_wi[1], l->max_wi[2], l->local_mem, d->global_mem, l->fp64 ? "yes" : "no");
         Util_csvField(out, d->driver, false);
         Util_csvField(out, d->version, false);
         Util_csvField(out, i == best ? "yes" : "no", false);
         if (pk)
            fprintf(out, "%.6g,%.6g,%.6g,", pk->gflops[PEAK_FP32], pk->gflops[PEAK_FP64], pk->copy_gbps);
         else
            fputs(",,,", out);
         Util_csvField(out, kinds, false);
         Util_csvField(out, d->tensor_ptx ? "yes" : "no", false);
         csvPeak(out, pk ? pk->gflops[PEAK_TF32] : 0);
         csvPeak(out, pk ? pk->gflops[PEAK_F16] : 0);
         csvPeak(out, pk ? pk->gflops[PEAK_BF16] : 0);
         csvPeak(out, pk ? pk->gflops[PEAK_FP8] : 0);
         if (pk && pk->read_gbps > 0)
            fprintf(out, "%.6g", pk->read_gbps);
         fputc(',', out);
         if (pk && pk->l2_gbps > 0)
            fprintf(out, "%.6g", pk->l2_gbps);
         fprintf(out, ",%llu,", d->l2_bytes);
         csvPeak(out, pk ? pk->wgmma_gflops[PEAK_TF32] : 0);
         csvPeak(out, pk ? pk->wgmma_gflops[PEAK_F16] : 0);
         csvPeak(out, pk ? pk->wgmma_gflops[PEAK_BF16] : 0);
         csvPeak(out, pk ? pk->wgmma_gflops[PEAK_FP8] : 0);
         if (pk && pk->tensor_sm_mhz > 0)
            fprintf(out, "%.6g", pk->tensor_sm_mhz);
         fputc('\n', out);
      } else {
         fprintf(out, "%s[%d] %s%s\n", i ? "\n" : "", d->index, d->name, i == best ? "   (default)" : "");
         fprintf(out, "    platform        %s (%s backend)\n", d->platform, backend);
         fprintf(out, "    kinds           %s (--device takes these too)%s\n", kinds,
                 d->tensor_ptx ? "; inline PTX tensor instructions (sm_80+)" : "");
         fprintf(out, "    type            %s, %u compute units, %u MHz\n", DeviceType_name(d->type), d->compute_units,
                 d->clock_mhz);
         fprintf(out, "    work-group      max %zu work-items; per dimension %zu x %zu x %zu\n", l->max_wg, l->max_wi[0],
                 l->max_wi[1], l->max_wi[2]);
         fprintf(out, "    local memory    %llu bytes (%.0f KiB)\n", l->local_mem, l->local_mem / 1024.0);
         fprintf(out, "    global memory   %.1f GiB, largest buffer %.1f GiB\n", d->global_mem / 1073741824.0,
                 d->max_alloc / 1073741824.0);
         if (d->l2_bytes)
            fprintf(out, "    L2 cache        %.1f MiB%s\n", d->l2_bytes / 1048576.0,
                    d->type == DEVICE_CPU ? " (the cache the driver reports)" : "");
         fprintf(out, "    double          %s\n", l->fp64 ? "yes (cl_khr_fp64)" : "no");
         fprintf(out, "    version         %s; driver %s\n", d->version, d->driver);
         if (pk) {
            char clocks[96] = "";
            if (pk->sm_mhz > 0)
               snprintf(clocks, sizeof clocks, ", SM clock %.0f MHz%s", pk->sm_mhz, pk->mem_mhz > 0 ? "" : " by the driver");
            if (pk->sm_mhz > 0 && pk->mem_mhz > 0)
               snprintf(clocks + strlen(clocks), sizeof clocks - strlen(clocks), ", memory %.0f MHz by the driver",
                        pk->mem_mhz);
            fprintf(out, "    measured peaks  FP32 %.1f GFLOPS, FP64 %.1f GFLOPS, copy %.1f GB/s (%s%s)\n",
                    pk->gflops[PEAK_FP32], pk->gflops[PEAK_FP64], pk->copy_gbps, pk->measured_at,
                    clocks[0] ? clocks : "; no clock reported by the driver");
         }
         if (pk && pk->local_gbps > 0 && pk->launch_us > 0)
            fprintf(out, "    local, launch   local memory %.1f GB/s (no conflicts), an empty launch %.1f us\n",
                    pk->local_gbps, pk->launch_us);
         if (pk && (pk->read_gbps > 0 || pk->l2_gbps > 0)) {
            char rd[48] = "", l2[48] = "";
            if (pk->read_gbps > 0)
               snprintf(rd, sizeof rd, "reads %.1f GB/s", pk->read_gbps);
            if (pk->l2_gbps > 0)
               snprintf(l2, sizeof l2, "%sL2 %.1f GB/s", rd[0] ? ", " : "", pk->l2_gbps);
            fprintf(out, "    reads, L2       %s%s (reads only: %s)\n", rd, l2,
                    rd[0] && l2[0] ? "far more than the caches hold, and inside the L2"
                    : rd[0]        ? "far more than the caches hold"
                                   : "inside the L2");
         }
         char r[4][24];
         if (pk && (pk->gflops[PEAK_TF32] > 0 || pk->gflops[PEAK_F16] > 0 || pk->gflops[PEAK_BF16] > 0))
            fprintf(out, "    tensor peaks    TF32 %s, half %s, bfloat16 %s GFLOPS (mma.sync, FP32 accumulation)\n",
                    peakText(pk->gflops[PEAK_TF32], r[0]), peakText(pk->gflops[PEAK_F16], r[1]),
                    peakText(pk->gflops[PEAK_BF16], r[2]));
         if (pk && pk->gflops[PEAK_FP8] > 0)
            fprintf(out, "    FP8 peak        e4m3 %.1f GFLOPS (mma.sync m16n8k32, FP32 accumulation)\n",
                    pk->gflops[PEAK_FP8]);
         if (pk && (pk->wgmma_gflops[PEAK_TF32] > 0 || pk->wgmma_gflops[PEAK_F16] > 0 ||
                    pk->wgmma_gflops[PEAK_BF16] > 0 || pk->wgmma_gflops[PEAK_FP8] > 0))
            fprintf(out, "    wgmma peaks     TF32 %s, half %s, bfloat16 %s, e4m3 %s GFLOPS (m64n256 from shared "
                         "memory, FP32 accumulation; kernels built for sm_90a are put against them)\n",
                    peakText(pk->wgmma_gflops[PEAK_TF32], r[0]), peakText(pk->wgmma_gflops[PEAK_F16], r[1]),
                    peakText(pk->wgmma_gflops[PEAK_BF16], r[2]), peakText(pk->wgmma_gflops[PEAK_FP8], r[3]));
         if (pk && pk->tensor_sm_mhz > 0)
            fprintf(out, "    tensor clock    SM %.0f MHz by the driver while the tensor peaks ran\n", pk->tensor_sm_mhz);
         if (pk && pk->not_measured[0])
            fprintf(out, "    not measured    %s\n", pk->not_measured);
         if (!pk)
            fprintf(out, "    measured peaks  not yet ('gemmtop list devices --measure')\n");
      }
   }
}

static void paramSpec(const KernelParam *p, char *out, size_t len) {
   size_t n = (size_t)snprintf(out, len, "%s=%lld {", p->name, p->def);
   for (int v = 0; v < p->nvalues && n < len; v++)
      n += (size_t)snprintf(out + n, len - n, "%s%lld", v ? "," : "", p->values[v]);
   if (n < len)
      snprintf(out + n, len - n, "}");
}

void Report_kernels(FILE *out, OutputFormat f, const Catalog *cat) {
   if (f == FORMAT_CSV)
      fputs("name,ladder,step,title,parameters,operands,pads,file,precisions,tensor,gpu_run,bound\n", out);
   const char *ladder = "";
   for (int i = 0; i < cat->count; i++) {
      const KernelInfo *k = &cat->kernels[i];
      if (k->hidden)
         continue;
      char params[1024] = "";
      for (int j = 0; j < k->nparams; j++) {
         char one[256];
         paramSpec(&k->params[j], one, sizeof one);
         snprintf(params + strlen(params), sizeof params - strlen(params), "%s%s", j ? " " : "", one);
      }
      char types[96];
      Precision_listNames(k->precisions, types, sizeof types);
      char operands[16];
      snprintf(operands, sizeof operands, "%s", k->operands_any ? "any" : "");
      if (!k->operands_any)
         snprintf(operands, sizeof operands, "A=%c B=%c", k->a_trans ? 'T' : 'N', k->b_trans ? 'T' : 'N');
      if (f == FORMAT_JSON) {
         fprintf(out, "{\"schema\":%d,\"name\":", REPORT_SCHEMA);
         Report_jsonString(out, k->name);
         fputs(",\"ladder\":", out);
         Report_jsonString(out, k->ladder);
         fprintf(out, ",\"step\":%d,\"title\":", k->step);
         Report_jsonString(out, k->title);
         fputs(",\"about\":", out);
         Report_jsonString(out, k->about);
         fputs(",\"parameters\":[", out);
         for (int j = 0; j < k->nparams; j++) {
            const KernelParam *p = &k->params[j];
            fprintf(out, "%s{\"name\":", j ? "," : "");
            Report_jsonString(out, p->name);
            fprintf(out, ",\"default\":%lld,\"values\":[", p->def);
            for (int v = 0; v < p->nvalues; v++)
               fprintf(out, "%s%lld", v ? "," : "", p->values[v]);
            fputs("],\"description\":", out);
            Report_jsonString(out, p->description);
            fputc('}', out);
         }
         fputs("],\"rules\":[", out);
         for (int j = 0; j < k->nrules; j++) {
            fprintf(out, "%s{\"expr\":", j ? "," : "");
            Report_jsonString(out, k->rules[j].expr);
            fputs(",\"message\":", out);
            Report_jsonString(out, k->rules[j].message);
            fputc('}', out);
         }
         fputs("],\"operands\":", out);
         Report_jsonString(out, operands);
         fprintf(out, ",\"pads\":%s,\"arch\":", k->has_pad ? "true" : "false");
         Report_jsonString(out, k->arch);
         fputs(",\"file\":", out);
         Report_jsonString(out, k->path);
         fputs(",\"precisions\":[", out);
         for (int p = 0, first = 1; p < PRECISION_COUNT; p++)
            if (k->precisions & PRECISION_BIT(p)) {
               fprintf(out, "%s\"%s\"", first ? "" : ",", Precision_name((Precision)p));
               first = 0;
            }
         fprintf(out, "],\"tensor\":%s,\"gpu_run\":%s,\"bound\":\"%s\",\"accumulate\":", k->tensor ? "true" : "false",
                 k->gpu_run ? "true" : "false", k->memory_bound ? "memory" : "compute");
         /* the FP8 tensor core's promotion interval (an expression), or "fp32" */
         Report_jsonString(out, k->accumulate[0] ? k->accumulate : "fp32");
         fputs("}\n", out);
      } else if (f == FORMAT_CSV) {
         char step[16];
         snprintf(step, sizeof step, "%d", k->step);
         Util_csvField(out, k->name, false);
         Util_csvField(out, k->ladder, false);
         Util_csvField(out, step, false);
         Util_csvField(out, k->title, false);
         Util_csvField(out, params, false);
         Util_csvField(out, operands, false);
         Util_csvField(out, k->has_pad ? "yes" : "no", false);
         Util_csvField(out, k->path, false);
         Util_csvField(out, types, false);
         Util_csvField(out, k->tensor ? "yes" : "no", false);
         Util_csvField(out, k->gpu_run ? "yes" : "no", false);
         Util_csvField(out, k->memory_bound ? "memory" : "compute", true);
      } else {
         if (strcmp(ladder, k->ladder) != 0) {
            fprintf(out, "%sladder %s\n", i ? "\n" : "", k->ladder);
            ladder = k->ladder;
         }
         fprintf(out, "  %2d  %-24s %s\n", k->step, k->name, k->title);
         if (!k->gpu_run)
            fprintf(out, "      %-24s not yet run on a GPU (written and compiled offline)\n", "");
         if (k->nparams)
            fprintf(out, "      %-24s %s\n", "", params);
         if (!k->operands_any && (k->a_trans || k->b_trans))
            fprintf(out, "      %-24s reads %s (other layouts are transposed beforehand)\n", "", operands);
         if (k->has_pad)
            fprintf(out, "      %-24s any size (operands padded to tile multiples)\n", "");
         if (k->precisions != Types_cudaCoreMask() || k->tensor)
            fprintf(out, "      %-24s takes %s%s\n", "", types, k->tensor ? "; tensor cores (emulated without them)" : "");
         if (k->accumulate[0])
            fprintf(out, "      %-24s sums in the FP8 tensor core's accumulator, into FP32 every %s products "
                    "(0: never; verification allows for it)\n", "", k->accumulate);
         if (k->memory_bound)
            fprintf(out, "      %-24s memory-bound by design: runs are put against the measured copy bandwidth\n", "");
      }
   }
   if (f == FORMAT_TABLE)
      fputs("\nvalues in braces are allowed, the value before them is the default; "
            "'gemmtop list kernels --format json' has the rules\n",
            out);
}

void Report_presets(FILE *out, OutputFormat f, const PresetList *list) {
   if (f == FORMAT_CSV)
      fputs("name,kernel,description,source,file\n", out);
   for (int i = 0; i < list->count; i++) {
      const Preset *p = &list->items[i];
      if (f == FORMAT_JSON) {
         fprintf(out, "{\"schema\":%d,\"name\":", REPORT_SCHEMA);
         Report_jsonString(out, p->name);
         fputs(",\"kernel\":", out);
         Report_jsonString(out, p->kernel);
         fputs(",\"description\":", out);
         Report_jsonString(out, p->description);
         fprintf(out, ",\"source\":\"%s\",\"file\":", p->user ? "user" : "shipped");
         Report_jsonString(out, p->path);
         fputs("}\n", out);
      } else if (f == FORMAT_CSV) {
         Util_csvField(out, p->name, false);
         Util_csvField(out, p->kernel, false);
         Util_csvField(out, p->description, false);
         Util_csvField(out, p->user ? "user" : "shipped", false);
         Util_csvField(out, p->path, true);
      } else {
         fprintf(out, "%-28s %-22s %s%s\n", p->name, p->kernel, p->description, p->user ? "  (yours)" : "");
      }
   }
   if (f == FORMAT_TABLE && list->count == 0)
      fputs("no presets found\n", out);
}

void Report_shapeSuites(FILE *out, OutputFormat f, const ShapeSuites *suites, const char *dir) {
   if (f == FORMAT_CSV)
      fputs("name,shapes,title,source,file\n", out);
   for (int i = 0; i < suites->count; i++) {
      const ShapeSuite *s = &suites->items[i];
      if (f == FORMAT_JSON) {
         fprintf(out, "{\"schema\":%d,\"name\":", REPORT_SCHEMA);
         Report_jsonString(out, s->name);
         fprintf(out, ",\"shapes\":%d,\"title\":", s->count);
         Report_jsonString(out, s->title);
         fprintf(out, ",\"source\":\"%s\",\"file\":", s->user ? "user" : "shipped");
         Report_jsonString(out, s->path);
         fputs("}\n", out);
      } else if (f == FORMAT_CSV) {
         char count[16];
         snprintf(count, sizeof count, "%d", s->count);
         Util_csvField(out, s->name, false);
         Util_csvField(out, count, false);
         Util_csvField(out, s->title, false);
         Util_csvField(out, s->user ? "user" : "shipped", false);
         Util_csvField(out, s->path, true);
      } else {
         fprintf(out, "%-14s %3d shapes  %s%s\n", s->name, s->count, s->title, s->user ? "  (yours)" : "");
      }
   }
   if (f == FORMAT_TABLE && suites->count == 0)
      fprintf(out, "no shape suites found (in %s and $XDG_CONFIG_HOME/gemmtop/shapes)\n", dir && *dir ? dir : "shapes/");
   else if (f == FORMAT_TABLE)
      fputs("gemmtop list shapes NAME shows a suite's shapes; bench and sweep take --shapes NAME\n", out);
}

void Report_shapes(FILE *out, OutputFormat f, const ShapeSuite *suite) {
   if (f == FORMAT_CSV)
      fputs("suite,label,m,n,k,weight\n", out);
   if (f == FORMAT_TABLE) {
      fprintf(out, "%s: %s\n", suite->name, suite->title[0] ? suite->title : suite->path);
      if (suite->about[0])
         fprintf(out, "%s\n", suite->about);
      if (suite->source[0])
         fprintf(out, "source: %s\n", suite->source);
      fprintf(out, "%-20s %8s %8s %8s %7s\n", "label", "M", "N", "K", "weight");
   }
   for (int i = 0; i < suite->count; i++) {
      const Shape *s = &suite->shapes[i];
      if (f == FORMAT_JSON) {
         fprintf(out, "{\"schema\":%d,\"suite\":", REPORT_SCHEMA);
         Report_jsonString(out, suite->name);
         fputs(",\"label\":", out);
         Report_jsonString(out, s->label);
         fprintf(out, ",\"m\":%d,\"n\":%d,\"k\":%d,\"weight\":%.6g}\n", s->m, s->n, s->k, s->weight);
      } else if (f == FORMAT_CSV) {
         Util_csvField(out, suite->name, false);
         Util_csvField(out, s->label, false);
         fprintf(out, "%d,%d,%d,%.6g\n", s->m, s->n, s->k, s->weight);
      } else {
         fprintf(out, "%-20s %8d %8d %8d %7.3g\n", s->label, s->m, s->n, s->k, s->weight);
      }
   }
}

/* Whether the configuration was resolved (its geometry known): a run refused before that
 * did not happen, and nothing is said of how it would have run. */
static bool geometryKnown(const RunResult *r) { return r->geo.dims > 0; }

/* "emulated" in JSON: true, false, or null for a run refused before its geometry. */
static const char *emulatedWord(const RunResult *r) {
   return !geometryKnown(r) ? "null" : r->geo.emulated ? "true" : "false";
}

/* The measured peak this run is put against (Peaks_for), 0 when unknown or emulated. */
static double peakFor(const Peaks *peaks, const Problem *p, const KernelInfo *k, const RunResult *r) {
   return Peaks_for(peaks, p->precision, k, r->geo.emulated);
}

/* A memory-bound kernel's run (`bound: memory`) against the measured copy bandwidth: the
 * fraction (Peaks_copyShare), 0 when it is not such a run or the peaks are unknown. */
static double copyShareOf(const Peaks *peaks, const Problem *p, const KernelInfo *k, const RunResult *r,
                          double *read_share) {
   if (read_share)
      *read_share = 0;
   if (!k->memory_bound || r->ablate || r->geo.emulated)
      return 0;
   return Peaks_copyShare(peaks, p, r->median_ms, read_share);
}

/* An ablated run is never "ok": its own status, so that no reader takes it for a result. */
static const char *statusName(const RunResult *r) {
   return r->ablate && r->status == RUN_OK ? "ablated (not verified)" : RunStatus_name(r->status);
}

/* The driver's figures (observe.h) as JSON members with prefix ("", "vendor_"): null where
 * unknown, so that a reader sees every key. */
static void obsJson(FILE *out, const char *prefix, const Observation *ob) {
   char key[48];
   static const char *names[] = {"sm_mhz", "sm_mhz_min", "sm_mhz_start", "mem_mhz", "power_w", "temp_c", "energy_j",
                                 "gflops_per_w"};
   const double values[] = {ob->sm_mhz, ob->sm_mhz_min, ob->sm_mhz_start, ob->mem_mhz,
                            ob->power_w, ob->temp_c,     ob->energy_j,     ob->gflops_per_w};
   for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
      snprintf(key, sizeof key, "%s%s", prefix, names[i]);
      jsonNumber(out, key, ob->known ? values[i] : NAN, true);
   }
   fprintf(out, "\"%sobserved_by\":", prefix);
   if (ob->known)
      Report_jsonString(out, ob->source);
   else
      fputs("null", out);
   fprintf(out, ",\"%sthrottled\":%s,\"%sthrottle_reason\":", prefix,
           !ob->known ? "null" : ob->throttled ? "true" : "false", prefix);
   if (ob->known && ob->throttled)
      Report_jsonString(out, ob->throttle_reason);
   else
      fputs("null", out);
   fputc(',', out);
}

/* The vendor library's fields of a run's JSON line. */
static void vendorJson(FILE *out, const VendorResult *vendor, const RunResult *r) {
   fputs("\"vendor\":", out);
   Report_jsonString(out, vendor->name);
   fprintf(out, ",\"vendor_status\":\"%s\",\"vendor_verified\":%s,\"vendor_note\":", RunStatus_name(vendor->status),
           vendor->verified ? "true" : "false");
   Report_jsonString(out, vendor->note);
   fputc(',', out);
   if (vendor->status == RUN_OK) {
      jsonNumber(out, "vendor_time_ms", vendor->median_ms, true);
      jsonNumber(out, "vendor_gflops", vendor->gflops, true);
      jsonNumber(out, "pct_of_vendor", 100.0 * r->gflops / vendor->gflops, true);
      obsJson(out, "vendor_", &vendor->obs);
   } else {
      fputs("\"vendor_message\":", out);
      Report_jsonString(out, vendor->message);
      fputc(',', out);
   }
}

/* What the build and the launch were: compile time, cache, resources, sizes. */
static void buildJson(FILE *out, const DeviceInfo *dev, const RunResult *r) {
   const Waves w = Waves_of(dev, &r->geo, r->registers, r->local_mem >= 0 ? r->local_mem : r->geo.localmem);
   if (w.known) /* how the launch fills the GPU (core/analyse/waves.h) */
      fprintf(out, "\"waves\":%.4g,\"last_wave_fill\":%.4g,\"slots_busy\":%.4g,\"groups_per_unit\":%d,", w.waves,
              w.last_fill, w.busy, w.per_unit);
   if (r->geo.work > 0) /* a persistent grid's items of work, shared among its groups */
      fprintf(out, "\"work_items\":%lld,", r->geo.work);
   jsonNumber(out, "compile_ms", r->compile_ms, true);
   jsonNumber(out, "wall_ms", r->wall_ms, true);
   /* Where the process's time went (session.h): each phase, and their sum. */
   fputs("\"phases\":{", out);
   for (int i = 0; i < PHASE_COUNT; i++) {
      char key[32];
      snprintf(key, sizeof key, "%s_ms", Phase_name((Phase)i));
      jsonNumber(out, key, r->phases.ms[i], true);
   }
   jsonNumber(out, "total_ms", RunPhases_total(&r->phases), false);
   fputs("},", out);
   fprintf(out, "\"cached\":%s,", r->cached ? "true" : "false");
   if (r->registers >= 0)
      fprintf(out, "\"registers\":%d,", r->registers);
   if (r->private_mem >= 0)
      fprintf(out, "\"private_mem_bytes\":%lld,", r->private_mem);
   if (r->local_mem >= 0)
      fprintf(out, "\"local_mem_bytes\":%lld,", r->local_mem);
   fprintf(out, "\"global_size\":[%zu,%zu,%zu],\"local_size\":[%zu,%zu,%zu],", r->geo.global[0], r->geo.global[1],
           r->geo.dims > 2 ? r->geo.global[2] : 1, r->geo.local[0], r->geo.local[1],
           r->geo.dims > 2 ? r->geo.local[2] : 1);
}

static void runJson(FILE *out, const char *backend, const DeviceInfo *dev, const KernelInfo *k, const long long *values,
                    const Problem *p, uint64_t seed, const RunOptions *ro, const RunResult *r, const Peaks *peaks,
                    const VendorResult *vendor) {
   char layout[3];
   Problem_layoutName(p, layout);
   fprintf(out, "{\"schema\":%d,\"kernel\":", REPORT_SCHEMA);
   Report_jsonString(out, k->name);
   fputs(",\"params\":{", out);
   for (int i = 0; i < k->nparams; i++) {
      fprintf(out, "%s", i ? "," : "");
      Report_jsonString(out, k->params[i].name);
      fprintf(out, ":%lld", values[i]);
   }
   fputs("},\"backend\":", out);
   Report_jsonString(out, backend);
   fputs(",\"device\":", out);
   Report_jsonString(out, dev->name);
   fputs(",\"platform\":", out);
   Report_jsonString(out, dev->platform);
   fprintf(out,
           ",\"m\":%d,\"n\":%d,\"k\":%d,\"precision\":\"%s\",\"input_type\":\"%s\",\"compute_type\":\"%s\","
           "\"output_type\":\"%s\",\"scaling\":\"%s\",\"emulated\":%s,\"layout\":\"%s\",",
           p->m, p->n, p->k, Precision_name(p->precision), Precision_inputType(p->precision),
           Precision_computeType(p->precision), Precision_outputType(p->precision),
           Problem_scaled(p) ? Scaling_name(p->scaling) : "", emulatedWord(r), layout);
   jsonNumber(out, "alpha", p->alpha, true);
   jsonNumber(out, "beta", p->beta, true);
   char ablation[64];
   Ablate_name(r->ablate, ablation, sizeof ablation);
   fprintf(out, "\"seed\":%llu,\"status\":\"%s\",\"verified\":%s,\"ablated\":%s,\"ablation\":\"%s\",",
           (unsigned long long)seed, statusName(r), r->verified_run && r->verify.ok ? "true" : "false",
           r->ablate ? "true" : "false", ablation);
   bool ran = r->status == RUN_OK || r->status == RUN_NOT_VERIFIED || r->status == RUN_CANCELLED;
   if (r->verified_run) {
      jsonNumber(out, "max_rel_err", r->verify.max_rel_err, true);
      jsonNumber(out, "freivalds_ratio", r->verify.freivalds_ratio, true);
      jsonNumber(out, "outlier_ratio", r->verify.outlier_ratio, true);
      jsonNumber(out, "tolerance", r->verify.tolerance, true);
      fprintf(out, "\"non_finite\":%zu,\"unwritten\":%zu,\"verified_on\":", r->verify.non_finite,
              r->verify.unwritten);
      Report_jsonString(out, r->verified_on);
      fputc(',', out);
   }
   if (ran && r->reps > 0) {
      jsonNumber(out, "time_ms", r->median_ms, true);
      jsonNumber(out, "min_time_ms", r->min_ms, true);
      jsonNumber(out, "max_time_ms", r->max_ms, true);
      jsonNumber(out, "spread_pct", r->spread_pct, true);
      jsonNumber(out, "gflops", r->gflops, true);
      jsonNumber(out, "gbps", r->gbps, true);
      jsonNumber(out, "core_gbps", r->core_gbps, true);
      if (peakFor(peaks, p, k, r) > 0 && !r->ablate) {
         jsonNumber(out, "peak_gflops", peakFor(peaks, p, k, r), true);
         jsonNumber(out, "pct_of_peak", 100.0 * r->gflops / peakFor(peaks, p, k, r), true);
      }
      double read_share, copy_share = copyShareOf(peaks, p, k, r, &read_share);
      if (copy_share > 0) {
         jsonNumber(out, "copy_peak_gbps", peaks->copy_gbps, true);
         jsonNumber(out, "pct_of_copy", 100 * copy_share, true);
         if (read_share > 0)
            jsonNumber(out, "pct_of_read", 100 * read_share, true);
      }
      if (vendor && !r->ablate && !r->geo.emulated)
         vendorJson(out, vendor, r);
      if (r->fixup_ms > 0)
         jsonNumber(out, "fixup_ms", r->fixup_ms, true);
      if (r->geo.workspace > 0)
         fprintf(out, "\"workspace_bytes\":%lld,", r->geo.workspace);
      jsonNumber(out, "helpers_ms", r->helpers_ms, true);
      fputs("\"helpers\":[", out);
      for (int i = 0; i < r->nhelpers; i++) {
         fprintf(out, "%s{\"what\":", i ? "," : "");
         Report_jsonString(out, r->helpers[i].what);
         fputc(',', out);
         jsonNumber(out, "time_ms", r->helpers[i].median_ms, false);
         fputc('}', out);
      }
      fprintf(out, "],\"reps\":%d,\"warmup\":%d,", r->reps, ro->warmup);
      obsJson(out, "", &r->obs);
   }
   fprintf(out, "\"l2\":\"%s\",\"cold_l2\":%s,\"cold_l2_method\":", r->cold_l2 ? "cold" : "warm",
           r->cold_l2 ? "true" : "false");
   if (r->cold_l2_method[0])
      Report_jsonString(out, r->cold_l2_method);
   else
      fputs("null", out);
   fputc(',', out);
   if (r->status != RUN_INVALID)
      buildJson(out, dev, r);
   fputs("\"message\":", out);
   Report_jsonString(out, r->message);
   fputs("}\n", out);
}

static void runCsv(FILE *out, const char *backend, const DeviceInfo *dev, const KernelInfo *k, const long long *values,
                   const Problem *p, const RunResult *r) {
   char params[512], layout[3];
   KernelInfo_formatParams(k, values, params, sizeof params);
   Problem_layoutName(p, layout);
   fputs("kernel,params,backend,device,m,n,k,precision,layout,alpha,beta,status,verified,max_rel_err,time_ms,"
         "min_time_ms,max_time_ms,spread_pct,gflops,gbps,core_gbps,helpers_ms,compile_ms,cached,reps,ablated,ablation,"
         "message,input_type,compute_type,output_type,emulated,l2,sm_mhz,mem_mhz,power_w,temp_c,energy_j,gflops_per_w,"
         "throttled,throttle_reason,scaling\n",
         out);
   Util_csvField(out, k->name, false);
   Util_csvField(out, params, false);
   Util_csvField(out, backend, false);
   Util_csvField(out, dev->name, false);
   fprintf(out, "%d,%d,%d,%s,%s,%.17g,%.17g,%s,%s,", p->m, p->n, p->k, Precision_name(p->precision), layout, p->alpha,
           p->beta, statusName(r), r->verified_run && r->verify.ok ? "true" : "false");
   if (r->verified_run)
      fprintf(out, "%.3g,", r->verify.max_rel_err);
   else
      fputs(",", out);
   if (r->reps > 0)
      fprintf(out, "%.6g,%.6g,%.6g,%.3g,%.6g,%.6g,%.6g,%.6g,", r->median_ms, r->min_ms, r->max_ms, r->spread_pct,
              r->gflops, r->gbps, r->core_gbps, r->helpers_ms);
   else
      fputs(",,,,,,,,", out);
   char ablation[64];
   Ablate_name(r->ablate, ablation, sizeof ablation);
   fprintf(out, "%.6g,%s,%d,%s,", r->compile_ms, r->cached ? "true" : "false", r->reps, r->ablate ? "true" : "false");
   Util_csvField(out, ablation, false);
   Util_csvField(out, r->message, false);
   fprintf(out, "%s,%s,%s,%s,%s,", Precision_inputType(p->precision), Precision_computeType(p->precision),
           Precision_outputType(p->precision), geometryKnown(r) ? emulatedWord(r) : "", r->cold_l2 ? "cold" : "warm");
   const Observation *ob = &r->obs;
   const double figures[] = {ob->sm_mhz, ob->mem_mhz, ob->power_w, ob->temp_c, ob->energy_j, ob->gflops_per_w};
   for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
      if (ob->known && isfinite(figures[i]))
         fprintf(out, "%.6g,", figures[i]);
      else
         fputc(',', out);
   fputs(!ob->known ? "," : ob->throttled ? "true," : "false,", out);
   Util_csvField(out, ob->known && ob->throttled ? ob->throttle_reason : "", false);
   Util_csvField(out, Problem_scaled(p) ? Scaling_name(p->scaling) : "", true);
}

/* "global 512x1x4  local 256x1x1": a launch's sizes in every dimension. */
static void putLaunch(FILE *out, const size_t *global, const size_t *local, int dims) {
   fprintf(out, "global %zu", global[0]);
   for (int d = 1; d < dims; d++)
      fprintf(out, "x%zu", global[d]);
   fprintf(out, "  local %zu", local[0]);
   for (int d = 1; d < dims; d++)
      fprintf(out, "x%zu", local[d]);
}

/* "1755 MHz SM (1980 at the start), 2619 MHz memory, 612 W, 71 C, 0.153 J per GEMM, 58.2
 * GFLOPS/W": the figures the driver gave, nothing for the others; false when none. */
static bool obsText(const Observation *ob, char *out, size_t len) {
   out[0] = '\0';
   if (!ob->known)
      return false;
   size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(out + n, n < len ? len - n : 0, __VA_ARGS__))
   if (isfinite(ob->sm_mhz)) {
      ADD("%.0f MHz SM", ob->sm_mhz);
      if (isfinite(ob->sm_mhz_start) && fabs(ob->sm_mhz_start - ob->sm_mhz) >= 1)
         ADD(" (%.0f at the start)", ob->sm_mhz_start);
   }
   if (isfinite(ob->mem_mhz))
      ADD("%s%.0f MHz memory", n ? ", " : "", ob->mem_mhz);
   if (isfinite(ob->power_w))
      ADD("%s%.0f W", n ? ", " : "", ob->power_w);
   if (isfinite(ob->temp_c))
      ADD("%s%.0f C", n ? ", " : "", ob->temp_c);
   if (isfinite(ob->energy_j))
      ADD("%s%.3g J per GEMM", n ? ", " : "", ob->energy_j);
   if (isfinite(ob->gflops_per_w))
      ADD("%s%.1f GFLOPS/W", n ? ", " : "", ob->gflops_per_w);
#undef ADD
   return n > 0;
}

static void runTable(FILE *out, const char *backend, const DeviceInfo *dev, const KernelInfo *k, const long long *values,
                     const Problem *p, uint64_t seed, const RunOptions *ro, const RunResult *r, const Peaks *peaks,
                     const VendorResult *vendor) {
   char params[512], layout[3];
   KernelInfo_formatParams(k, values, params, sizeof params);
   Problem_layoutName(p, layout);
   if (r->ablate) {
      char ablation[64];
      Ablate_name(r->ablate, ablation, sizeof ablation);
      fprintf(out, "ABLATED    %s: work switched off on purpose; C is wrong and not verified; the figures\n"
                   "           are the ablated kernel's, to compare with a real run, not a GEMM result\n",
              ablation);
   }
   if (r->geo.emulated)
      fprintf(out, "EMULATED   no tensor cores here (or no PTX): the tensor instructions run as portable code; the\n"
                   "           result is verified, the times are the emulation's: not a tensor core's, not\n"
                   "           compared with the vendor library, ranked or put against a peak\n");
   fprintf(out, "kernel     %s  %s\n", k->name, params);
   fprintf(out, "device     %s (%s, %s)%s\n", dev->name, dev->platform, backend,
           dev->limits_simulated ? "  [limits simulated by GEMMTOP_DEVICE_LIMITS]" : "");
   char type[32];
   fprintf(out, "problem    M=%d N=%d K=%d  %s%s  %s  alpha=%g beta=%g  seed=%llu\n", p->m, p->n, p->k,
           Problem_typeLabel(p, type, sizeof type), Problem_scaled(p) ? " scales" : "", layout, p->alpha, p->beta,
           (unsigned long long)seed);
   const TypeTraits *t = Types_of(p->precision);
   if (t->multiply)
      fprintf(out, "types      A and B %s, multiplied in %s, accumulated in FP32, C %s\n", t->input, t->multiply,
              t->output);
   if (r->status == RUN_INVALID) {
      fprintf(out, "status     refused before compiling\n");
      return;
   }
   if (r->cached)
      fprintf(out, "compile    cached (%s)%s\n", r->cached_memory ? "memory" : "disk", r->cached_memory ? "" : "");
   else
      fprintf(out, "compile    %.1f ms\n", r->compile_ms);
   fprintf(out, "launch     ");
   putLaunch(out, r->geo.global, r->geo.local, r->geo.dims);
   fprintf(out, "  local memory %lld B", r->local_mem >= 0 ? r->local_mem : r->geo.localmem);
   if (r->registers >= 0)
      fprintf(out, "  registers %d", r->registers);
   if (r->private_mem > 0)
      fprintf(out, "  private %lld B", r->private_mem);
   if (r->geo.pad)
      fprintf(out, "  (runs on %dx%dx%d, padded)", r->geo.m, r->geo.n, r->geo.k);
   fputc('\n', out);
   if (r->geo.workspace > 0 || r->geo.fixup_dims) {
      fprintf(out, "workspace  %lld B of partial sums", r->geo.workspace);
      if (r->geo.fixup_dims) {
         fprintf(out, "; fix-up ");
         putLaunch(out, r->geo.fixup_global, r->geo.fixup_local, r->geo.fixup_dims);
      }
      fputc('\n', out);
   }
   const Waves w = Waves_of(dev, &r->geo, r->registers, r->local_mem >= 0 ? r->local_mem : r->geo.localmem);
   if (w.known) {
      char waves[288];
      Waves_describeFor(&w, k, waves, sizeof waves);
      fprintf(out, "waves      %s\n", waves);
   }
   if (r->reps > 0) {
      fprintf(out,
              "time       %.4f ms median   %.4f min   %.4f max   spread %.1f%%   (%d launches after %d warm-up, %s L2)\n",
              r->median_ms, r->min_ms, r->max_ms, r->spread_pct, r->reps, ro->warmup, r->cold_l2 ? "cold" : "warm");
      if (r->cold_l2)
         fprintf(out, "cold L2    %s\n", r->cold_l2_method);
      if (r->fixup_ms > 0)
         fprintf(out, "fix-up     %.4f ms median, part of the time above (the GEMM's second launch)\n", r->fixup_ms);
      if (r->nhelpers) {
         fprintf(out, "helpers   ");
         for (int i = 0; i < r->nhelpers; i++)
            fprintf(out, " %s %.4f ms;", r->helpers[i].what, r->helpers[i].median_ms);
         fprintf(out, " total %.4f ms (not in GFLOPS)\n", r->helpers_ms);
      }
      fprintf(out, "speed      %.2f GFLOPS%s   %.2f GB/s global   %.2f GB/s to the cores", r->gflops,
              r->ablate ? " (2MNK/time)" : "", r->gbps, r->core_gbps);
      if (peakFor(peaks, p, k, r) > 0 && !r->ablate)
         fprintf(out, "   %.1f%% of the measured %s peak (%.0f GFLOPS)", 100.0 * r->gflops / peakFor(peaks, p, k, r),
                 Peaks_label(p->precision, k, r->geo.emulated), peakFor(peaks, p, k, r));
      fputc('\n', out);
      double read_share, copy_share = copyShareOf(peaks, p, k, r, &read_share);
      if (copy_share > 0) {
         fprintf(out, "memory     %.1f%% of the measured copy bandwidth (%.0f GB/s)", 100 * copy_share, peaks->copy_gbps);
         if (read_share > 0)
            fprintf(out, ", %.1f%% of the read bandwidth (%.0f GB/s)", 100 * read_share, peaks->read_gbps);
         fprintf(out, ": memory-bound by design (the bytes of A, B and C over the time)%s\n",
                 copy_share > 1 ? "; above 100%: the operands were read from a cache, not from memory" : "");
      }
      if (vendor && vendor->status == RUN_OK && !r->ablate && !r->geo.emulated)
         fprintf(out, "vendor     %s %.4f ms median, %.2f GFLOPS: this kernel runs at %.1f%% of it\n", vendor->name,
                 vendor->median_ms, vendor->gflops, 100.0 * r->gflops / vendor->gflops);
      else if (vendor && !r->ablate && !r->geo.emulated)
         fprintf(out, "vendor     %s\n", vendor->message);
      if (vendor && vendor->note[0] && !r->ablate && !r->geo.emulated)
         fprintf(out, "vendor     how: %s\n", vendor->note);
      char text[256];
      if (obsText(&r->obs, text, sizeof text))
         fprintf(out, "driver     %s  (%s)\n", text, r->obs.source);
      if (vendor && vendor->status == RUN_OK && !r->ablate && !r->geo.emulated && obsText(&vendor->obs, text, sizeof text))
         fprintf(out, "vendor     %s\n", text);
      if (r->obs.known && r->obs.throttled)
         fprintf(out, "THROTTLED  %s: the clock was held down while timing; the figures are the throttled GPU's\n",
                 r->obs.throttle_reason);
   }
   if (r->verified_run)
      fprintf(out, "verify     %s\n           checked on the %s\n", r->verify.message, r->verified_on);
   else if (r->ablate && r->status == RUN_OK)
      fprintf(out, "verify     ablated (not verified)\n");
   if (r->wall_ms > 0) {
      char phases[320];
      RunPhases_describe(&r->phases, phases, sizeof phases);
      fprintf(out, "wall       %.1f ms for compile (or cache), verification and timing\n", r->wall_ms);
      fprintf(out, "phases     %s; %.0f ms in all\n", phases, RunPhases_total(&r->phases));
   } else if (r->status == RUN_OK)
      fprintf(out, "verify     skipped (--no-verify)\n");
   if (r->status != RUN_OK && r->status != RUN_NOT_VERIFIED)
      fprintf(out, "status     %s\n", RunStatus_name(r->status));
}

void Report_run(FILE *out, OutputFormat f, const char *backend, const DeviceInfo *dev, const KernelInfo *k,
                const long long *values, const Problem *p, uint64_t seed, const RunOptions *ro, const RunResult *r,
                const Peaks *peaks, const VendorResult *vendor) {
   if (f == FORMAT_JSON)
      runJson(out, backend, dev, k, values, p, seed, ro, r, peaks, vendor);
   else if (f == FORMAT_CSV)
      runCsv(out, backend, dev, k, values, p, r);
   else
      runTable(out, backend, dev, k, values, p, seed, ro, r, peaks, vendor);
}

/* A fraction as a percentage, or nothing when unknown (negative). */
static void pct(FILE *out, double v, bool json) {
   if (v >= 0)
      fprintf(out, "%.4g", 100 * v);
   else if (json)
      fputs("null", out);
}

void Report_limits(FILE *out, OutputFormat f, const LimiterInputs *in, const Limiter *l) {
   if (f == FORMAT_JSON) {
      fprintf(out, "{\"schema\":%d,\"limits\":{\"limiter\":\"%s\",\"words\":", REPORT_SCHEMA, LimitKind_name(l->kind));
      Report_jsonString(out, l->words);
      fputs(",\"headroom\":", out);
      Report_jsonString(out, l->headroom);
      fputs(",\"compute_pct\":", out);
      pct(out, l->compute_used, true);
      fputs(",\"memory_pct\":", out);
      pct(out, l->memory_used, true);
      fputs(",\"memory_min_pct\":", out);
      pct(out, l->memory_used_min, true);
      fputs(",\"l2_pct\":", out);
      pct(out, l->l2_used, true);
      fputs(",\"l2_all_pct\":", out); /* TMA's loads: by all of the model's bytes (l2_pct: a share) */
      pct(out, l->l2_used_all, true);
      fputs(",\"tma_l2_share\":", out); /* that share: of TMA's loads, what the L2 answers */
      if (in->tma_loads)
         fprintf(out, "%.4g", in->tma_l2_share);
      else
         fputs("null", out);
      fputs(",\"local_pct\":", out);
      pct(out, l->local_used, true);
      fputs(",\"launch_pct\":", out);
      pct(out, l->launch_share, true);
      fprintf(out, ",\"caches\":%s,\"l1\":%s,", l->caches ? "true" : "false", l->l1 ? "true" : "false");
      jsonNumber(out, "l2_gbps", in->l2_gbps > 0 ? in->l2_gbps : NAN, true);
      /* The time judged: the run's, or one given (explain --judge-ms). */
      jsonNumber(out, "judged_ms", in->median_ms > 0 ? in->median_ms : NAN, true);
      jsonNumber(out, "judged_gflops", in->gflops > 0 ? in->gflops : NAN, true);
      /* The model's local-memory reads and the launch's waves: what tools/gpu/gpu_limits_ncu.py
       * puts beside Nsight Compute's wavefronts and waves. */
      jsonNumber(out, "local_bytes", in->local_bytes > 0 ? in->local_bytes : NAN, true);
      jsonNumber(out, "smem_fill_bytes", in->smem_fill_bytes > 0 ? in->smem_fill_bytes : NAN, true);
      jsonNumber(out, "local_gbps", in->local_gbps > 0 ? in->local_gbps : NAN, true);
      jsonNumber(out, "bank_ratio", in->bank_ratio > 0 ? in->bank_ratio : NAN, true);
      jsonNumber(out, "load_ratio", in->load_ratio > 0 ? in->load_ratio : NAN, true);
      jsonNumber(out, "lsu_load_bytes", in->lsu_load_bytes > 0 ? in->lsu_load_bytes : NAN, true);
      jsonNumber(out, "store_wavefronts", in->store_wavefronts > 0 ? in->store_wavefronts : NAN, true);
      jsonNumber(out, "local_banks_gbps", in->local_banks_gbps > 0 ? in->local_banks_gbps : NAN, true);
      /* The model's bytes by level, beside ncu's L2 requests and DRAM reads. */
      jsonNumber(out, "l2_model_bytes", in->l2_model_bytes > 0 ? in->l2_model_bytes : NAN, true);
      jsonNumber(out, "l1_bytes", in->l1_bytes > 0 ? in->l1_bytes : NAN, true);
      jsonNumber(out, "min_read_bytes", in->min_read_bytes > 0 ? in->min_read_bytes : NAN, true);
      jsonNumber(out, "dram_read_bytes", in->dram_read_bytes > 0 ? in->dram_read_bytes : NAN, true);
      jsonNumber(out, "dram_drift_bytes", in->dram_drift_bytes > 0 ? in->dram_drift_bytes : NAN, true);
      fprintf(out, "\"dram_count\":\"%s\",", DramCount_name(in->dram_count));
      /* What crosses between the L2's two partitions (beside ncu's ltcfabric sectors). */
      jsonNumber(out, "l2_fabric_bytes", in->l2_fabric_bytes > 0 ? in->l2_fabric_bytes : NAN, true);
      /* Where a fix-up writes C, what the kernel itself stores instead: the partial sums. */
      jsonNumber(out, "store_bytes", in->store_bytes > 0 ? in->store_bytes : NAN, true);
      /* The compute ceiling's share left at the run's clock (1: the peak's own clock). */
      jsonNumber(out, "clock_share", in->clock_share > 0 ? in->clock_share : NAN, true);
      fputs("\"issue_pct\":", out);
      pct(out, l->issue_used, true);
      fputc(',', out);
      /* A figure above its ceiling is the model's need, not a share: which side is wrong. */
      const struct {
         const char *key;
         OverCause c;
      } over[] = {{"compute_over", l->compute_over},
                  {"memory_over", l->memory_over},
                  {"local_over", l->local_over},
                  {"l2_over", l->l2_over}};
      for (size_t i = 0; i < sizeof over / sizeof over[0]; i++) {
         const char *name = OverCause_name(over[i].c);
         fprintf(out, "\"%s\":%s%s%s,", over[i].key, name ? "\"" : "", name ? name : "null", name ? "\"" : "");
      }
      jsonNumber(out, "waves", in->waves.known ? in->waves.waves : NAN, true);
      if (in->waves.known)
         fprintf(out, "\"work_groups\":%lld,\"units\":%d,\"per_unit\":%d,", in->waves.groups, in->waves.units,
                 in->waves.per_unit);
      fprintf(out, "\"flops_per_byte\":%.4g,\"flops_per_byte_min\":%.4g,\"attainable_gflops\":%.6g,"
                   "\"slots_busy\":%.4g,\"occupancy\":%.4g,\"peak_gflops\":%.6g,\"copy_gbps\":%.6g,\"model_bytes\":%.6g,"
                   "\"min_bytes\":%.6g}}\n",
              l->intensity, l->intensity_min, l->attainable_gflops, l->busy, in->occupancy,
              in->peak_gflops, in->copy_gbps, in->model_bytes, in->min_bytes);
      return;
   }
   if (f == FORMAT_CSV) {
      fputs("limiter,words,headroom,compute_pct,memory_pct,memory_min_pct,local_pct,launch_pct,caches,flops_per_byte,"
            "flops_per_byte_min,attainable_gflops,slots_busy,occupancy,peak_gflops,copy_gbps,l2_pct,l2_gbps,compute_over,"
            "memory_over,local_over,l2_over\n",
            out);
      Util_csvField(out, LimitKind_name(l->kind), false);
      Util_csvField(out, l->words, false);
      Util_csvField(out, l->headroom, false);
      pct(out, l->compute_used, false);
      fputc(',', out);
      pct(out, l->memory_used, false);
      fputc(',', out);
      pct(out, l->memory_used_min, false);
      fputc(',', out);
      pct(out, l->local_used, false);
      fputc(',', out);
      pct(out, l->launch_share, false);
      fprintf(out, ",%s,%.4g,%.4g,%.6g,%.4g,%.4g,%.6g,%.6g,", l->caches ? "true" : "false", l->intensity,
              l->intensity_min, l->attainable_gflops, l->busy, in->occupancy, in->peak_gflops, in->copy_gbps);
      pct(out, l->l2_used, false);
      fputc(',', out);
      if (in->l2_gbps > 0)
         fprintf(out, "%.6g", in->l2_gbps);
      const OverCause over[] = {l->compute_over, l->memory_over, l->local_over, l->l2_over};
      for (size_t i = 0; i < sizeof over / sizeof over[0]; i++)
         fprintf(out, ",%s", OverCause_name(over[i]) ? OverCause_name(over[i]) : "");
      fputc('\n', out);
      return;
   }
   fprintf(out, "\nlimits     %s\n", l->words);
   if (l->headroom[0])
      fprintf(out, "           %s\n", l->headroom);
   if (l->intensity > 0)
      fprintf(out, "intensity  %.3g flops per byte of global traffic by the model, %.3g if each element moved once\n",
              l->intensity, l->intensity_min);
   else
      fprintf(out, "intensity  %.3g flops per byte if each element moved once (the kernel states no reuse: model)\n",
              l->intensity_min);
   if (l->attainable_gflops > 0) {
      fprintf(out, "roofline   %.4g GFLOPS attainable at that intensity: min(%.4g GFLOPS %s, %.3g x %.4g GB/s); ",
              l->attainable_gflops, in->peak_gflops, in->peak_label ? in->peak_label : "", l->intensity, in->copy_gbps);
      /* Above the roof is no share of it: the peak falls short, or caches serve the model's bytes. */
      if (in->gflops > l->attainable_gflops)
         fprintf(out, "measured above it (%.2fx): %s\n", in->gflops / l->attainable_gflops,
                 l->compute_over ? Limiter_overWhy(LIMIT_COMPUTE, l->compute_over)
                                 : "caches serve part of the model's bytes, which the roof counts from memory");
      else
         fprintf(out, "measured %.0f%% of it\n", 100 * in->gflops / l->attainable_gflops);
   }
   if (in->peak_gflops <= 0 || in->copy_gbps <= 0)
      fprintf(out, "ceilings   not all measured on this device: gemmtop list devices --measure\n");
   /* DRAM's reads by the model (Limiter_inputs): once where A and B fit in the L2, else each
    * wave's rows and columns again (less what the L2 keeps across waves: waves_kept); the
    * memory share is judged by them and C's writes. */
   if (in->dram_read_bytes > 0 && l->memory_used >= 0) {
      const double times = in->dram_read_bytes / in->min_read_bytes, l2_mb = in->l2_bytes / 1048576;
      fprintf(out, "DRAM       the model's reads: %.4g MB, ", in->dram_read_bytes / 1e6);
      /* Waves that read nothing twice (a decode's one wave of weight rows): "again" would mislead. */
      const bool waves = in->dram_count == DRAM_WAVES || in->dram_count == DRAM_WAVES_KEPT;
      switch (waves && times < 1.005 ? DRAM_ONCE : in->dram_count) {
      case DRAM_BESIDE_WRITES:
         fprintf(out,
                 "%.2fx the compulsory (%s fit in the %.0f MB L2, but not twice beside %s: its two partitions each "
                 "keep a copy, so the groups read again what was evicted)",
                 times, in->min_read_bytes <= in->l2_bytes ? "A and B" : "each split-K plane's slices of A and B",
                 l2_mb, in->min_read_bytes <= in->l2_bytes ? "C's written lines" : "the plane's partial sums");
         break;
      case DRAM_WAVES:
         fprintf(out,
                 "%.2fx the compulsory (A and B exceed the %.0f MB L2: each wave of resident groups reads its tiles' "
                 "rows and columns again)",
                 times, l2_mb);
         break;
      case DRAM_WAVES_KEPT:
         fprintf(out,
                 "%.2fx the compulsory (A and B exceed the %.0f MB L2: each wave of resident groups reads its tiles' "
                 "rows and columns again, less what the L2 keeps from the wave before: an LRU of its size, the "
                 "operands' lines in each partition, C's written lines beside them)",
                 times, l2_mb);
         break;
      default:
         if (waves)
            fprintf(out,
                    "each element once (A and B exceed the %.0f MB L2, but no wave of resident groups reads the rows "
                    "and columns of another)",
                    l2_mb);
         else
            fprintf(out, "each element once (%s fit in the %.0f MB L2)",
                    in->dram_count == DRAM_ONCE_PLANES ? "each split-K plane's slices of A and B" : "A and B", l2_mb);
         break;
      }
      fprintf(out, "; with C's writes %.0f%% of the measured %.4g GB/s\n", 100 * l->memory_used, in->copy_gbps);
      /* The waves' figure holds for groups that stay together in K; drifted apart they read more. */
      if (in->dram_drift_bytes > 0)
         fprintf(out,
                 "           groups that drift apart in K read up to %.4g MB, %.2fx the compulsory (their tiles "
                 "through an LRU of the L2's size): how far they drift decides, which the model cannot tell\n",
                 in->dram_drift_bytes / 1e6, in->dram_drift_bytes / in->min_read_bytes);
   }
   if (l->l2_over)
      fprintf(out,
              "L2         the model's loads and its stores would need %.0f%% of the measured %.4g GB/s, within the "
              "model's error of it, so not a share: %s\n",
              100 * l->l2_used, in->l2_gbps, Limiter_overWhy(LIMIT_L2, l->l2_over));
   else if (l->l2_used >= 0 && l->l2_used_all >= 0 && in->tma_staggered)
      fprintf(out,
              "L2         the model's loads and its stores: %.0f%% of the measured %.4g GB/s (its blocks stand at "
              "different K steps: the L2 answers each of TMA's requests)\n",
              100 * l->l2_used, in->l2_gbps);
   else if (l->l2_used >= 0 && l->l2_used_all >= 0 && in->tma_l2_share > 2.0 / 3 + 1e-9)
      fprintf(out,
              "L2         %.0f%% of the model's loads and its stores: %.0f%% of the measured %.4g GB/s (all of "
              "them %.0f%%: past the first wave of a row-by-row order the blocks drift apart, and fewer of TMA's "
              "requests for a line arrive together)\n",
              100 * in->tma_l2_share, 100 * l->l2_used, in->l2_gbps, 100 * l->l2_used_all);
   else if (l->l2_used >= 0 && l->l2_used_all >= 0)
      fprintf(out,
              "L2         two thirds of the model's loads and its stores: %.0f%% of the measured %.4g GB/s (all of "
              "them %.0f%%: TMA's requests for a line that arrive together are answered once)\n",
              100 * l->l2_used, in->l2_gbps, 100 * l->l2_used_all);
   else if (l->l2_used >= 0)
      fprintf(out, "L2         the model's loads: %.0f%% of the measured %.4g GB/s (reads of a working set inside it)\n",
              100 * l->l2_used, in->l2_gbps);
   else if (l->l1)
      fprintf(out, "L2         the model's loads would need %.0f%% of the measured %.4g GB/s: the L1 serves part of them\n",
              100 * in->gflops / l->intensity / in->l2_gbps, in->l2_gbps);
   if (in->bank_ratio > 0)
      fprintf(out, "banks      local-memory wavefronts %.2fx the ideal (the bank trace of one work-group)\n",
              in->bank_ratio);
   if (in->load_ratio > 0)
      fprintf(out, "loads      the global loads of A and B take %.2fx the ideal L1 wavefronts (the coalescing trace: "
                   "gemmtop banks --coalescing)\n",
              in->load_ratio);
   /* What the local share counts: reads (times conflicts), the global loads (as they coalesce), TMA's fills. */
   char what[160];
   snprintf(what, sizeof what, "%s%s%s%s%s", in->local_bytes > 0 ? "reads" : "",
            in->local_bytes > 0 && in->bank_ratio > 1.01 ? " times the bank conflicts" : "",
            in->store_wavefronts > 0 ? (in->local_bytes > 0 ? ", stores" : "stores") : "",
            in->lsu_load_bytes > 0 ? (in->local_bytes > 0 || in->store_wavefronts > 0 ? " and global loads" : "global loads") : "",
            in->smem_fill_bytes > 0 ? (in->local_bytes > 0 ? " and TMA's copies" : "TMA's copies") : "");
   if (l->local_over)
      fprintf(out, "local      the model's %s would need %.2fx the measured %.4g GB/s: %s\n", what[0] ? what : "reads",
              l->local_used, in->local_gbps, Limiter_overWhy(LIMIT_LOCAL, l->local_over));
   else if (l->local_used >= 0)
      fprintf(out, "local      the model's %s: %.0f%% of the measured %.4g GB/s\n", what[0] ? what : "reads",
              100 * l->local_used, in->local_gbps);
   if (l->launch_share >= 0)
      fprintf(out, "launch     an empty kernel's launch: %.3g us, %.1f%% of this one's time\n", in->launch_us,
              100 * l->launch_share);
   if (in->occupancy > 0)
      fprintf(out, "occupancy  %.0f%% of the most warps a multiprocessor holds\n", 100 * in->occupancy);
}
