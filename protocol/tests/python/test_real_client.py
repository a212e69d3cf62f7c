"""A real client against `tandem`: python-chess's `chess.engine` plays complete
crazyhouse games and runs a MultiPV analysis, and a bughouse game is played in
which this script plays the other three seats with fairy-stockfish and feeds
tandem the reserves through the UCI bughouse extension (PROTOCOL.md).

Run (after `cargo build -p tandem-protocol`):

    python3 -m unittest protocol/tests/python/test_real_client.py -v

Environment: TANDEM_BIN (default: target/debug/tandem of this workspace),
FAIRY_STOCKFISH (default: /usr/games/fairy-stockfish), TANDEM_REQUIRE_PEERS
(set: a missing fairy-stockfish fails instead of skipping).
"""

import os
import queue
import subprocess
import threading
import time
import unittest
from pathlib import Path

import chess
import chess.engine
import chess.variant

ROOT = Path(__file__).resolve().parents[3]
TANDEM = os.environ.get("TANDEM_BIN", str(ROOT / "target" / "debug" / "tandem"))
FAIRY = os.environ.get("FAIRY_STOCKFISH", "/usr/games/fairy-stockfish")
REQUIRE_PEERS = bool(os.environ.get("TANDEM_REQUIRE_PEERS"))
MAX_PLIES = 300


def need_fairy(test):
    if not os.access(FAIRY, os.X_OK):
        if REQUIRE_PEERS:
            test.fail(f"fairy-stockfish not found at {FAIRY}")
        test.skipTest(f"fairy-stockfish not found at {FAIRY}")


class CrazyhouseWithChessEngine(unittest.TestCase):
    """python-chess drives tandem as it would any UCI engine."""

    def setUp(self):
        self.tandem = chess.engine.SimpleEngine.popen_uci([TANDEM])
        self.addCleanup(self.tandem.quit)

    def test_identifies_itself_with_the_variants(self):
        self.assertTrue(self.tandem.id["name"].startswith("tandem"))
        variants = self.tandem.options["UCI_Variant"].var
        for name in ["chess", "crazyhouse", "bughouse", "tandem", "tandemschach", "french"]:
            self.assertIn(name, variants)

    def play_game(self, opponent, tandem_color):
        board = chess.variant.CrazyhouseBoard()
        while not board.is_game_over() and board.ply() < MAX_PLIES:
            if board.turn == tandem_color:
                result = self.tandem.play(board, chess.engine.Limit(time=0.03), game="g")
            else:
                result = opponent.play(board, chess.engine.Limit(depth=1), game="g")
            self.assertIsNotNone(result.move)
            self.assertIn(result.move, board.legal_moves)
            board.push(result.move)
        return board

    def test_complete_crazyhouse_games_against_fairy_stockfish(self):
        need_fairy(self)
        fairy = chess.engine.SimpleEngine.popen_uci([FAIRY])
        self.addCleanup(fairy.quit)
        finished = 0
        for tandem_color in [chess.WHITE, chess.BLACK]:
            board = self.play_game(fairy, tandem_color)
            drops = sum(1 for m in board.move_stack if m.drop)
            self.assertGreater(drops, 0, "a crazyhouse game with drops")
            finished += board.is_game_over()
            print(f"tandem as {'white' if tandem_color else 'black'}: {board.result(claim_draw=True)} "
                  f"after {board.ply()} plies, {drops} drops")
        self.assertGreaterEqual(finished, 1, "at least one game ends by the rules")

    def test_multipv_analysis(self):
        board = chess.variant.CrazyhouseBoard()
        for uci in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3"]:
            board.push_uci(uci)
        infos = self.tandem.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        self.assertEqual(len(infos), 3)
        first_moves = {info["pv"][0] for info in infos}
        self.assertEqual(len(first_moves), 3, "three different lines")
        for info in infos:
            self.assertIn("score", info)
            self.assertEqual(info["depth"], 5)
        # Infinite analysis, stopped by the client.
        with self.tandem.analysis(board, multipv=2) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 4:
                    break
        best = analysis.wait()
        self.assertIn(best.move, board.legal_moves)


