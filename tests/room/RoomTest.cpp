// The pure room, every transition in-process: no store, no network, time given by the test.

#include <gtest/gtest.h>

#include <random>

#include "RoomTesting.hpp"
#include "room/Room.hpp"

namespace semis::room {
namespace {

using namespace std::chrono_literals;

Room friendRoom(int clockSeconds = 0, int increment = 0, const std::string& rules = "kalah") {
  Room r("g2", spec(rules, protocol::Mode::Friend, clockSeconds, increment), 1000);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{}}, t0);
  return r;
}

int randomLegal(const Room& r, std::mt19937& rng) {
  std::vector<int> legal;
  const auto mask = r.game().board().legalMask(r.game().position());
  for (int h = 1; h <= r.game().board().houses(); ++h)
    if ((mask >> (h - 1)) & 1U) legal.push_back(h);
  return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
}

std::string kindOf(const EventRecord& e) { return Json::parse(e.json)["event"]["kind"].get<std::string>(); }

TEST(Room, AMoveStagesItsRowAndEventsThenTheAiMoves) {
  Room r = aiRoom();
  EXPECT_EQ(r.status(), "playing");
  auto c = r.move("alice", 3, "m1", std::nullopt, t0);  // Kalah's house 3 ends in the store: South plays again
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(c->move);
  EXPECT_EQ(c->move->seq, 1);
  EXPECT_EQ(actionKindName(c->move->kind), "move");
  EXPECT_EQ(c->move->clientId, "\"m1\"");
  ASSERT_EQ(c->events.size(), 1U);
  EXPECT_EQ(c->events[0].n, 1);
  EXPECT_EQ(*c->ack, 1);
  EXPECT_FALSE(r.aiToMove()) << "an extra turn: South moves again";
  ASSERT_TRUE(r.move("alice", 6, "m2", std::nullopt, t0));
  ASSERT_TRUE(r.aiToMove());
  const std::size_t plies = r.game().plies().size();
  EXPECT_EQ(r.aiMove(plies - 1, firstLegal(r), t0).error().code, semis::protocol::ErrorCode::Stale) << "an answer for an older position";
  auto ai = r.aiMove(plies, firstLegal(r), t0);
  ASSERT_TRUE(ai) << ai.error().message;
  EXPECT_EQ(r.lastEvent(), 3);
  EXPECT_EQ(r.game().plies().size(), plies + 1);
}

TEST(Room, RefusalsChangeNothing) {
  Room r = friendRoom();
  EXPECT_EQ(r.move("alice", 3, 1, std::nullopt, t0).error().code, semis::protocol::ErrorCode::NotYourTurn) << "no opponent yet";
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  EXPECT_EQ(r.move("carol", 3, 1, std::nullopt, t0).error().code, semis::protocol::ErrorCode::NotAPlayer);
  EXPECT_EQ(r.move("bob", 3, 1, std::nullopt, t0).error().code, semis::protocol::ErrorCode::NotYourTurn);
  auto illegal = r.move("alice", 7, 1, std::nullopt, t0);
  EXPECT_EQ(illegal.error().code, semis::protocol::ErrorCode::IllegalMove);
  EXPECT_NE(illegal.error().message.find("legal: "), std::string::npos);
  EXPECT_EQ(r.lastEvent(), 1) << "only the join";
  EXPECT_TRUE(r.game().plies().empty());
  ASSERT_TRUE(r.resign("bob", t0));
  EXPECT_EQ(r.move("alice", 3, 2, std::nullopt, t0).error().code, semis::protocol::ErrorCode::GameOver);
  EXPECT_EQ(r.resultJson()["winner"], "S");
}

TEST(Room, AReplayedIdInALocalGameIsStaleNotPlayedAgain) {
  Room r("g3", spec("kalah", protocol::Mode::Local), 1);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{"alice", "Alice", 0}}, t0);
  ASSERT_TRUE(r.move("alice", 1, "x", std::nullopt, t0));
  ASSERT_EQ(r.game().position().toMove, Side::North);
  auto again = r.move("alice", 1, "x", std::nullopt, t0);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, semis::protocol::ErrorCode::Stale);
  EXPECT_EQ(again.error().n, 1);
  EXPECT_EQ(r.game().plies().size(), 1U);
}

