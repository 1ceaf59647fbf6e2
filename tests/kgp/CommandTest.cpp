#include "kgp/Command.hpp"

#include <gtest/gtest.h>

#include <string>

namespace semis::kgp {
namespace {

Command parsed(std::string_view line) {
  auto c = parseLine(line);
  EXPECT_TRUE(c.has_value()) << line << ": " << (c ? "" : c.error().message);
  return c ? *c : Command{};
}

KgpErrorCode errorOf(std::string_view line) {
  auto c = parseLine(line);
  EXPECT_FALSE(c.has_value()) << line;
  return c ? KgpErrorCode::Empty : c.error().code;
}

TEST(KgpCommand, ParsesEveryArgumentKind) {
  const Command c = parsed("set x 32 +0 -100 0.5 +3.141 -.123 single-word \"with spaces\" <3,0,0,3,3,3,3,3,3>");
  EXPECT_EQ(c.name, "set");
  ASSERT_EQ(c.args.size(), 10U);
  EXPECT_EQ(c.args[0], Arg::ofText("x"));
  EXPECT_EQ(c.args[1], Arg::ofInteger(32));
  EXPECT_EQ(c.args[2], Arg::ofInteger(0));
  EXPECT_EQ(c.args[3], Arg::ofInteger(-100));
  EXPECT_EQ(c.args[4], Arg::ofReal(0.5));
  EXPECT_EQ(c.args[5], Arg::ofReal(3.141));
  EXPECT_EQ(c.args[6], Arg::ofReal(-0.123));
  EXPECT_EQ(c.args[7], Arg::ofText("single-word"));
  EXPECT_EQ(c.args[8], Arg::ofText("with spaces"));
  EXPECT_EQ(c.args[9], Arg::ofBoard({3, 0, 0, 3, 3, 3, 3, 3, 3}));
  EXPECT_FALSE(c.id);
  EXPECT_FALSE(c.ref);
}

TEST(KgpCommand, QuotedAndBareWordsAreTheSameText) {
  EXPECT_EQ(parsed("mode \"freeplay\""), parsed("mode freeplay"));
  EXPECT_EQ(parsed("1 set \"info:name\" \"bot\""), parsed("1 set info:name bot"));
  // go-kgp reads `move "3"` as 3: so does asInteger.
  EXPECT_EQ(asInteger(parsed("@4 move \"3\"").args[0]), 3);
  EXPECT_EQ(asInteger(parsed("@4 move 3").args[0]), 3);
  EXPECT_EQ(asInteger(parsed("@4 move three").args[0]), std::nullopt);
  // A number keeps its spelling as text (a token of digits with a leading zero).
  EXPECT_EQ(asText(parsed("set auth:token 0123").args[1]), "0123");
}

TEST(KgpCommand, StringEscapesAsGoKgpReadsThem) {
  const Command c = parsed(R"(error "like \" this \\ and\nnew\tline \q")");
  ASSERT_EQ(c.args.size(), 1U);
  EXPECT_EQ(c.args[0].text, "like \" this \\ and\nnew\tline q");
  EXPECT_EQ(parsed(R"(set a "")").args[1], Arg::ofText(""));
}

TEST(KgpCommand, IdsAndReferences) {
  Command c = parsed("12@4 stop");
  EXPECT_EQ(c.id, 12U);
  EXPECT_EQ(c.ref, 4U);
  EXPECT_EQ(c.name, "stop");
  c = parsed("@8 move 3");
  EXPECT_FALSE(c.id);
  EXPECT_EQ(c.ref, 8U);
  EXPECT_EQ(c.args, std::vector<Arg>{Arg::ofInteger(3)});
  c = parsed("  4   state <1,0,0,1,1>\r");
  EXPECT_EQ(c.id, 4U);
  EXPECT_EQ(c.name, "state");
  EXPECT_EQ(c.args[0].board, (std::vector<std::uint32_t>{1, 0, 0, 1, 1}));
  c = parsed("18446744073709551615@18446744073709551615 ok");
  EXPECT_EQ(c.id, 18446744073709551615ULL);
  EXPECT_EQ(errorOf("18446744073709551616 ok"), KgpErrorCode::BadId);
  EXPECT_EQ(errorOf("1@x ok"), KgpErrorCode::BadId);
  EXPECT_EQ(errorOf("a@1 ok"), KgpErrorCode::BadId);
  EXPECT_EQ(errorOf("12@4"), KgpErrorCode::BadName);
  EXPECT_EQ(errorOf("12 st-op"), KgpErrorCode::BadName);
  // A lone number is a (meaningless) name, as go-kgp's tokenizer reads it.
  EXPECT_EQ(parsed("12").name, "12");
}

TEST(KgpCommand, BoardLiterals) {
  EXPECT_EQ(parsed("state < 2 , 1,0 ,1,1,1,1 >").args[0], Arg::ofBoard({2, 1, 0, 1, 1, 1, 1}));
  EXPECT_EQ(errorOf("state <1,2"), KgpErrorCode::BadBoard);
  EXPECT_EQ(errorOf("state <1,,2>"), KgpErrorCode::BadBoard);
  EXPECT_EQ(errorOf("state <>"), KgpErrorCode::BadBoard);
  EXPECT_EQ(errorOf("state <1,-2>"), KgpErrorCode::BadBoard);
  EXPECT_EQ(errorOf("state <1,65536>"), KgpErrorCode::BadBoard);
  EXPECT_EQ(errorOf("state <1,2>x"), KgpErrorCode::BadBoard);
}

TEST(KgpCommand, MalformedLines) {
  EXPECT_EQ(errorOf(""), KgpErrorCode::Empty);
  EXPECT_EQ(errorOf(" \t\r"), KgpErrorCode::Empty);
  EXPECT_EQ(errorOf("error \"unterminated"), KgpErrorCode::BadString);
  EXPECT_EQ(errorOf("error \"ends in escape\\"), KgpErrorCode::BadString);
  EXPECT_EQ(errorOf("set a\"b c"), KgpErrorCode::BadString);
  EXPECT_EQ(errorOf("set \"a\"b"), KgpErrorCode::BadString);
  EXPECT_EQ(errorOf("move 99999999999999999999"), KgpErrorCode::BadArgument);
  EXPECT_EQ(errorOf(std::string("move \0 1", 8)), KgpErrorCode::Binary);
  EXPECT_EQ(errorOf("move \x01"), KgpErrorCode::Binary);
  EXPECT_EQ(errorOf("set a \"\xC3\x28\""), KgpErrorCode::Binary);
  EXPECT_EQ(errorOf("set a \xED\xA0\x80"), KgpErrorCode::Binary);  // a surrogate
  EXPECT_EQ(parsed("set info:name \"Sémis ☃\"").args[1].text, "Sémis ☃");
  EXPECT_EQ(wireName(KgpErrorCode::TooLong), "too_long");
  EXPECT_EQ(wireName(KgpErrorCode::BadString), "bad_string");
}

TEST(KgpCommand, SixteenKibibyteLimit) {
  std::string line = "set a \"" + std::string(kMaxLineBytes - 9, 'x') + "\"";
  ASSERT_EQ(line.size(), kMaxLineBytes - 1);
  EXPECT_TRUE(parseLine(line).has_value());
  line.insert(7, "y");
  ASSERT_EQ(line.size(), kMaxLineBytes);
  EXPECT_TRUE(parseLine(line).has_value());
  EXPECT_TRUE(parseLine(line + "\r").has_value());
  EXPECT_EQ(errorOf(line + "z"), KgpErrorCode::TooLong);
  EXPECT_EQ(errorOf(std::string(70000, 'a')), KgpErrorCode::TooLong);
}

TEST(KgpCommand, FormatsAndReadsBack) {
  Command c;
  c.id = 6;
  c.ref = 4;
  c.name = "error";
  c.args = {Arg::ofString("say \"hi\" \\ back\nnow")};
  const std::string line = formatCommand(c);
  EXPECT_EQ(line, R"(6@4 error "say \"hi\" \\ back\nnow")");
  EXPECT_EQ(parsed(line), c);

  Command s;
  s.name = "set";
  s.args = {Arg::ofText("game:id"), Arg::ofString("g1"), Arg::ofText("42"), Arg::ofText(""), Arg::ofText("two words"),
            Arg::ofInteger(-7), Arg::ofReal(2.5), Arg::ofBoard({1, 0, 0, 2, 2})};
  EXPECT_EQ(formatCommand(s), R"(set game:id "g1" "42" "" "two words" -7 2.5 <1,0,0,2,2>)");
  EXPECT_EQ(parsed(formatCommand(s)), s);

  Command r;
  r.ref = 8;
  r.name = "yield";
  EXPECT_EQ(formatCommand(r), "@8 yield");
  EXPECT_EQ(parsed("@8 yield"), r);
  // Control bytes never go out raw: a sent line is always one text line.
  Command ctl;
  ctl.name = "error";
  ctl.args = {Arg::ofText(std::string("a\rb\x01", 4))};
  EXPECT_EQ(formatCommand(ctl), "error \"a b \"");
}

}  // namespace
}  // namespace semis::kgp
