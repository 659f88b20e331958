/**
 * The words a status reads as on every screen. The API and the database keep the raw values
 * ('outbox', 'bounced'…); people read these. 'outbox' says what it means: with no provider set up,
 * a message is written to the outbox folder and goes nowhere.
 */
const WORDS: Readonly<Record<string, string>> = {
  queued: 'Queued',
  outbox: 'Outbox (not sent: no provider set up)',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
  bounced: 'Bounced',
  not_serviceable: 'Not serviceable',
};

/** A delivery status as people read it; a value this list does not know yet shows as it came. */
export function deliveryStatusWord(status: string): string {
  return WORDS[status] ?? status;
}

/** What each status means, in the order a message goes through them: the campaign page's legend. */
export const deliveryStatusMeanings: readonly { status: string; meaning: string }[] = [
  { status: 'queued', meaning: 'Waiting its turn to be sent.' },
  {
    status: 'sent',
    meaning: 'Handed to the mail server or to WhatsApp. Nothing has come back about it yet.',
  },
  { status: 'delivered', meaning: "It reached the customer's mailbox or phone." },
  { status: 'read', meaning: 'WhatsApp reports that the customer opened it.' },
  {
    status: 'failed',
    meaning: 'It could not be sent. The reason shows with the status; Resend failed tries again.',
  },
  {
    status: 'bounced',
    meaning:
      'The mail server sent it back (for example, no such address): the notice was not served. The reason shows with the status.',
  },
  {
    status: 'outbox',
    meaning:
      'No e-mail or WhatsApp provider is set up, so the message was saved to the outbox folder instead. It did not reach the customer.',
  },
  {
    status: 'not_serviceable',
    meaning:
      'The e-mail or mobile cannot be served as written (for example two @, or too few digits): the send left it out. The reason shows with the status.',
  },
];
