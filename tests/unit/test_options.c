/* The options table and its parser: every command takes exactly its rows' options and
 * refuses the others by name; every number is held to its range, which the message
 * names; values are never cut or taken from the next option; --help is the table's; and
 * random words give a usage error with a message or options within their ranges; and
 * the man page documents every option under each command that takes it, and every
 * GEMMTOP_* variable that src/ reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/options.h"
#include "base/util.h"

static Options opts;
static char err[2048];

/* Parses words (NULL-terminated) for command; the message is in err. */
static int parse(const char *command, const char *const *words) {
   char *argv[80] = {"gemmtop", (char *)command};
   int argc = 2;
   for (int i = 0; words[i]; i++)
      argv[argc++] = (char *)words[i];
   return Options_parseQuiet(&opts, argc, argv, 2, command, err, sizeof err);
}

#define PARSE(command, ...) parse(command, (const char *const[]){__VA_ARGS__, NULL})

static void assert_message(const char *want) {
   if (!strstr(err, want))
      fail_msg("message '%s' lacks '%s'", err, want);
}

static const char *commandName(int c) { return c == COMMAND_EXPLORER ? "" : Options_commands()[c].name; }

/* "--kernel", or "-m" for a row with no long spelling. */
static const char *spell(const OptionSpec *s, char *buf, size_t len) {
   if (s->name)
      snprintf(buf, len, "--%s", s->name);
   else
      snprintf(buf, len, "-%c", s->letter);
   return buf;
}

/* A value the row accepts. */
static const char *goodValue(const OptionSpec *s, char *buf, size_t len) {
   static const struct {
      const char *name, *value;
   } special[] = {{"set", "TSM=32"}, {"precision", "double"}, {"layout", "NT"}, {"seed", "7"},
                  {"ablate", "no-a"}, {"sizes", "64,96"}, {"reference", "cuda"}, {"since", "2026-01-31"}, {"type", "half"},
                  {"until", "2026-02-28"}, {"against-since", "2024-02-29"}, {"against-until", "2026-12-31"},
                  {"size", "64"}, {"strategies", "all"}, {"scaling", "block"}};
   if (s->name && !strcmp(s->name, "size") && s->value && !strcmp(s->value, "N|M,N,K")) /* results --size */
      return "64,32,16";
   for (size_t i = 0; s->name && i < sizeof special / sizeof special[0]; i++)
      if (!strcmp(s->name, special[i].name))
         return special[i].value;
   if (s->kind == OPT_INT || s->kind == OPT_REAL)
      snprintf(buf, len, "%.0f", s->max > 1e6 ? 1e6 : s->max);
   else if (s->kind == OPT_CHOICE)
      snprintf(buf, len, "%.*s", (int)strcspn(s->choices, "|"), s->choices);
   else
      snprintf(buf, len, "some-word");
   return buf;
}

/* Whether some row spelled so takes command c (rows may share a name: results --size). */
static bool spellingTakes(const OptionSpec *t, size_t n, const char *spelling, int c) {
   char other[64];
   for (size_t r = 0; r < n; r++)
      if (((t[r].commands >> c) & 1) && !strcmp(spell(&t[r], other, sizeof other), spelling))
         return true;
   return false;
}

/* Every row on every command: taken where it says, refused elsewhere with the option and
 * the command named (list kernels --jobs 4 was accepted). */
