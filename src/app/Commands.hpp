#pragma once
// One function per `semis` subcommand, each in its own file. They return the process exit status:
// 0 success, 1 a failure of the command, 2 bad input (an illegal move, a malformed argument).

#include <cstdio>
#include <string>

#include "app/Args.hpp"
#include "engine/Egdb.hpp"

namespace semis::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

// The subcommands, each defined in its own file beside the function that runs it.
extern const Command kRulesCommand;
extern const Command kReplayCommand;
extern const Command kPlayCommand;
extern const Command kPerftCommand;
extern const Command kSolveCommand;
extern const Command kHintCommand;
extern const Command kEgdbCommand;
extern const Command kMatchCommand;
extern const Command kBenchCommand;
extern const Command kBookCommand;
extern const Command kDailyCommand;
extern const Command kReviewCommand;
extern const Command kServeCommand;

// Prints "semis <command>: <message>" to stderr and returns `status`.
inline int complain(const char* command, const std::string& message, int status = kExitBadInput) {
  std::fprintf(stderr, "semis %s: %s\n", command, message.c_str());
  return status;
}

// Why an endgame table given with --egdb cannot answer for these rules: its rules, and each
// option that sets their values apart (Egdb::differences).
inline std::string notServed(const engine::Egdb& table, const Rules& rules) {
  std::string message = "the table is for " + toString(table.rules()) + ", not " + toString(rules);
  const char* sep = " (";
  for (const std::string& d : table.differences(rules)) {
    message += sep + d;
    sep = "; ";
  }
  return *sep == ';' ? message + ")" : message;
}

}  // namespace semis::app
