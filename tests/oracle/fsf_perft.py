#!/usr/bin/env python3
"""Perft oracle: compute or check perft counts with Fairy-Stockfish.

The files under tests/data/*.perft hold perft leaf counts that the Rust test
suite checks our move generator against without any peer installed.  This
script (Python 3, standard library only) produces and re-checks those files by
driving Fairy-Stockfish (UCI) over subprocess pipes.

Data file format (UTF-8 text, one entry per line, `#` starts a comment line,
blank lines are ignored):

    <rules-spec> ; <FEN> ; <count at depth 1> <count at depth 2> ... <count at depth n>

rules-spec is one of
    chess                          UCI_Variant chess (FEN without reserve brackets)
    crazyhouse                     UCI_Variant crazyhouse (captures enter the capturer's reserve)
    bughouse                       UCI_Variant bughouse (captures leave the board)
    bughouse,drop_checks=no-check  bughouse with `dropChecks = false`, loaded via VariantPath

and any of them may end in `,chess960`: UCI_Chess960 true, FENs with Shredder-FEN
castling rights (`HFhf`, the files of the castling rooks), as Fairy-Stockfish
prints them in that mode.

Usage
    fsf_perft.py [--engine PATH] [INPUT]
        Read lines `<rules-spec> ; <FEN> ; <depth>` from INPUT (default stdin)
        and print one data entry per line, counts for depths 1..depth.
        Comment and blank lines are copied through unchanged, so an input
        file annotated with comments turns into a finished data file.

    fsf_perft.py --regen FILE [--engine PATH]
        Read a data file and print it again with every entry recomputed to
        the same depth (comments kept), e.g. after adding entries or to
        move to another oracle build.

    fsf_perft.py --check FILE [--max-depth D] [--engine PATH]
        Recompute every entry of FILE (optionally only up to depth D) and
        report mismatches.  Exit status 1 on any mismatch or rejected FEN.

    fsf_perft.py --divide RULES-SPEC FEN DEPTH [--engine PATH]
        Print Fairy-Stockfish's per-move split at DEPTH (for debugging).

Every FEN is sent exactly as written.  Before counting, the script asks the
engine to print the position (`d`) and requires that the FEN it prints equals
the one sent, ignoring only the `~` promoted-piece marks (Fairy-Stockfish reads
them but does not print them) and the order of pieces inside the reserve.  A
FEN the engine silently changes (for example an en passant square that no pawn
can capture, which it prints as `-`) is rejected, so fix the FEN.  It also
rejects positions where the side not to move is in check, kings are missing or
doubled, pawns stand on the first or last rank, or the side to move has no
legal move.  Fairy-Stockfish ignores an unknown UCI_Variant without a word, so
after each variant switch the script checks by small probe positions that the
intended rules (reserve or not, captures to hand or off the board, checking
drops allowed or not) are really in effect.

Engine: --engine PATH, else $FSF, else `fairy-stockfish` on $PATH, else
/usr/games/fairy-stockfish.  Written against Fairy-Stockfish 11.1.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

NOCHECK_INI = "[nocheckdrops:bughouse]\ndropChecks = false\n"

# rules-spec -> UCI_Variant name
VARIANTS = {
    "chess": "chess",
    "crazyhouse": "crazyhouse",
    "bughouse": "bughouse",
    "bughouse,drop_checks=no-check": "nocheckdrops",
}

# The rules-spec suffix that turns on UCI_Chess960.
CHESS960 = "chess960"


def split_spec(spec):
    """(rules-spec without `chess960`, whether it asked for Chess960)."""
    parts = [p.strip() for p in spec.split(",")]
    return ",".join(p for p in parts if p != CHESS960), CHESS960 in parts


# UCI_Variant name -> expected Engine.probe() fingerprint: whether FENs carry a
# reserve, perft 3 of a king capture (the pawn enters the hand only in
# crazyhouse), perft 1 with a knight in hand (4 of its drops give check).
PROBES = {
    "chess": ("no reserve",),
    "crazyhouse": ("reserve", 382, 67),
    "bughouse": ("reserve", 150, 67),
    "nocheckdrops": ("reserve", 150, 63),
}


class OracleError(Exception):
    pass


def find_engine(explicit):
    if explicit:
        return explicit
    if os.environ.get("FSF"):
        return os.environ["FSF"]
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    return "/usr/games/fairy-stockfish"


class Engine:
    """A Fairy-Stockfish process spoken to over UCI."""

    def __init__(self, path):
        self.ini = tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False)
        self.ini.write(NOCHECK_INI)
        self.ini.close()
        try:
            self.proc = subprocess.Popen(
                [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError:
            os.unlink(self.ini.name)
            raise
        self.send("uci")
        self.read_until(lambda l: l == "uciok")
        # VariantPath must be set before UCI_Variant names a variant it defines.
        self.send("setoption name VariantPath value " + self.ini.name)
        self.variant = None
        self.chess960 = None

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
        try:
            os.unlink(self.ini.name)
        except OSError:
            pass

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, done):
        """Read lines until done(line) is true; return all lines read."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise OracleError("engine exited unexpectedly; last output: %r" % lines[-5:])
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines

    def sync(self):
        self.send("isready")
        return self.read_until(lambda l: l == "readyok")

    def set_rules(self, spec):
        base, chess960 = split_spec(spec)
        if base not in VARIANTS:
            raise OracleError("unknown rules-spec %r (known: %s, each optionally with ,%s)"
                              % (spec, ", ".join(VARIANTS), CHESS960))
        name = VARIANTS[base]
        if self.variant == name and self.chess960 == chess960:
            return
        self.send("setoption name UCI_Variant value " + name)
        self.send("setoption name UCI_Chess960 value " + ("true" if chess960 else "false"))
        self.send("ucinewgame")
        self.sync()
        self.variant = None
        # The engine ignores an unknown variant name silently and confirms only
        # some known ones, so check by behaviour which rules are in effect.
        got = self.probe()
        if got != PROBES[name]:
            raise OracleError("engine is not playing %r (probe %r, want %r); "
                              "is the VariantPath ini loaded?" % (name, got, PROBES[name]))
        # Chess960 mode shows castling rights as rook files.
        reserve = "" if name == "chess" else "[]"
        printed, _ = self.display("4k3/8/8/8/8/8/8/R3K2R%s w KQ - 0 1" % reserve)
        if printed.split()[2] != ("HA" if chess960 else "KQ"):
            raise OracleError("UCI_Chess960 %s not in effect (printed %r)" % (chess960, printed))
        self.variant = name
        self.chess960 = chess960

    def probe(self):
        """Fingerprint of the rules in effect, see PROBES."""
        printed, _ = self.display("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
        if "[" not in printed:
            return ("no reserve",)
        # White's king takes e2: the pawn enters White's reserve only in crazyhouse.
        capture = self.perft("4k3/8/8/8/8/8/4p3/4K3[] w - - 0 1", 3)
        # One knight in hand: 62 drops + 5 king moves; 4 of the drops give check.
        drops = self.perft("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", 1)
        return ("reserve", capture, drops)

    def display(self, fen):
        """Set the position and return (printed FEN, checkers string)."""
        self.send("position fen " + fen)
        self.send("d")
        lines = self.read_until(lambda l: l.startswith("Checkers:"))
        printed = None
        for l in lines:
            if l.startswith("Fen: "):
                printed = l[5:].strip()
        if printed is None:
            raise OracleError("no FEN printed for %r" % fen)
        checkers = lines[-1][len("Checkers:"):].strip()
        return printed, checkers

    def perft(self, fen, depth, divide=False):
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        lines = self.read_until(lambda l: l.startswith("Nodes searched:"))
        total = int(lines[-1].split(":")[1])
        if divide:
            split = [l for l in lines if re.match(r"^\S+: \d+$", l) and not l.startswith("Nodes")]
            return total, split
        return total


def normalize_fen(fen):
    """FEN with `~` removed and the reserve's letters sorted."""
    fen = fen.replace("~", "")
    m = re.match(r"^([^\[ ]*)\[([^\]]*)\](.*)$", fen)
    if m:
        fen = "%s[%s]%s" % (m.group(1), "".join(sorted(m.group(2))), m.group(3))
    return " ".join(fen.split())


def static_checks(spec, fen):
    """Checks that need no engine: reserve brackets, kings, pawn ranks, fields."""
    spec, _ = split_spec(spec)
    fields = fen.split()
    if len(fields) != 6:
        raise OracleError("FEN needs 6 fields: %r" % fen)
    board = fields[0]
    has_reserve = "[" in board
    if spec == "chess" and has_reserve:
        raise OracleError("chess FEN must not have a reserve: %r" % fen)
    if spec != "chess" and not (has_reserve and board.endswith("]")):
        raise OracleError("%s FEN needs a [reserve]: %r" % (spec, fen))
    placement = board.split("[")[0]
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise OracleError("need 8 ranks: %r" % fen)
    for i, rank in enumerate(ranks):
        width = 0
        for c in rank.replace("~", ""):
            width += int(c) if c.isdigit() else 1
        if width != 8:
            raise OracleError("rank %d is not 8 squares wide: %r" % (8 - i, fen))
        if i in (0, 7) and ("p" in rank.lower()):
            raise OracleError("pawn on rank %d: %r" % (8 - i, fen))
    if placement.count("K") != 1 or placement.count("k") != 1:
        raise OracleError("need exactly one king per side: %r" % fen)
    if fields[1] not in ("w", "b"):
        raise OracleError("bad side to move: %r" % fen)


def accept(engine, spec, fen):
    """Make sure the engine reads the FEN as written and the position is legal."""
    static_checks(spec, fen)
    engine.set_rules(spec)
    printed, _ = engine.display(fen)
    if normalize_fen(printed) != normalize_fen(fen):
        raise OracleError("engine changed the FEN:\n  sent    %s\n  printed %s" % (fen, printed))
    # The side not to move must not be in check: flip the side (and drop the
    # ep square, which would be meaningless) and ask for checkers.
    f = fen.split()
    f[1] = "b" if f[1] == "w" else "w"
    f[3] = "-"
    _, checkers = engine.display(" ".join(f))
    if checkers:
        raise OracleError("side not to move is in check (by %s): %r" % (checkers, fen))


def compute(engine, spec, fen, depth):
    accept(engine, spec, fen)
    counts = [engine.perft(fen, d) for d in range(1, depth + 1)]
    if counts[0] == 0:
        raise OracleError("side to move has no legal move: %r" % fen)
    return counts


def parse_entry(line):
    parts = [p.strip() for p in line.split(";")]
    if len(parts) != 3:
        raise OracleError("expected `<rules-spec> ; <FEN> ; <numbers>`: %r" % line)
    return parts[0], parts[1], [int(x) for x in parts[2].split()]


def format_entry(spec, fen, counts):
    return "%s ; %s ; %s" % (spec, fen, " ".join(str(c) for c in counts))


def run_generate(engine, stream, regen=False):
    ok = True
    for line in stream:
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            print(line)
            continue
        try:
            spec, fen, nums = parse_entry(line)
            if regen:
                depth = len(nums)
            elif len(nums) == 1:
                depth = nums[0]
            else:
                raise OracleError("input entries give one depth (use --regen for data files): %r" % line)
            print(format_entry(spec, fen, compute(engine, spec, fen, depth)), flush=True)
        except OracleError as e:
            ok = False
            print("# ERROR: %s" % " ".join(str(e).split()), flush=True)
            print("error: %s" % e, file=sys.stderr)
    return ok


def run_check(engine, path, max_depth):
    bad = 0
    total = 0
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            total += 1
            try:
                spec, fen, want = parse_entry(line)
                if max_depth:
                    want = want[:max_depth]
                got = compute(engine, spec, fen, len(want))
            except OracleError as e:
                bad += 1
                print("%s:%d: error: %s" % (path, lineno, e))
                continue
            if got != want:
                bad += 1
                print("%s:%d: MISMATCH %s ; %s\n  file   %s\n  engine %s" % (
                    path, lineno, spec, fen, " ".join(map(str, want)), " ".join(map(str, got))))
            else:
                print("%s:%d: ok (depth %d)" % (path, lineno, len(want)), flush=True)
    print("%s: %d entries, %d bad" % (path, total, bad))
    return bad == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", help="path to fairy-stockfish")
    ap.add_argument("--check", metavar="FILE", help="recompute the entries of a data file")
    ap.add_argument("--regen", metavar="FILE", help="recompute a data file to the same depths")
    ap.add_argument("--max-depth", type=int, default=0, help="with --check: only up to this depth")
    ap.add_argument("--divide", nargs=3, metavar=("SPEC", "FEN", "DEPTH"),
                    help="print the engine's per-move split")
    ap.add_argument("input", nargs="?", help="generation input (default stdin)")
    args = ap.parse_args()

    path = find_engine(args.engine)
    try:
        engine = Engine(path)
    except OSError as e:
        print("error: cannot start %s: %s" % (path, e), file=sys.stderr)
        sys.exit(2)
    try:
        if args.check:
            ok = run_check(engine, args.check, args.max_depth)
        elif args.regen:
            with open(args.regen, encoding="utf-8") as fh:
                ok = run_generate(engine, fh, regen=True)
        elif args.divide:
            spec, fen, depth = args.divide
            accept(engine, spec, fen)
            total, split = engine.perft(fen, int(depth), divide=True)
            for l in sorted(split):
                print(l)
            print("total", total)
            ok = True
        elif args.input:
            with open(args.input, encoding="utf-8") as fh:
                ok = run_generate(engine, fh)
        else:
            ok = run_generate(engine, sys.stdin)
    except OracleError as e:
        print("error: %s" % e, file=sys.stderr)
        ok = False
    finally:
        engine.close()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
