// The solver's node machine: each search is a fiber, an explicit stack of nodes that stops after a
// node has started its children's memory accesses, so that the next fiber's work covers the wait
// (docs/engine.md, "Fibers"). With one fiber it visits exactly the nodes of a recursive search.
#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>
#include <mutex>

#include "engine/Egdb.hpp"
#include "engine/SolverFrames.hpp"

namespace semis::engine {

using solver::kCrumbPlies;
using solver::kExactDepth;
using solver::kOpen;

// A child without a table entry ranks as if its last search had taken 2^7-2^8 nodes: the table
// drops the smallest subtrees first, so a missing entry most likely had a small one (Kalah(6,4)
// with the 20-seed tables, both capture rules: 0 gave 19.00 M and 8.82 M nodes, 4: 18.52 and
// 8.82, 8: 18.79 and 8.11, 12: 19.28 and 8.07, 16: 19.30 and 8.47; docs/engine.md, Speed).
constexpr int kUnknownWork = 8;

namespace {

// Whether the first n move-order keys differ (expand(): the rank sort relies on it; checked in
// debug builds).
[[maybe_unused]] bool distinct(const std::int64_t* keys, int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (keys[i] == keys[j]) return false;
    }
  }
  return true;
}

}  // namespace

// The fibers' stage functions. Each returns true when the node is done (value and proven set);
// run_.aborted set means the whole pass unwinds.
bool Solver::done(Frame& f, int value, bool proven) {
  f.value = value;
  f.proven = proven;
  return true;
}

bool Solver::enter(Fiber& fiber, Frame& f) {
  ++fiber.nodes;
  if (run_.countNode()) return true;
  const int left = f.left;
  // The futility bound: the mover wins at most every seed left and loses at most all of them.
  if (-left >= f.beta) return done(f, -left, true);
  if (left <= f.alpha) return done(f, left, true);
  if (left <= egdbSeeds_) {
    const int v = egdb_->at(egdb_->index(f.p.mine, f.p.theirs, left));
    if (v != Egdb::kUnknown) return done(f, v, true);
  }
  f.ttMove = 0;
  f.hintMove = 0;
  if (SolverEntry e; table_->find(f.key, e)) {
    const bool entryProven = e.depth == kSolverProven;
    // In the exact passes only a proven entry's move leads the order (the move may have come from
    // an earlier, depth-limited store: a store without a move keeps the slot's). The move of an
    // entry a depth-limited iteration stored, the best short of a horizon, only breaks the ties
    // between moves that bank as much: leading the order, it cost the proofs that follow up to
    // half their nodes (Kalah(6,4) with the 20-seed table 41.7 M to 20.9 M, `capture=empty`
    // 16.1 M to 9.9 M; without a table 174 M to 105 M and 60.2 M to 41.6 M; docs/engine.md,
    // Speed, "Tried on 2026-12-06"). The depth-limited searches (the warm-up, the levels, hints)
    // keep it first.
    if (entryProven || run_.rootDepth < kExactDepth) {
      f.ttMove = e.move;
    } else {
      f.hintMove = e.move;
    }
    if (entryProven || e.depth >= f.depth) {
      if (e.lower >= f.beta || e.lower == e.upper) {
        if (f.ply == 0 && e.move != 0) fiber.rootBest = e.move;
        return done(f, e.lower, entryProven);
      }
      if (e.upper <= f.alpha) return done(f, e.upper, entryProven);
    }
  }
  if (f.depth <= 0) return done(f, std::clamp(evaluate(f.p), -left, left), false);
  // Marked before the fiber yields, so that the others, close behind, take other moves.
  f.mark = crumbs_ != nullptr && f.ply < kCrumbPlies ? crumbs_->take(f.key) : nullptr;

  int n = 0;
  for (std::uint32_t m = fast_.legalMask(f.p); m != 0; m &= m - 1) {
    Kid& k = f.kids[n++];
    k.house = std::countr_zero(m) + 1;
    k.pos = f.p;
    fast_.play(k.pos, k.house, k.mv);
    k.loProven = k.hiProven = true;
    if (k.mv.over) continue;
    // Start every child's memory access now; expand() reads them after the other fibers' turns.
    if (k.mv.left <= egdbSeeds_) {
      k.key = egdb_->index(k.pos.mine, k.pos.theirs, k.mv.left);
      egdb_->prefetch(k.key);
    } else {
      k.key = tableKey(k.pos);
      table_->prefetch(k.key);
    }
  }
  f.n = n;
  return false;
}

