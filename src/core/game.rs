//! The `Game` trait: the one interface the search, perft, bench and protocol layers are generic
//! over. A game is a small `Copy` state with copy-make `apply`; it knows nothing of search or I/O.

use std::fmt::Debug;

use arrayvec::ArrayVec;

/// A player seat. `First` always starts a game from its start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other seat.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Inverse of [`Side::index`]; any non-zero value is `Second`.
    #[inline]
    pub fn from_index(i: usize) -> Side {
        if i == 0 { Side::First } else { Side::Second }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// A bounded move list. Implemented for every `ArrayVec`; each game names its own capacity
/// (and justifies it next to the type alias).
pub trait MoveList<M>: Default + AsRef<[M]> + AsMut<[M]> + Debug + Clone {
    /// Appends a move. Capacity overflow is a bug in the game's capacity bound.
    fn push_move(&mut self, m: M);
    /// Removes every move.
    fn clear_moves(&mut self);
}

impl<M: Copy + Debug, const N: usize> MoveList<M> for ArrayVec<M, N> {
    #[inline]
    fn push_move(&mut self, m: M) {
        self.push(m);
    }
    #[inline]
    fn clear_moves(&mut self) {
        self.clear();
    }
}

/// An integer option of a game variant (`setoption name <name> value <int>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantOption {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
}

impl VariantOption {
    /// The check every `Game::configure` starts with: one value per option of `options` (the
    /// options of game `game`), each within its range.
    pub fn check(game: &str, options: &[VariantOption], values: &[i64]) -> Result<(), String> {
        if values.len() != options.len() {
            let names: Vec<&str> = options.iter().map(|o| o.name).collect();
            return Err(if options.is_empty() {
                format!("{game} takes no options, got {} value(s)", values.len())
            } else {
                format!(
                    "{game} takes {} option values ({}), got {}",
                    options.len(),
                    names.join(", "),
                    values.len()
                )
            });
        }
        for (o, &v) in options.iter().zip(values) {
            if v < o.min || v > o.max {
                return Err(format!(
                    "{} must be in {}..={}, got {v}",
                    o.name, o.min, o.max
                ));
            }
        }
        Ok(())
    }
}

/// A tunable integer weight of a game's `default` heuristic, offered by the protocol as the
/// `spin` option `name` (`setoption name ParchisW_goal value 300`). `min..=max` is chosen per
/// weight so that no position can push the evaluation outside its bound, whatever the other
/// weights are set to (each game's `eval.rs` checks the worst case at compile time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

impl WeightSpec {
    /// A weight ranging over `-bound..=bound`.
    pub const fn symmetric(name: &'static str, default: i32, bound: i32) -> WeightSpec {
        WeightSpec {
            name,
            default,
            min: -bound,
            max: bound,
        }
    }

    /// The largest magnitude the weight can take, for the games' compile-time worst cases.
    pub const fn magnitude(&self) -> i64 {
        let (a, b) = (self.min as i64, self.max as i64);
        let (a, b) = (if a < 0 { -a } else { a }, if b < 0 { -b } else { b });
        if a > b { a } else { b }
    }
}

/// Most weights any game's `default` heuristic has (the size of [`WeightOverrides`]).
pub const MAX_WEIGHTS: usize = 32;

/// Weight values set by the user, by index into [`Game::WEIGHTS`]; unset ones keep their
/// default. Not generic, so that the search options stay one small `Copy` value for every
/// game; the search turns it into the game's own `Game::Weights` once per search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WeightOverrides {
    set: u32,
    values: [i32; MAX_WEIGHTS],
}

const _: () = assert!(MAX_WEIGHTS <= u32::BITS as usize);

impl WeightOverrides {
    /// Sets weight `index` (an index into `Game::WEIGHTS`, below [`MAX_WEIGHTS`]).
    pub fn set(&mut self, index: usize, value: i32) {
        assert!(index < MAX_WEIGHTS, "weight index {index} out of range");
        self.set |= 1 << index;
        self.values[index] = value;
    }

    /// The value set for weight `index`, if any.
    pub fn get(&self, index: usize) -> Option<i32> {
        (index < MAX_WEIGHTS && self.set >> index & 1 == 1).then(|| self.values[index])
    }

