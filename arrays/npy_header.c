/* The .npy header dictionary, accepted and rejected as NumPy does.
 *
 * numpy.lib.format evaluates the header text with ast.literal_eval and then
 * checks the dict, so a header is valid exactly when it is a Python literal
 * that evaluates to a dict with the keys 'descr', 'fortran_order' and
 * 'shape'. A substring search would accept what NumPy rejects (an extra
 * key, 'fortran_order': 1, text after the dict) and read the wrong value
 * of a duplicated key (the dict keeps the last one). So this is a small
 * parser of Python's literal grammar: numbers with Python's spelling rules,
 * strings with prefixes, escapes and implicit concatenation, tuples, lists,
 * sets, dicts, True/False/None/..., set(), a sign on a number and
 * real +/- imaginary, comments and line continuations, and the tokenizer's
 * limit of 200 nested brackets. Values are only kept where the checks need
 * them (strings' first characters, ints, the shape tuple). */
#include "mn_impl.h"
#include "npy_header.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_INT, K_FLOAT, K_COMPLEX, K_BOOL, K_NONE, K_ELLIPSIS, K_STR, K_BYTES, K_TUPLE, K_LIST, K_SET, K_DICT };
enum { MAXLEVEL = 200, /* Python's tokenizer: "too many nested parentheses" beyond */
       MAXAXES = 64 }; /* NumPy's limit on ndim */

typedef struct {
  const char *s, *p, *e; /* text, cursor, end */
  int depth;             /* open brackets: newlines are blanks inside */
  int lfix;              /* formats 1 and 2: NumPy drops a Python 2 'L' after a number */
  const char *why, *at;  /* the first syntax error and where */
} lexer;

typedef struct {
  int kind;
  int sign;     /* a unary + or - applied (literal_eval takes one, on a number) */
  int binop;    /* real +/- imaginary */
  int hashable;
  int unknown;  /* a string with a \N{...} escape: its characters are not decoded */
  int neg, big; /* K_INT: sign and magnitude beyond int64 */
  uint64_t mag;
  int b;        /* K_BOOL */
  char str[24]; /* K_STR/K_BYTES: the first characters, decoded */
  int slen, sother; /* sother: non-ASCII or longer than str */
  int n, ints;  /* K_TUPLE: items, and whether all are ints (not bools) */
  int anyneg, anybig;
  int64_t items[MAXAXES];
  const char *from, *to; /* source text */
} val;

/* the values of the three keys of the top-level dict (the last one given) */
typedef struct {
  int have[3];
  val v[3];
  int extra;
  const char *extra_from, *extra_to; /* the first other key */
} keyset;
static const char *const key_names[3] = {"descr", "fortran_order", "shape"};

