// What a random read of a big table costs on this machine, the figure the solver's speed rests on
// (docs/engine.md, Speed, "late morning" of 2026-12-07): a read whose address depends on the one
// before (a pointer chase: the full latency), and reads started by prefetches six at a time, as
// the solver starts its children's (their cost each: how many the machine keeps in flight).
// bench/machine-facts prints its line, so that a benchmark's figures can be read against the
// machine's memory that day.
//   cc -O2 -o memory-reads bench/memory-reads.c && ./memory-reads [MB]    (default 128 MB)
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile uint64_t sink;
static uint64_t state = 88172645463325252ULL;
static uint64_t next(void) {  // xorshift64: the addresses, not predictable by the hardware
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int main(int argc, char** argv) {
  const size_t megabytes = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 128;
  if (megabytes < 1 || megabytes > 65536) {
    fprintf(stderr, "memory-reads: MB takes 1..65536\n");
    return 2;
  }
  const size_t bytes = megabytes << 20;
  const size_t lines = bytes / 64;
  uint64_t* table = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (table == MAP_FAILED) {
    fprintf(stderr, "memory-reads: no %zu MB\n", megabytes);
    return 1;
  }
  madvise(table, bytes, MADV_HUGEPAGE);  // as the solver's tables (engine/HugeBuffer.hpp)

  // One cycle through every line in random order (Sattolo's shuffle), each line's first word the
  // index of the next.
  uint32_t* order = malloc(lines * sizeof *order);
  if (order == NULL) return 1;
  for (size_t i = 0; i < lines; ++i) order[i] = (uint32_t)i;
  for (size_t i = lines - 1; i > 0; --i) {
    const size_t j = next() % i;
    const uint32_t t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (size_t i = 0; i < lines; ++i) table[(size_t)order[i] * 8] = (uint64_t)order[(i + 1) % lines] * 8;
  free(order);

  const long chase = 4000000;
  size_t at = 0;
  double t0 = now();
  for (long i = 0; i < chase; ++i) at = table[at];
  const double dependent = (now() - t0) * 1e9 / (double)chase;

  enum { kBatch = 6 };
  const long batches = 1000000;
  uint64_t sum = at;
  t0 = now();
  for (long i = 0; i < batches; ++i) {
    size_t idx[kBatch];
    for (int b = 0; b < kBatch; ++b) {
      idx[b] = (next() % lines) * 8;
      __builtin_prefetch(&table[idx[b]]);
    }
    for (int b = 0; b < kBatch; ++b) sum += table[idx[b]];
  }
  const double prefetched = (now() - t0) * 1e9 / (double)(batches * kBatch);

  sink = sum;  // the reads' values used, so that the compiler keeps them
  printf("memory: %zu MB, a dependent read %.0f ns, prefetched six at a time %.0f ns each\n", megabytes, dependent,
         prefetched);
  munmap(table, bytes);
  return 0;
}
