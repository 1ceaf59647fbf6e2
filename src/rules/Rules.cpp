#include "rules/Rules.hpp"

#include <array>
#include <charconv>
#include <functional>

namespace semis {
namespace {

// One option: how to read and print it. Enumerations are stored as their underlying integer so a
// single descriptor kind serves every enum option; `names` lists the values in enum order.
struct Option {
  const char* name;
  const char* meaning;
  // Set: a set of counts lo..hi written "2+3", stored as a bit mask (bit v: count v).
  enum Kind { Int, Bool, Enum, Set } kind;
  int lo = 0;
  int hi = 0;
  std::vector<const char*> names;
  std::function<int(const Rules&)> get;
  std::function<void(Rules&, int)> set;
  // Options added after rule sets were first keyed (rulesKey): folded in only when they differ from
  // Rules{}'s value, so every older rule set keeps its key (and the engine's tables their hashes).
  bool keyedWhenSet = false;
  // Older spellings still read (grand_slam=true|false); printing uses `names`.
  std::vector<std::pair<const char*, int>> aliases = {};
};

template <class E>
std::function<int(const Rules&)> getEnum(E Rules::*m) {
  return [m](const Rules& r) { return static_cast<int>(r.*m); };
}
template <class E>
std::function<void(Rules&, int)> setEnum(E Rules::*m) {
  return [m](Rules& r, int v) { r.*m = static_cast<E>(v); };
}

Option intOpt(const char* name, int Rules::*m, int lo, int hi, const char* meaning) {
  return Option{name, meaning, Option::Int, lo, hi, {}, [m](const Rules& r) { return r.*m; },
                [m](Rules& r, int v) { r.*m = v; }};
}
Option boolOpt(const char* name, bool Rules::*m, const char* meaning) {
  return Option{name, meaning, Option::Bool, 0, 1, {}, [m](const Rules& r) { return r.*m ? 1 : 0; },
                [m](Rules& r, int v) { r.*m = v != 0; }};
}
template <class E>
Option enumOpt(const char* name, E Rules::*m, std::vector<const char*> names, const char* meaning) {
  const int hi = static_cast<int>(names.size()) - 1;
  return Option{name, meaning, Option::Enum, 0, hi, std::move(names), getEnum(m), setEnum(m)};
}

Option setOpt(const char* name, int Rules::*m, int lo, int hi, const char* meaning) {
  Option o = intOpt(name, m, lo, hi, meaning);
  o.kind = Option::Set;
  o.keyedWhenSet = true;
  return o;
}
template <class E>
Option lateEnumOpt(const char* name, E Rules::*m, std::vector<const char*> names, const char* meaning) {
  Option o = enumOpt(name, m, std::move(names), meaning);
  o.keyedWhenSet = true;
  return o;
}

const std::vector<Option>& options() {
  static const std::vector<Option> table = {
      // Pits count in 16 bits (Seeds): these two ranges keep every total (at most kMaxTotalSeeds) within it.
      intOpt("houses", &Rules::houses, 1, kMaxHouses, "houses per side"),
      intOpt("seeds", &Rules::seeds, 1, kMaxSeedsPerHouse, "seeds per house at the start"),
      boolOpt("stores", &Rules::stores, "stores on the ring (false: captures are set aside)"),
      boolOpt("sow_own_store", &Rules::sowOwnStore, "sowing drops a seed in the mover's store"),
      enumOpt("sow", &Rules::sowFrom, {"next", "origin"},
              "sowing starts in the next pit, or (2+ seeds) in the origin house"),
      boolOpt("skip_origin", &Rules::skipOrigin, "laps skip the emptied house"),
      boolOpt("relay", &Rules::relay, "last seed in an occupied house: lift all and sow on"),
      intOpt("relay_limit", &Rules::relayLimit, 1, 100000, "laps after which a relay is cut"),
      enumOpt("capture", &Rules::capture, {"none", "standard", "empty"},
              "last seed in an own empty house: take it with the opposite house "
              "(standard: only if that house has seeds)"),
      boolOpt("even_capture", &Rules::evenCapture, "last seed makes an opponent house even: take it"),
      boolOpt("chain_capture", &Rules::chainCapture,
              "last seed makes a house 2 or 4: take it and each 2 or 4 before it"),
      setOpt("chain_values", &Rules::chainValues, 1, kMaxChainValue,
             "the counts a chain capture takes, joined by + (2+4, 2+3)"),
      lateEnumOpt("chain_rows", &Rules::chainRows, {"both", "opponent"},
                  "the rows a chain capture takes from: both, or only the opponent's"),
      [] {
        Option o = enumOpt("grand_slam", &Rules::grandSlam, {"nothing", "all", "illegal", "opponent"},
                           "a chain capture that would empty a row: takes nothing, takes all, is illegal, "
                           "or takes all and the opponent takes every seed left");
        o.aliases = {{"false", 0}, {"true", 1}};
        return o;
      }(),
      boolOpt("extra_turn", &Rules::extraTurn, "last seed in the own store: play again"),
      boolOpt("castle", &Rules::castle, "last seed makes an opponent house 3: it becomes a castle"),
      // castle_sow_treasures is the name the rules decisions (docs/rules.md) give; for the castle preset it is sow_own_store.
      boolOpt("castle_sow_treasures", &Rules::sowOwnStore, "castle rule: sowing still fills the own treasure"),
      boolOpt("castle_capture", &Rules::castleCapture, "a new castle's three stones go to its owner's store"),
      boolOpt("feeding", &Rules::feeding,
              "must feed an empty opponent row; an empty row passes; if none can feed, the starved takes all"),
      lateEnumOpt("unfed", &Rules::unfed, {"starved", "owner"},
                  "with feeding, when a player cannot move or cannot feed: the starved player takes every seed "
                  "left (his empty row passes first), or the game ends and the seeds go to their owner"),
      enumOpt("end", &Rules::end, {"immediate", "on_turn"},
              "game ends after a move that empties a row, or when the player to move has none"),
      enumOpt("leftovers", &Rules::leftovers, {"owner", "emptier"},
              "seeds left in the houses at the end go to their owner or to the player whose row is empty"),
      boolOpt("emptier_by_capture", &Rules::emptierByCapture,
              "leftovers=emptier applies also when the row was emptied by a capture"),
      intOpt("win_at", &Rules::winAt, 0, 1000, "a store reaching this wins at once (0: off)"),
      intOpt("sets", &Rules::sets, 1, 9, "sets in a match"),
      boolOpt("alternate_first", &Rules::alternateFirst, "the first player alternates between sets"),
      boolOpt("pie", &Rules::pie, "North may swap sides after South's first turn"),
      intOpt("idle_limit", &Rules::idleLimit, 0, 10000, "turns without a capture that split the board (0: off)"),
      intOpt("repetitions", &Rules::repetitions, 0, 100, "a position seen this often splits the board (0: off)"),
      lateEnumOpt("split", &Rules::split, {"equal", "own"},
                  "a split shares the seeds left equally, or gives each player his own row"),
      enumOpt("first", &Rules::first, {"south", "north"}, "who moves first"),
      enumOpt("direction", &Rules::direction, {"ccw", "cw"}, "drawn sowing direction (cw: stores on the left)"),
      // Last in the table: a late option's key mixes in its place, and the others keep theirs.
      lateEnumOpt("rounds", &Rules::rounds, {"single", "traditional"},
                  "one round, or rounds refilled from the stores (houses that cannot be filled are burnt) "
                  "until a player cannot fill one house"),
  };
  return table;
}

const Option* findOption(std::string_view name) {
  for (const Option& o : options()) {
    if (name == o.name) return &o;
  }
  return nullptr;
}

std::string printValue(const Option& o, int v) {
  switch (o.kind) {
    case Option::Bool: return v ? "true" : "false";
    case Option::Enum: return o.names[static_cast<std::size_t>(v)];
    case Option::Set: {
      std::string out;
      for (int c = o.lo; c <= o.hi; ++c) {
        if ((v >> c) & 1) out += (out.empty() ? "" : "+") + std::to_string(c);
      }
      return out;
    }
    case Option::Int: break;
  }
  return std::to_string(v);
}

Result<int> readNumber(const Option& o, std::string_view text) {
  int v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || text.empty()) {
    return fail("option " + std::string(o.name) + " takes a number, not '" + std::string(text) + "'");
  }
  if (v < o.lo || v > o.hi) {
    return fail("option " + std::string(o.name) + "=" + std::to_string(v) + " is out of range " +
                std::to_string(o.lo) + ".." + std::to_string(o.hi));
  }
  return v;
}

Result<int> readValue(const Option& o, std::string_view text) {
  if (o.kind == Option::Bool) {
    if (text == "true" || text == "1") return 1;
    if (text == "false" || text == "0") return 0;
    return fail("option " + std::string(o.name) + " takes true or false, not '" + std::string(text) + "'");
  }
  if (o.kind == Option::Set) {
    int mask = 0;
    for (std::string_view rest = text;;) {
      const std::size_t plus = rest.find('+');
      auto v = readNumber(o, rest.substr(0, plus));
      if (!v) return v;
      mask |= 1 << *v;
      if (plus == std::string_view::npos) break;
      rest = rest.substr(plus + 1);
    }
    return mask;
  }
  if (o.kind == Option::Enum) {
    for (std::size_t i = 0; i < o.names.size(); ++i) {
      if (text == o.names[i]) return static_cast<int>(i);
    }
    for (const auto& [alias, v] : o.aliases) {
      if (text == alias) return v;
    }
    std::string all;
    for (const char* n : o.names) all += (all.empty() ? "" : "|") + std::string(n);
    return fail("option " + std::string(o.name) + " takes " + all + ", not '" + std::string(text) + "'");
  }
  return readNumber(o, text);
}

constexpr std::array<const char*, 7> kPresetNames = {"kalah",          "kalah-club", "mangala", "mangala-castle",
                                                     "al-manqala",     "congkak",    "awale"};

}  // namespace

