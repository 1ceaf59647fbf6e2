#include "rules/Text.hpp"

#include <cstdio>

namespace semis {
namespace {

// Counts take two digits, three on boards of 100 seeds or more (up to kMaxTotalSeeds), so the
// columns stay aligned whatever a pit holds.
int digitsFor(const Board& board) { return board.rules().totalSeeds() >= 100 ? 3 : 2; }

std::string cell(const Position& pos, int pit, int digits) {
  // A house burnt for the round (rounds=traditional) is out of play: dashes, not a count.
  if (Board::isBurnt(pos, pit)) return "[" + std::string(static_cast<std::size_t>(digits), '-') + "]";
  char buf[16];
  const bool castle = pos.castle[0] == pit || pos.castle[1] == pit;
  std::snprintf(buf, sizeof buf, castle ? "{%*d}" : "[%*d]", digits, pos.pits[static_cast<std::size_t>(pit)]);
  return buf;
}

// The house number centred under its cell (cells are digits + 2 wide; numbers go up to kMaxHouses).
std::string label(int house, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%*d ", digits + 1, house);
  return buf;
}

std::string padded(int value) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%3d", value);
  return buf;
}

}  // namespace

std::string drawBoard(const Board& board, const Position& pos) {
  const int n = board.houses();
  const bool cw = board.rules().direction == Direction::Cw;
  const int digits = digitsFor(board);
  std::string top;
  std::string topLabels;
  std::string bottom;
  std::string bottomLabels;
  for (int i = 0; i < n; ++i) {
    // Counter-clockwise, North's row runs n6..n1 from the viewer's left; clockwise it runs n1..n6.
    const int northHouse = cw ? i + 1 : n - i;
    const int southHouse = cw ? n - i : i + 1;
    top += cell(pos, board.housePit(Side::North, northHouse), digits);
    topLabels += label(northHouse, digits);
    bottom += cell(pos, board.housePit(Side::South, southHouse), digits);
    bottomLabels += label(southHouse, digits);
  }
  const int south = pos.pits[static_cast<std::size_t>(board.storePit(Side::South))];
  const int north = pos.pits[static_cast<std::size_t>(board.storePit(Side::North))];
  const int left = cw ? south : north;
  const int right = cw ? north : south;
  const std::string margin = "     ";
  std::string out;
  out += margin + topLabels + "   North" + (pos.toMove == Side::North && !pos.over ? " to move" : "") + "\n";
  out += margin + top + "\n";
  out += padded(left) + std::string(static_cast<std::size_t>((digits + 2) * n + 2), ' ') + padded(right) +
         (board.rules().stores ? "" : "  (captured)") + "\n";
  out += margin + bottom + "\n";
  out += margin + bottomLabels + "   South" + (pos.toMove == Side::South && !pos.over ? " to move" : "") + "\n";
  if (pos.over) out += "game over\n";
  return out;
}

std::string pitName(const Board& board, int pit) {
  if (board.isStore(pit)) return std::string(board.ownerOf(pit) == Side::South ? "S" : "N") + " store";
  return std::string(board.ownerOf(pit) == Side::South ? "s" : "n") + std::to_string(board.houseNumber(pit));
}

std::string describeTrace(const Board& board, const Trace& trace) {
  std::string out;
  auto side = [](Side s) { return std::string(s == Side::South ? "South" : "North"); };
  for (const Event& e : trace) {
    std::string line(eventName(e.kind));
    switch (e.kind) {
      case EventKind::Lift:
      case EventKind::Relay: line += " " + pitName(board, e.pit) + " (" + std::to_string(e.count) + ")"; break;
      case EventKind::Drop:
        line += " " + pitName(board, e.pit);
        if (e.target != e.pit) line += " -> " + pitName(board, e.target);
        break;
      case EventKind::RelayCut: line += " at " + pitName(board, e.pit); break;
      case EventKind::Capture:
      case EventKind::Sweep:
      case EventKind::Split:
        line += " " + pitName(board, e.pit) + " (" + std::to_string(e.count) + ") -> " + pitName(board, e.target);
        break;
      case EventKind::Castle: line += " " + pitName(board, e.pit) + " for " + side(e.side); break;
      case EventKind::ExtraTurn:
      case EventKind::Pass:
      case EventKind::MustFeed: line += " " + side(e.side); break;
      case EventKind::GrandSlam: line += " " + side(e.side) + " at " + pitName(board, e.pit); break;
      case EventKind::GameEnd: break;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace semis
