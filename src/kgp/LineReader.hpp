#pragma once
// Bytes in, lines out. A KGP connection is a byte stream: TCP reads cut it anywhere, and over
// WebSocket a frame is only bytes too (kgpc writes each token of a line in its own frame), so the
// transport feeds whatever it received and gets back the complete lines (LF or CRLF ends a line).
// A line over the limit gives one TooLong error as soon as it passes the limit and is skipped up to
// its newline: the reader never holds more than the limit (plus a CR). A line that is not text
// (control bytes, invalid UTF-8) gives a Binary error. Pure: no I/O.

#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "kgp/Command.hpp"

namespace semis::kgp {

class LineReader {
 public:
  using Item = tl::expected<std::string, KgpError>;

  explicit LineReader(std::size_t maxLine = kMaxLineBytes) : max_(maxLine) {}

  // Every line `bytes` completes, in order, terminators cut; empty lines are dropped.
  [[nodiscard]] std::vector<Item> feed(std::string_view bytes);
  // The end of the stream: a last line without its newline, if any (go-kgp's scanner reads it too).
  [[nodiscard]] std::vector<Item> finish();

  // Bytes held of the line not yet complete (never over the limit + 1).
  [[nodiscard]] std::size_t pending() const { return buffer_.size(); }

 private:
  void complete(std::vector<Item>& out);

  std::size_t max_;
  std::string buffer_;
  bool skipping_ = false;  // the current line went over the limit: drop it up to its newline
};

}  // namespace semis::kgp
