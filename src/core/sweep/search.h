/* Search strategies over a sweep's valid configurations, as ask/tell: Search_ask proposes
 * the next configuration to measure (an index into the SweepSpace's candidates), and
 * Search_tell gives its outcome. Many proposals may be outstanding at once (the MPI sweep
 * keeps one per rank), and outcomes may come back in any order. A configuration is never
 * proposed twice, and only the space's (valid) configurations are ever proposed. A failed,
 * wrong, invalid or timed-out configuration is a bad result, not an error.
 *
 * The strategies: exhaustive (the space's order), random, anneal (simulated annealing over
 * neighbours: configurations that differ in one parameter by one step of its values),
 * genetic (a steady-state population, crossover and mutation mapped back onto valid
 * configurations) and bayes (a Gaussian process over normalised log2 parameter values,
 * expected improvement over the unmeasured candidates). Every random choice comes from
 * the seed, so a search is reproducible. Budgets (a count, a time) are the caller's: it
 * simply stops asking. */
#ifndef GEMMTOP_SEARCH_H
#define GEMMTOP_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sweep/sweep.h"

typedef enum {
   SEARCH_EXHAUSTIVE = 0, /* every candidate, in the space's order */
   SEARCH_RANDOM,         /* the first candidate, then the others in random order */
   SEARCH_ANNEAL,
   SEARCH_GENETIC,
   SEARCH_BAYES,
   SEARCH_STRATEGIES
} SearchStrategy;

/* "exhaustive", "random", "anneal", "genetic", "bayes". */
const char *SearchStrategy_name(SearchStrategy s);
/* A one-line description for help and reports. */
const char *SearchStrategy_describe(SearchStrategy s);
/* The strategy named name; false when there is none. */
bool SearchStrategy_parse(const char *name, SearchStrategy *out);
/* "exhaustive, random, anneal, genetic or bayes", for messages. */
const char *SearchStrategy_list(void);

typedef struct Search_ Search;

/* A search of the count candidates of sp (nparams parameters each; only their values are
 * read, and copied: sp may change or go afterwards). Candidate 0 is proposed first (the
 * sweep puts the starting configuration there). NULL when out of memory. */
Search *Search_new(SearchStrategy strategy, const SweepSpace *sp, int nparams, uint64_t seed);
void Search_free(Search *s);

/* The next candidate to measure (an index into the space), or -1 when every candidate
 * has been proposed. */
int Search_ask(Search *s);
/* The outcome of candidate index, proposed before: gflops counts only when outcome is
 * SWEEP_OK. A second tell for the same candidate, or one never proposed, is ignored. */
void Search_tell(Search *s, int index, SweepOutcome outcome, double gflops);

/* Candidate index was measured before (a sweep resumed from the results store): the
 * search counts it as proposed and told, and never proposes it. Ignored when it was
 * proposed or known already. */
void Search_know(Search *s, int index, SweepOutcome outcome, double gflops);

/* Candidates proposed so far, and how many of them have an outcome. */
int Search_asked(const Search *s);
int Search_told(const Search *s);
/* The best verified candidate told so far (its index and GFLOPS), or -1. */
int Search_best(const Search *s, double *gflops);

/* A replay of a recorded space (its candidates' outcomes and GFLOPS as measured) with
 * one strategy: proposals are answered from the record instead of a device. */
typedef struct SearchReplay_ {
   double best;        /* the space's best verified GFLOPS */
   int evals95, evals99; /* evaluations until 95% and 99% of it were reached; -1: not within the budget */
   int evals;          /* evaluations made: at most the budget, and none after the best was found */
   double reached;     /* the best GFLOPS found within them */
} SearchReplay;

/* Replays sp (its outcome and gflops read as the measurements) with strategy from seed,
 * for at most budget evaluations (0: the whole space). False when out of memory, or when
 * no candidate of sp is verified (nothing to reach). */
bool Search_replay(SearchStrategy strategy, const SweepSpace *sp, int nparams, uint64_t seed, int budget,
                   SearchReplay *out);

#endif
