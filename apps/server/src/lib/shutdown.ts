/** How long a process may take to stop before it exits anyway. */
const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Stops the process on SIGTERM or SIGINT: says why (`stopping`), runs `close` (which lets work in
 * flight finish), then exits. Whatever never finishes, the process still exits after the grace period.
 */
export function stopOnSignals(stopping: (signal: string) => void, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // A request or job that never finishes must not keep the process from stopping.
    setTimeout(() => {
      console.error(`still stopping after ${SHUTDOWN_GRACE_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    stopping(signal);
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
