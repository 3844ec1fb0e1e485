/* zio.h -- buffered input for the compiler and undump (vm/zio.c). */
#ifndef mvm_zio_h
#define mvm_zio_h
#include "state.h"

#define EOZ (-1)
typedef struct ZIO {
  size_t n;            /* bytes still unread */
  const char *p;       /* current position in buffer */
  lua_Reader reader;
  void *data;
  lua_State *L;
} ZIO;

LUAI_FUNC void zio_init(lua_State *L, ZIO *z, lua_Reader reader, void *data);
LUAI_FUNC int zio_fill(ZIO *z);                                 /* EOZ at end */
LUAI_FUNC size_t zio_read(ZIO *z, void *b, size_t n);           /* returns bytes missing */
#define zgetc(z)  (((z)->n--) > 0 ? (unsigned char)(*(z)->p++) : zio_fill(z))
#endif
