/*
** number.c -- integer boxing, string<->number conversions, and the raw
** arithmetic shared by constant folding, lua_arith and the interpreter.
**
** Lua 5.4 rules: integers wrap around (computed in unsigned arithmetic);
** '/' and '^' always produce floats; '//' and '%' floor; bitwise operators
** need operands with an exact integer representation.
*/
#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vm.h"
#include "gc.h"
#include "string.h"
#include "debug.h"

#define intop(op, a, b)  ((int64_t)((uint64_t)(a) op (uint64_t)(b)))

/* ---------------- boxing ---------------- */

Value vm_mkint(lua_State *L, int64_t i) {
  BoxedInt *b;
  if (v_fitsimm(i)) return v_immint(i);
  b = (BoxedInt *)gc_newobj(L, MVM_TBIGINT, sizeof(BoxedInt));
  b->i = i;
  return v_ref(b);
}

/* ---------------- string -> number ---------------- */

static int hexvalue(int c) {
  return isdigit(c) ? c - '0' : (tolower(c) - 'a') + 10;
}

/* Integer numeral (decimal, or hexadecimal wrapping around); NULL if the
** text is not one or a decimal numeral overflows (it is then a float). */
static const char *str2int(const char *s, int64_t *result) {
  uint64_t a = 0;
  int empty = 1, neg = 0;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '-') { s++; neg = 1; }
  else if (*s == '+') s++;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s += 2;
    for (; isxdigit((unsigned char)*s); s++) {
      a = a * 16 + (uint64_t)hexvalue((unsigned char)*s);
      empty = 0;
    }
  } else {
    const uint64_t maxby10 = (uint64_t)LUA_MAXINTEGER / 10;
    const int maxlastd = (int)((uint64_t)LUA_MAXINTEGER % 10);
    for (; isdigit((unsigned char)*s); s++) {
      int d = *s - '0';
      if (a >= maxby10 && (a > maxby10 || d > maxlastd + neg))
        return NULL;          /* overflow: not accepted as an integer */
      a = a * 10 + (uint64_t)d;
      empty = 0;
    }
  }
  while (isspace((unsigned char)*s)) s++;
  if (empty || *s != '\0') return NULL;
  *result = (int64_t)(neg ? 0u - a : a);
  return s;
}

/* Decimal float numerals with at most 19 significant digits whose value
** is m * 10^e with m <= 2^53 and |e| <= 22: m and 10^e are exact doubles,
** so one multiplication or division rounds the exact value once, as strtod
** does (round to nearest; doubles evaluated in double precision).  Returns
** the end (after trailing spaces) or NULL when the text is another kind of
** numeral or not one: strtod decides those. */
static const char *str2flt_exact(const char *s, double *result) {
  static const double pow10[23] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22 };
  uint64_t m = 0;
  int nd = 0, e = 0, any = 0, neg = 0;
  double d;
  while (isspace((unsigned char)*s)) s++;
  if (*s == '-') { neg = 1; s++; }
  else if (*s == '+') s++;
  for (; isdigit((unsigned char)*s); s++, any = 1) {
    if (m != 0 || *s != '0') nd++;
    m = m * 10 + (uint64_t)(*s - '0');
    if (nd > 19) return NULL;
  }
  if (*s == '.') {
    for (s++; isdigit((unsigned char)*s); s++, any = 1) {
      if (m != 0 || *s != '0') nd++;
      m = m * 10 + (uint64_t)(*s - '0');
      e--;
      if (nd > 19) return NULL;
    }
  }
  if (!any) return NULL;
  if (*s == 'e' || *s == 'E') {
    int x = 0, eneg = 0;
    s++;
    if (*s == '-') { eneg = 1; s++; }
    else if (*s == '+') s++;
    if (!isdigit((unsigned char)*s)) return NULL;
    for (; isdigit((unsigned char)*s); s++)
      if (x < 1000) x = x * 10 + (*s - '0');
    e += eneg ? -x : x;
  }
  while (isspace((unsigned char)*s)) s++;
  if (*s != '\0' || m > ((uint64_t)1 << 53) || e < -22 || e > 22) return NULL;
  d = (double)m;
  d = (e < 0) ? d / pow10[-e] : d * pow10[e];
  *result = neg ? -d : d;
  return s;
}

