// Take back against the computer in the pure room: what is undone, what is refused, and that the
// stored log (a reload, another instance following it) is the game without the moves undone.

#include <gtest/gtest.h>

#include <random>

#include "RoomTesting.hpp"
#include "room/Room.hpp"

namespace semis::room {
namespace {

using namespace std::chrono_literals;

// The computer's whole reply, its extra turns included, with its first legal house each time.
void aiReplies(Room& r, TimePoint now) {
  while (r.aiToMove()) ASSERT_TRUE(r.aiMove(r.game().plies().size(), firstLegal(r), now));
}

std::vector<int> moves(const Room& r) {
  std::vector<int> out;
  for (const Ply& p : r.game().plies()) out.push_back(p.move);
  return out;
}

TEST(RoomTakeBack, UndoesThePlayersTurnAndTheComputersReply) {
  Room r = aiRoom();
  EXPECT_EQ(r.takeBack("alice", t0).error().code, semis::protocol::ErrorCode::NothingToTakeBack);
  ASSERT_TRUE(r.move("alice", 1, "a", std::nullopt, t0));  // ends in house 5: the turn passes
  aiReplies(r, t0);
  const auto kept = moves(r);
  const std::string position = r.game().board().toString(r.game().position());
  // A whole turn of two sowings: a house whose seeds end in the store, then another house.
  int extra = 0;
  for (int h = 1; h <= 6 && extra == 0; ++h) {
    if (r.game().position().pits[static_cast<std::size_t>(r.game().board().housePit(Side::South, h))] == 7 - h) extra = h;
  }
  ASSERT_NE(extra, 0) << position;
  ASSERT_TRUE(r.move("alice", extra, "b", std::nullopt, t0));
  ASSERT_EQ(r.game().position().toMove, Side::South) << "an extra turn";
  ASSERT_TRUE(r.move("alice", firstLegal(r), "c", std::nullopt, t0));
  aiReplies(r, t0);
  ASSERT_EQ(r.game().position().toMove, Side::South);
  const std::size_t undone = r.game().plies().size() - kept.size();
  EXPECT_EQ(r.takeBackPlies(Side::South), static_cast<int>(undone)) << "both of South's sowings and the reply";
  const long long events = r.lastEvent();
  auto c = r.takeBack("alice", t0 + 1s);
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->move);
  EXPECT_EQ(actionKindName(c->move->kind), "takeback");
  EXPECT_EQ(c->move->house, static_cast<int>(undone));
  ASSERT_EQ(c->events.size(), 1U);
  EXPECT_EQ(c->events[0].n, events + 1);
  const Json ev = Json::parse(c->events[0].json)["event"];
  EXPECT_EQ(ev["kind"], "takeback");
  EXPECT_EQ(ev["plies"], undone);
  EXPECT_EQ(moves(r), kept);
  EXPECT_EQ(r.game().board().toString(r.game().position()), position);
  EXPECT_EQ(ev["legal"], r.stateJson("alice", 0, t0)["legal"]);
  EXPECT_FALSE(c->gameRow);

  // The stored log replays to the same game, and so does a copy that follows the action.
  GameLog log = r.log();
  auto reloaded = Room::fromLog(log, {"Alice", ""}, t0 + 2s);
  ASSERT_TRUE(reloaded) << reloaded.error().message;
  EXPECT_EQ(moves(**reloaded), kept);
  EXPECT_EQ((*reloaded)->record(), r.record());
  EXPECT_EQ((*reloaded)->stateJson("alice", 0, t0 + 2s), r.stateJson("alice", 0, t0 + 2s));
  log.moves.pop_back();
  log.events.pop_back();
  auto copy = Room::fromLog(log, {"Alice", ""}, t0);
  ASSERT_TRUE(copy);
  RemoteAction a{c->move, c->events, std::nullopt, 0};
  ASSERT_TRUE((*copy)->follow(a, {"Alice", ""}, t0 + 2s, 0));
  EXPECT_EQ((*copy)->record(), r.record());

