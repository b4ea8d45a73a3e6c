/**
 * The engine benchmark as one of `npm run bench`'s benchmarks (run.ts runs every
 * test/perf/*-bench-main.ts): see engine-bench.ts, which `npm run bench:engine` runs on its own.
 */
import './engine-bench.js';