TEST(Room, AReplayedIdInAFriendGameIsStaleWithItsEvent) {
  Room r = friendRoom();
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  ASSERT_TRUE(r.move("alice", 1, 7, std::nullopt, t0));
  auto again = r.move("alice", 1, 7, std::nullopt, t0);  // now North's turn: still stale, with its n
  EXPECT_EQ(again.error().code, semis::protocol::ErrorCode::Stale);
  EXPECT_EQ(again.error().n, 2);
}

TEST(Room, AMoveOnAnOldPositionIsStale) {
  Room r = friendRoom();
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  ASSERT_TRUE(r.move("alice", 1, 1, 1, t0));
  EXPECT_EQ(r.move("bob", 1, 2, 1, t0).error().code, semis::protocol::ErrorCode::Stale);
  EXPECT_TRUE(r.move("bob", 1, 3, 2, t0));
}

TEST(Room, AFriendsSeatIsTakenOnce) {
  Room r = friendRoom();
  EXPECT_EQ(r.status(), "waiting");
  EXPECT_EQ(r.take("alice", "Alice", t0).error().code, semis::protocol::ErrorCode::Stale);
  auto c = r.take("bob", "Bob", t0);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->gameRow);
  EXPECT_EQ(kindOf(c->events[0]), "joined");
  EXPECT_EQ(r.take("carol", "Carol", t0).error().code, semis::protocol::ErrorCode::NotAPlayer);
  EXPECT_EQ(r.seats()[1].player, "bob");
  EXPECT_EQ(r.status(), "playing");
}

TEST(Room, ClocksChargeTheMoverAndAddTheIncrement) {
  Room r = friendRoom(60, 2);
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  ASSERT_TRUE(r.move("alice", 1, 1, std::nullopt, t0 + 10s));  // house 1 passes the turn
  auto clock = r.clockJson(t0 + 10s);
  EXPECT_EQ(clock["S"], 60000 - 10000 + 2000);
  EXPECT_EQ(clock["N"], 60000);
  EXPECT_EQ(r.clockJson(t0 + 15s)["N"], 55000) << "North's clock runs from South's move";
  EXPECT_FALSE(r.flag(t0 + 69s));
  auto flag = r.flag(t0 + 70s);
  ASSERT_TRUE(flag);
  EXPECT_EQ(actionKindName(flag->move->kind), "timeout");
  EXPECT_EQ(r.resultJson()["winner"], "S");
  EXPECT_EQ(r.resultJson()["reason"], "time");
  EXPECT_EQ(r.clockJson(t0 + 80s)["N"], 0);
  EXPECT_FALSE(r.clockJson(t0 + 80s)["running"]);
}

TEST(Room, TheTimeLeftToMoveIsWhatTheAiMustFit) {
  EXPECT_EQ(aiRoom().clockLeftToMove(t0), -1) << "no clock";
  Room r("g4", spec("kalah", protocol::Mode::Ai, 10), 1);
  r.seatPlayers({Seat{kAiSeat, "", 0}, Seat{"alice", "Alice", 0}}, t0);
  ASSERT_TRUE(r.aiToMove());
  EXPECT_EQ(r.clockLeftToMove(t0), 10000);
  EXPECT_EQ(r.clockLeftToMove(t0 + 9900ms), 100);
  EXPECT_EQ(r.clockLeftToMove(t0 + 11s), 0);
}

TEST(Room, DrawOffersAgainstTheAiAreDeclinedInTheSameChange) {
  Room r = aiRoom();
  auto c = r.offerDraw("alice", t0);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->events.size(), 2U);
  EXPECT_EQ(kindOf(c->events[1]), "draw_declined");
  EXPECT_EQ(r.answerDraw("alice", true, t0).error().code, semis::protocol::ErrorCode::Stale);
}

