#include <stdlib.h>
#include "queue.h"

struct node { char *item; struct node *next; };
struct queue { struct node *head, *tail; };

struct queue *q_new(void) { return calloc(1, sizeof(struct queue)); }

void q_push(struct queue *q, char *item) {
  struct node *n = malloc(sizeof *n);
  n->item = item;
  n->next = NULL;
  if (q->tail) q->tail->next = n; else q->head = n;
  q->tail = n;
}

void q_drain(struct queue *q, void (*fn)(char *item, void *ctx), void *ctx) {
  struct node *n = q->head;
  while (n) {
    struct node *next = n->next;
    if (fn) fn(n->item, ctx);
    free(n->item); /* the queue owns its items */
    free(n);
    n = next;
  }
  q->head = q->tail = NULL;
}

void q_free(struct queue *q) {
  q_drain(q, NULL, NULL);
  free(q);
}
