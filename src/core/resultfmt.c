#include "core/resultfmt.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/textbuf.h"
#include "base/util.h"

static const struct {
   const char *name, *title;
   bool writable;
} kFormats[RESULT_FORMAT_COUNT] = {
    [RESULT_FORMAT_CSV] = {"csv", "CSV", true},
    [RESULT_FORMAT_JSONL] = {"jsonl", "JSON Lines", true},
    [RESULT_FORMAT_T4] = {"t4", "Kernel Tuner T4", true},
    [RESULT_FORMAT_CLBLAST] = {"clblast", "CLBlast tuner", false},
};

const char *ResultFormat_name(ResultFormat f) { return f < RESULT_FORMAT_COUNT ? kFormats[f].name : "?"; }
const char *ResultFormat_title(ResultFormat f) { return f < RESULT_FORMAT_COUNT ? kFormats[f].title : "?"; }

bool ResultFormat_parse(const char *name, ResultFormat *out) {
   for (int f = 0; f < RESULT_FORMAT_COUNT; f++)
      if (!strcmp(name, kFormats[f].name)) {
         *out = (ResultFormat)f;
         return true;
      }
   return false;
}

/* ---- time ---- */

void ResultFmt_isoTime(long long t, char out[32]) {
   time_t tt = (time_t)t;
   struct tm tm;
   if (!gmtime_r(&tt, &tm) || !strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm))
      snprintf(out, 32, "%lld", t);
}

bool ResultFmt_parseTime(const char *s, long long *t) {
   struct tm tm = {0};
   int used = 0;
   if (sscanf(s, "%4d-%2d-%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &used) != 3 || used != 10)
      return false;
   const char *p = s + 10;
   if (*p == 'T' || *p == ' ') {
      if (sscanf(p + 1, "%2d:%2d:%2d%n", &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 3 || used != 8)
         return false;
      p += 9;
      if (*p == '.')
         for (p++; isdigit((unsigned char)*p); p++)
            ;
   }
   long offset = 0;
   if (*p == 'Z') {
      p++;
   } else if (*p == '+' || *p == '-') {
      int hh, mm;
      if (sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &used) != 2 || used != 5)
         return false;
      offset = (*p == '-' ? -1 : 1) * (hh * 3600L + mm * 60L);
      p += 6;
   }
   if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
       tm.tm_min > 59 || tm.tm_sec > 60)
      return false;
   tm.tm_year -= 1900;
   tm.tm_mon -= 1;
   *t = (long long)timegm(&tm) - offset;
   return true;
}

/* ---- writing ---- */

static const char CSV_HEADER[] =
    "id,time,origin,version,backend,device,driver,arch,kernel,kernel_hash,params,m,n,k,precision,layout,alpha,beta,"
    "outcome,reason,verified,emulated,cold_l2,reps,median_ms,min_ms,max_ms,spread_pct,gflops,compile_ms,"
    "max_rel_err,sm_mhz,mem_mhz,power_w,temp_c,energy_j,gflops_per_w,throttled,throttle_reason,sweep_key,"
    "scaling\n";

/* CSV field, not the row's last (Util_csvField). */
static void csvText(FILE *out, const char *s) { Util_csvField(out, s, false); }

/* An unknown figure is an empty field; the rest round-trip (17 significant digits). */
static void csvNumber(FILE *out, double v) {
   if (isfinite(v)) {
      char text[32];
      for (int digits = 15; digits <= 17; digits++) { /* the shortest that reads back the same */
         snprintf(text, sizeof text, "%.*g", digits, v);
         if (strtod(text, NULL) == v)
            break;
      }
      fputs(text, out);
   }
   fputc(',', out);
}

/* An observation's figure, unknown (NaN) when the driver gave none. */
static double observed(const StoreRecord *r, double v) { return r->obs.known ? v : NAN; }

static void writeCsv(FILE *out, const StoreRecord *r) {
   char when[32], layout[3];
   ResultFmt_isoTime(r->time, when);
   Problem_layoutName(&r->problem, layout);
   fprintf(out, "%lld,%s,", r->id, when);
   const char *texts[] = {r->origin, r->version, r->backend, r->device, r->driver, r->arch, r->kernel,
                          r->kernel_hash, r->params};
   for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
      csvText(out, texts[i]);
   fprintf(out, "%d,%d,%d,%s,%s,", r->problem.m, r->problem.n, r->problem.k, Precision_name(r->problem.precision),
           layout);
   csvNumber(out, r->problem.alpha);
   csvNumber(out, r->problem.beta);
   csvText(out, r->outcome);
   csvText(out, r->reason);
   fprintf(out, "%d,%d,%d,%d,", r->verified, r->emulated, r->cold_l2, r->reps);
   const double figures[] = {r->median_ms,   r->min_ms,
                             r->max_ms,      r->spread_pct,
                             r->gflops,      r->compile_ms,
                             r->max_rel_err, observed(r, r->obs.sm_mhz),
                             observed(r, r->obs.mem_mhz), observed(r, r->obs.power_w),
                             observed(r, r->obs.temp_c),  observed(r, r->obs.energy_j),
                             observed(r, r->obs.gflops_per_w)};
   for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
      csvNumber(out, figures[i]);
   fprintf(out, "%d,", r->obs.throttled);
   csvText(out, r->obs.throttle_reason);
   fprintf(out, "%s,%s\n", r->sweep_key, Problem_scaled(&r->problem) ? Scaling_name(r->problem.scaling) : "");
}

/* The record as a JSON object with the CSV's keys (cJSON writes NaN as null and every
 * number so that it reads back the same). */
static cJSON *recordObject(const StoreRecord *r) {
   char when[32], layout[3];
   ResultFmt_isoTime(r->time, when);
   Problem_layoutName(&r->problem, layout);
   cJSON *o = cJSON_CreateObject();
   cJSON_AddNumberToObject(o, "id", (double)r->id);
   cJSON_AddStringToObject(o, "time", when);
   const struct {
      const char *key, *value;
   } texts[] = {{"origin", r->origin}, {"version", r->version},         {"backend", r->backend},
                {"device", r->device}, {"driver", r->driver},           {"arch", r->arch},
                {"kernel", r->kernel}, {"kernel_hash", r->kernel_hash}, {"params", r->params}};
   for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
      cJSON_AddStringToObject(o, texts[i].key, texts[i].value);
   cJSON_AddNumberToObject(o, "m", r->problem.m);
   cJSON_AddNumberToObject(o, "n", r->problem.n);
   cJSON_AddNumberToObject(o, "k", r->problem.k);
   cJSON_AddStringToObject(o, "precision", Precision_name(r->problem.precision));
   cJSON_AddStringToObject(o, "layout", layout);
   cJSON_AddNumberToObject(o, "alpha", r->problem.alpha);
   cJSON_AddNumberToObject(o, "beta", r->problem.beta);
   cJSON_AddStringToObject(o, "outcome", r->outcome);
   cJSON_AddStringToObject(o, "reason", r->reason);
   cJSON_AddBoolToObject(o, "verified", r->verified);
   cJSON_AddBoolToObject(o, "emulated", r->emulated);
   cJSON_AddBoolToObject(o, "cold_l2", r->cold_l2);
   cJSON_AddNumberToObject(o, "reps", r->reps);
   const struct {
      const char *key;
      double value;
   } figures[] = {{"median_ms", r->median_ms},     {"min_ms", r->min_ms},         {"max_ms", r->max_ms},
                  {"spread_pct", r->spread_pct},   {"gflops", r->gflops},         {"compile_ms", r->compile_ms},
                  {"max_rel_err", r->max_rel_err}, {"sm_mhz", observed(r, r->obs.sm_mhz)},
                  {"mem_mhz", observed(r, r->obs.mem_mhz)},        {"power_w", observed(r, r->obs.power_w)},
                  {"temp_c", observed(r, r->obs.temp_c)},          {"energy_j", observed(r, r->obs.energy_j)},
                  {"gflops_per_w", observed(r, r->obs.gflops_per_w)}};
   for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
      cJSON_AddNumberToObject(o, figures[i].key, figures[i].value);
   cJSON_AddBoolToObject(o, "throttled", r->obs.throttled);
   cJSON_AddStringToObject(o, "throttle_reason", r->obs.throttle_reason);
   cJSON_AddStringToObject(o, "sweep_key", r->sweep_key);
   cJSON_AddStringToObject(o, "scaling", Problem_scaled(&r->problem) ? Scaling_name(r->problem.scaling) : "");
   return o;
}

/* T4's invalidity: what kept a configuration from a valid result ("correct": none). */
static const char *t4Invalidity(const char *outcome) {
   static const char *const map[][2] = {{"ok", "correct"},         {"wrong", "correctness"}, {"compile", "compile"},
                                        {"timeout", "timeout"},    {"invalid", "constraints"}, {"failed", "runtime"}};
   for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
      if (!strcmp(outcome, map[i][0]))
         return map[i][1];
   return "runtime";
}

/* "TS=32 WPT=8" as {"TS": 32, "WPT": 8}: numbers where the value is one. */
static cJSON *configurationObject(const char *params) {
   cJSON *c = cJSON_CreateObject();
   char buf[sizeof ((StoreRecord *)0)->params];
   Util_copy(buf, sizeof buf, params);
   for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
      char *eq = strchr(tok, '=');
      if (!eq)
         continue;
      *eq = '\0';
      char *end;
      double v = strtod(eq + 1, &end);
      if (end != eq + 1 && !*end && isfinite(v))
         cJSON_AddNumberToObject(c, tok, v);
      else
         cJSON_AddStringToObject(c, tok, eq + 1);
   }
   return c;
}

