import type { Funnel, FunnelRow } from '@notice-desk/contract/funnel';

const zero = {
  sent: 0,
  delivered: 0,
  read: 0,
  opened: 0,
  verified: 0,
  acknowledged: 0,
  disputed: 0,
  settleRequested: 0,
};

/** A funnel as the server answers it: e-mail, WhatsApp and any, each step 0 unless given. */
export const funnelOf = (
  email: Partial<FunnelRow> = {},
  whatsapp: Partial<FunnelRow> = {},
  any: Partial<FunnelRow> = {},
): Funnel => ({
  rows: [
    { ...zero, ...email, channel: 'email' },
    { ...zero, ...whatsapp, channel: 'whatsapp' },
    { ...zero, ...any, channel: 'any' },
  ],
});
