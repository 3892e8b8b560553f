#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/ablate.h"
#include "core/util.h"

void Options_usage(FILE *out) {
   fputs("usage: gemmtop [options]                 the interactive explorer\n"
         "       gemmtop list [devices|kernels|presets] [--measure]\n"
         "       gemmtop run [options]             one verified, timed run\n"
         "       gemmtop inspect [options]         compiled code, registers, memory, occupancy\n"
         "       gemmtop sweep [options]           search a kernel's parameters, best first\n"
         "       gemmtop bench [options]           configurations and the vendor BLAS across sizes\n"
         "       gemmtop banks [options]           local-memory bank conflicts per access site\n"
         "       gemmtop cache clear               forget compiled programs kept on disk\n"
         "\n"
         "options:\n"
         "  --backend opencl|cuda|hip  the runtime (default opencl; the explorer takes a CUDA or HIP GPU\n"
         "                             when OpenCL has none)\n"
         "  --device N|NAME|KIND       device index, part of its (platform's) name, or pocl|nvidia|amd|intel|cpu|gpu\n"
         "                             (default: the best GPU, else the CPU)\n"
         "  --kernel NAME              kernel variant (gemmtop list kernels)\n"
         "  --preset NAME|FILE         a preset (gemmtop list presets) or a .preset file\n"
         "  --set PARAM=VALUE          set a kernel parameter (repeatable)\n"
         "  -m M -n N -k K, --size S   problem size (default 1024 each)\n"
         "  --precision TYPE           float, double, tf32, half or bfloat16 (default float); the last three:\n"
         "                             A and B of that type, FP32 accumulation, C in FP32\n"
         "  --layout NN|NT|TN|TT       op(A) and op(B): N as stored, T transposed (row-major storage)\n"
         "  --alpha A --beta B         C = alpha*op(A)*op(B) + beta*C (default 1, 0)\n"
         "  --reps R --warmup W        timed launches and untimed ones before them (default 10, 2)\n"
         "  --max-seconds S            stop timing after S seconds (at least one launch); a launch still\n"
         "                             running after S seconds is abandoned (run, bench)\n"
         "  --seed S                   random inputs from this seed (default: fresh each run)\n"
         "  --a A.npy --b B.npy --c C.npy   inputs from NumPy files (as stored: transposed shapes for T)\n"
         "  --out C.npy                write the result C\n"
         "  --format table|csv|json    output (json: one object per line)\n"
         "  --no-verify                skip the verification run\n"
         "  --ablate LIST              run, inspect: switch work off to see what limits the kernel; LIST is any of\n"
         "                             no-a, no-b (global loads of A, B), no-fma (multiply-adds),\n"
         "                             const-store (C gets 1.25), comma-separated; the result is labelled\n"
         "                             ablated and not verified\n"
         "  --arch sm_90|gfx906        inspect: compile for this target, no device needed (cuda)\n"
         "  --code ptx|sass|none       inspect: which code to print (default ptx, sass when cuobjdump is there)\n"
         "  --budget N, --exhaustive   sweep: try N random valid configurations (default 40; explorer 24), or all\n"
         "  --timeout S                sweep: drop a configuration whose launch takes longer (default 5)\n"
         "  --jobs N                   sweep: parallel compiles (default: one per core)\n"
         "  --save-presets N           sweep: save the best N as presets in your config folder\n"
         "  --sizes 1024,2048,...      bench: the square sizes (default 1024,2048,4096)\n"
         "  --save FILE.csv|FILE.json  sweep, bench: write every result to a file\n"
         "  --reference cuda|opencl|hip  bench: also time that backend's vendor BLAS on the same device\n"
         "  --rounds R                 bench: R rounds in which the libraries and the configurations take\n"
         "                             turns; figures are medians over the rounds (default 3, at most 32)\n"
         "                             (cuBLAS beside an OpenCL run) and give % of it\n"
         "  --vendor                   run: also time the vendor BLAS (CLBlast, cuBLAS, rocBLAS) for % of vendor\n"
         "  --site N|NAME --warp W     banks: draw one request of this access site and warp as lanes x banks\n"
         "  --iteration I              banks: which execution of that site by that warp (default 0, the first)\n"
         "  --groups G                 banks: work-groups to trace (default 1)\n"
         "  --banks B --bank-width W --simd-width S   banks: override the device's bank model\n"
         "  --no-color, -U/--ascii     plain screen for the explorer (NO_COLOR is honoured)\n"
         "  -h, --help, --version\n"
         "\n"
         "exit status: 0 success, 1 a run failed or did not verify, 2 usage error or refused configuration\n",
         out);
}

