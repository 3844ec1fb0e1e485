/* test_lex.c -- the scanner (vm/lex.c): tokens, numerals, escapes, long
** brackets, error messages, and chunk ids. */
#include <check.h>
#include "checkmain.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"
#include "state.h"
#include "lex.h"
#include "compile.h"
#include "zio.h"

static lua_State *L;

static void setup(void) { L = luaL_newstate(); ck_assert_ptr_nonnull(L); }
static void teardown(void) { lua_close(L); L = NULL; }

typedef struct { const char *s; size_t n; } StrReader;

static const char *readstr(lua_State *l, void *ud, size_t *sz) {
  StrReader *r = ud;
  (void)l;
  if (r->n == 0) return NULL;
  *sz = r->n;
  r->n = 0;
  return r->s;
}

/* Lua C function: scan the string argument and return a textual rendering
** of its tokens, one per line: kind + value. */
static int lexall(lua_State *l) {
  size_t len;
  const char *src = luaL_checklstring(l, 1, &len);
  StrReader r = { src, len };
  ZIO z;
  LexState ls;
  luaL_Buffer b;
  TString *source;
  lua_pushliteral(l, "=test");          /* anchored on the stack */
  source = v_str(l->top[-1]);
  zio_init(l, &z, readstr, &r);
  lex_setinput(l, &ls, &z, source, zgetc(&z));
  luaL_buffinit(l, &b);
  for (;;) {
    char tmp[128];
    lex_next(&ls);
    switch (ls.t.token) {
      case TK_EOS: goto done;
      case TK_INT: snprintf(tmp, sizeof tmp, "INT %lld\n", (long long)ls.t.seminfo.i); break;
      case TK_FLT: snprintf(tmp, sizeof tmp, "FLT %.17g\n", ls.t.seminfo.r); break;
      case TK_NAME:
        snprintf(tmp, sizeof tmp, "NAME %s\n", getstr(ls.t.seminfo.ts)); break;
      case TK_STRING: {
        TString *ts = ls.t.seminfo.ts;
        snprintf(tmp, sizeof tmp, "STR %zu:", ts->len);
        luaL_addstring(&b, tmp);
        for (size_t i = 0; i < ts->len; i++) {
          unsigned char c = (unsigned char)ts->data[i];
          if (c >= 32 && c < 127) luaL_addchar(&b, c);
          else { snprintf(tmp, sizeof tmp, "<%d>", c); luaL_addstring(&b, tmp); }
        }
        luaL_addchar(&b, '\n');
        continue;
      }
      default:
        if (ls.t.token < LEX_FIRSTRES) snprintf(tmp, sizeof tmp, "'%c'\n", ls.t.token);
        else snprintf(tmp, sizeof tmp, "TOK %d\n", ls.t.token);
        break;
    }
    luaL_addstring(&b, tmp);
  }
done:
  luaL_pushresult(&b);
  return 1;
}

/* run lexall in protected mode; returns the token text or the error */
static const char *lex(const char *src) {
  lua_settop(L, 0);
  lua_pushcfunction(L, lexall);
  lua_pushstring(L, src);
  lua_pcall(L, 1, 1, 0);
  return lua_tostring(L, -1);
}

/* compile with lua_load and return the error message (or "OK") */
static const char *loaderr(const char *src) {
  lua_settop(L, 0);
  if (luaL_loadbuffer(L, src, strlen(src), src) == LUA_OK) return "OK";
  return lua_tostring(L, -1);
}

START_TEST(test_tokens) {
  ck_assert_str_eq(lex("a = b"), "NAME a\n'='\nNAME b\n");
  ck_assert_str_eq(lex("x // y .. z ... ~= == <= >= << >> ::"),
    "NAME x\nTOK 279\nNAME y\nTOK 280\nNAME z\nTOK 281\nTOK 285\nTOK 282\nTOK 284\nTOK 283\n"
    "TOK 286\nTOK 287\nTOK 288\n");
  ck_assert_str_eq(lex("local function end"), "TOK 269\nTOK 265\nTOK 262\n");
  ck_assert_str_eq(lex("-- comment\nx --[==[ long\ncomment ]==] y"), "NAME x\nNAME y\n");
  ck_assert_str_eq(lex("_a1 A_ b2c"), "NAME _a1\nNAME A_\nNAME b2c\n");
}
END_TEST

