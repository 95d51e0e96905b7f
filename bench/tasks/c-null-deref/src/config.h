#ifndef CONFIG_H
#define CONFIG_H
struct entry { const char *key; const char *value; };
const char *config_get(const char *key);
int config_int(const char *key, int fallback);
#endif