    /// Is no weight set (every weight at its default)?
    pub fn is_empty(&self) -> bool {
        self.set == 0
    }

    /// The value in force of every weight of `G`, in `G::WEIGHTS` order.
    pub fn values<G: Game>(&self) -> Vec<i32> {
        G::WEIGHTS
            .iter()
            .enumerate()
            .map(|(i, w)| self.get(i).unwrap_or(w.default))
            .collect()
    }

    /// `G`'s weights with these overrides.
    pub fn resolve<G: Game>(&self) -> G::Weights {
        if self.is_empty() {
            G::DEFAULT_WEIGHTS
        } else {
            G::weights(&self.values::<G>())
        }
    }
}

/// One named term of an evaluation, for the `eval` command.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTerm {
    pub name: String,
    /// Value of the term for the side it is reported for (free-form text, e.g. "3 - 1 = 2").
    pub value: String,
}

/// The game-agnostic interface. `Self` is the state of one position.
///
/// Contract:
/// - `legal_moves` writes nothing when `outcome()` is `Some` (finished games have no moves).
/// - `apply` is only called with a move from `legal_moves` of the same state (trusted input);
///   untrusted text goes through [`Game::parse_move`], which validates legality.
/// - `hash` covers everything that affects the future of the game (side to move, pending
///   movements, dice, items, …): equal hashes are treated as equal positions by the search.
/// - Several plies in a row by the same side are normal; nothing may assume alternation.
pub trait Game: Copy + Debug + Send + Sync + 'static {
    /// A move of this game; small and `Copy`.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    /// The bounded move list (an `ArrayVec` whose capacity is justified by the game).
    type Moves: MoveList<Self::Move>;
    /// Variant parameters (board size, seeds…), built from [`Game::OPTIONS`] values.
    type Config: Copy + Debug + Default + PartialEq + Send + Sync + 'static;
    /// The weights of the `default` heuristic in the form its evaluation reads them (plain
    /// fields, or tables derived from them), built from [`Game::WEIGHTS`] values.
    type Weights: Copy + Debug + PartialEq + Send + Sync + 'static;

    /// Name used by `UCI_Variant` and `--game`.
    const NAME: &'static str;
    /// Variant options in the order `configure` receives their values.
    const OPTIONS: &'static [VariantOption];
    /// Heuristic names accepted by `setoption name Heuristic`; index 0 is the default one.
    const HEURISTICS: &'static [&'static str];
    /// The tunable weights of heuristic 0 (`default`), at most [`MAX_WEIGHTS`]; the other
    /// heuristics are fixed formulas (the course's and the student report's).
    const WEIGHTS: &'static [WeightSpec];
    /// `weights` of every default value of `WEIGHTS` (a constant, so that code evaluating with
    /// the defaults compiles them in).
    const DEFAULT_WEIGHTS: Self::Weights;
    /// Move ordering: are killer moves (recent cutoff moves at the same ply) tried before
    /// every move the game's hint ranks (true), or only among moves of equal hint (false)?
    /// Measured per game on the bench: true pays where the best move of sibling positions is
    /// often the same move (Parchís dice choices), false where the hint is sharp (Connect
    /// Four's centre-first, Kalah's extra turns).
    const KILLERS_BEFORE_HINTS: bool = false;
    /// Move ordering: the least remaining depth at which moves are ranked by the hint. Below it
    /// (only the table move and killers go first, the rest in generation order) computing the
    /// hints costs more than the cutoffs they buy: Parchís at depth 1, where a child is just a
    /// cheap static evaluation (measured with `test` at depth 6: −6 % instructions, nodes ±5 %).
    const HINT_MIN_DEPTH: u32 = 1;

    /// Builds a config from one value per entry of `OPTIONS` (each within min..=max).
    fn configure(values: &[i64]) -> Result<Self::Config, String>;
    /// The start position of the variant.
    fn start(config: &Self::Config) -> Self;
    /// Other named start positions (`position <name>`), e.g. Parchís' `playground`.
    fn named_start(name: &str, config: &Self::Config) -> Option<Self> {
        let _ = (name, config);
        None
    }

    /// The side whose move it is (also meaningful for finished games: the side that would move).
    fn side_to_move(&self) -> Side;
    /// All legal moves, in a fixed deterministic order. Empty for finished games.
    fn legal_moves(&self, out: &mut Self::Moves);
    /// Is `m` one of `legal_moves()`? The search asks this of a killer move before generating
    /// anything, so a game whose generation is costly (Parchís) should answer it cheaply; the
    /// default generates.
    fn is_legal(&self, m: Self::Move) -> bool {
        let mut moves = Self::Moves::default();
        self.legal_moves(&mut moves);
        moves.as_ref().contains(&m)
    }
    /// The position after `m` (copy-make). `m` must be legal here.
    fn apply(&self, m: Self::Move) -> Self;
    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash of everything that affects the future of the game.
    fn hash(&self) -> u64;

    /// Parses move text and checks it is legal in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;
    /// The protocol notation of a move (inverse of `parse_move`).
    fn format_move(&self, m: Self::Move) -> String;
    /// The state string (`fen`); `parse_fen(format_fen(s)) == s`.
    fn format_fen(&self) -> String;
    /// Parses a state string. The config supplies defaults the string does not carry.
    fn parse_fen(text: &str, config: &Self::Config) -> Result<Self, String>;
    /// A human-readable multi-line board for `d`.
    fn display(&self) -> String;

    /// Builds the weights from one value per entry of `WEIGHTS`, each within its min..=max.
    fn weights(values: &[i32]) -> Self::Weights;

    /// Static evaluation of a non-finished position for `perspective`, with heuristic number
    /// `heuristic` (index into `HEURISTICS`) and, for heuristic 0, the weights `weights`. Must
    /// stay within ±`EVAL_LIMIT` for every weight value in range. It need not be zero-sum: the
    /// search always evaluates from the root player's view, as the course's searches do (BOOM's
    /// course `test` heuristic scores the asking player's pieces only).
    fn evaluate_with(&self, heuristic: usize, weights: &Self::Weights, perspective: Side) -> i32;
    /// The terms of `evaluate_with` for the `eval` command.
    fn eval_terms_with(
        &self,
        heuristic: usize,
        weights: &Self::Weights,
        perspective: Side,
    ) -> Vec<EvalTerm>;
    /// Builds now what `evaluate_with` these weights would otherwise build on its first use in
    /// positions like this one (Mancala's endgame table, half a second): the engine calls it
    /// at `isready`, so that no timed search pays for it. The default has nothing to build.
    fn prepare_eval(&self, weights: &Self::Weights) {
        let _ = weights;
    }
    /// `evaluate_with` the default weights.
    fn evaluate(&self, heuristic: usize, perspective: Side) -> i32 {
        self.evaluate_with(heuristic, &Self::DEFAULT_WEIGHTS, perspective)
    }
    /// `eval_terms_with` the default weights.
    fn eval_terms(&self, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        self.eval_terms_with(heuristic, &Self::DEFAULT_WEIGHTS, perspective)
    }
    /// A cheap ordering hint: larger is searched first. Ties keep generation order.
    fn move_order_hint(&self, m: Self::Move) -> i32 {
        let _ = m;
        0
    }
    /// A rough estimate of how many more moves (plies) the side to move will have to make in
    /// this game; time management divides the clock by it. It only has to be the right size:
    /// too high wastes the clock at the end, too low spends it too early. The default suits a
    /// game of a few dozen moves a side; games whose length the position shows (a filling
    /// board, seeds left, distance still to run) say so.
    fn moves_left(&self) -> u32 {
        30
    }
}

/// Every static evaluation must stay strictly inside this bound, so that win/loss scores
/// (which start at `crate::core::score::WIN_BASE`) are never confused with evaluations.
pub const EVAL_LIMIT: i32 = 100_000_000;

/// Applies `text` as a move after validating it: the fallible tier for untrusted input.
pub fn try_play<G: Game>(state: &G, text: &str) -> Result<G, String> {
    Ok(state.apply(try_move(state, text)?))
}

/// The legal move `text` names in `state` (the check of [`try_play`], without playing it).
pub fn try_move<G: Game>(state: &G, text: &str) -> Result<G::Move, String> {
    if state.outcome().is_some() {
        return Err(format!("game is over, no move '{text}' possible"));
    }
    state.parse_move(text)
}
