/* gemmtop inspect: what the compiler made of a configuration — resources (registers,
 * spills, local/shared memory), an occupancy estimate with its limiting resource, and the
 * code (PTX, SASS). Through NVRTC it needs no GPU: --backend cuda --arch sm_90. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report.h"
#include "core/run/ablate.h"
#include "core/analyse/inspect.h"

static void printTable(const KernelInfo *k, const long long *values, const Inspection *in, bool show_code,
                       unsigned ablate) {
   char params[512];
   KernelInfo_formatParams(k, values, params, sizeof params);
   if (ablate) {
      char names[64];
      Ablate_name(ablate, names, sizeof names);
      printf("ABLATED    %s: the code of the ablated kernel, not the GEMM\n", names);
   }
   printf("kernel     %s  %s\n", k->name, params);
   printf("target     %s\n", in->target);
   printf("registers  %s", in->registers >= 0 ? "" : "not reported by this runtime");
   if (in->registers >= 0)
      printf("%d per work-item", in->registers);
   if (in->registers >= 0 && in->registers_from[0])
      printf(" (from %s: the runtime's build said none)", in->registers_from);
   putchar('\n');
   if (in->ptxas.found)
      printf("spills     %d B stores, %d B loads; stack frame %d B\n", in->ptxas.spill_stores, in->ptxas.spill_loads,
             in->ptxas.stack_bytes);
   else if (in->private_mem >= 0)
      printf("private    %lld B per work-item\n", in->private_mem);
   if (in->ptxas.wgmma_serialized[0])
      printf("wgmma      serialized by ptxas (each waits for the one before) due to %s\n", in->ptxas.wgmma_serialized);
   if (in->resources[0])
      printf("resources  %s\n", in->resources);
   printf("local mem  %lld B per work-group (%lld work-items)\n", in->local_mem, in->group_items);
   bool amd = !strncmp(in->arch, "gfx", 3);
   if (in->occ.known)
      printf("occupancy  %d work-groups per %s = %d of %d %s (%.0f%%), limited by %s "
             "(by registers %d, local memory %d, work-items %d, slots %d)\n",
             in->occ.groups, amd ? "compute unit" : "multiprocessor", in->occ.waves, in->occ.max_waves,
             amd ? "wavefronts" : "warps", 100 * in->occ.fraction, in->occ.limited_by, in->occ.by_registers,
             in->occ.by_local, in->occ.by_items, in->occ.by_groups);
   else
      printf("occupancy  unknown for this device (architecture %s)\n", in->arch[0] ? in->arch : "not reported");
   if (show_code && in->code) {
      char sum[512];
      Listing_summary(&in->stats, sum, sizeof sum);
      printf("counts     %s: %s\n", Listing_kindName(in->stats.kind), sum);
   }
   if (show_code && in->code && in->have_real) { /* ablated: is the loop optimised out? */
      char words[512];
      bool kept = Ablate_loopKept(&in->real_stats, &in->stats, ablate, words, sizeof words);
      printf("loop       %s: %s\n", kept ? "kept" : "OPTIMISED OUT", words);
   }
   if (show_code) {
      if (in->code)
         printf("\n%s (%s):\n%s\n", in->code_kind,
                in->code_arch[0] ? in->code_arch : in->arch[0] ? in->arch : in->target, in->code);
      else
         printf("code       none readable here%s%s\n"
                "           (NVIDIA's OpenCL gives PTX, PoCL its CPU code with llvm-objdump; --backend cuda --arch sm_90 gives PTX or SASS; "
                "--backend hip --arch gfx906 gives AMD ISA when LLVM's tools are installed)\n",
                in->note[0] ? ": " : "", in->note);
   }
}

