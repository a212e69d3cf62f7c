//! The partner's standing requests: what their messages asked of us and
//! still holds, and what of it the search uses.

use shakmaty::Role;

use super::{PartnerMessage, PartnerRequests, Trades};

/// Our partner's standing requests, as their messages left them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingRequests {
    pub sitting: bool,
    /// `Some(true)` after `fast`, `Some(false)` after `slow`.
    pub fast: Option<bool>,
    pub partner_dead: bool,
    pub need: Vec<Role>,
    pub dont_give: Vec<Role>,
    pub trades: Option<Trades>,
    pub planned_move: Option<String>,
}

impl StandingRequests {
    /// Updates the requests for one message; `earlier` are the messages
    /// received before it, oldest first (`x` cancels the latest that stands).
    /// Clock reports and free text change nothing here.
    pub fn receive(&mut self, message: &PartnerMessage, earlier: &[PartnerMessage]) {
        match message {
            PartnerMessage::Sit => self.sitting = true,
            PartnerMessage::Go => self.sitting = false,
            PartnerMessage::Fast => self.fast = Some(true),
            // `slow` ends a wait: the partner moved, so it is no longer dead either.
            PartnerMessage::Slow => {
                self.fast = Some(false);
                self.partner_dead = false;
            }
            PartnerMessage::Dead => self.partner_dead = true,
            PartnerMessage::Cancel => self.cancel_latest(earlier),
            PartnerMessage::Move(m) => self.planned_move = Some(m.clone()),
            PartnerMessage::Need(roles) => self.need = roles.clone(),
            PartnerMessage::DontGive(roles) => self.dont_give = roles.clone(),
            PartnerMessage::Trades(t) => self.trades = Some(*t),
            PartnerMessage::Time(_)
            | PartnerMessage::OpponentTime(_)
            | PartnerMessage::MoveNow
            | PartnerMessage::Help
            | PartnerMessage::Board(_)
            | PartnerMessage::Introduction(_)
            | PartnerMessage::Other(_) => {}
        }
    }

    /// `x` undoes the latest request that is still standing.
    fn cancel_latest(&mut self, earlier: &[PartnerMessage]) {
        for message in earlier.iter().rev() {
            let undone = match message {
                PartnerMessage::Sit if self.sitting => {
                    self.sitting = false;
                    true
                }
                PartnerMessage::Fast | PartnerMessage::Slow if self.fast.is_some() => {
                    self.fast = None;
                    true
                }
                PartnerMessage::Need(_) if !self.need.is_empty() => {
                    self.need.clear();
                    true
                }
                PartnerMessage::DontGive(_) if !self.dont_give.is_empty() => {
                    self.dont_give.clear();
                    true
                }
                PartnerMessage::Trades(_) if self.trades.is_some() => {
                    self.trades = None;
                    true
                }
                PartnerMessage::Dead if self.partner_dead => {
                    self.partner_dead = false;
                    true
                }
                _ => false,
            };
            if undone {
                return;
            }
        }
    }

    /// What the search takes from the requests: `dead` hurries us like `fast`.
    pub fn for_search(&self) -> PartnerRequests {
        let bits = |roles: &[Role]| roles.iter().fold(0u8, |bits, &role| bits | 1 << role as u8);
        PartnerRequests {
            need: bits(&self.need),
            dont_give: bits(&self.dont_give),
            sit: self.sitting,
            fast: self.fast == Some(true) || self.partner_dead,
            trades: self.trades,
        }
    }
}
