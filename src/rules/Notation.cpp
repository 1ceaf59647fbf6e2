#include "rules/Notation.hpp"

#include <charconv>
#include <cctype>

namespace semis {
namespace {

// Tags the printer writes itself from the game; a parsed record keeps the others in order.
bool derivedTag(std::string_view name) {
  return name == "Rules" || name == "Position" || name == "Result" || name == "Score";
}

std::string resultToken(const Outcome& o) {
  return o.winner == Winner::South ? "1-0" : o.winner == Winner::North ? "0-1" : "1/2-1/2";
}

std::string points(int doubled) {
  return std::to_string(doubled / 2) + (doubled % 2 != 0 ? ".5" : "");
}

std::string matchResult(const Game& game, const std::string& adjudicated) {
  if (!game.over()) return adjudicated.empty() ? "*" : adjudicated;
  if (game.setCount() == 1) return resultToken(game.setResults().front().outcome);
  const auto p = game.doubledPoints();
  return points(p[0]) + "-" + points(p[1]);
}

std::string scoreText(const Outcome& o) { return std::to_string(o.south) + "-" + std::to_string(o.north); }

bool isStandardStart(const Game& game) { return game.setStart() == game.board().start(); }

}  // namespace

std::string sowingText(const Ply& ply) {
  std::string s = std::to_string(ply.move);
  if (ply.info.captured > 0) s += "x" + std::to_string(ply.info.captured);
  if (ply.info.castleMade) s += "c";
  if (ply.info.relayCut) s += "~";
  return s;
}

std::string printRecord(const Record& record) {
  const Game& game = record.game;
  std::string out = "[Rules \"" + toString(game.rules()) + "\"]\n";
  for (const auto& [name, value] : record.tags) {
    if (!derivedTag(name)) out += "[" + name + " \"" + value + "\"]\n";
  }
  const bool single = game.setCount() == 1;
  if (!isStandardStart(game) && single) {
    out += "[Position \"" + game.board().toString(game.setStart()) + "\"]\n";
  }
  out += "[Result \"" + matchResult(game, record.adjudicated) + "\"]\n";
  if (single && game.over()) out += "[Score \"" + scoreText(game.setResults().front().outcome) + "\"]\n";
  out += "\n";

  std::string moves;
  int turn = 0;
  int set = 0;
  std::size_t splitsShown = 0;
  bool swapShown = false;
  auto endSet = [&](int s) {
    const SetResult& r = game.setResults()[static_cast<std::size_t>(s - 1)];
    if (r.agreedSplit) moves += " split";
    moves += " " + resultToken(r.outcome) + " {" + scoreText(r.outcome) + "}";
    ++splitsShown;
  };
  const auto& plies = game.plies();
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const Ply& p = plies[i];
    if (p.set != set) {
      if (set > 0 && splitsShown < static_cast<std::size_t>(set)) endSet(set);
      set = p.set;
      turn = 0;
      if (!single) moves += std::string(moves.empty() ? "" : "\n") + "set " + std::to_string(set);
    }
    if (game.swapped() && !swapShown && p.mover == Side::North) {
      moves += " " + std::to_string(++turn) + ". swap";
      swapShown = true;
    }
    const bool joins = i > 0 && plies[i - 1].set == p.set && plies[i - 1].mover == p.mover && !plies[i - 1].info.pass;
    if (joins) {
      moves += "+" + sowingText(p);
    } else {
      moves += " " + std::to_string(++turn) + ". " + sowingText(p);
    }
    if (p.info.pass && !p.setEnded) moves += " " + std::to_string(++turn) + ". --";
    if (p.setEnded) endSet(p.set);
  }
  if (game.swapped() && !swapShown) moves += " " + std::to_string(++turn) + ". swap";
  // A set ended by an agreed split after its last move, or a finished set with no moves at all.
  const int ended = static_cast<int>(game.setResults().size());
  while (static_cast<int>(splitsShown) < ended) {
    const int s = static_cast<int>(splitsShown) + 1;
    if (s > set && !single) moves += std::string(moves.empty() ? "" : "\n") + "set " + std::to_string(s);
    set = s;
    endSet(s);
  }
  if (!game.over()) moves += " " + matchResult(game, record.adjudicated);
  // Drop the leading space of each line.
  std::string tidy;
  bool lineStart = true;
  for (char c : moves) {
    if (lineStart && c == ' ') continue;
    lineStart = c == '\n';
    tidy += c;
  }
  return out + tidy + "\n";
}

namespace {

struct Lexer {
  std::string_view text;
  std::size_t at = 0;
  int line = 1;

  // The next whitespace-separated token outside {comments}; empty at the end.
  Result<std::string_view> next() {
    for (;;) {
      while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) != 0) {
        if (text[at++] == '\n') ++line;
      }
      if (at < text.size() && text[at] == '{') {
        const std::size_t close = text.find('}', at);
        if (close == std::string_view::npos) return fail("line " + std::to_string(line) + ": unclosed {comment");
        for (std::size_t i = at; i < close; ++i) line += text[i] == '\n' ? 1 : 0;
        at = close + 1;
        continue;
      }
      const std::size_t start = at;
      while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) == 0 && text[at] != '{') ++at;
      return text.substr(start, at - start);
    }
  }
};

Result<int> parseInt(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return fail("'" + std::string(s) + "' is not a number");
  return v;
}

bool isResultToken(std::string_view t) {
  if (t == "*" || t == "1-0" || t == "0-1" || t == "1/2-1/2") return true;
  const std::size_t dash = t.find('-');  // match points like 3-2 or 2.5-2.5
  return dash != std::string_view::npos && dash > 0 && std::isdigit(static_cast<unsigned char>(t[0])) != 0;
}

