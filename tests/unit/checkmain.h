/*
** checkmain.h -- the one way a unit-test program runs its Check suite.
*/
#ifndef mvm_checkmain_h
#define mvm_checkmain_h

#include <check.h>

/* Run every test of 's' (Check prints its "N%: Checks: ..." summary line,
** which CI reads), free it, and return the process exit status: 0 when no
** test failed. */
int unit_run_suite(Suite *s);

#endif
