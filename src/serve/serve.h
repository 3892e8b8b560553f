/* gemmtop serve: a class's shared GPU server. A daemon that owns the devices, listens
 * on a Unix socket, knows each client by the account the kernel reports (SO_PEERCRED) and
 * the lecturer's roster, and measures every request in a child process of its own, one at
 * a time per device (no two timings share a device), taking requests fairly across
 * students (serve/fairq.h). It keeps the results store, the assignments and the
 * submissions (serve/classdb.h), judges submissions on fresh inputs and writes the
 * class board (serve/board.h). The protocol is the measuring child's (core/sweep/measurer.h)
 * plus "class", "submit" and "file" lines; docs/class.md says how to run it. */
#ifndef GEMMTOP_SERVE_H
#define GEMMTOP_SERVE_H

#include <stdbool.h>

#define SERVE_MAX_DEVICES 8

typedef struct ServeOptions_ {
   const char *socket_path;
   const char *state_dir;     /* class records, uploads, the log; NULL: $XDG_DATA_HOME/gemmtop/serve */
   const char *roster;        /* NULL: anyone who can open the socket */
   const char *store;         /* NULL: STATE/results.db */
   const char *board_dir;     /* the board pages are written here (NULL: none) */
   const char *backend;       /* NULL: the best backend, as the explorer picks it */
   const char *devices;       /* "0,1" or a kind; NULL: the best device */
   int max_size;              /* the largest M, N or K a request may ask */
   double request_s;          /* a request may take this long beyond its launches' own timeout */
   int in_flight;             /* requests one student may have waiting or running */
   int data_mb;               /* a measuring child's data limit */
   int quota_mb;              /* sources a student may keep on the server */
   int min_free_mb;           /* below this much free disk, nothing new is taken */
   bool names_shown;          /* the board shows students' names to everyone */
   int socket_mode;           /* the socket's permissions (octal 0660, 0666) */
} ServeOptions;

/* Runs until SIGINT or SIGTERM; the exit code (2: bad options or files, 1: a failure). */
int Serve_main(const ServeOptions *o);

#endif