static void addMeasurement(cJSON *list, const char *name, double value, const char *unit) {
   if (!isfinite(value)) /* T4's values are numbers: an unknown one is left out */
      return;
   cJSON *m = cJSON_CreateObject();
   cJSON_AddStringToObject(m, "name", name);
   cJSON_AddNumberToObject(m, "value", value);
   cJSON_AddStringToObject(m, "unit", unit);
   cJSON_AddItemToArray(list, m);
}

/* One T4 result: Kernel Tuner's keys (times in milliseconds, as its metadata says), and
 * gemmtop's context under "gemmtop" so that the file reads back whole. */
static cJSON *t4Result(const StoreRecord *r) {
   char when[32];
   ResultFmt_isoTime(r->time, when);
   cJSON *o = cJSON_CreateObject();
   cJSON_AddStringToObject(o, "timestamp", when);
   cJSON_AddItemToObject(o, "configuration", configurationObject(r->params));
   cJSON *objectives = cJSON_AddArrayToObject(o, "objectives");
   cJSON_AddItemToArray(objectives, cJSON_CreateString("time"));
   cJSON *times = cJSON_AddObjectToObject(o, "times");
   if (isfinite(r->compile_ms))
      cJSON_AddNumberToObject(times, "compilation_time", r->compile_ms);
   cJSON_AddArrayToObject(times, "runtimes");
   cJSON_AddStringToObject(o, "invalidity", t4Invalidity(r->outcome));
   cJSON_AddNumberToObject(o, "correctness", r->verified ? 1 : 0);
   cJSON *ms = cJSON_AddArrayToObject(o, "measurements");
   addMeasurement(ms, "time", r->median_ms, "ms");
   addMeasurement(ms, "time_min", r->min_ms, "ms");
   addMeasurement(ms, "time_max", r->max_ms, "ms");
   addMeasurement(ms, "GFLOP/s", r->gflops, "GFLOP/s");
   addMeasurement(ms, "max_rel_err", r->max_rel_err, "");
   addMeasurement(ms, "power", observed(r, r->obs.power_w), "W");
   addMeasurement(ms, "sm_clock", observed(r, r->obs.sm_mhz), "MHz");
   addMeasurement(ms, "energy", observed(r, r->obs.energy_j), "J");
   cJSON *ctx = recordObject(r);
   cJSON_AddItemToObject(o, "gemmtop", ctx);
   return o;
}

bool ResultWriter_begin(ResultWriter *w, FILE *out, ResultFormat f) {
   *w = (ResultWriter){.out = out, .format = f};
   if (f >= RESULT_FORMAT_COUNT || !kFormats[f].writable)
      return false;
   if (f == RESULT_FORMAT_CSV)
      fputs(CSV_HEADER, out);
   else if (f == RESULT_FORMAT_T4)
      fprintf(out, "{\"schema_version\":\"%s\",\"metadata\":{\"timeunit\":\"milliseconds\",\"generator\":\"gemmtop "
                   "%s\"},\"results\":[",
              RESULT_T4_VERSION, GEMMTOP_VERSION);
   return true;
}

void ResultWriter_row(ResultWriter *w, const StoreRecord *r) {
   if (w->format == RESULT_FORMAT_CSV) {
      writeCsv(w->out, r);
   } else {
      cJSON *o = w->format == RESULT_FORMAT_T4 ? t4Result(r) : recordObject(r);
      char *text = cJSON_PrintUnformatted(o);
      if (w->format == RESULT_FORMAT_T4)
         fprintf(w->out, "%s\n%s", w->rows ? "," : "", text ? text : "{}");
      else
         fprintf(w->out, "%s\n", text ? text : "{}");
      cJSON_free(text);
      cJSON_Delete(o);
   }
   w->rows++;
}

void ResultWriter_end(ResultWriter *w) {
   if (w->format == RESULT_FORMAT_T4)
      fputs("\n]}\n", w->out);
}

/* ---- reading ---- */

/* The elements of the results array: from the parsed tree, or (a long file) parsed one at
 * a time from the text, so that memory holds one element's tree, not the whole file's. */
typedef struct Elements_ {
   const cJSON *next;         /* tree mode: the next element */
   const char *text;          /* stream mode: the file's text, */
   size_t pos, end;           /* the position in the array and the offset of its ']' */
   cJSON *owned;              /* the element parsed last (stream mode) */
   bool streaming;
} Elements;

