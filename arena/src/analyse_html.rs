//! `tandem analyse --html`: the report as one self-contained page (no network:
//! inline SVG, style and script, the report itself embedded as JSON).
//!
//! Both boards side by side (board B from Black's side, so partners sit next
//! to each other as at a bughouse table) with reserves, clocks and the last
//! move; the interleaved move list with marks; a graph of both boards'
//! evaluations against game time. Click a move, or step with the arrow keys
//! (Home and End jump); a piece crossing to the other board is named under
//! the boards and its reserve lights up.

use crate::analyse::GameReport;

/// The page for `report`.
pub fn render(report: &GameReport) -> Result<String, String> {
    let json = serde_json::to_string(report).map_err(|e| format!("cannot encode the report: {e}"))?;
    // Inside a <script> element only `</` can end it early.
    let json = json.replace("</", "<\\/");
    let title = html_escape(&page_title(report));
    Ok(PAGE.replace("{{TITLE}}", &title).replace("{{REPORT}}", &json))
}

fn page_title(report: &GameReport) -> String {
    let tag = |name: &str| report.tags.iter().find(|[k, _]| k == name).map_or("?", |[_, v]| v.as_str());
    if report.two_boards {
        format!("{} & {} vs {} & {}: tandem analysis", tag("WhiteA"), tag("BlackB"), tag("BlackA"), tag("WhiteB"))
    } else {
        format!("{} vs {}: tandem analysis", tag("White"), tag("Black"))
    }
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 16px; background: #f4f1ea; color: #222; }
h1 { font-size: 18px; margin: 0 0 4px; }
#meta { color: #555; margin-bottom: 12px; font-size: 13px; }
#main { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
#boards { display: flex; gap: 24px; }
.side { display: flex; flex-direction: column; gap: 4px; }
.player { display: flex; justify-content: space-between; font-size: 14px; width: 320px; }
.clock { font-variant-numeric: tabular-nums; background: #ddd; padding: 0 6px; border-radius: 3px; }
.reserve { min-height: 26px; font-size: 22px; width: 320px; border-radius: 3px; }
.reserve.arrived { background: #ffe28a; }
.board .light { fill: #efd9b5; } .board .dark { fill: #b58863; }
.board .last { fill: #cdd26a; opacity: 0.75; }
.board text.piece { font-size: 34px; text-anchor: middle; dominant-baseline: central; }
.board text.coord { font-size: 9px; fill: #444; }
#side-panel { display: flex; flex-direction: column; gap: 10px; width: 360px; }
#info { overflow-wrap: anywhere; }
#info { background: #fff; padding: 8px; border-radius: 4px; font-size: 14px; min-height: 64px; }
#moves { background: #fff; border-radius: 4px; max-height: 330px; overflow-y: auto; margin: 0; padding: 6px 6px 6px 40px; font-size: 14px; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.current { background: #cfe3ff; }
#moves li .mark-inaccuracy { color: #b8860b; } #moves li .mark-mistake { color: #d2691e; } #moves li .mark-blunder { color: #c00; font-weight: bold; }
#moves li .board-B { color: #a0522d; }
#graph { background: #fff; border-radius: 4px; }
#graph .a { stroke: #2a6fdb; } #graph .b { stroke: #d2691e; }
#legend { font-size: 12px; color: #555; }
</style>
</head>
<body>
<h1 id="title"></h1>
<div id="meta"></div>
<div id="main">
  <div id="boards"></div>
  <div id="side-panel">
    <div id="info"></div>
    <ol id="moves"></ol>
  </div>
</div>
<svg id="graph" width="980" height="200" viewBox="0 0 980 200"></svg>
<div id="legend">Evaluation in White's view, clamped to ±10 pawns, against game time: <span style="color:#2a6fdb">board A</span>, <span style="color:#d2691e">board B</span>. ← → step, Home/End jump, click a move or the graph.</div>
<script type="application/json" id="report">{{REPORT}}</script>
<script>
"use strict";
const R = JSON.parse(document.getElementById("report").textContent);
const P = R.positions;
const SVG = "http://www.w3.org/2000/svg";
const GLYPH = { K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
const tag = name => { const t = R.tags.find(t => t[0] === name); return t ? t[1] : "?"; };
const boards = R.two_boards ? ["A", "B"] : ["A"];
const base = parseFloat((tag("TimeControl") || "").split("+")[0]);
let current = 0;

function el(name, attrs, parent, ns) {
  const e = ns ? document.createElementNS(SVG, name) : document.createElement(name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// A FEN with reserves: 64 squares (a8 first) and the two hands.
function parseFen(fen) {
  const field = fen.trim().split(/\s+/)[0];
  let placement = field, hand = "";
  const bracket = field.indexOf("[");
  if (bracket >= 0) { placement = field.slice(0, bracket); hand = field.slice(bracket + 1, field.indexOf("]")); }
  const squares = [];
  for (const rank of placement.split("/").slice(0, 8)) {
    for (const c of rank) {
      if (/[1-8]/.test(c)) for (let i = 0; i < +c; i++) squares.push(null);
      else if (c !== "~") squares.push(c);
    }
  }
  return { squares, white: hand.replace(/[^A-Z]/g, ""), black: hand.replace(/[^a-z]/g, "") };
}

function boardFens(k) {
  const text = k === 0 ? R.start : P[k - 1].after;
  const parts = text.split("|").map(s => s.trim());
  return { A: parts[0], B: parts[1] || parts[0] };
}

function squareIndex(name) { return (8 - (+name[1])) * 8 + (name.charCodeAt(0) - 97); }

function lastMoveSquares(k, board) {
  for (let i = k - 1; i >= 0; i--) {
    if (P[i].board !== board) continue;
    // `e2e4`, `e7e8q`, and drops `N@f3`: the target is always characters 2-3.
    const u = P[i].played.uci;
    const from = u.includes("@") ? null : u.slice(0, 2);
    return [from, u.slice(2, 4)].filter(Boolean).map(squareIndex);
  }
  return [];
}

function clocksAt(k, board) {
  const c = { white: isNaN(base) ? null : base, black: isNaN(base) ? null : base };
  for (let i = 0; i < k; i++) if (P[i].board === board) {
    if (P[i].clocks.white != null) c.white = P[i].clocks.white;
    if (P[i].clocks.black != null) c.black = P[i].clocks.black;
  }
  return c;
}

function formatClock(s) {
  if (s == null) return "";
  const t = Math.max(0, s);
  return Math.floor(t / 60) + ":" + (t % 60).toFixed(1).padStart(4, "0");
}

function drawBoard(container, board, k) {
  const fen = parseFen(boardFens(k)[board]);
  const flipped = board === "B";
  const clocks = clocksAt(k, board);
  // A captured piece reaches the hand of its own colour on the other board.
  const arrived = color => k > 0 && P[k - 1].handed.some(h => h.to_board === board
    && (h.piece === h.piece.toUpperCase()) === (color === "White"));
  const seat = color => color + board;
  const top = flipped ? "White" : "Black", bottom = flipped ? "Black" : "White";
  const side = el("div", { class: "side", id: "board-" + board }, container);
  const playerRow = color => {
    const row = el("div", { class: "player" }, side);
    el("span", {}, row).textContent = (R.two_boards ? color + board + ": " : color + ": ") + (R.two_boards ? tag(seat(color)) : tag(color));
    el("span", { class: "clock" }, row).textContent = formatClock(clocks[color.toLowerCase()]);
  };
  const reserveRow = color => {
    const letters = color === "White" ? fen.white : fen.black;
    const r = el("div", { class: "reserve" + (arrived(color) ? " arrived" : ""), "data-color": color }, side);
    r.textContent = [...letters].map(c => GLYPH[c]).join("");
  };
  playerRow(top); reserveRow(top);
  const svg = el("svg", { class: "board", width: 320, height: 320, viewBox: "0 0 320 320", "data-board": board }, side, true);
  const last = lastMoveSquares(k, board);
  for (let i = 0; i < 64; i++) {
    const row = Math.floor(i / 8), col = i % 8;
    const x = (flipped ? 7 - col : col) * 40, y = (flipped ? 7 - row : row) * 40;
    el("rect", { class: "sq " + ((row + col) % 2 ? "dark" : "light"), x, y, width: 40, height: 40 }, svg, true);
    if (last.includes(i)) el("rect", { class: "last", x, y, width: 40, height: 40 }, svg, true);
    const piece = fen.squares[i];
    if (piece) {
      const t = el("text", { class: "piece", x: x + 20, y: y + 21, "data-piece": piece }, svg, true);
      t.textContent = GLYPH[piece];
    }
  }
  for (let f = 0; f < 8; f++) {
    const file = String.fromCharCode(97 + (flipped ? 7 - f : f));
    el("text", { class: "coord", x: f * 40 + 31, y: 317 }, svg, true).textContent = file;
  }
  reserveRow(bottom); playerRow(bottom);
}

function evalText(e) {
  if (!e) return "?";
  if (e.mate != null) return (e.mate > 0 ? "#" : "#-") + Math.abs(e.mate);
  return (e.cp >= 0 ? "+" : "") + (e.cp / 100).toFixed(2);
}

function moveLabel(p) {
  const dots = p.color === "white" ? "." : "...";
  return p.number + (R.two_boards ? p.board : "") + dots + " " + p.played.san;
}

const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function drawInfo(k) {
  const info = document.getElementById("info");
  info.innerHTML = "";
  if (k === 0) { info.textContent = "Start position. " + P.length + " moves analysed (" + R.limit + ")."; return; }
  const p = P[k - 1];
  const line = el("div", {}, info);
  line.textContent = "Move " + k + ": " + moveLabel(p) + (p.mark ? " " + MARK[p.mark] : "") + "   eval " + evalText(p.eval_played);
  const best = el("div", {}, info);
  best.textContent = p.best && p.best.uci !== p.played.uci
    ? "Best " + p.best.san + " (" + evalText(p.eval) + "), lost " + p.loss + " cp; line " + p.pv.join(" ")
    : "The best move (" + evalText(p.eval) + "); line " + p.pv.join(" ");
  if (p.handed.length) {
    const cross = el("div", { class: "crossing" }, info);
    cross.textContent = "Crosses to board " + p.handed[0].to_board + ": " + p.handed.map(h => GLYPH[h.piece]).join(" ");
  }
}

function gameTime(p) {
  if (isNaN(base) || p.clocks.white == null || p.clocks.black == null) return null;
  return 2 * base - p.clocks.white - p.clocks.black;
}

function drawGraph() {
  const g = document.getElementById("graph");
  const W = 980, H = 200, pad = 24;
  const times = P.map((p, i) => { const t = gameTime(p); return t == null ? i : t; });
  const maxT = Math.max(1, ...times);
  const x = t => pad + (W - 2 * pad) * t / maxT;
  const clampCp = e => !e ? 0 : e.mate != null ? (e.mate > 0 ? 1000 : -1000) : Math.max(-1000, Math.min(1000, e.cp));
  const y = cp => H / 2 - (H / 2 - pad) * cp / 1000;
  el("line", { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, stroke: "#aaa" }, g, true);
  for (const board of boards) {
    const pts = P.map((p, i) => [p, i]).filter(([p]) => p.board === board)
      .map(([p, i]) => x(times[i]).toFixed(1) + "," + y(clampCp(p.eval_played)).toFixed(1));
    el("polyline", { class: board.toLowerCase(), points: pts.join(" "), fill: "none", "stroke-width": 2, "data-board": board }, g, true);
  }
  P.forEach((p, i) => {
    if (p.mark === "blunder" || p.mark === "mistake") {
      el("circle", { cx: x(times[i]), cy: y(clampCp(p.eval_played)), r: 3, fill: p.mark === "blunder" ? "#c00" : "#d2691e" }, g, true);
    }
  });
  const cursor = el("line", { id: "cursor", y1: pad / 2, y2: H - pad / 2, stroke: "#333", "stroke-dasharray": "3,3" }, g, true);
  g.addEventListener("click", ev => {
    const box = g.getBoundingClientRect();
    const t = (ev.clientX - box.left) / box.width * W;
    let bestI = 0;
    times.forEach((ti, i) => { if (Math.abs(x(ti) - t) < Math.abs(x(times[bestI]) - t)) bestI = i; });
    go(bestI + 1);
  });
  return k => { const xx = k === 0 ? pad : x(times[k - 1]); cursor.setAttribute("x1", xx); cursor.setAttribute("x2", xx); };
}

function buildMoves() {
  const list = document.getElementById("moves");
  P.forEach((p, i) => {
    const li = el("li", { "data-index": i + 1 }, list);
    const label = el("span", { class: "board-" + p.board }, li);
    label.textContent = moveLabel(p);
    if (p.mark) el("span", { class: "mark-" + p.mark }, li).textContent = " " + MARK[p.mark];
    el("span", {}, li).textContent = "  " + evalText(p.eval_played);
    li.addEventListener("click", () => go(i + 1));
  });
}

let moveCursor = () => {};
function go(k) {
  current = Math.max(0, Math.min(P.length, k));
  const container = document.getElementById("boards");
  container.innerHTML = "";
  for (const b of boards) drawBoard(container, b, current);
  drawInfo(current);
  document.querySelectorAll("#moves li").forEach(li => li.classList.toggle("current", +li.dataset.index === current));
  // Scroll the list alone (scrollIntoView would scroll the page too).
  const cur = document.querySelector("#moves li.current");
  const list = document.getElementById("moves");
  if (cur) {
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  moveCursor(current);
}

document.getElementById("title").textContent = R.two_boards
  ? "A: " + tag("WhiteA") + " – " + tag("BlackA") + "    B: " + tag("WhiteB") + " – " + tag("BlackB")
  : tag("White") + " – " + tag("Black");
document.getElementById("meta").textContent = [tag("Event"), tag("Date"), "rules " + R.rules, "result " + R.result + " (from " + R.result_from + ")", R.engine + ", " + R.limit].join(" · ");
buildMoves();
moveCursor = drawGraph();
document.addEventListener("keydown", ev => {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  if (step) { go(current + step); ev.preventDefault(); }
  if (ev.key === "Home") go(0);
  if (ev.key === "End") go(P.length);
});
go(new URLSearchParams(location.search).has("move") ? +new URLSearchParams(location.search).get("move") : P.length);
</script>
</body>
</html>
"##;
