#ifndef BUFFER_H
#define BUFFER_H
#include <stddef.h>
struct buffer { char *data; size_t len, cap; };
int buffer_init(struct buffer *b, size_t cap);
int buffer_append(struct buffer *b, const char *s);
char *buffer_take(struct buffer *b);
void buffer_free(struct buffer *b);
#endif
