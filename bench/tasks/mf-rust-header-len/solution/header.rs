// A record header: kind (1 byte), then the body length (2 bytes, big-endian, network order).
pub const HEADER_LEN: usize = 3;

pub struct Header {
    pub kind: u8,
    pub body_len: usize,
}

pub fn parse_header(b: &[u8]) -> Option<Header> {
    if b.len() < HEADER_LEN {
        return None;
    }
    let body_len = u16::from_be_bytes([b[1], b[2]]) as usize;
    Some(Header { kind: b[0], body_len })
}
