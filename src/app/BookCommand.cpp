// `semis book build --rules R [--turns T] [--build-egdb K] [--threads N] [--table MB] [--out FILE]`:
// solves every position of the first T sowings of each side that a game reaches when that side
// plays the book's moves (study/BookBuilder.hpp) and writes the book (default: standard output).
// data/book/NAME.book is compiled into the program (engine/Book.hpp).
// `semis book show --rules R [--position P]`: the built-in book's size, or its move for P.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

#include "app/Commands.hpp"
#include "app/Setup.hpp"
#include "engine/Book.hpp"
#include "engine/Egdb.hpp"
#include "study/BookBuilder.hpp"

namespace semis::app {

namespace {

int show(const Args& args, const Setup& setup) {
  const engine::Book* book = engine::builtInBook(setup.rules);
  if (book == nullptr) return complain("book", "no built-in book for " + toString(setup.rules), kExitFailure);
  if (!args.has("position")) {
    std::printf("%s: %zu positions\n", toString(setup.rules).c_str(), book->size());
    return kExitOk;
  }
  const Board board(setup.rules);
  const auto m = book->find(board, setup.start());
  if (!m) {
    std::printf("not in the book\n");
    return kExitFailure;
  }
  std::printf("house %d, value %+d (exact)\n", m->move, m->value);
  return kExitOk;
}

}  // namespace

int bookCommand(int argc, char** argv) {
  auto args = Args::parse(argc, argv, {"rules", "position", "turns", "build-egdb", "threads", "table", "out"});
  if (!args) return complain("book", args.error().message);
  const std::string verb = args->positional().empty() ? "" : args->positional().front();
  auto setup = setupFromArgs(*args);
  if (!setup) return complain("book", setup.error().message);
  if (verb == "show") return show(*args, *setup);
  if (verb != "build") return complain("book", "usage: semis book build|show --rules R ...");
  int turns = 3;
  int egdbSeeds = 0;
  int threads = 1;
  std::size_t tableMb = 256;
  try {
    if (args->has("turns")) turns = std::stoi(args->get("turns"));
    if (args->has("build-egdb")) egdbSeeds = std::stoi(args->get("build-egdb"));
    if (args->has("threads")) threads = std::stoi(args->get("threads"));
    if (args->has("table")) tableMb = static_cast<std::size_t>(std::stoul(args->get("table")));
  } catch (const std::exception&) {
    return complain("book", "--turns, --build-egdb, --threads and --table take numbers");
  }
  if (threads < 1 || threads > 64 || tableMb < 1 || tableMb > 16384) {
    return complain("book", "--threads takes 1..64 and --table 1..16384");
  }
  std::unique_ptr<engine::Egdb> egdb;
  if (egdbSeeds > 0) {
    if (!engine::Egdb::applies(setup->rules)) return complain("book", "these rules have no endgame table");
    if (egdbSeeds > engine::Egdb::kMaxSeedsLimit) return complain("book", "--build-egdb K is too large");
    auto db = engine::Egdb::build(setup->rules, egdbSeeds, threads);
    if (!db) return complain("book", db.error().message);
    egdb = std::make_unique<engine::Egdb>(std::move(*db));
  }
  engine::Search search(setup->rules, tableMb);
  search.setEgdb(egdb.get());
  search.setThreads(threads);
  const auto t0 = std::chrono::steady_clock::now();
  auto book = study::buildBook(search, setup->start(), turns, [](const study::BookProgress& p) {
    std::fprintf(stderr, "solved %zu (%zu waiting), last %.1f s\n", p.solved, p.queued, p.seconds);
  });
  if (!book) return complain("book", book.error().message, kExitFailure);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string header = "# Semis opening book for " + toString(setup->rules) + ": `semis book build --rules " +
                             toString(setup->rules) + " --turns " + std::to_string(turns) +
                             "`.\n# POSITION MOVE VALUE: the house the exact solver proved best, and its value "
                             "for the player to move.\n";
  const std::string text = book->text(header);
  std::fprintf(stderr, "%zu positions in %.1f s\n", book->size(), seconds);
  if (!args->has("out")) {
    std::fputs(text.c_str(), stdout);
    return kExitOk;
  }
  std::ofstream out(args->get("out"), std::ios::binary);
  out << text;
  out.close();
  if (!out) return complain("book", "could not write " + args->get("out"), kExitFailure);
  return kExitOk;
}

extern const Command kBookCommand{
    "book", "build or read the opening book",
    "usage: semis book build --rules R [--turns T] [--build-egdb K] [--threads N] [--table MB] [--out FILE]\n"
    "       semis book show --rules R [--position P]\n"
    "  build: solves every position of the first T sowings of each side that the book's games reach and\n"
    "  writes the book (default: standard output). show: the built-in book's size, or its move for P.\n",
    bookCommand};

}  // namespace semis::app
