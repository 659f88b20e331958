import { describe, expect, it } from 'vitest';
import {
  addAnswer,
  addDeclined,
  addUnsent,
  emptyTally,
  sendChunks,
  sendProgress,
  sendRateText,
  sendSummary,
} from './send-batches.ts';

const ids = (count: number) => Array.from({ length: count }, (_, index) => `id-${index + 1}`);
const answer = (
  sent: number,
  failed = 0,
  more: Partial<Record<'queued' | 'skipped' | 'ignored', number>> = {},
) => ({
  message: 'Send Mail Successfully.',
  sent,
  failed,
  queued: 0,
  skipped: 0,
  ignored: 0,
  ...more,
});

describe('sendChunks', () => {
  it('makes no request for nothing selected', () => {
    expect(sendChunks([])).toEqual([]);
  });

  it('sends 1 to 9 records in one request', () => {
    expect(sendChunks(ids(1))).toEqual([['id-1']]);
    expect(sendChunks(ids(9))).toEqual([ids(9)]);
  });

  it('splits more than 9 into chunks of 10, in selection order, the last one holding the rest', () => {
    expect(sendChunks(ids(10))).toEqual([ids(10)]);
    const chunks = sendChunks(ids(25));
    expect(chunks.map((chunk) => chunk.length)).toEqual([10, 10, 5]);
    expect(chunks.flat()).toEqual(ids(25));
    expect(sendChunks(ids(100)).map((chunk) => chunk.length)).toEqual(Array(10).fill(10));
  });
});

describe('sendProgress', () => {
  it('starts at 10 and reaches 100 exactly with the last chunk, in equal steps', () => {
    expect([0, 1, 2, 3].map((done) => sendProgress(done, 3))).toEqual([10, 40, 70, 100]);
    expect([0, 1, 2].map((done) => sendProgress(done, 2))).toEqual([10, 55, 100]);
  });

  it('moves every chunk and never passes 100, even for long runs', () => {
    const values = Array.from({ length: 101 }, (_, done) => sendProgress(done, 100));
    expect(values[0]).toBe(10);
    expect(values.at(-1)).toBe(100);
    expect(values.every((value, index) => index === 0 || value >= values[index - 1]!)).toBe(true);
    expect(values.filter((value) => value === 100)).toHaveLength(1);
    expect(sendProgress(7, 3)).toBe(100);
  });
});

describe('sendSummary', () => {
  it('says nothing when every message was sent', () => {
    expect(sendSummary(addAnswer(addAnswer(emptyTally(), answer(20)), answer(10)))).toBeNull();
  });

  it('counts failures across chunks', () => {
    const tally = addAnswer(addAnswer(emptyTally(), answer(10)), answer(8, 2));
    expect(sendSummary(tally)).toBe('Sent 18; 2 failed (see the reasons)');
  });

  it('names waiting, skipped, unsent and unknown records too', () => {
    let tally = addAnswer(emptyTally(), answer(6, 0, { queued: 2, skipped: 4, ignored: 1 }));
    tally = addUnsent(tally, 10);
    expect(sendSummary(tally)).toBe(
      'Sent 6; 2 waiting to be retried; 4 were sent before; ' +
        '10 records not sent (the request failed); 1 record not found',
    );
  });

  it('says when there was nothing new to send', () => {
    expect(sendSummary(addAnswer(emptyTally(), answer(0, 0, { skipped: 18 })))).toBe(
      'Nothing new to send: 18 were sent before',
    );
  });

  it('names messages left out, or records not sent, because their address bounced before', () => {
    const tally = addAnswer(emptyTally(), { ...answer(4), bouncedBefore: 2 });
    expect(sendSummary(tally)).toBe('Sent 4; 2 left out: the address bounced or failed before');
    expect(sendSummary(addDeclined(emptyTally(), 10))).toBe(
      'Sent 0; 10 records not sent: an address bounced or failed before',
    );
  });
});

describe('sendRateText', () => {
  it('says the messages a second achieved, and names a provider limit only when it holds the send back', () => {
    const tally = addAnswer(emptyTally(), answer(38, 2));
    expect(sendRateText(emptyTally(), 1000)).toBeNull();
    expect(sendRateText(tally, 0)).toBeNull();
    expect(sendRateText(tally, 2000)).toBe('20 messages a second');
    expect(sendRateText(tally, 16_000)).toBe('2.5 messages a second');
    expect(
      sendRateText(tally, 2000, [
        { channel: 'whatsapp', limit: 20, perSecond: 19.4 },
        { channel: 'email', limit: 10, perSecond: 4 },
      ]),
    ).toBe('20 messages a second; WhatsApp limited to 20/s');
    expect(sendRateText(tally, 2000, [{ channel: 'email', limit: 10, perSecond: 10.2 }])).toBe(
      '20 messages a second; E-mail limited to 10/s',
    );
  });
});
