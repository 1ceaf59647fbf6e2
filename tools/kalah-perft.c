/* An independent perft for Kalah of any size, written from docs/rules.md (the `kalah` preset and
 * its `capture` option) without reading src/rules: plain int arrays, one seed at a time.
 * It made the golden table tests/rules/data/perft-big.txt; the CTest rules.perft_big checks
 * `semis perft` against that table.
 *
 *   cc -O2 -o /tmp/kalah-perft tools/kalah-perft.c
 *   /tmp/kalah-perft HOUSES SEEDS DEPTH [standard|empty|none]   prints the leaf count
 *
 * Perft counts the positions after exactly DEPTH sowings (an extra turn is a sowing of its own);
 * a game that ends earlier counts nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_HOUSES = 12 };
enum { CAPTURE_NONE, CAPTURE_STANDARD, CAPTURE_EMPTY };

static int n;        /* houses per side */
static int capture;  /* CAPTURE_* */

/* The board, in sowing order: a[0..n-1] South's houses, a[n] South's store,
 * a[n+1..2n] North's houses, a[2n+1] North's store. */
typedef struct {
  int a[2 * MAX_HOUSES + 2];
  int mover; /* 0 South, 1 North */
  int over;
} Pos;

static int storeOf(int side) { return side == 0 ? n : 2 * n + 1; }
static int firstHouse(int side) { return side == 0 ? 0 : n + 1; }

static int rowSum(const Pos *p, int side) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p->a[firstHouse(side) + i];
  return s;
}

/* Sows house h (0-based in the mover's row) and settles captures, the turn and the end. */
static void play(Pos *p, int h) {
  const int me = p->mover;
  const int ring = 2 * n + 2;
  int pit = firstHouse(me) + h;
  int seeds = p->a[pit];
  p->a[pit] = 0;
  while (seeds > 0) {
    pit = (pit + 1) % ring;
    if (pit == storeOf(1 - me)) continue; /* the opponent's store is skipped */
    p->a[pit]++;
    seeds--;
  }
  int again = 0;
  if (pit == storeOf(me)) {
    again = 1;
  } else if (pit >= firstHouse(me) && pit < firstHouse(me) + n && p->a[pit] == 1) {
    /* The last seed fell into an own house that was empty. Opposite of pit i is 2n - i. */
    const int opp = 2 * n - pit;
    if (capture == CAPTURE_EMPTY || (capture == CAPTURE_STANDARD && p->a[opp] > 0)) {
      p->a[storeOf(me)] += p->a[opp] + 1;
      p->a[opp] = 0;
      p->a[pit] = 0;
    }
  }
  p->mover = again ? me : 1 - me;
  /* end=immediate: either row empty ends the game; each owner keeps his row's seeds. */
  if (rowSum(p, 0) == 0 || rowSum(p, 1) == 0) {
    for (int side = 0; side < 2; side++) {
      for (int i = 0; i < n; i++) {
        p->a[storeOf(side)] += p->a[firstHouse(side) + i];
        p->a[firstHouse(side) + i] = 0;
      }
    }
    p->over = 1;
  }
}

static unsigned long long perft(const Pos *p, int depth) {
  if (p->over) return 0;
  if (depth == 0) return 1;
  unsigned long long leaves = 0;
  for (int h = 0; h < n; h++) {
    if (p->a[firstHouse(p->mover) + h] == 0) continue;
    if (depth == 1) {
      leaves++;
      continue;
    }
    Pos child = *p;
    play(&child, h);
    leaves += perft(&child, depth - 1);
  }
  return leaves;
}

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: kalah-perft HOUSES SEEDS DEPTH [standard|empty|none]\n");
    return 2;
  }
  n = atoi(argv[1]);
  const int seeds = atoi(argv[2]);
  const int depth = atoi(argv[3]);
  capture = CAPTURE_STANDARD;
  if (argc == 5) {
    if (strcmp(argv[4], "empty") == 0) capture = CAPTURE_EMPTY;
    else if (strcmp(argv[4], "none") == 0) capture = CAPTURE_NONE;
    else if (strcmp(argv[4], "standard") != 0) {
      fprintf(stderr, "capture must be standard, empty or none\n");
      return 2;
    }
  }
  if (n < 1 || n > MAX_HOUSES || seeds < 1 || seeds > 12 || depth < 1 || depth > 40) {
    fprintf(stderr, "HOUSES 1..12, SEEDS 1..12, DEPTH 1..40\n");
    return 2;
  }
  Pos start;
  memset(&start, 0, sizeof start);
  for (int side = 0; side < 2; side++)
    for (int i = 0; i < n; i++) start.a[firstHouse(side) + i] = seeds;
  printf("%llu\n", perft(&start, depth));
  return 0;
}
