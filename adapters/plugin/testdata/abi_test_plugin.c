/*
 * Plugins for adapters/plugin/plugin_host_test.cc, made of the c-memory
 * example's engine (its source is included):
 *   default     ABI 1.1: engine "abi-ref" (get_ref counted) and "abi-serial",
 *               whose put counts how many writers are inside it at once (it
 *               declares no concurrent writers: the host must keep it at one);
 *   ABI_1_0     a plugin as ABI 1.0 laid it out: abi_minor 0 and an engine
 *               array whose elements end before get_ref (struct_size and
 *               stride 1.0's), two engines "abi10-a" and "abi10-b".
 */
#define kvbench_plugin_entry c_memory_plugin_entry
#include "../../../examples/plugin-c-memory/memory_plugin.c"
#undef kvbench_plugin_entry

#include <stdalign.h>
#include <stdatomic.h>

static atomic_long get_ref_calls;

KVBENCH_PLUGIN_EXPORT long abi_test_get_ref_calls(void) { return atomic_load(&get_ref_calls); }

#if !defined(ABI_1_0)
static atomic_int writers_inside;
static atomic_int most_writers_inside;

KVBENCH_PLUGIN_EXPORT int abi_test_most_writers_inside(void) {
  return atomic_load(&most_writers_inside);
}

static kvbench_status counting_put(kvbench_session* s, const char* k, size_t kn, const char* v,
                                   size_t vn, kvbench_message* m) {
  const int inside = atomic_fetch_add(&writers_inside, 1) + 1;
  int most = atomic_load(&most_writers_inside);
  while (inside > most && !atomic_compare_exchange_weak(&most_writers_inside, &most, inside)) {
  }
  /* A window for a second writer to arrive in, were the host to let it in. */
  for (volatile int i = 0; i < 200; ++i) {
  }
  const kvbench_status status = put(s, k, kn, v, vn, m);
  atomic_fetch_sub(&writers_inside, 1);
  return status;
}
#endif

static kvbench_status counting_get_ref(kvbench_session* s, const char* key, size_t key_size,
                                       const char** value, size_t* value_size,
                                       kvbench_message* message) {
  atomic_fetch_add(&get_ref_calls, 1);
  return get_ref(s, key, key_size, value, value_size, message);
}

#if defined(ABI_1_0)
/* ABI 1.0's table ends at scan: get_ref's offset in 1.1. */
#define V10_SIZE offsetof(kvbench_engine_api, get_ref)
static alignas(kvbench_engine_api) unsigned char v10_engines[2 * V10_SIZE];

KVBENCH_PLUGIN_EXPORT const kvbench_plugin* kvbench_plugin_entry(void) {
  static kvbench_plugin plugin;
  kvbench_engine_api e = kEngines[0];
  e.struct_size = V10_SIZE;
  e.get_ref = counting_get_ref; /* cut off below: a 1.0 plugin has none */
  e.name = "abi10-a";
  memcpy(v10_engines, &e, V10_SIZE);
  e.name = "abi10-b";
  memcpy(v10_engines + V10_SIZE, &e, V10_SIZE);
  plugin = (kvbench_plugin){1, 0, "abi10", (const kvbench_engine_api*)v10_engines, 2};
  return &plugin;
}
#else
static kvbench_engine_api test_engines[2];

KVBENCH_PLUGIN_EXPORT const kvbench_plugin* kvbench_plugin_entry(void) {
  static kvbench_plugin plugin;
  test_engines[0] = kEngines[0];
  test_engines[0].name = "abi-ref";
  test_engines[0].get_ref = counting_get_ref;
  test_engines[1] = kEngines[0];
  test_engines[1].name = "abi-serial";
  test_engines[1].put = counting_put;
  plugin = (kvbench_plugin){KVBENCH_PLUGIN_ABI_MAJOR, KVBENCH_PLUGIN_ABI_MINOR, "abi-test",
                            test_engines, 2};
  return &plugin;
}
#endif