typedef struct Reader_ {
   const char *name;          /* the file, for messages */
   const ImportLabels *labels;
   long long file_time;
   char *err;
   size_t errlen;
   Elements elements;
   ImportRowFn sink;          /* each row as it is read */
   void *sink_ctx;
   long rows;
} Reader;

static bool refuse(Reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(Reader *rd, const char *fmt, ...) {
   int used = snprintf(rd->err, rd->errlen, "%s: ", rd->name);
   va_list ap;
   va_start(ap, fmt);
   if (used >= 0 && (size_t)used < rd->errlen)
      vsnprintf(rd->err + used, rd->errlen - (size_t)used, fmt, ap);
   va_end(ap);
   return false;
}

static const char *jsonKind(const cJSON *v) {
   return !v                   ? "nothing"
          : cJSON_IsString(v)  ? "a string"
          : cJSON_IsNumber(v)  ? "a number"
          : cJSON_IsBool(v)    ? "true or false"
          : cJSON_IsNull(v)    ? "null"
          : cJSON_IsArray(v)   ? "an array"
                               : "an object";
}

/* Text into a fixed field: refused, naming the field, when it does not fit whole. */
/* Text from another tool's file that gemmtop keeps and prints: no control character, so
 * that listing it can never move the cursor, clear the screen or retitle a terminal. */
static bool plainText(Reader *rd, const char *text, const char *field) {
   size_t len = strlen(text), at = Util_findControl(text, len, NULL);
   if (at == len)
      return true;
   char name[8];
   Util_controlName((unsigned char)text[at], name);
   return refuse(rd, "%s holds a control character (%s at byte %zu); names and values are printable text", field,
                 name, at + 1);
}

static bool copyText(Reader *rd, char *out, size_t outlen, const char *text, const char *field) {
   if (!plainText(rd, text, field))
      return false;
   if (!Util_copyWhole(out, outlen, text))
      return refuse(rd, "%s is too long (%zu characters; at most %zu)", field, strlen(text), outlen - 1);
   return true;
}

/* A string member, or NULL when absent; refused (false) when present and not a string. */
static bool optString(Reader *rd, const cJSON *obj, const char *key, const char *where, const char **out) {
   const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
   *out = NULL;
   if (!v)
      return true;
   if (!cJSON_IsString(v))
      return refuse(rd, "%s%s\"%s\" should be a string, not %s", where, *where ? "." : "", key, jsonKind(v));
   *out = v->valuestring;
   return true;
}

/* A positive whole number from a number or a string ("4096", as CLBlast writes them). */
static bool wholeNumber(const cJSON *v, int *out) {
   double x = NAN;
   if (cJSON_IsNumber(v)) {
      x = v->valuedouble;
   } else if (cJSON_IsString(v)) {
      char *end;
      x = strtod(v->valuestring, &end);
      if (end == v->valuestring || *end)
         return false;
   }
   if (!(x >= 1 && x <= 1 << 30) || x != floor(x))
      return false;
   *out = (int)x;
   return true;
}

/* The problem's sizes and type from the labels where given. */
static void applyLabels(const Reader *rd, StoreRecord *r) {
   const ImportLabels *l = rd->labels;
   if (!l)
      return;
   if (l->m > 0) {
      r->problem.m = l->m;
      r->problem.n = l->n;
      r->problem.k = l->k;
   }
   if (l->precision >= 0)
      r->problem.precision = (Precision)l->precision;
}

/* "TS=32 WPT=8" from a configuration object: numbers as %.17g, strings as they are;
 * skip (may be NULL) names a member that is not a parameter. */
static bool paramsText(Reader *rd, const cJSON *config, const char *skip, const char *where, char *out,
                       size_t outlen) {
   out[0] = '\0';
   const cJSON *p;
   cJSON_ArrayForEach(p, config) {
      if (skip && !strcmp(p->string, skip))
         continue;
      char value[64], field[96];
      snprintf(field, sizeof field, "%s.configuration key", where);
      if (!plainText(rd, p->string, field))
         return false;
      if (cJSON_IsString(p)) {
         snprintf(field, sizeof field, "%s.\"%s\"", where, p->string);
         if (!plainText(rd, p->valuestring, field))
            return false;
      }
      if (cJSON_IsNumber(p) && !isfinite(p->valuedouble))
         return refuse(rd, "%s.\"%s\": not a finite number (too large for a double)", where, p->string);
      if (cJSON_IsNumber(p))
         snprintf(value, sizeof value, "%.17g", p->valuedouble);
      else if (cJSON_IsString(p) && !strchr(p->valuestring, ' ') && strlen(p->valuestring) < sizeof value)
         snprintf(value, sizeof value, "%s", p->valuestring);
      else if (cJSON_IsBool(p))
         snprintf(value, sizeof value, "%d", cJSON_IsTrue(p));
      else
         return refuse(rd, "%s.\"%s\": a parameter's value should be a number or a word, not %s", where, p->string,
                       jsonKind(p));
      size_t used = strlen(out);
      int len = snprintf(out + used, outlen - used, "%s%s=%s", used ? " " : "", p->string, value);
      if (len < 0 || (size_t)len >= outlen - used)
         return refuse(rd, "%s: the parameters are too long (at most %zu characters)", where, outlen - 1);
   }
   return true;
}

/* ---- the results array, element by element ---- */

static void lineColumn(const char *text, size_t offset, int *line, int *column);

static size_t skipSpace(const char *t, size_t i, size_t end) {
   while (i < end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
      i++;
   return i;
}

static bool refuseAt(Reader *rd, const char *text, size_t offset, const char *what) {
   int line, column;
   lineColumn(text, offset, &line, &column);
   return refuse(rd, "line %d, column %d: %s", line, column, what);
}

/* The next element of the results array (tree: array's children; stream: parsed from
 * the text, the one before freed), or NULL at its end or, with *failed, on an error. */
static const cJSON *nextElement(Reader *rd, const cJSON *array, bool *failed) {
   Elements *e = &rd->elements;
   if (!e->streaming) {
      const cJSON *v = e->next == array ? array->child : e->next;
      e->next = v ? v->next : NULL;
      if (!v)
         e->next = array; /* an empty array, or its end: stays at the end */
      return v;
   }
   cJSON_Delete(e->owned);
   e->owned = NULL;
   size_t i = skipSpace(e->text, e->pos, e->end);
   if (i >= e->end)
      return NULL;
   if (e->pos > 0 && e->text[e->pos - 1] != '[') {
      /* After an element: a comma, then the next one. */
      if (e->text[i] != ',') {
         refuseAt(rd, e->text, i, "invalid JSON: expected ',' or ']' after an element of results");
         *failed = true;
         return NULL;
      }
      i = skipSpace(e->text, i + 1, e->end);
   }
   const char *after = NULL;
   e->owned = cJSON_ParseWithLengthOpts(e->text + i, e->end - i, &after, false);
   if (!e->owned) {
      const char *at = cJSON_GetErrorPtr();
      size_t off = at && at >= e->text && at <= e->text + e->end ? (size_t)(at - e->text) : i;
      refuseAt(rd, e->text, off, "invalid JSON");
      *failed = true;
      return NULL;
   }
   e->pos = (size_t)(after - e->text);
   return e->owned;
}

/* Hands a finished row to the sink. */
static bool giveRow(Reader *rd, StoreRecord *r) {
   rd->rows++;
   return !rd->sink || rd->sink(r, rd->sink_ctx) || refuse(rd, "stopped at result %ld", rd->rows - 1);
}

/* Where the root object's member "results" holds an array: the offsets of its '[' and
 * ']', found by a scan that knows JSON's strings and nesting, so that a long file's root
 * can be parsed without its results. False when the scan does not find one (the whole
 * text is then parsed, and its errors are named as ever). */
static bool findResultsArray(const char *t, size_t len, size_t *open, size_t *close) {
   size_t i = skipSpace(t, 0, len);
   if (i >= len || t[i] != '{')
      return false;
   int depth = 0;
   size_t arrayAt = 0;
   bool inArray = false;
   for (; i < len; i++) {
      char c = t[i];
      if (c == '"') {
         size_t start = ++i;
         while (i < len && t[i] != '"')
            i += t[i] == '\\' ? 2 : 1;
         if (i >= len)
            return false;
         if (depth == 1 && !inArray && i - start == 7 && !memcmp(t + start, "results", 7)) {
            size_t j = skipSpace(t, i + 1, len);
            if (j < len && t[j] == ':') {
               j = skipSpace(t, j + 1, len);
               if (j >= len || t[j] != '[')
                  return false;
               arrayAt = j;
               inArray = true;
               depth++;
               i = j;
            }
         }
         continue;
      }
      if (c == '{' || c == '[')
         depth++;
      else if (c == '}' || c == ']') {
         depth--;
         if (inArray && depth == 1) {
            *open = arrayAt;
            *close = i;
            return true;
         }
         if (depth < 0)
            return false;
      }
   }
   return false;
}

/* ---- T4 ---- */

/* A time in milliseconds from a value in unit ("" is the file's time unit). */
static bool toMs(double v, const char *unit, double file_scale, double *ms) {
   static const struct {
      const char *unit;
      double scale;
   } units[] = {{"ms", 1}, {"s", 1e3}, {"us", 1e-3}, {"ns", 1e-6}, {"milliseconds", 1}, {"seconds", 1e3}};
   double scale = unit && *unit ? NAN : file_scale;
   for (size_t i = 0; i < sizeof units / sizeof units[0] && unit && *unit; i++)
      if (!strcmp(unit, units[i].unit))
         scale = units[i].scale;
   *ms = v * scale;
   return isfinite(*ms);
}

/* gemmtop's own context of a result (its T4 export), read back where present. */
static bool readContext(Reader *rd, const cJSON *ctx, const char *where, StoreRecord *r) {
   struct {
      const char *key;
      char *out;
      size_t len;
   } texts[] = {{"backend", r->backend, sizeof r->backend}, {"device", r->device, sizeof r->device},
                {"driver", r->driver, sizeof r->driver},    {"arch", r->arch, sizeof r->arch},
                {"kernel", r->kernel, sizeof r->kernel},    {"kernel_hash", r->kernel_hash, sizeof r->kernel_hash},
                {"reason", r->reason, sizeof r->reason}};
   for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
      const char *v;
      char field[96];
      snprintf(field, sizeof field, "%s.gemmtop.%s", where, texts[i].key);
      if (!optString(rd, ctx, texts[i].key, "", &v) || (v && !copyText(rd, texts[i].out, texts[i].len, v, field)))
         return false;
   }
   int *dims[] = {&r->problem.m, &r->problem.n, &r->problem.k};
   static const char *const dimNames[] = {"m", "n", "k"};
   for (int d = 0; d < 3; d++) {
      const cJSON *v = cJSON_GetObjectItemCaseSensitive(ctx, dimNames[d]);
      if (v && !wholeNumber(v, dims[d]))
         return refuse(rd, "%s.gemmtop.%s should be a whole number from 1, not %s", where, dimNames[d], jsonKind(v));
   }
   const char *prec, *layout;
   if (!optString(rd, ctx, "precision", "", &prec) || !optString(rd, ctx, "layout", "", &layout))
      return false;
   if (prec && !Precision_parse(prec, &r->problem.precision))
      return refuse(rd, "%s.gemmtop.precision '%s': use float, double, tf32, half, bfloat16, e4m3 or e5m2", where, prec);
   if (layout && !Problem_parseLayout(&r->problem, layout))
      return refuse(rd, "%s.gemmtop.layout '%s': use NN, NT, TN or TT", where, layout);
   const char *scaling;
   if (!optString(rd, ctx, "scaling", "", &scaling))
      return false;
   if (scaling && *scaling && !Scaling_parse(scaling, &r->problem.scaling))
      return refuse(rd, "%s.gemmtop.scaling '%s': use tensor or block (or \"\" for a type without scales)", where,
                    scaling);
   const struct {
      const char *key;
      double *out;
   } numbers[] = {{"alpha", &r->problem.alpha},   {"beta", &r->problem.beta},       {"spread_pct", &r->spread_pct},
                  {"compile_ms", &r->compile_ms}, {"max_rel_err", &r->max_rel_err}, {"min_ms", &r->min_ms},
                  {"max_ms", &r->max_ms}};
   for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
      const cJSON *v = cJSON_GetObjectItemCaseSensitive(ctx, numbers[i].key);
      if (cJSON_IsNumber(v))
         *numbers[i].out = v->valuedouble;
   }
   const cJSON *reps = cJSON_GetObjectItemCaseSensitive(ctx, "reps");
   if (cJSON_IsNumber(reps))
      r->reps = (int)reps->valuedouble;
   bool *flags[] = {&r->verified, &r->emulated, &r->cold_l2};
   static const char *const flagNames[] = {"verified", "emulated", "cold_l2"};
   for (int f = 0; f < 3; f++) {
      const cJSON *v = cJSON_GetObjectItemCaseSensitive(ctx, flagNames[f]);
      if (cJSON_IsBool(v))
         *flags[f] = cJSON_IsTrue(v);
   }
   return true;
}

