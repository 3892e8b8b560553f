/* Search strategies as ask/tell (search.h). Every strategy works on the same picture of
 * the space: each free parameter's distinct values among the valid configurations,
 * sorted, so that a configuration is a point of small whole coordinates, and a hash from
 * those points to the candidates, so that a neighbour or a child is known to be valid (or
 * not) at once. What a strategy cannot place (no unmeasured neighbour, a child that is
 * not valid) falls back on the nearest unmeasured candidate or a random one, so that
 * every strategy proposes every candidate in the end. */
#include "core/sweep/search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

enum { UNASKED = 0, PENDING, TOLD, DUPLICATE };

#define GP_MAX_OBS 128      /* observations the Gaussian process is fitted on */
#define GP_MAX_CANDS 4096   /* unmeasured candidates whose expected improvement is computed per ask */
#define GA_MAX_POP 24
#define GA_TRIES 24

struct Search_ {
   SearchStrategy strategy;
   int n, nfree;
   int nvals[KERNEL_MAX_PARAMS];   /* distinct values of each free parameter */
   unsigned short *coord;          /* n x nfree: the value's rank among its parameter's */
   float *feat;                    /* n x nfree: normalised log2 value, in [0, 1] */
   int *table;                     /* coordinates -> candidate, open addressing */
   size_t tmask;
   unsigned char *state;
   double *y;                      /* told GFLOPS, 0 for a failure */
   int asked, told, best, ndup;
   double best_y;
   Rng rng;
   int *order, next;               /* the fallback order: identity or a permutation */
   int cur;                        /* anneal: the current configuration */
   double cur_y;
   int pop[GA_MAX_POP], npop, popsize; /* genetic: the best told so far, best first */
   double ls;                      /* bayes: the length scale of the last fit */
   int ls_told;                    /* bayes: results told when it was chosen */
   double noise;                   /* bayes: the noise variance chosen with it */
   int ninit;                      /* bayes: random proposals before the model */
};

static const struct {
   const char *name, *description;
} strategies[SEARCH_STRATEGIES] = {
    [SEARCH_EXHAUSTIVE] = {"exhaustive", "every valid configuration, in the sweep's order"},
    [SEARCH_RANDOM] = {"random", "valid configurations in random order"},
    [SEARCH_ANNEAL] = {"anneal", "simulated annealing: steps of one parameter from the current configuration"},
    [SEARCH_GENETIC] = {"genetic", "a population of the best, crossover and mutation onto valid configurations"},
    [SEARCH_BAYES] = {"bayes", "a Gaussian process over log2 parameters; expected improvement"},
};

const char *SearchStrategy_name(SearchStrategy s) { return s >= 0 && s < SEARCH_STRATEGIES ? strategies[s].name : "?"; }

const char *SearchStrategy_describe(SearchStrategy s) {
   return s >= 0 && s < SEARCH_STRATEGIES ? strategies[s].description : "?";
}

bool SearchStrategy_parse(const char *name, SearchStrategy *out) {
   for (int i = 0; i < SEARCH_STRATEGIES; i++)
      if (!strcmp(name, strategies[i].name)) {
         *out = (SearchStrategy)i;
         return true;
      }
   return false;
}

const char *SearchStrategy_list(void) { return "exhaustive, random, anneal, genetic or bayes"; }

/* ---- the picture of the space ---- */

static int compareLL(const void *a, const void *b) {
   long long x = *(const long long *)a, y = *(const long long *)b;
   return (x > y) - (x < y);
}

static size_t hashCoord(const unsigned short *c, int nfree) {
   uint64_t h = 1469598103934665603ull;
   for (int f = 0; f < nfree; f++)
      h = (h ^ c[f]) * 1099511628211ull;
   return (size_t)(h ^ (h >> 29));
}

/* The candidate at coordinates c, or -1 when no valid configuration is there. */
static int lookup(const Search *s, const unsigned short *c) {
   for (size_t h = hashCoord(c, s->nfree) & s->tmask;; h = (h + 1) & s->tmask) {
      int i = s->table[h];
      if (i < 0)
         return -1;
      if (!memcmp(&s->coord[(size_t)i * s->nfree], c, sizeof *c * (size_t)s->nfree))
         return i;
   }
}

