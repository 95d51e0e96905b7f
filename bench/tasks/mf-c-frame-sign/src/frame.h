#ifndef FRAME_H
#define FRAME_H
#include <stddef.h>

/* A frame on the wire: a 2-byte big-endian payload length, then the payload. */
#define FRAME_HEADER 2

/* The payload length announced by the frame header at p. */
int frame_length(const char *p);
/* Splits buf into frames; each payload is copied out by copy_payload. Returns the count, -1 if truncated. */
int split_frames(const char *buf, size_t n, char **payloads, size_t *lens, int max);
/* A malloc'd copy of the len bytes at src. */
char *copy_payload(const char *src, size_t len);
#endif