/* The figures of measurements[]: "time" (Kernel Tuner's objective) and gemmtop's own. */
static bool readMeasurements(Reader *rd, const cJSON *list, const char *where, double file_scale, StoreRecord *r) {
   if (!list)
      return true;
   if (!cJSON_IsArray(list))
      return refuse(rd, "%s.measurements should be an array, not %s", where, jsonKind(list));
   int i = 0;
   const cJSON *m;
   cJSON_ArrayForEach(m, list) {
      const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "name"), *value = cJSON_GetObjectItemCaseSensitive(m, "value");
      const char *unit;
      char here[64];
      snprintf(here, sizeof here, "%s.measurements[%d]", where, i++);
      if (!cJSON_IsString(name) || !optString(rd, m, "unit", here, &unit))
         continue;
      const char *n = name->valuestring;
      bool kept = !strcmp(n, "time") || !strcmp(n, "time_min") || !strcmp(n, "time_max") ||
                  !strcasecmp(n, "GFLOP/s") || !strcasecmp(n, "gflops") || !strcmp(n, "max_rel_err") ||
                  !strcmp(n, "power") || !strcmp(n, "sm_clock") || !strcmp(n, "energy");
      if (!cJSON_IsNumber(value)) {
         if (kept) /* T4 allows strings and arrays as values, but not for the figures gemmtop keeps */
            return refuse(rd, "%s.value of \"%s\" should be a number, not %s", here, n, jsonKind(value));
         continue;
      }
      if (kept && !isfinite(value->valuedouble))
         return refuse(rd, "%s.value of \"%s\" is not a finite number (too large for a double)", here, n);
      double ms;
      if (!strcmp(n, "time") || !strcmp(n, "time_min") || !strcmp(n, "time_max")) {
         if (!toMs(value->valuedouble, unit, file_scale, &ms))
            return refuse(rd, "%s: unit '%s' is not a time unit (ms, s, us, ns)", here, unit ? unit : "");
         *(!strcmp(n, "time") ? &r->median_ms : !strcmp(n, "time_min") ? &r->min_ms : &r->max_ms) = ms;
      } else if (!strcasecmp(n, "GFLOP/s") || !strcasecmp(n, "gflops")) {
         r->gflops = value->valuedouble;
      } else if (!strcmp(n, "max_rel_err")) {
         r->max_rel_err = value->valuedouble;
      } else if (!strcmp(n, "power")) {
         r->obs.power_w = value->valuedouble;
         r->obs.known = true;
      } else if (!strcmp(n, "sm_clock")) {
         r->obs.sm_mhz = value->valuedouble;
         r->obs.known = true;
      } else if (!strcmp(n, "energy")) {
         r->obs.energy_j = value->valuedouble;
         r->obs.known = true;
      }
   }
   return true;
}

