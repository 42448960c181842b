/*
 * kvbench plugin ABI: how an engine built outside kvbench's tree is loaded
 * into `kvbench run` and `kvbench conformance`.
 *
 * A plugin is a shared object exporting one C function,
 *
 *   const kvbench_plugin* kvbench_plugin_entry(void);
 *
 * that returns a descriptor naming the ABI version it was built for and a
 * table of engines. Each engine is a table of function pointers mirroring
 * kvbench's adapter contract (adapters/adapter.h in the kvbench sources):
 * an engine handle (the opened database) hands out sessions (one per client
 * thread) that carry the data operations. Plain C types only: pointers and
 * lengths, int32 status codes and a message buffer, so a plugin built by
 * another compiler, or written in C, Rust or Zig, loads.
 *
 * Versioning. KVBENCH_PLUGIN_ABI_MAJOR changes when a function's meaning or
 * a struct's layout changes: kvbench refuses a plugin of another major
 * version, naming both. A minor version only appends members at the end of
 * kvbench_engine_api (its struct_size says how many the plugin knows) and
 * adds status codes nobody has to return; kvbench accepts any minor version
 * of its major and treats members past the plugin's struct_size as absent.
 * kvbench_plugin.engines is an array of the plugin's own kvbench_engine_api,
 * so kvbench steps through it by the plugin's struct_size, not its own.
 *
 * History: 1.0 the table up to `scan`. 1.1 appends `get_ref` (a get
 * without the value sink's second copy and indirect call).
 *
 * Conventions for every function below:
 *  - Keys and values are byte strings given as pointer + length (NUL bytes
 *    allowed). They are valid for the call only. Every engine accepts keys up
 *    to 2 KiB (or declares max_key_size) and values up to 1 MiB.
 *  - A function returns a kvbench_status. KVBENCH_NOT_FOUND is a normal
 *    answer; KVBENCH_NOT_SUPPORTED means the engine cannot do it at all.
 *    Any other value is the plugin's fault: kvbench fails the engine, naming
 *    the function and the value.
 *  - On an error the plugin may describe it in `message`: at most
 *    message->capacity bytes including a terminating NUL. Writing past
 *    capacity is the plugin's fault (kvbench checks guard bytes after the
 *    buffer and fails the engine). The plugin never keeps the pointer.
 *  - Nothing prints, reads a clock for the benchmark's sake, or lets a C++
 *    exception or longjmp cross the boundary.
 *
 * Thread-safety (as adapters/adapter.h): engine functions (open, close, sync,
 * list_files, reorganize, check_integrity) are called from one thread at a
 * time, never while a session call runs, except new_session. Each session is
 * used by one thread at a time; sessions of one engine may run on different
 * threads at once unless the capabilities say otherwise. Functions marked
 * "static" (library_version, capabilities before open, check_options,
 * declare_durability) touch no file and may be called before open.
 */
#ifndef KVBENCH_PLUGIN_H_
#define KVBENCH_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KVBENCH_PLUGIN_ABI_MAJOR 1
#define KVBENCH_PLUGIN_ABI_MINOR 1

/* The exported entry point's name, for dlsym. */
#define KVBENCH_PLUGIN_ENTRY_SYMBOL "kvbench_plugin_entry"

#if defined(_WIN32)
#define KVBENCH_PLUGIN_EXPORT __declspec(dllexport)
#else
#define KVBENCH_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* Status codes: the same classes as kvbench::Status. */
typedef int32_t kvbench_status;
#define KVBENCH_OK 0
#define KVBENCH_NOT_FOUND 1        /* the key does not exist: a normal answer */
#define KVBENCH_NOT_SUPPORTED 2    /* the engine cannot do this at all */
#define KVBENCH_INVALID_ARGUMENT 3 /* a bad option value, key or misuse; name the option */
#define KVBENCH_IO_ERROR 4         /* the operating system refused */
#define KVBENCH_CORRUPTION 5       /* the files are not what the engine wrote */
#define KVBENCH_BUSY 6             /* a lock is held elsewhere */
#define KVBENCH_INTERNAL 7         /* an engine error kvbench cannot classify */
#define KVBENCH_STATUS_LAST 7      /* the highest valid code of this ABI version */

/* Where a failing call describes its failure. Owned by kvbench. */
typedef struct kvbench_message {
  char* text;      /* text[0] is NUL on entry */
  size_t capacity; /* bytes text may hold, terminating NUL included */
} kvbench_message;

/* Receives a value: the plugin calls set() once with the bytes, which kvbench
 * copies before set() returns. Returns 0, or non-zero when kvbench could not
 * take the bytes (the plugin then returns KVBENCH_INTERNAL). */
typedef struct kvbench_value_sink {
  void* context;
  int (*set)(void* context, const char* data, size_t size);
} kvbench_value_sink;

