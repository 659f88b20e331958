import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { serviceDates, type DeliveryFact, type PageFact, type ServiceRules } from './service-dates.ts';

const rules = (overrides: Partial<ServiceRules> = {}): ServiceRules => ({
  periodDays: 15,
  deemedServiceDays: 30,
  postDeemedServiceDays: 30,
  timeZone: 'Asia/Kolkata',
  now: '2024-12-31T00:00:00.000Z',
  ...overrides,
});
const sent = (
  at: string,
  channel: DeliveryFact['channel'] = 'email',
  delivery = `${channel}-1`,
): DeliveryFact => ({
  delivery_id: delivery,
  channel,
  status: 'sent',
  at,
  refused: null,
});
const event = (
  status: DeliveryFact['status'],
  at: string,
  channel: DeliveryFact['channel'] = 'whatsapp',
  delivery = `${channel}-1`,
): DeliveryFact => ({
  delivery_id: delivery,
  channel,
  status,
  at,
  refused: null,
});
const page = (name: string, at: string): PageFact => ({ event: name, at });

describe('serviceDates', () => {
  it('is not served by a dispatch alone before the deemed date', () => {
    expect(serviceDates({ deliveries: [sent('2024-12-20T10:00:00.000Z')], page: [] }, rules())).toEqual({
      servedOn: null,
      servedBy: null,
      respondBy: null,
      shown: { servedOn: null, respondBy: null },
    });
  });

  it('takes a receipt at 23:50 IST as that IST day, though it is the day before in UTC', () => {
    // 2024-05-12 23:50 IST is 2024-05-12T18:20Z; 00:10 IST on the 13th is still the 12th in UTC.
    const late = serviceDates(
      { deliveries: [event('delivered', '2024-05-12T18:20:00.000Z')], page: [] },
      rules(),
    );
    expect(late).toMatchObject({ servedBy: 'whatsapp: delivered', respondBy: '2024-05-27' });
    expect(late.shown).toEqual({ servedOn: '12-05-2024', respondBy: '27-05-2024' });
    const afterMidnight = serviceDates(
      { deliveries: [event('read', '2024-05-12T18:40:00.000Z')], page: [] },
      rules(),
    );
    expect(afterMidnight.shown.servedOn).toBe('13-05-2024');
  });

  it('runs the period across month ends, year ends and 29 February', () => {
    const on = (at: string, periodDays: number) =>
      serviceDates(
        { deliveries: [event('delivered', at)], page: [] },
        rules({ periodDays, now: '2025-12-31T00:00:00Z' }),
      ).respondBy;
    expect(on('2024-01-31T06:00:00.000Z', 15)).toBe('2024-02-15');
    expect(on('2024-02-14T06:00:00.000Z', 15)).toBe('2024-02-29');
    expect(on('2023-02-14T06:00:00.000Z', 15)).toBe('2023-03-01');
    expect(on('2024-12-20T06:00:00.000Z', 15)).toBe('2025-01-04');
    expect(on('2024-01-01T06:00:00.000Z', 60)).toBe('2024-03-01');
    expect(on('2023-01-01T06:00:00.000Z', 60)).toBe('2023-03-02');
  });

  it('takes the earliest receipt on any channel or the notice page', () => {
    const dates = serviceDates(
      {
        deliveries: [sent('2024-05-01T05:00:00.000Z'), event('read', '2024-05-03T05:00:00.000Z', 'email')],
        page: [
          page('link_opened', '2024-05-01T06:00:00.000Z'),
          page('acknowledged', '2024-05-02T07:00:00.000Z'),
        ],
      },
      rules(),
    );
    expect(dates).toMatchObject({
      servedOn: '2024-05-02T07:00:00.000Z',
      servedBy: 'notice page: acknowledged',
    });
  });

  it('does not take an opened link, a failure, a bounce or an outbox file as receipt', () => {
    const dates = serviceDates(
      {
        deliveries: [
          event('outbox', '2024-05-01T05:00:00.000Z'),
          event('failed', '2024-05-01T05:00:00.000Z'),
          event('bounced', '2024-05-02T05:00:00.000Z', 'email'),
        ],
        page: [
          page('link_opened', '2024-05-01T06:00:00.000Z'),
          page('check_failed', '2024-05-01T06:01:00.000Z'),
        ],
      },
      rules(),
    );
    expect(dates.servedOn).toBeNull();
  });

  it('takes a delivered that came after its read (refused as out of order), but not one after a failure', () => {
    const outOfOrder: DeliveryFact = {
      ...event('delivered', '2024-05-02T05:00:00.000Z'),
      refused: 'not applied: the delivery was already read; a status never moves backwards',
    };
    const afterFailure: DeliveryFact = {
      ...event('delivered', '2024-05-01T05:00:00.000Z'),
      refused: 'not applied: the delivery had already failed, which is final',
    };
    const dates = serviceDates(
      { deliveries: [afterFailure, event('read', '2024-05-03T05:00:00.000Z'), outOfOrder], page: [] },
      rules(),
    );
    expect(dates).toMatchObject({ servedOn: '2024-05-02T05:00:00.000Z', servedBy: 'whatsapp: delivered' });
  });

  it('is deemed served N days after the first dispatch when nothing came back', () => {
    const dates = serviceDates(
      {
        deliveries: [sent('2024-05-10T05:00:00.000Z', 'whatsapp'), sent('2024-05-01T05:00:00.000Z')],
        page: [],
      },
      rules(),
    );
    expect(dates).toMatchObject({
      servedOn: '2024-05-31T05:00:00.000Z',
      servedBy: 'deemed (30 days after dispatch)',
      respondBy: '2024-06-15',
    });
  });

  it('lets actual receipt win only on or before the deemed date', () => {
    const dispatch = sent('2024-05-01T05:00:00.000Z');
    const before = serviceDates(
      { deliveries: [dispatch, event('delivered', '2024-05-31T05:00:00.000Z')], page: [] },
      rules(),
    );
    expect(before.servedBy).toBe('whatsapp: delivered');
    const after = serviceDates(
      { deliveries: [dispatch, event('delivered', '2024-05-31T05:00:00.001Z')], page: [] },
      rules(),
    );
    expect(after).toMatchObject({
      servedOn: '2024-05-31T05:00:00.000Z',
      servedBy: 'deemed (30 days after dispatch)',
    });
  });

  it('is never deemed with DEEMED_SERVICE_DAYS=0, and has no respond-by date without a legal basis', () => {
    const deliveries = [sent('2024-01-01T05:00:00.000Z')];
    expect(serviceDates({ deliveries, page: [] }, rules({ deemedServiceDays: 0 })).servedOn).toBeNull();
    const noBasis = serviceDates(
      { deliveries: [event('read', '2024-01-02T05:00:00.000Z')], page: [] },
      rules({ periodDays: null }),
    );
    expect(noBasis).toMatchObject({ servedOn: '2024-01-02T05:00:00.000Z', respondBy: null });
    expect(noBasis.shown).toEqual({ servedOn: '02-01-2024', respondBy: null });
  });

  it('reads the day in TIME_ZONE, whatever zone it is', () => {
    const at = '2024-05-12T02:00:00.000Z';
    const inNewYork = serviceDates(
      { deliveries: [event('read', at)], page: [] },
      rules({ timeZone: 'America/New_York' }),
    );
    expect(inNewYork.shown.servedOn).toBe('11-05-2024');
  });
});

