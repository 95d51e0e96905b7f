// Base64 for the telemetry link: a frame holds at most 65 535 bytes, its length a u16 on the wire.
pub type Len = u16;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

#[derive(Debug, PartialEq)]
pub struct TooLong;

/// The encoded size of n input bytes, padding included.
fn encoded_size(n: Len) -> Len {
    let chunks = (n + 2) / 3;
    chunks * 4
}

/// The base64 text of input, as a frame's bytes.
pub fn encode(input: &[u8]) -> Result<Vec<u8>, TooLong> {
    let n = Len::try_from(input.len()).map_err(|_| TooLong)?;
    let mut out = vec![0u8; encoded_size(n) as usize];
    let written = encode_into(input, &mut out);
    out.truncate(written);
    Ok(out)
}

/// Writes the encoding of input into out, which encoded_size made big enough; returns the bytes written.
fn encode_into(input: &[u8], out: &mut [u8]) -> usize {
    let mut o = 0;
    for chunk in input.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let v = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            out[o + k] = if k <= chunk.len() { ALPHABET[(v >> (18 - 6 * k) & 63) as usize] } else { b'=' };
        }
        o += 4;
    }
    o
}