TEST(Room, ADrawIsOfferedAndAgreed) {
  Room r = friendRoom();
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  ASSERT_TRUE(r.offerDraw("alice", t0));
  EXPECT_EQ(r.offerDraw("bob", t0).error().code, semis::protocol::ErrorCode::BadMessage);
  EXPECT_EQ(r.answerDraw("alice", true, t0).error().code, semis::protocol::ErrorCode::NotYourTurn);
  ASSERT_TRUE(r.answerDraw("bob", false, t0));
  ASSERT_TRUE(r.offerDraw("bob", t0));
  auto agreed = r.answerDraw("alice", true, t0);
  ASSERT_TRUE(agreed);
  EXPECT_EQ(actionKindName(agreed->move->kind), "draw");
  EXPECT_EQ(r.resultJson()["winner"], "draw");
}

TEST(Room, AlManqalaSplitsTheSeedsOnAgreement) {
  Room r = friendRoom(0, 0, "al-manqala");
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  ASSERT_TRUE(r.offerDraw("alice", t0));
  auto split = r.answerDraw("bob", true, t0);
  ASSERT_TRUE(split) << split.error().message;
  EXPECT_EQ(actionKindName(split->move->kind), "split");
  EXPECT_EQ(kindOf(split->events[0]), "split");
}

TEST(Room, ThePieSwapSwapsTheSeats) {
  Room r = friendRoom(0, 0, "kalah,pie=true");
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  EXPECT_EQ(r.swap("bob", t0).error().code, semis::protocol::ErrorCode::IllegalMove) << "before South's first turn";
  ASSERT_TRUE(r.move("alice", 1, 1, std::nullopt, t0));
  auto c = r.swap("bob", t0);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(r.seats()[0].player, "bob");
  EXPECT_EQ(r.seats()[1].player, "alice");
}

TEST(Room, ARematchNeedsBothPlayersAndSwapsSides) {
  Room r = friendRoom();
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  EXPECT_EQ(r.rematch("alice", "NEW").error().code, semis::protocol::ErrorCode::BadMessage);
  ASSERT_TRUE(r.resign("alice", t0));
  auto first = r.rematch("alice", "NEW");
  ASSERT_TRUE(first);
  EXPECT_TRUE(first->rematch.empty());
  EXPECT_EQ(kindOf(first->events[0]), "rematch_offered");
  EXPECT_EQ(r.rematch("alice", "NEW").error().code, semis::protocol::ErrorCode::Stale);
  auto both = r.rematch("bob", "NEW");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->rematch, "NEW");
  EXPECT_EQ(r.rematchSeats()[0].player, "bob");
  EXPECT_EQ(r.rematchSeats()[1].player, "alice");
}

TEST(Room, RestoreUndoesATransitionWholly) {
  Room r = friendRoom(60);
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  const Json before = r.stateJson("alice", 0, t0 + 5s);
  auto saved = r.save();
  ASSERT_TRUE(r.move("alice", 1, "id", std::nullopt, t0 + 5s));
  r.restore(*saved);
  EXPECT_EQ(r.stateJson("alice", 0, t0 + 5s), before);
  EXPECT_TRUE(r.move("alice", 1, "id", std::nullopt, t0 + 5s)) << "the id is free again: the move was never stored";
  saved = r.save();
  ASSERT_TRUE(r.resign("bob", t0 + 6s));
  r.restore(*saved);
  EXPECT_FALSE(r.over());
}

TEST(Room, ALogRebuildsTheSameGame) {
  std::mt19937 rng(5);
  Room r("g5", spec("mangala", protocol::Mode::Friend, 300, 1), 1);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{}}, t0);
  GameLog log;
  auto keep = [&](const Change& c) {
    if (c.move) log.moves.push_back(*c.move);
    log.events.insert(log.events.end(), c.events.begin(), c.events.end());
  };
  keep(*r.take("bob", "Bob", t0));
  int sets = 0;
  for (int i = 0; i < 400 && !r.over(); ++i) {
    const std::string who = r.game().position().toMove == Side::South ? "alice" : "bob";
    auto c = r.move(who, randomLegal(r, rng), i, std::nullopt, t0 + std::chrono::milliseconds(i));
    ASSERT_TRUE(c) << c.error().message;
    for (const auto& e : c->events) sets += kindOf(e) == "set_over" ? 1 : 0;
    keep(*c);
  }
  EXPECT_GE(sets, 1) << "a Mangala match has sets";
  log.game = r.header();
  auto back = Room::fromLog(log, {"Alice", "Bob"}, t0 + 1s);
  ASSERT_TRUE(back) << back.error().message;
  const Room& b = **back;
  EXPECT_EQ(b.game().plies().size(), r.game().plies().size());
  EXPECT_EQ(b.lastEvent(), r.lastEvent());
  EXPECT_EQ(b.resultJson(), r.resultJson());
  EXPECT_EQ(b.record(), r.record());
}

