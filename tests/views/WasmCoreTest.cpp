// The WebAssembly core (web/wasm/SemisWasm.cpp, compiled natively here) and the server write the
// same JSON for the same rules and game: the rules catalogue as `/api/rules` sends it, and the
// state's rules parts (position, legal moves, plies, sets, points) as the room sends them. The
// golden files were written by the server and the core of before the writers were shared, so the
// wire stays byte for byte what it was.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "protocol/GameJson.hpp"
#include "room/Room.hpp"

extern "C" {
const char* sm_rules();
const char* sm_new(const char* rulesText);
const char* sm_state(int handle);
const char* sm_play(int handle, int house);
}

namespace semis::views {
namespace {

using protocol::Json;

std::string golden(const std::string& name) {
  std::ifstream in(std::string(SEMIS_VIEWS_GOLDEN) + "/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int newGame(const std::string& rules) {
  const Json made = Json::parse(sm_new(rules.c_str()));
  EXPECT_TRUE(made.contains("handle")) << made.dump();
  return made.value("handle", -1);
}

// The middle legal move until the game ends (the order the goldens were written with); the last
// answer of sm_play.
std::string playOut(int handle) {
  std::string last;
  for (int i = 0; i < 400; ++i) {
    const Json state = Json::parse(sm_state(handle));
    if (state["status"] == "over") break;
    const Json& legal = state["legal"];
    last = sm_play(handle, legal[legal.size() / 2].get<int>());
  }
  return last;
}

TEST(WasmCore, TheRulesCatalogueIsTheServersText) {
  EXPECT_EQ(sm_rules(), golden("rules.json"));
  EXPECT_EQ(protocol::dumpJson(protocol::rulesCatalogJson()), golden("rules.json"));  // the body of /api/rules
}

TEST(WasmCore, ALocalGamesStateIsWhatItWas) {
  EXPECT_EQ(playOut(newGame("kalah,houses=3,seeds=2")), golden("kalah-3x2-last-play.json"));
  EXPECT_EQ(playOut(newGame("mangala,houses=3,seeds=2")), golden("mangala-3x2-last-play.json"));  // sets
}

// The same moves in the room (a local game on the server) and in the core: every field both
// states carry is the same text after every move, up to the end of a match of several sets.
TEST(WasmCore, TheRoomAndTheCoreWriteTheSameState) {
  for (const std::string rules : {"kalah", "mangala,houses=4,seeds=3", "al-manqala,houses=4,seeds=3", "congkak"}) {
    SCOPED_TRACE(rules);
    protocol::GameSpec spec;
    spec.rules = *parseRules(rules);
    spec.mode = protocol::Mode::Local;
    const auto t0 = room::TimePoint{} + std::chrono::hours(1);
    room::Room room("g1", spec, 1);
    room.seatPlayers({room::Seat{"alice", "Alice", 0}, room::Seat{"alice", "Alice", 0}}, t0);
    const int handle = newGame(rules);
    for (int i = 0; i < 400 && !room.over(); ++i) {
      const Json core = Json::parse(sm_state(handle));
      const Json server = room.stateJson("alice", 0, t0);
      for (const char* key : {"rules", "position", "legal", "status", "set", "sets", "set_results", "points", "plies"})
        ASSERT_EQ(core[key].dump(), server[key].dump()) << key << " after " << i << " plies";
      const Json& legal = server["legal"];
      const int house = legal[static_cast<std::size_t>(i) % legal.size()].get<int>();
      const Json played = Json::parse(sm_play(handle, house));
      auto change = room.move("alice", house, i, std::nullopt, t0);
      ASSERT_TRUE(change) << change.error().message;
      const Json event = Json::parse(change->events.front().json)["event"];
      for (const char* key : {"kind", "side", "house", "trace", "legal"})
        ASSERT_EQ(played["event"][key].dump(), event[key].dump()) << key << " of ply " << i;
    }
    ASSERT_TRUE(room.over());
    const Json core = Json::parse(sm_state(handle));
    const Json server = room.stateJson("alice", 0, t0);
    EXPECT_EQ(core["status"], "over");
    for (const char* key : {"position", "set_results", "points", "plies"})
      EXPECT_EQ(core[key].dump(), server[key].dump()) << key;
    // The result: the last set's outcome as both word it.
    for (const auto& [key, value] : core["result"].items()) {
      if (key != "winner" || server["sets"].get<int>() > 1) {
        EXPECT_EQ(value.dump(), server["result"][key].dump()) << key;
      }
    }
  }
}

}  // namespace
}  // namespace semis::views
