// Gaps between consecutive timestamps (seconds), which may arrive out of order.

pub fn gap(a: u32, b: u32) -> u32 {
    if b > a { b - a } else { a - b }
}

pub fn gaps(stamps: &[u32]) -> Vec<u32> {
    stamps.windows(2).map(|w| gap(w[0], w[1])).collect()
}

pub fn widest(stamps: &[u32]) -> u32 {
    gaps(stamps).into_iter().max().unwrap_or(0)
}
