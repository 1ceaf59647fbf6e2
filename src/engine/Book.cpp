#include "engine/Book.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/BookData.hpp"

namespace semis::engine {

namespace {

std::optional<int> number(std::string_view text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<Book> Book::parse(std::string_view text) {
  Book book;
  int lineNo = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    ++lineNo;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (line.empty()) continue;
    const std::string where = "book line " + std::to_string(lineNo) + ": ";
    const std::size_t a = line.find(' ');
    const std::size_t b = a == std::string_view::npos ? a : line.find(' ', a + 1);
    if (b == std::string_view::npos) return fail(where + "expected 'POSITION MOVE VALUE'");
    Rules rules;
    auto pos = parsePosition(line.substr(0, a), &rules);
    if (!pos) return fail(where + pos.error().message);
    const auto move = number(line.substr(a + 1, b - a - 1));
    const auto value = number(line.substr(b + 1));
    if (!move || !value) return fail(where + "the move and the value are whole numbers");
    const Board board(rules);
    if (!board.isLegal(*pos, *move)) return fail(where + "house " + std::to_string(*move) + " is not legal there");
    book.add(board, *pos, {*move, *value});
  }
  return book;
}

std::optional<BookMove> Book::find(const Board& board, const Position& pos) const {
  if (moves_.empty()) return std::nullopt;
  const auto it = moves_.find(board.toString(pos));
  if (it == moves_.end()) return std::nullopt;
  return it->second;
}

std::string Book::text(std::string_view header) const {
  std::vector<std::string> lines;
  lines.reserve(moves_.size());
  for (const auto& [key, m] : moves_) lines.push_back(key + ' ' + std::to_string(m.move) + ' ' + std::to_string(m.value));
  std::sort(lines.begin(), lines.end());
  std::string out(header);
  for (const std::string& l : lines) out += l + '\n';
  return out;
}

const Book* builtInBook(const Rules& rules) {
  // Parsed once, on first use; the compiled-in texts were checked by the tests (BookTest), so a
  // book that fails to parse here is simply absent.
  static const std::map<std::string, std::unique_ptr<Book>, std::less<>> books = [] {
    std::map<std::string, std::unique_ptr<Book>, std::less<>> out;
    for (const BookText& t : builtInBookTexts()) {
      auto b = Book::parse(t.text);
      if (b) out.emplace(std::string(t.name), std::make_unique<Book>(std::move(*b)));
    }
    return out;
  }();
  const auto it = books.find(toString(rules));
  return it == books.end() ? nullptr : it->second.get();
}

}  // namespace semis::engine
