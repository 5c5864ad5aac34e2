//! The evaluator's forward pass, hand-written (what the search and the review call) against candle's (what the fit
//! computes, `pacw_learn::fit::candle_values`), for one position and for a batch of 1,000, with the embedded model.
//! Run: `cargo bench -p pacw-learn --bench forward`.

use criterion::{Criterion, criterion_group, criterion_main};
use pacw_ai::evaluator::{EMBEDDED_WEIGHTS, FEATURES, ModelFile};
use pacw_learn::fit::candle_values;
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let file = ModelFile::parse(EMBEDDED_WEIGHTS).unwrap();
    let judge = file.judge().unwrap();
    let xs: Vec<[f32; FEATURES]> =
        (0..1000).map(|i| std::array::from_fn(|j| ((i * 31 + j * 7) as f32 * 0.37).sin() * 0.5)).collect();
    let one = [xs[0]];
    let mut g = c.benchmark_group("forward_pass");
    g.bench_function("hand_written_1", |b| b.iter(|| black_box(judge(black_box(&xs[0])))));
    g.bench_function("candle_1", |b| b.iter(|| black_box(candle_values(&file, black_box(&one)).unwrap())));
    g.bench_function("hand_written_1000", |b| b.iter(|| xs.iter().map(|x| judge(black_box(x))).sum::<f32>()));
    g.bench_function("candle_1000", |b| b.iter(|| black_box(candle_values(&file, black_box(&xs)).unwrap())));
    g.finish();
}

criterion_group!(forward, benches);
criterion_main!(forward);
