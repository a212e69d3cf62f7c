//! Training tandem's network: [`data`] is the position file, [`gen`] the
//! self-play games that fill it, [`train`] the trainer that turns it into a
//! network file the engine reads. tune/NNUE.md has the commands.

pub mod data;
pub mod gen;
pub mod train;
