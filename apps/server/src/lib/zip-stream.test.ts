import { describe, expect, it } from 'vitest';
import { zipStream } from './zip-stream.ts';

const MB = 1024 * 1024;
/** Whether a promise has settled by the time pending I/O callbacks have run. */
const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

/** A zip holding 9 MB its client has not read yet, and the wait for room it makes. */
async function stalledZip() {
  const { zip, stream, room } = zipStream();
  zip.addBuffer(Buffer.alloc(9 * MB), 'big.pdf', { compress: false });
  const waiting = room();
  expect(await settled(waiting)).toBe(false);
  return { stream, room, waiting };
}

describe('a streamed zip', () => {
  it('has room at once while little is queued', async () => {
    const { zip, room } = zipStream();
    zip.addBuffer(Buffer.alloc(MB), 'a.pdf', { compress: false });
    expect(await settled(room())).toBe(true);
  });

  it('waits while more than 8 MB is queued for a client that is not reading, until it has taken it', async () => {
    const { stream, waiting } = await stalledZip();
    stream.resume();
    await waiting;
  });

  it('stops waiting when the client goes away', async () => {
    const { stream, room, waiting } = await stalledZip();
    stream.destroy();
    await waiting;
    expect(await settled(room())).toBe(true);
  });
});
