#!/usr/bin/env python3
"""Positions for tuning tandem's evaluation, labelled by Fairy-Stockfish.

Plays fast crazyhouse games, tandem against Fairy-Stockfish at small fixed
depths (colours alternate; a few random plies after each opening and a rare
random move later spread the positions), and writes every quiet position
(side to move not in check, Fairy-Stockfish's best move not a capture) as

    FEN;score

with the score of a deeper Fairy-Stockfish search in centipawns from the side
to move's point of view (mates as +-3000, the rest clipped to +-2000).

    python tune/gen_positions.py --games 400 --seed 1 > positions.txt
"""
import argparse
import random
import sys

import chess
import chess.engine
import chess.variant

FSF = "/usr/games/fairy-stockfish"
MATE_CP = 3000
CLIP_CP = 2000


def openings(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def label(engine, board, depth):
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    score = info["score"].relative
    cp = MATE_CP if score.is_mate() and score.mate() > 0 else -MATE_CP if score.is_mate() else max(-CLIP_CP, min(CLIP_CP, score.score()))
    best = info["pv"][0] if info.get("pv") else None
    return cp, best


def is_quiet(board, best):
    """A position worth fitting: not in check, and the best move no capture or promotion."""
    return best is not None and not board.is_check() and not board.is_capture(best) and best.promotion is None


def play_game(players, labeller, start_fen, rng, args, out):
    board = chess.variant.CrazyhouseBoard(start_fen)
    for _ in range(rng.randint(1, 4)):
        if board.is_game_over():
            return
        board.push(rng.choice(list(board.legal_moves)))
    while not board.is_game_over() and board.ply() < args.max_plies:
        cp, best = label(labeller, board, args.label_depth)
        if is_quiet(board, best):
            out.write(f"{board.fen()};{cp}\n")
        if abs(cp) >= MATE_CP:
            return
        if rng.random() < args.random_move_rate:
            move = rng.choice(list(board.legal_moves))
        else:
            player = players[board.turn]
            move = player.play(board, chess.engine.Limit(depth=rng.randint(args.min_depth, args.max_depth))).move
        board.push(move)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tandem", default="target/release/tandem")
    parser.add_argument("--openings", default="arena/openings/drop-chess.epd")
    parser.add_argument("--label-depth", type=int, default=8)
    parser.add_argument("--min-depth", type=int, default=3)
    parser.add_argument("--max-depth", type=int, default=6)
    parser.add_argument("--random-move-rate", type=float, default=0.03)
    parser.add_argument("--max-plies", type=int, default=160)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    starts = openings(args.openings)
    tandem = chess.engine.SimpleEngine.popen_uci(args.tandem)
    fsf = chess.engine.SimpleEngine.popen_uci(FSF)
    labeller = chess.engine.SimpleEngine.popen_uci(FSF)
    try:
        for game in range(args.games):
            players = {chess.WHITE: tandem, chess.BLACK: fsf} if game % 2 == 0 else {chess.WHITE: fsf, chess.BLACK: tandem}
            play_game(players, labeller, rng.choice(starts), rng, args, sys.stdout)
            sys.stdout.flush()
            print(f"game {game + 1}/{args.games}", file=sys.stderr)
    finally:
        for engine in (tandem, fsf, labeller):
            engine.quit()


if __name__ == "__main__":
    main()
