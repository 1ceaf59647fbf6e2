#include "study/Accuracy.hpp"

namespace semis::study {

bool provenMove(const PlyReview& ply) { return ply.mark != Mark::Forced && ply.bestExact && ply.playedExact; }

bool perfectMove(const PlyReview& ply) { return provenMove(ply) && ply.played >= ply.bestValue; }

std::array<Accuracy, 2> tally(const Review& review) {
  std::array<Accuracy, 2> out;
  for (const PlyReview& ply : review.plies) {
    if (!provenMove(ply)) continue;
    Accuracy& a = out[ply.mover == Side::South ? 0 : 1];
    ++a.proven;
    if (perfectMove(ply)) ++a.perfect;
  }
  return out;
}

}  // namespace semis::study
