#include <stdlib.h>
#include <string.h>
#include "cache.h"

void cache_init(struct cache *c) { memset(c, 0, sizeof *c); }

static struct entry *find(struct cache *c, const char *key) {
  for (int i = 0; i < CACHE_SLOTS; i++)
    if (c->slot[i].value && strcmp(c->slot[i].key, key) == 0) return &c->slot[i];
  return NULL;
}

const char *cache_get(struct cache *c, const char *key) {
  struct entry *e = find(c, key);
  if (!e) return NULL;
  e->used = ++c->clock;
  return e->value;
}

static struct entry *victim(struct cache *c) {
  struct entry *v = &c->slot[0];
  for (int i = 0; i < CACHE_SLOTS; i++) {
    if (!c->slot[i].value) return &c->slot[i];
    if (c->slot[i].used < v->used) v = &c->slot[i];
  }
  return v;
}

void cache_put(struct cache *c, const char *key, const char *value) {
  struct entry *e = find(c, key);
  if (!e) {
    e = victim(c);
    free(e->value);
    e->value = NULL;
    strncpy(e->key, key, sizeof e->key - 1);
    e->key[sizeof e->key - 1] = '\0';
  } else {
    free(e->value);
  }
  e->value = strdup(value);
  e->used = ++c->clock;
}

void cache_clear(struct cache *c) {
  for (int i = 0; i < CACHE_SLOTS; i++) free(c->slot[i].value);
  cache_init(c);
}
