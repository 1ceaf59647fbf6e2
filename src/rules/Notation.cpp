#include "rules/Notation.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace semis {
namespace {

// Tags the printer writes itself from the game; a parsed record keeps the others in order.
bool derivedTag(std::string_view name) {
  return name == "Rules" || name == "Position" || name == "Result" || name == "Score";
}

std::string resultToken(const Outcome& o) {
  return o.winner == Winner::South ? "1-0" : o.winner == Winner::North ? "0-1" : "1/2-1/2";
}

std::string points(int doubled) { return std::to_string(doubled / 2) + (doubled % 2 != 0 ? ".5" : ""); }

std::string matchResult(const Game& game, const std::string& adjudicated) {
  if (!game.over()) return adjudicated.empty() ? "*" : adjudicated;
  if (game.setCount() == 1) return resultToken(game.setResults().front().outcome);
  // Rounds are not scored in points: the match goes to the last round's winner.
  if (game.rules().rounds == Rounds::Traditional) return resultToken(game.setResults().back().outcome);
  const auto p = game.doubledPoints();
  return points(p[0]) + "-" + points(p[1]);
}

std::string scoreText(const Outcome& o) { return std::to_string(o.south) + "-" + std::to_string(o.north); }

// Tag values escape '"' and '\\' with a backslash (as PGN does); control characters become spaces.
std::string escaped(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return out;
}

// Tag names are letters, digits, '_' and '-': anything else is dropped so the record parses back.
std::string tagName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-') out += c;
  }
  return out.empty() ? "Tag" : out;
}

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
    if (!derivedTag(name)) out += "[" + tagName(name) + " \"" + escaped(value) + "\"]\n";
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
  // Prints the results of the sets before `upTo` not shown yet, a header for each set not begun.
  auto flushSets = [&](int upTo) {
    while (static_cast<int>(splitsShown) + 1 < upTo) {
      const int s = static_cast<int>(splitsShown) + 1;
      if (s > set && !single) moves += std::string(moves.empty() ? "" : "\n") + "set " + std::to_string(s);
      set = std::max(set, s);
      endSet(s);
    }
  };
  const auto& plies = game.plies();
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const Ply& p = plies[i];
    if (p.set != set) {
      flushSets(p.set);  // sets ended by an agreed split (possibly with no moves at all)
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
  // Sets ended by an agreed split after the last move, or finished with no moves at all.
  flushSets(static_cast<int>(game.setResults().size()) + 1);
  if (!game.over()) {
    // Stopped between two sets (the next begun, no move yet): its `set K` line comes first, or the
    // parser would read the end of the record as the last set's result.
    if (!single && game.currentSet() > set && !game.setResults().empty()) {
      moves += "\nset " + std::to_string(game.currentSet());
    }
    moves += " " + matchResult(game, record.adjudicated);
  }
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
  if (s.empty() || ec != std::errc() || p != s.data() + s.size())
    return fail("'" + std::string(s) + "' is not a number");
  return v;
}

// Match points: "3", "2.5" (a drawn set counts half).
bool isPoints(std::string_view t) {
  if (t.size() >= 2 && t.substr(t.size() - 2) == ".5") t.remove_suffix(2);
  if (t.empty() || t.size() > 2) return false;
  for (char c : t) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

bool isResultToken(std::string_view t) {
  if (t == "*" || t == "1-0" || t == "0-1" || t == "1/2-1/2") return true;
  const std::size_t dash = t.find('-');  // match points like 3-2 or 2.5-2.5
  return dash != std::string_view::npos && isPoints(t.substr(0, dash)) && isPoints(t.substr(dash + 1));
}

Result<void> checkSowing(const Ply& ply, std::string_view written, int line) {
  if (sowingText(ply) == written) return {};
  return fail("line " + std::to_string(line) + ": the record says " + std::string(written) + " but that sowing is " +
              sowingText(ply));
}

}  // namespace