static void printJson(const KernelInfo *k, const long long *values, const Inspection *in, bool show_code,
                      unsigned ablate) {
   char ablation[64];
   Ablate_name(ablate, ablation, sizeof ablation);
   printf("{\"schema\":%d,\"ablated\":%s,\"ablation\":\"%s\",\"kernel\":", REPORT_SCHEMA, ablate ? "true" : "false",
          ablation);
   Report_jsonString(stdout, k->name);
   printf(",\"params\":{");
   for (int i = 0; i < k->nparams; i++) {
      printf("%s", i ? "," : "");
      Report_jsonString(stdout, k->params[i].name);
      printf(":%lld", values[i]);
   }
   printf("},\"target\":");
   Report_jsonString(stdout, in->target);
   printf(",\"arch\":");
   Report_jsonString(stdout, in->arch);
   if (in->registers >= 0)
      printf(",\"registers\":%d", in->registers);
   if (in->registers_from[0]) {
      printf(",\"registers_from\":");
      Report_jsonString(stdout, in->registers_from);
   }
   if (in->ptxas.found)
      printf(",\"spill_store_bytes\":%d,\"spill_load_bytes\":%d,\"stack_bytes\":%d", in->ptxas.spill_stores,
             in->ptxas.spill_loads, in->ptxas.stack_bytes);
   if (in->ptxas.wgmma_serialized[0]) {
      printf(",\"wgmma_serialized\":");
      Report_jsonString(stdout, in->ptxas.wgmma_serialized);
   }
   printf(",\"local_mem_bytes\":%lld,\"work_group_items\":%lld", in->local_mem, in->group_items);
   if (in->occ.known)
      printf(",\"occupancy_groups\":%d,\"occupancy_warps\":%d,\"occupancy_max_warps\":%d,\"occupancy_pct\":%.1f,"
             "\"occupancy_limited_by\":\"%s\"",
             in->occ.groups, in->occ.waves, in->occ.max_waves, 100 * in->occ.fraction, in->occ.limited_by);
   if (show_code && in->code) {
      printf(",\"code_kind\":");
      Report_jsonString(stdout, in->code_kind);
      if (in->code_arch[0]) {
         printf(",\"code_arch\":");
         Report_jsonString(stdout, in->code_arch);
      }
      const ListingStats *c = &in->stats;
      printf(",\"code_counts\":{\"lines\":%d,\"instructions\":%d,\"fma\":%d,\"shared_loads\":%d,"
             "\"shared_stores\":%d,\"global_loads\":%d,\"global_stores\":%d,\"spill_loads\":%d,"
             "\"spill_stores\":%d,\"barriers\":%d}",
             c->lines, c->instructions, c->fma, c->shared_loads, c->shared_stores, c->global_loads, c->global_stores,
             c->local_loads, c->local_stores, c->barriers);
      if (in->have_real) {
         char words[512];
         bool kept = Ablate_loopKept(&in->real_stats, &in->stats, ablate, words, sizeof words);
         printf(",\"real_instructions\":%d,\"real_fma\":%d,\"loop_kept\":%s,\"loop\":", in->real_stats.instructions,
                in->real_stats.fma, kept ? "true" : "false");
         Report_jsonString(stdout, words);
      }
      printf(",\"code\":");
      Report_jsonString(stdout, in->code);
   }
   printf("}\n");
}

static InspectCode codeWanted(const CommandArgs *o) {
   if (o->inspect->code && !strcmp(o->inspect->code, "none"))
      return INSPECT_CODE_NONE;
   if (o->inspect->code && !strcmp(o->inspect->code, "sass"))
      return INSPECT_CODE_SASS;
   return INSPECT_CODE_DEFAULT;
}

/* Compiles for --arch without a device, or on the device that the options name; prints
 * why it failed. Returns the exit code. */
static int inspect(const CommandArgs *o, const InspectRequest *rq, Inspection *in) {
   if (!Cli_computeUnitsFit(o, "a compile"))
      return 2;
   if (o->inspect->arch) {
      const Backend *be = Cli_offlineBackend(o);
      if (!be)
         return 2;
      RunStatus st = Inspect_offline(be, o->inspect->arch, rq, in);
      if (st == RUN_INVALID)
         fprintf(stderr, "gemmtop: %s\n", in->message);
      else if (st != RUN_OK)
         fprintf(stderr, "gemmtop: %s\n%s\n", in->message, in->build_log ? in->build_log : "");
      return st == RUN_OK ? 0 : st == RUN_INVALID ? 2 : 1;
   }
   int rc;
   Session *s = Cli_openSession(o, rq->catalog, &rc);
   if (!s)
      return rc;
   RunStatus st = Inspect_onDevice(s, rq, in);
   Session_close(s);
   if (st != RUN_OK)
      fprintf(stderr, "gemmtop: %s%s%s\n", st == RUN_INVALID ? "refused: " : "", in->message,
              in->build_log ? in->build_log : "");
   return RunStatus_exitCode(st);
}

static int execInspect(const CommandArgs *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   Inspection in;
   memset(&in, 0, sizeof in);
   if (rc == 0) {
      InspectRequest rq = {.catalog = &cat, .kernel = k, .values = values, .problem = &p, .ablate = o->timing->ablate,
                           .code = codeWanted(o), .compute_units = (unsigned)o->inspect->compute_units};
      rc = inspect(o, &rq, &in);
   }
   if (rc == 0) {
      if (in.warning[0])
         fprintf(stderr, "gemmtop: --code sass: %s\n", in.warning);
      bool show = codeWanted(o) != INSPECT_CODE_NONE;
      if (o->output->format == FORMAT_JSON)
         printJson(k, values, &in, show, o->timing->ablate);
      else
         printTable(k, values, &in, show, o->timing->ablate);
   }
   Inspection_free(&in);
   Catalog_free(&cat);
   return rc;
}

const CommandEntry Cli_inspectCommand = {
    .name = "inspect",
    .groups = GROUPS_CONFIGURED | IN_GROUP(TIMING) | IN_GROUP(INSPECT),
    .words = "",
    .summary = "compiled code, registers, memory, occupancy",
    .max_positional = 0,
    .exec = execInspect,
};
