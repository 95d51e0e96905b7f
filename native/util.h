/* sbx-launch: the ground floor (util.c). Helpers return -1 with errno for
 * their caller to decide; only die() and die_with_error() end the process.
 * Includes no other part's header but the protocol's. */
#ifndef SBX_UTIL_H
#define SBX_UTIL_H
#include "sbx.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define PREFIX "sbx-launch: "

/* Retries a call that failed with EINTR; its result otherwise (glibc's, with
 * _GNU_SOURCE; spelled out for a C library without it). */
#ifndef TEMP_FAILURE_RETRY
#define TEMP_FAILURE_RETRY(expression)                                                                                 \
  ({                                                                                                                   \
    long int __result;                                                                                                 \
    do                                                                                                                 \
      __result = (long int)(expression);                                                                               \
    while (__result == -1L && errno == EINTR);                                                                         \
    __result;                                                                                                          \
  })
#endif

/* Who die() speaks for: the launcher ("sbx-launch: ", exit EXIT_SETUP_FAILED)
 * unless a program of its own that links util.c (sbx-client) names itself. */
void die_as(const char *prefix, int exit_code);
void vdie(int err, const char *fmt, va_list ap) __attribute__((noreturn, format(printf, 2, 0)));
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void die_with_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Allocation that dies ("out of memory") rather than return NULL, as bubblewrap's xmalloc family. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
/* p (an array of *cap items of size bytes) with room for at least need items: doubled from first. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size, size_t first);
int64_t now_ns(void);
int write_all(int fd, const char *buf, size_t len);
ssize_t read_from_start(int fd, char *buf, size_t cap);
int write_file(const char *path, const char *content);
int parse_long(const char *s, long min, long max, long *out);
void close_fds_range(unsigned int first, unsigned int last);

#endif
