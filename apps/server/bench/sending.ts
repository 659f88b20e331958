import { startMsg91Peer, startSmtpListener, startWhatsappPeer } from '../src/test/peers.ts';
import {
  signUpOver,
  startServerProcess,
  startWorkerProcess,
  type ServerProcess,
} from '../src/test/server-process.ts';
import { cpuSeconds, peakRssMb } from './process-stats.ts';
import { benchTarget, seedSendableNotices, type BenchTarget } from './support.ts';

const SEND = Number(process.env.BENCH_SEND ?? 5000);
const ZIP = Number(process.env.BENCH_ZIP ?? 10_000);

async function sendInChunks(
  server: ServerProcess,
  headers: Record<string, string>,
  ids: string[],
  resend: boolean,
): Promise<{ seconds: number; sent: number; cpuSeconds: number }> {
  const start = performance.now();
  const cpuAtStart = cpuSeconds(server.child.pid!);
  let sent = 0;
  for (let i = 0; i < ids.length; i += 10) {
    const res = await fetch(`${server.baseUrl}/api/campaigns/send-mail`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ data: ids.slice(i, i + 10), type: 'notice', resend }),
    });
    const body = (await res.json()) as { sent: number };
    sent += body.sent;
  }
  return {
    seconds: (performance.now() - start) / 1000,
    sent,
    cpuSeconds: cpuSeconds(server.child.pid!) - cpuAtStart,
  };
}

export interface SendFigures {
  database: string;
  'fresh notices/s': number;
  'cached notices/s': number;
  /** The server process's CPU time per notice: steadier than the rate on a machine others load. */
  'fresh CPU ms': number;
  'cached CPU ms': number;
  'messages sent': number;
  'zip 10,000 s': number;
  'zip MB': number;
  'send peak MB': number;
  'zip peak MB': number;
}

/** 5,000 notices on both channels through the API in chunks of 10, as the web app sends them; then a 10,000-PDF zip. */
export async function benchSending(label: BenchTarget['label']): Promise<SendFigures> {
  const smtp = await startSmtpListener();
  const peer = await startWhatsappPeer();
  const target = await benchTarget(label, 'sending');
  const env = {
    ...target.env,
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session', // free-form document messages, as these tests read them
    SMTP_RATE: 'unlimited',
    WHATSAPP_RATE: 'unlimited',
  };
  let server = await startServerProcess(env);
  try {
    const user = await signUpOver(server.baseUrl, 'bench-sender');
    const { ids } = await seedSendableNotices(target, user.userId, SEND);
    const fresh = await sendInChunks(server, user.headers, ids, false);
    const cached = await sendInChunks(server, user.headers, ids, true);
    if (smtp.mails.length !== SEND * 2 || peer.messages.length !== SEND * 2) {
      throw new Error(
        `expected ${SEND * 2} of each, got ${smtp.mails.length} mails and ${peer.messages.length} WhatsApp messages`,
      );
    }
    const zipCampaign = await seedSendableNotices(target, user.userId, ZIP);
    // Render the campaign's PDFs first (the target is for PDFs already rendered), then measure the
    // zip alone in a fresh process, so its peak memory is the zip's.
    await (
      await fetch(
        `${server.baseUrl}/api/campaigns/export-campaign/notice?campaignid=${zipCampaign.campaignId}`,
        { headers: user.headers },
      )
    ).arrayBuffer();
    const sendPeakMb = peakRssMb(server.child.pid!);
    await server.stop();
    server = await startServerProcess(env);
    const zipStart = performance.now();
    const zip = await (
      await fetch(
        `${server.baseUrl}/api/campaigns/export-campaign/notice?campaignid=${zipCampaign.campaignId}`,
        { headers: user.headers },
      )
    ).arrayBuffer();
    const zipSeconds = (performance.now() - zipStart) / 1000;
    return {
      database: label,
      'fresh notices/s': Math.round(SEND / fresh.seconds),
      'cached notices/s': Math.round(SEND / cached.seconds),
      'fresh CPU ms': Number(((fresh.cpuSeconds * 1000) / SEND).toFixed(2)),
      'cached CPU ms': Number(((cached.cpuSeconds * 1000) / SEND).toFixed(2)),
      'messages sent': fresh.sent + cached.sent,
      'zip 10,000 s': Number(zipSeconds.toFixed(2)),
      'zip MB': Math.round(zip.byteLength / 1024 / 1024),
      'send peak MB': sendPeakMb,
      'zip peak MB': peakRssMb(server.child.pid!),
    };
  } finally {
    await server.stop();
    await target.cleanup();
    await smtp.close();
    await peer.close();
  }
}

const RATE = Number(process.env.BENCH_RATE ?? 50);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 60);

export interface RateFigures {
  database: string;
  channel: string;
  'limit /s': number;
  seconds: number;
  messages: number;
  'measured /s': number;
  'off by %': number;
  'busiest second': number;
}