Result<void> checkSowing(const Ply& ply, std::string_view written, int line) {
  if (sowingText(ply) == written) return {};
  return fail("line " + std::to_string(line) + ": the record says " + std::string(written) +
              " but that sowing is " + sowingText(ply));
}

}  // namespace

Result<Record> parseRecord(std::string_view text) {
  Tags tags;
  std::size_t at = 0;
  int line = 1;
  // Tag section: lines of [Name "value"].
  for (;;) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) {
      if (text[at++] == '\n') ++line;
    }
    if (at >= text.size() || text[at] != '[') break;
    const std::size_t eol = text.find(']', at);
    const std::size_t q1 = text.find('"', at);
    const std::size_t q2 = q1 == std::string_view::npos ? q1 : text.find('"', q1 + 1);
    if (eol == std::string_view::npos || q1 == std::string_view::npos || q2 == std::string_view::npos || q2 > eol) {
      return fail("line " + std::to_string(line) + ": a tag is [Name \"value\"]");
    }
    std::string name(text.substr(at + 1, q1 - at - 1));
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.empty()) return fail("line " + std::to_string(line) + ": a tag needs a name");
    tags.emplace_back(name, std::string(text.substr(q1 + 1, q2 - q1 - 1)));
    at = eol + 1;
  }
  auto tag = [&tags](std::string_view name) -> const std::string* {
    for (const auto& [n, v] : tags) {
      if (n == name) return &v;
    }
    return nullptr;
  };
  const std::string* rulesText = tag("Rules");
  if (rulesText == nullptr) return fail("a record needs a [Rules \"...\"] tag");
  auto rules = parseRules(*rulesText);
  if (!rules) return fail("Rules tag: " + rules.error().message);
  std::optional<Game> game;
  if (const std::string* posText = tag("Position")) {
    auto pos = parsePositionFor(Board(*rules), std::string_view(*posText).substr(std::min(posText->find('/') + 1, posText->size())));
    if (!pos) return fail("Position tag: " + pos.error().message);
    game.emplace(*rules, *pos);
  } else {
    game.emplace(*rules);
  }

  Lexer lex{text.substr(at), 0, line};
  int turn = 0;
  int set = 1;
  std::string adjudicated;
  bool ended = false;
  for (;;) {
    auto tok = lex.next();
    if (!tok) return tl::unexpected(tok.error());
    const std::string_view t = *tok;
    if (t.empty()) break;
    const std::string where = "line " + std::to_string(lex.line) + ": ";
    if (ended) return fail(where + "nothing may follow the game's result, found '" + std::string(t) + "'");
    if (t == "set") {
      auto k = lex.next();
      if (!k) return tl::unexpected(k.error());
      auto num = parseInt(*k);
      if (!num || *num != game->currentSet()) {
        return fail(where + "expected set " + std::to_string(game->currentSet()) + ", found '" + std::string(*k) + "'");
      }
      set = *num;
      turn = 0;
      continue;
    }
    if (isResultToken(t)) {
      // Ends a set (checked against the engine), or the whole record when the game is unfinished.
      const bool setJustEnded = static_cast<int>(game->setResults().size()) >= set;
      if (setJustEnded) {
        const std::string want = resultToken(game->setResults()[static_cast<std::size_t>(set - 1)].outcome);
        if (t != want) return fail(where + "set " + std::to_string(set) + " ended " + want + ", not " + std::string(t));
        if (game->over()) ended = true;
        continue;
      }
      adjudicated = t == "*" ? "" : std::string(t);
      ended = true;
      continue;
    }
    if (t == "split") {
      if (auto r = game->agreeSplit(); !r) return fail(where + r.error().message);
      continue;
    }
    if (t.back() == '.') {
      auto num = parseInt(t.substr(0, t.size() - 1));
      if (!num || *num != turn + 1) {
        return fail(where + "expected turn " + std::to_string(turn + 1) + ", found '" + std::string(t) + "'");
      }
      ++turn;
      continue;
    }
    if (t == "--") {
      const auto& plies = game->plies();
      if (plies.empty() || !plies.back().info.pass) return fail(where + "'--' (a pass) but the player to move has seeds");
      continue;
    }
    if (t == "swap") {
      if (auto r = game->swap(); !r) return fail(where + r.error().message);
      continue;
    }
    // A turn: sowings joined by '+'.
    std::string_view rest = t;
    for (;;) {
      const std::size_t plus = rest.find('+');
      const std::string_view sowing = rest.substr(0, plus);
      std::size_t digits = 0;
      while (digits < sowing.size() && std::isdigit(static_cast<unsigned char>(sowing[digits])) != 0) ++digits;
      auto house = parseInt(sowing.substr(0, digits));
      if (!house) return fail(where + "'" + std::string(t) + "' is not a turn (houses joined by +)");
      auto ply = game->play(*house);
      if (!ply) return fail(where + ply.error().message);
      if (auto ok = checkSowing(**ply, sowing, lex.line); !ok) return tl::unexpected(ok.error());
      if (plus == std::string_view::npos) break;
      if (!(*ply)->info.extraTurn) return fail(where + "'+' joins sowings of an extra turn, but " + std::string(sowing) + " ends the turn");
      rest = rest.substr(plus + 1);
    }
  }
  if (const std::string* result = tag("Result"); result != nullptr) {
    const std::string want = matchResult(*game, adjudicated);
    if (*result != want) return fail("the Result tag says " + *result + " but the moves give " + want);
  }
  Tags kept;
  for (auto& [n, v] : tags) {
    if (!derivedTag(n)) kept.emplace_back(n, v);
  }
  return Record{std::move(kept), std::move(*game), adjudicated};
}

}  // namespace semis