static bool parseSize(const char *s, int *out) {
   char *end;
   errno = 0;
   long v = strtol(s, &end, 10);
   if (end == s || *end || errno || v < 1 || v > 1 << 20)
      return false;
   *out = (int)v;
   return true;
}

static bool parseNumber(const char *s, double *out) {
   char *end;
   errno = 0;
   *out = strtod(s, &end);
   return end != s && !*end && errno == 0;
}

static int usageError(const char *fmt, const char *a, const char *b) {
   fprintf(stderr, "gemmtop: ");
   fprintf(stderr, fmt, a, b);
   fprintf(stderr, "\nsee 'gemmtop --help'\n");
   return 2;
}

int Options_parse(Options *o, int argc, char **argv, int first, const char *command) {
   memset(o, 0, sizeof *o);
   Problem_setDefaults(&o->problem);
   o->reps = 10;
   o->warmup = 2;
   o->rounds = 3;
   const char *nc = getenv("NO_COLOR");
   o->no_color = nc && *nc;
   enum {
      OPT_BACKEND = 256, OPT_DEVICE, OPT_KERNEL, OPT_PRESET, OPT_SET, OPT_SIZE, OPT_PRECISION, OPT_LAYOUT,
      OPT_ALPHA, OPT_BETA, OPT_REPS, OPT_WARMUP, OPT_FORMAT, OPT_SEED, OPT_A, OPT_B, OPT_C, OPT_OUT,
      OPT_NO_VERIFY, OPT_NO_COLOR, OPT_VERSION, OPT_MEASURE, OPT_VENDOR, OPT_ARCH, OPT_CODE, OPT_MAX_SECONDS,
      OPT_BUDGET, OPT_EXHAUSTIVE, OPT_SIZES, OPT_SAVE, OPT_REFERENCE, OPT_SAVE_PRESETS, OPT_TIMEOUT, OPT_JOBS, OPT_ROUNDS,
      OPT_SITE, OPT_WARP, OPT_ITERATION, OPT_GROUPS, OPT_BANKS, OPT_BANK_WIDTH, OPT_SIMD_WIDTH,
      OPT_ABLATE,
   };
   static const struct option longs[] = {
       {"backend", required_argument, 0, OPT_BACKEND},     {"device", required_argument, 0, OPT_DEVICE},
       {"kernel", required_argument, 0, OPT_KERNEL},       {"preset", required_argument, 0, OPT_PRESET},
       {"set", required_argument, 0, OPT_SET},             {"size", required_argument, 0, OPT_SIZE},
       {"precision", required_argument, 0, OPT_PRECISION}, {"layout", required_argument, 0, OPT_LAYOUT},
       {"alpha", required_argument, 0, OPT_ALPHA},         {"beta", required_argument, 0, OPT_BETA},
       {"reps", required_argument, 0, OPT_REPS},           {"warmup", required_argument, 0, OPT_WARMUP},
       {"format", required_argument, 0, OPT_FORMAT},       {"seed", required_argument, 0, OPT_SEED},
       {"a", required_argument, 0, OPT_A},                 {"b", required_argument, 0, OPT_B},
       {"c", required_argument, 0, OPT_C},                 {"out", required_argument, 0, OPT_OUT},
       {"no-verify", no_argument, 0, OPT_NO_VERIFY},       {"no-color", no_argument, 0, OPT_NO_COLOR},
       {"ascii", no_argument, 0, 'U'},                     {"help", no_argument, 0, 'h'},
       {"version", no_argument, 0, OPT_VERSION},           {"measure", no_argument, 0, OPT_MEASURE},
       {"vendor", no_argument, 0, OPT_VENDOR},
       {"arch", required_argument, 0, OPT_ARCH},           {"code", required_argument, 0, OPT_CODE},
       {"budget", required_argument, 0, OPT_BUDGET},       {"exhaustive", no_argument, 0, OPT_EXHAUSTIVE},
       {"sizes", required_argument, 0, OPT_SIZES},         {"save", required_argument, 0, OPT_SAVE},
       {"save-presets", required_argument, 0, OPT_SAVE_PRESETS},
       {"reference", required_argument, 0, OPT_REFERENCE},
       {"rounds", required_argument, 0, OPT_ROUNDS},
       {"timeout", required_argument, 0, OPT_TIMEOUT},     {"jobs", required_argument, 0, OPT_JOBS},
       {"max-seconds", required_argument, 0, OPT_MAX_SECONDS},
       {"site", required_argument, 0, OPT_SITE},           {"warp", required_argument, 0, OPT_WARP},
       {"iteration", required_argument, 0, OPT_ITERATION}, {"groups", required_argument, 0, OPT_GROUPS},
       {"banks", required_argument, 0, OPT_BANKS},         {"bank-width", required_argument, 0, OPT_BANK_WIDTH},
       {"simd-width", required_argument, 0, OPT_SIMD_WIDTH},
       {"ablate", required_argument, 0, OPT_ABLATE},
       {0, 0, 0, 0},
   };
   optind = first;
   opterr = 0;
   int c;
   double d;
   while ((c = getopt_long(argc, argv, ":m:n:k:hU", longs, NULL)) != -1) {
      const char *arg = optarg;
      switch (c) {
      case OPT_BACKEND: o->backend = arg; break;
      case OPT_DEVICE: o->device = arg; break;
      case OPT_KERNEL: o->kernel = arg; break;
      case OPT_PRESET: o->preset = arg; break;
      case OPT_SET:
         if (o->nsets == OPTIONS_MAX_SETS)
            return usageError("too many --set options (at most %s)%s", "32", "");
         o->sets[o->nsets++] = arg;
         break;
      case 'm':
      case 'n':
      case 'k':
      case OPT_SIZE: {
         int v;
         if (!parseSize(arg, &v))
            return usageError("size '%s' is not a positive integer (1 to 1048576)%s", arg, "");
         if (c == 'm' || c == OPT_SIZE) o->problem.m = v, o->has_m = true;
         if (c == 'n' || c == OPT_SIZE) o->problem.n = v, o->has_n = true;
         if (c == 'k' || c == OPT_SIZE) o->problem.k = v, o->has_k = true;
         break;
      }
      case OPT_PRECISION:
         if (!Precision_parse(arg, &o->problem.precision))
            return usageError("--precision '%s': use float, double, tf32, half or bfloat16%s", arg, "");
         o->has_precision = true;
         break;
      case OPT_LAYOUT:
         if (!Problem_parseLayout(&o->problem, arg))
            return usageError("--layout '%s': use NN, NT, TN or TT%s", arg, "");
         o->has_layout = true;
         break;
      case OPT_ALPHA:
      case OPT_BETA:
         if (!parseNumber(arg, &d))
            return usageError("'%s' is not a number (--%s)", arg, c == OPT_ALPHA ? "alpha" : "beta");
         if (c == OPT_ALPHA) o->problem.alpha = d, o->has_alpha = true;
         else o->problem.beta = d, o->has_beta = true;
         break;
      case OPT_REPS:
      case OPT_WARMUP: {
         int v;
         if (!parseSize(arg, &v) && strcmp(arg, "0") != 0)
            return usageError("'%s' is not a count (--%s)", arg, c == OPT_REPS ? "reps" : "warmup");
         if (c == OPT_REPS && (strcmp(arg, "0") == 0 || v > 1024))
            return usageError("--reps %s: use 1 to 1024%s", arg, "");
         if (c == OPT_REPS) o->reps = v;
         else o->warmup = strcmp(arg, "0") == 0 ? 0 : v;
         break;
      }
      case OPT_MAX_SECONDS:
         if (!parseNumber(arg, &o->max_seconds) || o->max_seconds <= 0)
            return usageError("--max-seconds '%s': a positive number%s", arg, "");
         break;
      case OPT_FORMAT:
         if (!strcmp(arg, "table")) o->format = FORMAT_TABLE;
         else if (!strcmp(arg, "csv")) o->format = FORMAT_CSV;
         else if (!strcmp(arg, "json")) o->format = FORMAT_JSON;
         else return usageError("--format '%s': use table, csv or json%s", arg, "");
         break;
      case OPT_SEED: {
         char *end;
         errno = 0;
         o->seed = strtoull(arg, &end, 0);
         if (end == arg || *end || errno)
            return usageError("--seed '%s' is not an integer%s", arg, "");
         o->has_seed = true;
         break;
      }
      case OPT_A: o->a_path = arg; break;
      case OPT_B: o->b_path = arg; break;
      case OPT_C: o->c_path = arg; break;
      case OPT_OUT: o->out_path = arg; break;
      case OPT_NO_VERIFY: o->no_verify = true; break;
      case OPT_ABLATE: {
         char why[256];
         if (!Ablate_parse(arg, &o->ablate, why, sizeof why))
            return usageError("%s%s", why, "");
         /* Ablated figures are never mixed with real ones: a sweep or a bench ranks and
          * compares results, so only a single run (and the explorer, with a label) takes
          * it; inspect shows the ablated kernel's code. */
         if (o->ablate && command && strcmp(command, "run") != 0 && strcmp(command, "inspect") != 0)
            return usageError("--ablate is for 'gemmtop run' and 'gemmtop inspect'%s%s", *command ? "; " : "",
                              *command ? "sweep and bench rank real, verified results only" : " (in the explorer, press a)");
         break;
      }
      case OPT_NO_COLOR: o->no_color = true; break;
      case 'U': o->ascii = true; break;
      case OPT_MEASURE: o->measure = true; break;
      case OPT_VENDOR: o->vendor = true; break;
      case OPT_ARCH: o->arch = arg; break;
      case OPT_BUDGET:
      case OPT_SAVE_PRESETS:
      case OPT_JOBS:
      case OPT_ROUNDS: {
         int v;
         if (!parseSize(arg, &v))
            return usageError("'%s' is not a positive count (%s)", arg,
                              c == OPT_BUDGET ? "--budget" : c == OPT_JOBS ? "--jobs" : c == OPT_ROUNDS ? "--rounds" : "--save-presets");
         if (c == OPT_ROUNDS && v > 32)
            return usageError("--rounds %s: at most 32 rounds%s", arg, "");
         if (c == OPT_BUDGET) o->budget = v;
         else if (c == OPT_JOBS) o->jobs = v;
         else if (c == OPT_ROUNDS) o->rounds = v;
         else o->save_presets = v;
         break;
      }
      case OPT_EXHAUSTIVE: o->exhaustive = true; break;
      case OPT_SIZES: o->sizes = arg; break;
      case OPT_SAVE: o->save = arg; break;
      case OPT_REFERENCE: {
         char names[128];
         Backend_names(names, sizeof names);
         if (!Backend_byName(arg))
            return usageError("--reference '%s': use one of %s", arg, names);
         o->reference = arg;
         break;
      }
      case OPT_TIMEOUT:
         if (!parseNumber(arg, &o->timeout) || o->timeout <= 0)
            return usageError("--timeout '%s': a positive number of seconds%s", arg, "");
         break;
      case OPT_CODE:
         if (strcmp(arg, "ptx") && strcmp(arg, "sass") && strcmp(arg, "isa") && strcmp(arg, "none"))
            return usageError("--code '%s': use ptx, sass, isa or none%s", arg, "");
         o->code = arg;
         break;
      case OPT_SITE: o->site = arg; break;
      case OPT_WARP:
      case OPT_ITERATION: {
         /* 0 is the first warp / execution. */
         int v = 0;
         if (strcmp(arg, "0") != 0 && !parseSize(arg, &v))
            return usageError("'%s' is not a count from 0 (%s)", arg, c == OPT_WARP ? "--warp" : "--iteration");
         if (c == OPT_WARP) o->warp = v, o->has_warp = true;
         else o->iteration = v, o->has_iteration = true;
         break;
      }
      case OPT_GROUPS:
      case OPT_BANKS:
      case OPT_BANK_WIDTH:
      case OPT_SIMD_WIDTH: {
         int v;
         const char *name = c == OPT_GROUPS ? "--groups" : c == OPT_BANKS ? "--banks"
                            : c == OPT_BANK_WIDTH ? "--bank-width" : "--simd-width";
         if (!parseSize(arg, &v))
            return usageError("'%s' is not a positive count (%s)", arg, name);
         if (c == OPT_GROUPS) o->groups = v;
         else if (c == OPT_BANKS) o->banks = v;
         else if (c == OPT_BANK_WIDTH) o->bank_width = v;
         else o->simd_width = v;
         break;
      }
      case 'h': Options_usage(stdout); return 1;
      case OPT_VERSION: printf("gemmtop %s\n", GEMMTOP_VERSION); return 1;
      case ':': {
         char name[64];
         snprintf(name, sizeof name, "%s", argv[optind - 1]);
         return usageError("option %s needs a value%s", name, "");
      }
      default: {
         char name[64];
         if (optopt)
            snprintf(name, sizeof name, "-%c", optopt);
         else
            snprintf(name, sizeof name, "%s", argv[optind - 1]);
         return usageError("unknown option %s%s", name, command ? (strcmp(command, "") ? "" : "") : "");
      }
      }
   }
   for (int i = optind; i < argc; i++) {
      if (o->npositional == 64)
         return usageError("too many arguments ('%s')%s", argv[i], "");
      o->positional[o->npositional++] = argv[i];
   }
   return 0;
}
