#pragma once
// A small argument reader for the subcommands: --name value options and positional words; and the
// one place where `--help` / `-h` is answered, for every subcommand alike (runCommand).

#include <charconv>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/Rules.hpp"

namespace semis::app {

// A whole word of decimal digits, nothing else ("3", not "+3", " 3", "3x"); nullopt otherwise.
inline std::optional<int> wholeNumber(std::string_view word) {
  int v = 0;
  if (word.empty() || word.size() > 9 || word[0] < '0' || word[0] > '9') return std::nullopt;
  auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || p != word.data() + word.size()) return std::nullopt;
  return v;
}

class Args {
 public:
  // `flags` are the options that take no value (e.g. --json).
  static Result<Args> parse(int argc, char** argv, std::vector<std::string_view> valued,
                            std::vector<std::string_view> flags = {}) {
    Args a;
    for (int i = 0; i < argc; ++i) {
      const std::string_view w = argv[i];
      if (w.size() > 2 && w.substr(0, 2) == "--") {
        const std::string_view name = w.substr(2);
        bool isFlag = false;
        for (auto f : flags) isFlag = isFlag || f == name;
        bool isValued = false;
        for (auto v : valued) isValued = isValued || v == name;
        if (isFlag) {
          a.options_[std::string(name)] = "true";
        } else if (isValued) {
          if (i + 1 >= argc) return fail("--" + std::string(name) + " needs a value");
          a.options_[std::string(name)] = argv[++i];
        } else {
          return fail("unknown option --" + std::string(name));
        }
      } else {
        a.positional_.emplace_back(w);
      }
    }
    return a;
  }
  [[nodiscard]] bool has(const std::string& name) const { return options_.count(name) != 0; }
  [[nodiscard]] std::string get(const std::string& name, std::string fallback = {}) const {
    auto it = options_.find(name);
    return it == options_.end() ? fallback : it->second;
  }
  [[nodiscard]] const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> options_;
  std::vector<std::string> positional_;
};

// A subcommand as `semis` dispatches it: its name, a line for `semis --help`, its whole usage
// (printed for `--help` or `-h`), and the function that runs it with the words after its name.
struct Command {
  std::string_view name;
  std::string_view summary;
  std::string_view usage;
  int (*run)(int argc, char** argv);
};

// `--help` or `-h` anywhere among a subcommand's words asks for its usage (no option takes either
// as its value), before any other word is read.
inline bool asksHelp(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    const std::string_view w = argv[i];
    if (w == "--help" || w == "-h") return true;
  }
  return false;
}

// Runs `command`, or, when its words ask for help, prints its usage to standard output and returns
// 0 having done nothing else: no file opened, no port bound, no search started.
inline int runCommand(const Command& command, int argc, char** argv) {
  if (asksHelp(argc, argv)) {
    std::fwrite(command.usage.data(), 1, command.usage.size(), stdout);
    return 0;
  }
  return command.run(argc, argv);
}

}  // namespace semis::app
