#include "engine/Egdb.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/FastBoard.hpp"

namespace semis::engine {
namespace {

constexpr char kMagic[8] = {'S', 'E', 'M', 'E', 'G', 'D', 'B', '1'};
constexpr int kInProgress = -127;  // only while building: the position is being solved (a cycle)

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t maxSeeds;
  std::uint32_t houses;
  std::uint32_t reserved;
  std::uint64_t count;
  char rules[224];
};
static_assert(sizeof(Header) == 256);

// The house count, 1..kMaxHouses (applies() checks it before a table exists), said again where a
// loop fills an array of 2 * kMaxHouses: without both bounds GCC 12 warns, wrongly, that its
// vectorised copy writes past the array (-Wstringop-overflow).
constexpr int bounded(int houses) { return std::clamp(houses, 1, kMaxHouses); }

}  // namespace

bool egdbBuildFast(Egdb& db, const Rules& rules, int threads);  // EgdbBuilder.cpp

struct Egdb::Mapping {
  void* addr = nullptr;
  std::size_t length = 0;
  ~Mapping() {
    if (addr != nullptr) munmap(addr, length);
  }
};

Egdb::Egdb(Egdb&&) noexcept = default;
Egdb& Egdb::operator=(Egdb&&) noexcept = default;
Egdb::~Egdb() = default;

bool Egdb::applies(const Rules& rules) { return rules.houses >= 1 && rules.houses <= kMaxHouses; }

bool Egdb::housesOnly(const Rules& rules) { return rules.winAt == 0 || rules.winAt > rules.totalSeeds(); }

namespace {

// The rules as a table sees them (Egdb::serves).
Rules tableView(Rules r) {
  r.preset = Preset::Kalah;
  r.sets = 1;
  r.alternateFirst = true;
  r.pie = false;
  r.first = FirstPlayer::South;
  r.idleLimit = 0;
  r.repetitions = 0;
  r.split = SplitRule::Equal;
  // Traditional rounds refill the houses with `seeds` a house: keep it there.
  if (Egdb::housesOnly(r) && r.rounds == Rounds::Single) {
    r.seeds = 0;
    r.winAt = 0;
  }
  return r;
}

}  // namespace

bool Egdb::serves(const Rules& rules) const { return tableView(rules_) == tableView(rules); }

std::vector<std::string> Egdb::differences(const Rules& rules) const {
  const Rules table = tableView(rules_);
  const Rules asked = tableView(rules);
  std::vector<std::string> out;
  for (const OptionInfo& option : optionInfos()) {
    const std::string mine = optionValue(table, option.name);
    const std::string theirs = optionValue(asked, option.name);
    if (mine != theirs) out.push_back(option.name + ": " + mine + " in the table, " + theirs + " here");
  }
  return out;
}

bool Egdb::retrograde(const Rules& rules) {
  // The depth-first builder needs every same-level move to carry seeds towards the mover's store
  // (stores on the ring and sown) and a position made of its houses alone.
  return !rules.stores || !rules.sowOwnStore || rules.castle || rules.feeding || !housesOnly(rules);
}

void Egdb::storeBand(int seeds, int& lo, int& hi) const {
  if (winAt_ == 0) {
    lo = hi = 0;
    return;
  }
  // Both stores below the threshold, and they hold every seed taken: total - seeds.
  const int taken = total_ - seeds;
  lo = std::max(0, taken - (winAt_ - 1));
  hi = std::min(winAt_ - 1, taken);
}

int Egdb::storeBlocks(int seeds) const {
  int lo = 0;
  int hi = 0;
  storeBand(seeds, lo, hi);
  return std::max(0, hi - lo + 1);
}