std::string_view presetName(Preset preset) { return kPresetNames[static_cast<std::size_t>(preset)]; }

const std::vector<Preset>& allPresets() {
  static const std::vector<Preset> all = {Preset::Kalah,         Preset::KalahClub, Preset::Mangala,
                                          Preset::MangalaCastle, Preset::AlManqala, Preset::Congkak,
                                          Preset::Awale};
  return all;
}

// Every preset is offered now (awale joined in issue 26); knownPresets stays for the callers that
// mean "what parseRules reads", should a preset again be played before it is offered.
const std::vector<Preset>& knownPresets() { return allPresets(); }

Rules presetRules(Preset preset) {
  Rules r;
  r.preset = preset;
  switch (preset) {
    case Preset::Kalah: break;
    case Preset::KalahClub: r.end = EndRule::OnTurn; break;
    case Preset::Mangala:
      r.sowFrom = SowFrom::Origin;
      r.evenCapture = true;
      r.leftovers = Leftovers::Emptier;
      r.sets = 5;
      break;
    case Preset::MangalaCastle:
      r.sowFrom = SowFrom::Origin;
      r.evenCapture = true;
      r.sowOwnStore = false;
      r.capture = Capture::None;
      r.castle = true;
      r.sets = 5;
      break;
    case Preset::AlManqala:
      r.houses = 7;
      r.seeds = 7;
      r.stores = false;
      r.sowOwnStore = false;
      r.capture = Capture::None;
      r.extraTurn = false;
      r.chainCapture = true;
      r.feeding = true;
      r.winAt = 50;
      r.idleLimit = 100;
      r.repetitions = 3;
      break;
    case Preset::Congkak:
      r.houses = 7;
      r.seeds = 7;
      r.relay = true;
      r.capture = Capture::Empty;
      r.direction = Direction::Cw;
      break;
    case Preset::Awale:
      // Oware abapa (docs/rules.md, `awale`): 48 seeds, no stores, laps skip the origin, 2s and 3s
      // taken in a chain along the opponent's row, a grand slam takes nothing, feeding, 25 wins.
      r.stores = false;
      r.sowOwnStore = false;
      r.skipOrigin = true;
      r.capture = Capture::None;
      r.extraTurn = false;
      r.chainCapture = true;
      r.chainValues = (1 << 2) | (1 << 3);
      r.chainRows = ChainRows::Opponent;
      r.grandSlam = GrandSlam::Nothing;
      r.feeding = true;
      r.unfed = Unfed::Owner;
      r.end = EndRule::OnTurn;  // read only with feeding=false: a player who cannot move ends the game
      r.winAt = 25;
      r.repetitions = 3;
      r.split = SplitRule::Own;
      break;
  }
  return r;
}