/* Float numeral (decimal or hexadecimal, via strtod); 'inf' and 'nan' are
** not numerals in Lua. */
static const char *str2flt(const char *s, double *result) {
  char *end;
  const char *q = str2flt_exact(s, result);
  if (q != NULL) return q;
  if (strpbrk(s, "nN")) return NULL;
  *result = strtod(s, &end);
  if (end == s) return NULL;
  while (isspace((unsigned char)*end)) end++;
  return *end == '\0' ? end : NULL;
}

/* The common numerals of 'l' bytes without a ctype call or a frame:
** [-]digits or [-]digits.digits with at most 15 digits in all (so the
** value is below 2^53 and an integer cannot overflow).  The float is
** computed as str2flt_exact computes it (m / 10^f, then the sign), so
** every result is the general path's.  0 when the text has another form
** (spaces, exponent, hex, more digits, a '\0' inside). */
static inline __attribute__((always_inline))
int str2num_plain(const char *s, size_t l, int *isint, int64_t *ip, double *dp) {
  static const double pow10[16] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
  const char *e = s + l, *p, *first, *dot;
  uint64_t m = 0;
  unsigned d;
  int neg;
  if (l == 0 || l > 17) return 0;   /* ('-', 15 digits and '.' at most) */
  neg = (*s == '-');
  for (p = first = s + neg; p < e && (d = (unsigned char)*p - '0') < 10; p++)
    m = m * 10 + d;
  if (p == first || p - first > 15) return 0;
  if (p == e) {
    *isint = 1;
    *ip = (int64_t)(neg ? 0u - m : m);
    return 1;
  }
  if (*p != '.') return 0;
  for (dot = ++p; p < e && (d = (unsigned char)*p - '0') < 10; p++)
    m = m * 10 + d;
  if (p != e || p - first > 16) return 0;   /* (p - first counts the '.') */
  *isint = 0;
  *dp = neg ? -((double)m / pow10[p - dot]) : (double)m / pow10[p - dot];
  return 1;
}

/* Parse 's' as a whole numeral; returns strlen(s)+1 or 0.  *isint tells
** which of *ip / *dp holds the value.  Never allocates. */
static size_t str2number(const char *s, int *isint, int64_t *ip, double *dp) {
  const char *e;
  if ((e = str2int(s, ip)) != NULL) { *isint = 1; return (size_t)(e - s) + 1; }
  if ((e = str2flt(s, dp)) != NULL) { *isint = 0; return (size_t)(e - s) + 1; }
  return 0;
}

size_t vm_str2num(lua_State *L, const char *s, Value *result) {
  int isint;
  int64_t i = 0;
  double d = 0;   /* (gcc cannot see that strtonum sets it when it returns 1) */
  size_t n = str2number(s, &isint, &i, &d);
  if (n == 0) return 0;
  *result = isint ? vm_int(L, i) : v_float(d);
  return n;
}

/* numeric value of a string value (whole string must be a numeral) */
static __attribute__((noinline)) int strtonum_str(const TString *ts, int *isint,
                                                  int64_t *ip, double *dp) {
  if (str2num_plain(getstr(ts), ts->len, isint, ip, dp)) return 1;
  return str2number(getstr(ts), isint, ip, dp) == ts->len + 1;
}

/* (the type test inline: vm_tointeger asks every value, for-loop limits
** included, before its numeric cases) */
static inline int strtonum(Value v, int *isint, int64_t *ip, double *dp) {
  return v_isstring(v) && strtonum_str(v_str(v), isint, ip, dp);
}

int vm_strtonumber(lua_State *L, const TString *ts, Value *result) {
  int isint;
  int64_t i = 0;
  double d = 0;
  if (!str2num_plain(getstr(ts), ts->len, &isint, &i, &d) &&
      str2number(getstr(ts), &isint, &i, &d) != ts->len + 1)
    return 0;
  *result = isint ? vm_int(L, i) : v_float(d);
  return 1;
}

/* ---------------- conversions ---------------- */

