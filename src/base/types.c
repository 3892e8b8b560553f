/* The element types' table (types.h). */
#include "base/types.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/lowprec.h"

static const TypeTraits kTypes[PRECISION_COUNT] = {
    [PRECISION_FLOAT] = {.name = "float", .aliases = {"single", "fp32", "s"}, .input = "float", .compute = "float",
                         .output = "float", .tag = "", .in = STORAGE_F32, .out = STORAGE_F32, .cuda_cores = true,
                         .peak = PEAK_FP32, .tensor_peak = PEAK_FP32},
    [PRECISION_DOUBLE] = {.name = "double", .aliases = {"fp64", "d"}, .input = "double", .compute = "double",
                          .output = "double", .tag = " dbl", .in = STORAGE_F64, .out = STORAGE_F64, .fp64 = true,
                          .cuda_cores = true, .peak = PEAK_FP64, .tensor_peak = PEAK_FP64},
    /* TF32 keeps 10 of FP32's 23 fraction bits: an input cut to TF32 by truncation (what the
     * tensor cores do with FP32 bits a kernel did not round) is off by less than 2^-10 of
     * itself, so a product of two by less than 2^-9. */
    [PRECISION_TF32] = {.name = "tf32", .input = "float", .compute = "tf32", .output = "float", .define = "GT_TF32", .multiply = "TF32",
                        .tag = "", .in = STORAGE_F32, .out = STORAGE_F32, .product_error = 0x1p-9,
                        .peak = PEAK_FP32, .tensor_peak = PEAK_TF32, .tensor_sm = 80},
    [PRECISION_HALF] = {.name = "half", .aliases = {"fp16", "f16"}, .input = "half", .compute = "float",
                        .output = "float", .define = "GT_HALF", .multiply = "FP32 (exactly)", .tag = "", .in = STORAGE_F16, .out = STORAGE_F32,
                        .peak = PEAK_FP32, .tensor_peak = PEAK_F16, .tensor_sm = 80},
    [PRECISION_BF16] = {.name = "bfloat16", .aliases = {"bf16"}, .input = "bfloat16", .compute = "float",
                        .output = "float", .define = "GT_BF16", .multiply = "FP32 (exactly)", .tag = "", .in = STORAGE_BF16, .out = STORAGE_F32,
                        .peak = PEAK_FP32, .tensor_peak = PEAK_BF16, .tensor_sm = 80},
    /* FP8: products of two FP8 values are exact in FP32 (4 + 4 significant bits); the
     * scales multiply partial sums, an FP32 rounding each, within the accumulation's. */
    [PRECISION_E4M3] = {.name = "e4m3", .aliases = {"float8_e4m3fn", "fp8", "fp8e4m3"}, .input = "e4m3", .compute = "float",
                        .output = "float", .define = "GT_E4M3", .multiply = "FP32 (exactly)", .tag = "", .in = STORAGE_E4M3,
                        .out = STORAGE_F32, .scaled = true, .peak = PEAK_FP32, .tensor_peak = PEAK_FP8, .tensor_sm = 89},
    [PRECISION_E5M2] = {.name = "e5m2", .aliases = {"float8_e5m2", "fp8e5m2"}, .input = "e5m2", .compute = "float",
                        .output = "float", .define = "GT_E5M2", .multiply = "FP32 (exactly)", .tag = "", .in = STORAGE_E5M2,
                        .out = STORAGE_F32, .scaled = true, .peak = PEAK_FP32, .tensor_peak = PEAK_FP8, .tensor_sm = 89},
};

const TypeTraits *Types_of(Precision p) { return &kTypes[(unsigned)p < PRECISION_COUNT ? p : PRECISION_FLOAT]; }

unsigned Types_cudaCoreMask(void) {
   unsigned mask = 0;
   for (int p = 0; p < PRECISION_COUNT; p++)
      if (kTypes[p].cuda_cores)
         mask |= PRECISION_BIT(p);
   return mask;
}

static const struct {
   size_t size;
   double eps, max;
   const char *maxText, *npy;
} kStorage[STORAGE_KINDS] = {
    [STORAGE_F32] = {4, FLT_EPSILON, FLT_MAX, "3.40e38", "float32"},
    [STORAGE_F64] = {8, DBL_EPSILON, DBL_MAX, "1.80e308", "float64"},
    [STORAGE_F16] = {2, 0x1p-10, 65504.0, "65504", "float16"},
    [STORAGE_BF16] = {2, 0x1p-7, 0x1.fep127, "3.39e38", "bfloat16"},
    [STORAGE_E4M3] = {1, 0x1p-3, 448.0, "448", "float8_e4m3fn"},
    [STORAGE_E5M2] = {1, 0x1p-2, 57344.0, "57344", "float8_e5m2"},
};

static Storage valid(Storage s) { return (unsigned)s < STORAGE_KINDS ? s : STORAGE_F32; }

size_t Storage_size(Storage s) { return kStorage[valid(s)].size; }
double Storage_epsilon(Storage s) { return kStorage[valid(s)].eps; }
double Storage_max(Storage s) { return kStorage[valid(s)].max; }
const char *Storage_maxText(Storage s) { return kStorage[valid(s)].maxText; }
const char *Storage_npyName(Storage s) { return kStorage[valid(s)].npy; }

double Storage_load(Storage s, const void *base, size_t i) {
   switch (s) {
   case STORAGE_F64: return ((const double *)base)[i];
   case STORAGE_F16: return LowPrec_halfToFloat(((const uint16_t *)base)[i]);
   case STORAGE_BF16: return LowPrec_bf16ToFloat(((const uint16_t *)base)[i]);
   case STORAGE_E4M3: return LowPrec_e4m3ToFloat(((const uint8_t *)base)[i]);
   case STORAGE_E5M2: return LowPrec_e5m2ToFloat(((const uint8_t *)base)[i]);
   default: return (double)((const float *)base)[i];
   }
}

void Storage_store(Storage s, void *base, size_t i, double v) {
   switch (s) {
   case STORAGE_F64: ((double *)base)[i] = v; break;
   case STORAGE_F16: ((uint16_t *)base)[i] = LowPrec_halfFromDouble(v); break;
   case STORAGE_BF16: ((uint16_t *)base)[i] = LowPrec_bf16FromDouble(v); break;
   case STORAGE_E4M3: ((uint8_t *)base)[i] = LowPrec_e4m3FromDouble(v); break;
   case STORAGE_E5M2: ((uint8_t *)base)[i] = LowPrec_e5m2FromDouble(v); break;
   default: ((float *)base)[i] = (float)v; break;
   }
}

const char *PeakKind_label(PeakKind k) {
   static const char *const labels[PEAK_KINDS] = {"FP32", "FP64", "TF32 tensor", "half tensor", "bfloat16 tensor",
                                                         "FP8 tensor"};
   return (unsigned)k < PEAK_KINDS ? labels[k] : "?";
}
