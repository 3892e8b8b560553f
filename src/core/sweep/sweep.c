#include "core/sweep/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *SweepOutcome_name(SweepOutcome o) {
   static const char *names[SWEEP_OUTCOMES] = {"pending",      "ok",      "invalid", "compile failed",
                                               "wrong result", "timeout", "failed"};
   return o >= 0 && o < SWEEP_OUTCOMES ? names[o] : "?";
}

bool Sweep_enumerate(const KernelInfo *k, const long long *base, unsigned free_mask, const Problem *p,
                     const DeviceLimits *lim, Rng *rng, SweepSpace *out) {
   memset(out, 0, sizeof *out);
   int free_idx[KERNEL_MAX_PARAMS], nfree = 0;
   double space = 1;
   for (int i = 0; i < k->nparams; i++)
      if (free_mask & (1u << i)) {
         free_idx[nfree++] = i;
         space *= k->params[i].nvalues;
      }
   out->space = space;
   bool draw = space > SWEEP_MAX_ENUMERATED;
   int cap = draw ? SWEEP_MAX_ENUMERATED : (int)space;
   out->cands = calloc((size_t)(cap > 0 ? cap : 1), sizeof *out->cands);
   if (!out->cands)
      return false;
   for (int e = 0; e < cap; e++) {
      SweepCandidate *c = &out->cands[out->count];
      memcpy(c->values, base, sizeof c->values);
      long long code = e;
      for (int f = 0; f < nfree; f++) {
         const KernelParam *kp = &k->params[free_idx[f]];
         int v = draw ? (int)Rng_below(rng, (uint64_t)kp->nvalues) : (int)(code % kp->nvalues);
         code /= kp->nvalues;
         c->values[free_idx[f]] = kp->values[v];
      }
      /* Only the first refusal is put in words: naming the valid values of every
       * parameter costs a check per value, too much for a space of 100,000. */
      char msg[1536];
      bool first = !out->first_invalid[0];
      if (Config_check(k, c->values, p, lim, NULL, first ? msg : NULL, first ? sizeof msg : 0)) {
         out->count++;
      } else {
         out->invalid++;
         if (first)
            snprintf(out->first_invalid, sizeof out->first_invalid, "%s", msg);
      }
   }
   memset(&out->cands[out->count], 0, sizeof *out->cands * (size_t)(cap - out->count));
   return true;
}

void Sweep_shuffle(SweepSpace *s, const KernelInfo *k, const long long *base, Rng *rng) {
   SweepCandidate *all = s->cands;
   for (int i = s->count - 1; i > 0; i--) {
      int j = (int)Rng_below(rng, (uint64_t)i + 1);
      SweepCandidate t = all[i];
      all[i] = all[j];
      all[j] = t;
   }
   /* The starting configuration always runs, first. */
   for (int i = 0; i < s->count; i++)
      if (!memcmp(all[i].values, base, sizeof(long long) * (size_t)k->nparams)) {
         SweepCandidate t = all[0];
         all[0] = all[i];
         all[i] = t;
         break;
      }
}

double Sweep_timeout(double asked, const DeviceInfo *d) {
   return asked > 0 ? asked : d && d->type == DEVICE_CPU ? 30 : 5;
}

void Sweep_classify(SweepCandidate *c, RunStatus st, const RunResult *r, double timeout_s, const char *own_file) {
   c->compile_ms = r->compile_ms;
   c->registers = r->registers;
   c->local_mem = r->local_mem;
   c->sm_mhz = Observation_smMhz(&r->obs);
   if (st == RUN_OK && r->median_ms > timeout_s * 1000) {
      c->outcome = SWEEP_TIMEOUT;
      snprintf(c->reason, sizeof c->reason, "one launch takes %.1f s, over --timeout %.1f s", r->median_ms / 1000,
               timeout_s);
   } else if (st == RUN_TIMEOUT) {
      c->outcome = SWEEP_TIMEOUT;
      snprintf(c->reason, sizeof c->reason, "a launch did not end within --timeout %.3g s: abandoned", timeout_s);
   } else if (st == RUN_OK) {
      c->outcome = SWEEP_OK;
      c->gflops = r->gflops;
      c->median_ms = r->median_ms;
      c->max_rel_err = r->verify.max_rel_err;
   } else {
      c->outcome = st == RUN_NOT_VERIFIED    ? SWEEP_WRONG
                   : st == RUN_COMPILE_ERROR ? SWEEP_COMPILE
                   : st == RUN_INVALID       ? SWEEP_INVALID
                                             : SWEEP_FAILED;
      /* A compile failure's reason carries the first error of the build log, which is what
       * a user needs to see (the message alone only says that the log follows). */
      const char *log = st == RUN_COMPILE_ERROR && r->build_log ? r->build_log : NULL;
      int len = 0;
      const char *line = log ? Sweep_firstError(log, own_file, &len) : NULL;
      if (line)
         snprintf(c->reason, sizeof c->reason, "does not compile: %.*s", len, line);
      else if (log && own_file && Sweep_firstError(log, NULL, &len))
         snprintf(c->reason, sizeof c->reason,
                  "does not compile: the compiler's errors name no line of %s (a class server quotes only those)",
                  own_file);
      else
         snprintf(c->reason, sizeof c->reason, "%s", r->message);
   }
}

/* Whether line (up to its newline) is about file: its location, after an "error: " or
 * "fatal error: " that PoCL puts first, is file followed by ":LINE" or "(LINE)". */
static bool locatedIn(const char *line, const char *file) {
   while (*line == ' ' || *line == '\t')
      line++;
   static const char *const prefixes[] = {"fatal error: ", "error: "};
   for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
      if (!strncmp(line, prefixes[i], strlen(prefixes[i]))) {
         line += strlen(prefixes[i]);
         break;
      }
   size_t n = strlen(file);
   return !strncmp(line, file, n) && (line[n] == ':' || line[n] == '(') && line[n + 1] >= '0' && line[n + 1] <= '9';
}

const char *Sweep_firstError(const char *log, const char *file, int *len) {
   for (const char *at = log; (at = strstr(at, "error:"));) {
      const char *line = at;
      while (line > log && line[-1] != '\n')
         line--;
      int n = (int)strcspn(line, "\n");
      if (!file || locatedIn(line, file)) {
         *len = n;
         return line;
      }
      at = line + n;
   }
   return NULL;
}

void SweepSpace_free(SweepSpace *s) {
   free(s->cands);
   memset(s, 0, sizeof *s);
}

RunStatus SweepOutcome_runStatus(SweepOutcome o) {
   switch (o) {
   case SWEEP_OK: return RUN_OK;
   case SWEEP_WRONG: return RUN_NOT_VERIFIED;
   case SWEEP_INVALID: return RUN_INVALID;
   case SWEEP_COMPILE: return RUN_COMPILE_ERROR;
   case SWEEP_TIMEOUT: return RUN_TIMEOUT;
   case SWEEP_PENDING: return RUN_CANCELLED;
   default: return RUN_DEVICE_ERROR;
   }
}
