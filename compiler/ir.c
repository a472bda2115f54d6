/*
 * ir.c — names of IR enumerations, for diagnostics and dumps.
 */
#include "ir.h"

const char *obj_kind_name(obj_kind k) {
  static const char *const names[] = {"set", "map", "dat", "global"};
  return names[k];
}

const char *mode_name(access_mode m) {
  static const char *const names[] = {"none", "read", "write", "rw",
                                      "inc",  "min",  "max"};
  return names[m];
}
