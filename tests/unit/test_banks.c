/* Bank-conflict analysis on traces built by hand, with the figures Nsight Compute gives
 * on NVIDIA (one warp of floats: stride 2 words -> 2 wavefronts, 1 conflict; stride 32 ->
 * 32, 31; stride 33 or one address -> 1, 0) and their vector and AMD counterparts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/analyse/banks.h"

#define BASE 0x10000u /* a bank-aligned local address, as a device might give */

typedef struct Builder_ {
   Trace t;
   size_t cap;
} Builder;

static void begin(Builder *b, int groups, size_t wg_size) {
   memset(b, 0, sizeof *b);
   b->cap = 16;
   b->t.records = malloc(b->cap * sizeof *b->t.records);
   assert_non_null(b->t.records);
   b->t.groups = groups;
   b->t.wg_size = wg_size;
   b->t.local[0] = wg_size;
   b->t.local[1] = b->t.local[2] = 1;
   b->t.dims = 1;
}

static void add(Builder *b, unsigned site, bool store, unsigned width, unsigned group, unsigned item, unsigned seq,
                unsigned address) {
   if (b->t.count == b->cap) {
      b->cap *= 2;
      b->t.records = realloc(b->t.records, b->cap * sizeof *b->t.records);
      assert_non_null(b->t.records);
   }
   b->t.records[b->t.count++] = (TraceRecord){site, store, width, group, item, seq, address, false, false};
}

/* One access per lane of items [first, first+lanes): lane i at word index i*stride_words,
 * width bytes, from BASE (+ offset bytes). */
static void addStrided(Builder *b, unsigned site, bool store, unsigned width, unsigned seq, unsigned first,
                       unsigned lanes, unsigned stride_words, unsigned offset) {
   for (unsigned i = 0; i < lanes; i++)
      add(b, site, store, width, 0, first + i, seq, BASE + offset + 4 * (i * stride_words));
}

static BankAnalysis analyse(Builder *b, const BankModel *m) {
   BankAnalysis a;
   char err[256];
   assert_true(BankAnalysis_run(&a, &b->t, m, err, sizeof err));
   Trace_free(&b->t);
   return a;
}

/* One request of one warp at site 0: its wavefronts and ideal. */
static void expectOne(const BankModel *m, unsigned lanes, unsigned width, unsigned stride_words, int wavefronts,
                      int ideal) {
   Builder b;
   begin(&b, 1, lanes);
   addStrided(&b, 0, false, width, 0, 0, lanes, stride_words, 0);
   BankAnalysis a = analyse(&b, m);
   assert_int_equal(a.total.requests, (lanes + (unsigned)m->simd_width - 1) / (unsigned)m->simd_width);
   assert_int_equal(a.total.wavefronts, wavefronts);
   assert_int_equal(a.total.ideal, ideal);
   assert_int_equal(a.total.conflicts, wavefronts - ideal);
   BankAnalysis_free(&a);
}

static void test_nvidia_floats(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   expectOne(&m, 32, 4, 1, 1, 1);   /* stride 1: conflict-free */
   expectOne(&m, 32, 4, 2, 2, 1);   /* Nsight: 2 wavefronts, 1 conflict */
   expectOne(&m, 32, 4, 4, 4, 1);
   expectOne(&m, 32, 4, 8, 8, 1);
   expectOne(&m, 32, 4, 16, 16, 1);
   expectOne(&m, 32, 4, 32, 32, 1); /* Nsight: 32, 31 */
   expectOne(&m, 32, 4, 33, 1, 1);  /* Nsight: 1, 0 */
   expectOne(&m, 32, 4, 0, 1, 1);   /* one address: broadcast, Nsight: 1, 0 */
}

