// The club's typed fields of a game's state, written at the JSON edge (the bytes the browser and the
// server tests read), and a stored result read once into what ratings decide on.
#include <gtest/gtest.h>

#include "hub/ClubHooks.hpp"
#include "hub/RoomRows.hpp"

namespace semis::server {
namespace {

using Winner = room::ResultSummary::Winner;

TEST(ClubView, WritesTheKeyTheSeatsRatingsAndTheRatedResult) {
  protocol::Json state{{"id", "g"}, {"seats", {{"S", {{"kind", "human"}, {"id", "a"}}}, {"N", {{"kind", "ai"}}}}}};
  ClubView v;
  v.key = "kalah";
  v.seats[0] = ClubView::SeatRating{1512.4, true};
  v.ratings = std::array<ClubView::Change, 2>{{{1500, 1512.4, 12.4}, {1500.2, 1487.6, -12.6}}};
  writeClubView(state, v);
  EXPECT_EQ(state.dump(),
            R"({"id":"g","seats":{"S":{"kind":"human","id":"a","rating":{"rating":1512.0,"provisional":true}},)"
            R"("N":{"kind":"ai"}},"key":"kalah","ratings":{"S":{"before":1500.0,"after":1512.0,"change":12.0},)"
            R"("N":{"before":1500.0,"after":1488.0,"change":-13.0}}})");
}

TEST(ClubView, AGameOfNoRatedRulesHasANullKeyAndNothingElse) {
  protocol::Json state{{"id", "g"}};
  writeClubView(state, ClubView{});
  EXPECT_EQ(state.dump(), R"({"id":"g","key":null})");
}

TEST(ResultSummary, ReadsTheWinnerAndTheReasonOnce) {
  auto s = resultSummary(R"({"winner":"S","reason":"resign","points":{"S":1,"N":0}})");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->winner, Winner::South);
  EXPECT_EQ(s->reason, "resign");
  EXPECT_FALSE(s->aborted());
  auto n = resultSummary(R"({"winner":"N","reason":"time"})");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->winner, Winner::North);
  auto a = resultSummary(R"({"winner":"draw","reason":"aborted"})");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->winner, Winner::Draw);
  EXPECT_TRUE(a->aborted());
  EXPECT_FALSE(resultSummary(""));
  EXPECT_FALSE(resultSummary("not json"));
  EXPECT_FALSE(resultSummary("[1,2]"));
}

}  // namespace
}  // namespace semis::server
