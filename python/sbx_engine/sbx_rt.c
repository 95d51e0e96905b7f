/* The wasm2c runtime for sbx's verdict engine, and the C entry points Python calls through ctypes.
 *
 * wasm2c (Debian's wabt) turns build/sbx.wasm into C; Debian ships its runtime only as a non-PIC static
 * library, which cannot go into a shared object, so the few runtime functions the module uses are here:
 * linear memory (explicit bounds checks, no signal handlers: WASM_RT_MEMCHECK_SIGNAL_HANDLER=0), the
 * function-type registry, traps as a longjmp back to the entry point that made the call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbx.h"

#define PAGE 65536u
#define MAX_PAGES 65535u /* the size field is 32 bits */

uint32_t wasm_rt_call_stack_depth;
static jmp_buf trap_target;
static int trap_code;
static uint32_t abort_args[4];

bool wasm_rt_is_initialized(void) { return true; }

void wasm_rt_trap(wasm_rt_trap_t code) {
  trap_code = (int)code;
  longjmp(trap_target, 1);
}

/* Function types for call_indirect checks: equal signatures get the same index (from 1). */
static struct { uint32_t params, results; wasm_rt_type_t types[16]; } func_types[64];
static uint32_t n_func_types;

uint32_t wasm_rt_register_func_type(uint32_t params, uint32_t results, ...) {
  wasm_rt_type_t types[16] = {0};
  uint32_t n = params + results;
  va_list ap;
  va_start(ap, results);
  for (uint32_t i = 0; i < n; i++) {
    wasm_rt_type_t t = va_arg(ap, wasm_rt_type_t);
    if (i < 16) types[i] = t;
  }
  va_end(ap);
  if (n > 16) abort();
  for (uint32_t i = 0; i < n_func_types; i++)
    if (func_types[i].params == params && func_types[i].results == results && !memcmp(func_types[i].types, types, sizeof types)) return i + 1;
  if (n_func_types == 64) abort();
  func_types[n_func_types].params = params;
  func_types[n_func_types].results = results;
  memcpy(func_types[n_func_types].types, types, sizeof types);
  return ++n_func_types;
}

void wasm_rt_allocate_memory(wasm_rt_memory_t* m, uint32_t initial, uint32_t max) {
  m->data = calloc(initial ? (size_t)initial * PAGE : 1, 1);
  if (!m->data) wasm_rt_trap(WASM_RT_TRAP_OOB);
  m->pages = initial;
  m->max_pages = max;
  m->size = initial * PAGE;
}

uint32_t wasm_rt_grow_memory(wasm_rt_memory_t* m, uint32_t delta) {
  uint32_t old = m->pages;
  uint64_t want = (uint64_t)old + delta;
  if (want > m->max_pages || want > MAX_PAGES) return (uint32_t)-1;
  if (delta == 0) return old;
  uint8_t* data = realloc(m->data, (size_t)want * PAGE);
  if (!data) return (uint32_t)-1;
  memset(data + (size_t)old * PAGE, 0, (size_t)delta * PAGE);
  m->data = data;
  m->pages = (uint32_t)want;
  m->size = (uint32_t)(want * PAGE);
  return old;
}

void wasm_rt_free_memory(wasm_rt_memory_t* m) {
  free(m->data);
  m->data = NULL;
}

/* The module's one import: AssemblyScript's abort(message, file, line, column). */
void Z_envZ_abort(struct Z_env_instance_t* env, u32 msg, u32 file, u32 line, u32 col) {
  (void)env;
  abort_args[0] = msg; abort_args[1] = file; abort_args[2] = line; abort_args[3] = col;
  wasm_rt_trap((wasm_rt_trap_t)-1);
}

/* ---- entry points for Python ---- */

enum { F_ALLOC, F_BEGIN, F_FEED, F_FINISH, F_RENDER, F_JUNIT, F_JUNIT_MERGE, F_DELTA, F_OUTPUT, F_SETUP_FAILED };

/* Returns 0, or the trap code (-1: the module called abort; sbx_abort_args tells where). */
static int guarded(Z_sbx_instance_t* x, int fn, const uint32_t* a, uint32_t* out) {
  if (setjmp(trap_target)) {
    wasm_rt_call_stack_depth = 0;
    return trap_code == 0 ? -2 : trap_code;
  }
  uint32_t r = 0;
  switch (fn) {
    case F_ALLOC: r = Z_sbxZ_alloc(x, a[0]); break;
    case F_BEGIN: Z_sbxZ_begin(x, a[0], a[1], a[2], a[3]); break;
    case F_FEED: Z_sbxZ_feed(x, a[0]); break;
    case F_FINISH: r = Z_sbxZ_finish(x); break;
    case F_RENDER: r = Z_sbxZ_render(x, a[0]); break;
    case F_JUNIT: r = Z_sbxZ_junit(x, a[0]); break;
    case F_JUNIT_MERGE: r = Z_sbxZ_junitMerge(x, a[0], a[1]); break;
    case F_DELTA: r = Z_sbxZ_delta(x, a[0], a[1], a[2], a[3]); break;
    case F_OUTPUT: r = Z_sbxZ_output(x); break;
    case F_SETUP_FAILED: Z_sbxZ_setupFailed(x, a[0]); break;
    default: return -3;
  }
  *out = r;
  return 0;
}

int sbx_call(void* h, int fn, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t* out) {
  uint32_t a[4] = {a0, a1, a2, a3};
  return guarded((Z_sbx_instance_t*)h, fn, a, out);
}

static bool module_ready;

void* sbx_new(int* code) {
  if (!module_ready) { Z_sbx_init_module(); module_ready = true; }
  Z_sbx_instance_t* x = calloc(1, sizeof *x);
  if (!x) { *code = -4; return NULL; }
  if (setjmp(trap_target)) {
    wasm_rt_call_stack_depth = 0;
    *code = trap_code == 0 ? -2 : trap_code;
    return NULL;
  }
  Z_sbx_instantiate(x, NULL);
  *code = 0;
  return x;
}

void sbx_free(void* h) {
  if (!h) return;
  Z_sbx_free((Z_sbx_instance_t*)h);
  free(h);
}

uint8_t* sbx_memory(void* h, uint32_t* size) {
  wasm_rt_memory_t* m = Z_sbxZ_memory((Z_sbx_instance_t*)h);
  *size = m->size;
  return m->data;
}

void sbx_abort_args(uint32_t out[4]) { memcpy(out, abort_args, sizeof abort_args); }
