import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/env.ts';
import { newId } from '../../lib/ids.ts';
import { readBounce } from './dsn.ts';

const DOMAIN = 'notices.example.com';
const RETURN_PATH_DOMAIN = 'bounces.example.com';

/** A relay's bounce of a message whose Message-ID it rewrote: only the VERP address it went back to is ours. */
const rewrittenBounce = (deliveryId: string, verpDomain: string) =>
  Buffer.from(
    `From: MAILER-DAEMON@relay.example.net\r\nTo: bounce+${deliveryId}@${verpDomain}\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <${newId()}@relay.example.net>\r\n\r\nrewritten@example.net: 550 5.1.1 No such mailbox\r\n\r\nMessage-ID: <0100018c-relay@relay.example.net>\r\n`,
  );

describe('readBounce', () => {
  it('finds the delivery by our VERP return path (BOUNCE_RETURN_PATH_DOMAIN) when the Message-ID was rewritten', async () => {
    const id = newId();
    expect(
      await readBounce(rewrittenBounce(id, RETURN_PATH_DOMAIN), DOMAIN, RETURN_PATH_DOMAIN),
    ).toMatchObject({ kind: 'bounce', deliveryIds: [id] });
    // Another domain's VERP address is not ours.
    expect(
      await readBounce(rewrittenBounce(id, 'elsewhere.example.org'), DOMAIN, RETURN_PATH_DOMAIN),
    ).toMatchObject({ kind: 'unreadable' });
    // Without the setting, the VERP address still counts under the Message-ID domain only.
    expect(await readBounce(rewrittenBounce(id, RETURN_PATH_DOMAIN), DOMAIN)).toMatchObject({
      kind: 'unreadable',
    });
    expect(await readBounce(rewrittenBounce(id, DOMAIN), DOMAIN)).toMatchObject({ deliveryIds: [id] });
  });
});

describe('BOUNCE_RETURN_PATH_DOMAIN', () => {
  it('takes a domain name (kept in lower case) and refuses anything else, naming the setting', () => {
    expect(loadConfig({ BOUNCE_RETURN_PATH_DOMAIN: 'Bounces.Example.com' }).bounces.returnPathDomain).toBe(
      'bounces.example.com',
    );
    expect(loadConfig({}).bounces.returnPathDomain).toBeUndefined();
    for (const value of ['bounces', 'bounce@example.com', 'a..b.com', '-x.example.com'])
      expect(() => loadConfig({ BOUNCE_RETURN_PATH_DOMAIN: value }), value).toThrow(
        'BOUNCE_RETURN_PATH_DOMAIN must be a domain name, such as bounces.example.com',
      );
  });
});
