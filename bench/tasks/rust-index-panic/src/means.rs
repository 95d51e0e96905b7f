// Moving averages over a window of readings.

pub fn window_means(readings: &[f64], width: usize) -> Vec<f64> {
    let mut out = Vec::new();
    for start in 0..readings.len() {
        let mut sum = 0.0;
        for k in 0..width {
            sum += readings[start + k];
        }
        out.push(sum / width as f64);
    }
    out
}

pub fn largest(values: &[f64]) -> f64 {
    values.iter().cloned().fold(f64::MIN, f64::max)
}
