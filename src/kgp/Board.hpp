#pragma once
// Semis positions as KGP board literals `<n, south store, north store, south houses..., north houses...>`
// and back, mirrored so the bot is always South: KGP's `state` is always South to move.
//
// The houses match one to one. go-kgp, pykgp and jkgp number each row's pits 0..n-1 in sowing order
// (towards the row's own store), and pit i faces pit n-1-i of the other row; KGP move k is pit k-1.
// Semis's ring (rules/Position.hpp) numbers each side's houses 1..N in sowing order too, with house h
// facing the other side's house N+1-h. So KGP move k is Semis house k of the bot's side, a row of
// the literal is that side's houses 1..N in order, and mirroring (the bot plays North) swaps the rows
// and the stores without reversing anything. tests/kgp/BoardTest.cpp plays moves both ways to check.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rules/Board.hpp"

namespace semis::kgp {

// The literal's numbers for `pos` as `bot` sees it (bot's row and store first). Only boards with
// stores on the ring and no castle can be written so.
[[nodiscard]] Result<std::vector<std::uint32_t>> toKgpBoard(const Board& board, const Position& pos, Side bot);

// The position a literal describes, `bot` to move; the literal must fit the board's rules (size and
// seed count).
[[nodiscard]] Result<Position> fromKgpBoard(const Board& board, std::span<const std::uint32_t> values, Side bot);

// KGP move k (1..houses) as the house number of the bot's side, or nothing when out of range.
[[nodiscard]] std::optional<int> houseOfKgpMove(std::int64_t move, int houses);
// The KGP move for a house of the bot's side.
[[nodiscard]] constexpr std::int64_t kgpMoveOfHouse(int house) { return house; }

}  // namespace semis::kgp
