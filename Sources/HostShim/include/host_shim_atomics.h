/* host_shim_atomics.h: atomic operations on a 64-bit word, for the host's
 * `AtomicCell`. Not Swift's Synchronization library: it is one more Swift
 * library for every process of the host to load, bind and scan for
 * conformances at start-up (0.16 M instructions of a `--version`, 0.4 M of
 * a `list`; a hello world that imports it pays 0.7 M more).
 *
 * static inline, so that each compiles into the Swift that calls it (and is
 * folded there for the order it names), and ThreadSanitizer, which
 * instruments the atomic builtins, sees every one. `order` is one of the
 * __ATOMIC_* constants; a release build inlines it to one instruction. */
#ifndef WIDGET_HOST_SHIM_ATOMICS_H
#define WIDGET_HOST_SHIM_ATOMICS_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t wh_atomic_load(uint64_t *word, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_load_n(word, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_load_n(word, __ATOMIC_ACQUIRE);
    default: return __atomic_load_n(word, __ATOMIC_SEQ_CST);
    }
}

static inline void wh_atomic_store(uint64_t *word, uint64_t value, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: __atomic_store_n(word, value, __ATOMIC_RELAXED); break;
    case __ATOMIC_RELEASE: __atomic_store_n(word, value, __ATOMIC_RELEASE); break;
    default: __atomic_store_n(word, value, __ATOMIC_SEQ_CST); break;
    }
}

/* Adds `delta` (wrapping) and returns the value before. */
static inline uint64_t wh_atomic_fetch_add(uint64_t *word, uint64_t delta, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_fetch_add(word, delta, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_fetch_add(word, delta, __ATOMIC_ACQUIRE);
    case __ATOMIC_RELEASE: return __atomic_fetch_add(word, delta, __ATOMIC_RELEASE);
    case __ATOMIC_ACQ_REL: return __atomic_fetch_add(word, delta, __ATOMIC_ACQ_REL);
    default: return __atomic_fetch_add(word, delta, __ATOMIC_SEQ_CST);
    }
}

static inline uint64_t wh_atomic_exchange(uint64_t *word, uint64_t value, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_exchange_n(word, value, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_exchange_n(word, value, __ATOMIC_ACQUIRE);
    case __ATOMIC_RELEASE: return __atomic_exchange_n(word, value, __ATOMIC_RELEASE);
    case __ATOMIC_ACQ_REL: return __atomic_exchange_n(word, value, __ATOMIC_ACQ_REL);
    default: return __atomic_exchange_n(word, value, __ATOMIC_SEQ_CST);
    }
}

/* Stores `desired` if the word holds `*expected`; otherwise writes what it
 * holds to `*expected`. A failed exchange orders its load as `order` would,
 * less its release part. */
static inline bool wh_atomic_compare_exchange(uint64_t *word, uint64_t *expected, uint64_t desired, int order) {
    switch (order) {
    case __ATOMIC_RELAXED: return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    case __ATOMIC_ACQUIRE: return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
    case __ATOMIC_RELEASE: return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
    case __ATOMIC_ACQ_REL: return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    default: return __atomic_compare_exchange_n(word, expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    }
}

#endif
