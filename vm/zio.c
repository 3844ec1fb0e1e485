/*
** zio.c -- buffered input for the compiler and the binary-chunk loader.
**
** A ZIO wraps a lua_Reader: it asks the reader for one block at a time and
** hands out bytes from it.  The reader owns the block; it stays valid until
** the next call to the reader, which is all the lexer/undump need.
*/
#include <string.h>
#include "zio.h"

void zio_init(lua_State *L, ZIO *z, lua_Reader reader, void *data) {
  z->L = L;
  z->reader = reader;
  z->data = data;
  z->n = 0;
  z->p = NULL;
}

/* Called when the current block is exhausted (zgetc has already decremented
** n past zero).  Fetch the next non-empty block and return its first byte, or
** EOZ when the reader reports the end (NULL or an empty block). */
int zio_fill(ZIO *z) {
  size_t size;
  const char *buff = z->reader(z->L, z->data, &size);
  if (buff == NULL || size == 0) {
    z->n = 0;   /* keep 'n' sane: zgetc may have wrapped it */
    return EOZ;
  }
  z->n = size - 1;   /* the byte returned below is consumed */
  z->p = buff;
  return (unsigned char)(*z->p++);
}

/* Copy n bytes into b; returns how many bytes could NOT be read (0 = all). */
size_t zio_read(ZIO *z, void *b, size_t n) {
  char *dst = (char *)b;
  while (n > 0) {
    size_t m;
    if (z->n == 0) {              /* block exhausted: fetch another */
      if (zio_fill(z) == EOZ)
        return n;
      z->n++;                     /* put back the byte zio_fill consumed */
      z->p--;
    }
    m = (n <= z->n) ? n : z->n;
    memcpy(dst, z->p, m);
    z->n -= m;
    z->p += m;
    dst += m;
    n -= m;
  }
  return 0;
}
