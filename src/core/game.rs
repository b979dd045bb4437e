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

impl Outcome {
    /// The result as records, reviews and the board write it: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(self) -> &'static str {
        match self {
            Outcome::Win(Side::First) => "1-0",
            Outcome::Win(Side::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
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

/// An option of a game variant: an integer in `min..=max` (a `spin`, `setoption name Rows value
/// 6`), or one of a few named values (a `combo`, `setoption name Year value 2023-24`), each of
/// which stands for an integer. Either way the game receives integers ([`Game::configure`]), so
/// records, settings and configs keep one type; only the text a person reads and types differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantOption {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    /// A combo's values: each name and the integer it stands for, in the order `uci` lists
    /// them. Empty for a spin.
    pub names: &'static [(&'static str, i64)],
}

impl VariantOption {
    /// An integer option in `min..=max`.
    pub const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> VariantOption {
        VariantOption {
            name,
            default,
            min,
            max,
            names: &[],
        }
    }

    /// An option of named values (`names`: each name and its integer, at least one); `default`
    /// is one of the integers. `min` and `max` are the least and greatest of them.
    pub const fn combo(
        name: &'static str,
        default: i64,
        names: &'static [(&'static str, i64)],
    ) -> VariantOption {
        let (mut min, mut max, mut i) = (names[0].1, names[0].1, 1);
        while i < names.len() {
            if names[i].1 < min {
                min = names[i].1;
            }
            if names[i].1 > max {
                max = names[i].1;
            }
            i += 1;
        }
        VariantOption {
            name,
            default,
            min,
            max,
            names,
        }
    }

    /// Is this a combo (named values)?
    pub const fn is_combo(&self) -> bool {
        !self.names.is_empty()
    }

    /// Is `v` a value of the option?
    pub fn allows(&self, v: i64) -> bool {
        if self.is_combo() {
            self.names.iter().any(|&(_, n)| n == v)
        } else {
            (self.min..=self.max).contains(&v)
        }
    }

    /// The text of value `v`: a combo's name for it, else the integer.
    pub fn format_value(&self, v: i64) -> String {
        self.names
            .iter()
            .find(|&&(_, n)| n == v)
            .map_or_else(|| v.to_string(), |&(name, _)| name.to_string())
    }

    /// The names of a combo's values, joined with ", " (for messages).
    pub fn value_names(&self) -> String {
        self.names
            .iter()
            .map(|&(n, _)| n)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The value `text` gives the option: a combo takes one of its names (any case) or the
    /// integer one stands for, a spin an integer (not checked against the range here: see
    /// [`VariantOption::check`]).
    pub fn parse_value(&self, text: &str) -> Result<i64, ValueError> {
        let t = text.trim();
        if let Some(&(_, v)) = self.names.iter().find(|(n, _)| n.eq_ignore_ascii_case(t)) {
            return Ok(v);
        }
        match t.parse::<i64>() {
            Ok(v) if !self.is_combo() || self.allows(v) => Ok(v),
            _ if self.is_combo() => Err(ValueError::Name {
                name: self.name,
                names: self.value_names(),
            }),
            _ => Err(ValueError::Integer { name: self.name }),
        }
    }

    /// The check every `Game::configure` starts with: one value per option of `options` (the
    /// options of game `game`), each within its range (a combo: one of its values).
    pub fn check(
        game: &'static str,
        options: &[VariantOption],
        values: &[i64],
    ) -> Result<(), ConfigError> {
        if values.len() != options.len() {
            let names: Vec<&str> = options.iter().map(|o| o.name).collect();
            return Err(if options.is_empty() {
                ConfigError::NoOptions {
                    game,
                    got: values.len(),
                }
            } else {
                ConfigError::Count {
                    game,
                    want: options.len(),
                    names: names.join(", "),
                    got: values.len(),
                }
            });
        }
        for (o, &v) in options.iter().zip(values) {
            if o.is_combo() && !o.allows(v) {
                return Err(ConfigError::Named {
                    name: o.name,
                    names: o.value_names(),
                    got: v,
                });
            }
            if v < o.min || v > o.max {
                return Err(ConfigError::Range {
                    name: o.name,
                    min: o.min,
                    max: o.max,
                    got: v,
                });
            }
        }
        Ok(())
    }
}

