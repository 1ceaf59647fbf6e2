// The hub's rows for a room's values and back (server/RoomRows.cpp): the only place a room meets
// the store. A game stored through them reloads as the same game; a row this build cannot read
// is refused with the reason, never guessed.

#include <gtest/gtest.h>

#include "hub/RoomRows.hpp"

namespace semis::server {
namespace {

using namespace std::chrono_literals;
const room::TimePoint t0 = room::TimePoint{} + 1h;

room::Room friendRoom() {
  protocol::GameSpec spec;
  spec.rules = *parseRules("kalah,houses=4");
  spec.mode = protocol::Mode::Friend;
  spec.level = "easy";
  spec.clock = {300, 2};
  spec.rated = true;
  room::Room r("g7", spec, 1000);
  r.seatPlayers({room::Seat{"alice", "Alice", 0}, room::Seat{}}, t0);
  return r;
}

TEST(RoomRows, TheGameRowIsWhatTheStoreKeeps) {
  const room::Room r = friendRoom();
  const store::GameRow row = gameRow(r.header());
  EXPECT_EQ(row.id, "g7");
  EXPECT_EQ(row.rules, toString(r.spec().rules));
  EXPECT_EQ(row.mode, "friend");
  EXPECT_EQ(row.level, "easy");
  EXPECT_EQ(row.clockSeconds, 300);
  EXPECT_EQ(row.clockIncrement, 2);
  EXPECT_EQ(row.seatS, "alice");
  EXPECT_EQ(row.seatN, "");
  EXPECT_EQ(row.status, "waiting");
  EXPECT_EQ(row.result, "");
  EXPECT_EQ(row.created, 1000);
  EXPECT_TRUE(row.rated);
}

TEST(RoomRows, AGameStoredAsRowsReloadsAsTheSameGame) {
  room::Room r = friendRoom();
  store::GameLog stored{gameRow(r.header()), {}, {}};
  auto keep = [&](const room::Change& c, std::optional<store::GameRow> created = std::nullopt) {
    const store::Action a = storeAction(r, c, std::move(created), 5000);
    EXPECT_EQ(a.game, "g7");
    EXPECT_EQ(a.at, 5000);
    EXPECT_EQ(a.update.has_value(), c.gameRow);
    if (a.update) {
      stored.game.seatS = a.update->seatS;
      stored.game.seatN = a.update->seatN;
      stored.game.status = a.update->status;
      stored.game.result = a.update->result;
    }
    if (a.move) stored.moves.push_back(*a.move);
    stored.events.insert(stored.events.end(), a.events.begin(), a.events.end());
  };
  keep(*r.take("bob", "Bob", t0));
  EXPECT_EQ(stored.game.seatN, "bob");
  EXPECT_EQ(stored.game.status, "playing");
  auto m = r.move("alice", 1, "a1", std::nullopt, t0 + 1s);
  ASSERT_TRUE(m) << m.error().message;
  keep(*m);
  ASSERT_EQ(stored.moves.size(), 1U);
  EXPECT_EQ(stored.moves[0].kind, "move");
  EXPECT_EQ(stored.moves[0].side, 0);
  EXPECT_EQ(stored.moves[0].house, 1);
  EXPECT_EQ(stored.moves[0].clientId, "\"a1\"");
  EXPECT_GT(stored.moves[0].clockS, 0);
  const store::GameLog beforeResign = stored;
  auto resigned = r.resign("bob", t0 + 2s);
  ASSERT_TRUE(resigned);
  keep(*resigned);
  EXPECT_EQ(stored.moves.back().kind, "resign");
  EXPECT_EQ(stored.moves.back().side, 1);
  EXPECT_EQ(stored.game.status, "over");
  EXPECT_EQ(stored.game.result, r.resultJson().dump());

  auto log = roomLog(stored);
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_EQ(log->moves.back().kind, room::ActionKind::Resign);
  EXPECT_EQ(log->moves.back().side, Side::North);
  auto back = room::Room::fromLog(*log, {"Alice", "Bob"}, t0 + 2s);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ((*back)->record(), r.record());
  EXPECT_EQ((*back)->stateJson("alice", 0, t0 + 2s), r.stateJson("alice", 0, t0 + 2s));
  EXPECT_TRUE((*back)->spec().rated);

  // And an action another instance stored, followed in place.
  auto copy = room::Room::fromLog(*roomLog(beforeResign), {"Alice", "Bob"}, t0 + 1s);
  ASSERT_TRUE(copy);
  auto remote = remoteAction(storeAction(r, *resigned, std::nullopt, 5000));
  ASSERT_TRUE(remote) << remote.error().message;
  ASSERT_TRUE(remote->seats);
  EXPECT_EQ((*remote->seats)[1], "bob");
  auto followed = (*copy)->follow(*remote, {"Alice", "Bob"}, t0 + 2s, 0);
  ASSERT_TRUE(followed) << followed.error().message;
  EXPECT_EQ((*copy)->record(), r.record());
}

TEST(RoomRows, RowsThisBuildCannotReadAreRefused) {
  room::Room r = friendRoom();
  store::GameLog stored{gameRow(r.header()), {}, {}};
  stored.moves.push_back(store::MoveRow{1, "teleport", 0, 1, "", -1, -1, 1});
  auto log = roomLog(stored);
  ASSERT_FALSE(log);
  EXPECT_NE(log.error().message.find("unknown action 'teleport'"), std::string::npos) << log.error().message;

  stored.moves.clear();
  stored.game.mode = "duel";
  log = roomLog(stored);
  ASSERT_FALSE(log);
  EXPECT_NE(log.error().message.find("unknown mode 'duel'"), std::string::npos) << log.error().message;

  stored.game.mode = "friend";
  stored.game.rules = "kalah,houses=99";
  EXPECT_FALSE(roomLog(stored));

  store::Action action{"g7", store::MoveRow{1, "", 0, 1, "", -1, -1, 1}, {{1, "{}"}}, std::nullopt, std::nullopt, 0};
  EXPECT_FALSE(remoteAction(action));
}

}  // namespace
}  // namespace semis::server
