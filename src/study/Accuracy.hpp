#pragma once
// A player's accuracy against perfect play, read off a game review (study/Review.hpp): of his
// moves whose value the review proved (the played move's and the best's both exact), how many kept
// the best proven value. A forced move is no choice, so it is not counted either way.

#include <array>

#include "study/Review.hpp"

namespace semis::study {

struct Accuracy {
  int perfect = 0;  // proven and as good as the best
  int proven = 0;   // chosen among two or more, both values exact
};

[[nodiscard]] bool provenMove(const PlyReview& ply);
[[nodiscard]] bool perfectMove(const PlyReview& ply);
// South's, North's.
[[nodiscard]] std::array<Accuracy, 2> tally(const Review& review);

}  // namespace semis::study