static void test_commands_take_their_options(void **state) {
   (void)state;
   size_t n;
   const OptionSpec *t = Options_table(&n);
   for (size_t r = 0; r < n; r++) {
      const OptionSpec *s = &t[r];
      if (s->name && (!strcmp(s->name, "help") || !strcmp(s->name, "version")))
         continue;
      char spelling[64], value[64];
      spell(s, spelling, sizeof spelling);
      const char *v = goodValue(s, value, sizeof value);
      for (int c = 0; c < COMMAND_COUNT; c++) {
         int rc = s->kind == OPT_FLAG ? PARSE(commandName(c), spelling) : PARSE(commandName(c), spelling, v);
         if ((s->commands >> c) & 1) {
            if (rc != 0)
               fail_msg("%s %s %s refused: %s", Options_commandLabel(c), spelling, v, err);
            continue;
         }
         if (spellingTakes(t, n, spelling, c))
            continue; /* another row of that name is this command's */
         assert_int_equal(rc, 2);
         char want[128];
         snprintf(want, sizeof want, "%s is for ", spelling);
         assert_message(want);
         if (c == COMMAND_EXPLORER)
            snprintf(want, sizeof want, "not for the explorer");
         else
            snprintf(want, sizeof want, "not for 'gemmtop %s'", commandName(c));
         assert_message(want);
      }
   }
   assert_int_equal(PARSE("list", "kernels", "--jobs", "4", "--site", "3"), 2);
   assert_message("--jobs is for 'gemmtop sweep' and 'gemmtop tune', not for 'gemmtop list'");
}

/* Every number names its range when refused: below, above, not a number, not finite. */
/* Commands declare the groups of options they take: an option row names only commands
 * that declare its group, every group a command declares has options for it, and each
 * option's field lies in its group's part of Options. */
static void test_groups_declared(void **state) {
   (void)state;
   size_t n;
   const OptionSpec *t = Options_table(&n);
   const CommandSpec *cmds = Options_commands();
   unsigned used[COMMAND_COUNT] = {0};
   for (size_t r = 0; r < n; r++) {
      assert_true(t[r].group < GROUP_COUNT);
      for (int c = 0; c < COMMAND_COUNT; c++)
         if ((t[r].commands >> c) & 1) {
            if (!(cmds[c].groups & GROUP_BIT(t[r].group)))
               fail_msg("--%s is taken by %s, which does not declare the group '%s'", t[r].name ? t[r].name : "?",
                        Options_commandLabel((CommandId)c), Options_groupTitle(t[r].group));
            used[c] |= GROUP_BIT(t[r].group);
         }
   }
   for (int c = 0; c < COMMAND_COUNT; c++)
      if (used[c] != cmds[c].groups)
         fail_msg("%s declares groups (0x%x) that none of its options are in (it uses 0x%x)",
                  Options_commandLabel((CommandId)c), cmds[c].groups, used[c]);
   static const struct {
      OptionGroup g;
      size_t at, size;
   } parts[] = {
       {GROUP_SELECTION, offsetof(Options, sel), sizeof(SelectionOptions)},
       {GROUP_SHAPE, offsetof(Options, shape), sizeof(ShapeOptions)},
       {GROUP_TIMING, offsetof(Options, timing), sizeof(TimingOptions)},
       {GROUP_IO, offsetof(Options, io), sizeof(InputOptions)},
       {GROUP_OUTPUT, offsetof(Options, output), sizeof(OutputOptions)},
       {GROUP_STORAGE, offsetof(Options, storage), sizeof(StorageOptions)},
       {GROUP_INSPECT, offsetof(Options, inspect), sizeof(InspectOptions)},
       {GROUP_SWEEP, offsetof(Options, sweep), sizeof(SweepOptions)},
       {GROUP_BENCH, offsetof(Options, bench), sizeof(BenchOptions)},
       {GROUP_BANKS, offsetof(Options, banks), sizeof(BanksOptions)},
       {GROUP_RESULTS, offsetof(Options, results), sizeof(ResultsOptions)},
       {GROUP_CLASS, offsetof(Options, cls), sizeof(ClassOptions)},
   };
   for (size_t r = 0; r < n; r++)
      for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
         if (t[r].group == parts[i].g && !t[r].apply &&
             (t[r].field < parts[i].at || t[r].field >= parts[i].at + parts[i].size))
            fail_msg("--%s is in the group '%s' but its field is not in that part of Options", t[r].name,
                     Options_groupTitle(t[r].group));
}

