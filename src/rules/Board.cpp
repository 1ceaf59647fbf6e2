#include "rules/Board.hpp"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <vector>

namespace semis {

Board::Board(const Rules& rules) : rules_(rules), n_(rules.houses) {
  const int ring = rules.ringSize();
  const bool sowStore = rules.stores && rules.sowOwnStore;
  for (Side s : {Side::South, Side::North}) {
    for (int pit = 0; pit < ring; ++pit) {
      int nx = (pit + 1) % ring;
      while (isStore(nx) && !(sowStore && nx == storePit(s))) nx = (nx + 1) % ring;
      next_[static_cast<std::size_t>(index(s))][static_cast<std::size_t>(pit)] = static_cast<std::uint8_t>(nx);
    }
  }
  for (int pit = 0; pit < ring; ++pit) {
    int pv = (pit + ring - 1) % ring;
    while (isStore(pv)) pv = (pv + ring - 1) % ring;
    prev_[static_cast<std::size_t>(pit)] = static_cast<std::uint8_t>(pv);
  }
}

Position Board::start(Side first) const {
  Position pos;
  for (Side s : {Side::South, Side::North}) {
    for (int h = 1; h <= n_; ++h)
      pos.pits[static_cast<std::size_t>(housePit(s, h))] = static_cast<Seeds>(rules_.seeds);
  }
  pos.toMove = first;
  return pos;
}

std::optional<Position> Board::nextRound(const Position& end, Side first) const {
  Position pos;
  for (Side s : {Side::South, Side::North}) {
    // Every seed the player owns: his store, and his row if the round left seeds on it (it does not
    // under leftovers=owner, but a split of the other kind might).
    int left = end.pits[static_cast<std::size_t>(storePit(s))];
    for (int h = 1; h <= n_; ++h) left += end.pits[static_cast<std::size_t>(housePit(s, h))];
    int filled = 0;
    for (int h = 1; h <= n_; ++h) {
      const int pit = housePit(s, h);
      if (left >= rules_.seeds) {
        pos.pits[static_cast<std::size_t>(pit)] = static_cast<Seeds>(rules_.seeds);
        left -= rules_.seeds;
        ++filled;
      } else {
        pos.burnt |= 1U << pit;
      }
    }
    if (filled == 0) return std::nullopt;
    pos.pits[static_cast<std::size_t>(storePit(s))] = static_cast<Seeds>(left);
  }
  pos.toMove = first;
  return pos;
}

bool Board::feeds(const Position& pos, int house) const {
  const int pit = housePit(pos.toMove, house);
  if (pos.pits[static_cast<std::size_t>(pit)] == 0 || castleOwnerOf(pos, pit) >= 0) return false;
  if (rules_.unfed == Unfed::Owner) {
    // Oware: the opponent must be left with seeds to move, captures included (a grand slam that
    // takes nothing still feeds him; one that takes every seed it gave does not).
    Position after = pos;
    MoveInfo info;
    unsigned emptyAfterSowing = 0;
    sowAndCapture(after, house, info, emptyAfterSowing, NoTrace{});
    return rowSeeds(after, other(pos.toMove)) > 0;
  }
  Position copy = pos;
  bool fed = false;
  const Side opp = other(pos.toMove);
  bool cut = false;
  auto detect = [&](const Event& e) {
    if (e.kind == EventKind::Drop && e.target == e.pit && !isStore(e.pit) && ownerOf(e.pit) == opp) fed = true;
  };
  sow(copy, pit, pos.toMove, detect, cut);
  return fed;
}

bool Board::isGrandSlam(const Position& pos, int house) const {
  Position copy = pos;
  MoveInfo info;
  unsigned emptyAfterSowing = 0;
  sowAndCapture(copy, house, info, emptyAfterSowing, NoTrace{});
  return info.grandSlam;
}

std::uint32_t Board::legalMask(const Position& pos) const {
  if (pos.over) return 0;
  std::uint32_t mask = 0;
  const bool feed = mustFeed(pos);
  const bool slamsBarred = rules_.grandSlam == GrandSlam::Illegal && rules_.chainCapture;
  for (int h = 1; h <= n_; ++h) {
    const int pit = housePit(pos.toMove, h);
    if (pos.pits[static_cast<std::size_t>(pit)] == 0 || castleOwnerOf(pos, pit) >= 0) continue;
    if (feed && !feeds(pos, h)) continue;
    if (slamsBarred && isGrandSlam(pos, h)) continue;
    mask |= 1U << (h - 1);
  }
  return mask;
}

std::string Board::legalList(const Position& pos) const {
  std::string out;
  const std::uint32_t mask = legalMask(pos);
  for (int h = 1; h <= n_; ++h) {
    if ((mask >> (h - 1)) & 1U) out += (out.empty() ? "" : " ") + std::to_string(h);
  }
  return out.empty() ? "none" : out;
}

Result<MoveInfo> Board::play(Position& pos, int house, Trace* trace) const {
  if (pos.over) return fail("the game is over: no move is legal");
  if (!isLegal(pos, house)) {
    return fail("illegal move " + std::to_string(house) + " for " + std::string(1, sideLetter(pos.toMove)) +
                " (legal: " + legalList(pos) + ")");
  }
  const MoveInfo info = trace == nullptr ? apply(pos, house, NoTrace{}) : apply(pos, house, TraceRecorder{trace});
  // docs/rules.md: seeds are conserved, and debug builds check it on every checked move.
  assert(seedCount(pos) == rules_.totalSeeds());
  return info;
}

int Board::seedCount(const Position& pos) const {
  int total = 0;
  for (int pit = 0; pit < rules_.ringSize(); ++pit) total += pos.pits[static_cast<std::size_t>(pit)];
  return total;
}

void Board::split(Position& pos, Trace* trace) const {
  if (rules_.split == SplitRule::Own) {
    // Oware's endless cycle: each player takes the seeds on his own row.
    for (int pit = 0; pit < rules_.ringSize(); ++pit) {
      if (isStore(pit) || castleOwnerOf(pos, pit) >= 0 || pos.pits[static_cast<std::size_t>(pit)] == 0) continue;
      const Seeds give = pos.pits[static_cast<std::size_t>(pit)];
      const Side to = ownerOf(pit);
      pos.pits[static_cast<std::size_t>(pit)] = 0;
      auto& store = pos.pits[static_cast<std::size_t>(storePit(to))];
      store = static_cast<Seeds>(store + give);
      if (trace != nullptr) {
        trace->push_back(Event{EventKind::Split, static_cast<std::uint8_t>(pit), give,
                               static_cast<std::uint8_t>(storePit(to)), to});
      }
    }
    pos.over = true;
    pos.toMove = Side::South;
    if (trace != nullptr) trace->push_back(Event{EventKind::GameEnd});
    return;
  }
  const int left = rowSeeds(pos, Side::South) + rowSeeds(pos, Side::North);
  // South's share first, then North's: the odd seed goes to the player to move.
  int southShare = left / 2 + ((left % 2 != 0 && pos.toMove == Side::South) ? 1 : 0);
  for (int pit = 0; pit < rules_.ringSize(); ++pit) {
    if (isStore(pit) || castleOwnerOf(pos, pit) >= 0) continue;
    auto& seeds = pos.pits[static_cast<std::size_t>(pit)];
    while (seeds > 0) {
      const Side to = southShare > 0 ? Side::South : Side::North;
      const int give = to == Side::South ? std::min<int>(seeds, southShare) : seeds;
      if (to == Side::South) southShare -= give;
      seeds = static_cast<Seeds>(seeds - give);
      auto& store = pos.pits[static_cast<std::size_t>(storePit(to))];
      store = static_cast<Seeds>(store + give);
      if (trace != nullptr) {
        trace->push_back(Event{EventKind::Split, static_cast<std::uint8_t>(pit), static_cast<Seeds>(give),
                               static_cast<std::uint8_t>(storePit(to)), to});
      }
    }
  }
  pos.over = true;
  pos.toMove = Side::South;  // canonical, as every finished position
  if (trace != nullptr) trace->push_back(Event{EventKind::GameEnd});
}

Outcome Board::outcome(const Position& pos) const {
  Outcome o;
  o.south = pos.pits[static_cast<std::size_t>(storePit(Side::South))];
  o.north = pos.pits[static_cast<std::size_t>(storePit(Side::North))];
  o.winner = o.south > o.north ? Winner::South : o.north > o.south ? Winner::North : Winner::Draw;
  return o;
}

namespace {

// "s3", "n7": a house pit as position strings name it.
std::string houseText(const Board& board, int pit) {
  return std::string(1, board.ownerOf(pit) == Side::South ? 's' : 'n') + std::to_string(board.houseNumber(pit));
}

std::string castleText(const Board& board, std::int8_t pit) { return pit == kNoCastle ? "-" : houseText(board, pit); }

std::vector<std::string_view> splitOn(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text = text.substr(at + 1);
  }
}

Result<int> number(std::string_view text, std::string_view what) {
  int v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v < 0 || v > kMaxTotalSeeds) {
    return fail(std::string(what) + ": '" + std::string(text) + "' is not a count 0.." + std::to_string(kMaxTotalSeeds));
  }
  return v;
}

