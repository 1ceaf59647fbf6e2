#include "kgp/LineReader.hpp"

namespace semis::kgp {

void LineReader::complete(std::vector<Item>& out) {
  if (skipping_) {
    skipping_ = false;
  } else {
    std::string_view line = buffer_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > max_) {
      out.emplace_back(tl::unexpected(KgpError{KgpErrorCode::TooLong, "a line over " + std::to_string(max_) + " bytes"}));
    } else if (!isText(line)) {
      out.emplace_back(
          tl::unexpected(KgpError{KgpErrorCode::Binary, "a line must be UTF-8 text without control bytes"}));
    } else if (!line.empty()) {
      out.emplace_back(std::string(line));
    }
  }
  buffer_.clear();
}

std::vector<LineReader::Item> LineReader::feed(std::string_view bytes) {
  std::vector<Item> out;
  while (!bytes.empty()) {
    const auto nl = bytes.find('\n');
    const std::string_view part = bytes.substr(0, nl);
    if (!skipping_) {
      // Room for the limit and a CR that a CRLF terminator would cut.
      if (buffer_.size() + part.size() > max_ + 1) {
        skipping_ = true;
        buffer_.clear();
        out.emplace_back(
            tl::unexpected(KgpError{KgpErrorCode::TooLong, "a line over " + std::to_string(max_) + " bytes"}));
      } else {
        buffer_.append(part);
      }
    }
    if (nl == std::string_view::npos) break;
    complete(out);
    bytes.remove_prefix(nl + 1);
  }
  return out;
}

std::vector<LineReader::Item> LineReader::finish() {
  std::vector<Item> out;
  if (!buffer_.empty() || skipping_) complete(out);
  return out;
}

}  // namespace semis::kgp