static void test_nvidia_vectors(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   /* 8 bytes: two half-warp phases; stride in words = 2 x the vector stride. */
   expectOne(&m, 32, 8, 2, 2, 2);   /* float2 stride 1 */
   expectOne(&m, 32, 8, 4, 4, 2);   /* float2 stride 2: lanes l and l+8 share banks */
   expectOne(&m, 32, 8, 0, 1, 1);   /* float2 broadcast: lanes agree in pairs, one phase (H100) */
   /* 16 bytes: four quarter-warp phases. */
   expectOne(&m, 32, 16, 4, 4, 4);  /* float4 stride 1 */
   expectOne(&m, 32, 16, 8, 8, 4);  /* float4 stride 2: lanes l and l+4 share banks */
   expectOne(&m, 32, 16, 128, 32, 4); /* float4 stride 32 vectors: 8 lanes x 4 banks per phase */
   /* A misaligned float2 (word 2l+1) still touches 32 distinct banks per half-warp. */
   Builder b;
   begin(&b, 1, 32);
   addStrided(&b, 0, false, 8, 0, 0, 32, 2, 4);
   BankAnalysis a = analyse(&b, &m);
   assert_int_equal(a.total.wavefronts, 2);
   assert_int_equal(a.total.conflicts, 0);
   BankAnalysis_free(&a);
}

/* The probe patterns measured with Nsight Compute on an H100 (sm_90, one warp, LDS.64 /
 * LDS.128 and STS.64 / STS.128): lane l reads or writes the vector at word wordOf(p, l). */
static unsigned probeWord(int p, unsigned l) {
   switch (p) {
   case 0: return 2 * l;                          /* float2 stride 1 */
   case 1: return 0;                              /* float2 broadcast */
   case 2: return 2 * (l % 16);                   /* halves duplicate */
   case 3: return 2 * (l / 2);                    /* pairs n, n^1 */
   case 4: return 2 * ((l % 2) + 2 * (l / 4));    /* pairs n, n^2 */
   case 5: return 4 * l;                          /* float2 stride 2 */
   case 6: return 2 * (l % 8);                    /* quarters duplicate */
   case 7: return 2 * ((l * 17) % 32);            /* stride 1, permuted */
   case 8: return 64 * (l % 2);                   /* two words of bank 0, alternating */
   case 9: return 2 * (l / 16);                   /* one address per half-warp */
   case 10: return 4 * l;                         /* float4 stride 1 */
   case 11: return 0;                             /* float4 broadcast */
   case 12: return 4 * (l % 8);                   /* quarters duplicate */
   case 13: return 4 * (l / 4);                   /* groups of four */
   case 14: return 4 * (l / 2);                   /* pairs n, n^1 */
   case 15: return 4 * (l % 16);                  /* halves duplicate */
   case 16: return 4 * (l / 8);                   /* one address per quarter-warp */
   case 17: return 4 * ((l % 2) + 2 * (l / 4));   /* pairs n, n^2 */
   case 18: return 128 * (l % 2);                 /* two words of banks 0-3, alternating */
   default: return 4 * ((l % 4) * 8 + l / 4);     /* float4, transposed order */
   }
}

static void test_nvidia_measured(void **state) {
   (void)state;
   /* Wavefronts and bank conflicts per pattern, as Nsight Compute counted them. */
   static const int loadWf[20] = {2, 1, 2, 1, 1, 4, 2, 2, 2, 1, 4, 2, 4, 2, 2, 4, 2, 2, 4, 16};
   static const int loadConf[20] = {0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 12};
   static const int storeWf[20] = {2, 2, 2, 2, 2, 4, 2, 2, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4, 8, 16};
   static const int storeConf[20] = {0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 12};
   BankModel m = BankModel_nvidia();
   for (int store = 0; store < 2; store++)
      for (int p = 0; p < 20; p++) {
         Builder b;
         begin(&b, 1, 32);
         for (unsigned l = 0; l < 32; l++)
            add(&b, 0, store, p < 10 ? 8 : 16, 0, l, 0, BASE + 4 * probeWord(p, l));
         BankAnalysis a = analyse(&b, &m);
         int wf = (int)a.total.wavefronts, conf = (int)a.total.conflicts;
         int wantWf = store ? storeWf[p] : loadWf[p], wantConf = store ? storeConf[p] : loadConf[p];
         if (wf != wantWf || conf != wantConf)
            fail_msg("%s pattern %d: %d wavefronts, %d conflicts; Nsight Compute: %d, %d", store ? "store" : "load", p,
                     wf, conf, wantWf, wantConf);
         BankAnalysis_free(&a);
      }
   /* Only NVIDIA pairs lanes: the same float4 broadcast is 4 passes under the default model. */
   BankModel d = BankModel_default(32);
   assert_false(d.pair_merge);
   expectOne(&d, 32, 16, 0, 4, 4);
   expectOne(&m, 32, 16, 0, 2, 2);
   /* The grid says so. */
   Builder b;
   begin(&b, 1, 32);
   for (unsigned l = 0; l < 32; l++)
      add(&b, 0, false, 16, 0, l, 0, BASE + 4 * probeWord(18, l));
   BankAnalysis a = analyse(&b, &m);
   BankGrid g;
   assert_true(BankAnalysis_grid(&a, &a.requests[0], &g));
   assert_true(g.paired);
   assert_int_equal(g.phases, 2);
   assert_int_equal(g.lanes_per_phase, 16);
   assert_int_equal(g.phase_wavefronts[0], 2);
   assert_int_equal(g.pass[1][0], 1);
   assert_int_equal(g.pass[2][0], 0);
   assert_true(g.shared[2][0]);
   BankAnalysis_free(&a);
}

