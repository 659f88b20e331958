import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/app.ts';
import { noticeKind } from '../records/record-kinds.ts';

let t: TestApp | undefined;
afterEach(async () => t?.close());

const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

async function sendOneNotice(env: Record<string, string>) {
  t = await createTestApp(env);
  const asha = await signUp(t.app, 'asha');
  const fields = Object.fromEntries(noticeKind.fields.map((f) => [f.key, `${f.key}-1`]));
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: asha.headers,
    payload: { ...fields, emailId: 'customer@example.com', modeOfDispatch: 'Email' },
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/campaigns/send-mail',
    headers: asha.headers,
    payload: { data: [created.json<{ _id: string }>()._id], type: 'notice' },
  });
}

describe('quiet hours', () => {
  it('refuse a send outside the window, saying when it opens', async () => {
    // A one-hour window twelve hours from now: closed now, whatever the time of day.
    const opens = (new Date().getUTCHours() + 12) % 24;
    const res = await sendOneNotice({
      SEND_HOURS: `${hh(opens)}-${opens === 23 ? '23:59' : hh(opens + 1)}`,
      SEND_HOURS_TIMEZONE: 'UTC',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'OUTSIDE_SENDING_HOURS' });
    expect(res.json().message).toMatch(
      new RegExp(
        `^Notices may be sent only between ${hh(opens)}–.* \\(UTC\\)\\. Sending opens again at ${hh(opens)} on \\w{3}, \\d+ \\w{3} \\(in 1[12] h \\d+ min\\)\\.$`,
      ),
    );
  });

  it('let a send through inside the window, and are off unless configured', async () => {
    expect(
      (await sendOneNotice({ SEND_HOURS: '00:00-23:59', SEND_HOURS_TIMEZONE: 'UTC' })).json(),
    ).toMatchObject({
      sent: 1,
    });
    await t!.close();
    t = undefined;
    expect((await sendOneNotice({})).json()).toMatchObject({ sent: 1 });
  });
});
