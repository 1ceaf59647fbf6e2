// `semis rules [--rules R] [--json]`: the presets with their options, or one rule set in full; with
// --json, the catalogue as `/api/rules` and the WebAssembly core's sm_rules answer it (one writer).

#include <cstdio>

#include "app/Args.hpp"
#include "app/Commands.hpp"
#include "protocol/GameJson.hpp"
#include "rules/Rules.hpp"

namespace semis::app {

int rulesCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules"}, {"json"});
  if (!args) return complain("rules", args.error().message);
  if (args->has("json")) {
    if (args->has("rules")) return complain("rules", "--json lists every preset and option: give it without --rules");
    std::printf("%s\n", protocol::dumpJson(protocol::rulesCatalogJson()).c_str());
    return kExitOk;
  }
  if (args->has("rules")) {
    auto rules = parseRules(args->get("rules"));
    if (!rules) return complain("rules", rules.error().message);
    std::printf("%s\n", toString(*rules).c_str());
    for (const OptionInfo& o : optionInfos()) {
      std::printf("  %-22s %s\n", (o.name + "=" + optionValue(*rules, o.name)).c_str(), o.meaning.c_str());
    }
    return kExitOk;
  }
  std::printf("presets (each option may follow: kalah,houses=4,capture=empty):\n");
  // Every preset the rules core plays, awale included (the catalogue, --json, lists those offered).
  for (Preset p : knownPresets()) {
    const Rules r = presetRules(p);
    std::string opts;
    for (const OptionInfo& o : optionInfos()) opts += " " + o.name + "=" + optionValue(r, o.name);
    std::printf("  %s\n   %s\n", std::string(presetName(p)).c_str(), opts.c_str());
  }
  std::printf("\noptions:\n");
  for (const OptionInfo& o : optionInfos()) {
    std::printf("  %-22s %-28s %s\n", o.name.c_str(), o.values.c_str(), o.meaning.c_str());
  }
  return kExitOk;
}

extern const Command kRulesCommand{"rules", "list the presets and their options",
                                   "usage: semis rules [--rules R] [--json]\n"
                                   "  The presets with their options, or one rule set in full.\n"
                                   "  --rules R   a preset with options, e.g. kalah,houses=4,seeds=6\n"
                                   "  --json      the presets and options as JSON (as GET /api/rules answers)\n",
                                   rulesCommand};

}  // namespace semis::app
