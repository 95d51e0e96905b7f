#include <stdlib.h>
#include "queue.h"

void queue_push(struct queue *q, int value) {
  struct node *n = malloc(sizeof *n);
  n->value = value;
  n->next = NULL;
  if (q->tail) q->tail->next = n; else q->head = n;
  q->tail = n;
  q->size++;
}

/* Removes the front node and returns its value; the queue must not be empty. */
int queue_pop(struct queue *q) {
  struct node *n = q->head;
  q->head = n->next;
  if (q->head == NULL) q->tail = NULL;
  q->size--;
  int value = n->value;
  free(n);
  return value;
}

void queue_clear(struct queue *q) {
  while (q->head) queue_pop(q);
}
