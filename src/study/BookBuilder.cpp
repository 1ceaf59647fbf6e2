#include "study/BookBuilder.hpp"

#include <bit>
#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace semis::study {

Result<engine::Book> buildBook(engine::Search& search, const Position& start, int turns,
                               const std::function<void(const BookProgress&)>& progress) {
  if (turns < 1 || turns > 8) return fail("a book covers 1 to 8 sowings of its player");
  const Board& board = search.board();
  engine::Book book;
  BookProgress made;
  // Depth-first over (position, sowings the book's player has made); a position met again by
  // another order of moves is solved once.
  struct Item {
    Position pos;
    Side player;
    int made;
  };
  std::vector<Item> stack{{start, Side::South, 0}, {start, Side::North, 0}};
  std::set<std::string> seen;
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const Position& pos = item.pos;
    if (pos.over || board.legalMask(pos) == 0) continue;
    if (!seen.insert(board.toString(pos) + sideLetter(item.player)).second) continue;
    if (pos.toMove == item.player) {
      if (item.made >= turns) continue;
      engine::BookMove found;
      if (const auto known = book.find(board, pos)) {
        found = *known;
      } else {
        const auto t0 = std::chrono::steady_clock::now();
        const engine::SearchResult r = search.run(pos, engine::Limits{});
        if (!r.exact || r.bestMove == 0) return fail("the solve of " + board.toString(pos) + " proved nothing");
        found = {r.bestMove, r.value};
        book.add(board, pos, found);
        ++made.solved;
        made.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        made.queued = stack.size();
        if (progress) progress(made);
      }
      Position child = pos;
      board.apply(child, found.move);
      stack.push_back({child, item.player, item.made + 1});
    } else {
      for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
        Position child = pos;
        board.apply(child, std::countr_zero(m) + 1);
        stack.push_back({child, item.player, item.made});
      }
    }
  }
  return book;
}

}  // namespace semis::study
