#include "frame.h"

int frame_length(const char *p) {
  return ((unsigned char)p[0] << 8) | (unsigned char)p[1];
}

int split_frames(const char *buf, size_t n, char **payloads, size_t *lens, int max) {
  size_t off = 0;
  int count = 0;
  while (off + FRAME_HEADER <= n && count < max) {
    int len = frame_length(buf + off);
    off += FRAME_HEADER;
    if (len > (int)(n - off)) return -1;
    payloads[count] = copy_payload(buf + off, (size_t)len);
    lens[count++] = (size_t)len;
    off += (size_t)len;
  }
  return count;
}
