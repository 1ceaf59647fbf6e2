// The web client's files (docs/server.md, "Static files"): gzip only when the browser allows it,
// hashed assets kept for good, the page revalidated by its ETag, a file changed on disk served anew,
// while the API stays uncached and the web folder stays closed.

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "Harness.hpp"

namespace semis::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBundle = "/assets/app-abc123.js";
constexpr const char* kForever = "public, max-age=31536000, immutable";

// About 50 KB of script that compresses the way a real bundle does (repeated shapes, varied names).
std::string bundleText(int seed) {
  std::string js;
  for (int i = 0; js.size() < 50 * 1024; ++i) {
    js += "export function f" + std::to_string(i) + "(a, b) { return a * " + std::to_string((i * 7919 + seed) % 1000) +
          " + b.length; }\n";
  }
  return js;
}

std::string indexHtml(const std::string& marker) {
  return "<!doctype html><html><head><meta charset=utf-8><title>Semis</title>"
         "<script type=module src=\"" +
         std::string(kBundle) + "\"></script></head><body>" + marker + "</body></html>";
}

void writeFile(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// zlib's inflate with automatic gzip detection; nothing when the stream is not gzip or is cut.
std::optional<std::string> gunzip(const std::string& in) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return std::nullopt;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char chunk[16384];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof chunk;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - zs.avail_out);
  }
  const bool gzipHeader = in.size() > 2 && static_cast<unsigned char>(in[0]) == 0x1f &&
                          static_cast<unsigned char>(in[1]) == 0x8b;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || !gzipHeader) return std::nullopt;
  return out;
}

std::string header(const HttpReply& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

class Static : public ::testing::Test {
 protected:
  void SetUp() override {
    web_ = fs::path(server_.dir()) / "web";
    writeFile(web_ / "index.html", indexHtml("first"));
    writeFile(web_ / "assets" / "app-abc123.js", bundle_);
    writeFile(web_ / "assets" / "notes.txt", std::string(4096, 'n'));
    server_.addArgs({"--web", web_.string()});
    ASSERT_TRUE(server_.start()) << server_.logs();
  }

  // A GET (or another method) with these extra header lines ("Name: value\r\n" each).
  HttpReply get(const std::string& target, const std::string& headers = "", const std::string& method = "GET") {
    return rawHttp(server_.port(),
                   method + " " + target + " HTTP/1.1\r\nHost: x\r\n" + headers + "Connection: close\r\n\r\n");
  }

  ServerProcess server_;
  fs::path web_;
  std::string bundle_ = bundleText(1);
};

TEST_F(Static, GzipAnswerDecompressesToTheFile) {
  const auto r = get(kBundle, "Accept-Encoding: gzip, deflate, br\r\n");
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 80);
  EXPECT_EQ(header(r, "content-encoding"), "gzip");
  EXPECT_NE(header(r, "vary").find("Accept-Encoding"), std::string::npos);
  EXPECT_NE(r.contentType.find("javascript"), std::string::npos);
  EXPECT_LT(r.body.size(), bundle_.size() / 3) << "the bundle compresses";
  EXPECT_EQ(gunzip(r.body), bundle_);
  EXPECT_EQ(header(r, "content-length"), std::to_string(r.body.size()));
  // Asked again, the same bytes (from the memory cache now).
  EXPECT_EQ(get(kBundle, "Accept-Encoding: gzip\r\n").body, r.body);
}

