// Black-box tests of `semis replay`, `semis perft`, `semis solve` and `semis rules`: the binary is run as a user
// would run it. The rules library only picks the moves of long games and states the expected
// positions, which are written here field by field, independently of the JSON code.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rules/Game.hpp"

namespace semis {
namespace {

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

RunResult semis(const std::string& args) {
  // One file per process and call: CTest runs the tests of this binary in parallel.
  static int calls = 0;
  const std::string errFile =
      testing::TempDir() + "semis_app_stderr_" + std::to_string(getpid()) + "_" + std::to_string(++calls) + ".txt";
  const std::string cmd = std::string(SEMIS_BINARY) + " " + args + " 2>" + errFile;
  RunResult run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buf{};
  std::size_t got = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), got);
  const int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(errFile);
  std::stringstream ss;
  ss << err.rdbuf();
  run.err = ss.str();
  std::remove(errFile.c_str());
  return run;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A field of `semis solve --json`'s last line, as printed: from after "name": up to `end` (a ']' kept,
// so an array comes whole); empty when the line has no such field.
std::string jsonField(const std::string& json, const std::string& name, char end) {
  const std::size_t at = json.find("\"" + name + "\":");
  if (at == std::string::npos) return std::string();
  const std::size_t from = at + name.size() + 3;
  return json.substr(from, json.find(end, from) - from + (end == ']' ? 1 : 0));
}

// The replay line issue 2 specifies, written from the position's fields.
// `ended`: the game's result of the set this ply ended (why it ended is printed as the game has it).
std::string expectedLine(const Board& board, const Position& pos, int ply, const Ply* p, int sets,
                         const Outcome* ended = nullptr) {
  std::string s = "{\"ply\":" + std::to_string(ply);
  if (p != nullptr) s += std::string(",\"mover\":\"") + sideLetter(p->mover) + "\",\"move\":" + std::to_string(p->move);
  s += ",\"houses\":[";
  for (Side side : {Side::South, Side::North}) {
    for (int h = 1; h <= board.houses(); ++h) {
      s += (side == Side::South && h == 1 ? "" : ",") +
           std::to_string(pos.pits[static_cast<std::size_t>(board.housePit(side, h))]);
    }
  }
  const int south = pos.pits[static_cast<std::size_t>(board.storePit(Side::South))];
  const int north = pos.pits[static_cast<std::size_t>(board.storePit(Side::North))];
  s += "],\"stores\":[" + std::to_string(south) + "," + std::to_string(north) + "]";
  s += std::string(",\"to_move\":") + (pos.over ? "null" : std::string("\"") + sideLetter(pos.toMove) + "\"");
  if (pos.over) {
    const char* winner = south > north ? "S" : north > south ? "N" : "draw";
    s += std::string(",\"result\":{\"winner\":\"") + winner + "\",\"score\":[" + std::to_string(south) + "," +
         std::to_string(north) + "]";
    if (ended != nullptr && ended->cause == EndCause::Target) s += ",\"end\":\"target\",\"target\":" + std::to_string(ended->target);
    if (ended != nullptr && ended->cause == EndCause::Repetition) s += ",\"end\":\"repetition\"";
    if (ended != nullptr && ended->cause == EndCause::IdleLimit) s += ",\"end\":\"idle_limit\"";
    s += "}";
  } else {
    s += ",\"result\":null";
  }
  if (sets > 1) s += ",\"set\":" + std::to_string(p != nullptr ? p->set : 1);
  return s + "}";
}

TEST(Replay, PrintsOneJsonObjectPerLineStartFirst) {
  const RunResult run = semis("replay --rules kalah 3 6");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out,
            "{\"ply\":0,\"houses\":[4,4,4,4,4,4,4,4,4,4,4,4],\"stores\":[0,0],\"to_move\":\"S\",\"result\":null}\n"
            "{\"ply\":1,\"mover\":\"S\",\"move\":3,\"houses\":[4,4,0,5,5,5,4,4,4,4,4,4],\"stores\":[1,0],"
            "\"to_move\":\"S\",\"result\":null}\n"
            "{\"ply\":2,\"mover\":\"S\",\"move\":6,\"houses\":[4,4,0,5,5,0,5,5,5,5,4,4],\"stores\":[2,0],"
            "\"to_move\":\"N\",\"result\":null}\n");
}

