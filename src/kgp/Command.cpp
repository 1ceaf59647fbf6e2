#include "kgp/Command.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace semis::kgp {

namespace {

tl::unexpected<KgpError> fail(KgpErrorCode code, std::string message) {
  return tl::unexpected(KgpError{code, std::move(message)});
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (!isDigit(c)) return false;
  }
  return true;
}

std::optional<std::uint64_t> parseU64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// [+-]digits
bool looksInteger(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  return allDigits(s);
}
// [+-]digits*.digits+
bool looksReal(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  const auto dot = s.find('.');
  if (dot == std::string_view::npos) return false;
  const auto whole = s.substr(0, dot);
  return (whole.empty() || allDigits(whole)) && allDigits(s.substr(dot + 1));
}

// A board literal starting at line[pos] == '<': numbers and commas, spaces allowed around them.
tl::expected<Arg, KgpError> parseBoard(std::string_view line, std::size_t& pos) {
  const auto close = line.find('>', pos);
  if (close == std::string_view::npos) return fail(KgpErrorCode::BadBoard, "a board literal without its '>'");
  const std::string_view body = line.substr(pos + 1, close - pos - 1);
  std::vector<std::uint32_t> values;
  std::size_t i = 0;
  while (true) {
    while (i < body.size() && isSpace(body[i])) ++i;
    const std::size_t start = i;
    while (i < body.size() && isDigit(body[i])) ++i;
    if (i == start) return fail(KgpErrorCode::BadBoard, "a board literal holds numbers separated by commas");
    const auto v = parseU64(body.substr(start, i - start));
    if (!v || *v > 0xFFFF) return fail(KgpErrorCode::BadBoard, "a number of a board literal is too large");
    values.push_back(static_cast<std::uint32_t>(*v));
    while (i < body.size() && isSpace(body[i])) ++i;
    if (i == body.size()) break;
    if (body[i] != ',') return fail(KgpErrorCode::BadBoard, "a board literal holds numbers separated by commas");
    ++i;
  }
  pos = close + 1;
  if (pos < line.size() && !isSpace(line[pos])) {
    return fail(KgpErrorCode::BadBoard, "a board literal must be followed by a space");
  }
  return Arg::ofBoard(std::move(values));
}

// A string starting at line[pos] == '"'. Escapes as go-kgp reads them: \n, \t, and \x for any other x.
tl::expected<Arg, KgpError> parseString(std::string_view line, std::size_t& pos) {
  std::string out;
  std::size_t i = pos + 1;
  for (;; ++i) {
    if (i >= line.size()) return fail(KgpErrorCode::BadString, "an unterminated string");
    const char c = line[i];
    if (c == '"') break;
    if (c == '\\') {
      if (++i >= line.size()) return fail(KgpErrorCode::BadString, "an unterminated string");
      const char e = line[i];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
    } else {
      out += c;
    }
  }
  pos = i + 1;
  if (pos < line.size() && !isSpace(line[pos])) {
    return fail(KgpErrorCode::BadString, "a string must be followed by a space");
  }
  Arg arg = Arg::ofString(std::move(out));
  return arg;
}

tl::expected<Arg, KgpError> parseBare(std::string_view token) {
  if (token.find('"') != std::string_view::npos) {
    return fail(KgpErrorCode::BadString, "a quote inside a word: quote the whole argument");
  }
  if (looksInteger(token)) {
    std::int64_t v = 0;
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    const auto [end, ec] = std::from_chars(first, token.data() + token.size(), v);
    if (ec != std::errc() || end != token.data() + token.size()) {
      return fail(KgpErrorCode::BadArgument, "an integer out of range");
    }
    Arg arg = Arg::ofInteger(v);
    arg.text = std::string(token);
    return arg;
  }
  if (looksReal(token)) {
    std::string digits(token[0] == '+' ? token.substr(1) : token);
    // from_chars wants a digit before the point in neither form: "-.5" and ".5" read fine.
    double v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(v)) {
      return fail(KgpErrorCode::BadArgument, "a real number out of range");
    }
    Arg arg = Arg::ofReal(v);
    arg.text = std::string(token);
    return arg;
  }
  return Arg::ofText(std::string(token));
}

bool isPlainWord(std::string_view s) {
  if (s.empty() || isDigit(s[0]) || s[0] == '+' || s[0] == '-' || s[0] == '.') return false;
  for (const char c : s) {
    if (!isAlnum(c) && c != '-' && c != ':') return false;
  }
  return true;
}

void appendQuoted(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) ? ' ' : c;
    }
  }
  out += '"';
}

void appendReal(std::string& out, double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[400];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  std::string s = ec == std::errc() ? std::string(buf, end) : std::string("0");
  if (s.find('.') == std::string::npos) s += ".0";
  out += s;
}

}  // namespace

std::string_view wireName(KgpErrorCode code) {
  switch (code) {
    case KgpErrorCode::Empty: return "empty";
    case KgpErrorCode::TooLong: return "too_long";
    case KgpErrorCode::Binary: return "binary";
    case KgpErrorCode::BadId: return "bad_id";
    case KgpErrorCode::BadName: return "bad_name";
    case KgpErrorCode::BadString: return "bad_string";
    case KgpErrorCode::BadBoard: return "bad_board";
    case KgpErrorCode::BadArgument: return "bad_argument";
  }
  return "bad_argument";
}