bool Solver::expand(Fiber& fiber, Frame& f) {
  // Bounds of every move from what is already known (finished games, tables, the futility bound):
  // one that reaches beta ends the node without a search (enhanced transposition cutoff).
  const int n = f.n;
  int bestHi = -kOpen;
  bool bestHiProven = true;
  const int theirsBefore = FastBoard::byteSum(f.p.theirs);
  for (int i = 0; i < n; ++i) {
    Kid& k = f.kids[i];
    const int gain = k.mv.gain;
    k.work = kUnknownWork;
    if (k.mv.over) {
      k.lo = k.hi = gain;
    } else {
      int clo = -k.mv.left;
      int chi = k.mv.left;
      bool cloProven = true;
      bool chiProven = true;
      if (k.mv.left <= egdbSeeds_) {
        const int v = egdb_->at(k.key);
        if (v != Egdb::kUnknown) clo = chi = v;
      } else if (SolverEntry e; table_->find(k.key, e)) {
        k.work = e.work;
        if (e.depth == kSolverProven) {
          clo = std::max<int>(clo, e.lower);
          chi = std::min<int>(chi, e.upper);
        } else if (e.depth >= childDepth(f, k)) {
          if (e.lower > clo) clo = e.lower, cloProven = false;
          if (e.upper < chi) chi = e.upper, chiProven = false;
        }
      }
      if (k.mv.extra) {
        k.lo = gain + clo, k.hi = gain + chi, k.loProven = cloProven, k.hiProven = chiProven;
      } else {
        k.lo = gain - chi, k.hi = gain - clo, k.loProven = chiProven, k.hiProven = cloProven;
      }
    }
    if (k.lo >= f.beta) {
      if (f.ply == 0) fiber.rootBest = k.house;
      table_->store(f.key, k.lo, kOpen, k.house, f.depth, k.loProven, 1);
      return done(f, k.lo, k.loProven);
    }
    if (k.hi > bestHi) bestHi = k.hi;
    bestHiProven = bestHiProven && k.hiProven;
    // Best first: the table's move, extra turns by their house (the nearest the store first keeps
    // the others' extra turns), then what the move banks (captures, seeds sown into the store),
    // then the move whose last search was the smallest, then an exact pass's hint (enter()), then
    // the fewest seeds handed to the opponent's row, then the house nearer the store. The fewest
    // seeds handed over halved the nodes of Kalah(6,4) with the 20-seed table (86 M to 47 M); the
    // smallest last search, a guess at the cheapest of the refutations where several cut, took
    // 10-18% off (20.94 M to 18.79 M, `capture=empty` 9.90 M to 8.11 M; docs/engine.md, Speed).
    const int handed = std::clamp(k.mv.theirs - theirsBefore, 0, 31);
    const int cheap = 63 - std::min(k.work, 63);
    k.order = (k.house == f.ttMove ? std::int64_t{1} << 50 : 0) +
              (k.mv.extra && !k.mv.over ? (std::int64_t{1} << 45) + (std::int64_t{k.house} << 40) : 0) +
              std::int64_t{gain} * (1 << 20) + cheap * 1024 + (k.house == f.hintMove ? 512 : 0) + (31 - handed) * 16 +
              k.house;
  }
  if (bestHi <= f.alpha) {
    table_->store(f.key, -kOpen, bestHi, 0, f.depth, bestHiProven, 1);
    return done(f, bestHi, bestHiProven);
  }
  // Sorted by rank: a move's place is the number of moves whose key is higher (the keys differ: the
  // house is their last term), a fixed set of comparisons without a branch, where an insertion
  // sort branched on every comparison (this and FastBoard::legalMask took 65 M of the 280 M
  // mispredictions callgrind's branch model counts in a Kalah(6,4) solve; docs/engine.md, Speed,
  // "Tried on 2026-12-07"). With other searchers the order grows by the moves put off: a move that
  // another one is searching goes last, by when its value is likely in the table; each is put off
  // once. The first move too: on Kalah(6,4) with the 20-seed table, four fibers on one thread
  // searched 38.6 M nodes with it and 52.7 M without (one alone: 45.8 M). Not at a node expected
  // to end on its first move (Frame::cut), where the moves after it would be searched for
  // nothing: the searchers follow each other into that move, whose node is expected to search all
  // of its own, and spread there (next()). A helper thread's searchers put off nothing at the pass's
  // root either: they follow into the main thread's first move and spread below it, so that no more
  // searchers race over the root's moves on two threads than on one (a pass that fails high needs
  // one of them, and the others' half-searched subtrees are lost): on Kalah(6,4) with the 20-seed
  // table two threads then searched at most 17.0 M nodes in 14 runs (median 16.6 M) where they had
  // searched up to 23.2 M (median 16.9 M; docs/engine.md, Speed, "Tried on 2026-12-07, evening").
  std::int64_t keys[FastBoard::kHouses];
  for (int i = 0; i < FastBoard::kHouses; ++i)
    keys[i] = i < n ? f.kids[i].order : std::numeric_limits<std::int64_t>::min();
  assert(distinct(keys, n));  // else two moves would share a place and one would be lost
  for (int i = 0; i < n; ++i) {
    int rank = 0;
    for (int j = 0; j < FastBoard::kHouses; ++j) rank += keys[j] > keys[i] ? 1 : 0;
    f.order[rank] = i;
    f.putOff[i] = false;
  }
  f.total = n;
  f.i = 0;
  f.before = fiber.nodes;
  f.best = -kOpen;
  f.bestMove = 0;
  f.a = f.alpha;
  f.allProven = true;
  f.cutProven = false;
  return false;
}

