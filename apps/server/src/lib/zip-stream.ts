import type { PassThrough } from 'node:stream';
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
}

/** A zip streamed to the client as it is written. */
export function zipStream(): ZipStream {
  const zip = new yazl.ZipFile();
  // yazl's outputStream is a PassThrough: what the client has not taken yet waits in its write buffer.
  const stream = zip.outputStream as unknown as PassThrough;
  const room = () => (stream.writableLength <= QUEUED_MAX ? Promise.resolve() : drainedOrClosed(stream));
  return { zip, stream, room };
}
