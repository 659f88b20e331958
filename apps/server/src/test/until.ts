/**
 * Waits until `check` answers something (not undefined), asking every 100 ms; throws naming `what`
 * after `ms`. For tests that wait on other processes (a worker's send, a takeover), never a fixed sleep.
 */
export async function until<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms = 120_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
