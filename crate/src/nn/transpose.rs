//! A matrix turned over, [rows, cols] -> [cols, rows], a tile of 32 x 32 at a time: the tile's rows
//! and columns stay in cache while it is written (a column at a time across a whole matrix missed the
//! cache on every write: half of a GPT-2 forward's time natively, on the plain kernel's path). One
//! loop for every element type: f32 numbers (`decoder::block_weights`, GPT-2's Conv1D read as
//! nn.Linear's rows) and a safetensors file's numbers as bytes (`checkpoint::shards`, flipped in
//! place once in the page).

/// to [cols, rows] = from [rows, cols] turned over.
pub fn transpose_tiled<T: Copy>(to: &mut [T], from: &[T], rows: usize, cols: usize) {
    const TILE: usize = 32;
    assert!(from.len() >= rows * cols && to.len() >= rows * cols, "transpose_tiled: {rows} x {cols} does not fit");
    for r0 in (0..rows).step_by(TILE) {
        for c0 in (0..cols).step_by(TILE) {
            for r in r0..(r0 + TILE).min(rows) {
                let row = &from[r * cols..(r + 1) * cols];
                for c in c0..(c0 + TILE).min(cols) {
                    to[c * rows + r] = row[c];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::transpose_tiled;

    #[test]
    fn every_number_lands_turned_over_on_shapes_that_are_not_whole_tiles() {
        for (rows, cols) in [(1, 1), (1, 70), (37, 1), (37, 70), (64, 32), (33, 65)] {
            let from: Vec<u32> = (0..rows * cols).map(|i| (i * 7 + i / 251) as u32).collect();
            let mut to = vec![0u32; from.len()];
            transpose_tiled(&mut to, &from, rows, cols);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(to[c * rows + r], from[r * cols + c], "{rows} x {cols}: ({r}, {c})");
                }
            }
        }
    }
}
