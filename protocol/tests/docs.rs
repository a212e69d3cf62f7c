//! PROTOCOL.md quotes what the binary prints when a GUI connects: the CECP
//! `feature` lines, the UCI options (as a table) and the extension's answer to
//! `bughouse`. These tests run the binary and hold every quote to what it
//! prints, both ways, so that the document cannot drift from the code.

mod common;

use common::Tandem;

const PROTOCOL_MD: &str = include_str!("../../PROTOCOL.md");

/// The indented block (lines of four spaces) that follows the first line
/// containing `intro`, with `<version>` filled in.
fn block_after(intro: &str) -> Vec<String> {
    let mut lines = PROTOCOL_MD.lines().skip_while(|l| !l.contains(intro)).skip(1);
    let block: Vec<String> = lines
        .by_ref()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.trim().replace("<version>", env!("CARGO_PKG_VERSION")))
        .collect();
    assert!(!block.is_empty(), "PROTOCOL.md has no block after '{intro}'");
    block
}

/// Every span of PROTOCOL.md that starts with `start` and ends at `end` (exclusive).
fn quotes(start: &str, end: char) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = PROTOCOL_MD;
    while let Some(at) = rest.find(start) {
        let tail = &rest[at + start.len()..];
        let len = tail.find(end).expect("an unterminated quote");
        found.push(format!("{start}{}", &tail[..len]));
        rest = &tail[len..];
    }
    found
}

fn xboard_features() -> Vec<String> {
    let mut t = Tandem::start();
    t.send("xboard");
    t.send("protover 2");
    t.read_until(|l| l == "feature done=1")
}

fn uci_options() -> Vec<String> {
    let mut t = Tandem::start();
    t.send("uci");
    let lines = t.read_until(|l| l == "uciok");
    lines.into_iter().filter(|l| l.starts_with("option name ")).collect()
}

#[test]
fn the_cecp_handshake_is_quoted_exactly() {
    let printed = xboard_features();
    assert_eq!(block_after("Start: `xboard`, then `protover 2`, answered with"), printed);
    // Every `feature option="…"` quoted anywhere (tables, prose) is one the binary sends.
    let quoted = quotes("feature option=\"", '"');
    assert!(quoted.len() >= printed.len() - 2, "{quoted:?}");
    for quote in quoted {
        let line = format!("{quote}\"");
        assert!(printed.contains(&line), "PROTOCOL.md quotes '{line}', the binary prints {printed:?}");
    }
}

/// One row of the UCI options table, written as the `option name` line it describes.
fn option_line(row: &str) -> String {
    let cells: Vec<&str> = row.trim_matches('|').split('|').map(|c| c.trim().trim_matches('`')).collect();
    let [name, kind, default, range, ..] = cells[..] else { panic!("a short row: {row}") };
    let number = |text: &str| text.split_whitespace().next().unwrap_or_default().to_string();
    match kind {
        "spin" => {
            let (min, max) = range.split_once(" … ").unwrap_or_else(|| panic!("no 'min … max' in {row}"));
            format!("option name {name} type spin default {default} min {} max {}", number(min), number(max))
        }
        "combo" => {
            let values = range.split('`').next().unwrap_or_default();
            let vars: String = values.split_whitespace().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        "button" => format!("option name {name} type button"),
        _ => format!("option name {name} type {kind} default {default}"),
    }
}

#[test]
fn the_uci_options_table_is_what_uci_prints() {
    let table: Vec<String> = PROTOCOL_MD
        .lines()
        .skip_while(|l| *l != "### Options")
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(option_line)
        .collect();
    assert_eq!(table, uci_options());
    // And any `option name …` line quoted in the text.
    let printed = uci_options();
    for quote in quotes("`option name ", '`') {
        let line = quote.trim_start_matches('`').to_string();
        assert!(printed.contains(&line), "PROTOCOL.md quotes '{line}', the binary prints {printed:?}");
    }
}

#[test]
fn the_extension_answer_is_quoted_exactly() {
    let mut t = Tandem::start();
    t.send("bughouse");
    let printed = t.read_until(|l| l == "bughouseok");
    assert_eq!(block_after("which the engine answers with"), printed);
}
