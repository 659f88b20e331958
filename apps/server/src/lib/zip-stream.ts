import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import { drainedOrClosed } from './drained.ts';

/** What a zip may hold waiting for a slow client before whoever adds to it waits. */
const QUEUED_MAX = 8 * 1024 * 1024;

export interface ZipStream {
  zip: yazl.ZipFile;
  /** What the client reads; destroy it with the error when making the zip fails. */
  stream: PassThrough;
  /**
   * Resolves when there is room for more: at once while less than 8 MB waits to go out, else when the
   * stream has drained (its 'drain' event) or the client has gone. yazl writes whatever it is given,
   * so without this a fast producer and a slow client would hold the whole zip in memory.
   */
  room(): Promise<void>;
  /**
   * Adds a file whose bytes come from the stream `open` gives, opened when the zip comes to it, and
   * resolves once its last byte has gone into the zip. A caller that awaits each file holds none of them
   * whole, however many there are. (yazl's addBuffer keeps every buffer it was given until the zip is
   * done: its entries hold them.) Rejects, and ends the zip with the error, when opening or reading
   * fails; rejects when the client has gone.
   */
  addStream(name: string, open: () => Promise<Readable>, options?: { compress?: boolean }): Promise<void>;
  /**
   * Adds a file held in memory, as addStream does: the zip lets go of the bytes once they are written
   * (yazl's own addBuffer keeps them to the end), so a caller that awaits each file holds one at a time.
   */
  addFile(name: string, data: Buffer, options?: { compress?: boolean }): Promise<void>;
}

/** A zip streamed to the client as it is written. */
export function zipStream(): ZipStream {
  const zip = new yazl.ZipFile();
  // yazl's outputStream is a PassThrough: what the client has not taken yet waits in its write buffer.
  const stream = zip.outputStream as unknown as PassThrough;
  // yazl reports a file whose size changed as it was read here; unheard, it would end the process.
  zip.on('error', (err: Error) => stream.destroy(err));
  const room = () => (stream.writableLength <= QUEUED_MAX ? Promise.resolve() : drainedOrClosed(stream));
  function addStream(
    name: string,
    // Let go of once called, and with it whatever it holds (a file's bytes): yazl keeps each entry's
    // opener, and so everything it closes over, to the end.
    open: (() => Promise<Readable>) | undefined,
    options: { compress?: boolean } = {},
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let source: Readable | undefined;
      let settled = false;
      const settle = (err?: Error) => {
        if (settled) return;
        settled = true;
        stream.off('close', gone);
        const reading = source;
        source = undefined;
        if (!err) return resolve();
        reading?.destroy();
        reject(err);
      };
      const fail = (err: Error) => {
        stream.destroy(err);
        settle(err);
      };
      const gone = () => settle(new Error('The zip was closed before all its files were added.'));
      if (stream.destroyed) return gone();
      stream.once('close', gone);
      zip.addReadStreamLazy(name, options, (give) => {
        const opening = open!();
        open = undefined;
        opening.then((opened) => {
          source = opened;
          opened.once('error', fail);
          opened.once('end', () => settle());
          give(null, opened);
        }, fail);
      });
    });
  }
  const addFile: ZipStream['addFile'] = (name, data, options) =>
    addStream(
      name,
      () => {
        const bytes = new PassThrough();
        bytes.end(data);
        return Promise.resolve(bytes);
      },
      options,
    );
  return { zip, stream, room, addStream, addFile };
}