/* One resolved option: every declared option with its default filled in,
 * plus the workload's overrides. Valid for the call only. */
typedef struct kvbench_option {
  const char* name;
  const char* value;
} kvbench_option;

/* An option the engine understands: namespaced ("myengine.cache_size"), the
 * default as text ("" = unset: the engine's own default) and one line of
 * help saying why the default is what it is. */
typedef struct kvbench_option_spec {
  const char* name;
  const char* default_value;
  const char* help;
  int32_t is_prefix; /* non-zero: accepts every name that starts with `name` */
} kvbench_option_spec;

/* What the engine can do (adapters/adapter.h, struct Capabilities). Each is
 * a claim kvbench relies on and `kvbench conformance` checks. */
typedef struct kvbench_capabilities {
  int32_t stores_data;        /* zero only for an engine that keeps nothing */
  int32_t ordered;            /* scan works, in unsigned byte order of keys */
  int32_t transactional;      /* batches commit atomically and abort discards them */
  int32_t durable;            /* committed data survives close and reopen */
  int32_t concurrent_readers; /* sessions on several threads read in parallel */
  int32_t concurrent_writers; /* sessions on several threads write in parallel */
  int32_t reorganize;         /* reorganize() compacts the files */
  uint64_t max_key_size;      /* 0: at least 2 KiB; else the longest key stored */
} kvbench_capabilities;

/* What an acknowledged commit survives (adapters/adapter.h, FaultPromise). */
#define KVBENCH_PROMISE_NOTHING 0
#define KVBENCH_PROMISE_CONSISTENT 1 /* the files open; recent commits may be missing */
#define KVBENCH_PROMISE_DURABLE 2    /* every acknowledged commit is there */

typedef struct kvbench_durability {
  int32_t process_crash;  /* SIGKILL: the page cache survives */
  int32_t power_loss;     /* only what was fsynced survives */
  int32_t atomic_batches; /* after either fault a batch is all there or not at all */
} kvbench_durability;

#define KVBENCH_SCAN_FORWARD 0
#define KVBENCH_SCAN_BACKWARD 1

typedef struct kvbench_scan_options {
  int32_t direction; /* KVBENCH_SCAN_FORWARD: keys >= start; BACKWARD: keys <= start */
  int32_t from_edge; /* ignore start: begin at the first (forward) or last key */
  int32_t keys_only; /* the visitor needs no values; they may be passed empty */
  uint64_t limit;    /* at most this many visits; 0 = no limit */
} kvbench_scan_options;

/* Called once per entry in scan order; the bytes are valid for the call
 * only. Returns non-zero to go on, zero to stop. */
typedef int (*kvbench_scan_visit)(void* context, const char* key, size_t key_size,
                                  const char* value, size_t value_size);

/* Called once per file the engine owns; `path` is absolute and valid for
 * the call only. */
typedef void (*kvbench_file_visit)(void* context, const char* path);

/* Opaque handles, defined by the plugin. */
typedef struct kvbench_engine kvbench_engine;
typedef struct kvbench_session kvbench_session;