/* Ranks each free parameter's values; a parameter with one value is not free. */
static bool rankValues(Search *s, const SweepSpace *sp, int nparams) {
   long long *vals = malloc(sizeof *vals * (size_t)(s->n > 0 ? s->n : 1));
   int param[KERNEL_MAX_PARAMS];
   long long *distinct[KERNEL_MAX_PARAMS] = {0};
   bool ok = vals != NULL;
   for (int p = 0; ok && p < nparams; p++) {
      for (int i = 0; i < s->n; i++)
         vals[i] = sp->cands[i].values[p];
      qsort(vals, (size_t)s->n, sizeof *vals, compareLL);
      int d = 0;
      for (int i = 0; i < s->n; i++)
         if (i == 0 || vals[i] != vals[d - 1])
            vals[d++] = vals[i];
      if (d < 2 || d > 65535)
         continue; /* fixed (or absurd): not a direction to move in */
      int f = s->nfree++;
      param[f] = p;
      s->nvals[f] = d;
      ok = (distinct[f] = malloc(sizeof **distinct * (size_t)d)) != NULL;
      if (ok)
         memcpy(distinct[f], vals, sizeof *vals * (size_t)d);
   }
   size_t cells = (size_t)s->n * (size_t)(s->nfree > 0 ? s->nfree : 1);
   ok = ok && (s->coord = calloc(cells, sizeof *s->coord)) && (s->feat = calloc(cells, sizeof *s->feat));
   for (int f = 0; ok && f < s->nfree; f++) {
      const long long *dv = distinct[f];
      int d = s->nvals[f];
      /* log2 where every value is positive (tile sizes, powers of two), else linear. */
      bool logs = dv[0] > 0;
      double lo = logs ? log2((double)dv[0]) : (double)dv[0];
      double hi = logs ? log2((double)dv[d - 1]) : (double)dv[d - 1];
      for (int i = 0; i < s->n; i++) {
         long long v = sp->cands[i].values[param[f]];
         const long long *at = bsearch(&v, dv, (size_t)d, sizeof *dv, compareLL);
         s->coord[(size_t)i * s->nfree + f] = (unsigned short)(at - dv);
         double x = logs ? log2((double)v) : (double)v;
         s->feat[(size_t)i * s->nfree + f] = (float)((x - lo) / (hi - lo));
      }
   }
   for (int f = 0; f < KERNEL_MAX_PARAMS; f++)
      free(distinct[f]);
   free(vals);
   return ok;
}

/* The hash of coordinates; a configuration listed twice is proposed once. */
static bool buildTable(Search *s) {
   size_t size = 16;
   while (size < 2 * (size_t)s->n)
      size *= 2;
   s->table = malloc(sizeof *s->table * size);
   if (!s->table)
      return false;
   s->tmask = size - 1;
   for (size_t h = 0; h < size; h++)
      s->table[h] = -1;
   for (int i = 0; i < s->n; i++) {
      const unsigned short *c = &s->coord[(size_t)i * s->nfree];
      if (lookup(s, c) >= 0) {
         s->state[i] = DUPLICATE;
         s->ndup++;
         continue;
      }
      size_t h = hashCoord(c, s->nfree) & s->tmask;
      while (s->table[h] >= 0)
         h = (h + 1) & s->tmask;
      s->table[h] = i;
   }
   return true;
}

Search *Search_new(SearchStrategy strategy, const SweepSpace *sp, int nparams, uint64_t seed) {
   Search *s = calloc(1, sizeof *s);
   if (!s)
      return NULL;
   s->strategy = strategy;
   s->n = sp->count > 0 ? sp->count : 0;
   s->best = s->cur = -1;
   s->ls = 0.5;
   s->noise = 1e-3;
   Rng_seed(&s->rng, seed);
   size_t n1 = (size_t)(s->n > 0 ? s->n : 1);
   s->state = calloc(n1, 1);
   s->y = calloc(n1, sizeof *s->y);
   s->order = malloc(sizeof *s->order * n1);
   if (!s->state || !s->y || !s->order || !rankValues(s, sp, nparams) || !buildTable(s)) {
      Search_free(s);
      return NULL;
   }
   for (int i = 0; i < s->n; i++)
      s->order[i] = i;
   /* Candidate 0 (the starting configuration) first, then a permutation of the rest. */
   if (strategy != SEARCH_EXHAUSTIVE)
      for (int i = s->n - 1; i > 1; i--) {
         int j = 1 + (int)Rng_below(&s->rng, (uint64_t)i);
         int t = s->order[i];
         s->order[i] = s->order[j];
         s->order[j] = t;
      }
   s->popsize = s->n / 8 < 6 ? 6 : s->n / 8 > GA_MAX_POP ? GA_MAX_POP : s->n / 8;
   s->ninit = 2 * s->nfree < 6 ? 6 : 2 * s->nfree > 12 ? 12 : 2 * s->nfree;
   return s;
}

