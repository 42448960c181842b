/*
 * Plugins that break the ABI, one per FAULT value, for
 * examples/plugin_sdk_test.sh: each must be refused at load (exit 2, one
 * message) or fail only its engine, never kvbench.
 *   FAULT_ABI_2          built for plugin ABI 2 (its minor version this SDK's)
 *   FAULT_CLASH          an engine named "stdmap", a built-in engine's name
 *   FAULT_MISSING_GET    an engine table without get
 *   FAULT_BAD_STATUS     put returns 42, not a kvbench_status
 *   FAULT_OVERFLOW       get writes past the end of its message buffer
 * The engines are the c-memory example's (its source is included).
 */
/* The example's own entry point is renamed; this file exports the faulty one. */
#define kvbench_plugin_entry c_memory_plugin_entry
#include "../../../examples/plugin-c-memory/memory_plugin.c"
#undef kvbench_plugin_entry

#if defined(FAULT_BAD_STATUS)
static kvbench_status bad_status_put(kvbench_session* s, const char* k, size_t kn, const char* v,
                                     size_t vn, kvbench_message* m) {
  (void)s, (void)k, (void)kn, (void)v, (void)vn, (void)m;
  return 42;
}
#endif

#if defined(FAULT_OVERFLOW)
static kvbench_status overflowing_get(kvbench_session* s, const char* k, size_t kn,
                                      const kvbench_value_sink* v, kvbench_message* m) {
  (void)s, (void)k, (void)kn, (void)v;
  memset(m->text, 'x', m->capacity + 8); /* past the end: the fault under test */
  return KVBENCH_IO_ERROR;
}
#endif

static kvbench_engine_api faulty_engines[1];

KVBENCH_PLUGIN_EXPORT const kvbench_plugin* kvbench_plugin_entry(void) {
  static kvbench_plugin plugin;
  faulty_engines[0] = kEngines[0];
  faulty_engines[0].name = "faulty";
  plugin = (kvbench_plugin){KVBENCH_PLUGIN_ABI_MAJOR, KVBENCH_PLUGIN_ABI_MINOR, "faulty",
                            faulty_engines, 1};
#if defined(FAULT_ABI_2)
  plugin.abi_major = 2;
#elif defined(FAULT_CLASH)
  faulty_engines[0].name = "stdmap";
#elif defined(FAULT_MISSING_GET)
  faulty_engines[0].get = NULL;
#elif defined(FAULT_BAD_STATUS)
  faulty_engines[0].put = bad_status_put;
#elif defined(FAULT_OVERFLOW)
  faulty_engines[0].get = overflowing_get;
  faulty_engines[0].get_ref = NULL; /* so kvbench calls the overflowing get */
#endif
  return &plugin;
}
