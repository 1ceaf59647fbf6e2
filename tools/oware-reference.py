#!/usr/bin/env python3
"""Random Oware games played by an outside engine, StoneShark/MancalaGames (Python, GPL-3.0), as a
reference for the rules core's `awale` preset and its variants (docs/rules.md, "awale").

    git --git-dir=<mirror of StoneShark/MancalaGames> archive HEAD | tar -x -C /tmp/mg
    tools/oware-reference.py /tmp/mg GAMES SEED > tests/rules/data/awale-reference.txt

Nothing of MancalaGames is copied: it is imported from the given directory, and this script only
writes what it played. For each game it picks moves at random among the reference's legal moves and
writes one line: `rules moves masks final`, where `moves` are the houses played (1..6 of the mover),
`masks` the reference's legal houses before each move (two hex digits, bit h-1 for house h) and
`final` the board after the last move in Semis's position fields (south/north/captured/side or -).
tests/rules/ReferenceTest.cpp replays every line in the engine and checks each mask and the end."""

import os
import random
import sys

# The reference's settings for each Semis rule set (game_info keys of MancalaGames' Oware.txt).
VARIANTS = {
    'awale': {},
    'awale,grand_slam=all': {'grandslam': 0},
    'awale,grand_slam=illegal': {'grandslam': 1},
    'awale,grand_slam=opponent': {'grandslam': 3},
    'awale,chain_values=1+2+3': {'capt_on': [1, 2, 3]},
    'awale,chain_values=2+3+4': {'capt_on': [2, 3, 4]},
    'awale,feeding=false': {'mustshare': False},
}
MAX_PLIES = 400  # the reference has no repetition rule: a game still going then is cut there


def load(root):
    sys.path.insert(0, os.path.join(root, 'src'))
    os.chdir(root)  # its modules read GameProps/ and other files relative to the working folder
    import man_config  # noqa: E402  (the reference, imported from the given directory)
    import man_path  # noqa: E402
    from game_logger import game_log  # noqa: E402
    game_log.active = False
    return man_config, man_path


def board_fields(game, over):
    # MancalaGames: board[0..5] is South's row in sowing order (Semis s1..s6), board[6..11] North's
    # (n1..n6); store[0] South's captures, store[1] North's; turn False is South.
    south = ','.join(str(game.board[i]) for i in range(6))
    north = ','.join(str(game.board[i]) for i in range(6, 12))
    side = '-' if over else ('N' if game.turn else 'S')
    return f'{south}/{north}/{game.store[0]},{game.store[1]}/{side}'


def play(man_config, man_path, rules, settings, rng):
    game_dict = man_config.read_game(man_path.GAMEPATH + 'Oware.txt')
    for key, value in settings.items():
        game_dict['game_info'][key] = value
    game = man_config.game_from_config(game_dict)
    game.turn = False  # South starts, as in Semis
    moves, masks = [], []
    over = False
    for _ in range(MAX_PLIES):
        allow = game.get_allowable_holes()
        # The reference's move positions run left to right as the mover sees the board: South's
        # position p is his house p+1, North's position p is his house 6-p.
        houses = [(p + 1 if not game.turn else 6 - p) for p, ok in enumerate(allow) if ok]
        if not houses:
            over = True  # should not happen: the reference ends such games itself
            break
        mask = 0
        for h in houses:
            mask |= 1 << (h - 1)
        house = rng.choice(houses)
        pos = house - 1 if not game.turn else 6 - house
        masks.append(f'{mask:02x}')
        moves.append(str(house))
        cond = game.move(pos)
        if cond is not None and cond.is_ended():
            over = True
            break
    final = board_fields(game, over)
    if over and 'Too few seeds' in str(getattr(game.mdata, 'end_msg', '')):
        # The reference's own adjudication (NoOutcomeChange, without feeding): fewer seeds left than
        # any capture needs, so it ends the game and gives them to their owner. Not a rule of oware:
        # Semis plays on (the seeds go to their owner all the same once a player cannot move), so the
        # line says so and the test checks only the captured totals, seeds on each row counted in.
        final = 'few:' + final
    return f'{rules} {"".join(moves)} {"".join(masks)} {final}'


def main():
    root, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    man_config, man_path = load(os.path.abspath(root))
    rng = random.Random(seed)
    print(f'# {games} random games per rule set, seed {seed}, from StoneShark/MancalaGames; '
          'written by tools/oware-reference.py')
    for rules, settings in VARIANTS.items():
        for _ in range(games):
            print(play(man_config, man_path, rules, settings, rng))


if __name__ == '__main__':
    main()
