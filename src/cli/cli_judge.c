/* explain --arch: what limits a kernel on a device that is not here, judged on a time taken
 * there (--judge-ms, a profiler's) with the ceilings measured there (--device-file, the
 * line `gemmtop list devices --format json --measure` printed). The kernel is compiled
 * offline for its registers; nothing runs. tools/gpu/gpu_limits_ncu.py --rescore --replay
 * tries a change of the limiter on a GPU call's figures with it (docs/limits.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report.h"
#include "core/analyse/inspect.h"
#include "core/analyse/limiter.h"
#include "core/run/devicefile.h"

/* What a run would need and an offline judgement cannot take: said, not ignored. */
static bool refuseRunOptions(const CommandArgs *o) {
   const char *what = o->timing->vendor            ? "--vendor (the vendor library runs on a device)"
                      : o->io->out_path             ? "--out (no C is computed)"
                      : o->io->a_path || o->io->b_path || o->io->c_path ? "input files (no kernel runs)"
                      : o->output->save             ? "--save"
                      : o->timing->ablate           ? "--ablate (an ablated kernel is judged by running it)"
                                                    : NULL;
   if (what)
      fprintf(stderr, "gemmtop: explain --arch judges a time taken elsewhere and runs nothing: %s does not apply\n",
              what);
   return what != NULL;
}

static void printJsonRun(const KernelInfo *k, const long long *values, const Problem *p, const DeviceInfo *dev,
                         const char *arch, const Inspection *in, double ms, double mhz) {
   printf("{\"schema\":%d,\"kernel\":", REPORT_SCHEMA);
   Report_jsonString(stdout, k->name);
   printf(",\"params\":{");
   for (int i = 0; i < k->nparams; i++) {
      printf("%s", i ? "," : "");
      Report_jsonString(stdout, k->params[i].name);
      printf(":%lld", values[i]);
   }
   printf("},\"m\":%d,\"n\":%d,\"k\":%d,\"precision\":", p->m, p->n, p->k);
   Report_jsonString(stdout, Types_of(p->precision)->name);
   printf(",\"status\":\"not run\",\"offline\":");
   Report_jsonString(stdout, arch);
   printf(",\"device\":");
   Report_jsonString(stdout, dev->name);
   printf(",\"compute_units\":%u,\"registers\":%d,\"judged_ms\":%.6g,\"judged_mhz\":", dev->compute_units,
          in->registers, ms);
   if (mhz > 0)
      printf("%.6g}\n", mhz);
   else
      printf("null}\n");
}

int Cli_explainOffline(const CommandArgs *o) {
   if (!(o->timing->judge_ms > 0) || !o->inspect->device_file) {
      fprintf(stderr, "gemmtop: explain --arch runs nothing: it judges a time taken on another device; give that "
                      "time (--judge-ms MS) and that device (--device-file FILE: the line 'gemmtop list devices "
                      "--format json --measure' printed there)\n");
      return 2;
   }
   if (refuseRunOptions(o))
      return 2;
   const Backend *be = Cli_offlineBackend(o);
   if (!be)
      return 2;
   const char *arch = o->inspect->arch;
   DeviceInfo dev;
   Peaks peaks;
   char why[1024];
   be->offline->device(arch, &dev);
   if (!DeviceFile_read(o->inspect->device_file, &dev, &peaks, why, sizeof why)) {
      fprintf(stderr, "gemmtop: --device-file %s\n", why);
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   if (rc) {
      Catalog_free(&cat);
      return rc;
   }
   /* The offline compile checks the launch on that device (its multiprocessors size a
    * persistent grid) and gives the registers. */
   InspectRequest rq = {.catalog = &cat, .kernel = k, .values = values, .problem = &p, .code = INSPECT_CODE_NONE,
                        .compute_units = dev.compute_units};
   Inspection *in = calloc(1, sizeof *in);
   if (!in) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      Catalog_free(&cat);
      return 1;
   }
   RunStatus st = Inspect_offline(be, arch, &rq, in);
   if (st != RUN_OK) {
      fprintf(stderr, "gemmtop: %s\n%s", in->message, in->build_log ? in->build_log : "");
      rc = st == RUN_INVALID ? 2 : 1;
   } else {
      const Geometry g = in->geo;
      /* As a run's: the static shared memory its build reports (the dynamic part is the
       * geometry's), the registers ptxas gave. */
      long long local = in->local_mem - g.dynamic_smem;
      if (local <= 0 && g.localmem > 0)
         local = g.localmem;
      const double ms = o->timing->judge_ms, mhz = o->timing->judge_mhz;
      LimiterRun run = {.gflops = 2.0 * p.m * p.n * p.k / (ms * 1e6), .median_ms = ms, .geo = g,
                        .registers = in->registers, .local_mem = local, .sm_mhz = mhz};
      LimiterInputs li;
      Limiter lim;
      const LimiterTrace trace = {.bank_ratio = o->timing->bank_ratio, .load_ratio = o->timing->load_ratio,
                                  .store_wavefronts_per_fma = o->timing->store_wavefronts};
      Limiter_inputs(&dev, k, values, &p, &run, &peaks, &trace, &li);
      Limiter_of(&li, &lim);
      if (o->output->format == FORMAT_JSON)
         printJsonRun(k, values, &p, &dev, arch, in, ms, mhz);
      else if (o->output->format == FORMAT_TABLE) { /* CSV: the limits' header and row alone */
         printf("kernel     %s on %s (%u multiprocessors; ceilings measured %s), compiled offline for %s: "
                "nothing ran here\n",
                k->name, dev.name, dev.compute_units, peaks.measured_at[0] ? peaks.measured_at : "at an unknown date",
                in->code_arch[0] ? in->code_arch : arch);
         printf("registers  %d per work-item\n", in->registers);
         printf("judged     the time given (--judge-ms): %.6g ms, %.4g GFLOPS", ms, run.gflops);
         if (mhz > 0)
            printf(" at %.0f MHz", mhz);
         if (o->timing->bank_ratio > 0)
            printf("; local-memory conflicts %.3gx the ideal (--bank-ratio)", o->timing->bank_ratio);
         if (o->timing->load_ratio > 0)
            printf("; global loads %.3gx the ideal L1 wavefronts (--load-ratio)", o->timing->load_ratio);
         if (o->timing->store_wavefronts > 0)
            printf("; %.3g local store wavefronts per multiply-add (--store-wavefronts)", o->timing->store_wavefronts);
         printf("\n");
      }
      Report_limits(stdout, o->output->format, &li, &lim);
   }
   Inspection_free(in);
   free(in);
   Catalog_free(&cat);
   return rc;
}
