// Fuzzes the bots' protocol (src/kgp): the input's first byte cuts the rest into reads of that size
// for the LineReader (as TCP reads or WebSocket frames would), every line goes to parseLine and to a
// Session that is offered turns and ticked. Never crashes; a parsed line prints back to a line that
// parses to the same command; every line the session sends parses and keeps to the line limit; a
// decided house is legal; the reader never holds more than the limit.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kgp/Command.hpp"
#include "kgp/LineReader.hpp"
#include "kgp/Session.hpp"

namespace {

using namespace semis;
using namespace semis::kgp;

void checkSent(const Output& out) {
  for (const std::string& line : out.lines) {
    if (line.size() > kMaxLineBytes || !parseLine(line)) std::abort();
  }
}

void checkRoundTrip(std::string_view line) {
  auto cmd = parseLine(line);
  if (!cmd) return;
  const std::string printed = formatCommand(*cmd);
  if (printed.size() > kMaxLineBytes) return;  // escapes may lengthen a line past the limit
  auto again = parseLine(printed);
  if (!again || !(*again == *cmd)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t chunk = 1 + data[0] % 64;
  std::string_view stream(reinterpret_cast<const char*>(data + 1), size - 1);

  Rules rules = presetRules(Preset::Kalah);
  rules.houses = 4;
  rules.seeds = 3;
  const Board board(rules);
  Position pos = board.start();
  Session::Config config;
  config.maxBadLines = 20;
  Session session(config);
  std::int64_t now = 0;
  checkSent(session.start(now));
  LineReader reader(256);

  const auto handle = [&](const Output& out) {
    checkSent(out);
    for (const Action& a : out.actions) {
      if (std::holds_alternative<Authenticate>(a)) checkSent(session.authenticated((now / 700) % 3 != 1, now));
      if (const auto* d = std::get_if<Decided>(&a)) {
        if (!board.isLegal(pos, d->house)) std::abort();
        (void)board.play(pos, d->house);
        if (pos.over) pos = board.start();
      }
    }
  };
  const auto step = [&](const LineReader::Item& item) {
    if (item) {
      checkRoundTrip(*item);
      handle(session.onLine(*item, now));
    } else {
      handle(session.onLineError(item.error(), now));
    }
    now += 700;
    handle(session.tick(now));
    if (session.ready() && !session.inTurn()) {
      auto offered = session.offerTurn(Turn{"g", "o", "", rules, pos, 1500}, now);
      if (offered) handle(*offered);
    }
  };

  while (!stream.empty()) {
    const std::string_view read = stream.substr(0, chunk);
    stream.remove_prefix(read.size());
    for (const auto& item : reader.feed(read)) step(item);
    if (reader.pending() > 257) std::abort();
  }
  for (const auto& item : reader.finish()) step(item);
  // Whole input as one line too: parseLine alone, without the reader's cuts.
  checkRoundTrip(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
