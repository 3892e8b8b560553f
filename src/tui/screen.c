/* The terminal: curses on and off, colours, the signals (a handler only sets a flag or
 * restores the terminal, never draws), and what libraries print on stderr, which goes to
 * a file whose lines are shown in the log instead of over the screen. */
#include <fcntl.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <unistd.h>

#include "base/util.h"
#include "tui/app.h"

/* ---- signals: handlers only set flags or restore the terminal; never draw ---- */

static volatile sig_atomic_t g_signal;
static volatile sig_atomic_t g_screenOn;
static struct termios g_termios;
static bool g_haveTermios;
static char g_reset[256];
static size_t g_resetLen;

static void onSignal(int sig) { g_signal = sig; }

int Screen_signal(void) { return g_signal; }

/* A crash must not leave the terminal raw and in the alternate screen: tcsetattr and
 * write are async-signal-safe, the sequences were prepared beforehand. Whoever handled
 * the signal before (LLVM inside the OpenCL runtime prints a stack trace) still runs, then
 * the default action ends the process. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UI_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UI_SANITIZED 1
#endif
#endif
#ifdef UI_SANITIZED
/* The sanitizer's own handlers report faults; only aborts are ours. */
static const int g_fatal[] = {SIGABRT};
#else
static const int g_fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#endif
#define NFATAL ((int)(sizeof g_fatal / sizeof g_fatal[0]))
static struct sigaction g_prevFatal[NFATAL];

static void onFatal(int sig, siginfo_t *info, void *ctx) {
   if (g_screenOn) {
      g_screenOn = 0;
      if (g_haveTermios)
         tcsetattr(STDIN_FILENO, TCSANOW, &g_termios);
      if (g_resetLen && write(STDOUT_FILENO, g_reset, g_resetLen) < 0) {
         /* nothing more can be done here */
      }
   }
   for (int i = 0; i < NFATAL; i++) {
      if (g_fatal[i] != sig)
         continue;
      const struct sigaction *p = &g_prevFatal[i];
      if (p->sa_flags & SA_SIGINFO) {
         if (p->sa_sigaction)
            p->sa_sigaction(sig, info, ctx);
      } else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN && p->sa_handler) {
         p->sa_handler(sig);
      }
   }
   /* Delivered again when this handler returns, now with the default action. */
   signal(sig, SIG_DFL);
   raise(sig);
}

/* (Re)installs the fatal-signal handlers in front of whatever is there: the OpenCL
 * runtime installs its own when it first compiles, so this runs again now and then. */
void Screen_guardSignals(void) {
   for (int i = 0; i < NFATAL; i++) {
      struct sigaction cur;
      if (sigaction(g_fatal[i], NULL, &cur) != 0)
         continue;
      if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == onFatal)
         continue;
      g_prevFatal[i] = cur;
      struct sigaction fa;
      memset(&fa, 0, sizeof fa);
      fa.sa_sigaction = onFatal;
      sigemptyset(&fa.sa_mask);
      fa.sa_flags = SA_SIGINFO;
      sigaction(g_fatal[i], &fa, NULL);
   }
}

void Screen_installSignals(void) {
   struct sigaction sa;
   memset(&sa, 0, sizeof sa);
   sa.sa_handler = onSignal;
   sigemptyset(&sa.sa_mask);
   sigaction(SIGINT, &sa, NULL);
   sigaction(SIGTERM, &sa, NULL);
   sigaction(SIGHUP, &sa, NULL);
   Screen_guardSignals();
}

static void addReset(const char *cap) {
   char *s = tigetstr((char *)cap);
   if (!s || s == (char *)-1)
      return;
   size_t n = strlen(s);
   if (g_resetLen + n < sizeof g_reset) {
      memcpy(g_reset + g_resetLen, s, n);
      g_resetLen += n;
   }
}

static void restoreAtExit(void) {
   if (g_screenOn && !isendwin()) {
      endwin();
      g_screenOn = 0;
   }
}

/* ---- what libraries print on stderr goes to a file; its lines are shown in the log ---- */

