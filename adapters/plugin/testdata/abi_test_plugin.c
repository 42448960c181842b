/*
 * Plugins for adapters/plugin/plugin_host_test.cc, made of the c-memory
 * example's engine (its source is included):
 *   default     ABI 1.1: engine "abi-ref" (get_ref counted) and "abi-serial",
 *               whose put counts how many writers are inside it at once (it
 *               declares no concurrent writers: the host must keep it at one),
 *               "abi-batch", whose batch functions count their calls (the host
 *               answers a misuse without calling them), and "abi-breach",
 *               whose get_ref breaks the ABI in the way its key names
 *               ("nobytes", "overflow", "status", "negative");
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

#if !defined(ABI_1_0)
static atomic_long batch_calls;

KVBENCH_PLUGIN_EXPORT long abi_test_batch_calls(void) { return atomic_load(&batch_calls); }

static kvbench_status counting_begin(kvbench_session* s, kvbench_message* m) {
  atomic_fetch_add(&batch_calls, 1);
  return begin_batch(s, m);
}
static kvbench_status counting_commit(kvbench_session* s, kvbench_message* m) {
  atomic_fetch_add(&batch_calls, 1);
  return commit_batch(s, m);
}
static kvbench_status counting_abort(kvbench_session* s, kvbench_message* m) {
  atomic_fetch_add(&batch_calls, 1);
  return abort_batch(s, m);
}

static int key_is(const char* key, size_t key_size, const char* word) {
  return key_size == strlen(word) && memcmp(key, word, key_size) == 0;
}

/* Each breach on a successful call, where the host's cheap OK-path checks must see it. */
static kvbench_status breaching_get_ref(kvbench_session* s, const char* key, size_t key_size,
                                        const char** value, size_t* value_size,
                                        kvbench_message* message) {
  if (key_is(key, key_size, "nobytes")) {
    *value = NULL;
    *value_size = 5;
    return KVBENCH_OK;
  }
  if (key_is(key, key_size, "overflow")) {
    memset(message->text, 'x', message->capacity + 4);
    *value = "";
    *value_size = 0;
    return KVBENCH_OK;
  }
  if (key_is(key, key_size, "status")) return KVBENCH_STATUS_LAST + 35;
  if (key_is(key, key_size, "negative")) return -1;
  return get_ref(s, key, key_size, value, value_size, message);
}
#endif

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
static kvbench_engine_api test_engines[4];

KVBENCH_PLUGIN_EXPORT const kvbench_plugin* kvbench_plugin_entry(void) {
  static kvbench_plugin plugin;
  test_engines[0] = kEngines[0];
  test_engines[0].name = "abi-ref";
  test_engines[0].get_ref = counting_get_ref;
  test_engines[1] = kEngines[0];
  test_engines[1].name = "abi-serial";
  test_engines[1].put = counting_put;
  test_engines[2] = kEngines[0];
  test_engines[2].name = "abi-batch";
  test_engines[2].begin_batch = counting_begin;
  test_engines[2].commit_batch = counting_commit;
  test_engines[2].abort_batch = counting_abort;
  test_engines[3] = kEngines[0];
  test_engines[3].name = "abi-breach";
  test_engines[3].get_ref = breaching_get_ref;
  plugin = (kvbench_plugin){KVBENCH_PLUGIN_ABI_MAJOR, KVBENCH_PLUGIN_ABI_MINOR, "abi-test",
                            test_engines, 4};
  return &plugin;
}
#endif
