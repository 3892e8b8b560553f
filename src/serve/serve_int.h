/* What the class server's files share (serve.c: the daemon; classcmd.c: assignments,
 * submissions and boards): its state, a request, a connection, and the helpers both use.
 * Nothing outside src/serve includes this. */
#ifndef GEMMTOP_SERVE_INT_H
#define GEMMTOP_SERVE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "backend/backend.h"
#include "base/lines.h"
#include "core/measurer.h"
#include "core/store.h"
#include "serve/classdb.h"
#include "serve/fairq.h"
#include "serve/roster.h"
#include "serve/serve.h"

/* A request's launches repeat at most this often, and warm up at most this much. */
#define SERVE_MAX_REPS 100
#define SERVE_MAX_ROUNDS 50
/* Connections: in all, and per student beyond the requests in flight. */
#define SERVE_MAX_CONNECTIONS 512
#define SERVE_SPARE_CONNECTIONS 4
/* A connection silent this long is closed. */
#define SERVE_IDLE_S 600.0
/* A waiting request hears where it is at least this often (the client's sign of life). */
#define SERVE_WAIT_TELL_MS 2000.0

typedef enum { REQ_RUN, REQ_VENDOR, REQ_JUDGE } RequestKind;
typedef enum { REQ_WAITING, REQ_RUNNING, REQ_DONE } RequestState;

typedef struct Request_ {
   RequestKind kind;
   RosterEntry who;
   MeasureJob job;            /* its kernels_dir: the server's folders, then the request's upload */
   long long values[KERNEL_MAX_PARAMS];
   int nvalues;
   int device;                /* a slot it must run on, -1 any */
   Submission sub;            /* REQ_JUDGE */
   Assignment asg;
   char sub_dir[1024];        /* REQ_JUDGE: the folder of its source, removed when judged */
   RequestState state;
   bool orphan;               /* no connection waits: the worker frees it */
   atomic_int cancel;
   double queued_ms, started_ms, ended_ms;
   int slot;                  /* where it ran */
   SweepCandidate c;          /* REQ_RUN */
   double vendor_gflops;      /* REQ_VENDOR */
   char vendor_name[256];
} Request;

typedef struct Slot_ {
   DeviceInfo info;
   pthread_t thread;
} Slot;

/* Per student: connections open and requests waiting or running. */
typedef struct StudentLoad_ {
   uid_t uid;
   int connections, in_flight;
} StudentLoad;

typedef struct ServeState_ {
   ServeOptions o;
   const Backend *be;
   Slot slots[SERVE_MAX_DEVICES];
   int nslots;
   char kernels[2048];
   char state[1024];
   char uploads[1100];
   char socket_path[108];
   Roster roster;
   Store *store;
   ClassDb *classdb;
   pthread_mutex_t lock;      /* everything below, and the store and the class records */
   pthread_cond_t work, done;
   FairQueue queue;
   StudentLoad *load;
   int nload, connections;
   unsigned long next_conn;
   bool stopping;
   FILE *log;
   double start_ms;
   int wake[2];               /* a signal's byte for the accepting loop */
} ServeState;

/* The one server of this process (serve.c). */
extern ServeState Srv;

typedef struct Conn_ {
   int fd;
   RosterEntry who;
   unsigned long id;
   LineReader in;
   char dir[1200];            /* its upload folder ("" none yet) */
   char file[80];             /* the file uploaded last ("" none) */
   MeasureJob job;
   bool has_job;
} Conn;

/* ---- serve.c ---- */

/* A line of STATE/serve.log. */
void Serve_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A student's load (under the lock); NULL when out of memory. */
StudentLoad *Serve_loadOf(uid_t uid);
long long Serve_freeMb(void);
/* Why nothing new can be taken now (too little disk), or false. */
bool Serve_diskFull(char *why, size_t whylen);
/* A folder of uploads, emptied and removed. */
void Serve_removeTree(const char *dir);
/* Records for r: a configuration measured, a vendor figure. */
void Serve_recordCandidate(const Request *r, const MeasureJob *j, const SweepCandidate *c, const char *origin);
void Serve_recordVendor(const Request *r, const MeasureJob *j, double gflops, const char *name);
/* r's job as this server runs it on slot: its device, limits and folders. */
MeasureJob Serve_jobOn(const Request *r, int slot);
/* A line to the client (newlines in it made spaces, control characters made visible: it
 * holds other people's text); text as "text" lines and "end". */
bool Serve_say(Conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool Serve_sayText(Conn *c, const char *text);
/* r into the queue when its student may have one more in flight; false with why. */
bool Serve_enqueue(Request *r, char *why, size_t whylen);
/* Waits for r, telling the client its place; false when the client went away (r then
 * belongs to the worker or is freed). */
bool Serve_await(Conn *c, Request *r);
/* The server's kernel folders, then dir. */
void Serve_folders(const char *dir, char *out, size_t outlen);

/* ---- classcmd.c ---- */

/* Judges a submission on its device slot (a worker's REQ_JUDGE). */
void ClassCmd_judge(Request *r, int slot);
/* The assignment's board page in --board-dir. */
void ClassCmd_writeBoard(const Assignment *a);
/* "submit ASSIGNMENT SETS", "class VERB ARGS". */
bool ClassCmd_submit(Conn *c, const char *args);
bool ClassCmd_dispatch(Conn *c, const char *args);
/* Submissions a stopped server had taken and not judged, queued again. */
void ClassCmd_resume(void);

#endif