/* Kernel Tuner's runtimes (each launch) when no "time" was measured: their mean, as its
 * "time" is. */
static void runtimesMean(const cJSON *times, double file_scale, StoreRecord *r) {
   const cJSON *rt = cJSON_GetObjectItemCaseSensitive(times, "runtimes"), *t;
   double sum = 0;
   int n = 0;
   cJSON_ArrayForEach(t, rt) if (cJSON_IsNumber(t)) {
      sum += t->valuedouble;
      n++;
   }
   if (n && !isfinite(r->median_ms))
      r->median_ms = sum / n * file_scale;
   if (n && r->reps <= 0)
      r->reps = n;
}

static const char *outcomeOf(const char *invalidity) {
   static const char *const map[][2] = {{"correct", "ok"},     {"correctness", "wrong"}, {"compile", "compile"},
                                        {"timeout", "timeout"}, {"constraints", "invalid"}, {"runtime", "failed"}};
   for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
      if (!strcmp(invalidity, map[i][0]))
         return map[i][1];
   return NULL;
}

static bool readT4Result(Reader *rd, const cJSON *res, int index, double file_scale, const char *version,
                         StoreRecord *r) {
   char where[32];
   snprintf(where, sizeof where, "results[%d]", index);
   StoreRecord_init(r, "t4");
   Util_copy(r->version, sizeof r->version, version);
   r->time = rd->file_time;
   if (!cJSON_IsObject(res))
      return refuse(rd, "%s should be an object, not %s", where, jsonKind(res));
   static const char *const required[] = {"configuration", "times", "invalidity", "correctness"};
   for (int i = 0; i < 4; i++)
      if (!cJSON_GetObjectItemCaseSensitive(res, required[i]))
         return refuse(rd, "%s has no \"%s\" (a T4 result needs configuration, times, invalidity and correctness)",
                       where, required[i]);
   const cJSON *config = cJSON_GetObjectItemCaseSensitive(res, "configuration"),
               *times = cJSON_GetObjectItemCaseSensitive(res, "times"),
               *invalidity = cJSON_GetObjectItemCaseSensitive(res, "invalidity"),
               *correctness = cJSON_GetObjectItemCaseSensitive(res, "correctness"),
               *ctx = cJSON_GetObjectItemCaseSensitive(res, "gemmtop");
   if (!cJSON_IsObject(config) || !cJSON_IsObject(times) || !cJSON_IsNumber(correctness))
      return refuse(rd, "%s: configuration and times should be objects and correctness a number (they are %s, %s "
                    "and %s)", where, jsonKind(config), jsonKind(times), jsonKind(correctness));
   const char *outcome = cJSON_IsString(invalidity) ? outcomeOf(invalidity->valuestring) : NULL;
   if (!outcome)
      return refuse(rd, "%s.invalidity should be one of timeout, compile, runtime, correctness, constraints or "
                    "correct", where);
   Util_copy(r->outcome, sizeof r->outcome, outcome);
   r->verified = !strcmp(outcome, "ok") && correctness->valuedouble == 1;
   const char *stamp;
   if (!optString(rd, res, "timestamp", where, &stamp))
      return false;
   if (stamp && !ResultFmt_parseTime(stamp, &r->time))
      return refuse(rd, "%s.timestamp '%s' is not a time (write 2026-03-31T14:05:09Z)", where, stamp);
   if (!paramsText(rd, config, NULL, where, r->params, sizeof r->params))
      return false;
   const cJSON *compile = cJSON_GetObjectItemCaseSensitive(times, "compilation_time");
   if (!compile) /* what Kernel Tuner itself writes */
      compile = cJSON_GetObjectItemCaseSensitive(times, "compilation");
   if (cJSON_IsNumber(compile))
      r->compile_ms = compile->valuedouble * file_scale;
   if (ctx && !cJSON_IsObject(ctx))
      return refuse(rd, "%s.gemmtop should be an object, not %s", where, jsonKind(ctx));
   if ((ctx && !readContext(rd, ctx, where, r)) ||
       !readMeasurements(rd, cJSON_GetObjectItemCaseSensitive(res, "measurements"), where, file_scale, r))
      return false;
   runtimesMean(times, file_scale, r);
   if (!isnan(r->median_ms) && !(r->median_ms > 0 && isfinite(r->median_ms)))
      return refuse(rd, "%s: a time of %g ms; a time is a finite number more than 0", where, r->median_ms);
   return true;
}

/* What every imported row needs, from the file or the labels; and its GFLOPS from the
 * problem when the file gives only the time. */
static bool finishRecord(Reader *rd, StoreRecord *r, const char *where, const char *tool) {
   const ImportLabels *l = rd->labels;
   if (l && l->device && !copyText(rd, r->device, sizeof r->device, l->device, "--device"))
      return false;
   if (l && l->kernel && !copyText(rd, r->kernel, sizeof r->kernel, l->kernel, "--kernel"))
      return false;
   applyLabels(rd, r);
   const char *missing = !r->device[0] ? "device" : !r->kernel[0] ? "kernel" : r->problem.m <= 0 ? "size" : NULL;
   if (missing) {
      const char *option = !strcmp(missing, "device") ? "--device NAME"
                           : !strcmp(missing, "kernel") ? "--kernel NAME"
                                                        : "--size M,N,K";
      return refuse(rd, "%s: the %s file names no %s for its results; say which with %s", where, tool, missing,
                    option);
   }
   if (!isfinite(r->gflops) && isfinite(r->median_ms) && r->median_ms > 0 && !strcmp(r->outcome, "ok"))
      r->gflops = Problem_flops(&r->problem) / (r->median_ms * 1e6);
   return true;
}