/// Why a text is no value of a variant option ([`VariantOption::parse_value`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("{name} takes an integer")]
    Integer { name: &'static str },
    #[error("{name} takes one of {names}")]
    Name { name: &'static str, names: String },
}

/// Why option values do not configure a game ([`Game::configure`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{game} takes no options, got {got} value(s)")]
    NoOptions { game: &'static str, got: usize },
    #[error("{game} takes {want} option values ({names}), got {got}")]
    Count {
        game: &'static str,
        want: usize,
        names: String,
        got: usize,
    },
    #[error("{name} must be one of {names}, got {got}")]
    Named {
        name: &'static str,
        names: String,
        got: i64,
    },
    #[error("{name} must be in {min}..={max}, got {got}")]
    Range {
        name: &'static str,
        min: i64,
        max: i64,
        got: i64,
    },
    /// A library caller's value map keyed by a name that is not lower-case: the map is keyed by
    /// lower-case option names, and such a key would otherwise be silently ignored.
    #[error(
        "option key {key} is not lower-case: option values are keyed by lower-case names ({lower})"
    )]
    KeyCase { key: String, lower: String },
}

/// Why a move text is refused ([`Game::parse_move`]). The text says what is wrong in the
/// game's own words; the variant says which kind of wrong, for callers that treat them apart
/// (a referee counts an illegal move against the engine, a garbled line as a protocol error).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not a move in the game's notation (the text names the notation).
    #[error("{0}")]
    Notation(String),
    /// A move of the notation that the rules refuse in this position.
    #[error("{0}")]
    Illegal(String),
    /// The game is over: no move is legal.
    #[error("{0}")]
    Over(String),
}

/// Why a state string is refused ([`Game::parse_fen`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Not of the game's state-string form (the text names the part and what was expected).
    #[error("{0}")]
    Syntax(String),
    /// Well formed, but not a position of these rules or of this variant's size.
    #[error("{0}")]
    Rules(String),
}

// The callers above the games still report errors as text; these let `?` carry a typed error
// into them until they are typed themselves.
impl From<ConfigError> for String {
    fn from(e: ConfigError) -> String {
        e.to_string()
    }
}
impl From<MoveError> for String {
    fn from(e: MoveError) -> String {
        e.to_string()
    }
}
impl From<FenError> for String {
    fn from(e: FenError) -> String {
        e.to_string()
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

/// A game's weighted `default` heuristic, implemented once by the weights type of the game's
/// `eval.rs`: the weight table, the defaults, building the weights from option values, and the
/// evaluation itself. [`Game`]'s evaluation methods forward here by default, so a game's
/// `Game` impl carries none of it.
pub trait Evaluation<G: ?Sized>: Copy + Debug + PartialEq + Send + Sync + 'static {
    /// The tunable weights of heuristic 0, at most [`MAX_WEIGHTS`] (see [`Game::WEIGHTS`]).
    const SPECS: &'static [WeightSpec];
    /// The weights with every default of `SPECS` (a constant, so that code evaluating with the
    /// defaults compiles them in).
    const DEFAULT: Self;
    /// The weights from one value per entry of `SPECS`, each within its min..=max (missing
    /// values keep their default).
    fn from_values(values: &[i32]) -> Self;
    /// [`Game::evaluate_with`].
    fn evaluate(&self, state: &G, heuristic: usize, perspective: Side) -> i32;
    /// [`Game::eval_terms_with`].
    fn terms(&self, state: &G, heuristic: usize, perspective: Side) -> Vec<EvalTerm>;
    /// [`Game::prepare_eval`]: nothing to build by default.
    fn prepare(&self, state: &G) {
        let _ = state;
    }
}

/// Every default of `specs` as an array (for [`Evaluation::DEFAULT`]; `N` is the table's
/// length, checked at compile time).
pub const fn default_values<const N: usize>(specs: &[WeightSpec]) -> [i32; N] {
    assert!(specs.len() == N, "a weight table of another length");
    let mut v = [0; N];
    let mut i = 0;
    while i < N {
        v[i] = specs[i].default;
        i += 1;
    }
    v
}

/// `values` as an array of `N`, each missing one at its default in `specs` (for
/// [`Evaluation::from_values`]).
pub fn values_or_defaults<const N: usize>(specs: &[WeightSpec], values: &[i32]) -> [i32; N] {
    std::array::from_fn(|i| values.get(i).copied().unwrap_or(specs[i].default))
}

/// One named term of an evaluation, for the `eval` command.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalTerm {
    pub name: String,
    /// Value of the term for the side it is reported for (free-form text, e.g. "3 - 1 = 2").
    pub value: String,
}