START_TEST(test_numerals) {
  ck_assert_str_eq(lex("3 3.0 3.1416 314.16e-2 0.31416E1 34e1"),
    "INT 3\nFLT 3\nFLT 3.1415999999999999\nFLT 3.1415999999999999\n"
    "FLT 3.1415999999999999\nFLT 340\n");
  ck_assert_str_eq(lex("0xff 0xBEBADA 0x0.1E 0xA23p-4 0X1.921FB54442D18P+1"),
    "INT 255\nINT 12499674\nFLT 0.1171875\nFLT 162.1875\nFLT 3.1415926535897931\n");
  /* hex integers wrap around; decimal overflow becomes a float */
  ck_assert_str_eq(lex("0xffffffffffffffff 0x10000000000000001"), "INT -1\nINT 1\n");
  ck_assert_str_eq(lex("9223372036854775807 9223372036854775808"),
    "INT 9223372036854775807\nFLT 9.2233720368547758e+18\n");
  ck_assert_str_eq(lex(".5 5."), "FLT 0.5\nFLT 5\n");
}
END_TEST

START_TEST(test_strings) {
  ck_assert_str_eq(lex("'a\\tb' \"q\\\"\""), "STR 3:a<9>b\nSTR 2:q\"\n");
  ck_assert_str_eq(lex("'\\65\\066\\x43\\u{44}'"), "STR 4:ABCD\n");
  ck_assert_str_eq(lex("'\\u{7FF}\\u{FFFF}'"), "STR 5:<223><191><239><191><191>\n");
  ck_assert_str_eq(lex("'\\u{7FFFFFFF}'"), "STR 6:<253><191><191><191><191><191>\n");
  ck_assert_str_eq(lex("'a\\z   \n  b'"), "STR 2:ab\n");
  ck_assert_str_eq(lex("'a\\\nb'"), "STR 3:a<10>b\n");
  ck_assert_str_eq(lex("[[\nfirst]] [==[a]]b]==]"), "STR 5:first\nSTR 4:a]]b\n");
  ck_assert_str_eq(lex("'\\0\\a\\b\\f\\n\\r\\v\\\\'"), "STR 8:<0><7><8><12><10><13><11>\\\n");
}
END_TEST

START_TEST(test_errors) {
  ck_assert_str_eq(loaderr("x = "), "[string \"x = \"]:1: unexpected symbol near <eof>");
  ck_assert_str_eq(loaderr("x = 3x"), "[string \"x = 3x\"]:1: malformed number near '3x'");
  ck_assert_str_eq(loaderr("x = \"abc"), "[string \"x = \"abc\"]:1: unfinished string near <eof>");
  ck_assert_str_eq(loaderr("x = \"abc\ny\""),
    "[string \"x = \"abc...\"]:1: unfinished string near '\"abc'");
  ck_assert_str_eq(loaderr("x = '\\q'"),
    "[string \"x = '\\q'\"]:1: invalid escape sequence near ''\\q'");
  ck_assert_str_eq(loaderr("x = '\\300'"),
    "[string \"x = '\\300'\"]:1: decimal escape too large near ''\\300''");
  ck_assert_str_eq(loaderr("x = '\\xg'"),
    "[string \"x = '\\xg'\"]:1: hexadecimal digit expected near ''\\xg'");
  ck_assert_str_eq(loaderr("x = [==[ abc"),
    "[string \"x = [==[ abc\"]:1: unfinished long string (starting at line 1) near <eof>");
  ck_assert_str_eq(loaderr("x = [=x"),
    "[string \"x = [=x\"]:1: invalid long string delimiter near '[='");
  ck_assert_str_eq(loaderr("x = 0x"), "[string \"x = 0x\"]:1: malformed number near '0x'");
  ck_assert_str_eq(loaderr("\n\ny = = 1"), "[string \"...\"]:3: unexpected symbol near '='");
}
END_TEST

START_TEST(test_chunkid) {
  char buf[LUA_IDSIZE];
  const char *longname =
    "@/a/very/long/path/name/that/does/not/fit/into/the/buffer/at/all/file.lua";
  mvm_chunkid(buf, "=stdin", 6);
  ck_assert_str_eq(buf, "stdin");
  mvm_chunkid(buf, "@t.lua", 6);
  ck_assert_str_eq(buf, "t.lua");
  mvm_chunkid(buf, longname, strlen(longname));
  ck_assert_int_eq(strlen(buf), LUA_IDSIZE - 1);
  ck_assert(strncmp(buf, "...", 3) == 0);
  ck_assert(strcmp(buf + strlen(buf) - 8, "file.lua") == 0);
  mvm_chunkid(buf, "x = 1", 5);
  ck_assert_str_eq(buf, "[string \"x = 1\"]");
  mvm_chunkid(buf, "x = 1\ny = 2", 11);
  ck_assert_str_eq(buf, "[string \"x = 1...\"]");
}
END_TEST

static Suite *lex_suite(void) {
  Suite *s = suite_create("lex");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_tokens);
  tcase_add_test(tc, test_numerals);
  tcase_add_test(tc, test_strings);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_chunkid);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return unit_run_suite(lex_suite());
}