static bool readT4(Reader *rd, const cJSON *root) {
   const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "schema_version"),
               *results = cJSON_GetObjectItemCaseSensitive(root, "results"),
               *meta = cJSON_GetObjectItemCaseSensitive(root, "metadata");
   if (!cJSON_IsString(version) || !cJSON_IsArray(results)) {
      refuse(rd, "not a T4 results file: it needs \"schema_version\" (a string) and \"results\" (an array)");
      return false;
   }
   if (strncmp(version->valuestring, "1.", 2) != 0) {
      refuse(rd, "T4 schema_version %s: gemmtop reads version 1 (1.x.y)", version->valuestring);
      return false;
   }
   /* Kernel Tuner says its time unit in the metadata; milliseconds when it does not. */
   const cJSON *unit = cJSON_GetObjectItemCaseSensitive(meta, "timeunit");
   double scale = 1;
   if (cJSON_IsString(unit) && !toMs(1, unit->valuestring, 1, &scale)) {
      refuse(rd, "metadata.timeunit '%s' is not a time unit (milliseconds, seconds, ms, s, us, ns)",
             unit->valuestring);
      return false;
   }
   char tool[32];
   snprintf(tool, sizeof tool, "T4 %s", version->valuestring);
   bool failed = false;
   const cJSON *res;
   for (int i = 0; (res = nextElement(rd, results, &failed)); i++) {
      char where[32];
      StoreRecord r;
      snprintf(where, sizeof where, "results[%d]", i);
      if (!readT4Result(rd, res, i, scale, tool, &r) || !finishRecord(rd, &r, where, "T4") || !giveRow(rd, &r))
         return false;
   }
   return !failed;
}

/* ---- CLBlast's tuners ---- */

/* Its precision numbers: 32 float, 64 double, 16 half; 3232 and 6464 are complex. */
static bool clblastPrecision(Reader *rd, const char *text, Precision *out) {
   static const struct {
      const char *code;
      Precision p;
   } map[] = {{"32", PRECISION_FLOAT}, {"64", PRECISION_DOUBLE}, {"16", PRECISION_HALF}};
   for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
      if (!strcmp(text, map[i].code)) {
         *out = map[i].p;
         return true;
      }
   return refuse(rd, "precision \"%s\": gemmtop compares real GEMMs, CLBlast's 16, 32 and 64 (half, float, "
                 "double)%s", text, !strcmp(text, "3232") || !strcmp(text, "6464") ? "; this file is complex" : "");
}

/* The file's header: device, precision, problem; every row gets it. */
static bool readClblastHeader(Reader *rd, const cJSON *root, StoreRecord *base) {
   const char *family, *device, *precision, *arch, *driver;
   if (!optString(rd, root, "kernel_family", "", &family) || !optString(rd, root, "device", "", &device) ||
       !optString(rd, root, "precision", "", &precision) ||
       !optString(rd, root, "clblast_device_architecture", "", &arch) ||
       !optString(rd, root, "platform_version", "", &driver))
      return false;
   if (!precision)
      return refuse(rd, "no \"precision\" (CLBlast's tuners write 16, 32 or 64)");
   StoreRecord_init(base, "clblast");
   Util_copy(base->version, sizeof base->version, "CLBlast tuner");
   Util_copy(base->backend, sizeof base->backend, "OpenCL");
   base->time = rd->file_time;
   base->verified = true; /* a CLBlast tuner keeps only results that matched its reference */
   Util_copy(base->outcome, sizeof base->outcome, "ok");
   if (device && !copyText(rd, base->device, sizeof base->device, device, "device"))
      return false;
   if ((arch && !plainText(rd, arch, "clblast_device_architecture")) ||
       (driver && !plainText(rd, driver, "platform_version")))
      return false;
   if (arch && strlen(arch) < sizeof base->arch)
      Util_copy(base->arch, sizeof base->arch, arch);
   if (driver && strlen(driver) < sizeof base->driver)
      Util_copy(base->driver, sizeof base->driver, driver);
   if (!clblastPrecision(rd, precision, &base->problem.precision))
      return false;
   static const char *const dims[] = {"arg_m", "arg_n", "arg_k"};
   int *out[] = {&base->problem.m, &base->problem.n, &base->problem.k};
   bool labelled = rd->labels && rd->labels->m > 0;
   for (int d = 0; d < 3; d++) {
      const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, dims[d]);
      *out[d] = 0;
      if (!v && !labelled)
         return refuse(rd, "no \"%s\": kernel family '%s' is not a GEMM tuner's (xgemm, xgemm_direct); gemmtop "
                       "keeps GEMM results", dims[d], family ? family : "?");
      if (v && !wholeNumber(v, out[d]))
         return refuse(rd, "\"%s\" should be a whole number from 1, not %s", dims[d], jsonKind(v));
   }
   const cJSON *alpha = cJSON_GetObjectItemCaseSensitive(root, "arg_alpha"),
               *beta = cJSON_GetObjectItemCaseSensitive(root, "arg_beta");
   if (cJSON_IsString(alpha))
      base->problem.alpha = strtod(alpha->valuestring, NULL);
   if (cJSON_IsString(beta))
      base->problem.beta = strtod(beta->valuestring, NULL);
   return true;
}

static bool readClblast(Reader *rd, const cJSON *root) {
   const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
   if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "kernel_family")) || !cJSON_IsArray(results))
      return refuse(rd, "not a CLBlast tuner file: it needs \"kernel_family\" (a string) and \"results\" (an array)");
   StoreRecord base;
   if (!readClblastHeader(rd, root, &base))
      return false;
   bool failed = false;
   const cJSON *res;
   for (int i = 0; (res = nextElement(rd, results, &failed)); i++) {
      const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(res, "kernel"),
                  *t = cJSON_GetObjectItemCaseSensitive(res, "time"),
                  *params = cJSON_GetObjectItemCaseSensitive(res, "parameters");
      char where[32];
      snprintf(where, sizeof where, "results[%d]", i);
      StoreRecord r = base;
      bool good = true;
      if (!cJSON_IsString(kernel) || !cJSON_IsNumber(t) || !cJSON_IsObject(params))
         good = refuse(rd, "%s needs \"kernel\" (a string), \"time\" (a number, ms) and \"parameters\" (an object); "
                       "it has %s, %s and %s", where, jsonKind(kernel), jsonKind(t), jsonKind(params));
      else if (!isfinite(t->valuedouble))
         good = refuse(rd, "%s.time is not a finite number (too large for a double)", where);
      else if (!(t->valuedouble > 0))
         good = refuse(rd, "%s.time %g: a time in milliseconds is more than 0", where, t->valuedouble);
      good = good && copyText(rd, r.kernel, sizeof r.kernel, kernel->valuestring, "kernel") &&
             paramsText(rd, params, "PRECISION", where, r.params, sizeof r.params);
      if (good) {
         /* CLBlast's tuners keep the fastest of their runs (timed on the host): the one
            figure there is, as the minimum and as the time compared. */
         r.median_ms = r.min_ms = t->valuedouble;
         good = finishRecord(rd, &r, where, "CLBlast") && giveRow(rd, &r);
      }
      if (!good)
         return false;
   }
   return !failed;
}