/// One position of the `bench` suite: where it starts (`startpos`, a start name or
/// `fen <state>`), the moves played from there in the game's notation, and the depth searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    pub start: &'static str,
    pub moves: &'static str,
    pub depth: u32,
}

/// How the game review turns a score of the `default` heuristic into an expected result: a
/// logistic curve `1 / (1 + exp(-(cp - offset) / scale))`, one (scale, offset) per parity of
/// the search depth, fitted with `tablero analyse --fit` on the game's self-play; and the
/// smallest loss of expected result that marks an inaccuracy (a mistake is twice it, a blunder
/// three times). docs/review.md, "Calibration".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewCalibration {
    pub even: (f64, f64),
    pub odd: (f64, f64),
    pub inaccuracy: f64,
}

/// What `tablero learn` labels a position with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelKind {
    /// By the solvers (Kalah margin, Connect Four result).
    Exact,
    /// By the result of the self-play game the position comes from.
    Result,
}

/// Which positions of `tablero learn`'s games become samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// The positions of the game record (where a searcher moved).
    Roots,
    /// The sampled leaves of the searches.
    Leaves,
}

/// `tablero learn`'s choices for a game unless told otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnPlan {
    pub labels: LabelKind,
    pub positions: Positions,
    /// `None`: logistic, unit fitted to the start weights (Texel's K); `Some(u)`: least squares
    /// of evaluation / u.
    pub squares_unit: Option<f64>,
    /// Weights kept at their start values, and the rows where they contribute dropped (they
    /// mark decided positions whose exact value the term does not try to estimate).
    pub exclude: &'static [&'static str],
    /// Weights kept at their start values (too coarse to fit: small integer factors).
    pub fixed: &'static [&'static str],
}

/// What the layers above the rules need to know of a game besides its rules, written once in
/// the game's folder ([`Game::PROFILE`]) and read generically by the bench, the built-in
/// players, the review and `learn`, so that a new game needs no edit in any of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// The game's positions of the `bench` suite (its node total is the regression signature).
    pub bench: &'static [BenchPosition],
    /// Search depths in plies of the built-in ladder: `greedy`, `ninja1`, `ninja2`, `ninja3`
    /// (also `solver`'s where no solver exists). docs/players.md measures each rung.
    pub ladder: [u32; 4],
    /// The depth a review searches when no limit is given.
    pub review_depth: u32,
    pub review: ReviewCalibration,
    pub learn: LearnPlan,
}

impl Profile {
    /// A new game's profile until its own figures are measured: no bench positions, the ladder
    /// of Connect Four and Kalah, reviews at depth 8 with a curve of scale 500 (a game whose
    /// evaluation has not been fitted yet), `learn` on self-play results at the roots.
    pub const DEFAULT: Profile = Profile {
        bench: &[],
        ladder: [1, 3, 5, 9],
        review_depth: 8,
        review: ReviewCalibration {
            even: (500.0, 0.0),
            odd: (500.0, 0.0),
            inaccuracy: 0.03,
        },
        learn: LearnPlan {
            labels: LabelKind::Result,
            positions: Positions::Roots,
            squares_unit: None,
            exclude: &[],
            fixed: &[],
        },
    };
}