Result<Rules> parseRules(std::string_view text) {
  const std::size_t comma = text.find(',');
  const std::string_view head = text.substr(0, comma);
  Rules rules;
  bool found = false;
  for (Preset p : knownPresets()) {
    if (head == presetName(p)) {
      rules = presetRules(p);
      found = true;
    }
  }
  if (!found) {
    std::string names;
    for (Preset p : knownPresets()) names += (names.empty() ? "" : ", ") + std::string(presetName(p));
    return fail("unknown preset '" + std::string(head) + "' (presets: " + names + ")");
  }
  std::string_view rest = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  while (comma != std::string_view::npos) {
    const std::size_t next = rest.find(',');
    const std::string_view item = rest.substr(0, next);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) return fail("option '" + std::string(item) + "' needs a value: name=value");
    const Option* o = findOption(item.substr(0, eq));
    if (o == nullptr) return fail("unknown option '" + std::string(item.substr(0, eq)) + "' (see `semis rules`)");
    auto v = readValue(*o, item.substr(eq + 1));
    if (!v) return tl::unexpected(v.error());
    o->set(rules, *v);
    if (next == std::string_view::npos) break;
    rest = rest.substr(next + 1);
  }
  if (rules.rounds == Rounds::Traditional && rules.sets != 1) {
    return fail("rounds=traditional plays rounds until a player cannot fill a house: it takes sets=1");
  }
  return rules;
}

