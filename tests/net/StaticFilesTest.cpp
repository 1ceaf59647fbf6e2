// server/StaticFiles in-process: the memory cache stays within its bound, and the header parsers
// read what browsers and proxies send.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "net/StaticFiles.hpp"

namespace semis::server {
namespace {

namespace fs = std::filesystem;

class StaticFilesCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("semis-static-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "assets");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Text that gzip shrinks about tenfold, different for each `seed`.
  void write(const std::string& name, std::size_t bytes, int seed) {
    std::string text;
    for (int i = 0; text.size() < bytes; ++i)
      text += "let v" + std::to_string(i * seed) + " = " + std::to_string(i) + ";\n";
    text.resize(bytes);
    std::ofstream(dir_ / "assets" / name, std::ios::binary | std::ios::trunc) << text;
  }

  fs::path dir_;
};

TEST_F(StaticFilesCache, HoldsAtMostItsBoundAndNeverAFileLargerThanIt) {
  constexpr std::size_t kBound = 100 * 1024;
  StaticFiles files(dir_.string(), kBound);
  for (int i = 0; i < 6; ++i) write("f" + std::to_string(i) + "-abc123.js", 30 * 1024, i + 1);
  for (int i = 0; i < 6; ++i) {
    const auto r = files.serve({"/assets/f" + std::to_string(i) + "-abc123.js", "gzip", ""});
    ASSERT_EQ(r.status, 200);
    EXPECT_LE(files.cachedBytes(), kBound) << "after file " << i;
  }
  EXPECT_GT(files.cachedBytes(), 2 * 30 * 1024) << "it does keep files";
  // A file larger than the whole cache is served, not kept.
  const std::size_t before = files.cachedBytes();
  write("big-abc123.js", 2 * kBound, 7);
  const auto big = files.serve({"/assets/big-abc123.js", "", ""});
  EXPECT_EQ(big.status, 200);
  EXPECT_EQ(big.body.size(), 2 * kBound);
  EXPECT_LE(files.cachedBytes(), kBound);
  EXPECT_EQ(files.cachedBytes(), before);
}

TEST(StaticFilesHeaders, AcceptEncoding) {
  EXPECT_TRUE(acceptsGzip("gzip"));
  EXPECT_TRUE(acceptsGzip("gzip, deflate, br, zstd"));
  EXPECT_TRUE(acceptsGzip("br;q=1.0, gzip;q=0.8, *;q=0.1"));
  EXPECT_TRUE(acceptsGzip("*"));
  EXPECT_TRUE(acceptsGzip("identity;q=1, *;q=0.5"));
  EXPECT_TRUE(acceptsGzip(" GZIP ; q=1.000 "));
  EXPECT_FALSE(acceptsGzip(""));
  EXPECT_FALSE(acceptsGzip("identity"));
  EXPECT_FALSE(acceptsGzip("gzip;q=0"));
  EXPECT_FALSE(acceptsGzip("gzip;q=0.0, *"));
  EXPECT_FALSE(acceptsGzip("*;q=0"));
  EXPECT_FALSE(acceptsGzip("gzip;q=1.5"));
  EXPECT_FALSE(acceptsGzip("gzip;q="));
  EXPECT_FALSE(acceptsGzip("gzip;q=0.0001"));
  EXPECT_FALSE(acceptsGzip("gzip2, xgzip"));
}

TEST(StaticFilesHeaders, HashedAssetNames) {
  EXPECT_TRUE(hashedAssetPath("/assets/index-BUjTMiqw.js"));
  EXPECT_TRUE(hashedAssetPath("/assets/index-CeZ4u70j.css"));
  EXPECT_TRUE(hashedAssetPath("/assets/index-B-x_1a2b.js")) << "Rollup's hash may hold '-'";
  EXPECT_TRUE(hashedAssetPath("/assets/app-abc123.js"));
  EXPECT_FALSE(hashedAssetPath("/assets/app.js"));
  EXPECT_FALSE(hashedAssetPath("/assets/my-script.js")) << "a word, not a hash";
  EXPECT_FALSE(hashedAssetPath("/index-BUjTMiqw.js")) << "not under /assets/";
  EXPECT_FALSE(hashedAssetPath("/assets/sub/index-BUjTMiqw.js"));
  EXPECT_FALSE(hashedAssetPath("/assets/-BUjTMiqw.js"));
  EXPECT_FALSE(hashedAssetPath("/assets/index-BUjTMiqw"));
}

TEST(StaticFilesHeaders, IfNoneMatch) {
  const std::string etag = "\"abc\"";
  EXPECT_TRUE(etagMatches("\"abc\"", etag));
  EXPECT_TRUE(etagMatches("W/\"abc\"", etag));
  EXPECT_TRUE(etagMatches("\"x\", \"abc\"", etag));
  EXPECT_TRUE(etagMatches("*", etag));
  EXPECT_FALSE(etagMatches("", etag));
  EXPECT_FALSE(etagMatches("\"abcd\"", etag));
  EXPECT_FALSE(etagMatches("abc", etag));
  EXPECT_FALSE(etagMatches("\"ab", etag));
}

}  // namespace
}  // namespace semis::server