class RawUci:
    """A line-level UCI client, for the extension python-chess does not know."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix, timeout=20.0):
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(line)
            if line.startswith(prefix):
                return line, seen

    def pending(self):
        out = []
        while not self.lines.empty():
            out.append(self.lines.get_nowait())
        return out

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except Exception:
                pass


def pocket_letters(board):
    white = str(board.pockets[chess.WHITE]).upper()
    black = str(board.pockets[chess.BLACK]).lower()
    return (white + black) or "-"


def push_with_transfer(board, other, move):
    """Plays `move`; a captured piece goes to the capturer's partner on the other board."""
    mover = board.turn
    before = {pt: board.pockets[mover].count(pt) for pt in chess.PIECE_TYPES[:-1]}
    board.push(move)
    for pt, count in before.items():
        if board.pockets[mover].count(pt) > count:
            board.pockets[mover].remove(pt)
            other.pockets[not mover].add(pt)
            return pt
    return None


class BughouseGame(unittest.TestCase):
    """tandem sits White on board A; fairy-stockfish plays the other three seats."""

    def setUp(self):
        need_fairy(self)
        self.tandem = RawUci([TANDEM])
        self.addCleanup(self.tandem.close)
        self.fairy = RawUci([FAIRY])
        self.addCleanup(self.fairy.close)
        for engine in [self.tandem, self.fairy]:
            engine.send("uci")
            engine.wait_for("uciok")
            engine.send("setoption name UCI_Variant value bughouse")
        self.tandem.send("bughouse")
        self.tandem.wait_for("bughouseok")
        # Partner messages are off by default; this game exercises `sit`/`go`.
        self.tandem.send("setoption name Team Messages value true")
        self.tandem.send("seat A white")

    def fairy_move(self, board):
        self.fairy.send(f"position fen {board.fen()}")
        self.fairy.send("go movetime 20")
        line, _ = self.fairy.wait_for("bestmove")
        text = line.split()[1]
        return None if text in ("(none)", "0000") else chess.Move.from_uci(text)

    def test_bughouse_game_with_reserves_fed_during_the_search(self):
        a = chess.variant.CrazyhouseBoard()
        b = chess.variant.CrazyhouseBoard()
        clocks = {"A": [60000, 60000], "B": [60000, 60000]}
        mid_search_updates = 0
        tandem_moves = 0
        sat = False
        for cycle in range(60):
            if a.is_game_over() or b.is_game_over():
                break
            # Tandem's move on A, while board B plays on and feeds reserves.
            self.assertEqual([l for l in self.tandem.pending() if l.startswith("bestmove")], [])
            self.tandem.send(f"position fen {a.fen()}")
            self.tandem.send(f"partner fen {b.fen()}")
            if cycle == 2:
                self.tandem.send("ptell sit")
            wtime, btime = clocks["A"]
            if cycle == 2:
                btime = wtime - 20000  # tandem sits for its partner only while ahead on the clock
            self.tandem.send("go movetime 150 wtime {} btime {} pwtime {} pbtime {}".format(
                wtime, btime, clocks["B"][0], clocks["B"][1]))
            move_b = self.fairy_move(b)
            if move_b is not None:
                captured = push_with_transfer(b, a, move_b)
                self.tandem.send(f"partner move {move_b.uci()}")
                if captured is not None:
                    self.tandem.send(f"reserve {pocket_letters(a)}")
                    mid_search_updates += 1
            if cycle == 2:
                self.tandem.wait_for("info string sitting")
                time.sleep(0.2)
                self.assertEqual([l for l in self.tandem.pending() if l.startswith("bestmove")], [],
                                 "no move while sitting")
                self.tandem.send("ptell go")
                sat = True
            line, _ = self.tandem.wait_for("bestmove")
            text = line.split()[1]
            if text == "(none)":
                break
            move = chess.Move.from_uci(text)
            self.assertIn(move, a.legal_moves, f"{text} in {a.fen()}")
            push_with_transfer(a, b, move)
            tandem_moves += 1
            # Black on A and the next move on B.
            for board, other in [(a, b), (b, a)]:
                if board.is_game_over():
                    break
                reply = self.fairy_move(board)
                if reply is None:
                    break
                self.assertIn(reply, board.legal_moves)
                push_with_transfer(board, other, reply)
        time.sleep(0.3)
        self.assertEqual([l for l in self.tandem.pending() if l.startswith("bestmove")], [],
                         "exactly one bestmove per go")
        print(f"bughouse: {tandem_moves} tandem moves, {mid_search_updates} reserve updates during "
              f"a search; A {a.fen()} | B {b.fen()}")
        self.assertGreaterEqual(tandem_moves, 5)
        self.assertTrue(sat)


if __name__ == "__main__":
    unittest.main()