// --positions prints what --position reads, so scripts (bench/solve-suite) need no JSON parsing:
// each line read back as a start reproduces itself.
TEST(Replay, PositionsPrintsTheNotationThatPositionReads) {
  const RunResult run = semis("replay --rules kalah,capture=empty --positions 3 6");
  EXPECT_EQ(run.status, 0) << run.err;
  ASSERT_EQ(lines(run.out).size(), 3U);
  EXPECT_EQ(lines(run.out)[0], "kalah,capture=empty/4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
  EXPECT_EQ(lines(run.out)[1], "kalah,capture=empty/4,4,0,5,5,5/4,4,4,4,4,4/1,0/S");
  EXPECT_EQ(lines(run.out)[2], "kalah,capture=empty/4,4,0,5,5,0/5,5,5,5,4,4/2,0/N");
  for (const std::string& line : lines(run.out)) {
    const RunResult again = semis("replay --rules kalah,capture=empty --positions --position " + line);
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(again.out, line + "\n");
  }
  const RunResult over = semis("replay --rules kalah --positions --position kalah/0,0,0,0,0,2/0,0,0,0,0,8/18,20/S 6");
  EXPECT_EQ(over.status, 0) << over.err;
  ASSERT_EQ(lines(over.out).size(), 2U);
  EXPECT_EQ(lines(over.out)[1], "kalah/0,0,0,0,0,0/0,0,0,0,0,0/19,29/-");
}

TEST(Replay, FinishedGameShowsTheResult) {
  const RunResult run = semis("replay --rules kalah --position kalah/0,0,0,0,0,2/0,0,0,0,0,8/18,20/S 6");
  EXPECT_EQ(run.status, 0) << run.err;
  ASSERT_EQ(lines(run.out).size(), 2U);
  EXPECT_EQ(lines(run.out)[1],
            "{\"ply\":1,\"mover\":\"S\",\"move\":6,\"houses\":[0,0,0,0,0,0,0,0,0,0,0,0],\"stores\":[19,29],"
            "\"to_move\":null,\"result\":{\"winner\":\"N\",\"score\":[19,29]}}");
}

TEST(Replay, AlManqalaStoresAreTheCapturedCounts) {
  const RunResult run = semis("replay --rules al-manqala --position 0,0,0,4,1,3,1/1,7,7,7,7,7,7/20,26/S 4");
  EXPECT_EQ(run.status, 0) << run.err;
  ASSERT_EQ(lines(run.out).size(), 2U);
  EXPECT_EQ(lines(run.out)[1],
            "{\"ply\":1,\"mover\":\"S\",\"move\":4,\"houses\":[0,0,0,0,0,0,0,0,7,7,7,7,7,7],\"stores\":[30,26],"
            "\"to_move\":\"N\",\"result\":null}");
}

// The first to 50 wins with seeds still on the board: the result says the target ended it.
TEST(Replay, AlManqalaTargetIsTheResultsEnd) {
  const RunResult run = semis("replay --rules al-manqala --position 0,0,0,0,0,0,1/1,0,5,0,0,0,0/48,43/S 7");
  EXPECT_EQ(run.status, 0) << run.err;
  ASSERT_EQ(lines(run.out).size(), 2U);
  EXPECT_EQ(lines(run.out)[1],
            "{\"ply\":1,\"mover\":\"S\",\"move\":7,\"houses\":[0,0,0,0,0,0,0,0,0,5,0,0,0,0],\"stores\":[50,43],"
            "\"to_move\":null,\"result\":{\"winner\":\"S\",\"score\":[50,43],\"end\":\"target\",\"target\":50}}");
}

TEST(Replay, IllegalInputExitsWithStatusTwoAfterThePriorPlies) {
  for (const char* bad : {"7", "0", "x", "-1", "2.5", "99999999999", "+3", "3x", "\" 3\""}) {
    const RunResult run = semis(std::string("replay --rules kalah 1 ") + bad);
    EXPECT_EQ(run.status, 2) << bad;
    EXPECT_EQ(lines(run.out).size(), 2U) << bad;  // the start and ply 1
    EXPECT_NE(run.err.find("legal: 1 2 3 4 5 6"), std::string::npos) << bad << ": " << run.err;
  }
  // Empty house: 1 was just sown by South, now North's turn: N's house 1 is fine, S's house 1 empty later.
  const RunResult empty = semis("replay --rules kalah 1 1 1");
  EXPECT_EQ(empty.status, 2);
  EXPECT_EQ(lines(empty.out).size(), 3U);
  EXPECT_NE(empty.err.find("illegal move 1 for S (legal: 2 3 4 5 6)"), std::string::npos) << empty.err;
  const RunResult over = semis("replay --rules kalah --position kalah/0,0,0,0,0,2/0,0,0,0,0,8/18,20/S 6 1");
  EXPECT_EQ(over.status, 2);
  EXPECT_EQ(lines(over.out).size(), 2U);
  EXPECT_NE(over.err.find("over"), std::string::npos);
}

TEST(Replay, BadRulesAndPositionsAreStatusTwoWithNothingPrinted) {
  for (const char* args : {"replay --rules chess 1", "replay --rules kalah,houses=13", "replay 1 2",
                           "replay --rules kalah --position 4,4/0,0/S", "replay --rules kalah --bogus 1",
                           "replay --rules kalah --position kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,1/S"}) {
    const RunResult run = semis(args);
    EXPECT_EQ(run.status, 2) << args;
    EXPECT_EQ(run.out, "") << args;
    EXPECT_FALSE(run.err.empty()) << args;
  }
  EXPECT_NE(semis("replay --rules kalah --position kalah/4,4,4,4,4,4/4,4,4,4,4,4/0,1/S").err.find("49 seeds"),
            std::string::npos);
}

// Plays a random game with the engine, replays it with the binary and compares every line.
void replayRandomGame(const std::string& rulesText, unsigned seed, std::size_t minPlies) {
  auto rules = parseRules(rulesText);
  ASSERT_TRUE(rules);
  Game game(*rules);
  std::mt19937 rng(seed);
  std::string moves;
  while (!game.over() && game.plies().size() < 2000) {
    std::uint32_t m = game.board().legalMask(game.position());
    int pick = static_cast<int>(rng() % static_cast<unsigned>(std::popcount(m)));
    while (pick-- > 0) m &= m - 1;
    ASSERT_TRUE(game.play(std::countr_zero(m) + 1));
    moves += " " + std::to_string(game.plies().back().move);
  }
  ASSERT_TRUE(game.over()) << rulesText;
  EXPECT_GE(game.plies().size(), minPlies) << rulesText;
  const RunResult run = semis("replay --rules " + rulesText + moves);
  ASSERT_EQ(run.status, 0) << run.err;
  const auto got = lines(run.out);
  ASSERT_EQ(got.size(), game.plies().size() + 1);
  EXPECT_EQ(got[0], expectedLine(game.board(), game.initial(), 0, nullptr, game.setCount()));
  for (std::size_t i = 0; i < game.plies().size(); ++i) {
    const Ply& p = game.plies()[i];
    const Outcome* ended = p.after.over ? &game.setResults()[static_cast<std::size_t>(p.set - 1)].outcome : nullptr;
    ASSERT_EQ(got[i + 1], expectedLine(game.board(), p.after, static_cast<int>(i + 1), &p, game.setCount(), ended))
        << rulesText << " ply " << i + 1;
  }
}

TEST(Replay, LongGamesOfEveryPreset) {
  // Big boards and matches of several sets make games of several hundred plies.
  replayRandomGame("kalah,houses=8,seeds=10,sets=3", 1, 300);
  replayRandomGame("kalah-club,houses=8,seeds=10,sets=3", 2, 300);
  replayRandomGame("mangala,houses=8,seeds=10", 3, 300);  // a 5-set match
  replayRandomGame("mangala-castle,houses=8,seeds=10", 4, 300);
  replayRandomGame("al-manqala,seeds=10,sets=5", 5, 300);
  replayRandomGame("al-manqala,idle_limit=0,repetitions=0,sets=3", 6, 150);
  replayRandomGame("congkak,houses=8,seeds=10,sets=9", 7, 300);
  replayRandomGame("congkak", 8, 10);
}

TEST(Replay, MangalaMatchOfFiveSets) {
  Game game(*parseRules("mangala"));
  std::string moves;
  while (!game.over()) {
    const std::uint32_t m = game.board().legalMask(game.position());
    ASSERT_TRUE(game.play(31 - std::countl_zero(m) + 1));  // the highest legal house
    moves += " " + std::to_string(game.plies().back().move);
  }
  const RunResult run = semis("replay --rules mangala" + moves);
  ASSERT_EQ(run.status, 0) << run.err;
  const auto got = lines(run.out);
  int setEnds = 0;
  for (const std::string& l : got) setEnds += l.find("\"to_move\":null") != std::string::npos ? 1 : 0;
  EXPECT_EQ(setEnds, 5);
  EXPECT_NE(got.back().find("\"set\":5}"), std::string::npos) << got.back();
  // One more move after the match is over is refused.
  const RunResult more = semis("replay --rules mangala" + moves + " 1");
  EXPECT_EQ(more.status, 2);
  EXPECT_EQ(lines(more.out).size(), got.size());
}

TEST(Perft, CountsLeavesAndReportsSpeed) {
  const RunResult run = semis("perft --rules kalah --depth 4");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(lines(run.out).at(0), "perft kalah depth 4: 942");
  EXPECT_NE(run.out.find("leaves per second"), std::string::npos);
  const RunResult divide = semis("perft --rules kalah --depth 2 --divide");
  EXPECT_EQ(divide.out.substr(0, divide.out.find("perft")), "1: 6\n2: 6\n3: 5\n4: 6\n5: 6\n6: 6\n");
  EXPECT_EQ(semis("perft --rules kalah --depth 0").status, 2);
  EXPECT_EQ(semis("perft --rules kalah --depth x").status, 2);
  EXPECT_EQ(semis("perft --rules kalah --depth 3x").status, 2);
  EXPECT_EQ(semis("perft --rules nope --depth 2").status, 2);
  EXPECT_EQ(lines(semis("perft --rules congkak --depth 3").out).at(0), "perft congkak depth 3: 230");
}

// `semis solve`: the same value and move values whether it searches on one thread, on three, or on
// two after building its own endgame table, and a best move of that value; bad options are status 2.
TEST(SolveCommand, ThreadsAndABuiltTableGiveTheSameValues) {
  struct Solved {
    std::string value;  // the "value" field and the "moves" array, as printed
    std::string moves;
    std::string best;
  };
  auto solve = [&](const std::string& args) {
    const RunResult run = semis("solve --json " + args);
    EXPECT_EQ(run.status, 0) << args << run.err;
    const std::string json = run.out.empty() ? "" : lines(run.out).back();
    return Solved{jsonField(json, "value", ','), jsonField(json, "moves", ']'), jsonField(json, "best", ',')};
  };
  for (const char* rules : {"kalah,houses=4,seeds=3", "kalah-club,houses=3,seeds=4,capture=empty"}) {
    const Solved one = solve(std::string("--rules ") + rules);
    ASSERT_FALSE(one.value.empty() || one.moves.empty()) << rules;
    for (const std::string args :
         {"--threads 3", "--threads 2 --build-egdb 8", "--fibers 1", "--threads 2 --fibers 3"}) {
      const Solved other = solve(args + " --rules " + rules);
      EXPECT_EQ(other.value, one.value) << rules << " " << args;
      EXPECT_EQ(other.moves, one.moves) << rules << " " << args;
      EXPECT_NE(one.moves.find("{\"move\":" + other.best + ",\"value\":" + one.value + ",\"exact\":true}"),
                std::string::npos)
          << rules << " " << args << ": best " << other.best << " in " << one.moves;
    }
  }
  const RunResult built = semis("solve --rules kalah,houses=3 --build-egdb 6");
  EXPECT_NE(built.out.find("table    : built up to 6 seeds"), std::string::npos) << built.out;
  EXPECT_EQ(semis("solve --rules kalah,houses=3 --threads 0").status, 2);
  EXPECT_EQ(semis("solve --rules kalah,houses=3 --threads x").status, 2);
  EXPECT_EQ(semis("solve --rules kalah,houses=3 --fibers 0").status, 2);
  EXPECT_EQ(semis("solve --rules kalah,houses=3 --fibers 17").status, 2);
  EXPECT_EQ(semis("solve --rules kalah,houses=3 --build-egdb 0").status, 2);
  // Every preset has tables: a late Al-manqala position is proven with one built first.
  const RunResult late = semis("solve --position al-manqala/2,0,0,1,0,0,1/0,1,0,0,2,0,1/46,44/S --build-egdb 8");
  EXPECT_EQ(late.status, 0) << late.err;
  EXPECT_NE(late.out.find("value    : +4 for South (exact)"), std::string::npos) << late.out;
  EXPECT_EQ(semis("solve --rules kalah,houses=3 --build-egdb 4 --egdb /nonexistent").status, 2);
}

// Without --fibers, `semis solve` searches with the solver's default of two fibers a thread, on one
// thread as on more (docs/engine.md, Speed, "Tried on 2026-12-07, evening"); one thread's node count
// is repeatable, and four fibers search a different number of nodes here.
TEST(SolveCommand, TwoFibersAThreadByDefault) {
  auto nodes = [&](const std::string& args) {
    const RunResult run = semis("solve --json --root-only --rules kalah,houses=4,seeds=3 " + args);
    EXPECT_EQ(run.status, 0) << args << run.err;
    return run.out.empty() ? std::string() : jsonField(lines(run.out).back(), "nodes", ',');
  };
  const std::string byDefault = nodes("");
  ASSERT_FALSE(byDefault.empty());
  EXPECT_EQ(byDefault, nodes("--fibers 2"));
  EXPECT_NE(byDefault, nodes("--fibers 4"));
}

TEST(SolveCommand, NamesWhatKeepsATableFromTheRules) {
  const std::string path = testing::TempDir() + "semis_app_empty_" + std::to_string(getpid()) + ".egdb";
  ASSERT_EQ(semis("egdb build --rules kalah,houses=3,capture=empty --seeds 6 --out " + path).status, 0);
  // The table serves other starting seeds of its rules...
  const RunResult served = semis("solve --rules kalah,houses=3,seeds=2,capture=empty --egdb " + path);
  EXPECT_EQ(served.status, 0) << served.err;
  // ...and not the other capture rule: the message says which option is in the way.
  const RunResult refused = semis("solve --rules kalah,houses=3,seeds=2 --egdb " + path);
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("(capture: empty in the table, standard here)"), std::string::npos) << refused.err;
  const RunResult probed = semis("egdb probe " + path + " --position kalah,houses=3,end=on_turn/1,0,1/0,1,0/10,11/S");
  EXPECT_EQ(probed.status, 2);
  EXPECT_NE(probed.err.find("capture: empty in the table, standard here; end: immediate in the table, on_turn here)"),
            std::string::npos)
      << probed.err;
  std::remove(path.c_str());
}