static int fail(lexer *L, const char *why) {
  if (!L->why) {
    L->why = why;
    L->at = L->p;
  }
  return -1;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_idstart(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }
static int is_idch(int c) { return is_idstart(c) || is_digit(c); }
static int at(const lexer *L, size_t k) { return L->p + k < L->e ? (unsigned char)L->p[k] : -1; }

/* Blanks, comments and backslash-newlines; newlines too inside brackets. */
static void skip_ws(lexer *L) {
  while (L->p < L->e) {
    int c = at(L, 0);
    if (c == ' ' || c == '\t' || c == '\f') L->p++;
    else if (c == '#') while (L->p < L->e && *L->p != '\n' && *L->p != '\r') L->p++;
    else if (c == '\\' && at(L, 1) == '\n') L->p += 2;
    else if (c == '\\' && at(L, 1) == '\r') L->p += at(L, 2) == '\n' ? 3 : 2;
    else if (L->depth > 0 && (c == '\n' || c == '\r')) L->p++;
    else break;
  }
}

static void put_char(val *v, uint32_t c) {
  if (c >= 0x80 || v->slen >= (int)sizeof v->str - 1) v->sother = 1;
  else v->str[v->slen++] = (char)c;
}

static int hexval(int c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* One string literal body after its prefix; the cursor is on the quote. */
static int string_body(lexer *L, val *v, int raw, int bytes) {
  char q = *L->p;
  int triple = at(L, 1) == q && at(L, 2) == q;
  L->p += triple ? 3 : 1;
  for (;;) {
    if (L->p >= L->e) return fail(L, "unterminated string");
    int c = at(L, 0);
    if (!triple && (c == '\n' || c == '\r')) return fail(L, "unterminated string");
    if (c == q && (!triple || (at(L, 1) == q && at(L, 2) == q))) {
      L->p += triple ? 3 : 1;
      return 0;
    }
    if (bytes && c >= 0x80) return fail(L, "bytes can only contain ASCII literal characters");
    if (c != '\\') {
      put_char(v, (uint32_t)c);
      L->p++;
      continue;
    }
    int d = at(L, 1);
    if (d < 0) return fail(L, "unterminated string");
    if (raw) { /* the backslash stays, and the next character cannot end the string */
      put_char(v, '\\');
      put_char(v, (uint32_t)d);
      L->p += 2;
      continue;
    }
    L->p += 2;
    uint32_t cp;
    switch (d) {
    case '\n': continue;
    case '\r': if (at(L, 0) == '\n') L->p++; continue;
    case '\\': case '\'': case '"': cp = (uint32_t)d; break;
    case 'a': cp = 7; break;
    case 'b': cp = 8; break;
    case 'f': cp = 12; break;
    case 'n': cp = 10; break;
    case 'r': cp = 13; break;
    case 't': cp = 9; break;
    case 'v': cp = 11; break;
    case 'x': {
      int h1 = hexval(at(L, 0)), h2 = hexval(at(L, 1));
      if (h1 < 0 || h2 < 0) return fail(L, "truncated \\xXX escape");
      cp = (uint32_t)(h1 * 16 + h2);
      L->p += 2;
      break;
    }
    case 'u': case 'U':
      if (bytes) { put_char(v, '\\'); cp = (uint32_t)d; break; }
      {
        int nh = d == 'u' ? 4 : 8;
        cp = 0;
        for (int k = 0; k < nh; k++) {
          int h = hexval(at(L, (size_t)k));
          if (h < 0) return fail(L, "truncated \\u or \\U escape");
          cp = cp * 16 + (uint32_t)h;
        }
        if (cp > 0x10ffff) return fail(L, "illegal Unicode character in a \\U escape");
        L->p += nh;
      }
      break;
    case 'N':
      if (bytes) { put_char(v, '\\'); cp = 'N'; break; }
      /* a character by its Unicode name: the syntax is checked, the name
       * is not looked up (see mn_npy_parse_header) */
      if (at(L, 0) != '{') return fail(L, "malformed \\N character escape");
      L->p++;
      {
        const char *n0 = L->p;
        while (L->p < L->e && *L->p != '}' && *L->p != q && *L->p != '\n') L->p++;
        if (at(L, 0) != '}' || L->p == n0) return fail(L, "malformed \\N character escape");
        L->p++;
      }
      v->unknown = 1;
      v->sother = 1;
      continue;
    default:
      if (d >= '0' && d <= '7') {
        cp = (uint32_t)(d - '0');
        for (int k = 0; k < 2 && at(L, 0) >= '0' && at(L, 0) <= '7'; k++) cp = cp * 8 + (uint32_t)(*L->p++ - '0');
      } else { /* an unknown escape keeps its backslash */
        put_char(v, '\\');
        cp = (uint32_t)d;
      }
    }
    put_char(v, cp);
  }
}

/* A string prefix [p, p+n) followed by a quote: its flags, or -1. */
static int string_prefix(const char *p, size_t n, int *raw, int *bytes, int *fstr) {
  *raw = *bytes = *fstr = 0;
  int u = 0;
  if (n > 2) return -1;
  for (size_t k = 0; k < n; k++) {
    int c = p[k] | 0x20;
    int *f = c == 'r' ? raw : c == 'b' ? bytes : c == 'f' ? fstr : c == 'u' ? &u : NULL;
    if (!f || *f) return -1;
    *f = 1;
  }
  if (u && n > 1) return -1;
  if (*bytes && *fstr) return -1;
  return 0;
}

/* The identifier at the cursor, as [p, *end). */
static size_t ident_len(const lexer *L) {
  size_t n = 0;
  while (L->p + n < L->e && is_idch((unsigned char)L->p[n])) n++;
  return n;
}

static int is_quote(int c) { return c == '\'' || c == '"'; }

/* Adjacent string literals, concatenated as Python does. */
static int strings(lexer *L, val *v) {
  int kind = -1;
  for (;;) {
    size_t n = is_quote(at(L, 0)) ? 0 : ident_len(L);
    int raw, bytes, fstr;
    if (!is_quote(at(L, n)) || string_prefix(L->p, n, &raw, &bytes, &fstr)) {
      if (kind < 0) return fail(L, "bad string prefix");
      break;
    }
    if (fstr) return fail(L, "an f-string is not a literal");
    if (kind >= 0 && kind != bytes) return fail(L, "cannot mix bytes and str literals");
    kind = bytes;
    L->p += n;
    if (string_body(L, v, raw, bytes)) return -1;
    skip_ws(L);
  }
  v->kind = kind ? K_BYTES : K_STR;
  return 0;
}

/* digit ('_'? digit)*: Python's digitpart; the cursor is on a digit. */
static int digitpart(lexer *L, int base, val *v) {
  for (;;) {
    int c = at(L, 0), dv = base == 16 ? hexval(c) : (c >= '0' && c - '0' < base && c <= '9') ? c - '0' : -1;
    if (dv < 0) return fail(L, "invalid number");
    if (v) {
      if (v->mag > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base) v->big = 1;
      else v->mag = v->mag * (uint64_t)base + (uint64_t)dv;
    }
    L->p++;
    c = at(L, 0);
    if (c == '_') {
      int n = at(L, 1);
      if (!(base == 16 ? hexval(n) >= 0 : (n >= '0' && n - '0' < base && n <= '9'))) return fail(L, "invalid number");
      L->p++;
    } else if (!(base == 16 ? hexval(c) >= 0 : (c >= '0' && c - '0' < base && c <= '9'))) {
      return 0;
    }
  }
}

static int number(lexer *L, val *v) {
  v->kind = K_INT;
  int c1 = at(L, 1) | 0x20;
  if (at(L, 0) == '0' && (c1 == 'x' || c1 == 'o' || c1 == 'b')) {
    int base = c1 == 'x' ? 16 : c1 == 'o' ? 8 : 2;
    L->p += 2;
    if (at(L, 0) == '_') L->p++;
    if (digitpart(L, base, v)) return -1;
  } else {
    int isfloat = 0, lead0 = at(L, 0) == '0';
    if (is_digit(at(L, 0)) && digitpart(L, 10, v)) return -1;
    int nonzero = v->mag != 0 || v->big;
    if (at(L, 0) == '.') {
      L->p++;
      isfloat = 1;
      if (is_digit(at(L, 0)) && digitpart(L, 10, NULL)) return -1;
    }
    if ((at(L, 0) | 0x20) == 'e') {
      int k = (at(L, 1) == '+' || at(L, 1) == '-') ? 2 : 1;
      if (!is_digit(at(L, (size_t)k))) return fail(L, "invalid number");
      L->p += k;
      if (digitpart(L, 10, NULL)) return -1;
      isfloat = 1;
    }
    if ((at(L, 0) | 0x20) == 'j') {
      L->p++;
      v->kind = K_COMPLEX;
    } else if (isfloat) {
      v->kind = K_FLOAT;
    } else if (lead0 && nonzero) {
      return fail(L, "leading zeros in a decimal integer");
    }
  }
  /* numpy.lib.format drops a Python 2 'L' token after a number (and only
   * then, when the text failed to parse: so never in format 3.0) */
  const char *q = L->p;
  while (q < L->e && (*q == ' ' || *q == '\t' || *q == '\f')) q++;
  if (L->lfix && q < L->e && *q == 'L' && !(q + 1 < L->e && is_idch((unsigned char)q[1]))) {
    L->p = q + 1;
    return 0;
  }
  if (L->p < L->e && is_idch((unsigned char)*L->p)) return fail(L, "invalid number");
  return 0;
}

static int value(lexer *L, val *v, keyset *k);

static void tuple_add(val *t, const val *it) {
  if (!it->hashable) t->hashable = 0;
  if (it->kind != K_INT || it->binop) t->ints = 0;
  if (t->n < MAXAXES) {
    if (it->kind == K_INT) {
      if (it->big || it->mag > (uint64_t)INT64_MAX) t->anybig = 1;
      if (it->neg && it->mag) t->anyneg = 1;
      t->items[t->n] = (int64_t)(it->mag & (uint64_t)INT64_MAX);
    }
  }
  t->n++;
}

/* Items of a tuple, list or set up to the closing bracket; the cursor is
 * after the first item's separator (or after the opening bracket when
 * there is no first item). */
static int items(lexer *L, val *t, char close, int need_hash) {
  for (;;) {
    skip_ws(L);
    if (at(L, 0) == close) break;
    val it;
    if (value(L, &it, NULL)) return -1;
    if (need_hash && !it.hashable) return fail(L, "unhashable set element");
    tuple_add(t, &it);
    skip_ws(L);
    if (at(L, 0) == ',') { L->p++; continue; }
    if (at(L, 0) == close) break;
    return fail(L, "expected ',' or a closing bracket");
  }
  L->p++;
  L->depth--;
  return 0;
}

static void record_key(keyset *k, const val *key, const val *v) {
  if (!k) return;
  for (int i = 0; i < 3; i++)
    if (key->kind == K_STR && !key->sother && key->slen == (int)strlen(key_names[i]) &&
        !memcmp(key->str, key_names[i], (size_t)key->slen)) {
      k->have[i] = 1;
      k->v[i] = *v;
      return;
    }
  if (!k->extra) {
    k->extra_from = key->from;
    k->extra_to = key->to;
  }
  k->extra = 1;
}

static int open_bracket(lexer *L) {
  if (++L->depth > MAXLEVEL) return fail(L, "too many nested brackets");
  L->p++;
  skip_ws(L);
  return 0;
}

/* A primary: a literal or a bracketed display, without a sign. k (the
 * top-level dict's keys) passes through grouping parentheses. */
static int primary(lexer *L, val *v, keyset *k) {
  memset(v, 0, sizeof *v);
  v->hashable = 1;
  v->from = L->p;
  int c = at(L, 0);
  if (c == '(') {
    if (open_bracket(L)) return -1;
    if (at(L, 0) == ')') {
      L->p++;
      L->depth--;
      v->kind = K_TUPLE;
      v->ints = 1;
      return 0;
    }
    val first;
    if (value(L, &first, k)) return -1;
    skip_ws(L);
    if (at(L, 0) == ')') { /* grouping */
      L->p++;
      L->depth--;
      *v = first;
      return 0;
    }
    if (at(L, 0) != ',') return fail(L, "expected ',' or ')'");
    L->p++;
    v->kind = K_TUPLE;
    v->ints = 1;
    tuple_add(v, &first);
    return items(L, v, ')', 0);
  }
  if (c == '[') {
    if (open_bracket(L)) return -1;
    v->kind = K_LIST;
    v->ints = 1;
    if (items(L, v, ']', 0)) return -1;
    v->hashable = 0;
    return 0;
  }
  if (c == '{') {
    if (open_bracket(L)) return -1;
    v->hashable = 0;
    if (at(L, 0) == '}') {
      L->p++;
      L->depth--;
      v->kind = K_DICT;
      return 0;
    }
    val key;
    if (value(L, &key, NULL)) return -1;
    skip_ws(L);
    if (at(L, 0) != ':') { /* a set */
      if (!key.hashable) return fail(L, "unhashable set element");
      v->kind = K_SET;
      v->ints = 1;
      tuple_add(v, &key);
      if (at(L, 0) == ',') L->p++;
      else if (at(L, 0) != '}') return fail(L, "expected ',' or '}'");
      if (items(L, v, '}', 1)) return -1;
      v->hashable = 0;
      return 0;
    }
    v->kind = K_DICT;
    for (;;) {
      if (!key.hashable) return fail(L, "unhashable dict key");
      L->p++; /* ':' */
      skip_ws(L);
      val *dv = malloc(sizeof *dv); /* values nest: keep the stack small */
      if (!dv) return fail(L, "out of memory");
      if (value(L, dv, NULL)) { free(dv); return -1; }
      record_key(k, &key, dv);
      free(dv);
      skip_ws(L);
      if (at(L, 0) == '}') break;
      if (at(L, 0) != ',') return fail(L, "expected ',' or '}'");
      L->p++;
      skip_ws(L);
      if (at(L, 0) == '}') break;
      if (value(L, &key, NULL)) return -1;
      skip_ws(L);
      if (at(L, 0) != ':') return fail(L, "expected ':'");
    }
    L->p++;
    L->depth--;
    return 0;
  }
  if (is_quote(c)) return strings(L, v);
  if (c == '.' && at(L, 1) == '.' && at(L, 2) == '.') {
    L->p += 3;
    v->kind = K_ELLIPSIS;
    return 0;
  }
  if (is_digit(c) || (c == '.' && is_digit(at(L, 1)))) return number(L, v);
  if (c >= 0 && is_idstart(c)) {
    size_t n = ident_len(L);
    if (is_quote(at(L, n))) return strings(L, v);
    if (n == 4 && !memcmp(L->p, "True", 4)) v->kind = K_BOOL, v->b = 1;
    else if (n == 5 && !memcmp(L->p, "False", 5)) v->kind = K_BOOL;
    else if (n == 4 && !memcmp(L->p, "None", 4)) v->kind = K_NONE;
    else if (n == 3 && !memcmp(L->p, "set", 3)) { /* set(): the one call literal_eval takes */
      L->p += 3;
      skip_ws(L);
      if (at(L, 0) != '(') return fail(L, "a name is not a literal");
      if (open_bracket(L)) return -1;
      if (at(L, 0) != ')') return fail(L, "set() takes no arguments in a literal");
      L->p++;
      L->depth--;
      v->kind = K_SET;
      v->hashable = 0;
      return 0;
    } else return fail(L, "a name is not a literal");
    L->p += n;
    return 0;
  }
  return fail(L, c < 0 ? "unexpected end of the header" : "unexpected character");
}

/* [sign] primary [(+|-) imaginary], as literal_eval takes them. */
static int value(lexer *L, val *v, keyset *k) {
  const char *from = L->p;
  int signs = 0, minus = 0;
  while (at(L, 0) == '+' || at(L, 0) == '-' || at(L, 0) == '~') {
    if (*L->p == '~') return fail(L, "operator ~ is not a literal");
    minus ^= *L->p == '-';
    signs++;
    L->p++;
    skip_ws(L);
  }
  if (primary(L, v, signs ? NULL : k)) return -1;
  v->from = from;
  if (signs) {
    if (signs > 1 || v->sign || v->binop || (v->kind != K_INT && v->kind != K_FLOAT && v->kind != K_COMPLEX))
      return fail(L, "a sign applies only to a number");
    v->sign = 1;
    v->neg = minus;
  }
  skip_ws(L);
  if (at(L, 0) == '+' || at(L, 0) == '-') {
    if (v->binop || (v->kind != K_INT && v->kind != K_FLOAT)) return fail(L, "only real +/- imaginary is a literal");
    L->p++;
    skip_ws(L);
    val r;
    if (primary(L, &r, NULL)) return -1;
    if (r.kind != K_COMPLEX || r.sign || r.binop) return fail(L, "only real +/- imaginary is a literal");
    v->kind = K_COMPLEX;
    v->binop = 1;
    v->sign = 0;
    skip_ws(L);
  }
  v->to = L->p;
  while (v->to > v->from && (v->to[-1] == ' ' || v->to[-1] == '\n' || v->to[-1] == '\t')) v->to--;
  return 0;
}

/* ---- messages ---- */

/* text as Python's repr would show it, at most cap-1 bytes */
static void quote(const char *s, size_t n, char *out, size_t cap) {
  size_t k = 0, lim = cap > 8 ? cap - 8 : 0;
  out[k++] = '"';
  for (size_t i = 0; i < n && k < lim; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n') k += (size_t)snprintf(out + k, cap - k, "\\n");
    else if (c == '\\') k += (size_t)snprintf(out + k, cap - k, "\\\\");
    else if (c == '"') k += (size_t)snprintf(out + k, cap - k, "\\\"");
    else if (c < 0x20 || c >= 0x7f) k += (size_t)snprintf(out + k, cap - k, "\\x%02x", c);
    else out[k++] = (char)c;
    if (i + 1 < n && k >= lim) { k += (size_t)snprintf(out + k, cap - k, "..."); break; }
  }
  if (k < cap - 1) out[k++] = '"';
  out[k < cap ? k : cap - 1] = 0;
}

/* the header text without NumPy's padding (trailing blanks and newline) */
static void header_text(const char *s, size_t n, char *out, size_t cap) {
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\n')) n--;
  quote(s, n, out, cap);
}

static void span(const char *from, const char *to, char *out, size_t cap) {
  size_t n = to > from ? (size_t)(to - from) : 0, k = 0;
  for (size_t i = 0; i < n && k + 4 < cap; i++) out[k++] = (unsigned char)from[i] < 0x20 ? ' ' : from[i];
  if (k + 4 >= cap && n > k) { memcpy(out + k, "...", 3); k += 3; }
  out[k] = 0;
}

/* ---- dtypes ---- */

/* A dtype name or [byte order] type code, as numpy.dtype() reads it; -1
 * when it is not one maniple holds (native little-endian). The size after
 * a kind letter is read as strtol reads it (blanks, a '+', leading zeros)
 * unless strict. */
static int plain_descr(const char *s, int strict) {
  static const struct { const char *name; int t; } names[] = {
    {"bool", MN_BOOL}, {"bool_", MN_BOOL}, {"int32", MN_INT32}, {"intc", MN_INT32},
    {"int64", MN_INT64}, {"longlong", MN_INT64}, {"float32", MN_FLOAT32}, {"single", MN_FLOAT32},
    {"float64", MN_FLOAT64}, {"double", MN_FLOAT64}, {"float", MN_FLOAT64}, {"int8", MN_INT8},
    {"byte", MN_INT8}, {"int16", MN_INT16}, {"short", MN_INT16}, {"uint8", MN_UINT8}, {"ubyte", MN_UINT8},
    {"uint16", MN_UINT16}, {"ushort", MN_UINT16}, {"uint32", MN_UINT32}, {"uintc", MN_UINT32},
    {"uint64", MN_UINT64}, {"ulonglong", MN_UINT64}, {"float16", MN_FLOAT16}, {"half", MN_FLOAT16},
    {"complex64", MN_COMPLEX64}, {"csingle", MN_COMPLEX64}, {"complex128", MN_COMPLEX128},
    {"cdouble", MN_COMPLEX128}, {"complex", MN_COMPLEX128},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(s, names[i].name)) return names[i].t;
  /* C long and pointer-sized integers: int64 where they are 64 bits */
  int l64 = sizeof(long) == 8, p64 = sizeof(void *) == 8;
  if (l64 && !strcmp(s, "long")) return MN_INT64;
  if (l64 && !strcmp(s, "ulong")) return MN_UINT64;
  if (p64 && (!strcmp(s, "uint") || !strcmp(s, "uintp"))) return MN_UINT64;
  if (p64 && (!strcmp(s, "int") || !strcmp(s, "int_") || !strcmp(s, "intp"))) return MN_INT64;
  const char *c = s;
  int big = *c == '>';
  if (*c == '<' || *c == '=' || *c == '|' || *c == '>') c++;
  int t = -1;
  if (!c[0]) return -1;
  if (!c[1]) { /* one letter */
    switch (c[0]) {
    case '?': t = MN_BOOL; break;
    case 'b': t = MN_INT8; break;
    case 'h': t = MN_INT16; break;
    case 'i': t = MN_INT32; break;
    case 'q': t = MN_INT64; break;
    case 'l': t = l64 ? MN_INT64 : -1; break;
    case 'n': case 'p': t = p64 ? MN_INT64 : -1; break;
    case 'B': t = MN_UINT8; break;
    case 'H': t = MN_UINT16; break;
    case 'I': t = MN_UINT32; break;
    case 'Q': t = MN_UINT64; break;
    case 'L': t = l64 ? MN_UINT64 : -1; break;
    case 'N': case 'P': t = p64 ? MN_UINT64 : -1; break;
    case 'e': t = MN_FLOAT16; break;
    case 'f': t = MN_FLOAT32; break;
    case 'd': t = MN_FLOAT64; break;
    case 'F': t = MN_COMPLEX64; break;
    case 'D': t = MN_COMPLEX128; break;
    default: return -1;
    }
  } else { /* kind letter and size in bytes */
    const char *q = c + 1;
    if (!strict) {
      while (*q == ' ' || (*q >= '\t' && *q <= '\r')) q++;
      if (*q == '+') q++;
    }
    if (!is_digit(*q)) return -1;
    long size = 0;
    for (; is_digit(*q); q++) size = size > 99 ? 100 : size * 10 + (*q - '0');
    if (*q) return -1;
    if (c[0] == 'b' && size == 1) t = MN_BOOL;
    else if (c[0] == 'i' && (size == 1 || size == 2 || size == 4 || size == 8))
      t = size == 1 ? MN_INT8 : size == 2 ? MN_INT16 : size == 4 ? MN_INT32 : MN_INT64;
    else if (c[0] == 'u' && (size == 1 || size == 2 || size == 4 || size == 8))
      t = size == 1 ? MN_UINT8 : size == 2 ? MN_UINT16 : size == 4 ? MN_UINT32 : MN_UINT64;
    else if (c[0] == 'f' && (size == 2 || size == 4 || size == 8))
      t = size == 2 ? MN_FLOAT16 : size == 4 ? MN_FLOAT32 : MN_FLOAT64;
    else if (c[0] == 'c' && (size == 8 || size == 16))
      t = size == 8 ? MN_COMPLEX64 : MN_COMPLEX128;
    else return -1;
  }
  return big && t >= 0 && mn_dtype_size((mn_dtype)t) > 1 ? -1 : t;
}

static int is_order(int c) { return c == '<' || c == '>' || c == '|' || c == '='; }
static int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* Repeats of numpy's comma strings ("1", "1,", "(1, 1)", "()", with
 * blanks) that make a subarray of one element, which np.load reads as the
 * plain dtype; 0 for any other count or spelling. */
static int one_element(const char *r, const char *e) {
  while (r < e && (*r == ' ' || *r == '\t')) r++; /* literal_eval's lstrip */
  int paren = r < e && *r == '(', n = 0, commas = 0;
  if (paren) r++;
  for (;;) {
    while (r < e && *r == ' ') r++;
    if (r < e && is_digit(*r)) {
      const char *d = r;
      while (r < e && is_digit(*r)) r++;
      if (r - d != 1 || *d != '1') return 0; /* a count other than 1, or a leading zero */
      n++;
      while (r < e && *r == ' ') r++;
      if (r < e && *r == ',') { r++; commas++; continue; }
    }
    break;
  }
  if (paren) {
    if (r >= e || *r != ')') return 0;
    r++;
    if (n == 1 && !commas) return 0; /* "(1)": refused by NumPy */
  }
  while (r < e && *r == ' ') r++;
  return r == e && (n > 0 || paren) && !(n == 0 && commas);
}

/* The descr strings numpy.dtype() maps to a dtype maniple holds, or -1:
 * plain_descr's, a type number as one character (NumPy's legacy spelling),
 * and numpy's comma strings of one item whose repeats make one element
 * ("1f8", "<(1,)f8 "). */
/* what descr_dtype reads, for the messages */
#define NPY_DTYPES \
  "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128"

static int descr_dtype(const char *s) {
  size_t len = strlen(s);
  if (len == 1) {
    int sl = sizeof(long) == 8 ? MN_INT64 : MN_INT32;
    switch (s[0]) {
    case 1: return MN_INT8;  /* NPY_BYTE */
    case 2: return MN_UINT8;
    case 3: return MN_INT16;
    case 4: return MN_UINT16;
    case 5: return MN_INT32; /* NPY_INT */
    case 6: return MN_UINT32;
    case 7: return sl;       /* NPY_LONG */
    case 8: return sl == MN_INT64 ? MN_UINT64 : MN_UINT32;
    case 9: return MN_INT64; /* NPY_LONGLONG */
    case 10: return MN_UINT64;
    case 11: return MN_FLOAT32;
    case 12: return MN_FLOAT64;
    case 23: return MN_FLOAT16; /* NPY_HALF */
    case 14: return MN_COMPLEX64; /* NPY_CFLOAT */
    case 15: return MN_COMPLEX128;
    default: break;
    }
  }
  /* numpy's _check_for_commastring */
  int comma = strchr(s, ',') != NULL;
  int lead = is_digit(s[0]) || (len > 1 && is_order(s[0]) && is_digit(s[1])) || (len > 1 && s[0] == '(' && s[1] == ')') ||
             (len > 3 && is_order(s[0]) && s[1] == '(' && s[2] == ')');
  if (!comma && !lead) return plain_descr(s, 0);
  /* numpy's _commastring: [order] repeats [order] dtype, then the end,
   * blanks, or a comma (a list: a structured dtype) */
  const char *p = s, *e = s + len;
  char o1 = 0, o2 = 0;
  if (is_order(*p)) o1 = *p++;
  const char *r = p;
  while (*p == ' ') p++;
  if (*p == '(') p++;
  while (*p == ' ' || *p == ',' || is_digit(*p)) p++;
  if (*p == ')') p++;
  while (*p == ' ') p++;
  const char *re = p;
  if (is_order(*p)) o2 = *p++;
  const char *d = p;
  while (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || is_digit(*p) || *p == '.' || *p == '?')) p++;
  char dt[32];
  if (p - d >= (ptrdiff_t)sizeof dt - 1) return -1;
  memcpy(dt, d, (size_t)(p - d));
  dt[p - d] = 0;
  for (; p < e; p++)
    if (!is_space(*p)) return -1; /* a list, or not a dtype */
  if (o1 == '=') o1 = '<';
  if (o2 == '=') o2 = '<';
  if (o1 && o2 && o1 != o2) return -1; /* inconsistent byte orders */
  char order = o1 ? o1 : o2;
  if (re > r && !one_element(r, re)) return -1;
  if (order == '>') { /* numpy.dtype('>' + dtype): no names, bool only */
    memmove(dt + 1, dt, strlen(dt) + 1);
    dt[0] = '>';
  }
  return plain_descr(dt, 1);
}