static void test_phase_lanes(void **state) {
   (void)state;
   BankModel n = BankModel_nvidia(), amd = BankModel_amd(64);
   assert_int_equal(BankModel_phaseLanes(&n, 1), 32);
   assert_int_equal(BankModel_phaseLanes(&n, 2), 32);
   assert_int_equal(BankModel_phaseLanes(&n, 4), 32);
   assert_int_equal(BankModel_phaseLanes(&n, 8), 16);
   assert_int_equal(BankModel_phaseLanes(&n, 16), 8);
   assert_int_equal(BankModel_phaseLanes(&n, 32), 4);
   assert_int_equal(BankModel_phaseLanes(&amd, 4), 32);
   assert_int_equal(BankModel_phaseLanes(&amd, 8), 16);
   assert_int_equal(BankModel_phaseLanes(&amd, 16), 8);
   BankModel narrow = BankModel_nvidia();
   narrow.simd_width = 8;
   assert_int_equal(BankModel_phaseLanes(&narrow, 4), 8);
}

/* A 32x32 float tile stored by rows and read by columns, rows padded by pad words:
 * lane l reads tile[l][c] at word l*(32+pad)+c. */
static void transposedTile(unsigned pad, int wantLoadWavefronts) {
   BankModel m = BankModel_nvidia();
   Builder b;
   begin(&b, 1, 32);
   const unsigned row = 32 + pad;
   for (unsigned r = 0; r < 32; r++)
      for (unsigned lane = 0; lane < 32; lane++)
         add(&b, 0, true, 4, 0, lane, r, BASE + 4 * (r * row + lane)); /* store row r: stride 1 */
   for (unsigned c = 0; c < 32; c++)
      for (unsigned lane = 0; lane < 32; lane++)
         add(&b, 1, false, 4, 0, lane, c, BASE + 4 * (lane * row + c)); /* load column c */
   BankAnalysis a = analyse(&b, &m);
   assert_int_equal(a.nsites, 2);
   assert_int_equal(a.sites[0].requests, 32);
   assert_int_equal(a.sites[0].store_requests, 32);
   assert_int_equal(a.sites[0].wavefronts, 32);
   assert_int_equal(a.sites[0].conflicts, 0);
   assert_int_equal(a.sites[1].requests, 32);
   assert_int_equal(a.sites[1].load_requests, 32);
   assert_int_equal(a.sites[1].wavefronts, 32 * wantLoadWavefronts);
   assert_int_equal(a.sites[1].ideal, 32);
   assert_int_equal(a.sites[1].conflicts, 32 * (wantLoadWavefronts - 1));
   assert_true(a.sites[1].worst_degree == wantLoadWavefronts);
   assert_true(a.sites[1].avg_degree == wantLoadWavefronts);
   assert_int_equal(a.sites[1].conflicted, wantLoadWavefronts > 1 ? 32 : 0);
   assert_int_equal(a.total.requests, 64);
   assert_int_equal(a.total.accesses, 2048);
   BankAnalysis_free(&a);
}