void Search_free(Search *s) {
   if (!s)
      return;
   free(s->coord);
   free(s->feat);
   free(s->table);
   free(s->state);
   free(s->y);
   free(s->order);
   free(s);
}

int Search_asked(const Search *s) { return s->asked; }
int Search_told(const Search *s) { return s->told; }

int Search_best(const Search *s, double *gflops) {
   if (gflops)
      *gflops = s->best >= 0 ? s->best_y : 0;
   return s->best;
}

/* ---- shared moves ---- */

/* The next unasked candidate of the fallback order, or -1. */
static int nextInOrder(Search *s) {
   while (s->next < s->n && s->state[s->order[s->next]] != UNASKED)
      s->next++;
   return s->next < s->n ? s->order[s->next] : -1;
}

/* A random unasked neighbour of i: one parameter moved one step (past values where no
 * valid configuration is) up or down. -1 when all are asked. */
static int randomNeighbour(Search *s, int i) {
   int found[2 * KERNEL_MAX_PARAMS], nfound = 0;
   unsigned short c[KERNEL_MAX_PARAMS];
   for (int f = 0; f < s->nfree; f++)
      for (int dir = -1; dir <= 1; dir += 2) {
         memcpy(c, &s->coord[(size_t)i * s->nfree], sizeof *c * (size_t)s->nfree);
         for (int v = c[f] + dir; v >= 0 && v < s->nvals[f]; v += dir) {
            c[f] = (unsigned short)v;
            int j = lookup(s, c);
            if (j < 0)
               continue;
            if (s->state[j] == UNASKED)
               found[nfound++] = j;
            break;
         }
      }
   return nfound ? found[Rng_below(&s->rng, (uint64_t)nfound)] : -1;
}

/* The unasked candidate nearest to coordinates c (in steps, every parameter's range
 * counting alike), ties broken at random; -1 when none is left. */
static int nearestUnasked(Search *s, const unsigned short *c) {
   int best = -1, ties = 0;
   double bestd = INFINITY;
   for (int i = 0; i < s->n; i++) {
      if (s->state[i] != UNASKED)
         continue;
      double d = 0;
      for (int f = 0; f < s->nfree; f++)
         d += fabs((double)s->coord[(size_t)i * s->nfree + f] - c[f]) / s->nvals[f];
      if (d < bestd - 1e-12) {
         bestd = d, best = i, ties = 1;
      } else if (d < bestd + 1e-12 && Rng_below(&s->rng, (uint64_t)++ties) == 0) {
         best = i;
      }
   }
   return best;
}

/* ---- simulated annealing ---- */

static int askAnneal(Search *s) {
   if (s->cur < 0)
      return nextInOrder(s);
   int j = randomNeighbour(s, s->cur);
   if (j < 0 && s->best >= 0)
      j = randomNeighbour(s, s->best);
   /* Stuck: the current one's neighbourhood is measured; start again from a random one. */
   return j >= 0 ? j : nextInOrder(s);
}

static void tellAnneal(Search *s, int i) {
   if (s->cur < 0 || s->y[i] >= s->cur_y) {
      if (s->cur >= 0 || s->y[i] > 0) {
         s->cur = i;
         s->cur_y = s->y[i];
      }
      return;
   }
   /* Worse: taken with the Boltzmann probability, at a temperature (a fraction of the best
    * so far) that cools with every result. */
   double t = 0.15 * pow(0.97, s->told) * (s->best_y > 0 ? s->best_y : 1);
   if (t > 0 && Rng_uniform(&s->rng) < exp((s->y[i] - s->cur_y) / t)) {
      s->cur = i;
      s->cur_y = s->y[i];
   }
}

/* ---- the genetic algorithm ---- */

