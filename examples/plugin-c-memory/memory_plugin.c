/*
 * `c-memory`: a kvbench engine written in plain C99 against
 * include/kvbench/plugin.h, to show the ABI needs no C++. It keeps a sorted
 * array of (key, value) entries in memory, found by binary search, so it is
 * ordered (scans both ways) but not durable: nothing survives close.
 *
 * Batches only group writes (not transactional: abort is NOT_SUPPORTED).
 * A read-write lock lets sessions on several threads read in parallel;
 * writers take it exclusively (concurrent_readers, not concurrent_writers).
 *
 * Build it with the installed SDK (CMakeLists.txt beside this file):
 *   cmake -S . -B build -DCMAKE_PREFIX_PATH=<kvbench prefix> && cmake --build build
 *   kvbench conformance c-memory --plugin build/libkvbench-c-memory.so
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvbench/plugin.h"

typedef struct entry {
  char* key;
  size_t key_size;
  char* value;
  size_t value_size;
} entry;

struct kvbench_engine {
  pthread_rwlock_t lock;
  entry* entries; /* sorted by key, unsigned byte order */
  size_t count;
  size_t capacity;
  size_t initial_capacity;
  int open;
};

struct kvbench_session {
  struct kvbench_engine* engine;
  int in_batch;
  /* get_ref's copy of the last value read: another session's put may free
   * the entry's bytes as soon as the read lock is released. */
  char* value;
  size_t value_capacity;
};

static void set_message(kvbench_message* message, const char* text) {
  if (message == NULL || message->capacity == 0) return;
  snprintf(message->text, message->capacity, "%s", text);
}

/* memcmp order, a shorter key first on a tie: the contract's order. */
static int compare(const char* a, size_t an, const char* b, size_t bn) {
  const int c = memcmp(a, b, an < bn ? an : bn);
  if (c != 0) return c;
  return an < bn ? -1 : (an > bn ? 1 : 0);
}

