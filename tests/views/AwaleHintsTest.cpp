// Awalé's hint reasons (issue 26): chain captures, the grand slam that takes nothing and the move
// that avoids it, feeding; read off real positions by engine::moveReasons, then on the wire.

#include <gtest/gtest.h>

#include <algorithm>

#include "views/Hints.hpp"

namespace semis::views {
namespace {

using engine::MoveReason;
using engine::Reason;

struct At {
  Board board;
  Position pos;
};

At awale(const char* fields) {
  const Board board(presetRules(Preset::Awale));
  auto pos = parsePositionFor(board, fields);
  EXPECT_TRUE(pos.has_value()) << fields << ": " << (pos ? "" : pos.error().message);
  return {board, pos.value_or(board.start())};
}

bool has(const std::vector<MoveReason>& reasons, const MoveReason& r) {
  return std::find(reasons.begin(), reasons.end(), r) != reasons.end();
}

TEST(AwaleHints, AChainCaptureNamesItsHouses) {
  // South's house 6 (2 seeds) makes North's 1 and 2 hold 2 and 3: both taken, 5 seeds.
  const At a = awale("1,0,0,0,0,2/1,2,4,0,0,0/20,18/S");
  const auto reasons = engine::moveReasons(a.board, a.pos, 6);
  EXPECT_TRUE(has(reasons, {Reason::ChainCaptures, 5, 0, 2}));
  EXPECT_FALSE(has(reasons, {Reason::Captures, 5}));
  EXPECT_EQ(reasonJson({Reason::ChainCaptures, 5, 0, 2}).dump(), R"({"code":"chain_captures","n":5,"houses":2})");
}

TEST(AwaleHints, ASingleHouseIsAPlainCapture) {
  // House 6 (1 seed) makes North's house 1 hold 3: one house, 3 seeds.
  const At a = awale("1,0,0,0,0,1/2,0,4,0,0,0/20,20/S");
  const auto reasons = engine::moveReasons(a.board, a.pos, 6);
  EXPECT_TRUE(has(reasons, {Reason::Captures, 3}));
}

TEST(AwaleHints, TheGrandSlamTakesNothingAndTheOtherMoveAvoidsIt) {
  // House 6 would take both of North's houses, every seed he has: a grand slam, which takes nothing.
  const At a = awale("1,0,0,0,0,2/1,2,0,0,0,0/22,20/S");
  const auto slam = engine::moveReasons(a.board, a.pos, 6);
  EXPECT_TRUE(has(slam, {Reason::GrandSlamTakesNothing, 5}));
  EXPECT_TRUE(std::none_of(slam.begin(), slam.end(), [](const MoveReason& r) {
    return r.code == Reason::Captures || r.code == Reason::ChainCaptures || r.code == Reason::GrandSlamAvoided;
  }));
  const auto quiet = engine::moveReasons(a.board, a.pos, 1);
  EXPECT_TRUE(has(quiet, {Reason::GrandSlamAvoided, 5, 6}));
  EXPECT_EQ(reasonJson({Reason::GrandSlamTakesNothing, 5}).dump(), R"({"code":"grand_slam_takes_nothing","n":5})");
  EXPECT_EQ(reasonJson({Reason::GrandSlamAvoided, 5, 6}).dump(), R"({"code":"grand_slam_avoided","n":5,"house":6})");
}

TEST(AwaleHints, WhereTheGrandSlamCapturesAllThereIsNoSlamReason) {
  Rules rules = presetRules(Preset::Awale);
  rules.grandSlam = GrandSlam::All;
  const Board board(rules);
  const auto pos = parsePositionFor(board, "1,0,0,0,0,2/1,2,0,0,0,0/22,20/S");
  ASSERT_TRUE(pos.has_value());
  const auto slam = engine::moveReasons(board, *pos, 6);
  EXPECT_TRUE(has(slam, {Reason::ChainCaptures, 5, 0, 2}));
  const auto quiet = engine::moveReasons(board, *pos, 1);
  EXPECT_TRUE(std::none_of(quiet.begin(), quiet.end(), [](const MoveReason& r) { return r.code == Reason::GrandSlamAvoided; }));
}

TEST(AwaleHints, AMoveThatFeedsTheEmptyOpponentSaysSo) {
  // North has no seeds: South must feed him, and only house 6 reaches his row.
  const At a = awale("0,0,0,0,1,3/0,0,0,0,0,0/24,20/S");
  EXPECT_FALSE(a.board.isLegal(a.pos, 5));
  ASSERT_TRUE(a.board.isLegal(a.pos, 6));
  EXPECT_TRUE(has(engine::moveReasons(a.board, a.pos, 6), {Reason::Feeds}));
}

}  // namespace
}  // namespace semis::views