static void test_transposed_tile(void **state) {
   (void)state;
   transposedTile(0, 32); /* every column in one bank */
   transposedTile(1, 1);  /* padding by one word removes the conflicts */
   transposedTile(2, 2);  /* by two: banks 2l, two-way */
}

static void test_two_warps_and_seqs(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   Builder b;
   begin(&b, 1, 64);
   /* Site 0, four executions by both warps: stride 1, 2, 32, broadcast. */
   const unsigned strides[] = {1, 2, 32, 0};
   for (unsigned seq = 0; seq < 4; seq++)
      addStrided(&b, 0, false, 4, seq, 0, 64, strides[seq], 0);
   BankAnalysis a = analyse(&b, &m);
   assert_int_equal(a.warps, 2);
   assert_int_equal(a.nrequests, 8);
   /* Stride 2 over 64 items: each warp alone is 2 wavefronts. */
   assert_int_equal(a.sites[0].requests, 8);
   assert_int_equal(a.sites[0].wavefronts, 2 * (1 + 2 + 32 + 1));
   assert_int_equal(a.sites[0].ideal, 8);
   assert_int_equal(a.sites[0].conflicts, 2 * (1 + 31));
   assert_true(a.sites[0].worst_degree == 32);
   assert_true(a.sites[0].avg_degree == 72.0 / 8);
   assert_int_equal(BankAnalysis_executions(&a, 0, 0, 0), 4);
   assert_int_equal(BankAnalysis_executions(&a, 0, 0, 1), 4);
   assert_int_equal(BankAnalysis_executions(&a, 0, 0, 2), 0);
   assert_int_equal(BankAnalysis_executions(&a, 1, 0, 0), 0);
   const BankRequest *r = BankAnalysis_request(&a, 0, 0, 1, 2);
   assert_non_null(r);
   assert_int_equal(r->warp, 1);
   assert_int_equal(r->seq, 2);
   assert_int_equal(r->lanes, 32);
   assert_int_equal(r->wavefronts, 32);
   assert_null(BankAnalysis_request(&a, 0, 0, 1, 4));
   assert_null(BankAnalysis_request(&a, 0, 0, 1, -1));
   assert_true(BankAnalysis_hasSite(&a, 0));
   assert_false(BankAnalysis_hasSite(&a, 1));
   BankAnalysis_free(&a);
}

static void test_partial_warp(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   Builder b;
   begin(&b, 1, 48);
   addStrided(&b, 3, true, 4, 0, 0, 48, 32, 0); /* warp 1 has 16 lanes */
   BankAnalysis a = analyse(&b, &m);
   assert_int_equal(a.warps, 2);
   assert_int_equal(a.nsites, 4);
   assert_int_equal(a.sites[3].requests, 2);
   assert_int_equal(a.sites[3].wavefronts, 32 + 16);
   assert_int_equal(a.sites[3].conflicts, 31 + 15);
   BankAnalysis_free(&a);
}

