#ifndef RECORD_H
#define RECORD_H
#include <stddef.h>

#define REC_HEARTBEAT 24
#define HB_REQUEST 1
#define HB_RESPONSE 2
#define HB_PADDING 16

/* A record as the record layer hands it up: type and a heap copy of exactly length payload bytes. */
struct record { unsigned char type; unsigned char *data; size_t length; };

/* Reads one record (type, 2-byte version, 2-byte big-endian length, payload) from wire. 0 on success. */
int record_read(const unsigned char *wire, size_t n, struct record *r);
void record_free(struct record *r);

/*
 * A heartbeat message: type (1 byte), payload_length (2 bytes, big-endian), payload, then at least
 * HB_PADDING bytes of padding. A request is answered by a response that echoes its payload.
 * Returns 1 and sets *resp (malloc'd) and *resp_len when there is a response to send, else 0.
 */
int heartbeat_process(const struct record *r, unsigned char **resp, size_t *resp_len);
#endif
