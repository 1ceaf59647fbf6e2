/* A plain perft for Kalah(6,S) in C: the baseline `semis perft --rules kalah` is measured against
 * (tools/bench-peers). One 14-byte array, one sowing loop, nothing clever beyond counting the
 * last ply's moves without playing them (as `semis perft` does).
 *
 * Rules (Semis' `kalah` preset): pits 0-5 South's houses, 6 South's store, 7-12 North's houses,
 * 13 North's store; sowing skips the opponent's store; the last seed in the own store plays again;
 * in an own empty house it takes itself and the opposite house if that holds seeds; the game ends
 * as soon as a row is empty. Perft counts positions after exactly D sowings; a finished game
 * counts nothing before that depth.
 *
 *   cc -O3 -march=native -o kalah-perft bench/kalah-perft.c && ./kalah-perft 10 4
 *   -> perft 10: 13519607 ...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  uint8_t pit[14];
  uint8_t south; /* 1: South to move */
} Pos;

static int moves(const Pos* p) {
  const int base = p->south ? 0 : 7;
  int n = 0;
  for (int i = 0; i < 6; ++i) n += p->pit[base + i] != 0;
  return n;
}

static int rowEmpty(const Pos* p, int base) {
  for (int i = 0; i < 6; ++i)
    if (p->pit[base + i]) return 0;
  return 1;
}

/* Plays pit `from`; returns 1 when the game ended. */
static int play(Pos* p, int from) {
  const int store = p->south ? 6 : 13;
  const int skip = p->south ? 13 : 6;
  int seeds = p->pit[from];
  int at = from;
  p->pit[from] = 0;
  while (seeds > 0) {
    at = at == 13 ? 0 : at + 1;
    if (at == skip) continue;
    ++p->pit[at];
    --seeds;
  }
  const int own = p->south ? at < 6 : at > 6 && at < 13;
  if (own && p->pit[at] == 1 && p->pit[12 - at] != 0) {
    p->pit[store] += 1 + p->pit[12 - at];
    p->pit[at] = 0;
    p->pit[12 - at] = 0;
  }
  if (rowEmpty(p, 0) || rowEmpty(p, 7)) {
    for (int i = 0; i < 6; ++i) {
      p->pit[6] += p->pit[i];
      p->pit[13] += p->pit[7 + i];
      p->pit[i] = p->pit[7 + i] = 0;
    }
    return 1;
  }
  if (at != store) p->south ^= 1;
  return 0;
}

static uint64_t perft(const Pos* p, int depth) {
  if (depth == 1) return (uint64_t)moves(p);
  const int base = p->south ? 0 : 7;
  uint64_t leaves = 0;
  for (int i = 0; i < 6; ++i) {
    if (!p->pit[base + i]) continue;
    Pos child = *p;
    if (!play(&child, base + i)) leaves += perft(&child, depth - 1);
  }
  return leaves;
}

int main(int argc, char** argv) {
  const int depth = argc > 1 ? atoi(argv[1]) : 10;
  const int seeds = argc > 2 ? atoi(argv[2]) : 4;
  if (depth < 1 || depth > 40 || seeds < 1 || seeds > 10) {
    fprintf(stderr, "usage: kalah-perft [DEPTH 1..40] [SEEDS 1..10]\n");
    return 2;
  }
  Pos start = {{0}, 1};
  for (int i = 0; i < 6; ++i) start.pit[i] = start.pit[7 + i] = (uint8_t)seeds;
  const clock_t c0 = clock();
  const uint64_t n = perft(&start, depth);
  const double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
  printf("perft %d: %llu\ncpu %.3f s, %.1f million leaves per cpu second\n", depth, (unsigned long long)n, cpu,
         cpu > 0 ? (double)n / cpu / 1e6 : 0.0);
  return 0;
}
