#pragma once
// Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), pure: ratings in, ratings out. The
// server rates every game as its own rating period (docs/club.md) with the parameters of the
// largest open chess site: 1500, RD 500, volatility 0.09, tau 0.75, RD kept within [45, 500].

#include <span>

namespace semis::rating {

struct Glicko {
  double rating = 1500;
  double deviation = 500;
  double volatility = 0.09;
};

struct GlickoParams {
  double tau = 0.75;
  double minDeviation = 45;
  double maxDeviation = 500;
  double provisionalFrom = 110;  // a deviation at least this: the rating is shown with "?"
};

// One game of a rating period: the opponent as he was, and the score (1 win, 0.5 draw, 0 loss).
struct Opponent {
  Glicko opponent;
  double score = 0;
};

// The paper's step 1 to 8 for one player over one period, unclamped (a period without games only
// widens the deviation).
[[nodiscard]] Glicko ratePeriod(const Glicko& player, std::span<const Opponent> games, const GlickoParams& params = {});
// One game as its own period, the deviation then clamped to [min, max].
[[nodiscard]] Glicko rateGame(const Glicko& player, const Glicko& opponent, double score, const GlickoParams& params = {});
// The deviation grown by `periods` idle rating periods (phi' = sqrt(phi^2 + sigma^2 t)), at most max.
[[nodiscard]] Glicko aged(const Glicko& player, double periods, const GlickoParams& params = {});
[[nodiscard]] bool provisional(const Glicko& player, const GlickoParams& params = {});

}  // namespace semis::rating
