// Fair play in the pure room: abort before both sides have moved, claim against a rated opponent
// who left, and both kept through the store's log.

#include <gtest/gtest.h>

#include "RoomTesting.hpp"
#include "room/Room.hpp"

namespace semis::room {
namespace {

using namespace std::chrono_literals;
constexpr long long kCreated = 1'000'000;

Room duel(bool rated) {
  protocol::GameSpec s;
  s.rules = *parseRules("kalah");
  s.mode = protocol::Mode::Friend;
  s.rated = rated;
  Room r("g1", s, kCreated);
  r.setClaimDelay(2000);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{"bob", "Bob", 0}}, t0);
  r.connect("alice", 1, kCreated + 10);
  r.connect("bob", 1, kCreated + 10);
  return r;
}

Room reloaded(const Room& r, long long sinceLastMs) {
  auto again = Room::fromLog(r.log(), {"Alice", "Bob"}, t0, sinceLastMs);
  EXPECT_TRUE(again) << (again ? "" : again.error().message);
  (*again)->setClaimDelay(2000);  // not part of the record: the hub sets it on every room
  return std::move(**again);
}

TEST(RoomClub, EitherSideAbortsUntilBothHaveMoved) {
  Room r = duel(false);
  EXPECT_TRUE(r.canAbort());
  ASSERT_TRUE(r.move("alice", 1, "a1", std::nullopt, t0));  // 4 seeds from house 1: Bob's turn
  EXPECT_TRUE(r.canAbort()) << "Bob has not moved yet";
  ASSERT_TRUE(r.move("bob", 1, "b1", std::nullopt, t0));
  EXPECT_FALSE(r.canAbort());
  auto late = r.abort("alice", t0);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, semis::protocol::ErrorCode::TooLate);
  EXPECT_FALSE(r.over());
}

// The organiser's forfeit (a bots' contest, Hub::forfeit): the side named loses, reason
// `forfeit`, as a resignation is kept; refused once the game is over; the same after a reload.
TEST(RoomClub, AForfeitEndsTheGameForTheOtherSideAndSurvivesAReload) {
  Room r = duel(true);
  ASSERT_TRUE(r.move("alice", 1, "a1", std::nullopt, t0));
  auto c = r.forfeit(Side::North, "stalled", t0);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->move);
  EXPECT_EQ(actionKindName(c->move->kind), "forfeit");
  EXPECT_TRUE(r.over());
  EXPECT_EQ(r.resultJson()["winner"], "S");
  EXPECT_EQ(r.resultJson()["reason"], "forfeit");
  bool told = false;
  for (const auto& e : c->events) told = told || e.json.find("\"forfeited\"") != std::string::npos;
  EXPECT_TRUE(told) << "the watchers are told why";
  EXPECT_FALSE(r.forfeit(Side::South, "stalled", t0)) << "over: nothing more to forfeit";
  Room again = reloaded(r, 0);
  EXPECT_TRUE(again.over());
  EXPECT_EQ(again.resultJson()["winner"], "S");
  EXPECT_EQ(again.resultJson()["reason"], "forfeit");
}

TEST(RoomClub, AnAbortEndsTheGameAndSurvivesAReload) {
  Room r = duel(true);
  EXPECT_FALSE(r.abort("carol", t0)) << "a spectator cannot abort";
  auto c = r.abort("bob", t0);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->move);
  EXPECT_EQ(actionKindName(c->move->kind), "abort");
  EXPECT_TRUE(r.over());
  EXPECT_EQ(r.resultJson()["reason"], "aborted");
  EXPECT_FALSE(r.canAbort());
  Room again = reloaded(r, 0);
  EXPECT_TRUE(again.over());
  EXPECT_EQ(again.resultJson()["reason"], "aborted");
  EXPECT_TRUE(again.spec().rated);
}

TEST(RoomClub, AnAiGameCannotBeAborted) {
  protocol::GameSpec s;
  s.rules = *parseRules("kalah");
  Room r("g2", s, kCreated);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{kAiSeat, "", 0}}, t0);
  EXPECT_FALSE(r.canAbort());
  EXPECT_FALSE(r.abort("alice", t0));
}

TEST(RoomClub, AWinIsClaimedOnlyAfterTheOpponentHasBeenGoneForTheDelay) {
  Room r = duel(true);
  ASSERT_TRUE(r.move("alice", 1, "a1", std::nullopt, t0));
  ASSERT_TRUE(r.move("bob", 1, "b1", std::nullopt, t0));
  EXPECT_FALSE(r.claimAt(1)) << "Bob is connected";
  auto early = r.claim("alice", kCreated + 100, t0);
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().code, semis::protocol::ErrorCode::TooEarly);
  EXPECT_TRUE(r.connect("bob", -1, kCreated + 5000));
  ASSERT_EQ(r.claimAt(1), kCreated + 7000);
  EXPECT_EQ(r.seatsJson()["N"]["claim_at"], kCreated + 7000);
  EXPECT_FALSE(r.claim("alice", kCreated + 6999, t0));
  EXPECT_FALSE(r.claim("bob", kCreated + 8000, t0)) << "Alice never left";
  auto won = r.claim("alice", kCreated + 7000, t0);
  ASSERT_TRUE(won) << won.error().message;
  EXPECT_EQ(r.resultJson()["winner"], "S");
  EXPECT_EQ(r.resultJson()["reason"], "left");
  EXPECT_FALSE(r.claim("alice", kCreated + 9000, t0)) << "once";
  Room again = reloaded(r, 0);
  EXPECT_EQ(again.resultJson()["winner"], "S");
  EXPECT_EQ(again.resultJson()["reason"], "left");
}

