// Client text quoted back in errors: cut on character boundaries, and dumped without throwing.

#include <gtest/gtest.h>

#include "protocol/Json.hpp"
#include "protocol/Messages.hpp"

namespace semis::protocol {
namespace {

// 31 ASCII bytes then "é" (2 bytes): a cut at 32 bytes falls inside the character.
const std::string kCut = std::string(31, 'a') + "\xC3\xA9";

TEST(ClipUtf8, CutsOnACharacterBoundary) {
  EXPECT_EQ(clipUtf8(kCut, 32), std::string(31, 'a'));
  EXPECT_EQ(clipUtf8(kCut, 33), kCut);
  EXPECT_EQ(clipUtf8("abc", 32), "abc");
  EXPECT_EQ(clipUtf8("\xE2\x82\xAC\xE2\x82\xAC", 4), "\xE2\x82\xAC");  // euro signs, 3 bytes each
  EXPECT_EQ(clipUtf8("\xF0\x9F\x8E\xB2", 3), "");                      // a 4-byte character
  EXPECT_EQ(clipUtf8("\xF0\x9F\x8E\xB2x", 4), "\xF0\x9F\x8E\xB2");
  EXPECT_EQ(clipUtf8("", 0), "");
}

TEST(DumpJson, NeverThrowsOnInvalidUtf8) {
  const Json j{{"message", std::string("bad \xC3 byte")}};
  EXPECT_THROW((void)j.dump(), Json::type_error) << "what dumpJson guards against";
  std::string text;
  EXPECT_NO_THROW(text = dumpJson(j));
  EXPECT_NE(text.find("\xEF\xBF\xBD"), std::string::npos) << "replaced by U+FFFD: " << text;
}

TEST(QuotedText, AnUnknownTypeCutMidCharacterDumps) {
  for (const std::string& type :
       {kCut, std::string(30, 'b') + "\xE2\x82\xAC", std::string(29, 'c') + "\xF0\x9F\x8E\xB2"}) {
    const auto m = parseClientMessage(Json{{"type", type}}.dump());
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().code, semis::protocol::ErrorCode::UnknownType);
    EXPECT_NO_THROW((void)errorMessage(m.error().code, m.error().message, m.error().id).dump()) << type;
  }
}

TEST(QuotedText, AModeCutMidCharacterDumps) {
  for (const char* field : {"mode", "level", "side"}) {
    const auto spec = parseGameSpec(Json{{"rules", "kalah"}, {field, kCut}});
    ASSERT_FALSE(spec) << field;
    EXPECT_NO_THROW((void)errorMessage(ErrorCode::BadMessage, spec.error().message).dump()) << field;
    const auto m = parseClientMessage(Json{{"type", "create"}, {"rules", "kalah"}, {field, kCut}}.dump());
    ASSERT_FALSE(m) << field;
    EXPECT_NO_THROW((void)errorMessage(m.error().code, m.error().message, m.error().id).dump()) << field;
  }
}

}  // namespace
}  // namespace semis::protocol
