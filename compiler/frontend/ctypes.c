/*
 * ctypes.c — the C element types of dats and globals (see ctypes.h).
 */
#include "frontend/ctypes.h"

#include <string.h>

static const struct {
  enum CXTypeKind kind;
  elem_type type;
} elem_types[] = {
    {CXType_Double, {"double", "LOOM_DOUBLE", sizeof(double)}},
    {CXType_Float, {"float", "LOOM_FLOAT", sizeof(float)}},
    {CXType_Int, {"int", "LOOM_INT", sizeof(int)}},
    {CXType_UInt, {"unsigned int", "LOOM_UINT", sizeof(unsigned int)}},
    {CXType_Long, {"long", "LOOM_LONG", sizeof(long)}},
    {CXType_ULong, {"unsigned long", "LOOM_ULONG", sizeof(unsigned long)}},
    {CXType_LongLong, {"long long", "LOOM_LLONG", sizeof(long long)}},
    {CXType_ULongLong, {"unsigned long long", "LOOM_ULLONG", sizeof(unsigned long long)}},
    {CXType_Short, {"short", "LOOM_SHORT", sizeof(short)}},
    {CXType_UShort, {"unsigned short", "LOOM_USHORT", sizeof(unsigned short)}},
    {CXType_Char_S, {"char", "LOOM_CHAR", sizeof(char)}},
    {CXType_Char_U, {"char", "LOOM_CHAR", sizeof(char)}},
    {CXType_SChar, {"signed char", "LOOM_SCHAR", sizeof(signed char)}},
    {CXType_UChar, {"unsigned char", "LOOM_UCHAR", sizeof(unsigned char)}},
};

const elem_type *elem_type_of(CXType t) {
  t = clang_getCanonicalType(t);
  for (size_t i = 0; i < sizeof elem_types / sizeof elem_types[0]; i++)
    if (elem_types[i].kind == t.kind)
      return &elem_types[i].type;
  return NULL;
}

const elem_type *elem_type_named(const char *s) {
  for (size_t i = 0; i < sizeof elem_types / sizeof elem_types[0]; i++)
    if (strcmp(elem_types[i].type.c_name, s) == 0)
      return &elem_types[i].type;
  return NULL;
}
