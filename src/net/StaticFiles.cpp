#include "net/StaticFiles.hpp"

#include <sodium.h>
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "net/Routes.hpp"

namespace semis::server {

namespace {

namespace fs = std::filesystem;

// Hashed names never change their bytes: a year is the longest max-age caches honour.
constexpr const char* kForever = "public, max-age=31536000, immutable";
// Anything else may change under its name: kept, but checked (If-None-Match) before each use.
constexpr const char* kRevalidate = "no-cache";

constexpr const char* kPlaceholder =
    "<!doctype html><meta charset=utf-8><title>Semis</title><h1>Semis server</h1>"
    "<p>The web client is not installed: start <code>semis serve --web web/dist</code>.</p>";

bool space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

// RFC 9110 qvalue in thousandths: "0", "0.5", "1", "1.000"; nothing when malformed.
std::optional<int> qValue(std::string_view s) {
  if (s.empty() || (s[0] != '0' && s[0] != '1')) return std::nullopt;
  int value = (s[0] - '0') * 1000;
  if (s.size() == 1) return value;
  if (s[1] != '.' || s.size() > 5) return std::nullopt;
  int scale = 100;
  for (const char c : s.substr(2)) {
    if (c < '0' || c > '9') return std::nullopt;
    value += (c - '0') * scale;
    scale /= 10;
  }
  return value <= 1000 ? std::optional<int>(value) : std::nullopt;
}

std::string mimeType(std::string_view name) {
  const auto dot = name.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? std::string_view() : name.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".webmanifest") return "application/manifest+json";  // the installable app's manifest
  if (ext == ".txt") return "text/plain; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".wasm") return "application/wasm";
  return "application/octet-stream";
}

bool readFile(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

// A strong validator of the bytes: BLAKE2b-128, so every instance behind a balancer gives the same.
std::string etagOf(std::string_view bytes) {
  unsigned char digest[16];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), nullptr,
                     0);
  char hex[sizeof digest * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return std::string("\"") + hex + "\"";
}

// The gzip copy is another representation: a strong ETag must differ from the plain one's.
std::string gzipEtag(const std::string& etag) { return etag.substr(0, etag.size() - 1) + "-gz\""; }

bool base64UrlChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

}  // namespace

bool acceptsGzip(std::string_view header) {
  std::optional<int> gzip;
  std::optional<int> any;
  while (!header.empty()) {
    const auto comma = header.find(',');
    std::string_view element = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
    const auto semi = element.find(';');
    const std::string_view coding = trim(element.substr(0, semi));
    if (coding.empty()) continue;
    std::optional<int> q = 1000;
    if (semi != std::string_view::npos) {
      std::string_view params = element.substr(semi + 1);
      while (true) {
        const auto next = params.find(';');
        const std::string_view param = trim(params.substr(0, next));
        const auto eq = param.find('=');
        // A weight we cannot read refuses the coding rather than guess at it.
        if (eq != std::string_view::npos && equalsNoCase(trim(param.substr(0, eq)), "q")) {
          q = qValue(trim(param.substr(eq + 1)));
        }
        if (next == std::string_view::npos) break;
        params = params.substr(next + 1);
      }
    }
    const int weight = q.value_or(0);
    if (equalsNoCase(coding, "gzip") || equalsNoCase(coding, "x-gzip")) {
      if (!gzip) gzip = weight;
    } else if (coding == "*") {
      if (!any) any = weight;
    }
  }
  if (gzip) return *gzip > 0;
  return any && *any > 0;
}