int vm_tonumber(lua_State *L, Value v, double *n) {
  int isint;
  int64_t i = 0;
  double d = 0;
  (void)L;
  if (v_isfloat(v)) { *n = v_getfloat(v); return 1; }
  if (v_isinteger(v)) { *n = (double)v_getint(v); return 1; }
  if (strtonum(v, &isint, &i, &d)) { *n = isint ? (double)i : d; return 1; }
  return 0;
}

int vm_flttointns(double n, int64_t *p, int mode) {
  double f = floor(n);
  if (n != f) {
    if (mode == 0) return 0;          /* not an integral value */
    if (mode == 2) f += 1;            /* ceiling */
  }
  if (f >= -9223372036854775808.0 && f < 9223372036854775808.0) {
    *p = (int64_t)f;
    return 1;
  }
  return 0;
}

int vm_tointegerns(Value v, int64_t *p, int mode) {
  if (v_isinteger(v)) { *p = v_getint(v); return 1; }
  if (v_isfloat(v)) return vm_flttointns(v_getfloat(v), p, mode);
  return 0;
}

int vm_tointeger(Value v, int64_t *p, int mode) {
  int isint;
  int64_t i = 0;
  double d = 0;
  if (strtonum(v, &isint, &i, &d)) {
    if (isint) { *p = i; return 1; }
    return vm_flttointns(d, p, mode);
  }
  return vm_tointegerns(v, p, mode);
}

/* ---------------- number -> string ---------------- */

/* the text of 00..99 as two characters, the tens in the low byte (so that
** 'w << 16 | pair' puts them first, as vm_int2buff's word wants) */
#define DPAIR(x)  (uint16_t)((('0' + (x) % 10) << 8) | ('0' + (x) / 10))
#define DPAIRS(t) DPAIR(t), DPAIR(t + 1), DPAIR(t + 2), DPAIR(t + 3), DPAIR(t + 4), \
                  DPAIR(t + 5), DPAIR(t + 6), DPAIR(t + 7), DPAIR(t + 8), DPAIR(t + 9)
static const uint16_t digitpairs[100] = {
  DPAIRS(0), DPAIRS(10), DPAIRS(20), DPAIRS(30), DPAIRS(40),
  DPAIRS(50), DPAIRS(60), DPAIRS(70), DPAIRS(80), DPAIRS(90)
};

/* decimal digits of n (what "%lld" writes) and a '\0' into buff, which
** has room for MAXNUMBER2STR bytes (a whole word is stored) */
int vm_int2buff(int64_t n, char *buff) {
  char tmp[24];
  int i = 24, len;
  uint64_t u = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
  if (u < 10000000) {
    /* up to 7 digits and the sign: built in a register, first character in
    ** the low byte, and stored as one word (the bytes above the text are
    ** zeros, its terminator).  Digits stored byte by byte and then copied
    ** or hashed with word loads stall store forwarding (int2buff was 5% of
    ** bench/strings' cycles that way). */
    uint64_t w = 0;
    len = 0;
    while (u >= 100) {   /* two digits a step: one division by a constant */
      w = (w << 16) | digitpairs[u % 100];
      u /= 100;
      len += 2;
    }
    if (u >= 10) {
      w = (w << 16) | digitpairs[u];
      len += 2;
    }
    else {
      w = (w << 8) | (uint64_t)('0' + u);
      len++;
    }
    if (n < 0) {
      w = (w << 8) | '-';
      len++;
    }
    memcpy(buff, &w, 8);
    if (len == 8)
      buff[8] = '\0';
    return len;
  }
  do { tmp[--i] = (char)('0' + u % 10); u /= 10; } while (u != 0);
  if (n < 0) tmp[--i] = '-';
  len = 24 - i;
  memcpy(buff, tmp + i, (size_t)len);
  buff[len] = '\0';
  return len;
}

/* ---------------- float -> text without printf ---------------- */

/* Exact decimal digits of a = I + F / 2^s (I < 2^64, s <= 60), made on
** demand: the integer's digits, then one fraction digit per step (F * 10
** stays below 2^64).  A binary fraction of s bits has exactly s decimal
** digits, so the digits are the value itself and rounding them as text
** (nearest, ties to even: printf's rounding in the default mode) gives
** printf's result. */
typedef struct FloatDigits {
  char d[160];
  int n;          /* digits made so far */
  int s;
  uint64_t F, mask;
} FloatDigits;

