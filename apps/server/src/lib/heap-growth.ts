import v8 from 'node:v8';

/**
 * The server's and the job worker's heap grows by half its live size before a full collection, not by
 * up to four times as V8 decides by default. A 100,000-row import on PostgreSQL keeps about 50 MB live,
 * but its heap grew to 180 MB of garbage before V8 collected it, and the process peaked at 391-422 MB;
 * now 308-313 MB, in the same time (alternated runs, docs/benchmarks.md). Imported first by each entry point: V8
 * reads this when it sizes the heap after each full collection. Node refuses it in NODE_OPTIONS.
 */
v8.setFlagsFromString('--heap-growing-percent=50');
