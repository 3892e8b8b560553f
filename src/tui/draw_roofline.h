/* What the roofline pane (draw_roofline.c) keeps between frames: its trail of points. */
#ifndef GEMMTOP_UI_DRAW_ROOFLINE_H
#define GEMMTOP_UI_DRAW_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>

/* The roofline pane: the configurations measured before the one on screen, as points. */
#define ROOFLINE_TRAIL 16
typedef struct RooflinePane_ {
   double x[ROOFLINE_TRAIL], y[ROOFLINE_TRAIL]; /* flops per byte (the model's), GFLOPS */
   unsigned long serial[ROOFLINE_TRAIL];        /* the worker's post each answers */
   int n;
} RooflinePane;

#endif
