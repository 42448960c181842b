// Database::Save and Database::Load: a snapshot is the arena's image.
//
// File layout (the 64-byte file header is little-endian, written field by
// field):
//   0   8 bytes  magic "NDBSNAP1"
//   8   u32      snapshot format version (1)
//   12  u32      arena format version (format::kVersion)
//   16  u64      image bytes (the arena up to its bump pointer)
//   24  u64      checksum of the image (ImageChecksum below)
//   32  u8       byte order of the image: 'L' little-endian, 'B' big-endian
//   33  31 bytes zero
//   64  the image: the arena's bytes [0, image bytes), with the header's lock
//       zeroed (a lock's state means nothing in another process)
// The image itself is native-endian 64-bit words (format.h): Load refuses one
// written on a machine of the other byte order.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "engines/native/database.h"

namespace nativedb {

using namespace format;

namespace {

constexpr char kSnapshotMagic[8] = {'N', 'D', 'B', 'S', 'N', 'A', 'P', '1'};
constexpr uint32_t kSnapshotVersion = 1;
constexpr size_t kFileHeaderBytes = 64;
constexpr char kNativeOrder = std::endian::native == std::endian::little ? 'L' : 'B';

void PutFixed32(char* at, uint32_t v) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<char>(v >> (8 * i));
}
void PutFixed64(char* at, uint64_t v) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<char>(v >> (8 * i));
}
uint32_t GetFixed32(const char* at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<uint32_t>(static_cast<unsigned char>(at[i])) << (8 * i);
  return v;
}
uint64_t GetFixed64(const char* at) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(static_cast<unsigned char>(at[i])) << (8 * i);
  return v;
}

std::string Errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// Four independent multiply-xor lanes over the image's words, so the checksum
// runs near memory speed; `bytes` is a multiple of 8.
uint64_t ImageChecksum(const char* data, uint64_t bytes, uint64_t seed) {
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15ULL;
  uint64_t lane[4] = {seed, seed ^ 1, seed ^ 2, seed ^ 3};
  const uint64_t words = bytes / 8;
  uint64_t i = 0;
  for (; i + 4 <= words; i += 4) {
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, data + (i + l) * 8, 8);
      lane[l] = (lane[l] ^ w) * kMul;
      lane[l] ^= lane[l] >> 32;
    }
  }
  for (; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, data + i * 8, 8);
    lane[0] = (lane[0] ^ w) * kMul;
  }
  return (lane[0] * 3) ^ (lane[1] * 5) ^ (lane[2] * 7) ^ lane[3];
}

Status WriteAll(int fd, const char* data, uint64_t bytes, const std::string& path) {
  while (bytes > 0) {
    const size_t chunk = bytes < (uint64_t{1} << 30) ? bytes : (uint64_t{1} << 30);
    const ssize_t n = write(fd, data, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(Errno("write " + path));
    }
    data += n;
    bytes -= static_cast<uint64_t>(n);
  }
  return Status::OK();
}

Status ReadAll(int fd, char* data, uint64_t bytes, const std::string& path) {
  while (bytes > 0) {
    const size_t chunk = bytes < (uint64_t{1} << 30) ? bytes : (uint64_t{1} << 30);
    const ssize_t n = read(fd, data, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(Errno("read " + path));
    }
    if (n == 0) return Status::Corruption(path + ": snapshot is truncated");
    data += n;
    bytes -= static_cast<uint64_t>(n);
  }
  return Status::OK();
}

// The header page as it goes into the image: the lock zeroed.
std::vector<char> HeaderImage(const char* base) {
  std::vector<char> page(base, base + kHeaderBytes);
  std::memset(page.data() + offsetof(ArenaHeader, lock), 0, sizeof(pthread_rwlock_t));
  return page;
}

}  // namespace