static void tellGenetic(Search *s, int i) {
   int at = s->npop;
   while (at > 0 && s->y[s->pop[at - 1]] < s->y[i])
      at--;
   if (at >= s->popsize)
      return;
   int last = s->npop < s->popsize ? s->npop++ : s->popsize - 1;
   memmove(&s->pop[at + 1], &s->pop[at], sizeof *s->pop * (size_t)(last - at));
   s->pop[at] = i;
}

/* The better of three drawn from the population. */
static int tournament(Search *s) {
   int best = s->pop[Rng_below(&s->rng, (uint64_t)s->npop)];
   for (int t = 0; t < 2; t++) {
      int other = s->pop[Rng_below(&s->rng, (uint64_t)s->npop)];
      if (s->y[other] > s->y[best])
         best = other;
   }
   return best;
}

static int askGenetic(Search *s) {
   if (s->asked < s->popsize || s->npop < 2)
      return nextInOrder(s);
   unsigned short child[KERNEL_MAX_PARAMS];
   for (int t = 0; t < GA_TRIES; t++) {
      const unsigned short *a = &s->coord[(size_t)tournament(s) * s->nfree];
      const unsigned short *b = &s->coord[(size_t)tournament(s) * s->nfree];
      for (int f = 0; f < s->nfree; f++) {
         child[f] = Rng_below(&s->rng, 2) ? a[f] : b[f];
         if (Rng_uniform(&s->rng) < 1.0 / s->nfree) {
            /* Mutation: mostly one step, sometimes anywhere in the parameter's range. */
            int v = Rng_below(&s->rng, 4) == 0 ? (int)Rng_below(&s->rng, (uint64_t)s->nvals[f])
                                               : child[f] + (Rng_below(&s->rng, 2) ? 1 : -1);
            child[f] = (unsigned short)(v < 0 ? 0 : v >= s->nvals[f] ? s->nvals[f] - 1 : v);
         }
      }
      int j = lookup(s, child);
      if (j >= 0 && s->state[j] == UNASKED)
         return j;
   }
   /* The children were invalid or measured: the nearest unmeasured configuration. */
   int j = nearestUnasked(s, child);
   return j >= 0 ? j : nextInOrder(s);
}

/* ---- Bayesian optimisation: a Gaussian process, expected improvement ---- */

typedef struct Gp_ {
   int m, d;
   const float *x[GP_MAX_OBS];
   double y[GP_MAX_OBS];
   double L[GP_MAX_OBS * GP_MAX_OBS], alpha[GP_MAX_OBS];
   double ls, noise, mean, scale;
} Gp;

static double rbf(const float *a, const float *b, int d, double ls) {
   double d2 = 0;
   for (int f = 0; f < d; f++) {
      double t = (double)a[f] - b[f];
      d2 += t * t;
   }
   return exp(-d2 / (2 * ls * ls));
}

/* Factors K + noise I as L L^T and solves for alpha; the log marginal likelihood, or
 * -INFINITY when K is not positive definite. */
static double gpFit(Gp *g) {
   int m = g->m;
   for (int i = 0; i < m; i++)
      for (int j = 0; j <= i; j++) {
         double v = rbf(g->x[i], g->x[j], g->d, g->ls) + (i == j ? g->noise : 0);
         for (int k = 0; k < j; k++)
            v -= g->L[i * m + k] * g->L[j * m + k];
         if (i == j) {
            if (v <= 0)
               return -INFINITY;
            g->L[i * m + i] = sqrt(v);
         } else {
            g->L[i * m + j] = v / g->L[j * m + j];
         }
      }
   double logdet = 0, fit = 0, z[GP_MAX_OBS];
   for (int i = 0; i < m; i++) {
      double v = g->y[i];
      for (int k = 0; k < i; k++)
         v -= g->L[i * m + k] * z[k];
      z[i] = v / g->L[i * m + i];
      logdet += log(g->L[i * m + i]);
      fit += z[i] * z[i];
   }
   for (int i = m - 1; i >= 0; i--) {
      double v = z[i];
      for (int k = i + 1; k < m; k++)
         v -= g->L[k * m + i] * g->alpha[k];
      g->alpha[i] = v / g->L[i * m + i];
   }
   return -0.5 * fit - logdet;
}