TEST(EgdbCommand, BuildsAndProbesACastleTable) {
  const std::string path = testing::TempDir() + "semis_app_castle_" + std::to_string(getpid()) + ".egdb";
  const RunResult built = semis("egdb build --rules mangala-castle,houses=4,seeds=2 --seeds 6 --out " + path);
  ASSERT_EQ(built.status, 0) << built.err;
  // South's castle on North's house 1; 5 seeds left.
  const RunResult probed =
      semis("egdb probe " + path + " --position mangala-castle,houses=4,seeds=2/1,0,1,0/0,1,0,2/6,5/S/castle=n1,-");
  EXPECT_EQ(probed.status, 0) << probed.err;
  EXPECT_NE(probed.out.find("for S (final difference"), std::string::npos) << probed.out;
  // A castle pit holding stones is no position the rules reach (its stones went to the store).
  const RunResult never =
      semis("egdb probe " + path + " --position mangala-castle,houses=4,seeds=2/1,0,1,0/1,1,0,2/5,5/S/castle=n1,-");
  EXPECT_EQ(never.status, 1);
  EXPECT_NE(never.out.find("not in the table"), std::string::npos) << never.out;
  std::remove(path.c_str());
}

TEST(RulesCommand, ListsEveryPresetAndOption) {
  const RunResult run = semis("rules");
  EXPECT_EQ(run.status, 0);
  for (const char* name : {"kalah", "kalah-club", "mangala", "mangala-castle", "al-manqala", "congkak", "houses",
                           "seeds", "capture", "end", "leftovers", "castle_sow_treasures", "relay_limit", "feeding"}) {
    EXPECT_NE(run.out.find(name), std::string::npos) << name;
  }
  const RunResult one = semis("rules --rules kalah,houses=4,capture=empty");
  EXPECT_EQ(one.status, 0);
  EXPECT_EQ(lines(one.out).at(0), "kalah,houses=4,capture=empty");
  EXPECT_NE(one.out.find("houses=4"), std::string::npos);
  const RunResult bad = semis("rules --rules kalah,capture=maybe");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("none|standard|empty"), std::string::npos);
}

