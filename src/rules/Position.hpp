#pragma once
// A position: the seeds in every pit of the ring, whose turn it is, and the castles.

#include <array>
#include <cstdint>

#include "rules/Rules.hpp"

namespace semis {

enum class Side : std::uint8_t { South = 0, North = 1 };

constexpr Side other(Side s) { return s == Side::South ? Side::North : Side::South; }
constexpr int index(Side s) { return static_cast<int>(s); }
constexpr char sideLetter(Side s) { return s == Side::South ? 'S' : 'N'; }

inline constexpr int kMaxPits = 2 * kMaxHouses + 2;
inline constexpr std::int8_t kNoCastle = -1;
static_assert(kMaxPits <= 32, "Position::burnt holds a bit per pit");

// The seeds in one pit: up to kMaxTotalSeeds, more than a byte holds.
using Seeds = std::uint16_t;
static_assert(kMaxTotalSeeds <= 0xFFFF);

// The ring in sowing order, for N houses: pits 0..N-1 are South's houses s1..sN, pit N is South's
// store, pits N+1..2N are North's houses n1..nN, pit 2N+1 is North's store. Without stores on the
// ring (Al-manqala) the two store pits hold the captured counts and sowing skips them.
struct Position {
  std::array<Seeds, kMaxPits> pits{};
  Side toMove = Side::South;
  bool over = false;
  // The pit of the castle each side owns (on the opponent's row), or kNoCastle.
  std::array<std::int8_t, 2> castle{kNoCastle, kNoCastle};
  // Bit p set: ring pit p is a house burnt for this round (rounds=traditional): it stays empty, no
  // seed is sown into it and it is never played. Part of the position so every layer carries it.
  std::uint32_t burnt = 0;

  friend bool operator==(const Position&, const Position&) = default;
};

enum class Winner : std::uint8_t { South, North, Draw };

// Why a game (or set) ended, when a player deserves to be told: the usual end (a row empty, no
// seeds to move) needs no words; the others are said by the clients (wire names in protocol/Json).
enum class EndCause : std::uint8_t { Rows, Target, Repetition, IdleLimit };

struct Outcome {
  Winner winner = Winner::Draw;
  int south = 0;  // final store (or captured count) of each player
  int north = 0;
  EndCause cause = EndCause::Rows;
  int target = 0;  // the rules' winning count, when cause is Target
};

}  // namespace semis
