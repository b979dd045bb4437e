//! Text forms of Parchís positions and moves: move notation, the FEN of the module doc (format
//! and strict, panic-free parsing; 2022-23's, 2021-22's, 2023-24's and 2024-25's), the golden
//! traces' STATE JSON and the human display.

use super::rules::{BOARD_ITEMS, NORMAL_DICE, POWER, YINYANG, dice_values, is_queue, is_track};
use super::{
    F_BANANED, F_EATING, F_GOAL, F_REMEMBER6, GOAL, HOME, MAX_HAND, MAX_TRAPS, Move, Parchis,
    T_BANANED, T_BOO, T_MEGA, T_MINI, T_NORMAL, T_STAR, Year,
};
use crate::core::game::{FenError, MoveError};

const COLOUR_LETTERS: [char; 4] = ['y', 'b', 'r', 'g'];
const ITEM_NAMES: [&str; 10] = [
    "star",
    "boo",
    "bullet",
    "redshell",
    "blueshell",
    "mushroom",
    "megamushroom",
    "shock",
    "horn",
    "banana",
];
const ITEM_LETTERS: [char; 10] = ['s', 'o', 'u', 'r', 'l', 'm', 'M', 'k', 'h', 'a'];
const TYPE_NAMES: [&str; 6] = ["normal", "star", "boo", "mega", "mini", "bananed"];
const TYPE_LETTERS: [char; 6] = ['n', 's', 'o', 'm', 'i', 'b'];

pub fn item_name(k: u8) -> &'static str {
    ITEM_NAMES.get(k as usize).copied().unwrap_or("?")
}

fn die_text(d: u8) -> String {
    if d == YINYANG {
        "yinyang".into()
    } else if d == POWER {
        "power".into()
    } else if d > 100 {
        ITEM_NAMES
            .get((d - 101) as usize)
            .map_or_else(|| format!("?{d}"), |s| s.to_string())
    } else {
        d.to_string()
    }
}

pub fn format_move(m: Move) -> String {
    if m.is_pass() {
        format!("pass:{}", die_text(m.die))
    } else {
        let c = COLOUR_LETTERS[(m.piece as usize >> 2) & 3];
        format!("{c}{}:{}", m.piece & 3, die_text(m.die))
    }
}

/// Parses move text into a `Move` (syntax only; legality is checked by the caller).
pub fn parse_move_text(text: &str) -> Result<Move, MoveError> {
    let (piece, die) = text.split_once(':').ok_or_else(|| {
        MoveError::Notation(format!(
            "bad move '{text}': expected <piece>:<die>, e.g. y0:5"
        ))
    })?;
    let die = match die {
        // 3 is a die of 2021-22 only; 2022-23's legality refuses it.
        "1" | "2" | "3" | "4" | "5" | "6" | "10" | "20" => die.parse::<u8>().unwrap_or(0),
        // The yin-yang face of 2024-25, the special die of 2023-24; other years' legality
        // refuses them.
        "yinyang" => YINYANG,
        "power" => POWER,
        _ => match ITEM_NAMES.iter().position(|&n| n == die) {
            Some(k) => 101 + k as u8,
            None => {
                return Err(MoveError::Notation(format!(
                    "bad move '{text}': unknown die '{die}' (1 to 6, 10, 20, power, yinyang or an item name)"
                )));
            }
        },
    };
    if piece == "pass" {
        return Ok(Move::pass(die));
    }
    let mut ch = piece.chars();
    let c = ch
        .next()
        .and_then(|l| COLOUR_LETTERS.iter().position(|&x| x == l))
        .ok_or_else(|| {
            MoveError::Notation(format!(
                "bad move '{text}': piece must be y/b/r/g + index or 'pass'"
            ))
        })?;
    let idx: u8 = match ch.as_str() {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        "3" => 3,
        _ => {
            return Err(MoveError::Notation(format!(
                "bad move '{text}': piece index must be 0..3"
            )));
        }
    };
    Ok(Move::new(4 * c as u8 + idx, die))
}

fn box_text(p: u8) -> String {
    match p {
        HOME => "h".into(),
        GOAL => "g".into(),
        _ if is_queue(p) => format!("q{}", p - 68),
        _ => format!("n{p}"),
    }
}