Arg Arg::ofInteger(std::int64_t v) {
  Arg a;
  a.kind = Kind::Integer;
  a.integer = v;
  a.text = std::to_string(v);
  return a;
}
Arg Arg::ofReal(double v) {
  Arg a;
  a.kind = Kind::Real;
  a.real = v;
  return a;
}
Arg Arg::ofText(std::string v) {
  Arg a;
  a.kind = Kind::Text;
  a.text = std::move(v);
  return a;
}
Arg Arg::ofString(std::string v) {
  Arg a = ofText(std::move(v));
  a.quoted = true;
  return a;
}
Arg Arg::ofBoard(std::vector<std::uint32_t> v) {
  Arg a;
  a.kind = Kind::Board;
  a.board = std::move(v);
  return a;
}

bool isText(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
      ++i;
      continue;
    }
    // Shortest forms only, no surrogates, nothing past U+10FFFF.
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
      return false;
    }
    i += n;
  }
  return true;
}

tl::expected<Command, KgpError> parseLine(std::string_view line) {
  if (line.size() > kMaxLineBytes + 1 || (line.size() == kMaxLineBytes + 1 && line.back() != '\r')) {
    return fail(KgpErrorCode::TooLong, "a line over " + std::to_string(kMaxLineBytes) + " bytes");
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!isText(line)) return fail(KgpErrorCode::Binary, "a line must be UTF-8 text without control bytes");
  std::size_t pos = 0;
  while (pos < line.size() && isSpace(line[pos])) ++pos;
  while (!line.empty() && isSpace(line.back())) line.remove_suffix(1);
  if (pos >= line.size()) return fail(KgpErrorCode::Empty, "an empty line");

  Command cmd;
  // The id segment: digits, @digits or both, then white space (as go-kgp's tokenizer reads it).
  std::size_t end = pos;
  while (end < line.size() && !isSpace(line[end])) ++end;
  const std::string_view first = line.substr(pos, end - pos);
  const auto at = first.find('@');
  const std::string_view idPart = first.substr(0, at);
  const bool hasRef = at != std::string_view::npos;
  if (hasRef && ((!idPart.empty() && !allDigits(idPart)) || !allDigits(first.substr(at + 1)))) {
    return fail(KgpErrorCode::BadId, "an id is digits, a reference '@' and digits, before the command name");
  }
  if (hasRef && end == line.size()) return fail(KgpErrorCode::BadName, "no command name after the id");
  // Bare digits are an id only when something follows (go-kgp reads a lone "12" as a name).
  const bool idSegment = hasRef || (allDigits(idPart) && end < line.size());
  if (idSegment) {
    if (!idPart.empty()) {
      cmd.id = parseU64(idPart);
      if (!cmd.id) return fail(KgpErrorCode::BadId, "an id over 64 bits");
    }
    if (hasRef) {
      cmd.ref = parseU64(first.substr(at + 1));
      if (!cmd.ref) return fail(KgpErrorCode::BadId, "a reference over 64 bits");
    }
    pos = end;
    while (pos < line.size() && isSpace(line[pos])) ++pos;
    end = pos;
    while (end < line.size() && !isSpace(line[end])) ++end;
  }
  const std::string_view name = line.substr(pos, end - pos);
  for (const char c : name) {
    if (!isAlnum(c)) return fail(KgpErrorCode::BadName, "a command name is letters and digits");
  }
  cmd.name = std::string(name);
  pos = end;

  while (true) {
    while (pos < line.size() && isSpace(line[pos])) ++pos;
    if (pos >= line.size()) break;
    tl::expected<Arg, KgpError> arg;
    if (line[pos] == '"') {
      arg = parseString(line, pos);
    } else if (line[pos] == '<') {
      arg = parseBoard(line, pos);
    } else {
      end = pos;
      while (end < line.size() && !isSpace(line[end])) ++end;
      arg = parseBare(line.substr(pos, end - pos));
      pos = end;
    }
    if (!arg) return tl::unexpected(std::move(arg.error()));
    cmd.args.push_back(std::move(*arg));
  }
  return cmd;
}

std::string formatCommand(const Command& cmd) {
  std::string out;
  if (cmd.id) out += std::to_string(*cmd.id);
  if (cmd.ref) out += '@' + std::to_string(*cmd.ref);
  if (!out.empty()) out += ' ';
  out += cmd.name;
  for (const Arg& arg : cmd.args) {
    out += ' ';
    switch (arg.kind) {
      case Arg::Kind::Integer: out += std::to_string(arg.integer); break;
      case Arg::Kind::Real: appendReal(out, arg.real); break;
      case Arg::Kind::Text:
        if (!arg.quoted && isPlainWord(arg.text)) {
          out += arg.text;
        } else {
          appendQuoted(out, arg.text);
        }
        break;
      case Arg::Kind::Board:
        out += '<';
        for (std::size_t i = 0; i < arg.board.size(); ++i) {
          if (i > 0) out += ',';
          out += std::to_string(arg.board[i]);
        }
        out += '>';
        break;
    }
  }
  return out;
}

std::optional<std::int64_t> asInteger(const Arg& arg) {
  if (arg.kind == Arg::Kind::Integer) return arg.integer;
  if (arg.kind == Arg::Kind::Text && allDigits(arg.text) && arg.text.size() <= 18) {
    return static_cast<std::int64_t>(*parseU64(arg.text));
  }
  return std::nullopt;
}

std::optional<std::string> asText(const Arg& arg) {
  if (arg.kind == Arg::Kind::Board) return std::nullopt;
  if (arg.kind == Arg::Kind::Real && arg.text.empty()) {
    std::string s;
    appendReal(s, arg.real);
    return s;
  }
  return arg.text;
}

}  // namespace semis::kgp