void Egdb::layout() {
  const int m = 2 * houses_;
  const int top = maxSeeds_ + m + 1;
  // One flat row of m+1 coefficients per n: rank() reads one of them per house.
  const auto stride = static_cast<std::size_t>(m + 1);
  binom_.assign(static_cast<std::size_t>(top + 1) * stride, 0);
  auto c = [&](int n, int k) -> std::uint64_t& {
    return binom_[static_cast<std::size_t>(n) * stride + static_cast<std::size_t>(k)];
  };
  for (int n = 0; n <= top; ++n) {
    c(n, 0) = 1;
    for (int k = 1; k <= std::min(n, m); ++k) c(n, k) = c(n - 1, k - 1) + (k <= n - 1 ? c(n - 1, k) : 0);
  }
  // index()'s terms: eight rows for the mover's houses, eight for the opponent's, the rows past
  // the board's houses zero (so it sums a fixed number of terms, unrolled).
  const auto seedsStride = static_cast<std::size_t>(maxSeeds_ + 1);
  prefixBinom_.assign(16 * seedsStride, 0);
  if (houses_ <= 8) {
    for (int j = 0; j + 1 < m; ++j) {
      const int row = j < houses_ ? j : 8 + j - houses_;
      for (int p = 0; p <= maxSeeds_; ++p)
        prefixBinom_[static_cast<std::size_t>(row) * seedsStride + static_cast<std::size_t>(p)] = c(j + p, j + 1);
    }
  }
  castleBlocks_ = rules_.castle ? houses_ * houses_ : 1;
  total_ = rules_.totalSeeds();
  winAt_ = housesOnly(rules_) ? 0 : rules_.winAt;
  levelOffset_.assign(static_cast<std::size_t>(maxSeeds_ + 2), 0);
  levelSize_.assign(static_cast<std::size_t>(maxSeeds_ + 1), 0);
  for (int s = 0; s <= maxSeeds_; ++s) {
    levelSize_[s] = c(s + m - 1, m - 1);
    const auto blocks = static_cast<std::uint64_t>(castleBlocks_) * static_cast<std::uint64_t>(storeBlocks(s));
    levelOffset_[s + 1] = levelOffset_[s] + blocks * levelSize_[s];
  }
  count_ = levelOffset_[static_cast<std::size_t>(maxSeeds_ + 1)];
}

std::uint64_t Egdb::rank(const std::uint8_t* houses, int seeds) const {
  // Colex rank of the bar positions b_j = j + (seeds in houses 0..j), j < m-1.
  const int m = 2 * houses_;
  std::uint64_t r = 0;
  int prefix = 0;
  for (int j = 0; j < m - 1; ++j) {
    prefix += houses[j];
    r += binom_[static_cast<std::size_t>((j + prefix) * (m + 1) + j + 1)];
  }
  return levelOffset_[static_cast<std::size_t>(seeds)] + r;
}

std::uint64_t Egdb::indexOf(const Position& pos) const {
  if (pos.over) return kNoIndex;
  std::uint8_t h[2 * kMaxHouses];
  const int n = bounded(houses_);
  const int me = static_cast<int>(pos.toMove);
  const int own = me == 0 ? 0 : n + 1;
  const int opp = me == 0 ? n + 1 : 0;
  int seeds = 0;
  for (int i = 0; i < n; ++i) {
    // Summed before narrowing: a pit of a big board may hold more than a byte (kMaxTotalSeeds).
    seeds += pos.pits[static_cast<std::size_t>(own + i)] + pos.pits[static_cast<std::size_t>(opp + i)];
    h[i] = static_cast<std::uint8_t>(pos.pits[static_cast<std::size_t>(own + i)]);
    h[n + i] = static_cast<std::uint8_t>(pos.pits[static_cast<std::size_t>(opp + i)]);
  }
  if (seeds > maxSeeds_) return kNoIndex;
  std::uint64_t block = 0;
  if (rules_.castle) {
    // Each castle as its house number on the row it stands on (0: none); house N is never one.
    auto house = [&](int side) {
      const int pit = pos.castle[static_cast<std::size_t>(side)];
      return pit == kNoCastle ? 0 : pit < n ? pit + 1 : pit - n;
    };
    const int mine = house(me);
    const int theirs = house(1 - me);
    if (mine >= n || theirs >= n) return kNoIndex;
    block = static_cast<std::uint64_t>(mine * n + theirs);
  }
  if (winAt_ != 0) {
    int lo = 0;
    int hi = 0;
    storeBand(seeds, lo, hi);
    const int a = pos.pits[static_cast<std::size_t>(me == 0 ? n : 2 * n + 1)];
    if (a < lo || a > hi) return kNoIndex;
    block = block * static_cast<std::uint64_t>(hi - lo + 1) + static_cast<std::uint64_t>(a - lo);
  }
  return rank(h, seeds) + block * levelSize_[static_cast<std::size_t>(seeds)];
}

int Egdb::probe(const Board& board, const Position& pos) const {
  (void)board;
  const std::uint64_t i = indexOf(pos);
  return i == kNoIndex ? kUnknown : data_[i];
}

