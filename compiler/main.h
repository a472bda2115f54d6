/*
 * main.h — loomc's pipeline as a function, for the programs that run it
 * in memory (the fuzzer: fuzz/fuzz_frontend.c).
 */
#ifndef LOOMC_MAIN_H
#define LOOMC_MAIN_H

#include "frontend/frontend.h"
#include "util/strbuf.h"

/* Every stage of the translation of opt's input (opt->input_text when
 * set), in memory: libclang's parse into *fe and *prog, the analyses and
 * transformations, and the output C into out (when opt->output is set).
 * Returns the number of errors, each reported through diag(); the caller
 * disposes fe (frontend_dispose) whatever happened. */
int loomc_pipeline(const options *opt, frontend *fe, program *prog, strbuf *out, arena *a);

#endif