static void fd_upto(FloatDigits *fd, int n) {
  while (fd->n < n) {
    fd->F *= 10;
    fd->d[fd->n++] = (char)('0' + (fd->F >> fd->s));
    fd->F &= fd->mask;
  }
}

/* Round the digits to the first 'cut' (the digits from 'lead' on count,
** those before are zeros of a fraction); returns 1 when the rounding
** carried out of d[lead] (the kept digits are then all zeros). */
static int fd_round(FloatDigits *fd, int lead, int cut) {
  int i, rd, sticky, prev;
  fd_upto(fd, cut + 1);
  rd = fd->d[cut] - '0';
  sticky = fd->F != 0;
  for (i = cut + 1; i < fd->n; i++) sticky |= fd->d[i] != '0';
  prev = cut > 0 ? fd->d[cut - 1] - '0' : 0;
  if (rd < 5 || (rd == 5 && !sticky && !(prev & 1))) return 0;
  for (i = cut - 1; i >= lead && fd->d[i] == '9'; i--) fd->d[i] = '0';
  if (i < lead) return 1;
  fd->d[i]++;
  return 0;
}

static char *fmt_exp(char *o, int X, int upper) {
  *o++ = upper ? 'E' : 'e';
  *o++ = X < 0 ? '-' : '+';
  if (X < 0) X = -X;
  if (X >= 100) { *o++ = (char)('0' + X / 100); X %= 100; }
  *o++ = (char)('0' + X / 10);
  *o++ = (char)('0' + X % 10);
  return o;
}

