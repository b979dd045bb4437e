//! The games as people name them on the command line: [`lookup`] takes `Parchís`, `kalah`,
//! `boom`, `conecta4`, … and suggests the closest known name for a typo.

use super::GameKind;

/// Every game's other names ([`GameKind::aliases`], compared after [`fold`]), each with its
/// game.
fn aliases() -> impl Iterator<Item = (&'static str, GameKind)> {
    GameKind::ALL
        .into_iter()
        .flat_map(|k| k.aliases().iter().map(move |a| (*a, k)))
}

/// A name as [`lookup`] compares it: lower case, without accents, spaces, `-`, `_` or `.`.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            c => c,
        })
        .collect()
}

/// Edit distance between two short names: insertions, deletions, substitutions and swaps of
/// two neighbours (`kalha` is one edit from `kalah`).
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j - 1] + cost)
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// A game as a person names it on the command line (`--game`): its `UCI_Variant` name in any
/// case, with or without accents and separators (`Parchís`, `connect-4`), or another name of
/// it (`kalah`, `boom`, `conecta4`, …). An unknown name is an error that suggests the closest
/// known one. (The protocol's `UCI_Variant` takes the names only: [`GameKind::from_name`].)
pub fn lookup(name: &str) -> Result<GameKind, super::UnknownGame> {
    let f = fold(name);
    if let Some(k) = GameKind::ALL.into_iter().find(|k| fold(k.name()) == f) {
        return Ok(k);
    }
    if let Some((_, k)) = aliases().find(|(a, _)| *a == f) {
        return Ok(k);
    }
    let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
    let candidates = names
        .iter()
        .map(|n| (*n, *n))
        .chain(aliases().map(|(a, k)| (a, k.name())));
    let near = candidates
        .map(|(c, game)| (distance(&f, c), c, game))
        .filter(|(d, c, _)| *d <= (c.len() / 3).max(1))
        .min_by_key(|(d, _, _)| *d);
    let hint = match near {
        Some((_, c, game)) if c == game => format!("; did you mean '{game}'?"),
        Some((_, c, game)) => format!("; did you mean '{game}' ({c})?"),
        None => String::new(),
    };
    // Each game's first other name, where it is not the name itself.
    let also: Vec<&str> = GameKind::ALL
        .into_iter()
        .filter_map(|k| k.aliases().first().copied())
        .filter(|a| !names.contains(a))
        .collect();
    Err(super::UnknownGame {
        name: crate::core::spec::clip(name),
        hint,
        known: format!("{}; also {}", names.join(", "), also.join(", ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_people_type() {
        for (typed, game) in [
            ("parchis", GameKind::Parchis),
            ("Parchís", GameKind::Parchis),
            ("PARCHÍS", GameKind::Parchis),
            ("kalah", GameKind::Mancala),
            ("Mancala", GameKind::Mancala),
            ("boom", GameKind::Connect4Boom),
            ("conecta4-boom", GameKind::Connect4Boom),
            ("conecta4", GameKind::Connect4),
            ("Conecta 4", GameKind::Connect4),
            ("connect-4", GameKind::Connect4),
            ("5-en-raya", GameKind::Enraya),
            ("5 en Raya Táctico", GameKind::Enraya),
        ] {
            assert_eq!(lookup(typed), Ok(game), "{typed}");
        }
        assert_eq!(
            lookup("mancla").unwrap_err().hint,
            "; did you mean 'mancala'?"
        );
        assert_eq!(
            lookup("kalh").unwrap_err().hint,
            "; did you mean 'mancala' (kalah)?"
        );
        assert_eq!(
            lookup("conect4").unwrap_err().hint,
            "; did you mean 'connect4'?"
        );
        let e = lookup("chess").unwrap_err();
        assert_eq!(e.hint, "");
        let e = e.to_string();
        assert!(
            e.starts_with("unknown game 'chess' (known: parchis, "),
            "{e}"
        );
    }
}