/* The posterior mean and standard deviation at x. */
static void gpPredict(const Gp *g, const float *x, double *mu, double *sd) {
   int m = g->m;
   double kx[GP_MAX_OBS], v[GP_MAX_OBS], mean = 0, var = 1;
   for (int i = 0; i < m; i++) {
      kx[i] = rbf(x, g->x[i], g->d, g->ls);
      mean += kx[i] * g->alpha[i];
   }
   for (int i = 0; i < m; i++) {
      double t = kx[i];
      for (int k = 0; k < i; k++)
         t -= g->L[i * m + k] * v[k];
      v[i] = t / g->L[i * m + i];
      var -= v[i] * v[i];
   }
   *mu = mean;
   *sd = var > 1e-12 ? sqrt(var) : 1e-6;
}

typedef struct Ranked_ {
   double y;
   int i;
} Ranked;

static int compareRanked(const void *a, const void *b) {
   double x = ((const Ranked *)a)->y, y = ((const Ranked *)b)->y;
   return (x < y) - (x > y);
}

/* The observations: every pending proposal (its value the mean of the results, a
 * "constant liar", so that outstanding proposals spread out), then the best told ones
 * and a random share of the rest, up to GP_MAX_OBS. */
static bool gpObservations(Search *s, Gp *g) {
   Ranked *told = malloc(sizeof *told * (size_t)(s->told > 0 ? s->told : 1));
   int nt = 0, npend = 0;
   if (!told)
      return false;
   double sum = 0;
   for (int i = 0; i < s->n; i++)
      if (s->state[i] == TOLD) {
         told[nt++] = (Ranked){s->y[i], i};
         sum += s->y[i];
      }
   double lie = nt ? sum / nt : 0;
   g->m = 0;
   g->d = s->nfree;
   for (int i = 0; i < s->n && npend < GP_MAX_OBS / 4; i++)
      if (s->state[i] == PENDING) {
         g->x[g->m] = &s->feat[(size_t)i * s->nfree];
         g->y[g->m++] = lie;
         npend++;
      }
   int room = GP_MAX_OBS - g->m;
   if (nt > room) {
      qsort(told, (size_t)nt, sizeof *told, compareRanked);
      int top = room / 2;
      /* The rest of the room: a random draw from the others (a partial shuffle). */
      for (int i = top; i < room; i++) {
         int j = i + (int)Rng_below(&s->rng, (uint64_t)(nt - i));
         Ranked t = told[i];
         told[i] = told[j];
         told[j] = t;
      }
      nt = room;
   }
   for (int i = 0; i < nt; i++) {
      g->x[g->m] = &s->feat[(size_t)told[i].i * s->nfree];
      g->y[g->m++] = told[i].y;
   }
   free(told);
   /* Standardised, so that the prior (mean 0, variance 1) fits any scale of GFLOPS. */
   double mean = 0, var = 0;
   for (int i = 0; i < g->m; i++)
      mean += g->y[i] / g->m;
   for (int i = 0; i < g->m; i++)
      var += (g->y[i] - mean) * (g->y[i] - mean) / g->m;
   g->mean = mean;
   g->scale = var > 0 ? sqrt(var) : 1;
   for (int i = 0; i < g->m; i++)
      g->y[i] = (g->y[i] - mean) / g->scale;
   return true;
}

/* The length scale and noise with the highest marginal likelihood among a few (chosen
 * again every few results: the choice settles quickly, and each costs a fit per pair),
 * then the fit. The noise matters: measured spaces can be rugged, and a model that must
 * pass through every point explores where it need not. */
static bool gpChooseScale(Search *s, Gp *g) {
   static const double scales[] = {0.08, 0.15, 0.3, 0.6, 1.2}, noises[] = {1e-3, 0.05, 0.3};
   double bestll = -INFINITY, best = s->ls, bestNoise = s->noise;
   bool again = s->told < 32 || s->told - s->ls_told >= 8;
   for (size_t i = 0; again && i < sizeof scales / sizeof scales[0]; i++)
      for (size_t j = 0; j < sizeof noises / sizeof noises[0]; j++) {
         g->ls = scales[i] * sqrt((double)(g->d > 0 ? g->d : 1));
         g->noise = noises[j];
         double ll = gpFit(g);
         if (ll > bestll)
            bestll = ll, best = g->ls, bestNoise = g->noise;
      }
   if (again)
      s->ls_told = s->told;
   g->ls = s->ls = best;
   g->noise = s->noise = bestNoise;
   return isfinite(gpFit(g));
}

static double expectedImprovement(double mu, double sd, double best) {
   double z = (mu - best) / sd;
   return (mu - best) * 0.5 * erfc(-z / sqrt(2)) + sd * exp(-0.5 * z * z) / sqrt(2 * M_PI);
}

