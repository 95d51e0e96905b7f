#ifndef BATCH_H
#define BATCH_H
#include <stddef.h>
#include "queue.h"

/* Queues one log line for the next flush. */
void log_line(struct queue *q, const char *line);
/* Sends the queued lines and writes a summary of them into out: "N lines, B bytes, first .. last". */
int flush_summary(struct queue *q, char *out, size_t n);
#endif