/* One engine. Members marked "optional" may be NULL. */
typedef struct kvbench_engine_api {
  /* sizeof(kvbench_engine_api) as the plugin was compiled. */
  size_t struct_size;
  /* The engine name used in workloads and --engines ("qdbm-villa"):
   * letters, digits, '-', '_' and '.'; must not be a built-in engine's. */
  const char* name;
  const char* description; /* one line for `kvbench engines` */

  /* Static. The engine library's own version string; kvbench copies it. */
  const char* (*library_version)(void);
  /* Static. The options this engine understands; the array lives as long
   * as the plugin is loaded. */
  const kvbench_option_spec* option_specs;
  size_t option_spec_count;

  /* A new, unopened engine handle, or NULL when out of memory. */
  kvbench_engine* (*create)(void);
  /* Frees a handle; closes it first when open. */
  void (*destroy)(kvbench_engine* engine);

  /* Valid before open (the defaults) and after it (the options it was
   * opened with). Fills *out. */
  void (*capabilities)(const kvbench_engine* engine, kvbench_capabilities* out);
  /* Static. Checks option values (types, ranges, conflicts) exactly as open
   * would: KVBENCH_INVALID_ARGUMENT naming the option. */
  kvbench_status (*check_options)(const kvbench_engine* engine, const kvbench_option* options,
                                  size_t option_count, kvbench_message* message);
  /* Static, optional. What a commit survives under these options (accepted
   * by check_options). `basis` receives one line naming the option values
   * that decide it; a durable engine must fill it. NULL promises nothing. */
  void (*declare_durability)(const kvbench_engine* engine, const kvbench_option* options,
                             size_t option_count, kvbench_durability* out,
                             kvbench_message* basis);

  /* Opens or creates the database in `directory`, which exists and is the
   * engine's alone; every file the engine writes stays inside it. */
  kvbench_status (*open)(kvbench_engine* engine, const char* directory,
                         const kvbench_option* options, size_t option_count,
                         kvbench_message* message);
  /* Flushes and closes; every session is gone. Safe when not open. */
  kvbench_status (*close)(kvbench_engine* engine, kvbench_message* message);
  /* Forces committed data to stable storage, whatever the options say. */
  kvbench_status (*sync)(kvbench_engine* engine, kvbench_message* message);
  /* Calls visit once for every file the engine owns now. */
  kvbench_status (*list_files)(const kvbench_engine* engine, kvbench_file_visit visit,
                               void* context, kvbench_message* message);
  /* Optional: rewrites the files compactly. NULL: not supported. */
  kvbench_status (*reorganize)(kvbench_engine* engine, kvbench_message* message);
  /* Optional: the engine's own consistency check. NULL: not supported. */
  kvbench_status (*check_integrity)(kvbench_engine* engine, kvbench_message* message);

  /* A new session; may be called from any thread while others run. */
  kvbench_status (*new_session)(kvbench_engine* engine, kvbench_session** out,
                                kvbench_message* message);
  /* Ends a session; an open batch is aborted. */
  void (*close_session)(kvbench_session* session);

  /* Inserts or overwrites. */
  kvbench_status (*put)(kvbench_session* session, const char* key, size_t key_size,
                        const char* value, size_t value_size, kvbench_message* message);
  /* Passes the value to value->set; KVBENCH_NOT_FOUND when absent. */
  kvbench_status (*get)(kvbench_session* session, const char* key, size_t key_size,
                        const kvbench_value_sink* value, kvbench_message* message);
  /* Removes the key; absent keys give OK or NOT_FOUND. */
  kvbench_status (*remove)(kvbench_session* session, const char* key, size_t key_size,
                           kvbench_message* message);
  /* Batches: writes between begin and commit are grouped; on a transactional
   * engine they commit atomically and abort discards them, otherwise abort
   * returns KVBENCH_NOT_SUPPORTED. Reads inside a batch are engine-defined.
   * kvbench keeps each session's batch state itself and answers a misuse (a
   * second begin, a commit or abort with none open) without calling the
   * plugin: begin_batch is called only with no batch open on the session,
   * commit_batch and abort_batch only with one. After commit_batch the batch
   * is over whatever it returned (a failed commit must leave none open);
   * after abort_batch too, unless it returned KVBENCH_NOT_SUPPORTED (the
   * batch then stays open until commit). A plugin may still refuse a misuse
   * itself, for a host that does not check. */
  kvbench_status (*begin_batch)(kvbench_session* session, kvbench_message* message);
  kvbench_status (*commit_batch)(kvbench_session* session, kvbench_message* message);
  kvbench_status (*abort_batch)(kvbench_session* session, kvbench_message* message);
  /* Optional (ordered engines): visits entries from start in byte order.
   * *visited receives the number of visit calls. NULL: not ordered. */
  kvbench_status (*scan)(kvbench_session* session, const char* start, size_t start_size,
                         const kvbench_scan_options* options, kvbench_scan_visit visit,
                         void* context, uint64_t* visited, kvbench_message* message);
  /* Records (adapters/record.h) come from kvbench's shared record layer over
   * put/get/remove/scan; native records are for a later minor version. */

  /* ---- ABI 1.1 ---- */

  /* Optional: get without the value sink. On KVBENCH_OK, *value and
   * *value_size describe the value's bytes, owned by the plugin and left
   * unchanged until the next call that passes this session (any function
   * taking it, close_session included); kvbench copies them before that.
   * *value may be NULL only when *value_size is 0. KVBENCH_NOT_FOUND when the
   * key is absent (*value is not read). Bytes another session may change or
   * free (a writer on another thread) must first be copied somewhere the
   * session owns. When present, kvbench calls it instead of get; get stays
   * required (a plugin may be loaded by a kvbench that predates 1.1). */
  kvbench_status (*get_ref)(kvbench_session* session, const char* key, size_t key_size,
                            const char** value, size_t* value_size, kvbench_message* message);
} kvbench_engine_api;

/* What kvbench_plugin_entry returns; lives as long as the plugin is loaded.
 * abi_major and abi_minor stay the first two members in every ABI version, so
 * kvbench can read them from a plugin of any version before trusting the rest. */
typedef struct kvbench_plugin {
  uint32_t abi_major; /* KVBENCH_PLUGIN_ABI_MAJOR the plugin was built with */
  uint32_t abi_minor; /* KVBENCH_PLUGIN_ABI_MINOR the plugin was built with */
  const char* name;   /* the plugin's own name, for messages ("qdbm") */
  const kvbench_engine_api* engines;
  size_t engine_count;
} kvbench_plugin;

typedef const kvbench_plugin* (*kvbench_plugin_entry_fn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KVBENCH_PLUGIN_H_ */