int Egdb::solveAt(const Board& board, const Position& pos, int seeds, int depth) {
  const std::uint64_t idx = [&] {
    std::uint8_t h[2 * kMaxHouses];
    const int n = bounded(houses_);
    for (int i = 0; i < n; ++i) {
      h[i] = pos.pits[static_cast<std::size_t>(i)];
      h[n + i] = pos.pits[static_cast<std::size_t>(n + 1 + i)];
    }
    return rank(h, seeds);
  }();
  const int known = owned()[idx];
  if (known == kInProgress || depth > 4096) return kInProgress;
  if (known != kUnknown) return known;
  owned()[idx] = static_cast<std::int8_t>(kInProgress);
  int best = -1000;
  const int south = board.storePit(Side::South);
  const int north = board.storePit(Side::North);
  for (std::uint32_t m = board.legalMask(pos); m != 0; m &= m - 1) {
    Position child = pos;
    board.apply(child, std::countr_zero(m) + 1);
    const int gained = child.pits[static_cast<std::size_t>(south)] - child.pits[static_cast<std::size_t>(north)];
    int v;
    if (child.over) {
      v = gained;
    } else {
      // Normalise: the player to move becomes South, stores emptied.
      Position norm;
      const bool mirror = child.toMove == Side::North;
      const int n = bounded(houses_);
      for (int i = 0; i < n; ++i) {
        norm.pits[static_cast<std::size_t>(i)] = child.pits[static_cast<std::size_t>((mirror ? n + 1 : 0) + i)];
        norm.pits[static_cast<std::size_t>(n + 1 + i)] = child.pits[static_cast<std::size_t>((mirror ? 0 : n + 1) + i)];
      }
      const int left =
          seeds - child.pits[static_cast<std::size_t>(south)] - child.pits[static_cast<std::size_t>(north)];
      const int w = solveAt(board, norm, left, depth + 1);
      if (w == kInProgress) {
        owned()[idx] = static_cast<std::int8_t>(kUnknown);
        return kInProgress;
      }
      v = gained + (mirror ? -w : w);
    }
    best = std::max(best, v);
  }
  if (best == -1000) best = 0;
  owned()[idx] = static_cast<std::int8_t>(best);
  return best;
}

Result<Egdb> Egdb::build(const Rules& rules, int maxSeeds, int threads) {
  if (!applies(rules)) return fail("no endgame table for " + toString(rules));
  if (maxSeeds < 1 || maxSeeds > kMaxSeedsLimit) return fail("--seeds K takes 1.." + std::to_string(kMaxSeedsLimit));
  Egdb db;
  db.rules_ = rules;
  db.maxSeeds_ = maxSeeds;
  db.houses_ = rules.houses;
  db.layout();
  db.memory_ = HugeBuffer(db.count_);
  std::memset(db.owned(), kUnknown, db.count_);
  if (FastBoard::supports(rules)) {
    if (!egdbBuildFast(db, rules, threads)) return fail("a cycle among the positions: no table for these rules");
    db.data_ = db.owned();
    return db;
  }
  const Board board(rules);
  if (retrograde(rules)) {
    if (auto built = db.buildRetrograde(board); !built) return fail(built.error().message);
    db.data_ = db.owned();
    return db;
  }
  const int m = 2 * db.houses_;
  const int n = db.houses_;
  // Every distribution of s seeds, level by level: the moves of a level only reach lower levels or
  // (seeds moving within the mover's row) its own, which solveAt follows depth-first.
  std::uint8_t h[2 * kMaxHouses] = {};
  bool cycle = false;
  auto handle = [&](int s) {
    Position pos;
    bool southEmpty = true;
    bool northEmpty = true;
    for (int i = 0; i < n; ++i) {
      pos.pits[static_cast<std::size_t>(i)] = h[i];
      pos.pits[static_cast<std::size_t>(n + 1 + i)] = h[n + i];
      southEmpty = southEmpty && h[i] == 0;
      northEmpty = northEmpty && h[n + i] == 0;
    }
    // Positions the rules never reach with South to move (his row empty) keep kUnknown.
    if (southEmpty || (rules.end == EndRule::Immediate && northEmpty)) return true;
    if (db.solveAt(board, pos, s, 0) == kInProgress) cycle = true;
    return !cycle;
  };
  auto visit = [&](auto&& self, int i, int rem, int s) -> bool {
    if (i == m - 1) {
      h[i] = static_cast<std::uint8_t>(rem);
      return handle(s);
    }
    for (int c = 0; c <= rem; ++c) {
      h[i] = static_cast<std::uint8_t>(c);
      if (!self(self, i + 1, rem - c, s)) return false;
    }
    return true;
  };
  for (int s = 1; s <= maxSeeds; ++s) {
    if (!visit(visit, 0, s, s)) return fail("a cycle among the positions: no table for these rules");
  }
  db.data_ = db.owned();
  return db;
}

