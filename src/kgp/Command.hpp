#pragma once
// One line of the Kalah Game Protocol (KGP, KWARC's kalah-game spec/012-grammar.md) as a value:
// `[id][@ref] name arg...`. Parsing is as lenient as the reference server go-kgp where the grammar is
// silent (spaces inside board literals, any printable bare word) and strict where text could be
// misread (unterminated strings, binary bytes, overlong lines, numbers out of range): those are
// errors with wire-ish codes, never a guess. Pure: no I/O, never throws.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

namespace semis::kgp {

// The spec's limit on a line (its terminator not counted).
inline constexpr std::size_t kMaxLineBytes = 16384;

enum class KgpErrorCode : std::uint8_t {
  Empty,        // nothing but white space
  TooLong,      // over kMaxLineBytes
  Binary,       // a control byte (tab aside) or invalid UTF-8
  BadId,        // an id or reference that is not a 64-bit number
  BadName,      // no command name where one must be
  BadString,    // an unterminated string, or a quote inside a bare word
  BadBoard,     // a board literal that is not <n,n,...> of small non-negative numbers
  BadArgument,  // a number out of range
};
[[nodiscard]] std::string_view wireName(KgpErrorCode code);

struct KgpError {
  KgpErrorCode code = KgpErrorCode::Empty;
  std::string message;
};

// One argument. Words and strings are both Text: whether the sender quoted them means nothing;
// `quoted` only asks formatCommand to quote a text that would read as a word (and is ignored by ==).
struct Arg {
  enum class Kind : std::uint8_t { Integer, Real, Text, Board };
  Kind kind = Kind::Text;
  std::int64_t integer = 0;
  double real = 0;
  std::string text;                  // Text: its content, escapes resolved; numbers: as written
  std::vector<std::uint32_t> board;  // Board: the literal's numbers, size first
  bool quoted = false;

  static Arg ofInteger(std::int64_t v);
  static Arg ofReal(double v);
  static Arg ofText(std::string v);
  static Arg ofString(std::string v);  // a text always written in quotes
  static Arg ofBoard(std::vector<std::uint32_t> v);

  friend bool operator==(const Arg& a, const Arg& b) {
    return a.kind == b.kind && a.integer == b.integer && a.real == b.real && a.board == b.board &&
           (a.kind != Kind::Text || a.text == b.text);
  }
};

struct Command {
  std::optional<std::uint64_t> id;
  std::optional<std::uint64_t> ref;
  std::string name;
  std::vector<Arg> args;

  friend bool operator==(const Command&, const Command&) = default;
};

// Parses one line, its terminator (LF or CRLF) already cut (a trailing CR is tolerated anyway).
[[nodiscard]] tl::expected<Command, KgpError> parseLine(std::string_view line);

// The line for `cmd`, without terminator. Texts are bare when they read back as a word, quoted
// (with `\"`, `\\`, `\n`, `\t` escaped, other control bytes as spaces) otherwise.
[[nodiscard]] std::string formatCommand(const Command& cmd);

// The argument as a number: an Integer, or a Text of decimal digits (go-kgp reads `move "3"` as 3).
[[nodiscard]] std::optional<std::int64_t> asInteger(const Arg& arg);
// The argument as text: a Text, or a number as it was written.
[[nodiscard]] std::optional<std::string> asText(const Arg& arg);

// True when `bytes` is valid UTF-8 without control bytes other than tab.
[[nodiscard]] bool isText(std::string_view bytes);

}  // namespace semis::kgp
