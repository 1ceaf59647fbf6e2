#pragma once
// A zeroed block of memory for the big tables probed at random (transposition and endgame
// tables). Linux backs it with 2 MB pages where it can: each probe then misses the cache once,
// not also the page-table walk that 4 KB pages add at every random access over gigabytes.

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
  explicit HugeBuffer(std::size_t bytes) : size_(bytes) {
    if (bytes == 0) return;
#if SEMIS_HUGE_PAGES
    const std::size_t rounded = (bytes + kPage - 1) / kPage * kPage;
    void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) outOfMemory();
#if defined(MADV_HUGEPAGE)
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    // Fault every page in now: the kernel zeroes a page on its first touch, which would otherwise
    // land inside the first search (8-10% of a one-thread Kalah(6,4) solve's samples).
    for (std::size_t at = 0; at < rounded; at += 4096) static_cast<volatile char*>(p)[at] = 0;
    data_ = p;
    mapped_ = rounded;
#else
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