Status Database::Save(const std::string& path) const {
  const uint64_t image = header_->bump;
  const std::vector<char> header_page = HeaderImage(base_);
  uint64_t checksum = ImageChecksum(header_page.data(), kHeaderBytes, 0);
  checksum = ImageChecksum(base_ + kHeaderBytes, image - kHeaderBytes, checksum);

  char file_header[kFileHeaderBytes] = {};
  std::memcpy(file_header, kSnapshotMagic, sizeof kSnapshotMagic);
  PutFixed32(file_header + 8, kSnapshotVersion);
  PutFixed32(file_header + 12, kVersion);
  PutFixed64(file_header + 16, image);
  PutFixed64(file_header + 24, checksum);
  file_header[32] = kNativeOrder;

  const std::string tmp = path + ".tmp";
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return Status::IOError(Errno("open " + tmp));
  Status st = WriteAll(fd, file_header, kFileHeaderBytes, tmp);
  if (st.ok()) st = WriteAll(fd, header_page.data(), kHeaderBytes, tmp);
  if (st.ok()) st = WriteAll(fd, base_ + kHeaderBytes, image - kHeaderBytes, tmp);
  if (st.ok() && fsync(fd) != 0) st = Status::IOError(Errno("fsync " + tmp));
  if (close(fd) != 0 && st.ok()) st = Status::IOError(Errno("close " + tmp));
  if (st.ok() && rename(tmp.c_str(), path.c_str()) != 0) {
    st = Status::IOError(Errno("rename " + tmp + " to " + path));
  }
  if (!st.ok()) unlink(tmp.c_str());
  return st;
}

Status Database::Load(const std::string& path, const Options& options,
                      std::unique_ptr<Database>* db) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return Status::IOError(Errno("open " + path));
  struct FdCloser {
    int fd;
    ~FdCloser() { close(fd); }
  } closer{fd};

  char file_header[kFileHeaderBytes];
  NATIVEDB_RETURN_IF_ERROR(ReadAll(fd, file_header, kFileHeaderBytes, path));
  if (std::memcmp(file_header, kSnapshotMagic, sizeof kSnapshotMagic) != 0) {
    return Status::Corruption(path + ": not a nativedb snapshot");
  }
  if (GetFixed32(file_header + 8) != kSnapshotVersion || GetFixed32(file_header + 12) != kVersion) {
    return Status::Corruption(
        path + ": snapshot version " + std::to_string(GetFixed32(file_header + 8)) + "/" +
        std::to_string(GetFixed32(file_header + 12)) + " is not the one this build reads");
  }
  if (file_header[32] != kNativeOrder) {
    return Status::Corruption(path + ": snapshot was written on a machine of the other byte order");
  }
  const uint64_t image = GetFixed64(file_header + 16);
  const uint64_t checksum = GetFixed64(file_header + 24);
  struct stat st;
  if (fstat(fd, &st) != 0) return Status::IOError(Errno("fstat " + path));
  if (image < kHeaderBytes || image % 8 != 0 ||
      static_cast<uint64_t>(st.st_size) != kFileHeaderBytes + image) {
    return Status::Corruption(path + ": snapshot size does not match its header");
  }

  Options create = options;
  if (create.size < image) create.size = image + image / 4;  // room to keep writing
  MemoryRegion region;
  NATIVEDB_RETURN_IF_ERROR(CreateRegion(create, &region));
  char* base = region.base();
  auto* h = reinterpret_cast<ArenaHeader*>(base);
  Status s = ReadAll(fd, base, image, path);
  // Attachers must wait until the header is fixed up below; the checksum
  // covers the magic as it was saved.
  const uint64_t image_magic = h->magic;
  h->magic = 0;
  if (s.ok()) {
    std::vector<char> page(base, base + kHeaderBytes);
    std::memcpy(page.data() + offsetof(ArenaHeader, magic), &image_magic, sizeof image_magic);
    const uint64_t head = ImageChecksum(page.data(), kHeaderBytes, 0);
    if (ImageChecksum(base + kHeaderBytes, image - kHeaderBytes, head) != checksum) {
      s = Status::Corruption(path + ": snapshot checksum mismatch");
    }
  }
  if (s.ok() && (image_magic != kMagic || h->version != kVersion ||
                 h->byte_order != kByteOrderMark || h->bump != image)) {
    s = Status::Corruption(path + ": snapshot image has a bad arena header");
  }
  if (!s.ok()) {
    if (region.shared()) MemoryRegion::UnlinkShared(region.name());
    return s;
  }
  // The image came from another mapping: adopt this one's size and kind.
  h->size = region.size();
  h->shared = region.shared() ? 1 : 0;
  Arena::InitLock(h);
  Arena arena(std::move(region));
  arena.Publish();
  db->reset(new Database(std::move(arena), create, /*creator=*/true));
  return Status::OK();
}

}  // namespace nativedb
