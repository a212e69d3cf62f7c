#!/usr/bin/env python3
"""Tuning positions from recorded crazyhouse games, labelled by Fairy-Stockfish.

Reads BPGN/PGN files of one-board crazyhouse games (the arena's `--bpgn`
records, for example) and writes every quiet position in the format of
`gen_positions.py` (side to move not in check, Fairy-Stockfish's best move not
a capture, `FEN;score` with its depth-8 score), far faster than playing new
games at fixed depths. Positions from one engine's own games are a narrow
sample, though: a fit to tandem's losses lowered the error and played worse
(tune/README.md).

    python tune/label_games.py /tmp/match.bpgn ... > positions.txt
"""
import argparse
import sys

import chess.engine
import chess.pgn

from gen_positions import FSF, is_quiet, label


def positions(paths):
    """Every position of every crazyhouse game in `paths`, once each."""
    seen = set()
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                if board.uci_variant != "crazyhouse":
                    continue
                for move in game.mainline_moves():
                    key = board.fen()
                    if key not in seen:
                        seen.add(key)
                        yield board.copy(stack=False)
                    board.push(move)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="+", help="BPGN/PGN files")
    parser.add_argument("--label-depth", type=int, default=8)
    parser.add_argument("--shard", default="0/1", help="K/N: label every N-th position, starting at the K-th (one process per core)")
    args = parser.parse_args()
    index, count = (int(x) for x in args.shard.split("/"))
    labeller = chess.engine.SimpleEngine.popen_uci(FSF)
    try:
        for n, board in enumerate(positions(args.games)):
            if n % count != index or board.is_check() or board.is_game_over():
                continue
            cp, best = label(labeller, board, args.label_depth)
            if is_quiet(board, best):
                sys.stdout.write(f"{board.fen()};{cp}\n")
    finally:
        labeller.quit()


if __name__ == "__main__":
    main()
