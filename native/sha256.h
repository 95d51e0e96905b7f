/* sbx-launch: SHA-256 (sha256.c). */
#ifndef SBX_SHA256_H
#define SBX_SHA256_H
#include <stddef.h>
#include <stdint.h>

struct sha256
{
  uint32_t s[8];
  uint64_t len;
  unsigned char buf[64];
  size_t used;
};
void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t n);
void sha256_hex(struct sha256 *h, char out[65]);

#endif
