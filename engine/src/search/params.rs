//! The search's numbers, named in one place.
//!
//! Every margin, depth limit and divisor of the pruning and reduction rules in
//! [`super::alphabeta`] lives here, so a tuning run (or a reader) finds them
//! together. Depths are in plies, scores in centipawns.

/// Tunable numbers of one search thread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// Reverse futility: up to this depth, `eval - margin * (depth - improving) >= beta` cuts.
    pub rfp_max_depth: i32,
    pub rfp_margin: i32,
    /// Null move: from this depth; reduced by `base + depth / depth_divisor +
    /// min((eval - beta) / eval_divisor, eval_max)`.
    pub nmp_min_depth: i32,
    pub nmp_base_reduction: i32,
    pub nmp_depth_divisor: i32,
    pub nmp_eval_divisor: i32,
    pub nmp_eval_max: i32,
    /// ProbCut: from this depth, a capture beating beta by the margin (less
    /// `probcut_improving` when improving) in a search `probcut_reduction` plies shallower.
    pub probcut_min_depth: i32,
    pub probcut_margin: i32,
    pub probcut_improving: i32,
    pub probcut_reduction: i32,
    /// Internal iterative reduction: a node without a TT move from this depth loses a ply.
    pub iir_min_depth: i32,
    /// Singular extensions: from this depth, with a TT entry at most `se_depth_slack`
    /// plies shallower; the test's beta is `score - se_margin_per_depth * depth`.
    pub se_min_depth: i32,
    pub se_depth_slack: i32,
    pub se_margin_per_depth: i32,
    /// Late move pruning: quiet moves past `(lmp_base + depth²) / (2 - improving)`.
    pub lmp_base: i32,
    /// Late move pruning keeps only checks up to this depth.
    pub lmp_checks_only_depth: i32,
    /// History pruning: up to this depth, history below `-margin * depth` prunes.
    pub history_prune_max_depth: i32,
    pub history_prune_margin: i32,
    /// Futility of a quiet move at its reduced depth: `eval + base + per_depth * lmr_depth <= alpha`.
    pub futility_max_lmr_depth: i32,
    pub futility_base: i32,
    pub futility_per_depth: i32,
    /// Continuation-history pruning below this reduced depth.
    pub continuation_prune_max_lmr_depth: i32,
    /// Captures losing more than `margin * depth` by SEE are skipped up to this depth.
    pub capture_see_max_depth: i32,
    pub capture_see_margin: i32,
    /// Late move reductions: from this depth and move index; history / divisor
    /// is taken off the reduction.
    pub lmr_min_depth: i32,
    pub lmr_min_index: usize,
    pub lmr_history_divisor: i32,
    /// What a capture in quiescence may gain beyond its victim's exchange value.
    pub quiescence_futility_margin: i32,
    /// Reduction table: `lmr_base + ln(depth) ln(move number) / lmr_divisor`.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
}

/// The values the engine plays with.
pub const PARAMS: SearchParams = SearchParams {
    rfp_max_depth: 7,
    rfp_margin: 120,
    nmp_min_depth: 3,
    nmp_base_reduction: 3,
    nmp_depth_divisor: 4,
    nmp_eval_divisor: 200,
    nmp_eval_max: 3,
    probcut_min_depth: 5,
    probcut_margin: 180,
    probcut_improving: 50,
    probcut_reduction: 4,
    iir_min_depth: 4,
    se_min_depth: 7,
    se_depth_slack: 3,
    se_margin_per_depth: 2,
    lmp_base: 3,
    lmp_checks_only_depth: 2,
    history_prune_max_depth: 3,
    history_prune_margin: 3000,
    futility_max_lmr_depth: 7,
    futility_base: 130,
    futility_per_depth: 85,
    continuation_prune_max_lmr_depth: 3,
    capture_see_max_depth: 4,
    capture_see_margin: 80,
    lmr_min_depth: 3,
    lmr_min_index: 2,
    lmr_history_divisor: 9000,
    quiescence_futility_margin: 100,
    lmr_base: 0.6,
    lmr_divisor: 2.2,
};
