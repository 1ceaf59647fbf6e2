#pragma once
// A zeroed block of memory for the big tables probed at random (transposition and endgame
// tables). Linux backs it with 2 MB pages where it can: each probe then misses the cache once,
// not also the page-table walk that 4 KB pages add at every random access over gigabytes.

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#define SEMIS_HUGE_PAGES 1
#include <sys/mman.h>
#endif

namespace semis::engine {

class HugeBuffer {
 public:
  HugeBuffer() = default;
  explicit HugeBuffer(std::size_t bytes) : HugeBuffer(bytes, bytes) {}
  // `bytes` usable now, and room reserved to extend() up to `reserve` bytes in place (address
  // space only: nothing of it is backed or zeroed before it is extended to).
  HugeBuffer(std::size_t bytes, std::size_t reserve) : size_(bytes) {
    if (bytes == 0) return;
#if SEMIS_HUGE_PAGES
    const std::size_t rounded = (std::max(bytes, reserve) + kPage - 1) / kPage * kPage;
    void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) outOfMemory();
#if defined(MADV_HUGEPAGE)
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    data_ = p;
    mapped_ = rounded;
    faultIn(0, bytes);
#else
    (void)reserve;
    data_ = std::calloc(bytes, 1);
    if (data_ == nullptr) outOfMemory();
#endif
  }
  HugeBuffer(HugeBuffer&& o) noexcept : data_(o.data_), size_(o.size_), mapped_(o.mapped_) {
    o.data_ = nullptr;
    o.size_ = o.mapped_ = 0;
  }
  HugeBuffer& operator=(HugeBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_;
      size_ = o.size_;
      mapped_ = o.mapped_;
      o.data_ = nullptr;
      o.size_ = o.mapped_ = 0;
    }
    return *this;
  }
  HugeBuffer(const HugeBuffer&) = delete;
  HugeBuffer& operator=(const HugeBuffer&) = delete;
  ~HugeBuffer() { release(); }

  [[nodiscard]] void* data() const { return data_; }
  [[nodiscard]] std::size_t size() const { return size_; }
  // The whole reservation, for populate().
  struct Span {
    void* data = nullptr;
    std::size_t bytes = 0;
  };
  [[nodiscard]] Span reservation() const { return {data_, mapped_}; }
  // Backs the pages of `span` now (zeroed, as extend() would find them) without reading or writing
  // what they hold: the kernel's work alone, so another thread may use and extend the buffer
  // meanwhile. A hint: where the kernel cannot (before Linux 5.14), extend() faults the pages in.
  static void populate(Span span) {
#if SEMIS_HUGE_PAGES && defined(MADV_POPULATE_WRITE)
    if (span.data != nullptr) madvise(span.data, span.bytes, MADV_POPULATE_WRITE);
#else
    (void)span;
#endif
  }
  // Makes the first `bytes` usable, keeping the contents (the new bytes zeroed); false, changing
  // nothing, where they were not reserved (or the platform reserves nothing): then allocate anew.
  bool extend(std::size_t bytes) {
#if SEMIS_HUGE_PAGES
    if (data_ == nullptr || bytes > mapped_) return false;
    if (bytes > size_) faultIn(size_, bytes);
    size_ = std::max(size_, bytes);
    return true;
#else
    return bytes <= size_;
#endif
  }

 private:
  static constexpr std::size_t kPage = 2 * 1024 * 1024;
  // As operator new does; builds without exceptions (the WebAssembly core) stop instead.
  [[noreturn]] static void outOfMemory() {
#if defined(__cpp_exceptions)
    throw std::bad_alloc();
#else
    std::abort();
#endif
  }
#if SEMIS_HUGE_PAGES
  // Faults the pages of [from, to) in now: the kernel zeroes a page on its first touch, which would
  // otherwise land inside the first search (8-10% of a one-thread Kalah(6,4) solve's samples).
  void faultIn(std::size_t from, std::size_t to) {
    // From the first page boundary at or past `from`: the page holding `from` is in use already.
    for (std::size_t at = (from + 4095) / 4096 * 4096; at < to; at += 4096) static_cast<volatile char*>(data_)[at] = 0;
  }
#endif
  void release() {
    if (data_ == nullptr) return;
#if SEMIS_HUGE_PAGES
    munmap(data_, mapped_);
#else
    std::free(data_);
#endif
    data_ = nullptr;
  }
  void* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_ = 0;
};

}  // namespace semis::engine
