import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
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

describe('a file streamed into a zip', () => {
  /** A source of `size` bytes in 64 KB chunks, made as they are read, that says when it was opened. */
  const source = (size: number, opened: string[], name: string) => async () => {
    opened.push(name);
    let left = size;
    return new Readable({
      read() {
        const chunk = Math.min(left, 64 * 1024);
        left -= chunk;
        this.push(chunk > 0 ? Buffer.alloc(chunk, 1) : null);
      },
    });
  };

  it('is opened when the zip comes to it and is added once its client has taken it, one file at a time', async () => {
    const { zip, stream, addStream } = zipStream();
    const opened: string[] = [];
    const first = addStream('a.pdf', source(4 * MB, opened, 'a'), { compress: false });
    const second = addStream('b.pdf', source(4 * MB, opened, 'b'), { compress: false });
    // Nobody reads: the first file waits in a full pipe, the second is not opened.
    expect(await settled(first)).toBe(false);
    expect(opened).toEqual(['a']);
    let read = 0;
    stream.on('data', (chunk: Buffer) => (read += chunk.length));
    await first;
    expect(read).toBeGreaterThan(3 * MB);
    expect(read).toBeLessThan(4 * MB + 512 * 1024);
    await second;
    expect(opened).toEqual(['a', 'b']);
    zip.end();
    await new Promise((resolve) => stream.once('end', resolve));
    expect(read).toBeGreaterThan(8 * MB);
  });

  it('lets go of each file held in memory once it is written, where yazl keeps every one to the end', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const { zip, stream, addFile } = zipStream();
    stream.resume();
    // Made in a frame of their own, so nothing here holds a file but the zip.
    const add = (name: string) => {
      const data = Buffer.alloc(MB, 1);
      return { ref: new WeakRef(data), written: addFile(name, data, { compress: false }) };
    };
    const files = ['a.pdf', 'b.pdf', 'c.pdf'].map(add);
    for (const file of files) await file.written;
    // A WeakRef holds its target until the turn that made it ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(files.map((file) => file.ref.deref())).toEqual([undefined, undefined, undefined]);
    zip.end();
  });

  it('ends the zip with the error when a file cannot be read, and stops when the client goes', async () => {
    const failing = zipStream();
    const failed = failing.addStream('a.pdf', () => Promise.reject(new Error('no such file')));
    const ended = new Promise((resolve) => failing.stream.once('error', resolve));
    failing.stream.resume();
    await expect(failed).rejects.toThrow('no such file');
    expect(await ended).toMatchObject({ message: 'no such file' });

    const left = zipStream();
    const opened: string[] = [];
    const waiting = left.addStream('a.pdf', source(4 * MB, opened, 'a'), { compress: false });
    expect(await settled(waiting.catch(() => undefined))).toBe(false);
    left.stream.destroy();
    await expect(waiting).rejects.toThrow('closed before');
  });
});
