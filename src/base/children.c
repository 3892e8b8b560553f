/* Child processes of this program, by name (children.h). */
#include "base/children.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define MAX_CHILDREN 8

typedef struct Registered_ {
   const char *name;
   ChildMain fn;
} Registered;
static Registered registered[MAX_CHILDREN];
static int nregistered;

void Children_register(const char *name, ChildMain fn) {
   for (int i = 0; i < nregistered; i++)
      if (!strcmp(registered[i].name, name)) {
         registered[i].fn = fn;
         return;
      }
   if (nregistered < MAX_CHILDREN)
      registered[nregistered++] = (Registered){name, fn};
}

/* "__NAME-child": a word no user types, so that no command can be taken for it. */
static void wordOf(const char *name, char *out, size_t len) { snprintf(out, len, "__%s-child", name); }

bool Children_dispatch(int argc, char **argv, int *rc) {
   if (argc != 2)
      return false;
   for (int i = 0; i < nregistered; i++) {
      char word[64];
      wordOf(registered[i].name, word, sizeof word);
      if (!strcmp(argv[1], word)) {
         *rc = registered[i].fn();
         return true;
      }
   }
   return false;
}

pid_t Children_spawn(const char *name, int child_stdin, int child_stdout, const int close_in_child[2], char *why,
                     size_t whylen) {
   char self[4096], word[64];
   ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
   if (n <= 0) {
      snprintf(why, whylen, "this program's path is unknown: %s", strerror(errno));
      return -1;
   }
   self[n] = '\0';
   wordOf(name, word, sizeof word);
   posix_spawn_file_actions_t fa;
   posix_spawn_file_actions_init(&fa);
   posix_spawn_file_actions_adddup2(&fa, child_stdin, STDIN_FILENO);
   posix_spawn_file_actions_adddup2(&fa, child_stdout, STDOUT_FILENO);
   for (int i = 0; close_in_child && i < 2; i++)
      if (close_in_child[i] >= 0)
         posix_spawn_file_actions_addclose(&fa, close_in_child[i]);
   char *argv[] = {self, word, NULL};
   pid_t pid;
   /* /proc/self/exe, not the path: a long-lived parent (gemmtop serve) whose file was
    * replaced by an upgrade still starts its own code. */
   int e = posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, environ);
   if (e == ENOENT)
      e = posix_spawn(&pid, self, &fa, NULL, argv, environ);
   posix_spawn_file_actions_destroy(&fa);
   if (e != 0) {
      snprintf(why, whylen, "cannot start %s: %s", self, strerror(e));
      return -1;
   }
   return pid;
}