fn parse_box(t: &str) -> Result<u8, FenError> {
    let num = |s: &str, lo: u8, hi: u8| -> Result<u8, FenError> {
        match s.parse::<u8>() {
            Ok(v) if (lo..=hi).contains(&v) && !s.starts_with('+') => Ok(v),
            _ => Err(FenError::Syntax(format!("bad box '{t}'"))),
        }
    };
    match t {
        "h" => Ok(HOME),
        "g" => Ok(GOAL),
        _ if t.starts_with('n') => num(&t[1..], 1, 68),
        _ if t.starts_with('q') => Ok(68 + num(&t[1..], 1, 7)?),
        _ => Err(FenError::Syntax(format!("bad box '{t}'"))),
    }
}

fn normal_dice_text(year: Year, mask: u8) -> String {
    dice_values(year)
        .iter()
        .enumerate()
        .filter(|(k, _)| mask & (1 << k) != 0)
        .map(|(_, &d)| die_char(d))
        .collect()
}

/// One normal die in a state string: its digit, `Y` for the yin-yang face, `P` for 2023-24's
/// special die.
fn die_char(d: u8) -> char {
    if d == YINYANG {
        'Y'
    } else if d == POWER {
        'P'
    } else {
        char::from(b'0' + d % 10)
    }
}

fn forced_values(s: &Parchis, pl: usize) -> Vec<u8> {
    (0..s.forced_len[pl])
        .map(|i| {
            if s.forced_bits[pl] >> i & 1 == 1 {
                20
            } else {
                10
            }
        })
        .collect()
}

/// The dice of owner `o` as the FEN writes them: `<normal>:<items>:<forced>` (the player's held
/// items in 2022-23, `-` in 2021-22).
fn dice_field(s: &Parchis, o: usize, items: String) -> String {
    let forced: Vec<String> = forced_values(s, o).iter().map(|v| v.to_string()).collect();
    format!(
        "{}:{}:{}",
        normal_dice_text(s.year, s.dice[o]),
        if items.is_empty() { "-".into() } else { items },
        if forced.is_empty() {
            "-".into()
        } else {
            forced.join("+")
        }
    )
}