TEST_F(Static, GzipOnlyWhereAcceptEncodingAllowsIt) {
  const auto plain = [&](const std::string& accept) {
    const auto r = get(kBundle, accept.empty() ? "" : "Accept-Encoding: " + accept + "\r\n");
    EXPECT_EQ(r.status, 200) << accept;
    EXPECT_EQ(header(r, "content-encoding"), "") << accept;
    EXPECT_EQ(r.body, bundle_) << accept;
    EXPECT_NE(header(r, "vary").find("Accept-Encoding"), std::string::npos) << "either answer varies: " << accept;
  };
  const auto gzipped = [&](const std::string& accept) {
    const auto r = get(kBundle, "Accept-Encoding: " + accept + "\r\n");
    EXPECT_EQ(header(r, "content-encoding"), "gzip") << accept;
    EXPECT_EQ(gunzip(r.body), bundle_) << accept;
  };
  plain("");
  plain("identity");
  plain("br, deflate");
  plain("gzip;q=0");
  plain("gzip ; Q=0.000, br");
  plain("*, gzip;q=0");  // the explicit refusal wins over the wildcard
  plain("*;q=0");
  plain("gzip;q=2");     // no such weight: not taken as a yes
  plain("gzipx");
  gzipped("gzip");
  gzipped("GZip;q=0.001");
  gzipped("br;q=1.0, gzip;q=0.5");
  gzipped("x-gzip");
  gzipped("*");
  gzipped("deflate,  gzip ;q=1");
  // Small or binary-like files are sent as they are.
  const auto page = get("/", "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(header(page, "content-encoding"), "") << "under 1 KB";
  EXPECT_EQ(page.body, indexHtml("first"));
}

TEST_F(Static, HashedAssetsAreKeptForGoodTheRestRevalidated) {
  const auto bundle = get(kBundle, "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(header(bundle, "cache-control"), kForever);
  const auto notes = get("/assets/notes.txt");
  EXPECT_EQ(notes.body, std::string(4096, 'n'));
  EXPECT_EQ(header(notes, "cache-control"), "no-cache") << "no hash in its name";
  EXPECT_FALSE(header(notes, "etag").empty());
  for (const char* page : {"/", "/index.html", "/g/abcdef", "/daily"}) {
    const auto r = get(page);
    EXPECT_EQ(r.status, 200) << page;
    EXPECT_NE(header(r, "cache-control").find("no-cache"), std::string::npos) << page;
    EXPECT_EQ(header(r, "cache-control").find("max-age"), std::string::npos) << page;
  }
}

// Every path the client routes (web/src/main.ts) is its one page, so a reload or a shared link of
// any of them opens it (a reload of /sessions was a 404 file).
TEST_F(Static, EveryPageTheClientRoutesIsItsOnePage) {
  for (const char* page : {"/p/abcdef", "/top/kalah", "/friends", "/sessions", "/bots", "/daily/kalah", "/review",
                           "/review/abcdef", "/analysis", "/learn/kalah"}) {
    const auto r = get(page);
    EXPECT_EQ(r.status, 200) << page;
    EXPECT_EQ(r.body, indexHtml("first")) << page;
  }
}

TEST_F(Static, MatchingIfNoneMatchIsAnswered304WithoutABody) {
  const auto first = get("/");
  const std::string etag = header(first, "etag");
  ASSERT_EQ(etag.size(), 34u) << "a quoted hash: " << etag;
  EXPECT_EQ(etag.front(), '"');
  EXPECT_EQ(header(get("/g/xyz"), "etag"), etag) << "every page is index.html";
  for (const std::string& condition : {etag, "\"other\", " + etag, "W/" + etag, std::string("*")}) {
    const auto r = get("/", "If-None-Match: " + condition + "\r\n");
    EXPECT_EQ(r.status, 304) << condition;
    EXPECT_TRUE(r.body.empty());
    EXPECT_EQ(header(r, "content-length"), "") << "a 304 names no length";
    EXPECT_EQ(header(r, "etag"), etag);
    EXPECT_NE(header(r, "cache-control").find("no-cache"), std::string::npos);
  }
  const auto other = get("/", "If-None-Match: \"0123\"\r\n");
  EXPECT_EQ(other.status, 200);
  EXPECT_EQ(other.body, indexHtml("first"));
  // The gzip copy has an ETag of its own; the plain one's does not match it.
  const auto gz = get(kBundle, "Accept-Encoding: gzip\r\n");
  const auto plain = get(kBundle);
  ASSERT_NE(header(gz, "etag"), header(plain, "etag"));
  EXPECT_EQ(get(kBundle, "Accept-Encoding: gzip\r\nIf-None-Match: " + header(gz, "etag") + "\r\n").status, 304);
  EXPECT_EQ(get(kBundle, "Accept-Encoding: gzip\r\nIf-None-Match: " + header(plain, "etag") + "\r\n").status, 200);
}

TEST_F(Static, HeadHasTheGetsHeadersAndNoBody) {
  const auto got = get(kBundle, "Accept-Encoding: gzip\r\n");
  const auto head = get(kBundle, "Accept-Encoding: gzip\r\n", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  for (const char* name : {"content-length", "content-encoding", "etag", "cache-control", "vary", "content-type"})
    EXPECT_EQ(header(head, name), header(got, name)) << name;
  const auto page = get("/", "", "HEAD");
  EXPECT_EQ(page.status, 200);
  EXPECT_TRUE(page.body.empty());
  EXPECT_EQ(header(page, "content-length"), std::to_string(indexHtml("first").size()));
}

TEST_F(Static, AFileChangedOnDiskIsServedNew) {
  const auto before = get(kBundle, "Accept-Encoding: gzip\r\n");
  ASSERT_EQ(gunzip(before.body), bundle_);
  const auto page = get("/");
  // Another size.
  const std::string longer = bundleText(2) + "// more\n";
  writeFile(web_ / "assets" / "app-abc123.js", longer);
  const auto after = get(kBundle, "Accept-Encoding: gzip\r\n");
  EXPECT_EQ(gunzip(after.body), longer);
  EXPECT_EQ(get(kBundle).body, longer);
  EXPECT_NE(header(after, "etag"), header(before, "etag"));
  // The same size, only newer: the page's old ETag no longer matches.
  const std::string second = indexHtml("other");
  ASSERT_EQ(second.size(), indexHtml("first").size());
  const auto was = fs::last_write_time(web_ / "index.html");
  writeFile(web_ / "index.html", second);
  fs::last_write_time(web_ / "index.html", was + std::chrono::seconds(5));
  const auto r = get("/", "If-None-Match: " + header(page, "etag") + "\r\n");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, second);
}

TEST_F(Static, ApiAnswersStayUncachedAndUncompressed) {
  for (const char* target : {"/api/me", "/healthz", "/metrics", "/api/games/nosuchgame"}) {
    const auto r = get(target, "Accept-Encoding: gzip\r\n");
    EXPECT_NE(r.status, 0) << target;
    EXPECT_EQ(header(r, "cache-control"), "no-store") << target;
    EXPECT_EQ(header(r, "content-encoding"), "") << target;
    EXPECT_EQ(header(r, "etag"), "") << target;
  }
  EXPECT_EQ(header(get("/nosuchfile.js"), "cache-control"), "no-store") << "a 404 is not kept either";
}

TEST_F(Static, PathsOutOfTheWebFolderAreStillRefused) {
  writeFile(fs::path(server_.dir()) / "secret.js", "SECRET " + std::string(4096, 's'));
  for (const char* target : {"/../secret.js", "/%2e%2e/secret.js", "/assets/..%2f..%2fsecret.js",
                             "/assets/%2e%2e/%2e%2e/secret.js", "/.%2e/secret.js"}) {
    const auto r = get(target, "Accept-Encoding: gzip\r\nIf-None-Match: *\r\n");
    EXPECT_NE(r.status, 200) << target;
    EXPECT_NE(r.status, 304) << target;
    EXPECT_EQ(r.body.find("SECRET"), std::string::npos) << target;
    EXPECT_EQ(header(r, "content-encoding"), "") << target;
  }
  EXPECT_EQ(get("/healthz").status, 200);
}

}  // namespace
}  // namespace semis::test