static void test_grid(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   Builder b;
   begin(&b, 1, 32);
   addStrided(&b, 0, false, 4, 0, 0, 32, 2, 0);
   addStrided(&b, 1, false, 4, 0, 0, 32, 0, 64);
   addStrided(&b, 2, false, 16, 0, 0, 32, 8, 0);
   BankAnalysis a = analyse(&b, &m);
   BankGrid g;
   /* Stride 2: lanes 0-15 take pass 0 in the even banks, lanes 16-31 pass 1. */
   assert_true(BankAnalysis_grid(&a, BankAnalysis_request(&a, 0, 0, 0, 0), &g));
   assert_int_equal(g.lanes, 32);
   assert_int_equal(g.banks, 32);
   assert_int_equal(g.phases, 1);
   assert_int_equal(g.wavefronts, 2);
   assert_int_equal(g.ideal, 1);
   assert_int_equal(g.max_pass, 1);
   assert_int_equal(g.pass[0][0], 0);
   assert_int_equal(g.pass[1][2], 0);
   assert_int_equal(g.pass[16][0], 1);
   assert_int_equal(g.pass[31][30], 1);
   assert_int_equal(g.pass[0][1], -1);
   assert_int_equal(g.address[16], 128);
   assert_true(g.active[31]);
   assert_false(g.shared[16][0]);
   int touched = 0;
   for (int l = 0; l < 32; l++)
      for (int k = 0; k < 32; k++)
         touched += g.pass[l][k] >= 0;
   assert_int_equal(touched, 32);
   /* Broadcast at byte 64: bank 16, pass 0 for all, shared after lane 0. */
   assert_true(BankAnalysis_grid(&a, BankAnalysis_request(&a, 1, 0, 0, 0), &g));
   assert_int_equal(g.wavefronts, 1);
   assert_int_equal(g.pass[0][16], 0);
   assert_int_equal(g.pass[31][16], 0);
   assert_false(g.shared[0][16]);
   assert_true(g.shared[31][16]);
   assert_int_equal(g.address[5], 64);
   /* float4 stride 2: quarter-warp phases, lanes l and l+4 in the same four banks. */
   assert_true(BankAnalysis_grid(&a, BankAnalysis_request(&a, 2, 0, 0, 0), &g));
   assert_int_equal(g.phases, 4);
   assert_int_equal(g.lanes_per_phase, 8);
   assert_int_equal(g.wavefronts, 8);
   assert_int_equal(g.ideal, 4);
   for (int p = 0; p < 4; p++)
      assert_int_equal(g.phase_wavefronts[p], 2);
   assert_int_equal(g.pass[0][0], 0);
   assert_int_equal(g.pass[0][3], 0);
   assert_int_equal(g.pass[4][0], 1);
   assert_int_equal(g.pass[8][0], 0); /* next phase starts afresh */
   assert_int_equal(g.pass[12][3], 1);
   assert_false(BankAnalysis_grid(&a, NULL, &g));
   BankAnalysis_free(&a);
   assert_int_equal(BankGrid_glyph(-1), '.');
   assert_int_equal(BankGrid_glyph(0), '1');
   assert_int_equal(BankGrid_glyph(8), '9');
   assert_int_equal(BankGrid_glyph(9), 'a');
   assert_int_equal(BankGrid_glyph(34), 'z');
   assert_int_equal(BankGrid_glyph(35), 'A');
   assert_int_equal(BankGrid_glyph(60), 'Z');
   assert_int_equal(BankGrid_glyph(61), '#');
}

static void test_normalisation_and_groups(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   Builder b;
   begin(&b, 2, 32);
   /* Group 0 starts 64 bytes into a bank row; group 1 elsewhere. Stride 1 in both. */
   for (unsigned l = 0; l < 32; l++) {
      add(&b, 0, false, 4, 0, l, 0, 0x1040 + 4 * l);
      add(&b, 0, false, 4, 1, l, 0, 0x9000 + 4 * l);
   }
   BankAnalysis a = analyse(&b, &m);
   assert_int_equal(a.groups, 2);
   assert_int_equal(a.base[0], 0x1000);
   assert_int_equal(a.base[1], 0x9000);
   assert_int_equal(a.total.requests, 2);
   assert_int_equal(a.total.conflicts, 0);
   BankGrid g;
   assert_true(BankAnalysis_grid(&a, BankAnalysis_request(&a, 0, 0, 0, 0), &g));
   assert_int_equal(g.address[0], 64);
   assert_int_equal(g.pass[0][16], 0);
   assert_int_equal(g.pass[16][0], 0); /* word 32 wraps to bank 0 */
   assert_true(BankAnalysis_grid(&a, BankAnalysis_request(&a, 0, 1, 0, 0), &g));
   assert_int_equal(g.group, 1);
   assert_int_equal(g.address[3], 12);
   assert_int_equal(g.pass[3][3], 0);
   BankAnalysis_free(&a);
}

static void test_empty(void **state) {
   (void)state;
   BankModel m = BankModel_nvidia();
   Builder b;
   begin(&b, 1, 64);
   BankAnalysis a = analyse(&b, &m);
   assert_int_equal(a.nrequests, 0);
   assert_int_equal(a.nsites, 0);
   assert_int_equal(a.total.requests, 0);
   assert_int_equal(a.warps, 2);
   assert_int_equal(BankAnalysis_executions(&a, 0, 0, 0), 0);
   assert_null(BankAnalysis_request(&a, 0, 0, 0, 0));
   BankAnalysis_free(&a);
}