static void test_numbers_name_their_range(void **state) {
   (void)state;
   size_t n;
   const OptionSpec *t = Options_table(&n);
   for (size_t r = 0; r < n; r++) {
      const OptionSpec *s = &t[r];
      if (s->kind != OPT_INT && s->kind != OPT_REAL)
         continue;
      char spelling[64], range[96], low[64], high[64];
      spell(s, spelling, sizeof spelling);
      int c = 0;
      while (!((s->commands >> c) & 1))
         c++;
      const char *cmd = commandName(c);
      bool finite_only = s->kind == OPT_REAL && s->min == -DBL_MAX && s->max == DBL_MAX;
      if (finite_only)
         snprintf(range, sizeof range, "use a finite number");
      else if (s->above_min)
         snprintf(range, sizeof range, "use more than %g, at most %g", s->min, s->max);
      else
         snprintf(range, sizeof range, "use %.0f to %.0f", s->min, s->max);
      if (!finite_only) {
         /* Just outside each end, refused; the ends themselves, taken (min: unless above_min). */
         snprintf(low, sizeof low, s->above_min ? "%g" : "%.0f", s->above_min ? s->min : s->min - 1);
         snprintf(high, sizeof high, "%.0f", s->max + 1);
         assert_int_equal(PARSE(cmd, spelling, low), 2);
         assert_message(range);
         assert_int_equal(PARSE(cmd, spelling, high), 2);
         assert_message(range);
         snprintf(high, sizeof high, "%.0f", s->max);
         assert_int_equal(PARSE(cmd, spelling, high), 0);
         if (!s->above_min) {
            snprintf(low, sizeof low, "%.0f", s->min);
            assert_int_equal(PARSE(cmd, spelling, low), 0);
         }
      }
      for (const char *const *bad = (const char *const[]){"abc", "nan", "inf", "1e999", "", NULL}; *bad; bad++) {
         if (PARSE(cmd, spelling, *bad) != 2)
            fail_msg("%s '%s' accepted", spelling, *bad);
         if (**bad)
            assert_message(range);
      }
   }
   assert_int_equal(PARSE("run", "--warmup", "2000000"), 2);
   assert_message("--warmup 2000000: use 0 to 1048576");
   assert_int_equal(PARSE("run", "--max-seconds", "nan"), 2);
   assert_message("--max-seconds nan: use more than 0, at most 86400");
   assert_int_equal(PARSE("run", "--seed", "-1"), 2); /* strtoull would wrap it to 2^64-1 */
   assert_message("use a whole number from 0 to 18446744073709551615");
   assert_int_equal(PARSE("run", "--seed", "0x10"), 0);
   assert_true(opts.timing.has_seed && opts.timing.seed == 16);
   /* A negative number is a value, not an option. */
   assert_int_equal(PARSE("run", "--alpha", "-1.5", "--beta=-2"), 0);
   assert_true(opts.shape.problem.alpha == -1.5 && opts.shape.problem.beta == -2 && opts.shape.has_alpha && opts.shape.has_beta);
   assert_int_equal(PARSE("banks", "--warp", "-1"), 2);
   assert_message("--warp -1: use 0 to 1048576");
}