/* ---- the file ---- */

/* Line and column (from 1) of offset in text. */
static void lineColumn(const char *text, size_t offset, int *line, int *column) {
   *line = 1;
   *column = 1;
   for (size_t i = 0; i < offset; i++) {
      if (text[i] == '\n') {
         (*line)++;
         *column = 1;
      } else {
         (*column)++;
      }
   }
}

static bool isT4(const cJSON *root) { return cJSON_GetObjectItemCaseSensitive(root, "schema_version") != NULL; }
static bool isClblast(const cJSON *root) { return cJSON_GetObjectItemCaseSensitive(root, "kernel_family") != NULL; }

/* The root object, or NULL with the place of the error. */
static cJSON *parseJson(Reader *rd, const char *text, size_t len) {
   size_t start = strspn(text, " \t\r\n");
   if (start == len) {
      refuse(rd, "the file is empty; a T4 or CLBlast tuner file is one JSON object");
      return NULL;
   }
   const char *end = NULL;
   if (memchr(text, '\0', len)) {
      int line, column;
      lineColumn(text, (size_t)((const char *)memchr(text, '\0', len) - text), &line, &column);
      refuse(rd, "line %d, column %d: a NUL byte; not a JSON text file", line, column);
      return NULL;
   }
   /* cJSON checks that the text ends where the object does by finding the NUL within
      the length: the terminating NUL that text has (Util_readFile) is counted. */
   cJSON *root = cJSON_ParseWithLengthOpts(text, len + 1, &end, true);
   if (!root) {
      const char *at = end ? end : cJSON_GetErrorPtr();
      size_t offset = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
      int line, column;
      lineColumn(text, offset, &line, &column);
      cJSON *first = text[start] == '{' ? cJSON_ParseWithLengthOpts(text, len, NULL, false) : NULL;
      bool more = first != NULL;
      cJSON_Delete(first);
      if (text[start] != '{' && text[start] != '[')
         refuse(rd, "line %d, column %d: not JSON (a T4 or CLBlast tuner file is one JSON object; CSV is not read)",
                line, column);
      else
         refuse(rd, "line %d, column %d: invalid JSON%s", line, column,
                more ? ": more after the first object (JSON Lines? gemmtop reads T4 and CLBlast tuner files)" : "");
      return NULL;
   }
   if (!cJSON_IsObject(root)) {
      refuse(rd, "the JSON is %s, not an object: not a T4 or CLBlast tuner file", jsonKind(root));
      cJSON_Delete(root);
      return NULL;
   }
   return root;
}

/* Files larger than this are read element by element (a smaller one is parsed whole). */
#define STREAM_FROM_BYTES (1u << 20)

bool ResultImport_each(const char *name, const char *text, size_t len, const ResultFormat *format,
                       const ImportLabels *labels, long long file_time, ImportRowFn fn, void *ctx, long *rows,
                       ResultFormat *found, char *err, size_t errlen) {
   Reader rd = {.name = name, .labels = labels, .file_time = file_time, .err = err, .errlen = errlen, .sink = fn,
                .sink_ctx = ctx};
   if (rows)
      *rows = 0;
   if (format && *format != RESULT_FORMAT_T4 && *format != RESULT_FORMAT_CLBLAST)
      return refuse(&rd, "gemmtop imports t4 and clblast files, not %s", ResultFormat_name(*format));
   /* A long file: its root parsed with an empty results array, the elements one by one. */
   size_t open = 0, close = 0;
   cJSON *root = NULL;
   if (len >= STREAM_FROM_BYTES && !memchr(text, '\0', len) && findResultsArray(text, len, &open, &close)) {
      size_t headLen = open + 2 + (len - close - 1);
      char *head = malloc(headLen + 1);
      if (head) {
         memcpy(head, text, open);
         memcpy(head + open, "[]", 2);
         memcpy(head + open + 2, text + close + 1, len - close - 1);
         head[headLen] = '\0';
         char quiet[8];
         Reader probe = {.name = name, .err = quiet, .errlen = sizeof quiet};
         root = parseJson(&probe, head, headLen);
         free(head);
      }
      if (root)
         rd.elements = (Elements){.text = text, .pos = open + 1, .end = close, .streaming = true};
   }
   if (!root && !(root = parseJson(&rd, text, len)))
      return false;
   ResultFormat is = isT4(root) ? RESULT_FORMAT_T4 : isClblast(root) ? RESULT_FORMAT_CLBLAST : RESULT_FORMAT_COUNT;
   bool ok = false;
   if (is == RESULT_FORMAT_COUNT && !format)
      refuse(&rd, "neither a T4 results file (no \"schema_version\") nor a CLBlast tuner file (no "
                  "\"kernel_family\")");
   else if (format && is != RESULT_FORMAT_COUNT && is != *format)
      refuse(&rd, "not a %s file: it is a %s file (use --format %s, or no --format)", ResultFormat_title(*format),
             ResultFormat_title(is), ResultFormat_name(is));
   else {
      ResultFormat f = format ? *format : is;
      if (!rd.elements.streaming)
         rd.elements.next = cJSON_GetObjectItemCaseSensitive(root, "results");
      ok = f == RESULT_FORMAT_T4 ? readT4(&rd, root) : readClblast(&rd, root);
      if (found)
         *found = f;
   }
   cJSON_Delete(rd.elements.owned);
   cJSON_Delete(root);
   if (rows)
      *rows = rd.rows;
   return ok;
}

typedef struct Collected_ {
   StoreRecord *rows;
   int n, cap;
} Collected;

static bool collectRow(StoreRecord *r, void *ctx) {
   Collected *c = ctx;
   if (c->n == c->cap) {
      int cap = c->cap ? c->cap * 2 : 16;
      StoreRecord *more = realloc(c->rows, (size_t)cap * sizeof *more);
      if (!more)
         return false;
      c->rows = more;
      c->cap = cap;
   }
   c->rows[c->n++] = *r;
   return true;
}

StoreRecord *ResultImport_parse(const char *name, const char *text, size_t len, const ResultFormat *format,
                                const ImportLabels *labels, long long file_time, int *n, ResultFormat *found,
                                char *err, size_t errlen) {
   Collected c = {0};
   *n = 0;
   if (!ResultImport_each(name, text, len, format, labels, file_time, collectRow, &c, NULL, found, err, errlen)) {
      free(c.rows);
      return NULL;
   }
   *n = c.n;
   return c.rows ? c.rows : calloc(1, sizeof *c.rows);
}

/* ---- dispatch tables ---- */

