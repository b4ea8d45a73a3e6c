/**
 * `npm run bench` runs every test/perf/*-bench-main.ts; this one is the engine benchmark
 * (engine-bench.ts, also `npm run bench:engine`), which runs when imported.
 */
import './engine-bench.js';