/* The index of the first entry whose key is >= key. */
static size_t lower_bound(const struct kvbench_engine* e, const char* key, size_t key_size) {
  size_t lo = 0, hi = e->count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (compare(e->entries[mid].key, e->entries[mid].key_size, key, key_size) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

static int found_at(const struct kvbench_engine* e, size_t i, const char* key, size_t key_size) {
  return i < e->count && compare(e->entries[i].key, e->entries[i].key_size, key, key_size) == 0;
}

/* malloc(0) may return NULL; every copy gets at least one byte. */
static char* copy_bytes(const char* data, size_t size) {
  char* out = malloc(size > 0 ? size : 1);
  if (out != NULL && size > 0) memcpy(out, data, size);
  return out;
}

static void free_entries(struct kvbench_engine* e) {
  for (size_t i = 0; i < e->count; ++i) {
    free(e->entries[i].key);
    free(e->entries[i].value);
  }
  free(e->entries);
  e->entries = NULL;
  e->count = e->capacity = 0;
}

static const kvbench_option_spec kOptions[] = {
    {"c-memory.initial_capacity", "1024",
     "entries allocated at open; larger avoids regrowing the array in loads", 0},
};

static const char* library_version(void) { return "c-memory-1.0"; }

static kvbench_engine* create(void) {
  struct kvbench_engine* e = calloc(1, sizeof *e);
  if (e != NULL) pthread_rwlock_init(&e->lock, NULL);
  return e;
}

static kvbench_status close_engine(kvbench_engine* e, kvbench_message* message) {
  (void)message;
  free_entries(e);
  e->open = 0;
  return KVBENCH_OK;
}

static void destroy(kvbench_engine* e) {
  close_engine(e, NULL);
  pthread_rwlock_destroy(&e->lock);
  free(e);
}

static void capabilities(const kvbench_engine* e, kvbench_capabilities* out) {
  (void)e;
  memset(out, 0, sizeof *out);
  out->stores_data = 1;
  out->ordered = 1;
  out->concurrent_readers = 1;
}

/* The one parser of the options, for check_options and open alike. */
static kvbench_status parse_options(const kvbench_option* options, size_t count,
                                    size_t* initial_capacity, kvbench_message* message) {
  for (size_t i = 0; i < count; ++i) {
    if (strcmp(options[i].name, "c-memory.initial_capacity") != 0) continue;
    char* end = NULL;
    errno = 0;
    const long long v = strtoll(options[i].value, &end, 10);
    if (options[i].value[0] == '\0' || *end != '\0' || errno != 0 || v < 1 || v > (1LL << 30)) {
      set_message(message, "option 'c-memory.initial_capacity': must be 1..2^30");
      return KVBENCH_INVALID_ARGUMENT;
    }
    *initial_capacity = (size_t)v;
  }
  return KVBENCH_OK;
}

static kvbench_status check_options(const kvbench_engine* e, const kvbench_option* options,
                                    size_t count, kvbench_message* message) {
  (void)e;
  size_t ignored = 0;
  return parse_options(options, count, &ignored, message);
}

static void declare_durability(const kvbench_engine* e, const kvbench_option* options,
                               size_t count, kvbench_durability* out, kvbench_message* basis) {
  (void)e;
  (void)options;
  (void)count;
  memset(out, 0, sizeof *out);
  set_message(basis, "c-memory keeps everything in memory: nothing survives the process");
}

static kvbench_status open_engine(kvbench_engine* e, const char* directory,
                                  const kvbench_option* options, size_t count,
                                  kvbench_message* message) {
  (void)directory;
  size_t initial = 1024;
  const kvbench_status s = parse_options(options, count, &initial, message);
  if (s != KVBENCH_OK) return s;
  free_entries(e);
  e->entries = malloc(initial * sizeof(entry));
  if (e->entries == NULL) {
    set_message(message, "out of memory");
    return KVBENCH_INTERNAL;
  }
  e->capacity = initial;
  e->open = 1;
  return KVBENCH_OK;
}

static kvbench_status sync_engine(kvbench_engine* e, kvbench_message* message) {
  (void)e;
  (void)message;
  return KVBENCH_OK;
}

static kvbench_status list_files(const kvbench_engine* e, kvbench_file_visit visit, void* context,
                                 kvbench_message* message) {
  (void)e;
  (void)visit;
  (void)context;
  (void)message;
  return KVBENCH_OK; /* in memory: no files */
}

static kvbench_status new_session(kvbench_engine* e, kvbench_session** out,
                                  kvbench_message* message) {
  if (!e->open) {
    set_message(message, "not open");
    return KVBENCH_INVALID_ARGUMENT;
  }
  struct kvbench_session* s = calloc(1, sizeof *s);
  if (s == NULL) {
    set_message(message, "out of memory");
    return KVBENCH_INTERNAL;
  }
  s->engine = e;
  *out = s;
  return KVBENCH_OK;
}

static void close_session(kvbench_session* s) {
  free(s->value);
  free(s);
}

static kvbench_status put(kvbench_session* s, const char* key, size_t key_size, const char* value,
                          size_t value_size, kvbench_message* message) {
  struct kvbench_engine* e = s->engine;
  char* v = copy_bytes(value, value_size);
  if (v == NULL) {
    set_message(message, "out of memory");
    return KVBENCH_INTERNAL;
  }
  pthread_rwlock_wrlock(&e->lock);
  const size_t i = lower_bound(e, key, key_size);
  if (found_at(e, i, key, key_size)) {
    free(e->entries[i].value);
    e->entries[i].value = v;
    e->entries[i].value_size = value_size;
    pthread_rwlock_unlock(&e->lock);
    return KVBENCH_OK;
  }
  char* k = copy_bytes(key, key_size);
  if (k == NULL) goto out_of_memory;
  if (e->count == e->capacity) {
    const size_t grown = e->capacity * 2 + 16;
    entry* entries = realloc(e->entries, grown * sizeof(entry));
    if (entries == NULL) {
      free(k);
      goto out_of_memory;
    }
    e->entries = entries;
    e->capacity = grown;
  }
  memmove(&e->entries[i + 1], &e->entries[i], (e->count - i) * sizeof(entry));
  e->entries[i] = (entry){k, key_size, v, value_size};
  e->count++;
  pthread_rwlock_unlock(&e->lock);
  return KVBENCH_OK;

out_of_memory:
  pthread_rwlock_unlock(&e->lock);
  free(v);
  set_message(message, "out of memory");
  return KVBENCH_INTERNAL;
}

static kvbench_status get(kvbench_session* s, const char* key, size_t key_size,
                          const kvbench_value_sink* value, kvbench_message* message) {
  struct kvbench_engine* e = s->engine;
  pthread_rwlock_rdlock(&e->lock);
  const size_t i = lower_bound(e, key, key_size);
  kvbench_status status = KVBENCH_NOT_FOUND;
  if (found_at(e, i, key, key_size)) {
    status = value->set(value->context, e->entries[i].value, e->entries[i].value_size) == 0
                 ? KVBENCH_OK
                 : KVBENCH_INTERNAL;
  }
  pthread_rwlock_unlock(&e->lock);
  if (status == KVBENCH_INTERNAL) set_message(message, "the value was refused");
  return status;
}

/* ABI 1.1: the value in the session's own buffer, valid until its next call.
 * Still one copy here, as writers on other threads may free the entry's bytes
 * once the lock is released; kvbench makes the second, with no callback. */
static kvbench_status get_ref(kvbench_session* s, const char* key, size_t key_size,
                              const char** value, size_t* value_size, kvbench_message* message) {
  struct kvbench_engine* e = s->engine;
  kvbench_status status = KVBENCH_NOT_FOUND;
  pthread_rwlock_rdlock(&e->lock);
  const size_t i = lower_bound(e, key, key_size);
  if (found_at(e, i, key, key_size)) {
    const size_t size = e->entries[i].value_size;
    status = KVBENCH_OK;
    if (size > s->value_capacity) {
      char* grown = realloc(s->value, size);
      if (grown == NULL) {
        status = KVBENCH_INTERNAL;
      } else {
        s->value = grown;
        s->value_capacity = size;
      }
    }
    if (status == KVBENCH_OK) {
      if (size > 0) memcpy(s->value, e->entries[i].value, size);
      *value = s->value;
      *value_size = size;
    }
  }
  pthread_rwlock_unlock(&e->lock);
  if (status == KVBENCH_INTERNAL) set_message(message, "out of memory");
  return status;
}

static kvbench_status remove_key(kvbench_session* s, const char* key, size_t key_size,
                                 kvbench_message* message) {
  (void)message;
  struct kvbench_engine* e = s->engine;
  pthread_rwlock_wrlock(&e->lock);
  const size_t i = lower_bound(e, key, key_size);
  if (!found_at(e, i, key, key_size)) {
    pthread_rwlock_unlock(&e->lock);
    return KVBENCH_NOT_FOUND;
  }
  free(e->entries[i].key);
  free(e->entries[i].value);
  memmove(&e->entries[i], &e->entries[i + 1], (e->count - i - 1) * sizeof(entry));
  e->count--;
  pthread_rwlock_unlock(&e->lock);
  return KVBENCH_OK;
}

/* Batches only group writes here; a misuse is still refused. */
static kvbench_status begin_batch(kvbench_session* s, kvbench_message* message) {
  if (s->in_batch) {
    set_message(message, "begin batch: a batch is already open");
    return KVBENCH_INVALID_ARGUMENT;
  }
  s->in_batch = 1;
  return KVBENCH_OK;
}

static kvbench_status commit_batch(kvbench_session* s, kvbench_message* message) {
  if (!s->in_batch) {
    set_message(message, "commit batch: no batch open");
    return KVBENCH_INVALID_ARGUMENT;
  }
  s->in_batch = 0;
  return KVBENCH_OK;
}

static kvbench_status abort_batch(kvbench_session* s, kvbench_message* message) {
  (void)s;
  set_message(message, "c-memory: batches are not transactional");
  return KVBENCH_NOT_SUPPORTED;
}

static kvbench_status scan(kvbench_session* s, const char* start, size_t start_size,
                           const kvbench_scan_options* options, kvbench_scan_visit visit,
                           void* context, uint64_t* visited, kvbench_message* message) {
  (void)message;
  struct kvbench_engine* e = s->engine;
  uint64_t n = 0;
  pthread_rwlock_rdlock(&e->lock);
  if (options->direction == KVBENCH_SCAN_FORWARD) {
    size_t i = options->from_edge ? 0 : lower_bound(e, start, start_size);
    for (; i < e->count && (options->limit == 0 || n < options->limit); ++i) {
      ++n;
      if (!visit(context, e->entries[i].key, e->entries[i].key_size, e->entries[i].value,
                 e->entries[i].value_size)) {
        break;
      }
    }
  } else {
    /* The last key <= start: one before the first key > start. */
    size_t end = e->count;
    if (!options->from_edge) {
      end = lower_bound(e, start, start_size);
      if (found_at(e, end, start, start_size)) ++end;
    }
    for (size_t i = end; i > 0 && (options->limit == 0 || n < options->limit); --i) {
      ++n;
      const entry* x = &e->entries[i - 1];
      if (!visit(context, x->key, x->key_size, x->value, x->value_size)) break;
    }
  }
  pthread_rwlock_unlock(&e->lock);
  if (visited != NULL) *visited = n;
  return KVBENCH_OK;
}

static const kvbench_engine_api kEngines[] = {{
    .struct_size = sizeof(kvbench_engine_api),
    .name = "c-memory",
    .description = "Sorted array in memory, in plain C (the plugin ABI's minimal example)",
    .library_version = library_version,
    .option_specs = kOptions,
    .option_spec_count = sizeof kOptions / sizeof kOptions[0],
    .create = create,
    .destroy = destroy,
    .capabilities = capabilities,
    .check_options = check_options,
    .declare_durability = declare_durability,
    .open = open_engine,
    .close = close_engine,
    .sync = sync_engine,
    .list_files = list_files,
    .new_session = new_session,
    .close_session = close_session,
    .put = put,
    .get = get,
    .remove = remove_key,
    .begin_batch = begin_batch,
    .commit_batch = commit_batch,
    .abort_batch = abort_batch,
    .scan = scan,
    .get_ref = get_ref,
}};

KVBENCH_PLUGIN_EXPORT const kvbench_plugin* kvbench_plugin_entry(void) {
  static const kvbench_plugin plugin = {KVBENCH_PLUGIN_ABI_MAJOR, KVBENCH_PLUGIN_ABI_MINOR,
                                        "c-memory", kEngines, 1};
  return &plugin;
}