/** Arrival times of one channel's messages: the rate over the first `seconds` and the busiest second. */
function rateOf(times: number[], seconds: number) {
  const sorted = [...times].sort((a, b) => a - b);
  const start = sorted[0] ?? 0;
  const inWindow = sorted.filter((at) => at < start + seconds * 1000);
  let busiest = 0;
  for (let i = 0, j = 0; i < inWindow.length; i++) {
    while (inWindow[j]! < inWindow[i]! - 999) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  return { messages: inWindow.length, perSecond: inWindow.length / seconds, busiest };
}

/** The SMS's DLT template (registered text and the text that fills it), as an ADMIN sets it. */
const SMS_AUTH_KEY = 'bench-msg91-auth-key';
const SMS_TEMPLATE = {
  dltTemplateId: '1107161234567890123',
  registeredText:
    'Dear {#var#}, a legal notice on loan {#var#} is served on you. View: https://notices.example.in/n/{#var#} -ACME LAW',
  text: 'Dear {{custName}}, a legal notice on loan {{loanNo}} is served on you. View: https://notices.example.in/n/{{noticeCode}} -ACME LAW',
};

/**
 * WHATSAPP_RATE, SMTP_RATE and SMS_RATE at 50/s with two worker processes (and an API process that
 * runs no jobs) on one database: more notices than the window can send are queued at once, and the
 * peers' arrival times over 60 s say whether each limit held across both workers together.
 */
export async function benchSendRate(label: BenchTarget['label']): Promise<RateFigures[]> {
  const smtp = await startSmtpListener();
  const peer = await startWhatsappPeer();
  const sms = await startMsg91Peer({ authKey: SMS_AUTH_KEY });
  const target = await benchTarget(label, 'send_rate');
  const env = {
    ...target.env,
    SMTP_URL: smtp.url,
    WHATSAPP_API_URL: peer.apiUrl,
    WHATSAPP_TOKEN: 'peer-token',
    WHATSAPP_PHONE_NUMBER_ID: '1234567890',
    WHATSAPP_MODE: 'session',
    SMS_API_URL: sms.apiUrl,
    MSG91_AUTH_KEY: SMS_AUTH_KEY,
    SMS_SENDER: 'ACMELW',
    SMS_DLT_ENTITY_ID: '1101234567890123456',
    WHATSAPP_RATE: String(RATE),
    SMTP_RATE: String(RATE),
    SMS_RATE: String(RATE),
    LOG_LEVEL: 'error',
  };
  const server = await startServerProcess({ ...env, RUN_JOBS: 'false' });
  const workers = [startWorkerProcess(env), startWorkerProcess(env)];
  try {
    // The first account is an ADMIN, who sets the notices' DLT template.
    const user = await signUpOver(server.baseUrl, 'bench-rate');
    const template = await fetch(`${server.baseUrl}/api/smstemplates/dlt/notice`, {
      method: 'PUT',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify(SMS_TEMPLATE),
    });
    if (!template.ok)
      throw new Error(`the DLT template answered ${template.status}: ${await template.text()}`);
    const count = Math.ceil(RATE * RATE_SECONDS * 1.15);
    const { ids, campaignId } = await seedSendableNotices(target, user.userId, count, 'Email, WhatsApp, SMS');
    // The PDFs are rendered first: the limit is measured, not how fast two cores render.
    await (
      await fetch(`${server.baseUrl}/api/campaigns/export-campaign/notice?campaignid=${campaignId}`, {
        headers: user.headers,
      })
    ).arrayBuffer();
    const chunks = Array.from({ length: Math.ceil(ids.length / 500) }, (_, i) =>
      ids.slice(i * 500, i * 500 + 500),
    );
    await Promise.all(
      chunks.map(async (chunk) => {
        const res = await fetch(`${server.baseUrl}/api/campaigns/send-mail`, {
          method: 'POST',
          headers: { ...user.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ data: chunk, type: 'notice' }),
        });
        if (!res.ok) throw new Error(`send-mail answered ${res.status}: ${await res.text()}`);
      }),
    );
    const deadline = Date.now() + (RATE_SECONDS + 120) * 1000;
    const enough = () => {
      const first = Math.min(
        peer.messages[0]?.at ?? Infinity,
        smtp.mails[0]?.at ?? Infinity,
        sms.messages[0]?.at ?? Infinity,
      );
      return Date.now() > first + RATE_SECONDS * 1000 + 1000;
    };
    while (!enough() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    const figures = (channel: string, times: number[]): RateFigures => {
      const { messages, perSecond, busiest } = rateOf(times, RATE_SECONDS);
      return {
        database: label,
        channel,
        'limit /s': RATE,
        seconds: RATE_SECONDS,
        messages,
        'measured /s': Number(perSecond.toFixed(2)),
        'off by %': Number((((perSecond - RATE) / RATE) * 100).toFixed(2)),
        'busiest second': busiest,
      };
    };
    return [
      figures(
        'WhatsApp',
        peer.messages.map((m) => m.at),
      ),
      figures(
        'e-mail',
        smtp.mails.map((m) => m.at),
      ),
      figures(
        'SMS',
        sms.messages.map((m) => m.at),
      ),
    ];
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await server.stop();
    await target.cleanup();
    await smtp.close();
    await peer.close();
    await sms.close();
  }
}
