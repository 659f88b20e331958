import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';
import { FolderStore } from './storage.ts';
import { outboxSender } from './whatsapp.ts';

let root: string;
let store: FolderStore;
const writes: string[] = [];
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'notice-desk-outbox-'));
  writes.length = 0;
  store = new (class extends FolderStore {
    override writeBuffer(key: string, data: Buffer) {
      writes.push(key);
      return super.writeBuffer(key, data);
    }
  })(root);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('writes outbox mails and WhatsApp documents through the store, under outbox/', async () => {
  const mailer = createMailer({ smtpUrl: undefined, from: 'desk@example.com', store });
  await mailer.send({ to: 'asha@example.com', subject: 'Notice', text: 'Hello' });
  mailer.close();
  const receipt = await outboxSender(store).sendDocument({
    to: '919876543210',
    pdf: Buffer.from('%PDF-1.7'),
    filename: 'notice.pdf',
    caption: 'Your notice',
  });
  expect(receipt.via).toBe('outbox');
  expect(writes).toEqual([
    expect.stringMatching(/^outbox\/.+\.eml$/),
    `outbox/${receipt.messageId}.whatsapp.json`,
    `outbox/${receipt.messageId}.pdf`,
  ]);
  expect((await store.list('outbox')).map((file) => file.key).sort()).toEqual([...writes].sort());
});

it('names a file being written at random, not by process id: two containers are both PID 1', async () => {
  // What another process of the same id would be writing: a name by pid would collide with it.
  const target = store.localPath('outbox/notice.pdf');
  fs.mkdirSync(`${target}.partial-${process.pid}`, { recursive: true });
  await store.writeBuffer('outbox/notice.pdf', Buffer.from('one'));
  await store.write('outbox/notice.pdf', Readable.from([Buffer.from('two')]));
  expect(fs.readFileSync(target, 'utf8')).toBe('two');
  expect(fs.readdirSync(path.dirname(target)).filter((name) => name.includes('.partial-'))).toEqual([
    `notice.pdf.partial-${process.pid}`,
  ]);
});
