/* The commands' side of the results store: see recorder.h. */
#include "cli/recorder.h"

#include <stdio.h>
#include <string.h>

void Recorder_open(Recorder *rec, const CommandArgs *o) {
   memset(rec, 0, sizeof *rec);
   if (o->storage->off)
      return;
   char err[1536];
   rec->store = Store_open(o->storage->path, err, sizeof err);
   if (!rec->store) {
      fprintf(stderr, "gemmtop: nothing recorded: %s\n", err);
      rec->said = true;
   }
}

void Recorder_add(Recorder *rec, StoreRecord *r, int n) {
   if (!rec->store || n <= 0)
      return;
   char err[1536];
   if (Store_add(rec->store, r, n, err, sizeof err)) {
      rec->added += n;
      return;
   }
   fprintf(stderr, "gemmtop: recording stopped: %s\n", err);
   rec->said = true;
   Store_close(rec->store);
   rec->store = NULL;
}

void Recorder_close(Recorder *rec) {
   Store_close(rec->store);
   rec->store = NULL;
}
