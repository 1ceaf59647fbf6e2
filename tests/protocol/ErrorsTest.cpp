// The error codes' one table (protocol/Errors.hpp) against itself and against docs/protocol.md's
// "Error codes" table: the wire names and statuses a client reads are the ones the server sends.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "protocol/Errors.hpp"
#include "protocol/Messages.hpp"

namespace semis::protocol {
namespace {

TEST(Errors, EveryCodeHasOneUniquePlainWireNameAndAStatus) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kErrorCodeCount; ++i) {
    const auto code = static_cast<ErrorCode>(i);
    const std::string_view wire = wireName(code);
    ASSERT_FALSE(wire.empty()) << i;
    for (char c : wire) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << wire;
    EXPECT_TRUE(names.insert(wire).second) << "two codes named " << wire;
    EXPECT_GE(httpStatus(code), 400) << wire;
    EXPECT_LT(httpStatus(code), 600) << wire;
    ASSERT_TRUE(parseErrorCode(wire)) << wire;
    EXPECT_EQ(*parseErrorCode(wire), code) << wire;
  }
  EXPECT_FALSE(parseErrorCode(""));
  EXPECT_FALSE(parseErrorCode("Not_Found"));
  EXPECT_FALSE(parseErrorCode("other"));
}

TEST(Errors, TheWireMessagesCarryTheWireName) {
  EXPECT_EQ(errorMessage(ErrorCode::NotYourTurn, "wait", 7).dump(),
            R"({"type":"error","id":7,"code":"not_your_turn","message":"wait"})");
  EXPECT_EQ(httpErrorBody(ErrorCode::NotFound, "no such game").dump(),
            R"({"error":{"code":"not_found","message":"no such game"}})");
}

// docs/protocol.md, "## Error codes": rows "| `code` | status | ... |".
std::map<std::string, int> documentedCodes() {
  std::ifstream in(std::string(SEMIS_SOURCE_DIR) + "/docs/protocol.md");
  std::map<std::string, int> codes;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Error codes";
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const auto end = line.find('`', 3);
    const auto bar = line.find('|', end);
    if (end == std::string::npos || bar == std::string::npos) continue;
    codes[line.substr(3, end - 3)] = std::stoi(line.substr(bar + 1));
  }
  return codes;
}

TEST(Errors, TheProtocolDocListsExactlyTheTable) {
  const auto documented = documentedCodes();
  ASSERT_FALSE(documented.empty()) << "no \"## Error codes\" table in docs/protocol.md";
  for (const auto& info : kErrorCodes) {
    const auto it = documented.find(std::string(info.wire));
    ASSERT_NE(it, documented.end()) << info.wire << " is not in docs/protocol.md";
    EXPECT_EQ(it->second, info.status) << info.wire;
  }
  for (const auto& [wire, status] : documented) EXPECT_TRUE(parseErrorCode(wire)) << wire << " is documented, not sent";
}

}  // namespace
}  // namespace semis::protocol
