#ifndef CACHE_H
#define CACHE_H
#define CACHE_SLOTS 2

struct entry { char key[16]; char *value; unsigned long used; };
struct cache { struct entry slot[CACHE_SLOTS]; unsigned long clock; };

void cache_init(struct cache *c);
/* The value stored for key, or NULL. The cache owns it. */
const char *cache_get(struct cache *c, const char *key);
/* Stores a copy of value under key; when full, the least recently used entry makes room. */
void cache_put(struct cache *c, const char *key, const char *value);
void cache_clear(struct cache *c);
#endif
