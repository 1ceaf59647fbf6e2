#pragma once
// One function per `semis` subcommand, each in its own file. They return the process exit status:
// 0 success, 1 a failure of the command, 2 bad input (an illegal move, a malformed argument).

#include <cstdio>
#include <string>

namespace semis::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitBadInput = 2;

int rulesCommand(int argc, char** argv);
int replayCommand(int argc, char** argv);
int playCommand(int argc, char** argv);
int perftCommand(int argc, char** argv);
int solveCommand(int argc, char** argv);
int hintCommand(int argc, char** argv);
int egdbCommand(int argc, char** argv);
int matchCommand(int argc, char** argv);
int benchCommand(int argc, char** argv);
int bookCommand(int argc, char** argv);
int dailyCommand(int argc, char** argv);
int reviewCommand(int argc, char** argv);
int serveCommand(int argc, char** argv);

// Prints "semis <command>: <message>" to stderr and returns `status`.
inline int complain(const char* command, const std::string& message, int status = kExitBadInput) {
  std::fprintf(stderr, "semis %s: %s\n", command, message.c_str());
  return status;
}

}  // namespace semis::app
