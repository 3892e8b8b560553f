/* Who may use a class server, and the names it shows. Identity is the Unix account the
 * kernel reports for a connection (SO_PEERCRED), never a name a client sends. The roster
 * is a text file the lecturer writes, a line per person:
 *
 *     # account (a login name or a uid), then the name shown
 *     alice            Alice Liddell
 *     1002             Bob Example
 *     lecturer carol   Carol Teacher
 *
 * Without a roster every account that can open the socket may use the server, named by
 * its login; the account that runs the server is always a lecturer. */
#ifndef GEMMTOP_ROSTER_H
#define GEMMTOP_ROSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ROSTER_NAME_MAX 64

typedef struct RosterEntry_ {
   uid_t uid;
   char account[32];
   char name[ROSTER_NAME_MAX];
   bool lecturer;
} RosterEntry;

typedef struct Roster_ {
   RosterEntry *entries;
   int n;
   bool open;        /* no roster file: anyone who can reach the socket */
   uid_t owner;      /* the server's own account: a lecturer */
} Roster;

/* Reads path (NULL: an open roster). False with err naming the file and line. */
bool Roster_load(Roster *r, const char *path, uid_t owner, char *err, size_t errlen);
void Roster_free(Roster *r);
/* The entry for uid (into *out), false when uid may not use the server. */
bool Roster_find(const Roster *r, uid_t uid, RosterEntry *out);

#endif
