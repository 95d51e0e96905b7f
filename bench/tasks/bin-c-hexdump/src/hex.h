#ifndef HEX_H
#define HEX_H
#include <stddef.h>

/* libhex (prebuilt: libhex.a). Encodes the n bytes at in as hexadecimal text into out; returns the text's length. */
size_t hex_encode(const unsigned char *in, size_t n, char *out);
#endif
