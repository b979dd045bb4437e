//! The pages' two languages: the browser board (`tablero gui`) and the match report (`tablero
//! report --html`) in Spanish or English, chosen by the browser's language and a switch on the
//! page. This module owns the string tables, one per language ([`EN`], [`ES`]: the same keys in
//! the same order), and bundles them with `i18n.js`, which picks the language and translates
//! ([`SCRIPT`]; docs/i18n.md explains the keys and how to add a string).
//!
//! Rust stays English: picture labels, the board server's messages and errors, the referee's
//! table and every command-line output are made in English as before; the page recognises them
//! by the English templates under `rust.*` and shows the same key's Spanish template.

/// The English table (keys to templates).
pub const EN: &str = include_str!("en.json");
/// The Spanish table, key for key the English one.
pub const ES: &str = include_str!("es.json");

/// The tables and the script that uses them, as one script for a page (served by `tablero gui`
/// as `/i18n.js`, inlined by the report before `scene.js`).
pub const SCRIPT: &str = concat!(
    "const TABLERO_STRINGS = {\"en\": ",
    include_str!("en.json"),
    ", \"es\": ",
    include_str!("es.json"),
    "};\n",
    include_str!("i18n.js")
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// `(key, template)` in file order.
    fn entries(table: &str) -> Vec<(String, String)> {
        let v: serde_json::Value = serde_json::from_str(table).expect("a JSON table");
        let map = v.as_object().expect("an object");
        let keys: Vec<String> = table
            .lines()
            .filter_map(|l| {
                let l = l.trim_start().strip_prefix('"')?;
                serde_json::from_str::<String>(&format!("\"{}\"", l.split_once("\": ")?.0)).ok()
            })
            .collect();
        assert_eq!(keys.len(), map.len(), "one key per line");
        keys.into_iter()
            .map(|k| {
                let t = map[&k]
                    .as_str()
                    .unwrap_or_else(|| panic!("{k}: not a string"));
                (k, t.to_string())
            })
            .collect()
    }

    /// Placeholder names of a template (`{name}`, `{name:type}`, `{name|one|other}`).
    fn placeholders(t: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut rest = t;
        while let Some(i) = rest.find('{') {
            rest = &rest[i + 1..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let after = &rest[name.len()..];
            if !name.is_empty()
                && (after.starts_with('}') || after.starts_with(':') || after.starts_with('|'))
            {
                let plural = after.starts_with('|');
                out.insert(if plural { format!("{name}|") } else { name });
            }
        }
        out
    }

    #[test]
    fn both_tables_have_the_same_keys_in_the_same_order_and_the_same_placeholders() {
        let en = entries(EN);
        let es = entries(ES);
        let ek: Vec<&str> = en.iter().map(|(k, _)| k.as_str()).collect();
        let sk: Vec<&str> = es.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            ek, sk,
            "en.json and es.json list the same keys in the same order"
        );
        for ((k, e), (_, s)) in en.iter().zip(&es) {
            assert!(!e.trim().is_empty() && !s.trim().is_empty(), "{k}: empty");
            assert_eq!(
                placeholders(e),
                placeholders(s),
                "{k}: placeholders of '{e}' and '{s}'"
            );
        }
    }

    #[test]
    fn dictionary_placeholders_name_existing_dictionaries() {
        for (k, t) in entries(EN).into_iter().chain(entries(ES)) {
            let mut rest = t.as_str();
            while let Some(i) = rest.find('{') {
                rest = &rest[i + 1..];
                let Some(end) = rest.find('}') else { break };
                let inner = &rest[..end];
                if let Some((name, ty)) = inner.split_once(':')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !["num", "int", "text", "list"].contains(&ty)
                {
                    let prefix = format!("{ty}.");
                    assert!(
                        entries(EN).iter().any(|(k, _)| k.starts_with(&prefix)),
                        "{k}: no dictionary '{ty}'"
                    );
                }
            }
        }
    }

    #[test]
    fn the_script_can_be_inlined_in_a_page() {
        // The report puts it inside <script>…</script>.
        assert!(!SCRIPT.contains("</"), "'</' would end the inline script");
        assert!(!SCRIPT.contains("<!--"));
    }
}
