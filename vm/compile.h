/*
** compile.h -- the front end: lexer, parser, bytecode generation (vm/lex.c,
** vm/parse.c, vm/code.c ...), and binary chunks (vm/dump.c, vm/undump.c).
*/
#ifndef mvm_compile_h
#define mvm_compile_h
#include "zio.h"

/* Compile a text chunk read from 'z' ('firstchar' already read from it) and
** push a new Lua closure with 1 upvalue (not yet initialised) on L's stack.
** Syntax errors are raised as LUA_ERRSYNTAX with a message like
** "chunkname:line: message near 'token'".  MAY ALLOCATE. */
LUAI_FUNC LClosure *mvm_parse(lua_State *L, ZIO *z, const char *chunkname, int firstchar);
/* Load a binary chunk (after its first char LUA_SIGNATURE[0]); pushes a closure. */
LUAI_FUNC LClosure *mvm_undump(lua_State *L, ZIO *z, const char *chunkname);
/* string.dump / lua_dump */
LUAI_FUNC int mvm_dump(lua_State *L, const Proto *f, lua_Writer w, void *data, int strip);
/* chunkid: "short_src" for error messages (LUA_IDSIZE) */
LUAI_FUNC void mvm_chunkid(char *out, const char *source, size_t srclen);
/* disassembler for debugging (MVM_DUMP_BYTECODE / tests) */
LUAI_FUNC void mvm_disasm(const Proto *f, int recursive, void *file);
#endif
