import type { Writable } from 'node:stream';

/**
 * Resolves when `stream` has drained (its 'drain' event) or closed, whichever comes first, and leaves no
 * listener behind. (`Promise.race([once(s, 'drain'), once(s, 'close')])` leaves the loser's listeners
 * on the stream: one more pair at every wait, thousands over a large download.)
 */
export function drainedOrClosed(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const go = () => {
      stream.off('drain', go);
      stream.off('close', go);
      resolve();
    };
    stream.once('drain', go);
    stream.once('close', go);
  });
}