static void test_amd(void **state) {
   (void)state;
   BankModel m = BankModel_amd(64);
   assert_int_equal(m.banks, 32);
   assert_int_equal(m.bank_width, 4);
   assert_int_equal(m.simd_width, 64);
   /* A wave64's 4-byte access: two halves of 32 lanes. */
   expectOne(&m, 64, 4, 1, 2, 2);
   expectOne(&m, 64, 4, 2, 4, 2);
   expectOne(&m, 64, 4, 32, 64, 2);
   expectOne(&m, 64, 4, 33, 2, 2);
   expectOne(&m, 64, 4, 0, 2, 2);
   /* 8 bytes per 16 lanes, 16 bytes per 8 lanes. */
   expectOne(&m, 64, 8, 2, 4, 4);
   expectOne(&m, 64, 8, 4, 8, 4);
   expectOne(&m, 64, 16, 4, 8, 8);
   expectOne(&m, 64, 16, 8, 16, 8);
   /* A 32-lane wave (RDNA wave32, or a half-empty wave64) under the same model. */
   BankModel w32 = BankModel_amd(32);
   expectOne(&w32, 32, 4, 2, 2, 1);
}

static void test_overrides(void **state) {
   (void)state;
   char err[256];
   BankModel m = BankModel_nvidia();
   assert_true(BankModel_override(&m, 0, 0, 0, err, sizeof err));
   assert_string_equal(m.name, "NVIDIA");
   assert_true(m.known);
   assert_true(BankModel_override(&m, 32, 4, 32, err, sizeof err)); /* the same values: still known */
   assert_true(m.known);
   /* 16 banks: a 4-byte warp access in two phases of 16 lanes. */
   assert_true(BankModel_override(&m, 16, 0, 0, err, sizeof err));
   assert_string_equal(m.name, "custom");
   assert_false(m.known);
   assert_int_equal(m.banks, 16);
   assert_int_equal(BankModel_phaseLanes(&m, 4), 16);
   expectOne(&m, 32, 4, 1, 2, 2);
   expectOne(&m, 32, 4, 2, 4, 2);
   /* 8-byte banks (Kepler's mode): neighbouring floats share a word. */
   BankModel k = BankModel_nvidia();
   assert_true(BankModel_override(&k, 0, 8, 0, err, sizeof err));
   assert_int_equal(BankModel_phaseLanes(&k, 4), 32);
   expectOne(&k, 32, 4, 1, 1, 1);
   expectOne(&k, 32, 4, 2, 1, 1);
   expectOne(&k, 32, 4, 64, 32, 1);
   /* SIMD width 16: 32 work-items are two warps of one pass each. */
   BankModel s = BankModel_nvidia();
   assert_true(BankModel_override(&s, 0, 0, 16, err, sizeof err));
   expectOne(&s, 32, 4, 1, 2, 2);
   expectOne(&s, 32, 4, 2, 2, 2);
   expectOne(&s, 32, 4, 32, 32, 2);
   /* Out of range. */
   BankModel bad = BankModel_nvidia();
   assert_false(BankModel_override(&bad, 65, 0, 0, err, sizeof err));
   assert_non_null(strstr(err, "--banks"));
   assert_false(BankModel_override(&bad, 0, 3, 0, err, sizeof err));
   assert_non_null(strstr(err, "--bank-width"));
   assert_false(BankModel_override(&bad, 0, 0, 65, err, sizeof err));
   assert_non_null(strstr(err, "--simd-width"));
   assert_string_equal(bad.name, "NVIDIA");
   /* An invalid model is refused by the analysis. */
   Builder b;
   begin(&b, 1, 32);
   addStrided(&b, 0, false, 4, 0, 0, 32, 1, 0);
   BankAnalysis a;
   bad.banks = 0;
   assert_false(BankAnalysis_run(&a, &b.t, &bad, err, sizeof err));
   Trace_free(&b.t);
}

