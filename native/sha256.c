/* sbx-launch: SHA-256 (FIPS 180-4), for the tree walk's fingerprint: the
 * digest node:crypto gives for the same bytes. */
#define _GNU_SOURCE
#include "sha256.h"
#include <stdio.h>
#include <string.h>

static const uint32_t K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void
block(struct sha256 *h, const unsigned char *p)
{
  uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
  int i;

  for (i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (i = 16; i < 64; i++)
    {
      uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
  a = h->s[0], b = h->s[1], c = h->s[2], d = h->s[3];
  e = h->s[4], f = h->s[5], g = h->s[6], k = h->s[7];
  for (i = 0; i < 64; i++)
    {
      t1 = k + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
  h->s[0] += a, h->s[1] += b, h->s[2] += c, h->s[3] += d;
  h->s[4] += e, h->s[5] += f, h->s[6] += g, h->s[7] += k;
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/* The same block with the CPU's SHA extensions (where it has them): a tree walk hashes a record a file,
 * and the portable block was ~6% of a walk's CPU. The message schedule four words at a time. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
block_ni(struct sha256 *h, const unsigned char *p)
{
  const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i w[4], s0, s1, tmp, abef, cdgh;
  tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h->s[0]), 0xB1); /* CDAB */
  s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h->s[4]), 0x1B);  /* EFGH */
  s0 = _mm_alignr_epi8(tmp, s1, 8);                                          /* ABEF */
  s1 = _mm_blend_epi16(s1, tmp, 0xF0);                                       /* CDGH */
  abef = s0, cdgh = s1;
  for (int g = 0; g < 16; g++)
    {
      __m128i m;
      if (g < 4)
        m = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * g)), swap);
      else
        {
          m = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
          m = _mm_add_epi32(m, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
          m = _mm_sha256msg2_epu32(m, w[(g + 3) & 3]);
        }
      w[g & 3] = m;
      m = _mm_add_epi32(m, _mm_loadu_si128((const __m128i *)&K[4 * g]));
      s1 = _mm_sha256rnds2_epu32(s1, s0, m);
      s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
    }
  s0 = _mm_add_epi32(s0, abef);
  s1 = _mm_add_epi32(s1, cdgh);
  tmp = _mm_shuffle_epi32(s0, 0x1B);   /* FEBA */
  s1 = _mm_shuffle_epi32(s1, 0xB1);    /* DCHG */
  s0 = _mm_blend_epi16(tmp, s1, 0xF0); /* DCBA */
  s1 = _mm_alignr_epi8(s1, tmp, 8);    /* HGFE */
  _mm_storeu_si128((__m128i *)&h->s[0], s0);
  _mm_storeu_si128((__m128i *)&h->s[4], s1);
}

static int
have_sha_ni(void)
{
  static int known = -1;
  unsigned a, b, c, d;
  if (known < 0)
    known = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 19)) && (c & (1u << 9)) &&
            __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
  return known;
}
#define BLOCK(h, p) (have_sha_ni() ? block_ni(h, p) : block(h, p))
#else
#define BLOCK(h, p) block(h, p)
#endif

void
sha256_init(struct sha256 *h)
{
  static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
  memcpy(h->s, iv, sizeof iv);
  h->len = 0;
  h->used = 0;
}

void
sha256_update(struct sha256 *h, const void *data, size_t n)
{
  const unsigned char *p = data;
  h->len += n;
  if (h->used)
    {
      size_t take = 64 - h->used < n ? 64 - h->used : n;
      memcpy(h->buf + h->used, p, take);
      h->used += take, p += take, n -= take;
      if (h->used < 64)
        return;
      BLOCK(h, h->buf);
      h->used = 0;
    }
  for (; n >= 64; p += 64, n -= 64)
    BLOCK(h, p);
  memcpy(h->buf, p, n);
  h->used = n;
}

/* The digest as 64 lowercase hex digits and a NUL. */
void
sha256_hex(struct sha256 *h, char out[65])
{
  uint64_t bits = h->len * 8;
  unsigned char pad = 0x80, len[8];
  int i;

  sha256_update(h, &pad, 1);
  pad = 0;
  while (h->used != 56)
    sha256_update(h, &pad, 1);
  for (i = 0; i < 8; i++)
    len[i] = (unsigned char)(bits >> (56 - 8 * i));
  sha256_update(h, len, 8);
  for (i = 0; i < 32; i++)
    sprintf(out + 2 * i, "%02x", (h->s[i / 4] >> (24 - 8 * (i % 4))) & 0xff);
  out[64] = 0;
}