static int askBayes(Search *s) {
   if (s->asked < s->ninit || s->told < 2 || s->nfree == 0)
      return nextInOrder(s);
   Gp *g = malloc(sizeof *g);
   if (!g || !gpObservations(s, g) || !gpChooseScale(s, g)) {
      free(g);
      return nextInOrder(s);
   }
   double best = (s->best_y - g->mean) / g->scale, top = -INFINITY;
   int pick = -1, unasked = s->n - s->ndup - s->asked;
   /* A large space: the expected improvement of a random share of it, every unmeasured
    * one of them with the same chance (a stride through the fallback permutation). */
   int stride = unasked > GP_MAX_CANDS ? unasked / GP_MAX_CANDS : 1;
   int start = stride > 1 ? (int)Rng_below(&s->rng, (uint64_t)stride) : 0;
   for (int o = s->next, k = 0; o < s->n; o++) {
      int i = s->order[o];
      if (s->state[i] != UNASKED || k++ % stride != (start % stride))
         continue;
      double mu, sd;
      gpPredict(g, &s->feat[(size_t)i * s->nfree], &mu, &sd);
      double ei = expectedImprovement(mu, sd, best);
      if (ei > top)
         top = ei, pick = i;
   }
   free(g);
   return pick >= 0 ? pick : nextInOrder(s);
}

/* ---- ask and tell ---- */

int Search_ask(Search *s) {
   if (s->asked >= s->n - s->ndup)
      return -1;
   int i;
   if (s->asked == 0 && s->n > 0 && s->state[0] == UNASKED)
      i = 0;
   else if (s->strategy == SEARCH_ANNEAL)
      i = askAnneal(s);
   else if (s->strategy == SEARCH_GENETIC)
      i = askGenetic(s);
   else if (s->strategy == SEARCH_BAYES)
      i = askBayes(s);
   else
      i = nextInOrder(s);
   if (i < 0)
      return -1;
   s->state[i] = PENDING;
   s->asked++;
   return i;
}

void Search_know(Search *s, int index, SweepOutcome outcome, double gflops) {
   if (index < 0 || index >= s->n || s->state[index] != UNASKED)
      return;
   s->state[index] = PENDING;
   s->asked++;
   Search_tell(s, index, outcome, gflops);
}

void Search_tell(Search *s, int index, SweepOutcome outcome, double gflops) {
   if (index < 0 || index >= s->n || s->state[index] != PENDING)
      return;
   s->state[index] = TOLD;
   s->told++;
   s->y[index] = outcome == SWEEP_OK && isfinite(gflops) && gflops > 0 ? gflops : 0;
   if (s->y[index] > 0 && (s->best < 0 || s->y[index] > s->best_y)) {
      s->best = index;
      s->best_y = s->y[index];
   }
   if (s->strategy == SEARCH_ANNEAL)
      tellAnneal(s, index);
   else if (s->strategy == SEARCH_GENETIC)
      tellGenetic(s, index);
}

bool Search_replay(SearchStrategy strategy, const SweepSpace *sp, int nparams, uint64_t seed, int budget,
                   SearchReplay *out) {
   memset(out, 0, sizeof *out);
   out->evals95 = out->evals99 = -1;
   for (int i = 0; i < sp->count; i++)
      if (sp->cands[i].outcome == SWEEP_OK && sp->cands[i].gflops > out->best)
         out->best = sp->cands[i].gflops;
   if (out->best <= 0)
      return false;
   Search *s = Search_new(strategy, sp, nparams, seed);
   if (!s)
      return false;
   for (int i; (budget <= 0 || out->evals < budget) && (i = Search_ask(s)) >= 0;) {
      const SweepCandidate *c = &sp->cands[i];
      Search_tell(s, i, c->outcome, c->gflops);
      out->evals++;
      if (c->outcome == SWEEP_OK && c->gflops > out->reached)
         out->reached = c->gflops;
      if (out->evals95 < 0 && out->reached >= 0.95 * out->best)
         out->evals95 = out->evals;
      if (out->evals99 < 0 && out->reached >= 0.99 * out->best)
         out->evals99 = out->evals;
      if (out->reached >= out->best)
         break; /* nothing better to find */
   }
   Search_free(s);
   return true;
}
