#pragma once
// Builds an opening book (engine/Book.hpp): for each side in turn as the book's player, every
// position of its first `turns` sowings that a game reaches when it plays the book's moves and its
// opponent plays anything, each solved exactly (the search without limits).

#include <cstdint>
#include <functional>

#include "engine/Book.hpp"
#include "engine/Search.hpp"

namespace semis::study {

struct BookProgress {
  std::size_t solved = 0;
  std::size_t queued = 0;
  double seconds = 0;  // the last solve's
};

// `search` must be for the rules of `start` (its table and endgame table are kept between solves).
[[nodiscard]] Result<engine::Book> buildBook(engine::Search& search, const Position& start, int turns,
                                             const std::function<void(const BookProgress&)>& progress = {});

}  // namespace semis::study
