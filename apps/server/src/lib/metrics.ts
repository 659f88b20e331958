import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (`GET /metrics`, prom-client). One registry per process: the code
 * that does the work counts into the metrics below, the scrape reads them. Queue depth and age are
 * read from the database at scrape time (modules/health), since every process shares one queue.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'notice_desk_' });

const registers = [metricsRegistry];
const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestSeconds = new Histogram({
  name: 'notice_desk_http_request_duration_seconds',
  help: 'Requests by route (the route pattern, never the URL), method and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: seconds,
  registers,
});

export const jobOutcomes = new Counter({
  name: 'notice_desk_job_outcomes_total',
  help: 'Job attempts by kind and how they ended: done, retry (will run again), failed (for good), lost (lease lost or runner stopping).',
  labelNames: ['kind', 'outcome'] as const,
  registers,
});

export const jobSeconds = new Histogram({
  name: 'notice_desk_job_duration_seconds',
  help: 'How long a job attempt ran, by kind.',
  labelNames: ['kind'] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 1800],
  registers,
});

export const sends = new Counter({
  name: 'notice_desk_sends_total',
  help: 'Messages handed to a provider (or the outbox), by channel and the status they ended in.',
  labelNames: ['channel', 'status'] as const,
  registers,
});

export const providerSeconds = new Histogram({
  name: 'notice_desk_provider_request_duration_seconds',
  help: 'How long the mail server or the WhatsApp API took to answer one message, by channel.',
  labelNames: ['channel'] as const,
  buckets: seconds,
  registers,
});

export const providerErrors = new Counter({
  name: 'notice_desk_provider_errors_total',
  help: 'Provider answers that were errors, by channel and whether they were permanent or will be retried.',
  labelNames: ['channel', 'kind'] as const,
  registers,
});

export const renderedDocuments = new Counter({
  name: 'notice_desk_renderer_documents_total',
  help: 'Notice PDFs Chromium rendered, one per record (rate() it for notices a second).',
  registers,
});

export const browserRestarts = new Counter({
  name: 'notice_desk_renderer_browser_starts_total',
  help: 'Times this process started (or connected to) a browser: the first, and each restart after one went away.',
  registers,
});

export const importedRows = new Counter({
  name: 'notice_desk_import_rows_total',
  help: 'Rows imports wrote (rate() it for rows a second).',
  registers,
});

export const rateLimitWaits = new Counter({
  name: 'notice_desk_rate_limit_waits_total',
  help: "Times a sender waited for its provider's rate limit (SMTP_RATE, WHATSAPP_RATE), by channel.",
  labelNames: ['channel'] as const,
  registers,
});

export const rateLimitWaitSeconds = new Counter({
  name: 'notice_desk_rate_limit_wait_seconds_total',
  help: "Seconds senders spent waiting for their provider's rate limit, by channel.",
  labelNames: ['channel'] as const,
  registers,
});

export const rateLimitRefusals = new Counter({
  name: 'notice_desk_rate_limit_refusals_total',
  help: 'Requests refused with 429 by the request limit (RATE_LIMIT).',
  registers,
});

/** Gauges read at scrape time: made for one registry of their own, merged in by the caller. */
export function queueGauges(read: () => Promise<{ kind: string; queued: number; oldestSeconds: number }[]>) {
  const registry = new Registry();
  let last: Promise<{ kind: string; queued: number; oldestSeconds: number }[]> | undefined;
  // One query for both gauges per scrape.
  const stats = () => (last ??= read().finally(() => setTimeout(() => (last = undefined), 0)));
  new Gauge({
    name: 'notice_desk_jobs_queued',
    help: 'Jobs waiting to run (queued), by kind, across every process sharing the database.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await stats()) this.set({ kind: row.kind }, row.queued);
    },
  });
  new Gauge({
    name: 'notice_desk_jobs_oldest_queued_seconds',
    help: 'Age of the oldest job waiting to run that is due now, by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await stats()) this.set({ kind: row.kind }, row.oldestSeconds);
    },
  });
  return registry;
}

/** The text a scrape answers: this process's metrics with `extra` (the queue gauges). */
export async function metricsText(extra: Registry[] = []): Promise<{ contentType: string; body: string }> {
  const merged = Registry.merge([metricsRegistry, ...extra]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
