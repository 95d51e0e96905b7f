#ifndef QUEUE_H
#define QUEUE_H

/* libqueue (prebuilt: libqueue.a): a FIFO of strings. */
struct queue;
struct queue *q_new(void);
/* Adds item (a malloc'd string) at the back of the queue. */
void q_push(struct queue *q, char *item);
/* Calls fn(item, ctx) on every item, front to back, and leaves the queue empty. */
void q_drain(struct queue *q, void (*fn)(char *item, void *ctx), void *ctx);
void q_free(struct queue *q);
#endif
