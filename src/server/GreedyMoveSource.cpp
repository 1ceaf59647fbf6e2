#include <random>

#include "rules/Board.hpp"
#include "server/MoveSource.hpp"

namespace semis::server {

namespace {

class GreedyMoveSource final : public MoveSource {
 public:
  void choose(const MoveRequest& request, std::function<void(int house)> done) override {
    const Board board(request.rules);
    const std::uint32_t legal = board.legalMask(request.position);
    const Side me = request.position.toMove;
    int best = 0;
    long bestScore = -1;
    int ties = 0;
    for (int h = 1; h <= board.houses(); ++h) {
      if (((legal >> (h - 1)) & 1U) == 0) continue;
      Position p = request.position;
      const MoveInfo info = board.apply(p, h);
      const int gain = p.pits[static_cast<std::size_t>(board.storePit(me))] -
                       request.position.pits[static_cast<std::size_t>(board.storePit(me))];
      const long score = (info.extraTurn ? 10000L : 0L) + 100L * info.captured + gain;
      if (score > bestScore) {
        best = h;
        bestScore = score;
        ties = 1;
      } else if (score == bestScore && std::uniform_int_distribution<int>(0, ties++)(rng_) == 0) {
        best = h;  // reservoir sampling: each tied move equally likely
      }
    }
    done(best);
  }

 private:
  std::mt19937 rng_{std::random_device{}()};
};

}  // namespace

std::unique_ptr<MoveSource> makeGreedyMoveSource() { return std::make_unique<GreedyMoveSource>(); }

}  // namespace semis::server
