#ifndef GZHEAD_H
#define GZHEAD_H

/*
 * A streaming reader of a gzip-like header: flags (1 byte); if FLAG_EXTRA, the extra field's length
 * (2 bytes, little-endian) and that many bytes; then a NUL-terminated name. Input may arrive in pieces
 * of any size: each call consumes what it can and keeps its place in the state.
 */
#define FLAG_EXTRA 4

/* Where the caller wants the header: extra is a buffer of extra_max bytes (or NULL), name of name_max. */
struct gz_header {
  unsigned char *extra; unsigned extra_len; unsigned extra_max;
  char *name; unsigned name_max;
};

enum gz_mode { MODE_FLAGS, MODE_EXLEN, MODE_EXTRA, MODE_NAME, MODE_DONE };

struct gz_state {
  enum gz_mode mode;
  unsigned flags;
  unsigned length;  /* bytes of the extra field still to come, or the extra length's bytes seen */
  unsigned have;    /* bytes of the name stored */
  struct gz_header *head;
};

void gz_init(struct gz_state *st, struct gz_header *head);
/* Feeds n bytes; returns how many it consumed. The header is complete when st->mode is MODE_DONE. */
unsigned gz_feed(struct gz_state *st, const unsigned char *next, unsigned n);
#endif