describe('serviceDates by post (POST_DEEMED_SERVICE_DAYS)', () => {
  const booked = (at: string, letter = 'post-1') => sent(at, 'post', letter);
  const returned = (at: string, letter = 'post-1') => event('bounced', at, 'post', letter);

  it('deems a letter nothing came back for served POST_DEEMED_SERVICE_DAYS after its booking', () => {
    const dates = serviceDates(
      { deliveries: [booked('2024-05-01T05:00:00.000Z')], page: [] },
      rules({ postDeemedServiceDays: 10 }),
    );
    expect(dates).toMatchObject({
      servedOn: '2024-05-11T05:00:00.000Z',
      servedBy: 'deemed (10 days after booking by post)',
      respondBy: '2024-05-26',
    });
  });

  it('does not deem a returned letter served, but does a second letter that was not returned', () => {
    const first = [booked('2024-05-01T05:00:00.000Z'), returned('2024-05-04T05:00:00.000Z')];
    expect(serviceDates({ deliveries: first, page: [] }, rules()).servedOn).toBeNull();
    const again = [...first, booked('2024-05-06T05:00:00.000Z', 'post-2')];
    expect(serviceDates({ deliveries: again, page: [] }, rules())).toMatchObject({
      servedOn: '2024-06-05T05:00:00.000Z',
      servedBy: 'deemed (30 days after booking by post)',
    });
  });

  it('keeps the two clocks apart: a booking does not start the electronic one, the earlier deemed date serves', () => {
    const postOnly = [booked('2024-05-01T05:00:00.000Z')];
    expect(
      serviceDates({ deliveries: postOnly, page: [] }, rules({ postDeemedServiceDays: 0 })).servedOn,
    ).toBeNull();
    const both = [sent('2024-05-01T05:00:00.000Z'), booked('2024-05-03T05:00:00.000Z')];
    expect(serviceDates({ deliveries: both, page: [] }, rules({ postDeemedServiceDays: 7 }))).toMatchObject({
      servedOn: '2024-05-10T05:00:00.000Z',
      servedBy: 'deemed (7 days after booking by post)',
    });
    expect(serviceDates({ deliveries: both, page: [] }, rules({ deemedServiceDays: 7 }))).toMatchObject({
      servedOn: '2024-05-08T05:00:00.000Z',
      servedBy: 'deemed (7 days after dispatch)',
    });
    // 0: never by post; the electronic clock still runs.
    expect(serviceDates({ deliveries: both, page: [] }, rules({ postDeemedServiceDays: 0 })).servedBy).toBe(
      'deemed (30 days after dispatch)',
    );
  });

  it('takes an AD card’s date as actual receipt, before the deemed date', () => {
    const dates = serviceDates(
      {
        deliveries: [
          booked('2024-05-01T05:00:00.000Z'),
          event('delivered', '2024-05-04T18:30:00.000Z', 'post', 'post-1'),
        ],
        page: [],
      },
      rules(),
    );
    expect(dates).toMatchObject({ servedBy: 'post: delivered', shown: { servedOn: '05-05-2024' } });
  });
});

describe('POST_DEEMED_SERVICE_DAYS', () => {
  it('is 30 days unless set, 0 turns it off, and anything but a whole number of days to 365 is refused', () => {
    expect(loadConfig({}).postDeemedServiceDays).toBe(30);
    expect(loadConfig({ POST_DEEMED_SERVICE_DAYS: '0' }).postDeemedServiceDays).toBe(0);
    expect(loadConfig({ POST_DEEMED_SERVICE_DAYS: '7', DEEMED_SERVICE_DAYS: '45' })).toMatchObject({
      postDeemedServiceDays: 7,
      deemedServiceDays: 45,
    });
    for (const wrong of ['-1', '2.5', '366', 'a week'])
      expect(() => loadConfig({ POST_DEEMED_SERVICE_DAYS: wrong })).toThrow(
        /POST_DEEMED_SERVICE_DAYS must be a whole number of days, 0 \(never deemed\) to 365/,
      );
  });
});
