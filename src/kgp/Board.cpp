#include "kgp/Board.hpp"

#include <string>

namespace semis::kgp {

namespace {

Result<void> representable(const Board& board) {
  if (!board.rules().stores) return fail("KGP boards have stores on the ring: these rules have none");
  if (board.houses() < 1 || board.houses() > kMaxHouses) return fail("a board of 1 to 12 houses");
  return {};
}

}  // namespace

Result<std::vector<std::uint32_t>> toKgpBoard(const Board& board, const Position& pos, Side bot) {
  if (auto ok = representable(board); !ok) return tl::unexpected(ok.error());
  if (pos.castle[0] != kNoCastle || pos.castle[1] != kNoCastle) return fail("KGP boards have no castles");
  if (pos.burnt != 0) return fail("KGP boards have no burnt houses (rounds=traditional)");
  const int n = board.houses();
  const Side opp = other(bot);
  std::vector<std::uint32_t> out;
  out.reserve(static_cast<std::size_t>(3 + 2 * n));
  out.push_back(static_cast<std::uint32_t>(n));
  out.push_back(pos.pits[static_cast<std::size_t>(board.storePit(bot))]);
  out.push_back(pos.pits[static_cast<std::size_t>(board.storePit(opp))]);
  for (const Side s : {bot, opp}) {
    for (int h = 1; h <= n; ++h) out.push_back(pos.pits[static_cast<std::size_t>(board.housePit(s, h))]);
  }
  return out;
}

Result<Position> fromKgpBoard(const Board& board, std::span<const std::uint32_t> values, Side bot) {
  if (auto ok = representable(board); !ok) return tl::unexpected(ok.error());
  const int n = board.houses();
  if (values.empty() || values[0] != static_cast<std::uint32_t>(n)) {
    return fail("a board of " + std::to_string(n) + " houses is wanted");
  }
  if (values.size() != static_cast<std::size_t>(3 + 2 * n)) {
    return fail("a board of " + std::to_string(n) + " houses has " + std::to_string(3 + 2 * n) + " numbers");
  }
  long total = 0;
  for (std::size_t i = 1; i < values.size(); ++i) total += values[i];
  if (total != board.rules().totalSeeds()) {
    return fail("the board holds " + std::to_string(total) + " seeds, not " +
                std::to_string(board.rules().totalSeeds()));
  }
  const Side opp = other(bot);
  Position pos;
  pos.toMove = bot;
  pos.pits[static_cast<std::size_t>(board.storePit(bot))] = static_cast<Seeds>(values[1]);
  pos.pits[static_cast<std::size_t>(board.storePit(opp))] = static_cast<Seeds>(values[2]);
  std::size_t i = 3;
  for (const Side s : {bot, opp}) {
    for (int h = 1; h <= n; ++h) pos.pits[static_cast<std::size_t>(board.housePit(s, h))] = static_cast<Seeds>(values[i++]);
  }
  pos.over = board.legalMask(pos) == 0;
  return pos;
}

std::optional<int> houseOfKgpMove(std::int64_t move, int houses) {
  if (move < 1 || move > houses) return std::nullopt;
  return static_cast<int>(move);
}

}  // namespace semis::kgp