// "s6,s7,n7": the houses burnt for the round (rounds=traditional); each empty, no row all burnt.
Result<std::uint32_t> parseBurnt(const Board& board, const Position& pos, std::string_view list) {
  std::uint32_t burnt = 0;
  for (std::string_view item : splitOn(list, ',')) {
    int h = 0;
    const char* end = item.data() + item.size();
    auto [p, ec] = std::from_chars(item.data() + (item.empty() ? 0 : 1), end, h);
    if (item.size() < 2 || (item[0] != 's' && item[0] != 'n') || ec != std::errc() || p != end || h < 1 ||
        h > board.houses()) {
      return fail("burnt house '" + std::string(item) + "' must be s1..s" + std::to_string(board.houses()) +
                  " or n1..n" + std::to_string(board.houses()));
    }
    const int pit = board.housePit(item[0] == 's' ? Side::South : Side::North, h);
    if (pos.pits[static_cast<std::size_t>(pit)] != 0) {
      return fail("burnt house " + std::string(item) + " holds seeds: a burnt house is empty");
    }
    burnt |= 1U << pit;
  }
  for (Side s : {Side::South, Side::North}) {
    std::uint32_t row = 0;
    for (int h = 1; h <= board.houses(); ++h) row |= 1U << board.housePit(s, h);
    if ((burnt & row) == row) return fail("every house of a row is burnt: that player has lost the match, no round is played");
  }
  return burnt;
}

}  // namespace