// Takes in one move's value; true when it ends the node (a cutoff).
bool Solver::scored(Fiber& fiber, Frame& f, const Kid& k, int v, bool childProven) {
  f.allProven = f.allProven && childProven;
  if (v > f.best) {
    f.best = v;
    f.bestMove = k.house;
    if (v > f.a) {
      f.a = v;
      if (f.ply == 0) fiber.rootBest = k.house;
    }
    if (v >= f.beta) {
      f.cutProven = childProven;
      return true;
    }
  }
  return false;
}

// The next move to search: pushes its frame and returns false, or finishes the node (true).
bool Solver::next(Fiber& fiber, Frame& f) {
  // Whether this node puts off a move another searcher is on (expand()'s comment says when).
  const bool mayPutOff = crumbs_ != nullptr && !f.cut && (f.ply > 0 || !helper_);
  for (; f.i < f.total; ++f.i) {
    const int at = f.order[f.i];
    const Kid& k = f.kids[at];
    if (k.hi <= f.a) {  // cannot raise the best: its known upper bound stands in for its value
      f.best = std::max(f.best, k.hi);
      f.allProven = f.allProven && k.hiProven;
      continue;
    }
    const bool known = k.lo == k.hi && k.loProven && k.hiProven;  // a finished game or a table entry
    if (mayPutOff && !f.putOff[at] && !known && crumbs_->busy(k.key)) {
      f.putOff[at] = true;
      f.order[f.total++] = at;
      continue;
    }
    if (known) {
      if (scored(fiber, f, k, k.lo, true)) return finish(fiber, f);
      continue;
    }
    const int gain = k.mv.gain;
    f.stage = Frame::Stage::Resume;
    Frame& c = push(fiber);  // may move the stack: `f` and `k` are not used after it
    const Frame& parent = fiber.stack[static_cast<std::size_t>(fiber.top - 1)];
    const Kid& kid = parent.kids[at];
    c.p = kid.pos;
    c.left = kid.mv.left;
    // The parent computed the table key of a child above the endgame table (enter()).
    c.key = kid.mv.left > egdbSeeds_ ? kid.key : tableKey(kid.pos);
    c.ply = parent.ply + 1;
    c.depth = childDepth(parent, kid);
    // The node types of a minimal proof: the children of a node that searches all its moves end on
    // a cutoff and the other way round; an extra turn keeps the mover, so its node keeps the type.
    c.cut = kid.mv.extra ? parent.cut : !parent.cut;
    if (kid.mv.extra) {
      c.alpha = parent.a - gain;
      c.beta = parent.beta - gain;
    } else {
      c.alpha = gain - parent.beta;
      c.beta = gain - parent.a;
    }
    return false;
  }
  return finish(fiber, f);
}

int Solver::childDepth(const Frame& f, const Kid& k) const {
  return k.mv.extra && f.ply < run_.rootDepth ? f.depth : f.depth - 1;
}

bool Solver::finish(Fiber& fiber, Frame& f) {
  const bool proven = f.best >= f.beta ? f.cutProven : f.allProven;
  table_->store(f.key, f.best > f.alpha ? f.best : -kOpen, f.best < f.beta ? f.best : kOpen,
                f.best > f.alpha ? f.bestMove : 0, f.depth, proven, fiber.nodes - f.before);
  return done(f, f.best, proven);
}

void Solver::release(Frame& f) {
  if (f.mark != nullptr) f.mark->store(0, std::memory_order_relaxed);
  f.mark = nullptr;
}

