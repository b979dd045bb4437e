//! Reading protocol input one line at a time with a hard cap: a line longer than
//! [`MAX_LINE`](super::parse::MAX_LINE) is skipped up to its newline without being kept, so
//! memory stays bounded whatever a pipe or a TCP peer sends (a 10 MB line, or bytes that never
//! end in a newline).

use std::io::{BufRead, ErrorKind};

use super::parse::MAX_LINE;

/// One read of [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (its newline included when there was one); invalid UTF-8 becomes U+FFFD.
    Text(String),
    /// A line of this many bytes (newline included), over the cap and skipped.
    TooLong(usize),
    /// End of input (or a read error, which ends the input just the same).
    End,
}

/// Reads the next line, keeping at most `MAX_LINE + 1` bytes of it in `buf`.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> Line {
    buf.clear();
    let mut total = 0usize;
    loop {
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if avail.is_empty() {
            break;
        }
        let (take, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&avail[..take.min(room)]);
        total += take;
        input.consume(take);
        if done {
            break;
        }
    }
    match total {
        0 => Line::End,
        n if n > MAX_LINE => Line::TooLong(n),
        _ => Line::Text(String::from_utf8_lossy(buf).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_whole_and_long_ones_skipped_without_being_kept() {
        let mut data = b"uci\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 10 * 1024 * 1024));
        data.extend_from_slice(b"\nisready\nno newline");
        let mut r = std::io::BufReader::with_capacity(1000, &data[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut r, &mut buf), Line::Text("uci\n".into()));
        assert_eq!(
            read_line(&mut r, &mut buf),
            Line::TooLong(10 * 1024 * 1024 + 1)
        );
        assert!(buf.len() <= MAX_LINE + 1);
        assert_eq!(read_line(&mut r, &mut buf), Line::Text("isready\n".into()));
        assert_eq!(read_line(&mut r, &mut buf), Line::Text("no newline".into()));
        assert_eq!(read_line(&mut r, &mut buf), Line::End);
        let exact = vec![b'y'; MAX_LINE];
        let mut r = &exact[..];
        assert!(matches!(read_line(&mut r, &mut buf), Line::Text(t) if t.len() == MAX_LINE));
    }
}
