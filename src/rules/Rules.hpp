#pragma once
// Rules as data: every rule set Semis plays is one `Rules` value; the presets are named values of it.
// The rules core does no I/O, has no globals and never throws: fallible calls return tl::expected.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace semis {

// The board has at most this many houses per side (options are checked against it).
inline constexpr int kMaxHouses = 12;
inline constexpr int kMaxSeedsPerHouse = 12;
// The most seeds a board holds (2 * 12 * 12 = 288): one pit may hold them all, so pits count in 16 bits.
inline constexpr int kMaxTotalSeeds = 2 * kMaxHouses * kMaxSeedsPerHouse;

enum class Preset : std::uint8_t { Kalah, KalahClub, Mangala, MangalaCastle, AlManqala, Congkak, Awale };

// Own-empty-house capture: the last seed falls into an empty house of the mover's.
enum class Capture : std::uint8_t { None, Standard, Empty };
// When a game ends: after any move that empties a row, or only when the player to move has none.
enum class EndRule : std::uint8_t { Immediate, OnTurn };
// Who gets the seeds left in the houses when the game ends.
enum class Leftovers : std::uint8_t { Owner, Emptier };
// Where sowing starts: the next pit, or (Mangala) the origin itself when 2+ seeds are lifted.
enum class SowFrom : std::uint8_t { Next, Origin };
enum class FirstPlayer : std::uint8_t { South, North };
// Only how the board is drawn: Congkak sows clockwise with the stores on the players' left.
enum class Direction : std::uint8_t { Ccw, Cw };
// A chain capture that would take every seed of a row (a grand slam): it takes nothing (Oware abapa),
// takes them all, is not a legal move, or takes them and hands the opponent every seed left.
// Nothing and All keep the values the old boolean option had (false, true): rulesKey stays the same.
enum class GrandSlam : std::uint8_t { Nothing, All, Illegal, Opponent };
// Where a chain capture takes houses: on both rows (Al-manqala) or only on the opponent's (Oware).
enum class ChainRows : std::uint8_t { Both, Opponent };
// With feeding, a player who cannot be fed (or cannot move): the starved player takes every seed
// left after his empty row has passed (Al-manqala), or the game ends at once and the seeds left go
// to their owner (Oware abapa).
enum class Unfed : std::uint8_t { Starved, Owner };
// A split (agreed, repetition, no-capture limit): the seeds left shared equally, or each player
// takes the seeds on his own row (Oware's endless cycle).
enum class SplitRule : std::uint8_t { Equal, Own };
// Congkak's match: a single round, or the traditional rounds: each round after the first refills the
// houses from each player's store, `seeds` a house from his house 1 on; the houses he cannot fill are
// burnt for that round; the match ends when a player cannot fill one house (docs/rules.md, `congkak`).
enum class Rounds : std::uint8_t { Single, Traditional };
// The most rounds a traditional match plays (a visitor's match is bounded); then the seeds decide.
inline constexpr int kMaxRounds = 9;

// chain_values: bit v set means a house holding v seeds is taken; counts 1..kMaxChainValue.
inline constexpr int kMaxChainValue = 30;

struct Error {
  std::string message;
};

template <class T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(std::string message) { return tl::unexpected(Error{std::move(message)}); }

struct Rules {
  Preset preset = Preset::Kalah;
  int houses = 6;
  int seeds = 4;
  bool stores = true;             // false: no stores on the ring, captures are set aside (Al-manqala)
  bool sowOwnStore = true;        // sowing drops a seed in the mover's own store
  SowFrom sowFrom = SowFrom::Next;
  bool skipOrigin = false;        // laps of 2N+1 seeds or more skip the emptied house
  bool relay = false;             // last seed in an occupied house: lift it all and sow on (Congkak)
  int relayLimit = 1000;          // a relay is cut after this many laps of the ring
  Capture capture = Capture::Standard;
  bool evenCapture = false;       // last seed makes an opponent house even: capture it (Mangala)
  bool chainCapture = false;      // last seed makes any house 2 or 4: capture it and back (Al-manqala)
  int chainValues = (1 << 2) | (1 << 4);  // the counts a chain capture takes (bit v: v seeds)
  ChainRows chainRows = ChainRows::Both;
  GrandSlam grandSlam = GrandSlam::All;   // a chain capture that would empty a row
  bool extraTurn = true;          // last seed in the own store: play again
  bool castle = false;            // last seed makes an opponent house 3: it becomes a castle
  bool castleCapture = true;      // the castle's three stones go to its owner's store at once
  bool feeding = false;           // must feed an empty opponent; an empty row passes; starved takes all
  Unfed unfed = Unfed::Starved;   // with feeding: who takes the seeds left when nobody can be fed
  EndRule end = EndRule::Immediate;
  Leftovers leftovers = Leftovers::Owner;
  bool emptierByCapture = true;   // leftovers=emptier also when a capture emptied the row
  int winAt = 0;                  // a store reaching this ends the game at once (0: never)
  int sets = 1;                   // a match of this many sets (Mangala: 5)
  bool alternateFirst = true;     // the first player alternates between sets
  bool pie = false;               // North may swap sides after South's first turn
  int idleLimit = 0;              // turns without a capture that end the game in a split (0: never)
  int repetitions = 0;            // a position seen this many times ends the game in a split (0: never)
  SplitRule split = SplitRule::Equal;
  FirstPlayer first = FirstPlayer::South;
  Direction direction = Direction::Ccw;
  Rounds rounds = Rounds::Single;

  [[nodiscard]] int totalSeeds() const { return 2 * houses * seeds; }
  [[nodiscard]] int ringSize() const { return 2 * houses + 2; }

  friend bool operator==(const Rules&, const Rules&) = default;
};

// The preset's value: its options as docs/rules.md states them.
[[nodiscard]] Rules presetRules(Preset preset);
[[nodiscard]] std::string_view presetName(Preset preset);
// The presets the platform offers everywhere: home page, ratings, daily challenge, bench, catalogue.
[[nodiscard]] const std::vector<Preset>& allPresets();
// Every preset the rules core plays: allPresets() and those the rest of the platform does not offer
// yet (awale: issue 26 items 2-3, the engine's tables and the page). parseRules knows them all.
[[nodiscard]] const std::vector<Preset>& knownPresets();

// "kalah,houses=4,seeds=6,capture=empty": a preset name, then options that override it.
[[nodiscard]] Result<Rules> parseRules(std::string_view text);
// The shortest string that parses back to `rules`: the preset, then each option that differs from it.
[[nodiscard]] std::string toString(const Rules& rules);

// One option as `semis rules` lists it.
struct OptionInfo {
  std::string name;
  std::string values;   // "1..8", "standard|empty|none", "true|false"
  std::string meaning;
};
[[nodiscard]] const std::vector<OptionInfo>& optionInfos();
// The value of option `name` in `rules`, printed as parseRules reads it.
[[nodiscard]] std::string optionValue(const Rules& rules, std::string_view name);

// A 64-bit key of the rules: the engine folds it into position hashes so one table serves all variants.
[[nodiscard]] std::uint64_t rulesKey(const Rules& rules);

}  // namespace semis