TEST(RoomClub, ACasualGameIsNotClaimedAndAReloadRestartsTheCountdown) {
  Room casual = duel(false);
  casual.connect("bob", -1, kCreated + 10);
  EXPECT_FALSE(casual.claimAt(1));
  auto refused = casual.claim("alice", kCreated + 100000, t0);
  ASSERT_FALSE(refused);
  // A rated game loaded on another instance counts its players from zero: they get the whole delay
  // from the load, not from a departure it never saw.
  Room rated = duel(true);
  ASSERT_TRUE(rated.move("alice", 1, "a1", std::nullopt, t0));
  ASSERT_TRUE(rated.move("bob", 1, "b1", std::nullopt, t0));
  Room again = reloaded(rated, 60000);  // loaded a minute after the last stored action
  const long long loaded = rated.log().game.updated + 60000;
  ASSERT_TRUE(again.claimAt(1));
  EXPECT_EQ(*again.claimAt(1), loaded + 2000);
  EXPECT_FALSE(again.claim("alice", loaded + 1999, t0));
  EXPECT_TRUE(again.claim("alice", loaded + 2000, t0));
}

TEST(RoomClub, APlayerWhoNeverPlayedIsNotClaimedAgainst) {
  // Bob was invited, heard of it, never came: his rating must not pay for it.
  Room r = duel(true);
  r.connect("bob", -1, kCreated + 10);
  EXPECT_FALSE(r.claimAt(1)) << "Bob has not played: he is a no-show, not a leaver";
  auto refused = r.claim("alice", kCreated + 1'000'000, t0 + 1h);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, semis::protocol::ErrorCode::TooEarly);
  ASSERT_TRUE(r.move("alice", 1, "a1", std::nullopt, t0));
  EXPECT_FALSE(r.claimAt(1)) << "still nothing played by Bob";
  EXPECT_EQ(r.seatsJson()["N"]["claim_at"], nullptr);
  EXPECT_FALSE(r.over());
}

TEST(RoomClub, AFirstMoveThatDoesNotComeAbortsTheGameUnrated) {
  Room r = duel(true);
  r.setNoShowDelay(5000);
  ASSERT_EQ(r.noShowAt(), t0 + 5s) << "Alice, to move first, from the start";
  EXPECT_EQ(r.deadline(), r.noShowAt());
  ASSERT_TRUE(r.move("alice", 1, "a1", std::nullopt, t0 + 1s));
  ASSERT_EQ(r.noShowAt(), t0 + 6s) << "Bob's first move is due 5 s after Alice's";
  EXPECT_FALSE(r.expire(t0 + 5999ms));
  EXPECT_FALSE(r.over());
  auto change = r.expire(t0 + 6s);
  ASSERT_TRUE(change);
  ASSERT_TRUE(change->move);
  EXPECT_EQ(actionKindName(change->move->kind), "no_show");
  EXPECT_EQ(change->move->side, Side::North);
  EXPECT_TRUE(r.over());
  EXPECT_EQ(r.resultJson()["reason"], "aborted");
  EXPECT_EQ(r.resultJson()["winner"], "draw");
  EXPECT_FALSE(r.deadline());
  Room again = reloaded(r, 0);
  EXPECT_TRUE(again.over());
  EXPECT_EQ(again.resultJson()["reason"], "aborted");
}

TEST(RoomClub, OnceBothHavePlayedNoFirstMoveIsDueAndAReloadKeepsTheDeadline) {
  Room r = duel(false);
  r.setNoShowDelay(5000);
  ASSERT_TRUE(r.move("alice", 1, "a1", std::nullopt, t0));
  // Loaded 3 s after Alice's move (another instance, a restart): Bob has 2 s left, not 5.
  Room again = reloaded(r, 3000);
  again.setNoShowDelay(5000);
  ASSERT_EQ(again.noShowAt(), t0 + 2s);
  ASSERT_TRUE(again.move("bob", 1, "b1", std::nullopt, t0 + 1s));
  EXPECT_FALSE(again.noShowAt());
  EXPECT_FALSE(again.deadline()) << "no clock, both have played: nothing is due";
  EXPECT_FALSE(again.expire(t0 + 1h));
  // A game against the computer has no no-show.
  protocol::GameSpec s;
  s.rules = *parseRules("kalah");
  Room ai("g3", s, kCreated);
  ai.seatPlayers({Seat{"alice", "Alice", 0}, Seat{kAiSeat, "", 0}}, t0);
  EXPECT_FALSE(ai.noShowAt());
}

}  // namespace
}  // namespace semis::room
