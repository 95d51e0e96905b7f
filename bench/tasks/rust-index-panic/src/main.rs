mod means;
use means::{largest, window_means};

fn main() {
    let readings = [3.0, 5.0, 4.0, 8.0, 6.0, 2.0];
    let means = window_means(&readings, 3);
    let expect = [4.0, 17.0 / 3.0, 6.0, 16.0 / 3.0];
    assert_eq!(means.len(), expect.len(), "one mean per full window");
    for (got, want) in means.iter().zip(expect.iter()) {
        assert!((got - want).abs() < 1e-9, "mean {} != {}", got, want);
    }
    assert_eq!(largest(&means), 6.0);
    println!("OK");
}
