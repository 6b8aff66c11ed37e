//! `expanse_gpu::par`: the parallel loops keep order and length and visit every element once.

use expanse_gpu::par::*;

#[test]
fn map_keeps_order_and_length() {
    for len in [0usize, 1, 7, 1000, 4097] {
        let xs: Vec<usize> = (0..len).collect();
        let ys = map(&xs, |x| 3 * x + 1);
        assert_eq!(ys.len(), len);
        assert!(ys.iter().enumerate().all(|(i, &y)| y == 3 * i + 1));
        let zs = map_index(len, 5, |i| i as u64 * 2);
        assert!(zs.iter().enumerate().all(|(i, &z)| z == 2 * i as u64));
        assert_eq!(zs.len(), len);
    }
}

#[test]
fn chunks_cover_every_element_once() {
    let mut a: Vec<u64> = vec![0; 1001];
    let mut b: Vec<u64> = (0..1001).collect();
    for_each_chunk_pair(&mut a, &mut b, 64, |ca, cb| {
        for (x, y) in ca.iter_mut().zip(cb.iter_mut()) {
            *x += *y + 1;
            *y = 0;
        }
    });
    assert!(a.iter().enumerate().all(|(i, &x)| x == i as u64 + 1));
    assert!(b.iter().all(|&y| y == 0));
    let mut c = vec![0usize; 100];
    for_each_chunk(&mut c, 9, |k, cx| cx.iter_mut().for_each(|v| *v += k + 1));
    assert!(c.iter().enumerate().all(|(i, &v)| v == i / 9 + 1));
    let hits = std::sync::atomic::AtomicUsize::new(0);
    for_each_index(77, 10, &|_| {
        hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(hits.into_inner(), 77);
}
