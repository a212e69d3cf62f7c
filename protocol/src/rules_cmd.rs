//! `tandem rules`: every preset with the values it sets, and every option with
//! its values and what they mean, from the engine's own tables.

use std::fmt::Write as _;

use clap::Args;
use tandem_engine::{rule_options, Preset, Rules};

#[derive(Args)]
pub struct RulesArgs {
    /// Show one preset or spec only (e.g. `tandemschach,promotion=steal`).
    spec: Option<String>,
}

pub fn run(args: &RulesArgs) -> Result<(), String> {
    let text = match &args.spec {
        Some(spec) => {
            let rules: Rules = spec.parse().map_err(|e| format!("{e}"))?;
            describe(&rules)
        }
        None => catalogue(),
    };
    print!("{text}");
    Ok(())
}

/// One rules value: its canonical spec and every option's value.
fn describe(rules: &Rules) -> String {
    let mut out = format!("{rules}: {}\n", rules.preset.description());
    for (name, value) in rules.options() {
        let _ = writeln!(out, "  {name} = {value}");
    }
    out
}

/// The presets, then the options with their values.
pub fn catalogue() -> String {
    let mut out = String::from(
        "Rules are a preset with optional overrides: `--rules tandemschach,drop_checks=no-mate`\n\
         (UCI: `setoption name UCI_Variant value <preset>` and `setoption name Rules value <overrides>`;\n\
         xboard: `variant <preset>` and `option Rules=<overrides>`). docs/RULES.md has the full text.\n\nPresets:\n",
    );
    for preset in Preset::ALL {
        out.push('\n');
        out.push_str(&describe(&Rules::preset(preset)));
    }
    out.push_str("\nOptions:\n");
    for option in rule_options() {
        let _ = writeln!(out, "\n  {}: {}", option.name, option.meaning);
        for (value, meaning) in option.values {
            let _ = writeln!(out, "    {value:<18} {meaning}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_names_every_preset_option_and_value() {
        let text = catalogue();
        for preset in Preset::ALL {
            assert!(text.contains(&format!("\n{}: ", preset.name())), "{}", preset.name());
        }
        for option in rule_options() {
            assert!(text.contains(&format!("  {}: ", option.name)));
            for (value, _) in option.values {
                assert!(text.contains(&format!("    {value} ")), "{value}");
            }
        }
        assert!(describe(&"tandemschach".parse().unwrap()).contains("pawn_drops = ranks-2-6"));
    }
}