/* UTF-8 (format 3.0 headers): valid, and its number of characters */
static int utf8_chars(const unsigned char *s, size_t n, size_t *chars) {
  size_t k = 0, i = 0;
  while (i < n) {
    unsigned c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!len || i + len > n) return -1;
    uint32_t cp = len == 1 ? c : c & (0x3fu >> (len - 1));
    for (size_t j = 1; j < len; j++) {
      if ((s[i + j] & 0xc0) != 0x80) return -1;
      cp = cp << 6 | (s[i + j] & 0x3f);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
      return -1;
    i += len;
    k++;
  }
  *chars = k;
  return 0;
}

int mn_npy_parse_header(const char *path, const char *text, size_t len, int major, mn_npy_header *h) {
  char q[480];
  header_text(text, len, q, sizeof q);
  if (memchr(text, 0, len))
    return MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header holds a NUL byte: %s", path, q);
  size_t chars = len;
  if (major >= 3 && utf8_chars((const unsigned char *)text, len, &chars))
    return MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header (format 3.0) is not valid UTF-8: %s", path, q);
  if (chars > MN_NPY_MAX_HEADER_CHARS)
    return MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header has %zu characters, more than the %d NumPy reads "
                  "without allow_pickle", path, chars, MN_NPY_MAX_HEADER_CHARS);

  lexer L = {text, text, text + len, 0, major <= 2, NULL, NULL};
  keyset *k = calloc(1, sizeof *k);
  val *top = malloc(sizeof *top);
  int err = 0;
  if (!k || !top) {
    err = MN_ERR(MN_ERR_MEM, "cannot allocate a .npy header parser");
    goto done;
  }
  /* literal_eval strips leading blanks and tabs; blank and comment lines may
   * come before the value, whose line must not be indented (blanks after a
   * backslash-newline are not indentation) */
  while (L.p < L.e && (*L.p == ' ' || *L.p == '\t')) L.p++;
  for (int first = 1, indent = 0, cont = 0;;) {
    int c = at(&L, 0);
    if (c == ' ' || c == '\t') { indent |= !cont; L.p++; }
    else if (c == '\f') L.p++;
    else if (c == '\\' && (at(&L, 1) == '\n' || at(&L, 1) == '\r')) {
      L.p += at(&L, 1) == '\r' && at(&L, 2) == '\n' ? 3 : 2;
      cont = 1;
    } else if (c == '#') while (L.p < L.e && *L.p != '\n' && *L.p != '\r') L.p++;
    else if (c == '\n' || c == '\r') { L.p++; first = 0; indent = 0; cont = 0; }
    else {
      if (c >= 0 && !first && indent) fail(&L, "unexpected indent");
      break;
    }
  }
  if (!L.why && !value(&L, top, k)) {
    /* after the value: blanks, comments and blank lines only */
    for (;;) {
      skip_ws(&L);
      if (L.p < L.e && (*L.p == '\n' || *L.p == '\r')) { L.p++; continue; }
      if (L.p < L.e) fail(&L, *L.p == ',' ? "a tuple, not a dict" : "text after the dict");
      break;
    }
  }
  if (L.why) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': cannot parse the .npy header (%s at byte %td): %s", path, L.why,
                 L.at - text, q);
    goto done;
  }
  if (top->kind != K_DICT) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header is not a dictionary: %s", path, q);
    goto done;
  }
  if (k->extra || !k->have[0] || !k->have[1] || !k->have[2]) {
    char what[160] = "";
    if (k->extra) {
      char ks[96];
      span(k->extra_from, k->extra_to, ks, sizeof ks);
      snprintf(what, sizeof what, "an extra key %s", ks);
    } else {
      for (int i = 0; i < 3; i++)
        if (!k->have[i]) { snprintf(what, sizeof what, "no key '%s'", key_names[i]); break; }
    }
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header has %s (it needs exactly 'descr', 'fortran_order' and "
                 "'shape'): %s", path, what, q);
    goto done;
  }
  const val *d = &k->v[0], *fo = &k->v[1], *sh = &k->v[2];
  char vs[96];
  if (sh->kind != K_TUPLE || !sh->ints) {
    span(sh->from, sh->to, vs, sizeof vs);
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header's shape %s is not a tuple of ints: %s", path, vs, q);
    goto done;
  }
  if (fo->kind != K_BOOL) {
    span(fo->from, fo->to, vs, sizeof vs);
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header's fortran_order %s is not True or False: %s", path, vs, q);
    goto done;
  }
  if (d->unknown) {
    span(d->from, d->to, vs, sizeof vs);
    err = MN_ERR(MN_ERR_NOTIMPL, "'%s': the .npy header's descr %s has a \\N{...} escape, which maniple does "
                 "not decode", path, vs);
    goto done;
  }
  if (d->kind != K_STR) {
    span(d->from, d->to, vs, sizeof vs);
    if (d->kind == K_LIST || d->kind == K_TUPLE)
      err = MN_ERR(MN_ERR_DTYPE, "'%s': structured or subarray dtype %s not supported (" NPY_DTYPES ")", path,
                   vs);
    else
      err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header's descr %s is not a valid dtype descriptor: %s", path,
                   vs, q);
    goto done;
  }
  char ds[sizeof d->str];
  memcpy(ds, d->str, (size_t)d->slen);
  ds[d->slen] = 0;
  h->dtype = d->sother ? -1 : descr_dtype(ds);
  if (h->dtype < 0) {
    span(d->from, d->to, vs, sizeof vs);
    err = MN_ERR(MN_ERR_DTYPE, "'%s': dtype %s not supported (" NPY_DTYPES ", little-endian)", path, vs);
    goto done;
  }
  span(sh->from, sh->to, vs, sizeof vs);
  if (sh->n > MAXAXES) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header's shape has %d axes, more than NumPy's %d: %s", path,
                 sh->n, MAXAXES, vs);
    goto done;
  }
  if (sh->anyneg || sh->anybig) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header's shape %s has an entry %s", path, vs,
                 sh->anyneg ? "below 0" : "beyond 2^63-1");
    goto done;
  }
  if (sh->n > MN_MAXDIM) {
    err = MN_ERR(MN_ERR_NOTIMPL, "'%s': shape %s has %d axes; maniple arrays have at most %d", path, vs, sh->n,
                 MN_MAXDIM);
    goto done;
  }
  h->ndim = sh->n;
  for (int i = 0; i < sh->n; i++) h->shape[i] = sh->items[i];
  h->fortran = fo->b;
done:
  free(k);
  free(top);
  return err;
}
