#ifndef QUEUE_H
#define QUEUE_H
#include <stddef.h>
struct node { int value; struct node *next; };
struct queue { struct node *head, *tail; size_t size; };
void queue_push(struct queue *q, int value);
int queue_pop(struct queue *q);
void queue_clear(struct queue *q);
#endif
