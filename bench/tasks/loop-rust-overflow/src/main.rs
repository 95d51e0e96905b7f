mod gaps;
use gaps::{gaps, widest};

fn main() {
    let stamps = [100, 160, 150, 400, 390];
    assert_eq!(gaps(&stamps), vec![60, 10, 250, 10], "a gap is the distance between stamps");
    assert_eq!(widest(&stamps), 250);
    println!("OK");
}
