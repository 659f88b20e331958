import { createHash } from 'node:crypto';
import type { DeliveryChannel } from '@notice-desk/contract/sending';
import {
  verifyCodePattern,
  type SignatureCheck,
  type VerifyFileAnswer,
  type VerifyPage,
} from '@notice-desk/contract/verify';
import type { Database } from '../../db/database.ts';
import type { RecordKind } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { checkPdfSignature, TrustedSigner } from '../../lib/pdf/verify-signature.ts';
import type { FileStore } from '../../lib/storage.ts';
import { shownAt } from '../../lib/time.ts';
import type { VerifyLimits } from '../limits/limits.service.ts';
import { recordKinds } from '../records/record-kinds.ts';
import * as records from '../records/records.repository.ts';
import * as verify from './verify.repository.ts';

export interface VerifyDeps {
  db: Database;
  store: FileStore;
  limits: VerifyLimits;
  /** FIRM_NAME: who issued the notices. */
  firmName: string;
  /** TIME_ZONE: times are shown as DD-MM-YYYY HH:mm:ss IST. */
  timeZone: string;
  /** NOTICE_SIGNING_P12's chain, leaf first: a signature is valid only when made by this key... */
  signingChain: readonly Buffer[] | undefined;
  /** ...or by one of these earlier certificates (NOTICE_SIGNING_EARLIER_CERTS), each leaf first with its chain. */
  earlierSigningChains?: readonly (readonly Buffer[])[] | undefined;
}

const channelWords = { email: 'e-mail', whatsapp: 'WhatsApp', sms: 'SMS', post: 'post' } as const;
const NOT_SERVED = 'This file is not a notice we served';
const noSuchCode = () =>
  new AppError(
    404,
    'NOT_FOUND',
    'No notice has this verification code. Check the link printed on the notice.',
  );

/** "e-mail and WhatsApp", "e-mail". */
const inWords = (channels: (keyof typeof channelWords)[]) => {
  const words = channels.map((channel) => channelWords[channel]);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
};

/**
 * The public verification of a notice (issue 30): what its code's page may show (the firm, the
 * account's last four characters, when and how it was served, the served file's SHA-256 and whether its
 * signature verifies), and whether a dropped file is, byte for byte, a notice that was served.
 */
export class VerifyService {
  /** Signature checks of kept files, by SHA-256: a file kept never changes. */
  private readonly checked = new Map<string, SignatureCheck | null>();
  private readonly trusted: TrustedSigner | undefined;

  constructor(private readonly deps: VerifyDeps) {
    const earlier = deps.earlierSigningChains ?? [];
    this.trusted =
      deps.signingChain || earlier.length > 0 ? new TrustedSigner(deps.signingChain, earlier) : undefined;
  }

  async page(code: string, ip: string): Promise<VerifyPage> {
    await this.deps.limits.visit(ip);
    const found = await this.resolve(code);
    if (!found) throw noSuchCode();
    const { kind, record } = found;
    const served = await verify.servedDeliveriesOf(this.deps.db, kind, record.id);
    const facts = await this.servedFacts(served);
    const latest = served.at(-1);
    const reference = ((kind === 'notice' ? record.loanNo : record.maskNo) ?? '').replace(/\s+/g, '');
    return {
      issuedBy: this.deps.firmName,
      referenceKind: kind === 'notice' ? 'Loan' : 'Account',
      referenceEnding: reference ? `••••${reference.slice(-4)}` : '',
      servedOn: facts.servedOn,
      channels: facts.channels,
      sha256: latest?.pdf_sha256 ?? null,
      signature: latest ? await this.keptSignature(latest) : null,
    };
  }

  /** A dropped file: served or not (any changed byte: not), and its own signature. `code` narrows to one notice. */
  async checkFile(file: Buffer, code: string | undefined, ip: string): Promise<VerifyFileAnswer> {
    await this.deps.limits.visit(ip);
    const sha256 = createHash('sha256').update(file).digest('hex');
    let served: verify.ServedDelivery[];
    if (code) {
      const found = await this.resolve(code);
      if (!found) throw noSuchCode();
      served = (await verify.servedDeliveriesOf(this.deps.db, found.kind, found.record.id)).filter(
        (d) => d.pdf_sha256 === sha256,
      );
    } else {
      served = await verify.servedDeliveriesOfFile(this.deps.db, sha256);
    }
    const facts = await this.servedFacts(served);
    const signature = isPdf(file) ? await this.signatureOf(file) : null;
    return {
      served: served.length > 0,
      message: facts.servedOn
        ? `This is the notice served on ${facts.servedOn.slice(0, 10)} by ${inWords(facts.channels)}`
        : NOT_SERVED,
      sha256,
      issuedBy: this.deps.firmName,
      servedOn: facts.servedOn,
      channels: facts.channels,
      signature,
    };
  }

  /** The code's record; undefined for a code that is malformed, unknown, or whose record is gone. */
  private async resolve(code: string): Promise<{ kind: RecordKind; record: records.RecordRow } | undefined> {
    if (!verifyCodePattern.test(code)) return undefined;
    const row = await verify.findCode(this.deps.db, code);
    if (!row) return undefined;
    const record = await records.findRecordById(this.deps.db, recordKinds[row.record_kind], row.record_id);
    return record ? { kind: row.record_kind, record } : undefined;
  }

  /** When the deliveries first served (DD-MM-YYYY HH:mm:ss IST) and by which channels, first first. */
  private async servedFacts(
    served: verify.ServedDelivery[],
  ): Promise<{ servedOn: string | null; channels: DeliveryChannel[] }> {
    if (served.length === 0) return { servedOn: null, channels: [] };
    const firstAt = await verify.servedAtOf(
      this.deps.db,
      served.map((d) => d.id),
    );
    const times = served
      .map((d) => ({ channel: d.channel, at: firstAt.get(d.id) ?? d.status_at }))
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    return {
      servedOn: shownAt(times[0]!.at, this.deps.timeZone),
      channels: [...new Set(times.map((t) => t.channel))],
    };
  }

  private async keptSignature(delivery: verify.ServedDelivery): Promise<SignatureCheck | null> {
    const sha256 = delivery.pdf_sha256!;
    if (this.checked.has(sha256)) return this.checked.get(sha256)!;
    const pdf = delivery.pdf_key
      ? await this.deps.store.readBuffer(delivery.pdf_key).catch(() => null)
      : null;
    if (!pdf) return null;
    const check = await this.signatureOf(pdf);
    if (this.checked.size >= 10_000) this.checked.clear();
    this.checked.set(sha256, check);
    return check;
  }

  private async signatureOf(pdf: Buffer): Promise<SignatureCheck | null> {
    const check = await checkPdfSignature(pdf, this.trusted);
    if (!check.signed) return null;
    const { earlier } = check;
    const shown = (at: Date) => shownAt(at.toISOString(), this.deps.timeZone);
    return {
      valid: check.valid,
      signer: check.signer,
      reason: check.reason,
      earlierCertificate: earlier
        ? { subject: earlier.subject, validFrom: shown(earlier.validFrom), validTo: shown(earlier.validTo) }
        : null,
    };
  }
}

const isPdf = (file: Buffer) => file.subarray(0, 1024).includes('%PDF-');