bool hashedAssetPath(std::string_view path) {
  constexpr std::string_view kDir = "/assets/";
  if (path.substr(0, kDir.size()) != kDir) return false;
  const std::string_view name = path.substr(kDir.size());
  const auto dot = name.find('.');
  if (name.find('/') != std::string_view::npos || dot == std::string_view::npos) return false;
  const std::string_view stem = name.substr(0, dot);
  // Rollup's [name]-[hash]: the hash is URL-safe base64 (8 characters by default), which may hold
  // '-' itself, so every '-' is tried. A hash has a digit or a capital: a plain word ("-script")
  // is a name, and such a file is only revalidated, never wrongly kept for a year.
  for (auto dash = stem.find('-'); dash != std::string_view::npos; dash = stem.find('-', dash + 1)) {
    const std::string_view hash = stem.substr(dash + 1);
    if (dash == 0 || hash.size() < 6 || hash.size() > 16) continue;
    if (!std::all_of(hash.begin(), hash.end(), base64UrlChar)) continue;
    if (std::any_of(hash.begin(), hash.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z'); }))
      return true;
  }
  return false;
}

bool etagMatches(std::string_view header, std::string_view etag) {
  header = trim(header);
  if (header == "*") return true;
  if (etag.substr(0, 2) == "W/") etag.remove_prefix(2);
  while (!header.empty()) {
    while (!header.empty() && (space(header.front()) || header.front() == ',')) header.remove_prefix(1);
    if (header.substr(0, 2) == "W/") header.remove_prefix(2);
    if (header.empty() || header.front() != '"') return false;
    const auto close = header.find('"', 1);
    if (close == std::string_view::npos) return false;
    if (header.substr(0, close + 1) == etag) return true;
    header.remove_prefix(close + 1);
  }
  return false;
}

bool compressibleType(std::string_view type) {
  for (const std::string_view text : {"text/", "javascript", "json", "svg", "wasm"}) {
    if (type.find(text) != std::string_view::npos) return true;
  }
  return false;
}

std::optional<std::string> gzipBytes(std::string_view bytes) {
  if (bytes.size() > UINT_MAX / 2) return std::nullopt;  // zlib counts in 32-bit units
  z_stream zs{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's. Once per file: the best level.
  if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

StaticFiles::StaticFiles(std::string webDir, std::size_t cacheBytes)
    : webDir_(std::move(webDir)), capacity_(cacheBytes) {
  // Idempotent and thread-safe; it picks libsodium's fastest hash code for this CPU.
  if (sodium_init() < 0) throw std::runtime_error("libsodium failed to start");
}

// The web client: index.html for the pages, otherwise a regular file that really lies inside the
// web folder once every symlink is resolved (a link out of it, `..` or a path beside it are refused).
ApiResponse StaticFiles::serve(const StaticRequest& req) {
  const ApiResponse notFound{404, "text/plain", "not found\n"};
  const auto rel = resolveStaticPath(req.path);
  if (!rel) return {400, "text/plain", "bad path\n"};
  const bool page = routeOf(req.path) == Route::Page;
  const ApiResponse placeholder{200, "text/html; charset=utf-8", kPlaceholder};
  if (webDir_.empty()) return page ? placeholder : notFound;
  std::error_code ec;
  const fs::path root = fs::canonical(webDir_, ec);
  if (ec) return page ? placeholder : notFound;
  const fs::path file = fs::canonical(root / *rel, ec);
  if (ec) return page ? placeholder : notFound;
  // Component by component: /srv/web.db is not inside /srv/web.
  const auto [r, f] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  if (r != root.end() || !fs::is_regular_file(file, ec)) return notFound;
  const EntryPtr entry = load(file);
  if (!entry) return notFound;

  const bool gzip = !entry->gzip.empty() && acceptsGzip(req.acceptEncoding);
  ApiResponse res{200, entry->contentType, ""};
  res.cacheControl = hashedAssetPath(req.path) ? kForever : kRevalidate;
  const std::string etag = gzip ? gzipEtag(entry->etag) : entry->etag;
  res.headers.emplace_back("ETag", etag);
  // Whenever a gzip copy exists, the answer depends on Accept-Encoding: a shared cache must know.
  if (!entry->gzip.empty()) res.headers.emplace_back("Vary", "Accept-Encoding");
  if (etagMatches(req.ifNoneMatch, etag)) {
    res.status = 304;
    res.contentType.clear();
    return res;
  }
  if (gzip) {
    res.headers.emplace_back("Content-Encoding", "gzip");
    res.body = entry->gzip;
  } else {
    res.body = entry->bytes;
  }
  return res;
}

std::size_t StaticFiles::cachedBytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

auto StaticFiles::load(const fs::path& file) -> EntryPtr {
  std::error_code ec;
  const auto mtime = fs::last_write_time(file, ec);
  if (ec) return nullptr;
  const auto size = fs::file_size(file, ec);
  if (ec) return nullptr;
  const std::string key = file.string();
  if (EntryPtr hit = cached(key, mtime, size)) return hit;

  auto entry = std::make_shared<Entry>();
  entry->mtime = mtime;
  entry->size = size;
  if (!readFile(file, entry->bytes)) return nullptr;
  entry->contentType = mimeType(file.filename().string());
  entry->etag = etagOf(entry->bytes);
  // A file too big to keep is not compressed either: that would cost the CPU on every request.
  if (entry->bytes.size() >= kCompressFrom && entry->bytes.size() <= capacity_ / 2 &&
      compressibleType(entry->contentType)) {
    auto packed = gzipBytes(entry->bytes);
    if (packed && packed->size() < entry->bytes.size()) entry->gzip = std::move(*packed);
  }
  // Rewritten while we read it: answer what we read, keep nothing; the next request reads again.
  const auto after = fs::last_write_time(file, ec);
  if (!ec && after == mtime && entry->bytes.size() == size) keep(key, entry);
  return entry;
}

auto StaticFiles::cached(const std::string& key, fs::file_time_type mtime, std::uintmax_t size) -> EntryPtr {
  std::lock_guard lock(mu_);
  const auto it = entries_.find(key);
  if (it == entries_.end() || it->second.entry->mtime != mtime || it->second.entry->size != size) return nullptr;
  order_.splice(order_.begin(), order_, it->second.at);
  return it->second.entry;
}

void StaticFiles::keep(const std::string& key, EntryPtr entry) {
  const std::size_t cost = entry->cost();
  std::lock_guard lock(mu_);
  if (const auto old = entries_.find(key); old != entries_.end()) {
    bytes_ -= old->second.entry->cost();
    order_.erase(old->second.at);
    entries_.erase(old);
  }
  if (cost > capacity_) return;
  while (bytes_ + cost > capacity_ && !order_.empty()) {
    const auto victim = entries_.find(order_.back());
    bytes_ -= victim->second.entry->cost();
    entries_.erase(victim);
    order_.pop_back();
  }
  order_.push_front(key);
  entries_.emplace(key, Slot{std::move(entry), order_.begin()});
  bytes_ += cost;
}

}  // namespace semis::server
