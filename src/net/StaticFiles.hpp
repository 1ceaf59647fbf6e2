#pragma once
// The web client's files as HTTP answers (docs/server.md, "Static files"): how long a browser may
// keep each, a strong ETag answered with 304, and a gzip copy of text files made once per version
// of a file and kept in a bounded memory cache. The path checks themselves stay in Routes.cpp.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "http/Api.hpp"

namespace semis::server {

// The request headers a static answer depends on (empty when absent).
struct StaticRequest {
  std::string_view path;            // the target's path, still percent-encoded
  std::string_view acceptEncoding;  // Accept-Encoding
  std::string_view ifNoneMatch;     // If-None-Match
};

// Accept-Encoding allows gzip: `gzip` (or `x-gzip`) listed with a q-value above 0, or not listed
// and `*` is. `gzip;q=0` refuses it whatever `*` says; an absent or empty header asks for none.
[[nodiscard]] bool acceptsGzip(std::string_view acceptEncoding);
// A file Vite named after its content under /assets/ (`index-BUjTMiqw.js`): its name changes
// whenever its bytes do, so a browser may keep it for good.
[[nodiscard]] bool hashedAssetPath(std::string_view path);
// If-None-Match names `etag` or is `*` (the weak comparison RFC 9110 asks of If-None-Match).
[[nodiscard]] bool etagMatches(std::string_view ifNoneMatch, std::string_view etag);
// Text-like content (scripts, styles, pages, SVG, JSON, WebAssembly, text), worth compressing.
[[nodiscard]] bool compressibleType(std::string_view contentType);
// `bytes` as a gzip stream (zlib), or nothing when zlib fails.
[[nodiscard]] std::optional<std::string> gzipBytes(std::string_view bytes);

class StaticFiles {
 public:
  static constexpr std::size_t kDefaultCacheBytes = std::size_t{32} << 20;
  // Smaller files are sent as they are: the gzip header and a round trip cost more than they save.
  static constexpr std::size_t kCompressFrom = 1024;

  // `webDir` empty: no client installed (the pages get a placeholder that says so).
  explicit StaticFiles(std::string webDir, std::size_t cacheBytes = kDefaultCacheBytes);

  // The answer to a GET (or HEAD) of a static path; thread-safe.
  [[nodiscard]] ApiResponse serve(const StaticRequest& req);
  // What the cache holds now, in bytes (the files and their gzip copies).
  [[nodiscard]] std::size_t cachedBytes() const;

 private:
  // One version of one file: identified by its real path, modification time and size.
  struct Entry {
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    std::string contentType;
    std::string bytes;
    std::string etag;  // quoted, of the bytes; the gzip copy's has "-gz" inside the quotes
    std::string gzip;  // empty: sent as it is
    [[nodiscard]] std::size_t cost() const { return bytes.size() + gzip.size(); }
  };
  using EntryPtr = std::shared_ptr<const Entry>;

  // The file's current version: from the cache, or read (and compressed) and then kept.
  [[nodiscard]] EntryPtr load(const std::filesystem::path& file);
  [[nodiscard]] EntryPtr cached(const std::string& key, std::filesystem::file_time_type mtime, std::uintmax_t size);
  void keep(const std::string& key, EntryPtr entry);

  std::string webDir_;
  std::size_t capacity_;
  mutable std::mutex mu_;         // guards what follows; never held while reading or compressing a file
  std::list<std::string> order_;  // keys, the most recently used first
  struct Slot {
    EntryPtr entry;
    std::list<std::string>::iterator at;
  };
  std::unordered_map<std::string, Slot> entries_;
  std::size_t bytes_ = 0;
};

}  // namespace semis::server
