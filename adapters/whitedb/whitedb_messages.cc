#include "adapters/whitedb/whitedb_messages.h"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string_view>
#include <vector>

namespace kvbench {
namespace {

// Bytes of one thread's messages kept between takes (a loop of failing calls
// that nobody takes must not grow it without bound).
constexpr size_t kKeepBytes = 2048;
constexpr size_t kQuotedLines = 2;
constexpr size_t kQuotedLineBytes = 160;

thread_local std::string captured;

ssize_t CaptureWrite(void*, const char* buf, size_t size) {
  captured.append(buf, size);
  if (captured.size() > 2 * kKeepBytes) captured.erase(0, captured.size() - kKeepBytes);
  return static_cast<ssize_t>(size);
}

// The variable libwgdb's `stderr` slot points at once contained: a stream that
// is never closed (libwgdb may print until the process ends).
FILE* whitedb_stderr = nullptr;

// What dl_iterate_phdr tells about libwgdb.
struct LoadedObject {
  ElfW(Addr) base = 0;
  const ElfW(Phdr) * phdr = nullptr;
  ElfW(Half) phnum = 0;
  bool found = false;
};

int FindLibwgdb(dl_phdr_info* info, size_t, void* data) {
  const char* name = info->dlpi_name;
  if (name == nullptr) return 0;
  const char* slash = std::strrchr(name, '/');
  const std::string_view file = slash != nullptr ? slash + 1 : name;
  if (file.substr(0, 11) != "libwgdb.so.") return 0;
  auto* object = static_cast<LoadedObject*>(data);
  object->base = info->dlpi_addr;
  object->phdr = info->dlpi_phdr;
  object->phnum = info->dlpi_phnum;
  object->found = true;
  return 1;
}

// The addresses of libwgdb's slots that hold the address of `stderr`, from
// its dynamic relocations (REL or RELA, whichever the platform uses).
std::vector<FILE***> StderrSlots(const LoadedObject& object) {
  const ElfW(Dyn)* dynamic = nullptr;
  for (ElfW(Half) i = 0; i < object.phnum; ++i) {
    if (object.phdr[i].p_type == PT_DYNAMIC) {
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(object.base + object.phdr[i].p_vaddr);
    }
  }
  std::vector<FILE***> slots;
  if (dynamic == nullptr) return slots;
  // The dynamic linker rewrites these to addresses on most platforms; on the
  // others they are still offsets from the load address.
  const auto address = [&](ElfW(Addr) p) { return p < object.base ? p + object.base : p; };
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  ElfW(Addr) rela = 0, rel = 0;
  size_t rela_bytes = 0, rel_bytes = 0;
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB:
        symbols = reinterpret_cast<const ElfW(Sym)*>(address(d->d_un.d_ptr));
        break;
      case DT_STRTAB:
        strings = reinterpret_cast<const char*>(address(d->d_un.d_ptr));
        break;
      case DT_RELA:
        rela = address(d->d_un.d_ptr);
        break;
      case DT_RELASZ:
        rela_bytes = d->d_un.d_val;
        break;
      case DT_REL:
        rel = address(d->d_un.d_ptr);
        break;
      case DT_RELSZ:
        rel_bytes = d->d_un.d_val;
        break;
      default:
        break;
    }
  }
  if (symbols == nullptr || strings == nullptr) return slots;
  const auto consider = [&](ElfW(Addr) offset, ElfW(Xword) info) {
#if __ELF_NATIVE_CLASS == 64
    const size_t symbol = ELF64_R_SYM(info);
#else
    const size_t symbol = ELF32_R_SYM(info);
#endif
    if (symbol == 0 || std::strcmp(strings + symbols[symbol].st_name, "stderr") != 0) return;
    auto* slot = reinterpret_cast<FILE***>(object.base + offset);
    // Only a slot the dynamic linker filled with stderr's address.
    if (*slot == &stderr) slots.push_back(slot);
  };
  if (rela != 0) {
    const auto* r = reinterpret_cast<const ElfW(Rela)*>(rela);
    for (size_t i = 0; i < rela_bytes / sizeof(ElfW(Rela)); ++i)
      consider(r[i].r_offset, r[i].r_info);
  }
  if (rel != 0) {
    const auto* r = reinterpret_cast<const ElfW(Rel)*>(rel);
    for (size_t i = 0; i < rel_bytes / sizeof(ElfW(Rel)); ++i) consider(r[i].r_offset, r[i].r_info);
  }
  return slots;
}

// Writes `value` into `slot`. The dynamic linker made the pages of the
// object's RELRO segment (rounded down to whole pages at both ends, as it
// protects them) read-only; such a page is made writable for the store and
// read-only again. False when the protection cannot be changed.
bool Store(const LoadedObject& object, FILE*** slot, FILE** value) {
  const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<uintptr_t>(slot);
  uintptr_t relro_start = 0, relro_end = 0;
  for (ElfW(Half) i = 0; i < object.phnum; ++i) {
    if (object.phdr[i].p_type == PT_GNU_RELRO) {
      const uintptr_t start = object.base + object.phdr[i].p_vaddr;
      relro_start = start & ~(page - 1);
      relro_end = (start + object.phdr[i].p_memsz) & ~(page - 1);
    }
  }
  void* const slot_page = reinterpret_cast<void*>(at & ~(page - 1));
  const bool read_only = at >= relro_start && at < relro_end;
  if (read_only && mprotect(slot_page, page, PROT_READ | PROT_WRITE) != 0) return false;
  *slot = value;
  if (read_only) mprotect(slot_page, page, PROT_READ);
  return true;
}

bool Contain() {
  LoadedObject object;
  dl_iterate_phdr(FindLibwgdb, &object);
  if (!object.found) return false;
  const std::vector<FILE***> slots = StderrSlots(object);
  if (slots.empty()) return false;
  whitedb_stderr =
      fopencookie(nullptr, "w", cookie_io_functions_t{nullptr, CaptureWrite, nullptr, nullptr});
  if (whitedb_stderr == nullptr) return false;
  // Unbuffered: each fprintf reaches CaptureWrite at once, on its own thread.
  setvbuf(whitedb_stderr, nullptr, _IONBF, 0);
  bool all = true;
  for (FILE*** slot : slots) all = Store(object, slot, &whitedb_stderr) && all;
  return all;
}

}  // namespace

bool ContainWhitedbMessages() {
  static std::once_flag once;
  static bool contained = false;
  std::call_once(once, [] { contained = Contain(); });
  return contained;
}

std::string TakeWhitedbMessages() {
  if (captured.empty()) return "";
  std::vector<std::string> lines;
  size_t begin = 0;
  while (begin < captured.size()) {
    size_t end = captured.find('\n', begin);
    if (end == std::string::npos) end = captured.size();
    std::string line;
    for (size_t i = begin; i < end; ++i) {
      const char c = captured[i];
      if (c == ' ' && (line.empty() || line.back() == ' ')) continue;  // WhiteDB pads with spaces
      if (static_cast<unsigned char>(c) >= 0x20) line.push_back(c);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.size() > kQuotedLineBytes) line.resize(kQuotedLineBytes);
    if (!line.empty()) lines.push_back(std::move(line));
    begin = end + 1;
  }
  captured.clear();
  if (lines.empty()) return "";
  std::string out = " (WhiteDB: ";
  const size_t first = lines.size() > kQuotedLines ? lines.size() - kQuotedLines : 0;
  for (size_t i = first; i < lines.size(); ++i) out += (i > first ? "; " : "") + lines[i];
  return out + ")";
}

void DiscardWhitedbMessages() { captured.clear(); }

}  // namespace kvbench