// A page builds the next state from each move event while its own copy may still be animating an
// earlier move (issue 22): every move event says what the state then says (status, set, points,
// what each side may do), through a whole Mangala match of several sets.
TEST(Room, EveryMoveEventCarriesWhatTheStateSaysAfterIt) {
  std::mt19937 rng(11);
  Room r("g6", spec("mangala", protocol::Mode::Friend), 1);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{}}, t0);
  ASSERT_TRUE(r.take("bob", "Bob", t0));
  int setEnds = 0;
  for (int i = 0; i < 600 && !r.over(); ++i) {
    const std::string who = r.game().position().toMove == Side::South ? "alice" : "bob";
    auto c = r.move(who, randomLegal(r, rng), i, std::nullopt, t0);
    ASSERT_TRUE(c) << c.error().message;
    const Json ev = Json::parse(c->events.front().json)["event"];
    ASSERT_EQ(ev["kind"], "move");
    const Json st = r.stateJson("alice", 0, t0);
    EXPECT_EQ(ev["status"], st["status"]) << "ply " << i;
    EXPECT_EQ(ev["next_set"], st["set"]) << "ply " << i;
    EXPECT_EQ(ev["points"], st["points"]) << "ply " << i;
    EXPECT_EQ(ev["can_swap"], st["can_swap"]) << "ply " << i;
    EXPECT_EQ(ev["can_abort"], st["can_abort"]) << "ply " << i;
    if (ev.contains("set_end_position")) {
      ++setEnds;
      if (!r.over()) {
        EXPECT_EQ(ev["status"], "playing") << "a set's end is not the match's";
      }
    }
  }
  EXPECT_TRUE(r.over());
  EXPECT_GE(setEnds, 2) << "a match of several sets";
}

TEST(Room, ARestoredGameStillKnowsItsMoveIds) {
  Room r = friendRoom();
  GameLog log;
  auto joined = r.take("bob", "Bob", t0);
  log.events = joined->events;
  auto m = r.move("alice", 1, "first", std::nullopt, t0);
  log.moves.push_back(*m->move);
  log.events.insert(log.events.end(), m->events.begin(), m->events.end());
  log.game = r.header();
  log.game.seats[1] = "bob";
  auto back = Room::fromLog(log, {"Alice", "Bob"}, t0);
  ASSERT_TRUE(back);
  auto again = (*back)->move("alice", 1, "first", std::nullopt, t0);
  EXPECT_EQ(again.error().code, semis::protocol::ErrorCode::Stale);
  EXPECT_EQ(again.error().n, 2);
}

TEST(Room, PresenceCountsConnectionsPerSeat) {
  Room r = friendRoom();
  EXPECT_TRUE(r.connect("alice", +1));
  EXPECT_FALSE(r.connect("alice", +1));
  EXPECT_FALSE(r.connect("carol", +1)) << "spectators hold no seat";
  EXPECT_FALSE(r.connect("alice", -1));
  EXPECT_TRUE(r.connect("alice", -1));
  EXPECT_FALSE(r.seatsJson()["S"]["connected"]);
}

}  // namespace
}  // namespace semis::room

