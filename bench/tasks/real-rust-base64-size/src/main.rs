mod b64;
use b64::{encode, TooLong};

fn main() {
    assert_eq!(encode(b"sbx"), Ok(b"c2J4".to_vec()));
    assert_eq!(encode(b"ab"), Ok(b"YWI=".to_vec()));
    assert_eq!(encode(b""), Ok(vec![]));
    let fits = encode(&[0u8; 49_149]).expect("49 149 bytes encode to 65 532");
    assert_eq!(fits.len(), 65_532);
    // 60 000 bytes encode to 80 000: more than a frame holds
    assert_eq!(encode(&[0u8; 60_000]), Err(TooLong));
    println!("OK");
}
