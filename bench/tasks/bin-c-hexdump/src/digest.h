#ifndef DIGEST_H
#define DIGEST_H
/* The checksum of the NUL-terminated data as hexadecimal text (malloc'd, the caller frees it). */
char *digest_hex(const char *data);
#endif