Result<Record> parseRecord(std::string_view text) {
  Tags tags;
  std::size_t at = 0;
  int line = 1;
  // Tag section: lines of [Name "value"], the value with \" and \\ escapes.
  for (;;) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n')) {
      if (text[at++] == '\n') ++line;
    }
    if (at >= text.size() || text[at] != '[') break;
    const std::string bad = "line " + std::to_string(line) + ": a tag is [Name \"value\"]";
    std::size_t i = at + 1;
    std::string name;
    while (i < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[i])) != 0 || text[i] == '_' || text[i] == '-')) {
      name += text[i++];
    }
    if (name.empty()) return fail("line " + std::to_string(line) + ": a tag needs a name of letters and digits");
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size() || text[i] != '"') return fail(bad);
    std::string value;
    bool closed = false;
    for (++i; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '\n') break;
      if (c == '"') {
        closed = true;
        break;
      }
      if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) ++i;
      value += text[i];
    }
    if (!closed) return fail(bad);
    ++i;
    while (i < text.size() && text[i] == ' ') ++i;
    if (i >= text.size() || text[i] != ']') return fail(bad);
    tags.emplace_back(std::move(name), std::move(value));
    at = i + 1;
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
    Rules posRules;
    auto pos = parsePosition(*posText, &posRules);
    if (!pos) return fail("Position tag: " + pos.error().message);
    if (!(posRules == *rules)) return fail("the Position tag is for other rules than the Rules tag");
    game.emplace(*rules, *pos);
  } else {
    game.emplace(*rules);
  }

  Lexer lex{text.substr(at), 0, line};
  int turn = 0;
  int set = 1;
  std::string adjudicated;
  bool ended = false;
  // The record's grammar, checked as strictly as the printer writes it: "K." opens every turn;
  // a sowing that earns an extra turn is joined to the next by '+'; a pass is written "K. --".
  bool inTurn = false;        // a turn number was read, its content not yet
  bool pendingExtra = false;  // the last sowing gave an extra turn
  bool pendingPass = false;   // the last sowing made the opponent pass
  for (;;) {
    auto tok = lex.next();
    if (!tok) return tl::unexpected(tok.error());
    const std::string_view t = *tok;
    if (t.empty()) break;
    const std::string where = "line " + std::to_string(lex.line) + ": ";
    if (ended) return fail(where + "nothing may follow the game's result, found '" + std::string(t) + "'");
    if (inTurn && (t == "set" || t == "split" || isResultToken(t) || t.back() == '.')) {
      return fail(where + "expected a turn after the turn number, found '" + std::string(t) + "'");
    }
    if (t == "set") {
      pendingExtra = pendingPass = false;
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
      pendingExtra = pendingPass = false;
      if (auto r = game->agreeSplit(); !r) return fail(where + r.error().message);
      continue;
    }
    if (t.back() == '.') {
      auto num = parseInt(t.substr(0, t.size() - 1));
      if (!num || *num != turn + 1) {
        return fail(where + "expected turn " + std::to_string(turn + 1) + ", found '" + std::string(t) + "'");
      }
      if (pendingExtra) return fail(where + "the sowing before earned an extra turn: join the next one with '+'");
      ++turn;
      inTurn = true;
      continue;
    }
    if (!inTurn) return fail(where + "expected a turn number 'K.' before '" + std::string(t) + "'");
    inTurn = false;
    if (t == "--") {
      if (!pendingPass) return fail(where + "'--' (a pass) but the player to move has seeds");
      pendingPass = false;
      continue;
    }
    if (pendingPass) return fail(where + "the player to move has no seeds: his turn is written '--'");
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
      pendingExtra = (*ply)->info.extraTurn && !(*ply)->setEnded;
      pendingPass = (*ply)->info.pass && !(*ply)->setEnded;
      if (plus == std::string_view::npos) break;
      if (!(*ply)->info.extraTurn)
        return fail(where + "'+' joins sowings of an extra turn, but " + std::string(sowing) + " ends the turn");
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
