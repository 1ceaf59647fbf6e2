#include "rating/Glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace semis::rating {

namespace {

constexpr double kScale = 173.7178;  // Glicko-2's unit: 400 / ln 10
constexpr double kEpsilon = 1e-6;    // the volatility iteration's convergence

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi)); }

double expected(double mu, double muJ, double phiJ) { return 1.0 / (1.0 + std::exp(-g(phiJ) * (mu - muJ))); }

// Step 5: the new volatility, by the Illinois variant of regula falsi on f.
double newVolatility(double phi, double sigma, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B = 0;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0 && k < 1000) ++k;
    B = a - k * tau;
  }
  double fA = f(A), fB = f(B);
  for (int i = 0; i < 1000 && std::abs(B - A) > kEpsilon; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2);
}

}  // namespace

Glicko ratePeriod(const Glicko& player, std::span<const Opponent> games, const GlickoParams& params) {
  const double mu = (player.rating - 1500) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (games.empty()) return Glicko{player.rating, kScale * std::sqrt(phi * phi + sigma * sigma), sigma};
  double vInverse = 0, sum = 0;
  for (const Opponent& o : games) {
    const double muJ = (o.opponent.rating - 1500) / kScale;
    const double phiJ = o.opponent.deviation / kScale;
    const double e = expected(mu, muJ, phiJ);
    vInverse += g(phiJ) * g(phiJ) * e * (1 - e);
    sum += g(phiJ) * (o.score - e);
  }
  const double v = 1.0 / vInverse;
  const double delta = v * sum;
  const double sigmaNew = newVolatility(phi, sigma, v, delta, params.tau);
  const double phiStar = std::sqrt(phi * phi + sigmaNew * sigmaNew);
  const double phiNew = 1.0 / std::sqrt(1.0 / (phiStar * phiStar) + 1.0 / v);
  const double muNew = mu + phiNew * phiNew * sum;
  return Glicko{kScale * muNew + 1500, kScale * phiNew, sigmaNew};
}

Glicko rateGame(const Glicko& player, const Glicko& opponent, double score, const GlickoParams& params) {
  const Opponent game{opponent, score};
  Glicko next = ratePeriod(player, std::span<const Opponent>(&game, 1), params);
  next.deviation = std::clamp(next.deviation, params.minDeviation, params.maxDeviation);
  return next;
}

Glicko aged(const Glicko& player, double periods, const GlickoParams& params) {
  const double phi = player.deviation / kScale;
  const double grown = kScale * std::sqrt(phi * phi + player.volatility * player.volatility * std::max(0.0, periods));
  return Glicko{player.rating, std::min(params.maxDeviation, std::max(player.deviation, grown)), player.volatility};
}

bool provisional(const Glicko& player, const GlickoParams& params) { return player.deviation >= params.provisionalFrom; }

}  // namespace semis::rating