/* A C identifier from a suite's name: letters and digits, the rest '_'. */
static void identifier(const char *name, bool upper, char *out, size_t len) {
   size_t i = 0;
   for (; name[i] && i + 1 < len; i++) {
      const char c = name[i];
      const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      out[i] = !alnum ? '_' : upper && c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
   }
   out[i] = '\0';
}

/* A C string literal of any text, for C and C++ alike: printable ASCII as it is, except '"', '\\'
 * and '?' (a "??/" would be a trigraph in C99), each escaped; every other byte as three octal
 * digits (never more: a digit after it cannot join the escape). Nothing of s can end the
 * literal, a comment or a line. */
static void cString(TextBuf *t, const char *s) {
   TextBuf_put(t, "\"");
   for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
      if (*c == '"' || *c == '\\' || *c == '?')
         TextBuf_put(t, "\\%c", *c);
      else if (*c >= 0x20 && *c < 0x7f)
         TextBuf_put(t, "%c", *c);
      else
         TextBuf_put(t, "\\%03o", *c);
   }
   TextBuf_put(t, "\"");
}

/* A figure as C reads it: 0 for one that is not finite (no "nan" in the source). */
static double cNumber(double x) { return isfinite(x) ? x : 0; }

char *ResultFmt_dispatch(bool json, const ResultSet *s, const ShapeSuite *suite, const DispatchEntry *e) {
   char when[32], id[64], ID[64];
   ResultFmt_isoTime((long long)time(NULL), when);
   identifier(suite->name, false, id, sizeof id);
   identifier(suite->name, true, ID, sizeof ID);
   const StoreRecord *any = NULL;
   for (int i = 0; i < suite->count && !any; i++)
      any = e[i].row >= 0 ? &s->rows[e[i].row] : NULL;
   if (json) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddNumberToObject(o, "schema", 1);
      cJSON_AddStringToObject(o, "suite", suite->name);
      cJSON_AddStringToObject(o, "device", any ? any->device : "");
      cJSON_AddStringToObject(o, "backend", any ? any->backend : "");
      cJSON_AddStringToObject(o, "precision", any ? Precision_name(any->problem.precision) : "");
      cJSON_AddStringToObject(o, "gemmtop", GEMMTOP_VERSION);
      cJSON_AddStringToObject(o, "made", when);
      cJSON *entries = cJSON_AddArrayToObject(o, "entries");
      for (int i = 0; i < suite->count; i++) {
         const Shape *sh = &suite->shapes[i];
         cJSON *x = cJSON_CreateObject();
         cJSON_AddStringToObject(x, "label", sh->label);
         cJSON_AddNumberToObject(x, "m", sh->m);
         cJSON_AddNumberToObject(x, "n", sh->n);
         cJSON_AddNumberToObject(x, "k", sh->k);
         cJSON_AddNumberToObject(x, "weight", sh->weight);
         if (e[i].row >= 0) {
            const StoreRecord *r = &s->rows[e[i].row];
            char layout[3];
            Problem_layoutName(&r->problem, layout);
            cJSON_AddStringToObject(x, "kernel", r->kernel);
            cJSON_AddStringToObject(x, "kernel_hash", r->kernel_hash);
            cJSON_AddStringToObject(x, "params", r->params);
            cJSON_AddStringToObject(x, "layout", layout);
            cJSON_AddNumberToObject(x, "gflops", r->gflops);
            if (isfinite(e[i].pct_of_vendor))
               cJSON_AddNumberToObject(x, "pct_of_vendor", e[i].pct_of_vendor);
         }
         cJSON_AddItemToArray(entries, x);
      }
      char *text = cJSON_PrintUnformatted(o);
      cJSON_Delete(o);
      if (!text)
         return NULL;
      char *withNewline = malloc(strlen(text) + 2);
      if (withNewline)
         sprintf(withNewline, "%s\n", text);
      cJSON_free(text);
      return withNewline;
   }
   /* Text from the store (a device's name, an imported kernel's) and the suite's name go into
    * string literals only, escaped: never into a comment, where "*" "/" would end it. The
    * header includes what it uses (NULL), so that it compiles included first, in C and C++. */
   TextBuf t = {0};
   TextBuf_put(&t, "/* gemmtop dispatch table: the best verified configuration for each shape of a suite on one\n"
                   " * device, made by gemmtop from its results store (GEMMTOP_DISPATCH_%s_SUITE, _DEVICE,\n"
                   " * _BACKEND, _TYPE and _MADE say which). A configuration holds for the kernel file whose hash\n"
                   " * it names; kernel NULL: no verified result at that shape. pct_of_vendor is 0 where the vendor\n"
                   " * library was not measured there. */\n", ID);
   TextBuf_put(&t, "#ifndef GEMMTOP_DISPATCH_%s_H\n#define GEMMTOP_DISPATCH_%s_H\n\n#include <stddef.h>\n\n", ID, ID);
   const char *names[] = {"SUITE", "DEVICE", "BACKEND", "TYPE", "MADE"};
   char made[96];
   snprintf(made, sizeof made, "gemmtop %s, %s", GEMMTOP_VERSION, when);
   const char *values[] = {suite->name, any ? any->device : "", any ? any->backend : "",
                           any ? Precision_name(any->problem.precision) : "", made};
   for (int i = 0; i < 5; i++) {
      TextBuf_put(&t, "#define GEMMTOP_DISPATCH_%s_%s ", ID, names[i]);
      cString(&t, values[i]);
      TextBuf_put(&t, "\n");
   }
   TextBuf_put(&t, "\n#ifndef GEMMTOP_DISPATCH_ENTRY\n#define GEMMTOP_DISPATCH_ENTRY\ntypedef struct gemmtop_dispatch_entry {\n"
                   "   int m, n, k;\n   const char *label, *kernel, *kernel_hash, *params, *layout;\n"
                   "   double gflops, pct_of_vendor;\n} gemmtop_dispatch_entry;\n#endif\n\n");
   TextBuf_put(&t, "#define GEMMTOP_DISPATCH_%s_COUNT %d\nstatic const gemmtop_dispatch_entry gemmtop_dispatch_%s[%d] = {\n", ID,
               suite->count, id, suite->count);
   for (int i = 0; i < suite->count; i++) {
      const Shape *sh = &suite->shapes[i];
      TextBuf_put(&t, "   {%d, %d, %d, ", sh->m, sh->n, sh->k);
      cString(&t, sh->label);
      if (e[i].row < 0) {
         TextBuf_put(&t, ", NULL, NULL, NULL, NULL, 0, 0},\n");
         continue;
      }
      const StoreRecord *r = &s->rows[e[i].row];
      char layout[3];
      Problem_layoutName(&r->problem, layout);
      TextBuf_put(&t, ", ");
      cString(&t, r->kernel);
      TextBuf_put(&t, ", ");
      cString(&t, r->kernel_hash);
      TextBuf_put(&t, ", ");
      cString(&t, r->params);
      TextBuf_put(&t, ", \"%s\", %.6g, %.4g},\n", layout, cNumber(r->gflops), cNumber(e[i].pct_of_vendor));
   }
   TextBuf_put(&t, "};\n\n#endif\n");
   return TextBuf_finish(&t);
}