Solver::Frame& Solver::push(Fiber& fiber) {
  ++fiber.top;
  if (static_cast<std::size_t>(fiber.top) == fiber.stack.size()) fiber.stack.resize(fiber.stack.size() * 2);
  Frame& c = fiber.stack[static_cast<std::size_t>(fiber.top)];
  c.stage = Frame::Stage::Enter;
  c.mark = nullptr;
  return c;
}

// Runs a fiber until it has started a node's memory accesses (true) or its root is done (false).
bool Solver::advance(Fiber& fiber) {
  for (;;) {
    Frame& f = fiber.stack[static_cast<std::size_t>(fiber.top)];
    bool finished = false;
    switch (f.stage) {
      case Frame::Stage::Enter:
        if (!enter(fiber, f)) {
          f.stage = Frame::Stage::Expand;
          return true;
        }
        finished = true;
        break;
      case Frame::Stage::Expand:
        finished = expand(fiber, f);
        if (!finished) f.stage = Frame::Stage::Next;
        break;
      case Frame::Stage::Next:
        finished = next(fiber, f);
        break;
      case Frame::Stage::Resume: {
        // The child above has just finished.
        const Frame& c = fiber.stack[static_cast<std::size_t>(fiber.top + 1)];
        const Kid& k = f.kids[f.order[f.i]];
        const int v = k.mv.extra ? k.mv.gain + c.value : k.mv.gain - c.value;
        ++f.i;
        f.stage = Frame::Stage::Next;
        if (scored(fiber, f, k, v, c.proven)) {
          finished = finish(fiber, f);
        } else {
          f.cut = false;  // a move that did not cut: the others will be searched too
          finished = next(fiber, f);
        }
        break;
      }
    }
    if (run_.aborted) return false;
    if (finished) {
      release(f);  // no push happened: `f` is still the top frame
      if (fiber.top == 0) return false;
      --fiber.top;
    }
  }
}

void Solver::reset(Fiber& fiber) {
  for (int i = 0; i <= fiber.top; ++i) release(fiber.stack[static_cast<std::size_t>(i)]);
  fiber.top = -1;
  fiber.rootBest = 0;
}

int Solver::search(const FastPos& p, int left, int alpha, int beta, int depth, bool& proven) {
  const Window w{p, left, alpha, beta, depth, run_.rootDepth};
  std::uint64_t id = 0;
  if (pass_ != nullptr) {  // the helper threads take this pass up (help())
    const std::lock_guard lock(pass_->mutex);
    pass_->window = w;
    id = pass_->id.load(std::memory_order_relaxed) + 1;
    pass_->id.store(id, std::memory_order_release);
  }
  int value = 0;
  runPass(w, id, value, proven);
  return value;
}

bool Solver::runPass(const Window& w, std::uint64_t id, int& value, bool& proven) {
  for (Fiber& fiber : fibers_) {
    reset(fiber);
    Frame& root = push(fiber);
    root.p = w.root;
    root.key = tableKey(w.root);
    root.left = w.left;
    root.alpha = w.alpha;
    root.beta = w.beta;
    root.depth = w.depth;
    root.ply = 0;
    root.cut = false;
  }
  auto end = [&](bool done) {
    for (Fiber& f : fibers_) reset(f);
    return done;
  };
  const std::size_t count = fibers_.size();
  for (std::size_t turn = 0;; turn = turn + 1 == count ? 0 : turn + 1) {
    if (id != 0) {
      if (helper_) {
        if (pass_->id.load(std::memory_order_relaxed) != id || pass_->quit.load(std::memory_order_relaxed)) {
          return end(false);
        }
      } else if (pass_->solved.load(std::memory_order_acquire) == id) {  // a helper finished first
        const std::lock_guard lock(pass_->mutex);
        value = pass_->value;
        proven = pass_->proven;
        if (pass_->rootBest != 0) run_.rootBest = pass_->rootBest;
        return end(true);
      }
    }
    Fiber& fiber = fibers_[turn];
    if (advance(fiber)) continue;
    if (run_.aborted) return end(false);
    const Frame& root = fiber.stack[0];
    value = root.value;
    proven = root.proven;
    if (fiber.rootBest != 0) run_.rootBest = fiber.rootBest;
    return end(true);
  }
}

int Solver::mtdf(const FastPos& p, int left, int guess, int depth, bool& proven) {
  return engine::mtdf(guess, proven, run_.aborted,
                      [&](int beta, bool& pr) { return search(p, left, beta - 1, beta, depth, pr); });
}

}  // namespace semis::engine