namespace semis::test {
namespace {

// The installable app's files (web/vite.config.ts writes them at the site root): the service
// worker must be checked on every visit, never kept for a year, or a new version could never
// replace it; the manifest is JSON a browser recognizes; the learning pages are the page.
TEST_F(Static, ServiceWorkerManifestAndLessonPages) {
  writeFile(web_ / "sw.js", "const PRECACHE = [\"/\"];\n" + std::string(2048, ' ') + "self.addEventListener('fetch', () => {});\n");
  writeFile(web_ / "manifest.webmanifest", R"({"name":"Semis","display":"standalone"})");
  writeFile(web_ / "icons" / "icon-192.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(64, '\0'));
  const auto sw = get("/sw.js", "Accept-Encoding: gzip\r\n");
  ASSERT_EQ(sw.status, 200);
  EXPECT_NE(sw.contentType.find("javascript"), std::string::npos) << sw.contentType;
  EXPECT_EQ(header(sw, "cache-control"), "no-cache");
  EXPECT_EQ(header(sw, "cache-control").find("immutable"), std::string::npos);
  EXPECT_FALSE(header(sw, "etag").empty()) << "revalidated by its ETag";
  const auto manifest = get("/manifest.webmanifest");
  ASSERT_EQ(manifest.status, 200);
  EXPECT_EQ(manifest.contentType, "application/manifest+json");
  EXPECT_EQ(header(manifest, "cache-control"), "no-cache");
  const auto icon = get("/icons/icon-192.png");
  EXPECT_EQ(icon.contentType, "image/png");
  EXPECT_EQ(header(icon, "cache-control"), "no-cache");
  for (const char* page : {"/learn/kalah", "/learn/mangala-castle"}) {
    const auto r = get(page);
    EXPECT_EQ(r.status, 200) << page;
    EXPECT_EQ(r.body, indexHtml("first")) << page;
  }
}

}  // namespace
}  // namespace semis::test