/// The colours of a terminal board ([`Game::display_inked`]): the first side's pieces are red
/// (x, South, yellow and red in Parchís' two-colour lines), the second's yellow or blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hue {
    Red,
    Yellow,
    Blue,
    Green,
    /// Empty cells and other background.
    Dim,
}

/// How one span of a board's text is painted: its colour, and whether it is the last move
/// (shown in reverse video).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ink {
    pub hue: Hue,
    pub marked: bool,
}

impl Ink {
    pub const fn of(hue: Hue) -> Ink {
        Ink { hue, marked: false }
    }
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
    /// fields, or tables derived from them), built from [`Game::WEIGHTS`] values; the weights
    /// type also evaluates ([`Evaluation`]).
    type Weights: Evaluation<Self>;

    /// Name used by `UCI_Variant` and `--game`.
    const NAME: &'static str;
    /// The game's name for people, as the course calls it ("Conecta-4 BOOM"): help texts list
    /// the registry's titles, so a new game shows up in them by its registration alone.
    const TITLE: &'static str;
    /// Other names people type for the game on the command line (`--game kalah`), compared
    /// lower case without accents or separators; the first ones are shown in "known:" lists.
    const ALIASES: &'static [&'static str] = &[];
    /// Variant options in the order `configure` receives their values.
    const OPTIONS: &'static [VariantOption];
    /// Heuristic names accepted by `setoption name Heuristic`; index 0 is the default one.
    const HEURISTICS: &'static [&'static str];
    /// The tunable weights of heuristic 0 (`default`), at most [`MAX_WEIGHTS`]; the other
    /// heuristics are fixed formulas (the course's and the student report's).
    const WEIGHTS: &'static [WeightSpec] = <Self::Weights as Evaluation<Self>>::SPECS;
    /// `weights` of every default value of `WEIGHTS` (a constant, so that code evaluating with
    /// the defaults compiles them in).
    const DEFAULT_WEIGHTS: Self::Weights = <Self::Weights as Evaluation<Self>>::DEFAULT;
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
    /// Selective extension: how many plies past the iteration's depth a line may go, one ply
    /// at each leaf the game calls [`Game::unquiet`]. 0 (the default) never asks.
    const EXTENSION_PLIES: u32 = 0;
    /// No extension goes past this ply: a shallow search follows its sharp lines as far as a
    /// deep one looks at every line, and a search this deep or deeper is not extended (its
    /// cost stays that of its depth).
    const EXTENSION_HORIZON: u32 = 0;
    /// What the bench, the built-in players, the review and `learn` need to know of the game.
    const PROFILE: Profile = Profile::DEFAULT;

    /// Builds a config from one value per entry of `OPTIONS` (each within min..=max).
    fn configure(values: &[i64]) -> Result<Self::Config, ConfigError> {
        VariantOption::check(Self::NAME, Self::OPTIONS, values)?;
        Ok(Self::config_of(values))
    }
    /// The config of checked option values (one per entry of `OPTIONS`, each in range).
    fn config_of(values: &[i64]) -> Self::Config;
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
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// The protocol notation of a move (inverse of `parse_move`).
    fn format_move(&self, m: Self::Move) -> String;
    /// The state string (`fen`); `parse_fen(format_fen(s)) == s`.
    fn format_fen(&self) -> String;
    /// Parses a state string. The config supplies defaults the string does not carry.
    fn parse_fen(text: &str, config: &Self::Config) -> Result<Self, FenError>;
    /// A human-readable multi-line board for `d`.
    fn display(&self) -> String;
    /// A position in the file format of the game's course simulator, where it has one
    /// (5-en-Raya's `-file` boards): the variant option values the file sets (one per entry of
    /// `OPTIONS`) and the position. `None`: the game has no such files.
    fn parse_position_file(text: &str) -> Option<Result<(Vec<i64>, Self), FenError>> {
        let _ = text;
        None
    }
    /// The position in that file format (`parse_position_file` reads it back); `None` where
    /// the game has none.
    fn format_position_file(&self) -> Option<String> {
        None
    }
    /// `display()` without its final newline, for a terminal in colour (`tablero play`): the
    /// game wraps each span it colours in `ink(span, how)` (the front end turns that into its
    /// escape codes) and marks the last move, given as its text and the side that played it.
    /// The text without the inks is `display()`'s. By default nothing is coloured.
    fn display_inked(
        &self,
        last: Option<(&str, Side)>,
        ink: &dyn Fn(&str, Ink) -> String,
    ) -> String {
        let _ = (last, ink);
        self.display().trim_end().to_string()
    }

    /// Builds the weights from one value per entry of `WEIGHTS`, each within its min..=max.
    fn weights(values: &[i32]) -> Self::Weights {
        Self::Weights::from_values(values)
    }

    /// Static evaluation of a non-finished position for `perspective`, with heuristic number
    /// `heuristic` (index into `HEURISTICS`) and, for heuristic 0, the weights `weights`. Must
    /// stay within ±`EVAL_LIMIT` for every weight value in range. It need not be zero-sum: the
    /// search always evaluates from the root player's view, as the course's searches do (BOOM's
    /// course `test` heuristic scores the asking player's pieces only).
    fn evaluate_with(&self, heuristic: usize, weights: &Self::Weights, perspective: Side) -> i32 {
        weights.evaluate(self, heuristic, perspective)
    }
    /// The terms of `evaluate_with` for the `eval` command.
    fn eval_terms_with(
        &self,
        heuristic: usize,
        weights: &Self::Weights,
        perspective: Side,
    ) -> Vec<EvalTerm> {
        weights.terms(self, heuristic, perspective)
    }
    /// Builds now what `evaluate_with` these weights would otherwise build on its first use in
    /// positions like this one (Mancala's endgame table, half a second): the engine calls it
    /// at `isready`, so that no timed search pays for it.
    fn prepare_eval(&self, weights: &Self::Weights) {
        weights.prepare(self);
    }
    /// `evaluate_with` the default weights.
    fn evaluate(&self, heuristic: usize, perspective: Side) -> i32 {
        self.evaluate_with(heuristic, &Self::DEFAULT_WEIGHTS, perspective)
    }
    /// `eval_terms_with` the default weights.
    fn eval_terms(&self, heuristic: usize, perspective: Side) -> Vec<EvalTerm> {
        self.eval_terms_with(heuristic, &Self::DEFAULT_WEIGHTS, perspective)
    }
    /// Win probe: after a fixed-depth search (`go depth`) that found no win, how many plies
    /// deeper a second search, which only asks "is there a forced win?" (a null window at the
    /// win bound), may look from this root with `heuristic`, within the main search's own
    /// node count. 0 (the default) never probes. A win it finds is a proof (no forward pruning),
    /// so it only ever replaces a move that is not proven winning by one that is.
    fn win_probe_plies(&self, _heuristic: usize) -> u32 {
        0
    }
    /// Is this position too sharp for a static evaluation by `heuristic` at the horizon (a
    /// threat the side to move must answer now)? The search then looks one ply further,
    /// within `EXTENSION_PLIES`. Asked only when `EXTENSION_PLIES > 0`.
    fn unquiet(&self, heuristic: usize) -> bool {
        let _ = heuristic;
        false
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
pub fn try_play<G: Game>(state: &G, text: &str) -> Result<G, MoveError> {
    Ok(state.apply(try_move(state, text)?))
}

/// The legal move `text` names in `state` (the check of [`try_play`], without playing it).
pub fn try_move<G: Game>(state: &G, text: &str) -> Result<G::Move, MoveError> {
    if state.outcome().is_some() {
        return Err(MoveError::Over(format!(
            "game is over, no move '{text}' possible"
        )));
    }
    state.parse_move(text)
}