  // A stale AI answer for the undone position is refused; the game goes on from here.
  EXPECT_EQ(r.aiMove(kept.size() + undone, 1, t0).error().code, semis::protocol::ErrorCode::Stale);
  ASSERT_TRUE(r.move("alice", 2, "d", std::nullopt, t0));
  EXPECT_EQ(r.game().plies().size(), kept.size() + 1);
}

TEST(RoomTakeBack, RefusedCasesChangeNothing) {
  Room r = aiRoom();
  ASSERT_TRUE(r.move("alice", 1, "a", std::nullopt, t0));
  EXPECT_EQ(r.takeBack("alice", t0).error().code, semis::protocol::ErrorCode::NotYourTurn) << "the computer is thinking";
  EXPECT_EQ(r.takeBack("carol", t0).error().code, semis::protocol::ErrorCode::NotAPlayer);
  aiReplies(r, t0);
  const long long events = r.lastEvent();
  EXPECT_EQ(r.takeBack("carol", t0).error().code, semis::protocol::ErrorCode::NotAPlayer);
  EXPECT_EQ(r.lastEvent(), events);

  protocol::GameSpec rated = spec("kalah", protocol::Mode::Ai);
  rated.rated = true;
  Room ratedRoom("t2", rated, 1000);
  ratedRoom.seatPlayers({Seat{"alice", "Alice", 0}, Seat{kAiSeat, "", 0}}, t0);
  ASSERT_TRUE(ratedRoom.move("alice", 1, "a", std::nullopt, t0));
  aiReplies(ratedRoom, t0);
  EXPECT_EQ(ratedRoom.takeBack("alice", t0).error().code, semis::protocol::ErrorCode::NotAllowed);

  Room friends("t3", spec("kalah", protocol::Mode::Friend), 1000);
  friends.seatPlayers({Seat{"alice", "Alice", 0}, Seat{"bob", "Bob", 0}}, t0);
  ASSERT_TRUE(friends.move("alice", 1, "a", std::nullopt, t0));
  ASSERT_TRUE(friends.move("bob", 1, "b", std::nullopt, t0));
  EXPECT_EQ(friends.takeBack("alice", t0).error().code, semis::protocol::ErrorCode::NotAllowed);
  EXPECT_EQ(friends.game().plies().size(), 2U);
  EXPECT_FALSE(friends.stateJson("alice", 0, t0)["can_take_back"].get<bool>());

  ASSERT_TRUE(r.resign("alice", t0));
  EXPECT_EQ(r.takeBack("alice", t0).error().code, semis::protocol::ErrorCode::GameOver);
}

// Mangala: a set once decided stays decided; the take back stops at the new set's start.
TEST(RoomTakeBack, StopsAtTheStartOfTheSet) {
  Room r = aiRoom("mangala");
  std::mt19937 rng(3);
  TimePoint now = t0;
  while (!r.over() && r.game().currentSet() == 1) {
    if (r.aiToMove()) {
      aiReplies(r, now);
      continue;
    }
    const auto mask = r.game().board().legalMask(r.game().position());
    std::vector<int> legal;
    for (int h = 1; h <= r.game().board().houses(); ++h)
      if ((mask >> (h - 1)) & 1U) legal.push_back(h);
    ASSERT_TRUE(r.move("alice", legal[rng() % legal.size()], static_cast<int>(rng()), std::nullopt, now));
  }
  ASSERT_EQ(r.game().currentSet(), 2);
  aiReplies(r, now);  // the computer begins set 2
  EXPECT_EQ(r.takeBack("alice", now).error().code, semis::protocol::ErrorCode::NothingToTakeBack) << "set 1 is decided";
  const std::size_t before = r.game().plies().size();
  ASSERT_TRUE(r.move("alice", firstLegal(r), "x", std::nullopt, now));
  aiReplies(r, now);
  ASSERT_FALSE(r.over());
  if (r.game().position().toMove == Side::South) {
    ASSERT_TRUE(r.takeBack("alice", now));
    EXPECT_EQ(r.game().plies().size(), before);
    EXPECT_EQ(r.game().currentSet(), 2);
  }
}

TEST(RoomTakeBack, TheClockGivesNoTimeBack) {
  Room r = aiRoom("kalah", 60);
  ASSERT_TRUE(r.move("alice", 1, "a", std::nullopt, t0 + 5s));
  aiReplies(r, t0 + 6s);
  const long long left = r.clockJson(t0 + 9s)["S"].get<long long>();
  auto c = r.takeBack("alice", t0 + 9s);
  ASSERT_TRUE(c);
  EXPECT_EQ(r.clockJson(t0 + 9s)["S"].get<long long>(), left);
  EXPECT_EQ(c->move->clockS, left);
  auto reloaded = Room::fromLog(r.log(), {"Alice", ""}, t0 + 9s);
  ASSERT_TRUE(reloaded);
  EXPECT_EQ((*reloaded)->clockJson(t0 + 9s)["S"], r.clockJson(t0 + 9s)["S"]);
}

}  // namespace
}  // namespace semis::room
