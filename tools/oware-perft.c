/* An independent perft for Awalé (oware abapa, the `awale` preset), written from docs/rules.md
 * without reading src/rules: a 12-int board, one seed at a time. It confirmed the awale rows of
 * tests/rules/data/perft.txt (PerftTest checks `semis` against them).
 *
 *   cc -O2 -o /tmp/oware-perft tools/oware-perft.c
 *   /tmp/oware-perft DEPTH [nothing|all|illegal|opponent] [seeds=N] [feeding=false]
 *
 * prints the leaf count from the start: the grand_slam mode, N seeds a house (the preset's `seeds`,
 * 4 by default; few seeds reach grand slams and starved rows within a few plies, so the variants'
 * counts differ), and `feeding=false` (no obligation to feed; a player with no seeds on his turn
 * ends the game, each row to its owner). The awale rows of tests/rules/data/perft.txt name the same
 * options: `awale,seeds=2,grand_slam=illegal` is `oware-perft D illegal seeds=2`.
 *
 * Perft counts the positions after exactly DEPTH sowings; a game that ends earlier counts nothing.
 * The repetition rule needs a game's history and is not part of perft. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NOTHING, ALL, ILLEGAL, OPPONENT };
static int slamMode = NOTHING;
static int feeding = 1;

/* a[0..5] South's houses 1..6, a[6..11] North's houses 1..6, counter-clockwise: index + 1. */
typedef struct {
  int a[12];
  int got[2]; /* seeds captured by South, North */
  int mover;  /* 0 South, 1 North */
  int over;
} Pos;

static int rowOf(int i) { return i < 6 ? 0 : 1; }
static int rowSum(const Pos *p, int side) {
  int s = 0;
  for (int i = 0; i < 6; i++) s += p->a[6 * side + i];
  return s;
}

/* Sows house h (0..5) of the mover and takes the captures; returns 1 when it was a grand slam. */
static int sowAndTake(Pos *p, int h) {
  const int me = p->mover, from = 6 * me + h;
  const int theirsBefore = rowSum(p, 1 - me); /* a grand slam empties a row that had seeds */
  int seeds = p->a[from], at = from;
  p->a[from] = 0;
  while (seeds > 0) {
    at = (at + 1) % 12;
    if (at == from) continue; /* laps of 12 or more skip the emptied house */
    p->a[at]++;
    seeds--;
  }
  if (rowOf(at) == me) return 0;
  /* From the last house backwards along the opponent's row, while houses hold 2 or 3. */
  int first = at, take = 0;
  while (rowOf(first) != me && (p->a[first] == 2 || p->a[first] == 3)) {
    take += p->a[first];
    if (first % 6 == 0) { first--; break; }
    first--;
  }
  if (take == 0) return 0;
  const int slam = theirsBefore > 0 && take == rowSum(p, 1 - me);
  if (slam && slamMode == NOTHING) return 1;
  for (int i = at; i > first; i--) p->a[i] = 0;
  p->got[me] += take;
  return slam;
}

/* A move feeds a starved opponent when he has seeds after it, its captures included. */
static int sowAndTake(Pos *p, int h);
static int feeds(const Pos *p, int h) {
  Pos q = *p;
  sowAndTake(&q, h);
  return rowSum(&q, 1 - p->mover) > 0;
}

static int isSlam(const Pos *p, int h) {
  Pos q = *p;
  return sowAndTake(&q, h);
}

/* Legal houses of the player to move, as a bit mask. */
static int legal(const Pos *p) {
  if (p->over) return 0;
  const int starved = feeding && rowSum(p, 1 - p->mover) == 0;
  int mask = 0;
  for (int h = 0; h < 6; h++) {
    if (p->a[6 * p->mover + h] == 0) continue;
    if (starved && !feeds(p, h)) continue;
    if (slamMode == ILLEGAL && isSlam(p, h)) continue;
    mask |= 1 << h;
  }
  return mask;
}

static void endToOwners(Pos *p) {
  for (int i = 0; i < 12; i++) {
    p->got[rowOf(i)] += p->a[i];
    p->a[i] = 0;
  }
  p->over = 1;
}

static void play(Pos *p, int h) {
  const int me = p->mover;
  const int slam = sowAndTake(p, h);
  p->mover = 1 - me;
  if (slam && slamMode == OPPONENT) { /* the opponent takes every seed left */
    for (int i = 0; i < 12; i++) {
      p->got[1 - me] += p->a[i];
      p->a[i] = 0;
    }
    p->over = 1;
    return;
  }
  if (p->got[0] >= 25 || p->got[1] >= 25) { /* more than 24: the game ends, seeds stay */
    p->over = 1;
    return;
  }
  /* The player to move cannot move (no seeds, cannot feed, only grand slams): each row to its owner. */
  if (legal(p) == 0) endToOwners(p);
}

static unsigned long long perft(const Pos *p, int depth) {
  const int mask = legal(p);
  if (depth == 0) return 1;
  unsigned long long n = 0;
  for (int h = 0; h < 6; h++) {
    if (!(mask >> h & 1)) continue;
    Pos q = *p;
    play(&q, h);
    n += perft(&q, depth - 1);
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DEPTH [nothing|all|illegal|opponent] [seeds=N] [feeding=false]\n", argv[0]);
    return 2;
  }
  const char *modes[] = {"nothing", "all", "illegal", "opponent"};
  int seeds = 4;
  for (int k = 2; k < argc; k++) {
    int known = 0;
    for (int i = 0; i < 4; i++)
      if (strcmp(argv[k], modes[i]) == 0) slamMode = i, known = 1;
    if (strncmp(argv[k], "seeds=", 6) == 0) seeds = atoi(argv[k] + 6), known = seeds >= 1 && seeds <= 8;
    if (strcmp(argv[k], "feeding=false") == 0) feeding = 0, known = 1;
    if (!known) {
      fprintf(stderr, "unknown option '%s'\n", argv[k]);
      return 2;
    }
  }
  Pos start;
  memset(&start, 0, sizeof start);
  for (int i = 0; i < 12; i++) start.a[i] = seeds;
  printf("%llu\n", perft(&start, atoi(argv[1])));
  return 0;
}
