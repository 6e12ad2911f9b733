//! A tensor as an inspection keeps it: numbers with their shape, row-major, serialised as nested
//! lists of that shape (what `tblock inspect` prints).

use serde::Serialize;

/// Numbers with their shape, row-major (the last index fastest). Serialised as nested lists of its
/// shape (`[[…], …]`, what `tblock inspect` prints); the page gets each as a Float32Array instead
/// (the facade walks [`super::Inspection::tensors`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

impl Serialize for Tensor {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        Nested { shape: &self.shape, data: &self.data }.serialize(serializer)
    }
}

/// One level of a tensor as a list: of numbers (the last axis) or of the next level's lists.
struct Nested<'a> {
    shape: &'a [usize],
    data: &'a [f32],
}

impl Serialize for Nested<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let Some((&n, inner)) = self.shape.split_first() else {
            return self.data.first().copied().unwrap_or(0.0).serialize(serializer);
        };
        let mut seq = serializer.serialize_seq(Some(n))?;
        if inner.is_empty() {
            for x in self.data {
                seq.serialize_element(x)?;
            }
        } else {
            let step = inner.iter().product::<usize>();
            for chunk in self.data.chunks_exact(step.max(1)).take(n) {
                seq.serialize_element(&Nested { shape: inner, data: chunk })?;
            }
        }
        seq.end()
    }
}

impl Tensor {
    pub(super) fn new(shape: Vec<usize>, data: Vec<f32>) -> Tensor {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Tensor { shape, data }
    }

    /// A [T, w] tensor from a row-major buffer of T rows.
    pub(super) fn rows(data: &[f32], width: usize) -> Tensor {
        Tensor::new(vec![data.len() / width.max(1), width], data.to_vec())
    }

    pub(super) fn vector(data: Vec<f32>) -> Tensor {
        Tensor::new(vec![data.len()], data)
    }

    /// Its rows (the last index's runs).
    pub fn row_slices(&self) -> std::slice::ChunksExact<'_, f32> {
        self.data.chunks_exact(*self.shape.last().unwrap_or(&1).max(&1))
    }
}
