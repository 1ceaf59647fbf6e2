#include "kgp/LineReader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace semis::kgp {
namespace {

std::vector<std::string> lines(const std::vector<LineReader::Item>& items) {
  std::vector<std::string> out;
  for (const auto& i : items) out.push_back(i ? *i : "!" + std::string(wireName(i.error().code)));
  return out;
}

TEST(KgpLineReader, JoinsTokensSentFrameByFrame) {
  // kgpc over WebSocket: each token of `3@2 move 1\r\n` in its own frame.
  LineReader r;
  std::vector<std::string> got;
  for (const char* frame : {"3", "@2", " move", " ", "1", "\r\n", "5@2", " yield", "\r\n"}) {
    for (auto& l : lines(r.feed(frame))) got.push_back(l);
  }
  EXPECT_EQ(got, (std::vector<std::string>{"3@2 move 1", "5@2 yield"}));
  EXPECT_EQ(r.pending(), 0U);
}

TEST(KgpLineReader, SplitsAStreamOnLfAndCrlf) {
  LineReader r;
  EXPECT_EQ(lines(r.feed("mode freeplay\npi")), std::vector<std::string>{"mode freeplay"});
  EXPECT_EQ(lines(r.feed("ng\r\n\r\n\nok\r")), std::vector<std::string>{"ping"});
  EXPECT_EQ(lines(r.feed("\n")), std::vector<std::string>{"ok"});
  EXPECT_EQ(lines(r.feed("goodbye")), std::vector<std::string>{});
  EXPECT_EQ(lines(r.finish()), std::vector<std::string>{"goodbye"});
}

TEST(KgpLineReader, AnOverlongLineIsOneErrorAndIsSkipped) {
  LineReader r;
  // 70 kB in 7 reads: one error, as soon as the limit is passed, and the buffer never grows past it.
  std::vector<std::string> got;
  for (int i = 0; i < 7; ++i) {
    for (auto& l : lines(r.feed(std::string(10000, 'a')))) got.push_back(l);
    EXPECT_LE(r.pending(), kMaxLineBytes + 1);
  }
  EXPECT_EQ(got, std::vector<std::string>{"!too_long"});
  EXPECT_EQ(lines(r.feed("aaa\nping\n")), std::vector<std::string>{"ping"});
  // Exactly the limit passes, with LF or CRLF.
  const std::string max(kMaxLineBytes, 'b');
  EXPECT_EQ(lines(r.feed(max + "\n")), std::vector<std::string>{max});
  EXPECT_EQ(lines(r.feed(max + "\r\n")), std::vector<std::string>{max});
  EXPECT_EQ(lines(r.feed(max + "b\n")), std::vector<std::string>{"!too_long"});
  EXPECT_EQ(lines(r.feed(max + "bb\r\nok\n")), (std::vector<std::string>{"!too_long", "ok"}));
}

TEST(KgpLineReader, BinaryLinesAreErrors) {
  LineReader r;
  EXPECT_EQ(lines(r.feed(std::string("mo\0de\nping\n", 11))), (std::vector<std::string>{"!binary", "ping"}));
  EXPECT_EQ(lines(r.feed("set a \xff\n\x1b[2J\nok\n")), (std::vector<std::string>{"!binary", "!binary", "ok"}));
  EXPECT_EQ(lines(r.feed("a\rb\n")), std::vector<std::string>{"!binary"});
}

}  // namespace
}  // namespace semis::kgp
