//! The native host's pool: threads started on demand and kept, tasks given back when it is
//! full, and searches whose helpers reuse its threads.

use cannonade_core::games::chess::Chess;
use cannonade_core::games::Game;
use cannonade_core::host::SharedHost;
use cannonade_core::search::{self, Limits, SearchControl, SearchOptions, TranspositionTable};
use cannonade_native::{NativeHost, Pool};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{mpsc, Arc};

/// Runs `f` on the pool and waits until it has run.
fn run_and_wait(pool: &Pool, f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    pool.spawn(Box::new(move || {
        f();
        tx.send(()).unwrap();
    }))
    .unwrap_or_else(|_| panic!("a thread for the task"));
    rx.recv().unwrap();
}

/// Waits until `threads` threads of the pool wait for a task (a task's thread goes idle a
/// moment after the task says it has ended).
fn wait_idle(pool: &Pool, threads: usize) {
    while pool.idle_threads() < threads {
        std::thread::yield_now();
    }
}

#[test]
fn tasks_one_after_another_reuse_the_threads() {
    let pool = Pool::new(8, 1 << 20);
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..30 {
        let r = Arc::clone(&ran);
        run_and_wait(&pool, move || {
            r.fetch_add(1, Relaxed);
        });
        wait_idle(&pool, 1);
    }
    assert_eq!(ran.load(Relaxed), 30);
    assert_eq!(pool.threads_started(), 1);
}

#[test]
fn a_panicking_task_leaves_its_thread_to_the_next() {
    let pool = Pool::new(8, 1 << 20);
    // The panic is printed by the hook; the thread lives on.
    run_and_wait(&pool, || {
        let r = std::panic::catch_unwind(|| panic!("a task's bug"));
        assert!(r.is_err());
    });
    wait_idle(&pool, 1);
    let (tx, rx) = mpsc::channel::<()>();
    pool.spawn(Box::new(move || {
        // Dropped by the unwinding: the receiver hears the task ended.
        let _tx = tx;
        panic!("a task's bug, uncaught");
    }))
    .unwrap_or_else(|_| panic!("a thread"));
    assert!(rx.recv().is_err());
    for _ in 0..10 {
        wait_idle(&pool, 1);
        run_and_wait(&pool, || ());
    }
    assert_eq!(pool.threads_started(), 1);
}

#[test]
fn a_full_pool_gives_the_task_back() {
    let pool = Pool::new(2, 1 << 20);
    let (release, held) = mpsc::channel::<()>();
    let held = Arc::new(std::sync::Mutex::new(held));
    let (started_tx, started) = mpsc::channel();
    for _ in 0..2 {
        let (held, started_tx) = (Arc::clone(&held), started_tx.clone());
        pool.spawn(Box::new(move || {
            started_tx.send(()).unwrap();
            held.lock().unwrap().recv().unwrap();
        }))
        .unwrap_or_else(|_| panic!("room for two"));
    }
    started.recv().unwrap();
    started.recv().unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&ran);
    let back = pool
        .spawn(Box::new(move || {
            r.fetch_add(1, Relaxed);
        }))
        .expect_err("no room for a third");
    // Given back whole: the caller can run it.
    back();
    assert_eq!(ran.load(Relaxed), 1);
    release.send(()).unwrap();
    release.send(()).unwrap();
    assert_eq!(pool.threads_started(), 2);
}

/// Several searches of four threads one after another: the helpers of each run on threads
/// the pool kept from the searches before.
#[test]
fn the_helpers_of_a_search_reuse_the_pools_threads() {
    let native = Arc::new(NativeHost::new());
    let host: SharedHost = native.clone();
    let pos = cannonade_core::engine::registry::new_game::<Chess>("chess")
        .unwrap()
        .with_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
        .unwrap();
    let opts = SearchOptions {
        threads: 4,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    cannonade_native::with_search_stack(|| {
        for _ in 0..8 {
            let tt = Arc::new(TranspositionTable::new(4));
            let ctl = Arc::new(SearchControl::new(Arc::clone(&host), false));
            let r = search::search(&pos, &limits, &opts, &tt, &ctl, &mut |_| {});
            assert!(r.best.is_some());
            assert_eq!(
                Arc::strong_count(&tt),
                1,
                "every helper has let go of the table"
            );
            // As a GUI's next `go` comes: after the helpers' threads are idle again.
            wait_idle(native.pool(), 3);
        }
    });
    assert_eq!(
        native.pool().threads_started(),
        3,
        "three helpers, eight searches"
    );
    assert!(host.threads() >= 3);
}

#[test]
fn the_process_host_is_one_and_its_clock_goes_on() {
    let a = cannonade_native::host();
    let b = cannonade_native::host();
    assert!(Arc::ptr_eq(&a, &b));
    let t0 = a.now();
    assert!(b.now() >= t0);
}
