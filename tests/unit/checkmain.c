/*
** checkmain.c -- shared by every tests/unit/test_*.c program (see checkmain.h).
*/
#include "checkmain.h"

int unit_run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  int nf;
  srunner_run_all(sr, CK_NORMAL);
  nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? 0 : 1;
}
