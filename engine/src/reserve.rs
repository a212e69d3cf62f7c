//! A player's reserve ("hand", "pocket", "holdings"): pieces waiting to be dropped.

use std::fmt;

use shakmaty::Role;

/// The roles that can be held in a reserve, in FEN order of value.
pub const HAND_ROLES: [Role; 5] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// Counts of each droppable role (pawn to queen) for one colour.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Reserve {
    counts: [u8; 5],
}

impl Reserve {
    pub const EMPTY: Reserve = Reserve { counts: [0; 5] };

    #[inline]
    fn index(role: Role) -> usize {
        debug_assert!(role != Role::King, "a king never goes into a reserve");
        role as usize - 1
    }

    #[inline]
    pub fn count(&self, role: Role) -> u8 {
        self.counts[Reserve::index(role)]
    }

    #[inline]
    pub fn has(&self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// Adds one piece and returns the new count.
    #[inline]
    pub fn add(&mut self, role: Role) -> u8 {
        let slot = &mut self.counts[Reserve::index(role)];
        *slot = slot.saturating_add(1);
        *slot
    }

    /// Removes one piece and returns the count it had before, or `None` if there was none.
    #[inline]
    pub fn remove(&mut self, role: Role) -> Option<u8> {
        let slot = &mut self.counts[Reserve::index(role)];
        let before = *slot;
        *slot = before.checked_sub(1)?;
        Some(before)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&n| u32::from(n)).sum()
    }

    /// Roles present at least once, queen first.
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        HAND_ROLES.into_iter().filter(|&r| self.has(r))
    }

    /// The reserve as FEN letters (`QNpp` style, upper case for `white`).
    pub fn to_letters(&self, white: bool) -> String {
        let mut s = String::new();
        for role in HAND_ROLES {
            let ch = if white { role.upper_char() } else { role.char() };
            for _ in 0..self.count(role) {
                s.push(ch);
            }
        }
        s
    }
}

impl fmt::Debug for Reserve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Reserve[{}]", self.to_letters(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_and_remove() {
        let mut r = Reserve::EMPTY;
        assert_eq!(r.add(Role::Knight), 1);
        assert_eq!(r.add(Role::Knight), 2);
        assert_eq!(r.add(Role::Pawn), 1);
        assert_eq!(r.to_letters(true), "NNP");
        assert_eq!(r.remove(Role::Knight), Some(2));
        assert_eq!(r.remove(Role::Queen), None);
        assert_eq!(r.total(), 2);
        assert_eq!(r.roles().collect::<Vec<_>>(), vec![Role::Knight, Role::Pawn]);
    }
}