std::string Board::toString(const Position& pos) const {
  std::string out = semis::toString(rules_);
  for (Side s : {Side::South, Side::North}) {
    out += '/';
    for (int h = 1; h <= n_; ++h) {
      out += (h > 1 ? "," : "") + std::to_string(pos.pits[static_cast<std::size_t>(housePit(s, h))]);
    }
  }
  out += '/' + std::to_string(pos.pits[static_cast<std::size_t>(storePit(Side::South))]) + ',' +
         std::to_string(pos.pits[static_cast<std::size_t>(storePit(Side::North))]);
  out += '/';
  out += pos.over ? '-' : sideLetter(pos.toMove);
  if (rules_.castle) out += "/castle=" + castleText(*this, pos.castle[0]) + ',' + castleText(*this, pos.castle[1]);
  if (pos.burnt != 0) {
    std::string burnt;
    for (int pit = 0; pit < rules_.ringSize(); ++pit) {
      if (isBurnt(pos, pit)) burnt += (burnt.empty() ? "" : ",") + houseText(*this, pit);
    }
    out += "/burnt=" + burnt;
  }
  return out;
}

Result<Position> parsePositionFor(const Board& board, std::string_view fields) {
  const Rules& rules = board.rules();
  auto parts = splitOn(fields, '/');
  // rounds=traditional: a last field "burnt=s7,n6,n7" names the houses burnt for the round.
  const bool rounds = rules.rounds == Rounds::Traditional;
  std::optional<std::string_view> burntList;
  if (rounds && parts.size() > 4 && parts.back().substr(0, 6) == "burnt=") {
    burntList = parts.back().substr(6);
    parts.pop_back();
  }
  const std::size_t want = rules.castle ? 5 : 4;
  if (parts.size() != want && !(rules.castle && parts.size() == 4)) {
    return fail("a position has " + std::to_string(want) +
                " fields after the rules: south houses/north houses/stores/to move" +
                (rules.castle ? "/castle=S,N" : "") + (rounds ? ", then burnt=<houses> if any" : ""));
  }
  Position pos;
  for (Side s : {Side::South, Side::North}) {
    const auto counts = splitOn(parts[static_cast<std::size_t>(index(s))], ',');
    if (static_cast<int>(counts.size()) != board.houses()) {
      return fail(std::string(s == Side::South ? "south" : "north") + " row needs " + std::to_string(board.houses()) +
                  " counts, got " + std::to_string(counts.size()));
    }
    for (int h = 1; h <= board.houses(); ++h) {
      auto v = number(counts[static_cast<std::size_t>(h - 1)], "house count");
      if (!v) return tl::unexpected(v.error());
      pos.pits[static_cast<std::size_t>(board.housePit(s, h))] = static_cast<Seeds>(*v);
    }
  }
  const auto stores = splitOn(parts[2], ',');
  if (stores.size() != 2) return fail("stores field needs two counts: south,north");
  for (Side s : {Side::South, Side::North}) {
    auto v = number(stores[static_cast<std::size_t>(index(s))], "store count");
    if (!v) return tl::unexpected(v.error());
    pos.pits[static_cast<std::size_t>(board.storePit(s))] = static_cast<Seeds>(*v);
  }
  if (parts[3] == "S" || parts[3] == "N") {
    pos.toMove = parts[3] == "S" ? Side::South : Side::North;
  } else if (parts[3] == "-") {
    pos.over = true;
  } else {
    return fail("side to move must be S, N or - (over), not '" + std::string(parts[3]) + "'");
  }
  if (parts.size() == 5) {
    if (parts[4].substr(0, 7) != "castle=") return fail("fifth field must be castle=S,N");
    const auto castles = splitOn(parts[4].substr(7), ',');
    if (castles.size() != 2) return fail("castle field needs two entries: castle=<south's>,<north's>");
    for (Side s : {Side::South, Side::North}) {
      const std::string_view c = castles[static_cast<std::size_t>(index(s))];
      if (c == "-") continue;
      // A side's castle stands on the opponent's row, never on his house N.
      const char row = s == Side::South ? 'n' : 's';
      int h = 0;
      auto [p, ec] = std::from_chars(c.data() + (c.empty() ? 0 : 1), c.data() + c.size(), h);
      if (c.size() < 2 || c[0] != row || ec != std::errc() || p != c.data() + c.size() || h < 1 ||
          h >= board.houses()) {
        return fail("castle '" + std::string(c) + "' must be - or " + row + "1.." + row +
                    std::to_string(board.houses() - 1));
      }
      pos.castle[static_cast<std::size_t>(index(s))] = static_cast<std::int8_t>(board.housePit(other(s), h));
    }
  }
  if (burntList) {
    auto burnt = parseBurnt(board, pos, *burntList);
    if (!burnt) return tl::unexpected(burnt.error());
    pos.burnt = *burnt;
  }
  const int total = board.seedCount(pos);
  if (total != rules.totalSeeds()) {
    return fail("the position holds " + std::to_string(total) + " seeds; these rules play with " +
                std::to_string(rules.totalSeeds()));
  }
  if (!pos.over && board.legalMask(pos) == 0) {
    return fail("the player to move has no legal move: a finished position says '-' as the side to move");
  }
  // Positions the engine never leaves unfinished: they would end before anyone could move.
  if (!pos.over && rules.winAt > 0 &&
      std::max(pos.pits[static_cast<std::size_t>(board.storePit(Side::South))],
               pos.pits[static_cast<std::size_t>(board.storePit(Side::North))]) >= rules.winAt) {
    return fail("a store holds " + std::to_string(rules.winAt) + " or more: the game is over ('-')");
  }
  if (!pos.over && !rules.feeding && rules.end == EndRule::Immediate &&
      (board.rowSeeds(pos, Side::South) == 0 || board.rowSeeds(pos, Side::North) == 0)) {
    return fail("a row is empty: under end=immediate the game is over ('-')");
  }
  return pos;
}

Result<Position> parsePosition(std::string_view text, Rules* rulesOut) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return fail("a position starts with its rules, then '/': kalah/4,4,...");
  auto rules = parseRules(text.substr(0, slash));
  if (!rules) return tl::unexpected(rules.error());
  const Board board(*rules);
  auto pos = parsePositionFor(board, text.substr(slash + 1));
  if (pos && rulesOut != nullptr) *rulesOut = *rules;
  return pos;
}

std::string_view eventName(EventKind kind) {
  switch (kind) {
    case EventKind::Lift:
      return "lift";
    case EventKind::Drop:
      return "drop";
    case EventKind::Relay:
      return "relay";
    case EventKind::RelayCut:
      return "relay_cut";
    case EventKind::Capture:
      return "capture";
    case EventKind::Castle:
      return "castle";
    case EventKind::ExtraTurn:
      return "extra_turn";
    case EventKind::Pass:
      return "pass";
    case EventKind::MustFeed:
      return "must_feed";
    case EventKind::Sweep:
      return "sweep";
    case EventKind::Split:
      return "split";
    case EventKind::GameEnd:
      return "game_end";
    case EventKind::GrandSlam:
      return "grand_slam";
  }
  return "?";
}

}  // namespace semis
