#ifndef JSON_H
#define JSON_H
#include <stddef.h>

/* A parsed object of string keys and string or integer values (no nesting), at most 16 members. */
struct member { char key[32]; int is_string; char text[64]; long number; };
struct object { struct member m[16]; int n; };

/* Parses an object from exactly len bytes at text (no NUL terminator needed). 0 on success, -1 on a syntax error. */
int json_parse_object(const char *text, size_t len, struct object *out);
#endif
