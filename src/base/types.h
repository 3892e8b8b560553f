/* The element types as one table. Everything gemmtop decides by an element type (its
 * names, the kernels' define, how A, B and C lie in memory, verification's epsilon, which
 * measured peak applies, a report's words) is a column of TypeTraits, so that a new type
 * is one row here, its storage's rounding (Storage_store) and one entry in each backend's
 * map of types (backend_*.c), and nowhere a chain of `p == PRECISION_...` ternaries. */
#ifndef GEMMTOP_TYPES_H
#define GEMMTOP_TYPES_H

#include <stdbool.h>
#include <stddef.h>

/* The element types. float and double: A, B, C, alpha and beta all of that type. The
 * tensor-core types keep C, alpha and beta in FP32 and accumulate in FP32:
 *   tf32:     A and B stored as FP32 and multiplied in TF32 (rounding them is the kernel's job)
 *   half:     A and B stored as IEEE binary16
 *   bfloat16: A and B stored as bfloat16
 *   e4m3, e5m2: A and B stored as the OCP FP8 formats (PyTorch's float8_e4m3fn and
 *             float8_e5m2), each with FP32 scales (Problem.scaling): the operand a kernel
 *             multiplies is the stored value times its scale                              */
typedef enum {
   PRECISION_FLOAT = 0,
   PRECISION_DOUBLE = 1,
   PRECISION_TF32 = 2,
   PRECISION_HALF = 3,
   PRECISION_BF16 = 4,
   PRECISION_E4M3 = 5,
   PRECISION_E5M2 = 6,
} Precision;
#define PRECISION_COUNT 7
#define PRECISION_BIT(p) (1u << (unsigned)(p))

/* How numbers lie in memory. */
typedef enum { STORAGE_F32, STORAGE_F64, STORAGE_F16, STORAGE_BF16, STORAGE_E4M3, STORAGE_E5M2, STORAGE_KINDS } Storage;

/* The measured peaks a run can be put against (Peaks.gflops[]): the CUDA cores' FMA rates
 * and the tensor cores' per input type. */
typedef enum { PEAK_FP32, PEAK_FP64, PEAK_TF32, PEAK_F16, PEAK_BF16, PEAK_FP8, PEAK_KINDS } PeakKind;

typedef struct TypeTraits_ {
   const char *name;            /* "bfloat16": --precision, reports, the store */
   const char *aliases[3];      /* also taken by --precision, in any case */
   const char *input, *compute, *output; /* a report's words: A and B as stored, the multiplies, C */
   const char *define;          /* the kernels' -D that names it beside -DDOUBLE ("GT_BF16"), NULL none */
   const char *tag;             /* a short mark in labels that name no type otherwise (" dbl"), "" none */
   const char *multiply;        /* how A and B are multiplied, where a report says it ("TF32"), NULL not said */
   Storage in, out;             /* A and B; C, alpha and beta (and the accumulation) */
   bool fp64;                   /* A, B and C in double: the kernels' DOUBLE=1, .npy float64, FP64 needed */
   bool cuda_cores;             /* kernels that state no `precisions:` take it */
   bool scaled;                 /* A and B come with FP32 scales (FP8): Problem.scaling, core/model/scales.h */
   double product_error;        /* bound of the products' own rounding relative to |a||b| (TF32's cut), else 0 */
   PeakKind peak;               /* the peak of a kernel without tensor cores */
   PeakKind tensor_peak;        /* the peak of a tensor-core kernel on tensor cores */
   int tensor_sm;               /* the NVIDIA compute capability (x10) its mma.sync needs: 80, FP8 89 */
} TypeTraits;

/* The row of p (float's for a value out of range, which no parser gives). */
const TypeTraits *Types_of(Precision p);
/* PRECISION_BIT()s of the types that kernels stating no `precisions:` take. */
unsigned Types_cudaCoreMask(void);

/* Bytes of one element. */
size_t Storage_size(Storage s);
/* Element i of base as a number, and v stored as element i (to nearest even; a value past
 * the type's range becomes infinity, as the hardware's conversions do, except in the FP8
 * types, which saturate to their largest finite value as cvt.rn.satfinite and the users'
 * quantisers do; NaN stays NaN). */
double Storage_load(Storage s, const void *base, size_t i);
void Storage_store(Storage s, void *base, size_t i, double v);
/* Its unit roundoff (epsilon), the largest finite value, and that value as a message
 * writes it ("65504"). */
double Storage_epsilon(Storage s);
double Storage_max(Storage s);
const char *Storage_maxText(Storage s);
/* "float32", "float64", "float16", "bfloat16", "float8_e4m3fn", "float8_e5m2": the numpy
 * name of the storage (ml_dtypes' for the FP8 ones, which a .npy file stores as uint8). */
const char *Storage_npyName(Storage s);

/* "FP32", "FP64", "TF32 tensor", "half tensor", "bfloat16 tensor", "FP8 tensor". */
const char *PeakKind_label(PeakKind k);

#endif
