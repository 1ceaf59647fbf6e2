// The bus's messages as ClusterLink decodes them: what another instance may send, well formed or not.

#include <gtest/gtest.h>

#include "hub/ClusterLink.hpp"

namespace semis::server {
namespace {

const std::string kChannel = ClusterLink::gameChannel("semis", "g1");

TEST(ClusterLinkDecode, AnAskSaysWhetherTheAskerDroppedTheSharedLine) {
  const auto plain = decodeBusMessage("semis", kChannel, R"({"i":"b","k":"ask"})");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->kind, BusMessage::Kind::Ask);
  EXPECT_EQ(plain->game, "g1");
  EXPECT_EQ(plain->instance, "b");
  EXPECT_FALSE(plain->dropped);
  const auto dropped = decodeBusMessage("semis", kChannel, R"({"i":"b","k":"ask","dropped":true})");
  ASSERT_TRUE(dropped);
  EXPECT_TRUE(dropped->dropped);
}

TEST(ClusterLinkDecode, AnAskWithAMalformedDropIsRefused) {
  for (const char* payload : {R"({"i":"b","k":"ask","dropped":1})", R"({"i":"b","k":"ask","dropped":"yes"})",
                              R"({"i":"b","k":"ask","dropped":null})"}) {
    EXPECT_FALSE(decodeBusMessage("semis", kChannel, payload)) << payload;
  }
}

}  // namespace
}  // namespace semis::server