Result<void> Egdb::save(const std::string& path) const {
  Header hd{};
  std::memcpy(hd.magic, kMagic, sizeof kMagic);
  hd.version = 1;
  hd.maxSeeds = static_cast<std::uint32_t>(maxSeeds_);
  hd.houses = static_cast<std::uint32_t>(houses_);
  hd.count = count_;
  const std::string r = toString(rules_);
  if (r.size() >= sizeof hd.rules) return fail("rules string too long for the table header");
  std::memcpy(hd.rules, r.data(), r.size());
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return fail("cannot write " + path + ": " + std::strerror(errno));
  bool ok = std::fwrite(&hd, sizeof hd, 1, f) == 1 &&
            std::fwrite(data_, 1, static_cast<std::size_t>(count_), f) == static_cast<std::size_t>(count_);
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return fail("writing " + path + " failed");
  return {};
}

namespace {

// Asks for the mapping on 2 MB pages and faults every page in now, so that the search's random
// probes neither walk 4 KB page tables nor take the faults. The file's pages stay the page
// cache's: no private copy, so nothing is allocated and zeroed (this VM backs fresh memory slowly,
// up to 1.5 s of system time for a copy of the 20-seed table) and processes still share them.
// Whether 2 MB pages come depends on the file system keeping large folios in the page cache
// (ext4 on this machine's Linux 6.18: 174 of the 20-seed table's 215 MiB after a cold read, where
// the copy had all of them); both calls are advice.
void makeResident(void* addr, std::size_t length) {
#if defined(MADV_HUGEPAGE)
  madvise(addr, length, MADV_HUGEPAGE);
#endif
#if defined(MADV_POPULATE_READ)
  // Any other failure (a file cut short under the mapping) is left to the probes to meet.
  if (madvise(addr, length, MADV_POPULATE_READ) == 0 || errno != EINVAL) return;
#endif
  // Kernels before 5.14 do not know the advice: a read of every page.
  const volatile char* p = static_cast<const char*>(addr);
  for (std::size_t i = 0; i < length; i += 4096) (void)p[i];
}

}  // namespace

Result<Egdb> Egdb::open(const std::string& path, Access access) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return fail("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Header))) {
    ::close(fd);
    return fail(path + " is not an endgame table (too short)");
  }
  const auto length = static_cast<std::size_t>(st.st_size);
  void* addr = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (addr == MAP_FAILED) return fail("cannot map " + path);
  auto mapping = std::make_unique<Mapping>();
  mapping->addr = addr;
  mapping->length = length;
  Header hd{};
  std::memcpy(&hd, addr, sizeof hd);
  if (std::memcmp(hd.magic, kMagic, sizeof kMagic) != 0 || hd.version != 1)
    return fail(path + " is not a Semis endgame table");
  hd.rules[sizeof hd.rules - 1] = '\0';
  auto rules = parseRules(hd.rules);
  if (!rules) return fail(path + ": bad rules in header: " + rules.error().message);
  if (!applies(*rules) || hd.maxSeeds < 1 || hd.maxSeeds > kMaxSeedsLimit ||
      static_cast<int>(hd.houses) != rules->houses) {
    return fail(path + ": inconsistent header");
  }
  Egdb db;
  db.rules_ = *rules;
  db.maxSeeds_ = static_cast<int>(hd.maxSeeds);
  db.houses_ = rules->houses;
  db.layout();
  if (db.count_ != hd.count || length != sizeof(Header) + db.count_)
    return fail(path + ": size does not match its header");
  db.data_ = static_cast<const std::int8_t*>(addr) + sizeof(Header);
  if (access == Access::Resident) makeResident(addr, length);
  db.mapping_ = std::move(mapping);
  return db;
}

}  // namespace semis::engine
