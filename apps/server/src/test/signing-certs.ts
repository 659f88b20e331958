import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import forge from 'node-forge';

/**
 * A throwaway CA made with the openssl CLI, the certificates it issues (as PKCS#12 files) and a tiny
 * RFC 3161 timestamp authority (`openssl ts -reply` behind a node HTTP server).
 */
type TsaAnswer = 'token' | 'garbage' | 'down';

export interface TestPki {
  dir: string;
  caPem: string;
  /** A signing certificate valid now, its key and the CA in a P12 with `password`. */
  p12(options?: {
    start?: string;
    end?: string;
    name?: string;
    password?: string;
    otherKey?: boolean;
  }): Buffer;
  startTsa(answer?: TsaAnswer): Promise<{
    url: string;
    requests: number;
    /** What the TSA does from now on: stamp, answer garbage, or cut the connection (down). */
    answer(next: TsaAnswer): void;
    close(): Promise<void>;
  }>;
}

const openssl = (cwd: string, args: string[], input?: Buffer) =>
  execFileSync('openssl', args, { cwd, input, stdio: ['pipe', 'pipe', 'pipe'] });

/** A past or future moment in openssl's YYYYMMDDHHMMSSZ. */
export const opensslDate = (daysFromNow: number) =>
  new Date(Date.now() + daysFromNow * 86_400_000).toISOString().replace(/[-:T]|\.\d+/g, '');

export function createTestPki(dir: string): TestPki {
  fs.mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  write('index.txt', '');
  write('serial', '1000\n');
  write('tsaserial', '01\n');
  write(
    'ca.cnf',
    [
      '[ca]',
      'default_ca = ca_default',
      '[ca_default]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'new_certs_dir = $dir',
      'serial = $dir/serial',
      'default_md = sha256',
      'policy = any',
      'unique_subject = no',
      '[any]',
      'commonName = supplied',
      '[signer]',
      'keyUsage = critical,digitalSignature,nonRepudiation',
      'extendedKeyUsage = emailProtection',
      '[tsa_cert]',
      'extendedKeyUsage = critical,timeStamping',
      '[tsa]',
      'default_tsa = tsa_default',
      '[tsa_default]',
      `dir = ${dir}`,
      'serial = $dir/tsaserial',
      'crypto_device = builtin',
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256',
      'ess_cert_id_alg = sha256',
      'accuracy = secs:1',
      '',
    ].join('\n'),
  );
  openssl(
    dir,
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt'].concat([
      '-days',
      '30',
      '-subj',
      '/CN=Notice Desk Test CA',
    ]),
  );
  const issue = (
    name: string,
    cn: string,
    extensions: string,
    start = opensslDate(-1),
    end = opensslDate(10),
  ) => {
    openssl(
      dir,
      ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`].concat([
        '-subj',
        `/CN=${cn}`,
      ]),
    );
    openssl(
      dir,
      ['ca', '-batch', '-config', 'ca.cnf', '-cert', 'ca.crt', '-keyfile', 'ca.key'].concat([
        '-in',
        `${name}.csr`,
        '-out',
        `${name}.crt`,
        '-extensions',
        extensions,
        '-startdate',
        start,
        '-enddate',
        end,
        '-notext',
      ]),
    );
  };
  let made = 0;
  let tsaIssued = false;
  return {
    dir,
    caPem: fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8'),
    p12({ start, end, name = 'Advocate Asha Rao', password = 'p12-pass', otherKey = false } = {}) {
      const id = `signer${++made}`;
      issue(id, name, 'signer', start, end);
      if (otherKey) {
        // openssl refuses to pack a key with a certificate not its own; node-forge packs what it is given.
        const key = forge.pki.privateKeyFromPem(openssl(dir, ['genrsa', '2048']).toString());
        const certs = [`${id}.crt`, 'ca.crt'].map((file) =>
          forge.pki.certificateFromPem(fs.readFileSync(path.join(dir, file), 'utf8')),
        );
        const pfx = forge.pkcs12.toPkcs12Asn1(key, certs, password, { algorithm: '3des' });
        return Buffer.from(forge.asn1.toDer(pfx).getBytes(), 'binary');
      }
      const args = ['pkcs12', '-export', '-inkey', `${id}.key`, '-in', `${id}.crt`, '-certfile', 'ca.crt'];
      return openssl(dir, [...args, '-passout', `pass:${password}`]);
    },
    async startTsa(first: TsaAnswer = 'token') {
      // Issued on first use: a key pair costs 0.1-0.5 s, and most tests start no TSA.
      if (!tsaIssued) issue('tsa', 'Notice Desk Test TSA', 'tsa_cert');
      tsaIssued = true;
      let answer = first;
      let requests = 0;
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          requests += 1;
          if (answer === 'down') return req.socket.destroy();
          res.setHeader('content-type', 'application/timestamp-reply');
          if (answer === 'garbage') return res.end(Buffer.from('not a timestamp reply'));
          const query = path.join(dir, `q${requests}.tsq`);
          fs.writeFileSync(query, Buffer.concat(chunks));
          const reply = openssl(
            dir,
            ['ts', '-reply', '-config', 'ca.cnf', '-queryfile', query].concat([
              '-signer',
              'tsa.crt',
              '-inkey',
              'tsa.key',
              '-chain',
              'ca.crt',
            ]),
          );
          res.end(reply);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}/tsa`,
        get requests() {
          return requests;
        },
        answer(next: TsaAnswer) {
          answer = next;
        },
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    },
  };
}