pub fn format_fen(s: &Parchis) -> String {
    let mut f = String::with_capacity(160);
    if s.year == Year::Y2023 {
        // 2023-24's players and turns are 2022-23's.
        f.push_str(&format!("b {} {} ", s.player, s.turn));
    } else if s.year != Year::Y2022 {
        f.push_str(&format!(
            "{} {} {} ",
            if s.year == Year::Y2021 { 'c' } else { 'y' },
            COLOUR_LETTERS[s.colour as usize & 3],
            s.turn
        ));
    } else {
        f.push_str(if s.playground { "p" } else { "n" });
        f.push_str(&format!(" {} {} ", s.player, s.turn));
    }
    let groups: Vec<String> = (0..4)
        .map(|c| {
            (0..s.npieces as usize)
                .map(|i| {
                    let id = 4 * c + i;
                    let (t, n) = (s.typ(id), s.counter(id));
                    if t == T_NORMAL && n == 0 {
                        box_text(s.pos[id])
                    } else {
                        format!("{}:{}{}", box_text(s.pos[id]), TYPE_LETTERS[t as usize], n)
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    f.push_str(&groups.join("/"));
    for pl in 0..2 {
        let items: String = if s.year == Year::Y2023 {
            // 2023-24 holds no items: the player's power bar stands in their place.
            s.power[pl].to_string()
        } else {
            s.hand[pl][..s.hand_len[pl] as usize]
                .iter()
                .map(|&i| ITEM_LETTERS[i as usize])
                .collect()
        };
        f.push(' ');
        if s.year == Year::Y2021 {
            // The player's two colours' dice: yellow/red, blue/green.
            f.push_str(&dice_field(s, pl, items));
            f.push('/');
            f.push_str(&dice_field(s, pl + 2, String::new()));
        } else {
            f.push_str(&dice_field(s, pl, items));
        }
    }
    f.push_str(&format!(" {:06x} ", s.board_items));
    if s.ntraps == 0 {
        f.push('-');
    } else {
        let t: Vec<String> = s.traps[..s.ntraps as usize]
            .iter()
            .map(|t| t.to_string())
            .collect();
        f.push_str(&t.join(","));
    }
    f.push_str(&format!(
        " {},{},{},{} ",
        s.bounces[0], s.bounces[1], s.bounces[2], s.bounces[3]
    ));
    let flags: String = [
        (F_EATING, 'e'),
        (F_GOAL, 'g'),
        (F_REMEMBER6, 'r'),
        (F_BANANED, 'b'),
    ]
    .iter()
    .filter(|(b, _)| s.flags & b != 0)
    .map(|&(_, l)| l)
    .collect();
    f.push_str(if flags.is_empty() { "-" } else { &flags });
    f.push(' ');
    match s.outcome {
        0 => f.push('-'),
        1..=4 => f.push_str(&format!("G{}", COLOUR_LETTERS[s.outcome as usize - 1])),
        o => f.push_str(&format!("B{}", o - 5)),
    }
    f.push(' ');
    let colour_or_dash = |c: u8| COLOUR_LETTERS.get(c as usize).copied().unwrap_or('-');
    f.push(colour_or_dash(s.last_mover));
    f.push('/');
    f.push(colour_or_dash(s.last_eaten));
    f.push('/');
    let destroyed: String = (0..4)
        .flat_map(|c| std::iter::repeat_n(COLOUR_LETTERS[c], s.destroyed[c] as usize))
        .collect();
    f.push_str(if destroyed.is_empty() {
        "-"
    } else {
        &destroyed
    });
    f
}

fn colour_letter(t: &str, what: &str) -> Result<u8, FenError> {
    match t {
        "-" => Ok(0xFF),
        _ => COLOUR_LETTERS
            .iter()
            .position(|&c| t.len() == 1 && t.starts_with(c))
            .map(|c| c as u8)
            .ok_or_else(|| FenError::Syntax(format!("bad {what} colour '{t}'"))),
    }
}

/// Why a 2021-22 state string with anything of 2022-23's items is refused.
const NO_ITEMS_2021: &str =
    "a 2021-22 position has no items, piece types, traps, bananed flag or destroyed pieces";
/// Why a 2023-24 state string with anything of 2022-23's items is refused.
const NO_ITEMS_2023: &str = "a 2023-24 position has no items, traps or bananed flag, and of \
     the piece types only star (s) and normal (n)";
/// Why a 2024-25 state string with anything of 2022-23's items is refused.
const NO_ITEMS_2024: &str =
    "a 2024-25 position has no items, piece types, traps, bananed flag or destroyed pieces";

/// The message refusing items in a state string of `year` (none for 2022-23, which has them).
fn no_items(year: Year) -> Option<&'static str> {
    match year {
        Year::Y2021 => Some(NO_ITEMS_2021),
        Year::Y2023 => Some(NO_ITEMS_2023),
        Year::Y2024 => Some(NO_ITEMS_2024),
        Year::Y2022 => None,
    }
}

/// Parses the FEN of the module doc. Never panics; rejects anything out of range.
pub fn parse_fen(text: &str) -> Result<Parchis, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 12 {
        return Err(FenError::Syntax(format!(
            "parchis fen needs 12 space-separated fields, got {}",
            fields.len()
        )));
    }
    let mut s = Parchis::empty();
    match fields[0] {
        "n" => {}
        "p" => s.playground = true,
        "c" => s.year = Year::Y2021,
        "b" => s.year = Year::Y2023,
        "y" => s.year = Year::Y2024,
        m => {
            return Err(FenError::Syntax(format!(
                "bad mode '{m}' (n or p; c for 2021-22, b for 2023-24, y for 2024-25)"
            )));
        }
    };
    if !matches!(s.year, Year::Y2022 | Year::Y2023) {
        s.colour = COLOUR_LETTERS
            .iter()
            .position(|&c| fields[1].len() == 1 && fields[1].starts_with(c))
            .ok_or_else(|| {
                FenError::Syntax(format!("bad colour to move '{}' (y, b, r or g)", fields[1]))
            })? as u8;
        s.player = s.player_of_colour(s.colour as usize) as u8;
    } else {
        s.player = match fields[1] {
            "0" => 0,
            "1" => 1,
            p => return Err(FenError::Syntax(format!("bad player '{p}' (0 or 1)"))),
        };
        s.colour = s.player;
    }
    s.turn = fields[2]
        .parse::<u32>()
        .map_err(|_| FenError::Syntax(format!("bad turn '{}'", fields[2])))?;
    // Pieces.
    let groups: Vec<&str> = fields[3].split('/').collect();
    if groups.len() != 4 {
        return Err(FenError::Syntax(
            "pieces need 4 '/'-separated colour groups (y/b/r/g)".into(),
        ));
    }
    let mut npieces = None;
    for (c, g) in groups.iter().enumerate() {
        let ps: Vec<&str> = g.split(',').collect();
        if s.year == Year::Y2024 {
            if ps.len() != 2 {
                return Err(FenError::Rules(
                    "a 2024-25 position has 2 pieces a colour".into(),
                ));
            }
        } else if !(3..=4).contains(&ps.len()) || npieces.is_some_and(|n| n != ps.len()) {
            return Err(FenError::Syntax(
                "every colour needs the same number (3 or 4) of pieces".into(),
            ));
        }
        npieces = Some(ps.len());
        for (i, p) in ps.iter().enumerate() {
            let id = 4 * c + i;
            let (b, st) = match p.split_once(':') {
                None => (*p, None),
                Some((b, st)) => (b, Some(st)),
            };
            s.pos[id] = parse_box(b)?;
            if let Some(st) = st {
                let mut ch = st.chars();
                let t = ch
                    .next()
                    .and_then(|l| TYPE_LETTERS.iter().position(|&x| x == l))
                    .ok_or_else(|| FenError::Syntax(format!("bad piece type in '{p}'")))?;
                let n: u8 = match ch.as_str().parse::<u8>() {
                    Ok(n) if n <= 31 && !ch.as_str().starts_with('+') => n,
                    _ => {
                        return Err(FenError::Syntax(format!(
                            "bad piece counter in '{p}' (0..31)"
                        )));
                    }
                };
                s.st[id] = t as u8 | n << 3;
            }
        }
    }
    s.npieces = npieces.unwrap_or(3) as u8;
    if s.year == Year::Y2021 {
        if s.npieces != 4 {
            return Err(FenError::Rules(
                "a 2021-22 position has 4 pieces a colour".into(),
            ));
        }
        if s.st.iter().any(|&t| t != 0) {
            return Err(FenError::Rules(NO_ITEMS_2021.into()));
        }
    }
    if s.year == Year::Y2024 && s.st.iter().any(|&t| t != 0) {
        return Err(FenError::Rules(NO_ITEMS_2024.into()));
    }
    if s.year == Year::Y2023 {
        if s.npieces != 3 {
            return Err(FenError::Rules(
                "a 2023-24 position has 3 pieces a colour".into(),
            ));
        }
        if s.st.iter().any(|&t| !matches!(t & 7, T_NORMAL | T_STAR)) {
            return Err(FenError::Rules(NO_ITEMS_2023.into()));
        }
    }
    // Dice.
    for pl in 0..2 {
        let (own, second) = if s.year == Year::Y2021 {
            // A player's two colours: field 5 is yellow/red, field 6 blue/green.
            let (a, b) = fields[4 + pl].split_once('/').ok_or_else(|| {
                FenError::Syntax(format!(
                    "bad dice '{}': a 2021-22 position has <colour>/<colour> dice",
                    fields[4 + pl]
                ))
            })?;
            (a, Some(b))
        } else {
            (fields[4 + pl], None)
        };
        if let Some(b) = second {
            parse_dice(&mut s, pl + 2, b)?;
        }
        parse_dice(&mut s, pl, own)?;
    }
    if let Some(refusal) = no_items(s.year)
        && (0..2).any(|pl| s.hand_len[pl] > 0)
    {
        return Err(FenError::Rules(refusal.into()));
    }
    parse_rest(s, &fields)
}

/// Parses the dice `text` (`<normal>:<items>:<forced>`) of owner `pl` (a player, or a colour in
/// 2021-22; items are a player's) into `s`.
fn parse_dice(s: &mut Parchis, pl: usize, text: &str) -> Result<(), FenError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 3 {
        return Err(FenError::Syntax(format!(
            "bad dice '{text}': <normal>:<items>:<forced>"
        )));
    }
    let values = dice_values(s.year);
    let mut mask = 0u8;
    for ch in parts[0].chars() {
        let k = values
            .iter()
            .position(|&d| die_char(d) == ch)
            .ok_or_else(|| FenError::Syntax(format!("bad normal die '{ch}'")))?;
        if mask & (1 << k) != 0 {
            return Err(FenError::Syntax(format!("normal die '{ch}' listed twice")));
        }
        mask |= 1 << k;
    }
    if mask == 0 {
        return Err(FenError::Syntax(
            "a player always holds at least one normal die".into(),
        ));
    }
    s.dice[pl] = mask;
    if s.year == Year::Y2023 {
        // The player's power bar where 2022-23 lists items.
        s.power[pl] = match parts[1].parse::<u8>() {
            Ok(v) if v <= 100 && parts[1] == v.to_string() => v,
            _ => {
                return Err(FenError::Syntax(format!(
                    "bad power bar '{}' in dice '{text}' (0 to 100)",
                    parts[1]
                )));
            }
        };
    } else if parts[1] != "-" {
        if pl >= 2 {
            return Err(FenError::Syntax(format!(
                "bad dice '{text}': items are held by a player, not a colour"
            )));
        }
        if parts[1].chars().count() > MAX_HAND {
            return Err(FenError::Syntax(format!(
                "at most {MAX_HAND} items per hand"
            )));
        }
        for ch in parts[1].chars() {
            let k = ITEM_LETTERS
                .iter()
                .position(|&x| x == ch)
                .ok_or_else(|| FenError::Syntax(format!("bad item letter '{ch}'")))?;
            let n = s.hand_len[pl] as usize;
            s.hand[pl][n] = k as u8;
            s.hand_len[pl] += 1;
        }
    }
    if parts[2] != "-" {
        for v in parts[2].split('+') {
            let n = s.forced_len[pl];
            if n >= 16 {
                return Err(FenError::Syntax("at most 16 forced layers".into()));
            }
            match v {
                "10" => {}
                "20" => s.forced_bits[pl] |= 1 << n,
                _ => return Err(FenError::Syntax(format!("bad forced die '{v}' (10 or 20)"))),
            }
            // The 2023-24 and 2024-25 cores never stack two bonuses.
            if s.year == Year::Y2024 && n >= 1 {
                return Err(FenError::Rules(
                    "a 2024-25 position has at most one pending bonus".into(),
                ));
            }
            if s.year == Year::Y2023 && n >= 1 {
                return Err(FenError::Rules(
                    "a 2023-24 position has at most one pending bonus".into(),
                ));
            }
            s.forced_len[pl] = n + 1;
        }
    }
    Ok(())
}

/// Parses fields 7 to 12 of the FEN into `s`.
fn parse_rest(mut s: Parchis, fields: &[&str]) -> Result<Parchis, FenError> {
    // Board items.
    let bi = fields[6];
    if bi.len() != 6 {
        return Err(FenError::Syntax("board items need 6 hex digits".into()));
    }
    s.board_items = u32::from_str_radix(bi, 16)
        .map_err(|_| FenError::Syntax(format!("bad board items '{bi}'")))?
        & 0xFF_FFFF;
    if format!("{:06x}", s.board_items) != bi {
        return Err(FenError::Syntax(format!(
            "bad board items '{bi}' (6 lower-case hex digits, at most ffffff)"
        )));
    }
    // Traps.
    if fields[7] != "-" {
        for t in fields[7].split(',') {
            let p = match t.parse::<u8>() {
                Ok(p) if is_track(p) && !t.starts_with('+') => p,
                _ => return Err(FenError::Syntax(format!("bad trap box '{t}' (1..68)"))),
            };
            if s.ntraps as usize >= MAX_TRAPS {
                return Err(FenError::Syntax(format!("at most {MAX_TRAPS} traps")));
            }
            s.traps[s.ntraps as usize] = p;
            s.ntraps += 1;
        }
    }
    // Bounces.
    let bs: Vec<&str> = fields[8].split(',').collect();
    if bs.len() != 4 {
        return Err(FenError::Syntax(
            "bounces need 4 comma-separated counters".into(),
        ));
    }
    for (c, b) in bs.iter().enumerate() {
        s.bounces[c] = match b.parse::<u8>() {
            Ok(v) if v <= 200 && !b.starts_with('+') => v,
            _ => return Err(FenError::Syntax(format!("bad bounce counter '{b}'"))),
        };
    }
    // Flags.
    if fields[9] != "-" {
        for ch in fields[9].chars() {
            let bit = match ch {
                'e' => F_EATING,
                'g' => F_GOAL,
                'r' => F_REMEMBER6,
                'b' => F_BANANED,
                _ => return Err(FenError::Syntax(format!("bad flag '{ch}' (e g r b)"))),
            };
            if s.flags & bit != 0 {
                return Err(FenError::Syntax(format!("flag '{ch}' listed twice")));
            }
            s.flags |= bit;
        }
    }
    if let Some(refusal) = no_items(s.year)
        && (s.board_items != 0 || s.ntraps != 0 || s.flags & F_BANANED != 0)
    {
        return Err(FenError::Rules(refusal.into()));
    }
    // Outcome.
    s.outcome = match fields[10] {
        "-" => 0,
        // A 2024-25 game is won by a player: its main colour (yellow or blue) stands for it.
        "Gr" | "Gg" if s.year == Year::Y2024 => {
            return Err(FenError::Syntax(format!(
                "bad outcome '{}' (a 2024-25 game ends Gy, Gb, B0 or B1)",
                fields[10]
            )));
        }
        "Gy" => 1,
        "Gb" => 2,
        "Gr" => 3,
        "Gg" => 4,
        "B0" => 5,
        "B1" => 6,
        o => {
            return Err(FenError::Syntax(format!(
                "bad outcome '{o}' (-, G<colour>, B<player>)"
            )));
        }
    };
    // Last move record.
    let lm: Vec<&str> = fields[11].split('/').collect();
    if lm.len() != 3 {
        return Err(FenError::Syntax(
            "last-move record needs <mover>/<eaten>/<destroyed>".into(),
        ));
    }
    s.last_mover = colour_letter(lm[0], "last mover")?;
    s.last_eaten = colour_letter(lm[1], "eaten")?;
    if lm[2] != "-" {
        for ch in lm[2].chars() {
            let c = COLOUR_LETTERS
                .iter()
                .position(|&x| x == ch)
                .ok_or_else(|| FenError::Syntax(format!("bad destroyed colour '{ch}'")))?;
            if s.destroyed[c] >= 16 {
                return Err(FenError::Syntax("too many destroyed pieces".into()));
            }
            s.destroyed[c] += 1;
        }
    }
    // 2023-24's power effects send pieces home: its record lists them.
    if let Some(refusal) = no_items(s.year).filter(|_| s.year != Year::Y2023)
        && s.destroyed != [0; 4]
    {
        return Err(FenError::Rules(refusal.into()));
    }
    Ok(s)
}

/// The golden traces' STATE JSON (README §2.2), keys in the trace order, no spaces.
pub fn trace_state_json(s: &Parchis) -> String {
    let mut o = String::with_capacity(900);
    o.push_str(&format!(
        "{{\"turn\":{},\"player\":{},\"color\":\"{}\",\"pieces\":{{",
        s.turn,
        s.player,
        if s.player == 0 { 'y' } else { 'b' }
    ));
    for (c, letter) in COLOUR_LETTERS.iter().enumerate() {
        if c > 0 {
            o.push(',');
        }
        o.push_str(&format!("\"{letter}\":["));
        for i in 0..s.npieces as usize {
            let id = 4 * c + i;
            if i > 0 {
                o.push(',');
            }
            let (t, n) = (s.typ(id), s.counter(id));
            if t == T_NORMAL && n == 0 {
                o.push_str(&format!("\"{}\"", box_text(s.pos[id])));
            } else {
                o.push_str(&format!(
                    "\"{}:{}:{}\"",
                    box_text(s.pos[id]),
                    TYPE_NAMES[t as usize],
                    n
                ));
            }
        }
        o.push(']');
    }
    o.push_str("},\"dice\":[");
    for pl in 0..2 {
        if pl > 0 {
            o.push(',');
        }
        let normal: Vec<String> = NORMAL_DICE
            .iter()
            .enumerate()
            .filter(|(k, _)| s.dice[pl] & (1 << k) != 0)
            .map(|(_, d)| d.to_string())
            .collect();
        let items: Vec<String> = s.hand[pl][..s.hand_len[pl] as usize]
            .iter()
            .map(|&i| format!("\"{}\"", ITEM_NAMES[i as usize]))
            .collect();
        let forced: Vec<String> = forced_values(s, pl).iter().map(|v| v.to_string()).collect();
        o.push_str(&format!(
            "{{\"normal\":[{}],\"items\":[{}],\"forced\":[{}]",
            normal.join(","),
            items.join(","),
            forced.join(",")
        ));
        if s.forced_len[pl] >= 2 {
            o.push_str(&format!(",\"forced_layers\":{}", s.forced_len[pl]));
        }
        o.push('}');
    }
    o.push_str("],\"items\":[");
    let items: Vec<String> = (0..24)
        .filter(|&i| s.board_items & (1 << i) != 0)
        .map(|i| {
            format!(
                "\"{}@{}\"",
                ITEM_NAMES[BOARD_ITEMS[i].0 as usize], BOARD_ITEMS[i].1
            )
        })
        .collect();
    o.push_str(&items.join(","));
    o.push_str("],\"traps\":[");
    let traps: Vec<String> = s.traps[..s.ntraps as usize]
        .iter()
        .map(|t| t.to_string())
        .collect();
    o.push_str(&traps.join(","));
    o.push_str(&format!(
        "],\"bounces\":{{\"y\":{},\"b\":{},\"r\":{},\"g\":{}}},\"flags\":[",
        s.bounces[0], s.bounces[1], s.bounces[2], s.bounces[3]
    ));
    let flags: Vec<&str> = [
        (F_EATING, "\"eating_move\""),
        (F_GOAL, "\"goal_move\""),
        (F_REMEMBER6, "\"remember_6\""),
        (F_BANANED, "\"bananed\""),
    ]
    .iter()
    .filter(|(b, _)| s.flags & b != 0)
    .map(|&(_, n)| n)
    .collect();
    o.push_str(&flags.join(","));
    o.push_str("],\"over\":");
    match s.outcome {
        0 => o.push_str("false"),
        1..=4 => {
            let c = s.outcome as usize - 1;
            o.push_str(&format!(
                "true,\"winner\":{},\"end\":\"goal\",\"winner_color\":\"{}\"",
                c & 1,
                COLOUR_LETTERS[c]
            ));
        }
        w => o.push_str(&format!("true,\"winner\":{},\"end\":\"overbounce\"", w - 5)),
    }
    o.push('}');
    o
}

/// A readable multi-line board: one line per colour, then dice, board items and flags.
pub fn display(s: &Parchis) -> String {
    const NAMES: [&str; 4] = ["yellow", "blue", "red", "green"];
    let mut o = String::new();
    if !matches!(s.year, Year::Y2022 | Year::Y2023) {
        o.push_str(&format!(
            "Parchís {} — turn {}, {} to move (player {})\n",
            if s.year == Year::Y2021 {
                "2021-22"
            } else {
                "2024-25"
            },
            s.turn,
            NAMES[s.colour as usize & 3],
            s.player
        ));
    } else {
        o.push_str(&format!(
            "Parchís{} — turn {}, player {} to move ({})\n",
            if s.playground {
                " (playground)"
            } else if s.year == Year::Y2023 {
                " 2023-24"
            } else {
                ""
            },
            s.turn,
            s.player,
            if s.player == 0 {
                "yellow+red"
            } else {
                "blue+green"
            }
        ));
    }
    for c in 0..4 {
        let pieces: Vec<String> = (0..s.npieces as usize)
            .map(|i| {
                let id = 4 * c + i;
                let b = match s.pos[id] {
                    HOME => "home".to_string(),
                    GOAL => "GOAL".to_string(),
                    p if is_queue(p) => format!("q{}", p - 68),
                    p => format!(
                        "{p}{}",
                        if super::rules::SAFE_MASK >> p & 1 == 1 {
                            "*"
                        } else {
                            ""
                        }
                    ),
                };
                let t = s.typ(id);
                let tag = match t {
                    T_STAR => "star",
                    T_BOO => "boo",
                    T_MEGA => "MEGA",
                    T_MINI => "mini",
                    T_BANANED => "bananed",
                    _ => "",
                };
                let n = s.counter(id);
                let extra = if tag.is_empty() && n == 0 {
                    String::new()
                } else if tag.is_empty() {
                    format!(" ({n})")
                } else {
                    format!(" {tag}({n})")
                };
                format!("{}{}={b}{extra}", COLOUR_LETTERS[c], i)
            })
            .collect();
        o.push_str(&format!(
            "  {:<6} (p{}) {:<48} bounces {}\n",
            NAMES[c],
            s.player_of_colour(c),
            pieces.join("  "),
            s.bounces[c]
        ));
    }
    let pending = |o: usize| {
        let forced: Vec<String> = forced_values(s, o)
            .iter()
            .map(|v| format!("+{v}"))
            .collect();
        if forced.is_empty() {
            String::new()
        } else {
            format!("  pending bonus {}", forced.join(" "))
        }
    };
    if s.year == Year::Y2021 {
        // Every colour has its own dice; there are no items, traps or piece types.
        for (c, name) in NAMES.iter().enumerate() {
            o.push_str(&format!(
                "  {name:<6} dice [{}]{}\n",
                normal_dice_text(s.year, s.dice[c]),
                pending(c)
            ));
        }
    } else if s.year == Year::Y2024 {
        // Each player's dice (Y the yin-yang face); no items, traps or piece types.
        for pl in 0..2 {
            o.push_str(&format!(
                "  player {pl} ({}) dice [{}]{}\n",
                if pl == 0 { "yellow+green" } else { "blue+red" },
                normal_dice_text(s.year, s.dice[pl]),
                pending(pl)
            ));
        }
    } else if s.year == Year::Y2023 {
        // Each player's dice (P the special die) and power bar, with what the die would do.
        for pl in 0..2 {
            let bar = s.power[pl];
            let effect = match super::rules::power_effect(bar) {
                super::PowerEffect::Mushroom(n) => format!("mushroom {n}"),
                e => e.name().to_string(),
            };
            o.push_str(&format!(
                "  player {pl}: dice [{}]  power {bar} ({effect}){}\n",
                normal_dice_text(s.year, s.dice[pl]),
                pending(pl)
            ));
        }
    } else {
        for pl in 0..2 {
            let items: Vec<&str> = s.hand[pl][..s.hand_len[pl] as usize]
                .iter()
                .map(|&i| ITEM_NAMES[i as usize])
                .collect();
            o.push_str(&format!(
                "  player {pl}: dice [{}]  items [{}]{}\n",
                normal_dice_text(s.year, s.dice[pl]),
                items.join(", "),
                pending(pl)
            ));
        }
    }
    let items: Vec<String> = (0..24)
        .filter(|&i| s.board_items & (1 << i) != 0)
        .map(|i| {
            format!(
                "{}@{}",
                ITEM_NAMES[BOARD_ITEMS[i].0 as usize], BOARD_ITEMS[i].1
            )
        })
        .collect();
    o.push_str(&format!(
        "  board items: {}\n",
        if items.is_empty() {
            "-".into()
        } else {
            items.join(" ")
        }
    ));
    let traps: Vec<String> = s.traps[..s.ntraps as usize]
        .iter()
        .map(|t| t.to_string())
        .collect();
    o.push_str(&format!(
        "  banana traps: {}\n",
        if traps.is_empty() {
            "-".into()
        } else {
            traps.join(" ")
        }
    ));
    let mut flags = Vec::new();
    for (b, n) in [
        (F_EATING, "eating_move"),
        (F_GOAL, "goal_move"),
        (F_REMEMBER6, "remember_6"),
        (F_BANANED, "bananed"),
    ] {
        if s.flags & b != 0 {
            flags.push(n);
        }
    }
    o.push_str(&format!(
        "  flags: {}\n",
        if flags.is_empty() {
            "-".into()
        } else {
            flags.join(" ")
        }
    ));
    match s.outcome {
        0 => {}
        1..=2 if s.year == Year::Y2024 => o.push_str(&format!(
            "  GAME OVER: player {} completed both colours and wins\n",
            s.outcome - 1
        )),
        1..=4 => o.push_str(&format!(
            "  GAME OVER: {} completed, player {} wins\n",
            NAMES[s.outcome as usize - 1],
            (s.outcome - 1) & 1
        )),
        w => o.push_str(&format!(
            "  GAME OVER: player {} wins (the other bounced more than 30 times)\n",
            w - 5
        )),
    }
    o
}
