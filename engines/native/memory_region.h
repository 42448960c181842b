// MemoryRegion: the block of memory an arena lives in, either private
// anonymous memory or a POSIX shared-memory object (shm_open + mmap) that other
// processes can map too. Knows nothing of what is stored inside.
//
// Private memory reserves `max_size` bytes of address space up front and makes
// only the first `size` usable, so it can grow in place without moving: the
// arena's offsets stay valid and so do pointers taken under a lock. A shared
// object has a fixed size (other processes have it mapped at its old length).
//
// Not thread-safe: the owner (Database) serialises Grow with its write lock.
#pragma once

#include <cstdint>
#include <string>

#include "engines/native/status.h"

namespace nativedb {

struct RegionOptions {
  // Touch every page at creation, so creation cost grows with size (as in
  // seed 000) and later writes never take a page fault.
  bool prefault = true;
  // Ask for transparent huge pages on private memory: fewer TLB misses when
  // scanning or chasing references through gigabytes of records.
  bool huge_pages = false;
};

class MemoryRegion {
 public:
  MemoryRegion() = default;
  ~MemoryRegion();
  MemoryRegion(MemoryRegion&& other) noexcept;
  MemoryRegion& operator=(MemoryRegion&& other) noexcept;
  MemoryRegion(const MemoryRegion&) = delete;
  MemoryRegion& operator=(const MemoryRegion&) = delete;

  // `size` bytes usable now, zeroed; up to `max_size` (>= size) by Grow.
  // IOError when the kernel refuses the reservation.
  static Status CreatePrivate(uint64_t size, uint64_t max_size, const RegionOptions& options,
                              MemoryRegion* out);
  // Creates the shared object `name` ("/name"; a missing leading slash is
  // added) of `size` bytes. Busy when the name exists already.
  static Status CreateShared(const std::string& name, uint64_t size, const RegionOptions& options,
                             MemoryRegion* out);
  // Maps an existing shared object whole. NotFound when there is none.
  static Status AttachShared(const std::string& name, MemoryRegion* out);
  // Removes the name; processes that have it mapped keep their mapping.
  // NotFound when there is none.
  static Status UnlinkShared(const std::string& name);

  char* base() const { return base_; }
  uint64_t size() const { return size_; }
  uint64_t max_size() const { return max_size_; }
  bool shared() const { return shared_; }
  // The normalised shared-memory name ("/name"); empty for private memory.
  const std::string& name() const { return name_; }

  // Asks the kernel to back [begin, begin + bytes) with pages now, in one
  // call (MADV_POPULATE_WRITE), instead of one page fault per page later.
  // Advisory: where the kernel cannot, the pages fault in on first write.
  static void Populate(char* begin, uint64_t bytes);
  // Makes at least `min_size` bytes usable (doubling, capped at max_size).
  // NotSupported for shared memory; Full when max_size is too small.
  Status Grow(uint64_t min_size);

  // Unmaps now (the destructor does the same).
  void Release();

 private:
  char* base_ = nullptr;
  uint64_t size_ = 0;
  uint64_t max_size_ = 0;
  // What to munmap: the reservation may start before base_ (alignment).
  char* mapping_ = nullptr;
  uint64_t mapping_bytes_ = 0;
  bool shared_ = false;
  std::string name_;
};

// "/name" for "name"; "/name" stays.
std::string NormalizeShmName(const std::string& name);

}  // namespace nativedb
