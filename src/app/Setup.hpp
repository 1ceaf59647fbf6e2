#pragma once
// The --rules / --position pair every subcommand reads: the rules, and the start position.

#include <optional>

#include "app/Args.hpp"
#include "rules/Board.hpp"

namespace semis::app {

struct Setup {
  Rules rules;
  std::optional<Position> position;  // empty: the rules' start position

  [[nodiscard]] Position start() const { return position ? *position : Board(rules).start(); }
};

// --position takes a whole position string ("kalah/4,4,.../0,0/S") or only its board fields
// ("4,4,.../0,0/S") for the --rules given; with both, the two rule sets must agree.
inline Result<Setup> setupFromArgs(const Args& args) {
  Setup s;
  const bool hasRules = args.has("rules");
  if (hasRules) {
    auto r = parseRules(args.get("rules"));
    if (!r) return tl::unexpected(r.error());
    s.rules = *r;
  }
  if (!args.has("position")) {
    if (!hasRules) return fail("--rules R is required (see `semis rules`)");
    return s;
  }
  const std::string text = args.get("position");
  Rules posRules;
  auto full = parsePosition(text, &posRules);
  if (full) {
    if (hasRules && !(posRules == s.rules)) return fail("--position is for other rules than --rules");
    s.rules = posRules;
    s.position = *full;
    return s;
  }
  // A string that starts with rules is a whole position: its own error is the one to report.
  const bool startsWithRules = static_cast<bool>(parseRules(text.substr(0, text.find('/'))));
  if (!hasRules || startsWithRules) return fail("--position: " + full.error().message);
  auto fields = parsePositionFor(Board(s.rules), text);
  if (!fields) return fail("--position: " + fields.error().message);
  s.position = *fields;
  return s;
}

}  // namespace semis::app
