import type { App, AppContext } from '../../app-context.ts';

const tags = ['sending'];

/** Bounce, complaint and delivery events from e-mail providers. Called by the provider, not by staff: a signature instead of a session. */
export function emailWebhooksRoutes(app: App, { emailWebhooks }: AppContext): void {
  // Signatures cover the exact bytes the provider sent, so this route reads its body raw.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/webhooks/email',
      {
        schema: {
          tags,
          summary: 'E-mail bounce, complaint and delivery webhook',
          description:
            "Receives bounce, complaint and delivery events from Amazon SES (an SNS message: x-amz-sns-message-type, signed with the certificate at SigningCertURL, fetched only from SES_SNS_CERT_HOSTS; TopicArn must be SES_SNS_TOPIC_ARN), SendGrid (the signed event webhook: X-Twilio-Email-Event-Webhook-Signature over the timestamp and raw body, checked with SENDGRID_WEBHOOK_PUBLIC_KEY) or Postmark (basic auth whose password is POSTMARK_WEBHOOK_TOKEN). Each provider answers 404 until its setting is set; an unsigned or wrongly signed call 401, a malformed one 400, and nothing of it is applied. A permanent bounce turns the e-mail delivery named by our Message-ID `bounced` with the reason (only from sent; once per event) and remembers the address; a complaint remembers the address and moves no status; a delivery event (SES Delivery, SendGrid delivered, Postmark Delivery) moves the delivery to `delivered` at the provider's time, forward only and once per event (after a bounce it is kept in the trail as refused). Answers counts: applied, unchanged (recorded, but a status never moves backwards), replayed, unmatched (no such delivery), mismatched (the event names another recipient than the delivery's: nothing changes) and ignored (not one of our messages, or an event kind not read); events for messages not ours still answer 200, and are logged.",
        },
      },
      async (req) =>
        emailWebhooks.receive(
          { rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), headers: req.headers },
          req.log,
        ),
    );
  });
}
