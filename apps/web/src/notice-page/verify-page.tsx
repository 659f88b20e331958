import { useEffect, useState, type DragEvent } from 'react';
import type {
  SignatureCheck,
  VerifyFileAnswer,
  VerifyPage as VerifyFacts,
} from '@notice-desk/contract/verify';
import styles from './notice-page.module.css';

/** The contract's VERIFY_FILE_MAX_BYTES, repeated to keep zod out of this bundle. */
const MAX_BYTES = 20 * 1024 * 1024;
const channelWords = { email: 'e-mail', whatsapp: 'WhatsApp', sms: 'SMS', post: 'post' } as const;

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  if (!response.ok) throw new Error(body?.message ?? response.statusText);
  return body as T;
}

function Signature({ check }: { check: SignatureCheck | null }) {
  if (!check) return <>Not signed</>;
  if (!check.valid) return <>Not valid: {check.reason ?? 'the signature does not match the file'}</>;
  // Signed before the DSC was renewed: by our earlier certificate, named by its subject's common name.
  const earlier = check.earlierCertificate;
  if (earlier)
    return (
      <>
        Valid, signed by our earlier certificate{earlier.subject ? ` for ${earlier.subject}` : ''} (valid from{' '}
        {earlier.validFrom} to {earlier.validTo})
      </>
    );
  return <>Valid{check.signer ? `, signed by ${check.signer}` : ''}</>;
}

/**
 * /v/:code, public: what the notice printed with this code is (who issued it, the account's last four,
 * when and how it was served, the served file's SHA-256, its signature), and a file dropped here
 * checked against the notices served. No other personal data.
 */
export function VerifyPage({ code }: { code: string }) {
  const [facts, setFacts] = useState<VerifyFacts | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [answer, setAnswer] = useState<VerifyFileAnswer | null>(null);
  const [checking, setChecking] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);

  useEffect(() => {
    document.title = 'Verify a notice';
    call<VerifyFacts>(`/api/public/verify/${encodeURIComponent(code)}`).then(setFacts, (error: Error) =>
      setFailed(error.message),
    );
  }, [code]);

  const check = async (file: File | undefined) => {
    if (!file) return;
    setAnswer(null);
    setFileError(null);
    if (file.size > MAX_BYTES)
      return setFileError('The file is larger than 20 MB; a notice we served is far smaller.');
    const form = new FormData();
    form.append('code', code);
    form.append('file', file);
    setChecking(true);
    try {
      setAnswer(await call<VerifyFileAnswer>('/api/public/verify', { method: 'POST', body: form }));
    } catch (error) {
      setFileError((error as Error).message);
    } finally {
      setChecking(false);
    }
  };
  const dropped = (event: DragEvent) => {
    event.preventDefault();
    void check(event.dataTransfer.files[0]);
  };

  return (
    <main className={styles.page} onDragOver={(event) => event.preventDefault()} onDrop={dropped}>
      <div className={styles.card}>
        <h1 className={styles.title}>Verify a notice</h1>
        {!facts && !failed && (
          <p className={styles.state} role="status">
            Loading…
          </p>
        )}
        {failed && (
          <p className={styles.error} role="alert">
            {failed}
          </p>
        )}
        {facts && (
          <dl className={styles.facts}>
            <div>
              <dt>Issued by</dt>
              <dd>{facts.issuedBy}</dd>
            </div>
            <div>
              <dt>For</dt>
              <dd>
                {facts.referenceKind} ending {facts.referenceEnding || '—'}
              </dd>
            </div>
            <div>
              <dt>Served on</dt>
              <dd>
                {facts.servedOn ? (
                  <>
                    {facts.servedOn}
                    <br />
                    {facts.channels.map((c, i) => (
                      <span key={c} style={{ whiteSpace: 'nowrap' }}>
                        {i > 0 ? ' and ' : 'by '}
                        {channelWords[c]}
                      </span>
                    ))}
                  </>
                ) : (
                  'Not served yet'
                )}
              </dd>
            </div>
            <div>
              <dt>Signature</dt>
              <dd>
                <Signature check={facts.signature} />
              </dd>
            </div>
          </dl>
        )}
        {facts?.sha256 && (
          <p className={styles.fingerprint}>
            SHA-256 of the served file: <code>{facts.sha256}</code>
          </p>
        )}
        <section className={styles.section} aria-labelledby="verify-file-heading">
          <h2 id="verify-file-heading" className={styles.heading}>
            Is your copy the notice we served?
          </h2>
          <p>Drop the PDF here, or choose it. It is checked byte for byte; any change shows.</p>
          <input
            type="file"
            accept="application/pdf,.pdf"
            aria-label="The notice PDF to check"
            disabled={checking}
            onChange={(event) => void check(event.target.files?.[0])}
          />
          {checking && <p role="status">Checking…</p>}
          {fileError && (
            <p className={styles.error} role="alert">
              {fileError}
            </p>
          )}
          {answer && (
            <div role="status">
              <p className={styles.heading}>{answer.message}.</p>
              <p>
                Signature: <Signature check={answer.signature} />
              </p>
              <p className={styles.fingerprint}>
                SHA-256 of your file: <code>{answer.sha256}</code>
              </p>
            </div>
          )}
        </section>
      </div>
    </main>
  );
}
