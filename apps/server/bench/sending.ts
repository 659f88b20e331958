import fs from 'node:fs';
import { startSmtpListener, startWhatsappPeer } from '../src/test/peers.ts';
import { signUpOver, startServerProcess, type ServerProcess } from '../src/test/server-process.ts';
import { benchTarget, seedSendableNotices, type BenchTarget } from './support.ts';

const SEND = Number(process.env.BENCH_SEND ?? 5000);
const ZIP = Number(process.env.BENCH_ZIP ?? 10_000);

function peakRssMb(pid: number): number {
  return Math.round(
    Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  );
}

async function sendInChunks(
  server: ServerProcess,
  headers: Record<string, string>,
  ids: string[],
  resend: boolean,
): Promise<{ seconds: number; sent: number }> {
  const start = performance.now();
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
  return { seconds: (performance.now() - start) / 1000, sent };
}

export interface SendFigures {
  database: string;
  'fresh notices/s': number;
  'cached notices/s': number;
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