// The catalogue as JSON is the server's `/api/rules` body and the WebAssembly core's sm_rules,
// byte for byte: the golden file was written by the server (tests/views/WasmCoreTest.cpp).
TEST(RulesCommand, JsonIsTheServersCatalogue) {
  const RunResult run = semis("rules --json");
  EXPECT_EQ(run.status, 0);
  std::ifstream in(std::string(SEMIS_SOURCE_DIR) + "/tests/views/golden/rules.json", std::ios::binary);
  std::stringstream golden;
  golden << in.rdbuf();
  ASSERT_FALSE(golden.str().empty());
  EXPECT_EQ(run.out, golden.str() + "\n");
  const RunResult both = semis("rules --rules kalah --json");
  EXPECT_EQ(both.status, 2);
  EXPECT_TRUE(both.out.empty());
}

// Issue 22.15: `semis serve --help` said "unknown option" and `semis serve -h` started a server and
// wrote ./semis.db. Every subcommand answers --help and -h with its usage on standard output,
// status 0, and does nothing else: run in an empty directory, which stays empty (`timeout` ends
// a command that started working instead).
TEST(Help, EverySubcommandAnswersHelpAndDoesNothingElse) {
  const RunResult list = semis("--help");
  EXPECT_EQ(list.status, 0);
  std::vector<std::string> commands;
  bool listing = false;
  for (const std::string& line : lines(list.out)) {
    if (line == "commands:") {
      listing = true;
    } else if (listing && line.size() > 2 && line.substr(0, 2) == "  ") {
      std::istringstream words(line);
      std::string name;
      words >> name;
      commands.push_back(name);
    }
  }
  ASSERT_GE(commands.size(), 12U) << list.out;
  const std::string dir = testing::TempDir() + "semis_help_" + std::to_string(getpid());
  ASSERT_EQ(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()), 0);
  for (const std::string& command : commands) {
    for (const std::string& ask : {std::string("--help"), std::string("-h"), std::string("--rules kalah -h --json")}) {
      const std::string args = command + " " + ask;
      const std::string errFile = dir + ".err";
      const std::string cmd =
          "cd " + dir + " && timeout 20 " + std::string(SEMIS_BINARY) + " " + args + " 2>" + errFile;
      FILE* pipe = popen(cmd.c_str(), "r");
      ASSERT_NE(pipe, nullptr);
      std::string out;
      std::array<char, 4096> buf{};
      for (std::size_t got; (got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;) out.append(buf.data(), got);
      const int raw = pclose(pipe);
      EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << args << ": status " << raw;
      EXPECT_EQ(out.rfind("usage: semis " + command, 0), 0U) << args << ": " << out;
      std::ifstream err(errFile);
      std::stringstream errText;
      errText << err.rdbuf();
      EXPECT_EQ(errText.str(), "") << args;
      std::remove(errFile.c_str());
    }
    const RunResult help = semis("help " + command);
    EXPECT_EQ(help.status, 0) << command;
    EXPECT_EQ(help.out.rfind("usage: semis " + command, 0), 0U) << command;
  }
  // Nothing was written where they ran (serve's semis.db above all).
  const RunResult left = [&] {
    RunResult r;
    FILE* pipe = popen(("ls -A " + dir).c_str(), "r");
    std::array<char, 256> buf{};
    for (std::size_t got; pipe != nullptr && (got = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;)
      r.out.append(buf.data(), got);
    if (pipe != nullptr) pclose(pipe);
    return r;
  }();
  EXPECT_EQ(left.out, "") << "files left by a help request";
  std::system(("rm -rf " + dir).c_str());
  EXPECT_EQ(semis("help nonsense").status, 2);
  EXPECT_EQ(semis("nonsense --help").status, 2);
}

}  // namespace
}  // namespace semis