void Screen_captureStderr(Ui *ui) {
   ui->saved_stderr = -1;
   ui->stderr_read = -1;
   char dir[900];
   int fd = -1;
   if (Util_userDir("cache", dir, sizeof dir) && Util_mkdirs(dir)) {
      /* One file per process; removed on a clean exit, kept after a crash. */
      snprintf(ui->stderr_path, sizeof ui->stderr_path, "%s/explorer-stderr-%ld.log", dir, (long)getpid());
      fd = open(ui->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
   }
   if (fd < 0) {
      ui->stderr_path[0] = '\0';
      fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
   }
   if (fd < 0)
      return;
   fflush(stderr);
   ui->saved_stderr = dup(STDERR_FILENO);
   dup2(fd, STDERR_FILENO);
   close(fd);
   if (ui->stderr_path[0])
      ui->stderr_read = open(ui->stderr_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

void Screen_releaseStderr(Ui *ui) {
   if (ui->saved_stderr >= 0) {
      fflush(stderr);
      dup2(ui->saved_stderr, STDERR_FILENO);
      close(ui->saved_stderr);
      ui->saved_stderr = -1;
   }
   if (ui->stderr_read >= 0)
      close(ui->stderr_read);
   ui->stderr_read = -1;
   if (ui->stderr_path[0])
      unlink(ui->stderr_path);
}

void Screen_pollStderr(Ui *ui) {
   if (ui->stderr_read < 0)
      return;
   char buf[4096];
   ssize_t n;
   while ((n = read(ui->stderr_read, buf, sizeof buf - 1)) > 0) {
      buf[n] = '\0';
      for (char *s = buf; *s;) {
         char *nl = strchr(s, '\n');
         size_t have = strlen(ui->stderr_partial);
         size_t take = nl ? (size_t)(nl - s) : strlen(s);
         if (have + take >= sizeof ui->stderr_partial)
            take = sizeof ui->stderr_partial - 1 - have;
         memcpy(ui->stderr_partial + have, s, take);
         ui->stderr_partial[have + take] = '\0';
         if (!nl)
            break;
         if (ui->stderr_partial[0])
            Ui_log(ui, LOG_WARN, "stderr: %s", ui->stderr_partial);
         ui->stderr_partial[0] = '\0';
         s = nl + 1;
      }
   }
}

static void initColors(Ui *ui) {
   if (!ui->paint.color || !has_colors()) {
      ui->paint.color = false;
      return;
   }
   start_color();
   use_default_colors();
   init_pair(1, COLOR_BLACK, COLOR_CYAN);   /* header, keys */
   init_pair(2, COLOR_WHITE, COLOR_BLUE);   /* pane titles */
   init_pair(3, COLOR_BLACK, COLOR_GREEN);  /* the focused pane's title */
   init_pair(4, COLOR_CYAN, -1);            /* labels */
   init_pair(5, COLOR_GREEN, -1);
   init_pair(6, COLOR_RED, -1);
   init_pair(7, COLOR_YELLOW, -1);
   init_pair(8, COLOR_BLUE, -1);            /* bars */
   init_pair(9, COLOR_BLACK, COLOR_YELLOW); /* the selected value */
   init_pair(10, COLOR_WHITE, COLOR_BLACK); /* dialogs */
}

void Screen_start(Ui *ui) {
   if (tcgetattr(STDIN_FILENO, &g_termios) == 0)
      g_haveTermios = true;
   initscr();
   g_screenOn = 1;
   atexit(restoreAtExit);
   cbreak();
   noecho();
   nonl();
   keypad(stdscr, TRUE);
   set_escdelay(25);
   curs_set(0);
   timeout(100);
   initColors(ui);
   mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED
#ifdef BUTTON5_PRESSED
                 | BUTTON4_PRESSED | BUTTON5_PRESSED
#endif
             ,
             NULL);
   mouseinterval(200);
   g_resetLen = 0;
   addReset("sgr0");
   addReset("cnorm");
   addReset("rmkx");
   addReset("rmcup");
   const char *mouseOff = "\033[?1000l\033[?1002l\033[?1006l\r\n";
   if (g_resetLen + strlen(mouseOff) < sizeof g_reset) {
      memcpy(g_reset + g_resetLen, mouseOff, strlen(mouseOff));
      g_resetLen += strlen(mouseOff);
   }
   getmaxyx(stdscr, ui->paint.rows, ui->paint.cols);
}

void Screen_stop(void) {
   if (g_screenOn) {
      endwin();
      g_screenOn = 0;
   }
}

bool Screen_utf8Locale(void) {
   const char *cs = nl_langinfo(CODESET);
   return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}