/*
** What snprintf writes for "%.<prec><conv>" (conv one of e E f g G) of x,
** with 'dp' as the decimal point; -1 when x is not handled here (inf, nan,
** |x| >= 2^64, more than 60 fraction bits, i.e. most |x| < 1e-3, or
** prec > 99): the caller then uses snprintf.  buff needs prec + 32 bytes.
*/
int vm_fmtfloat(char *buff, double x, int prec, int conv, int dp) {
  FloatDigits fd;
  uint64_t I;
  int nI = 0, lead, cut, X, P, i, upper = (conv == 'E' || conv == 'G');
  int kind = conv | 0x20, zero = (x == 0);
  char *o = buff;
  if (!isfinite(x) || prec < 0 || prec > 99) return -1;
  if (signbit(x)) { *o++ = '-'; x = -x; }
  fd.n = 0; fd.s = 0; fd.F = 0; fd.mask = 0;
  if (x >= 18446744073709551616.0) return -1;
  if (zero) I = 0;
  else {
    /* x = m * 2^-s from its bits (frexp, ldexp and floor were ~75
    ** instructions of library calls): a normal x is (2^52 + fraction) *
    ** 2^(e - 1075); a subnormal one needs more than 60 fraction bits */
    uint64_t bits, m;
    int e, s, z;
    memcpy(&bits, &x, sizeof bits);
    e = (int)(bits >> 52);   /* the sign bit is clear: x > 0 */
    if (e == 0) return -1;
    m = (bits & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
    s = 1075 - e;
    if (s <= 0) I = m << -s;   /* integral; x < 2^64: -s <= 11 */
    else {
      z = __builtin_ctzll(m);
      if (z >= s) I = m >> s;   /* integral */
      else {
        m >>= z; s -= z;
        if (s > 60) return -1;
        fd.s = s; fd.mask = ((uint64_t)1 << s) - 1;
        I = m >> s; fd.F = m & fd.mask;
      }
    }
  }
  if (I != 0) {
    char tmp[24];
    int k = 24;
    do { tmp[--k] = (char)('0' + I % 10); I /= 10; } while (I != 0);
    nI = 24 - k;
    memcpy(fd.d, tmp + k, (size_t)nI);
    fd.n = nI;
  }
  if (kind == 'f') {
    int carry = fd_round(&fd, 0, nI + prec);
    if (carry) *o++ = '1';
    if (nI == 0) { if (!carry) *o++ = '0'; }
    else { memcpy(o, fd.d, (size_t)nI); o += nI; }
    if (prec > 0) {
      *o++ = (char)dp;
      memcpy(o, fd.d + nI, (size_t)prec); o += prec;
    }
    *o = '\0';
    return (int)(o - buff);
  }
  /* e and g: significant digits from the first nonzero one */
  if (zero) lead = 0;
  else if (nI > 0) lead = 0;
  else {
    for (lead = 0; ; lead++) {
      fd_upto(&fd, lead + 1);
      if (fd.d[lead] != '0') break;
    }
  }
  X = zero ? 0 : nI - lead - 1;
  P = (kind == 'e') ? prec + 1 : (prec == 0 ? 1 : prec);
  cut = lead + P;
  if (fd_round(&fd, lead, cut)) { fd.d[lead] = '1'; X++; }
  if (kind == 'e' || X < -4 || X >= P) {
    const char *r = fd.d + lead;
    int nd = P - 1;   /* digits after the point */
    if (kind == 'g') while (nd > 0 && r[nd] == '0') nd--;
    *o++ = r[0];
    if (nd > 0) {
      *o++ = (char)dp;
      memcpy(o, r + 1, (size_t)nd); o += nd;
    }
    o = fmt_exp(o, X, upper);
  }
  else {   /* %g in fixed style: P - 1 - X decimals, trailing zeros dropped */
    const char *r = fd.d + lead;
    int nd = P;       /* significant digits kept */
    while (nd > X + 1 && r[nd - 1] == '0') nd--;
    if (X >= 0) {
      memcpy(o, r, (size_t)X + 1); o += X + 1;
      if (nd > X + 1) {
        *o++ = (char)dp;
        memcpy(o, r + X + 1, (size_t)(nd - X - 1)); o += nd - X - 1;
      }
    }
    else {
      *o++ = '0';
      *o++ = (char)dp;
      for (i = 0; i < -X - 1; i++) *o++ = '0';
      memcpy(o, r, (size_t)nd); o += nd;
    }
  }
  *o = '\0';
  return (int)(o - buff);
}

int vm_num2buff(Value v, char *buff) {
  int len;
  if (v_isinteger(v))
    return vm_int2buff(v_getint(v), buff);
  {
    double d = v_getfloat(v);
    /* integral floats below 1e14 print under "%.14g" exactly as their
    ** integer digits (no exponent before 14 digits); -0.0 excluded */
    if (d > -1e14 && d < 1e14 && d != 0 && d == (double)(int64_t)d) {
      len = vm_int2buff((int64_t)d, buff);
      buff[len++] = '.';
      buff[len++] = '0';
      buff[len] = '\0';
      return len;
    }
    len = vm_fmtfloat(buff, d, 14, 'g', localeconv()->decimal_point[0]);
    if (len < 0) len = snprintf(buff, MAXNUMBER2STR, LUA_NUMBER_FMT, d);
    if (buff[strspn(buff, "-0123456789")] == '\0') {   /* looks like an int */
      buff[len++] = '.';
      buff[len++] = '0';
      buff[len] = '\0';
    }
    return len;
  }
}

void vm_tostring(lua_State *L, Value *obj) {
  char buff[MAXNUMBER2STR];
  int len = vm_num2buff(*obj, buff);
  TString *ts = str_new(L, buff, (size_t)len);   /* stacks do not move in a collection */
  *obj = v_ref(ts);                              /* NOBARRIER: stack slot */
}

/* ---------------- integer division, modulo, shifts ---------------- */

int64_t vm_idiv(lua_State *L, int64_t m, int64_t n) {
  if (l_unlikely((uint64_t)n + 1u <= 1u)) {   /* n == 0 or n == -1 */
    if (n == 0) dbg_runerror(L, "attempt to divide by zero");   /* lua5.4.4's wording */
    return intop(-, 0, m);                    /* avoids overflow of MININT / -1 */
  } else {
    int64_t q = m / n;
    if ((m ^ n) < 0 && m % n != 0) q -= 1;    /* round towards minus infinity */
    return q;
  }
}

int64_t vm_mod(lua_State *L, int64_t m, int64_t n) {
  if (l_unlikely((uint64_t)n + 1u <= 1u)) {
    if (n == 0) dbg_runerror(L, "attempt to perform 'n%%0'");
    return 0;                                 /* m % -1 == 0; avoids MININT % -1 */
  } else {
    int64_t r = m % n;
    if (r != 0 && (r ^ n) < 0) r += n;        /* result takes the divisor's sign */
    return r;
  }
}

double vm_modf(lua_State *L, double m, double n) {
  double r = fmod(m, n);
  (void)L;
  if ((r > 0) ? n < 0 : (r < 0 && n > 0)) r += n;   /* fmod truncates: floor it */
  return r;
}

/* ---------------- raw arithmetic ---------------- */

static int64_t intarith(lua_State *L, int op, int64_t a, int64_t b) {
  switch (op) {
    case LUA_OPADD: return intop(+, a, b);
    case LUA_OPSUB: return intop(-, a, b);
    case LUA_OPMUL: return intop(*, a, b);
    case LUA_OPMOD: return vm_mod(L, a, b);
    case LUA_OPIDIV: return vm_idiv(L, a, b);
    case LUA_OPBAND: return intop(&, a, b);
    case LUA_OPBOR: return intop(|, a, b);
    case LUA_OPBXOR: return intop(^, a, b);
    case LUA_OPSHL: return vm_shiftl(a, b);
    case LUA_OPSHR: return vm_shiftl(a, intop(-, 0, b));
    case LUA_OPUNM: return intop(-, 0, a);
    case LUA_OPBNOT: return intop(^, ~(uint64_t)0, a);
    default: return 0;
  }
}

static double numarith(lua_State *L, int op, double a, double b) {
  switch (op) {
    case LUA_OPADD: return a + b;
    case LUA_OPSUB: return a - b;
    case LUA_OPMUL: return a * b;
    case LUA_OPDIV: return a / b;
    case LUA_OPPOW: return b == 2 ? a * a : pow(a, b);
    case LUA_OPIDIV: return floor(a / b);
    case LUA_OPUNM: return -a;
    case LUA_OPMOD: return vm_modf(L, a, b);
    default: return 0;
  }
}

static int tonum_ns(Value v, double *d) {
  if (v_isfloat(v)) { *d = v_getfloat(v); return 1; }
  if (v_isinteger(v)) { *d = (double)v_getint(v); return 1; }
  return 0;
}

/* No metamethods, no string coercion.  Returns 0 when the operation cannot
** be done on these operands (non-numbers, bitwise on non-integral floats,
** or an integer result that would need boxing without a state). */
int vm_rawarith(lua_State *L, int op, const Value *p1, const Value *p2, Value *res) {
  switch (op) {
    case LUA_OPBAND: case LUA_OPBOR: case LUA_OPBXOR:
    case LUA_OPSHL: case LUA_OPSHR: case LUA_OPBNOT: {
      int64_t a, b;
      if (vm_tointegerns(*p1, &a, 0) && vm_tointegerns(*p2, &b, 0)) {
        int64_t r = intarith(L, op, a, b);
        if (!v_fitsimm(r) && L == NULL) return 0;
        *res = L ? vm_int(L, r) : v_immint(r);
        return 1;
      }
      return 0;
    }
    case LUA_OPDIV: case LUA_OPPOW: {
      double a, b;
      if (tonum_ns(*p1, &a) && tonum_ns(*p2, &b)) {
        *res = v_float(numarith(L, op, a, b));
        return 1;
      }
      return 0;
    }
    default: {
      double a, b;
      if (v_isinteger(*p1) && v_isinteger(*p2)) {
        int64_t r;
        if (L == NULL && (op == LUA_OPMOD || op == LUA_OPIDIV) && v_getint(*p2) == 0)
          return 0;   /* would raise: do not fold */
        r = intarith(L, op, v_getint(*p1), v_getint(*p2));
        if (!v_fitsimm(r) && L == NULL) return 0;
        *res = L ? vm_int(L, r) : v_immint(r);
        return 1;
      }
      if (tonum_ns(*p1, &a) && tonum_ns(*p2, &b)) {
        *res = v_float(numarith(L, op, a, b));
        return 1;
      }
      return 0;
    }
  }
}