static DeviceInfo device(DeviceType type, const char *vendor, const char *name, const char *arch, int warp) {
   DeviceInfo d;
   memset(&d, 0, sizeof d);
   d.type = type;
   strcpy(d.vendor, vendor);
   strcpy(d.name, name);
   strcpy(d.arch, arch);
   d.limits.warp = warp;
   Device_classify(&d); /* as every backend does: the vendor from the names */
   return d;
}

static void test_model_choice(void **state) {
   (void)state;
   DeviceInfo d = device(DEVICE_CPU, "AuthenticAMD", "pthread-skylake-avx512-AMD EPYC", "", 32);
   BankModel m = BankModel_forDevice(&d);
   assert_string_equal(m.name, "default");
   assert_false(m.known);
   assert_int_equal(m.simd_width, 32);
   d = device(DEVICE_GPU, "NVIDIA Corporation", "NVIDIA H100 80GB HBM3", "sm_90", 32);
   m = BankModel_forDevice(&d);
   assert_string_equal(m.name, "NVIDIA");
   assert_true(m.known);
   d = device(DEVICE_GPU, "NVIDIA Corporation", "Tesla K40c", "sm_35", 32);
   m = BankModel_forDevice(&d);
   assert_string_equal(m.name, "NVIDIA");
   assert_false(m.known);
   d = device(DEVICE_GPU, "Advanced Micro Devices, Inc.", "gfx906:sramecc+:xnack-", "gfx906", 64);
   m = BankModel_forDevice(&d);
   assert_string_equal(m.name, "AMD GCN/CDNA");
   assert_true(m.known);
   assert_int_equal(m.simd_width, 64);
   d = device(DEVICE_GPU, "Advanced Micro Devices, Inc.", "gfx90a", "gfx90a", 64);
   assert_true(BankModel_forDevice(&d).known);
   d = device(DEVICE_GPU, "Advanced Micro Devices, Inc.", "Radeon RX 6800", "gfx1030", 32);
   m = BankModel_forDevice(&d);
   assert_string_equal(m.name, "AMD GCN/CDNA");
   assert_false(m.known);
   assert_int_equal(m.simd_width, 32);
   d = device(DEVICE_GPU, "Apple", "Apple M1", "", 32);
   m = BankModel_forDevice(&d);
   assert_string_equal(m.name, "default");
   assert_false(m.known);
   d = device(DEVICE_GPU, "Some vendor", "A wide GPU", "", 64);
   assert_int_equal(BankModel_forDevice(&d).simd_width, 64);
   char text[96];
   BankModel_describe(&m, text, sizeof text);
   assert_string_equal(text, "32 banks x 4 B, SIMD 32");
}

/* --bank-model: each vendor's model by name, the wavefront width passed to AMD's; another
 * name refused, the model untouched. */
static void test_named_models(void **state) {
   (void)state;
   BankModel m = BankModel_default(32);
   assert_true(BankModel_named("nvidia", 0, &m));
   assert_string_equal(m.name, "NVIDIA");
   assert_true(m.known && m.pair_merge);
   expectOne(&m, 32, 4, 32, 32, 1); /* stride 32: 32 wavefronts, as on the GPU */
   assert_true(BankModel_named("amd", 64, &m));
   assert_string_equal(m.name, "AMD GCN/CDNA");
   assert_int_equal(m.simd_width, 64);
   assert_true(BankModel_named("default", 32, &m));
   assert_string_equal(m.name, "default");
   assert_false(m.known);
   assert_false(BankModel_named("intel", 32, &m));
   assert_string_equal(m.name, "default");
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_nvidia_floats),
       cmocka_unit_test(test_nvidia_vectors),
       cmocka_unit_test(test_nvidia_measured),
       cmocka_unit_test(test_phase_lanes),
       cmocka_unit_test(test_transposed_tile),
       cmocka_unit_test(test_two_warps_and_seqs),
       cmocka_unit_test(test_partial_warp),
       cmocka_unit_test(test_grid),
       cmocka_unit_test(test_normalisation_and_groups),
       cmocka_unit_test(test_empty),
       cmocka_unit_test(test_amd),
       cmocka_unit_test(test_overrides),
       cmocka_unit_test(test_named_models),
       cmocka_unit_test(test_model_choice),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