namespace semis::room {
namespace {

// How another instance keeps its copy: follow() of each action stored elsewhere, or log() plus
// the action replayed by fromLog, equals the room that played it, move ids and clocks included.
TEST(Room, ACopyFollowingAnotherRoomsActionsEqualsIt) {
  Room r("g9", spec("kalah", protocol::Mode::Friend, 300, 2), 1);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{}}, t0);
  auto copy = Room::fromLog(r.log(), {"Alice", ""}, t0);
  ASSERT_TRUE(copy);
  std::mt19937 rng(7);
  // Half the actions are followed in place, half by a reload of log() plus the action.
  int step = 0;
  auto follow = [&](const Change& c, TimePoint now) {
    const GameHeader row = r.header();  // the seats and status the action stored
    if (++step % 2 == 0) {
      RemoteAction a{c.move, c.events, row.seats, 0};
      auto followed = (*copy)->follow(a, {"Alice", "Bob"}, now, 0);
      ASSERT_TRUE(followed) << followed.error().message;
      return;
    }
    GameLog log = (*copy)->log();
    if (c.move) log.moves.push_back(*c.move);
    log.events.insert(log.events.end(), c.events.begin(), c.events.end());
    log.game = row;
    copy = Room::fromLog(log, {"Alice", "Bob"}, now);
    ASSERT_TRUE(copy) << copy.error().message;
  };
  follow(*r.take("bob", "Bob", t0), t0);
  auto now = t0;
  int lastId = -1;
  for (int i = 0; i < 30 && !r.over(); ++i) {
    now += 1500ms;
    lastId = i;
    const std::string who = r.game().position().toMove == Side::South ? "alice" : "bob";
    auto c = r.move(who, randomLegal(r, rng), i, std::nullopt, now);
    ASSERT_TRUE(c) << c.error().message;
    follow(*c, now);
    ASSERT_EQ((*copy)->lastEvent(), r.lastEvent());
    ASSERT_EQ((*copy)->clockJson(now + 700ms), r.clockJson(now + 700ms)) << "after " << i + 1 << " moves";
  }
  EXPECT_EQ((*copy)->record(), r.record());
  EXPECT_EQ((*copy)->stateJson("alice", 1, now), r.stateJson("alice", 1, now));
  const Side last = (*copy)->log().moves.back().side;
  auto replay = (*copy)->move(last == Side::South ? "alice" : "bob", 1, lastId, std::nullopt, now);
  ASSERT_FALSE(replay);
  EXPECT_EQ(replay.error().code, semis::protocol::ErrorCode::Stale) << "a replayed id is known";
}

// A game reloaded 4 s after its last action (a crashed instance's, picked up by another) charges
// those 4 s to the side to move.
TEST(Room, AReloadedGameChargesTheTimeSinceItsLastAction) {
  Room r("g10", spec("kalah", protocol::Mode::Friend, 60, 0), 1);
  r.seatPlayers({Seat{"alice", "Alice", 0}, Seat{"bob", "Bob", 0}}, t0);
  auto c = r.move("alice", 1, 1, std::nullopt, t0 + 2s);
  ASSERT_TRUE(c);
  const Side mover = r.game().position().toMove;
  auto back = Room::fromLog(r.log(), {"Alice", "Bob"}, t0 + 10s, 4000);
  ASSERT_TRUE(back);
  const Json clock = (*back)->clockJson(t0 + 10s);
  const Json expected = r.clockJson(t0 + 2s + 4s);
  EXPECT_EQ(clock, expected) << clock.dump() << " vs " << expected.dump() << " (" << protocol::sideName(mover) << " to move)";
}

}  // namespace
}  // namespace semis::room

namespace semis::room {
namespace {

// An action that is not the next one (a gap: a lost bus message) is refused and changes nothing:
// the hub then reloads the game from the record.
TEST(Room, AFollowerRefusesAnActionThatIsNotTheNextOne) {
  Room r = friendRoom();
  auto joined = r.take("bob", "Bob", t0);
  auto m1 = r.move("alice", 1, 1, std::nullopt, t0);
  ASSERT_TRUE(joined && m1);
  Room copy = friendRoom();
  RemoteAction skip{m1->move, m1->events, std::nullopt, 0};
  auto refused = copy.follow(skip, {"", ""}, t0, 0);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, semis::protocol::ErrorCode::Stale);
  EXPECT_EQ(copy.lastEvent(), 0);
  EXPECT_TRUE(copy.game().plies().empty());
}

}  // namespace
}  // namespace semis::room