/* A value is never the next option, never empty; flags take none. */
static void test_values(void **state) {
   (void)state;
   assert_int_equal(PARSE("run", "--kernel", "--size", "64"), 2); /* said "run takes no argument '64'" */
   assert_message("--kernel is missing its value (NAME): the next word, '--size', is an option");
   assert_int_equal(PARSE("run", "--preset", "-m", "64"), 2);
   assert_message("--preset is missing its value");
   assert_int_equal(PARSE("run", "--kernel"), 2);
   assert_message("--kernel is missing its value (NAME)");
   assert_int_equal(PARSE("run", "--device", ""), 2); /* was accepted */
   assert_message("--device needs a value (N|NAME|KIND), not an empty word");
   assert_int_equal(PARSE("run", "--device="), 2);
   assert_int_equal(PARSE("run", "--kernel=--odd"), 0); /* after '=' it is the value */
   assert_string_equal(opts.sel.kernel, "--odd");
   assert_int_equal(PARSE("run", "--no-verify=yes"), 2);
   assert_message("--no-verify takes no value");
   /* getopt_long's spellings still work. */
   assert_int_equal(PARSE("run", "-m64", "-n", "32", "--size=16", "-k8", "--kern", "x", "--set=A=1"), 0);
   assert_true(opts.shape.problem.m == 16 && opts.shape.problem.n == 16 && opts.shape.problem.k == 8 && opts.shape.has_m);
   assert_string_equal(opts.sel.kernel, "x");
   assert_string_equal(opts.sel.sets[0], "A=1");
   assert_int_equal(PARSE("run", "--si", "3"), 2);
   assert_message("--si is ambiguous: --size, --simulate, --sizes, --site, --simd-width");
   assert_int_equal(PARSE("run", "--bogus"), 2);
   assert_message("unknown option --bogus");
   assert_int_equal(PARSE("", "-Ux"), 2);
   assert_message("unknown option -x");
   assert_int_equal(PARSE("bench", "--", "--odd-preset"), 0);
   assert_string_equal(opts.positional[0], "--odd-preset");
   /* Words that are not options: only where the command takes them. */
   assert_int_equal(PARSE("run", "--kernel", "k", "64"), 2);
   assert_message("run takes no argument '64'");
   assert_int_equal(PARSE("list", "shapes", "skinny", "squares"), 2); /* list shapes SUITE: two at most */
   assert_message("'squares' is one too many");
   assert_int_equal(PARSE("", "stray"), 2);
   assert_message("the explorer takes no argument 'stray'");
   /* --set: the syntax here, the name and value against the kernel later (test_catalog). */
   assert_int_equal(PARSE("run", "--set", "=3"), 2);
   assert_message("write PARAM=VALUE");
   char name[80];
   memset(name, 'X', 70);
   strcpy(name + 70, "=4");
   assert_int_equal(PARSE("run", "--set", name), 0);
   const char *many[OPTIONS_MAX_SETS * 2 + 3];
   for (int i = 0; i < OPTIONS_MAX_SETS + 1; i++)
      many[2 * i] = "--set", many[2 * i + 1] = "A=1";
   many[2 * (OPTIONS_MAX_SETS + 1)] = NULL;
   assert_int_equal(parse("run", many), 2);
   assert_message("at most 32 --set options");
   /* Defaults from the table. */
   assert_int_equal(PARSE("bench", "--rounds", "2"), 0);
   assert_true(opts.timing.reps == 10 && opts.timing.warmup == 2 && opts.bench.rounds == 2 && opts.banks.groups == 1);
}

