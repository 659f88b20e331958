import yauzl from 'yauzl';

/** Every entry of a zip, read into memory: its name, bytes and whether it was compressed. */
export function unzip(buffer: Buffer): Promise<{ name: string; data: Buffer; compressed: boolean }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries: { name: string; data: Buffer; compressed: boolean }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.push({
              name: entry.fileName,
              data: Buffer.concat(chunks),
              compressed: entry.compressionMethod !== 0,
            });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}
