mod body;
mod header;

fn record(kind: u8, body: &[u8]) -> Vec<u8> {
    let mut v = vec![kind, (body.len() >> 8) as u8, body.len() as u8];
    v.extend_from_slice(body);
    v
}

fn main() {
    let mut stream = record(1, b"hello");
    stream.extend(record(2, b"world!"));
    stream.extend(record(7, b""));
    let got = body::records(&stream);
    assert_eq!(got.len(), 3, "three records");
    assert_eq!(got[0], (1, b"hello".to_vec()));
    assert_eq!(got[1], (2, b"world!".to_vec()));
    assert_eq!(got[2], (7, Vec::new()));
    println!("OK");
}