/* bench --sizes: read whole, refused whole; the limit named. */
static void test_sizes(void **state) {
   (void)state;
   BenchSize sizes[OPTIONS_MAX_SIZES];
   char text[512];
   /* 300 characters: the last size was cut at 255 ("000...064" read as 0 or 6). */
   memset(text, '0', 300);
   strcpy(text + 300, "64");
   assert_int_equal(Options_parseSizes(text, sizes, OPTIONS_MAX_SIZES, err, sizeof err), 1);
   assert_int_equal(sizes[0].m, 64);
   assert_true(sizes[0].n == 64 && sizes[0].k == 64);
   snprintf(text, sizeof text, "1024,%0250d,96", 2048);
   assert_int_equal(Options_parseSizes(text, sizes, OPTIONS_MAX_SIZES, err, sizeof err), 3);
   assert_true(sizes[0].m == 1024 && sizes[1].m == 2048 && sizes[2].m == 96);
   /* MxNxK beside square sizes (the DCU chapter's 64x64x128). */
   assert_int_equal(Options_parseSizes("32,64x64x128", sizes, OPTIONS_MAX_SIZES, err, sizeof err), 2);
   assert_true(sizes[0].k == 32 && sizes[1].m == 64 && sizes[1].n == 64 && sizes[1].k == 128);
   assert_int_equal(Options_parseSizes(NULL, sizes, OPTIONS_MAX_SIZES, err, sizeof err), 3);
   assert_true(sizes[0].m == 1024 && sizes[1].m == 2048 && sizes[2].m == 4096);
   /* 17 sizes: 16 were measured, the last dropped. */
   assert_int_equal(PARSE("bench", "--sizes", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17"), 2);
   assert_message("--sizes: at most 16 sizes, not 17");
   assert_int_equal(PARSE("bench", "--sizes", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"), 0);
   for (const char *const *bad = (const char *const[]){"64,,96", "64,", "0", "65537", "64x", "64x64", "64x64x", "x64x64", "64x0x64", "64x64x64x64", "64x-1x8", "zero", "", NULL}; *bad;
        bad++) {
      if (Options_parseSizes(*bad, sizes, OPTIONS_MAX_SIZES, err, sizeof err) != -1)
         fail_msg("--sizes '%s' accepted", *bad);
      assert_message("use N or MxNxK, whole numbers from 1 to 65536");
   }
}

/* The help lines that start with an option: their spellings. */
static int helpSpellings(CommandId c, char found[][32], int max) {
   FILE *f = tmpfile();
   assert_non_null(f);
   if (c == COMMAND_EXPLORER)
      Options_usage(f);
   else
      Options_commandUsage(f, c);
   rewind(f);
   char line[512];
   int n = 0;
   while (fgets(line, sizeof line, f))
      if (!strncmp(line, "  -", 3) && n < max) {
         /* "  -U, --ascii ..." gives --ascii; "  -m M ..." gives -m. */
         char *p = line + 2, *comma = strstr(p, ", --");
         if (comma && comma < p + 4)
            p = comma + 2;
         snprintf(found[n], sizeof found[n], "%.*s", (int)strcspn(p, " \n"), p);
         n++;
      }
   fclose(f);
   return n;
}

/* --help of each command lists exactly its options, each with its own help. */
static void test_help(void **state) {
   (void)state;
   size_t n;
   const OptionSpec *t = Options_table(&n);
   for (int c = 0; c < COMMAND_COUNT; c++) {
      char found[80][32];
      int nfound = helpSpellings((CommandId)c, found, 80), want = 0;
      /* by group (the headings), in table order within one, nothing between */
      for (int g = 0; g < GROUP_COUNT; g++)
         for (size_t r = 0; r < n; r++) {
            if (t[r].group != (OptionGroup)g || !((t[r].commands >> c) & 1))
               continue;
            char spelling[32];
            spell(&t[r], spelling, sizeof spelling);
            assert_true(want < nfound);
            assert_string_equal(found[want], spelling);
            want++;
         }
      assert_int_equal(nfound, want);
   }
   /* --rounds shows its own help (it showed --reference's). */
   FILE *f = tmpfile();
   Options_commandUsage(f, COMMAND_BENCH);
   rewind(f);
   char text[8192];
   size_t len = fread(text, 1, sizeof text - 1, f);
   text[len] = '\0';
   fclose(f);
   const char *rounds = strstr(text, "  --rounds R "), *next = rounds ? strstr(rounds + 1, "\n  -") : NULL;
   assert_non_null(next);
   assert_non_null(strstr(rounds, "take turns"));
   assert_true(strstr(rounds, "take turns") < next);
   const char *cublas = strstr(rounds, "cuBLAS"); /* --reference's help */
   assert_true(!cublas || cublas > next);
}

/* Random words (spellings, prefixes, values good and bad, "=" forms, "--"): whatever
 * comes, a usage error with a message, or options whose numbers are in their ranges. */
static void test_random_words(void **state) {
   (void)state;
   unsigned seed = (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
   srand(seed);
   static const char *const values[] = {"0", "1", "-1", "64", "1024", "1048577", "nan", "inf", "-0.5", "1e3", "",
                                        "x", "--", "-", "-m", "--size", "TSM=8", "=", "NN", "json", "4", "8",
                                        "no-a", "64,96", "0x10", "99999999999999999999"};
   size_t n;
   const OptionSpec *t = Options_table(&n);
   char words[16][80];
   for (int trial = 0; trial < 3000; trial++) {
      const char *argv[18];
      int nwords = rand() % 16;
      for (int w = 0; w < nwords; w++) {
         const OptionSpec *s = &t[(size_t)rand() % n];
         const char *v = values[(size_t)rand() % (sizeof values / sizeof values[0])];
         int form = rand() % 5;
         if (s->name && (!strcmp(s->name, "help") || !strcmp(s->name, "version")))
            form = 4; /* they print: a value instead */
         if (form == 0 && s->name)
            snprintf(words[w], sizeof words[w], "--%s", s->name);
         else if (form == 1 && s->name)
            snprintf(words[w], sizeof words[w], "--%s=%s", s->name, v);
         else if (form == 2 && s->name)
            snprintf(words[w], sizeof words[w], "--%.*s", 1 + rand() % (int)strlen(s->name), s->name);
         else if (form == 3 && s->letter && s->letter != 'h')
            snprintf(words[w], sizeof words[w], "-%c%s", s->letter, rand() % 2 ? v : "");
         else
            snprintf(words[w], sizeof words[w], "%s", v);
         argv[w] = words[w];
      }
      argv[nwords] = NULL;
      int c = rand() % COMMAND_COUNT;
      int rc = parse(commandName(c), argv);
      if (rc == 2) {
         if (!err[0])
            fail_msg("seed %u, trial %d: a usage error without a message", seed, trial);
         continue;
      }
      if (rc != 0)
         fail_msg("seed %u, trial %d: rc %d", seed, trial, rc);
      assert_true(opts.npositional <= Options_commands()[c].max_positional);
      assert_true(opts.timing.reps >= 1 && opts.timing.reps <= 1024 && opts.timing.warmup >= 0 && opts.bench.rounds >= 1 && opts.bench.rounds <= 32);
      assert_true(opts.shape.problem.m >= 1 && opts.shape.problem.n >= 1 && opts.shape.problem.k >= 1);
      assert_true(opts.timing.max_seconds >= 0 && opts.timing.max_seconds <= 86400 && opts.sweep.timeout >= 0 && opts.sweep.timeout <= 86400);
      assert_true(isfinite(opts.shape.problem.alpha) && isfinite(opts.shape.problem.beta));
      for (int i = 0; i < opts.sel.nsets; i++)
         assert_true(strchr(opts.sel.sets[i], '=') && opts.sel.sets[i][0] != '=');
      assert_true(!opts.sel.device || opts.sel.device[0]);
   }
}

/* ---- the man page ---- */

/* The text of a man page section without roff's escapes: "\-" is "-", fonts dropped. */
static char *section(const char *man, const char *name) {
   char head[64];
   snprintf(head, sizeof head, "\n.SH %s\n", name);
   const char *start = strstr(man, head);
   if (!start)
      fail_msg("the man page has no section %s", name);
   start += strlen(head);
   const char *end = strstr(start, "\n.SH ");
   size_t len = end ? (size_t)(end - start) : strlen(start);
   char *out = malloc(len + 1), *o = out;
   for (size_t i = 0; i < len; i++) {
      if (start[i] == '\\' && start[i + 1] == '-') {
         *o++ = '-';
         i++;
      } else if (start[i] == '\\' && start[i + 1] == 'f') {
         i += 2;
      } else {
         *o++ = start[i];
      }
   }
   *o = '\0';
   return out;
}

/* Whether text has the option spelled so, not as part of a longer one. */
static bool mentions(const char *text, const char *spelling) {
   size_t len = strlen(spelling);
   for (const char *p = strstr(text, spelling); p; p = strstr(p + 1, spelling)) {
      char before = p == text ? ' ' : p[-1], after = p[len];
      bool inside = before == '-' || isalnum((unsigned char)before) || isalnum((unsigned char)after) || after == '-';
      if (!inside)
         return true;
   }
   return false;
}

/* The tag lines of a section (the line after each .TP), one per line. */
static void tagLines(const char *text, char *out, size_t len) {
   out[0] = '\0';
   for (const char *p = strstr(text, ".TP\n"); p; p = strstr(p + 1, ".TP\n")) {
      const char *tag = p + 4;
      size_t n = strcspn(tag, "\n"), used = strlen(out);
      snprintf(out + used, len - used, "%.*s\n", (int)n, tag);
   }
}

/* The text after "Options:" in the COMMANDS entry whose tag is ".B name...". */
static void commandOptions(const char *commands, const char *name, char *out, size_t len) {
   char tag[64];
   snprintf(tag, sizeof tag, ".TP\n.B %s", name);
   const char *entry = strstr(commands, tag);
   while (entry && entry[strlen(tag)] != '\n' && entry[strlen(tag)] != ' ')
      entry = strstr(entry + 1, tag);
   if (!entry)
      fail_msg("COMMANDS has no entry for %s", name);
   const char *end = strstr(entry + 1, "\n.TP\n");
   const char *opts_at = strstr(entry, "Options:");
   if (!opts_at || (end && opts_at > end))
      fail_msg("the entry of %s in COMMANDS has no 'Options:' line", name);
   size_t n = end ? (size_t)(end - opts_at) : strlen(opts_at);
   snprintf(out, len, "%.*s", (int)n, opts_at);
}

static void test_man_page_options(void **state) {
   (void)state;
   char *man = Util_readFile(GEMMTOP_SOURCE_DIR "/docs/gemmtop.1", NULL);
   assert_non_null(man);
   char *options = section(man, "OPTIONS"), *commands = section(man, "COMMANDS");
   static char tags[16384], listed[4096];
   tagLines(options, tags, sizeof tags);
   size_t n;
   const OptionSpec *t = Options_table(&n);
   for (size_t r = 0; r < n; r++) {
      char spelling[32];
      spell(&t[r], spelling, sizeof spelling);
      if (!mentions(tags, spelling))
         fail_msg("OPTIONS has no entry for %s", spelling);
      for (int c = 0; c < COMMAND_COUNT && t[r].commands != (1u << COMMAND_COUNT) - 1; c++) {
         commandOptions(commands, c == COMMAND_EXPLORER ? "gemmtop" : commandName(c), listed, sizeof listed);
         bool takes = spellingTakes(t, n, spelling, c);
         if (takes != mentions(listed, spelling))
            fail_msg("the man page's options of %s %s %s", c == COMMAND_EXPLORER ? "the explorer" : commandName(c),
                     takes ? "lack" : "wrongly list", spelling);
      }
   }
   free(options);
   free(commands);
   free(man);
}

/* Every getenv("GEMMTOP_...") under dir, appended to names (one per line). */
static void envReads(const char *dir, char *names, size_t len) {
   DIR *d = opendir(dir);
   assert_non_null(d);
   struct dirent *e;
   while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
         continue;
      char path[2048];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      struct stat st;
      if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
         envReads(path, names, len);
         continue;
      }
      size_t plen = strlen(path);
      if (plen < 2 || (strcmp(path + plen - 2, ".c") && strcmp(path + plen - 2, ".h")))
         continue;
      char *text = Util_readFile(path, NULL);
      for (const char *p = text ? strstr(text, "getenv(\"GEMMTOP_") : NULL; p; p = strstr(p + 1, "getenv(\"GEMMTOP_")) {
         const char *name = p + strlen("getenv(\"");
         size_t used = strlen(names);
         snprintf(names + used, len - used, "%.*s\n", (int)strcspn(name, "\""), name);
      }
      free(text);
   }
   closedir(d);
}

static void test_man_page_environment(void **state) {
   (void)state;
   char *man = Util_readFile(GEMMTOP_SOURCE_DIR "/docs/gemmtop.1", NULL);
   assert_non_null(man);
   char *env = section(man, "ENVIRONMENT");
   static char names[8192], tags[4096];
   names[0] = '\0';
   envReads(GEMMTOP_SOURCE_DIR "/src", names, sizeof names);
   tagLines(env, tags, sizeof tags);
   int count = 0;
   for (const char *p = names; *p; p += strcspn(p, "\n") + 1, count++) {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)strcspn(p, "\n"), p);
      if (!mentions(tags, name))
         fail_msg("ENVIRONMENT of the man page has no entry for %s, which src/ reads", name);
   }
   assert_true(count >= 10); /* the scan found the reads */
   free(env);
   free(man);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_commands_take_their_options),
       cmocka_unit_test(test_groups_declared),
       cmocka_unit_test(test_numbers_name_their_range),
       cmocka_unit_test(test_values),
       cmocka_unit_test(test_sizes),
       cmocka_unit_test(test_random_words),
       cmocka_unit_test(test_help),
       cmocka_unit_test(test_man_page_options),
       cmocka_unit_test(test_man_page_environment),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
