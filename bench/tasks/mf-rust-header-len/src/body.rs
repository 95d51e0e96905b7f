use crate::header::{parse_header, HEADER_LEN};

// The records of a stream, as (kind, body) pairs.
pub fn records(stream: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(h) = parse_header(&stream[at..]) {
        let start = at + HEADER_LEN;
        let body = &stream[start..start + h.body_len];
        out.push((h.kind, body.to_vec()));
        at = start + h.body_len;
    }
    out
}