std::string toString(const Rules& rules) {
  const Rules base = presetRules(rules.preset);
  std::string out(presetName(rules.preset));
  for (const Option& o : options()) {
    // castle_sow_treasures aliases sow_own_store: print whichever name the preset's table uses.
    const bool alias = std::string_view(o.name) == "castle_sow_treasures";
    if (alias != base.castle && (alias || std::string_view(o.name) == "sow_own_store")) continue;
    const int v = o.get(rules);
    if (v != o.get(base)) out += "," + std::string(o.name) + "=" + printValue(o, v);
  }
  return out;
}

const std::vector<OptionInfo>& optionInfos() {
  static const std::vector<OptionInfo> infos = [] {
    std::vector<OptionInfo> out;
    for (const Option& o : options()) {
      std::string values;
      if (o.kind == Option::Int) values = std::to_string(o.lo) + ".." + std::to_string(o.hi);
      if (o.kind == Option::Bool) values = "true|false";
      if (o.kind == Option::Set) values = "counts " + std::to_string(o.lo) + ".." + std::to_string(o.hi) + " joined by +";
      for (const char* n : o.names) values += (values.empty() ? "" : "|") + std::string(n);
      out.push_back({o.name, values, o.meaning});
    }
    return out;
  }();
  return infos;
}

std::string optionValue(const Rules& rules, std::string_view name) {
  const Option* o = findOption(name);
  return o == nullptr ? std::string() : printValue(*o, o->get(rules));
}

std::uint64_t rulesKey(const Rules& rules) {
  // splitmix64 over every option value, so two rule sets that play differently never share a key.
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  auto mix = [&h](std::uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    h ^= h >> 31;
  };
  static const Rules neutral;
  for (const Option& o : options()) {
    if (o.keyedWhenSet && o.get(rules) == o.get(neutral)) continue;
    // The option's position in the table tells a late option's value apart from its neighbours'.
    if (o.keyedWhenSet) mix(0x5E7ULL + static_cast<std::uint64_t>(&o - options().data()));
    mix(static_cast<std::uint64_t>(o.get(rules)));
  }
  return h;
}

}  // namespace semis
