import { z } from 'zod';
import { VERIFY_FILE_MAX_BYTES, verifyCodeParams } from '@notice-desk/contract/verify';
import type { App, AppContext } from '../../app-context.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { guardRoutesBy } from '../../plugins/authenticate.ts';
import { readUploadForm } from '../../plugins/upload-form.ts';
import type { IncomingFile } from '../uploads/uploads.service.ts';

const tags = ['verify'];

/** The form the check reads, for the API description (the route streams it). */
const checkForm = z.object({
  file: z.file().describe('The PDF to check, at most 20 MB.'),
  code: z
    .string()
    .max(100)
    .optional()
    .describe('The verification code printed on the notice, to check against it alone.'),
});

const fileTooLarge = () =>
  new AppError(413, 'FILE_TOO_LARGE', 'The file is larger than 20 MB; a notice we served is far smaller.');

/** Reads the file into memory up to the limit, draining the rest, so a file too large is a 413 in words. */
function readLimited({ stream }: IncomingFile): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= VERIFY_FILE_MAX_BYTES) chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => {
      if (size > VERIFY_FILE_MAX_BYTES || (stream as { truncated?: boolean }).truncated)
        reject(fileTooLarge());
      else resolve(Buffer.concat(chunks));
    });
  });
}

/** The public verification of notices (no sign-in): the page of a printed code, and a dropped file checked. */
export function verifyRoutes(app: App, { verify }: AppContext): void {
  guardRoutesBy(app, () => null);

  app.get(
    '/api/public/verify/:code',
    {
      schema: {
        tags,
        summary: 'Verify a notice by its printed code',
        description:
          'What the verification page (APP_URL/v/<code>, printed on every notice with its QR code) shows: who issued the notice (FIRM_NAME), the loan or account number’s last four characters, when it was served (DD-MM-YYYY HH:mm:ss IST) and by which channels, the SHA-256 of the served file and whether its signature verifies (by our signing key, or by an earlier signing certificate of NOTICE_SIGNING_EARLIER_CERTS, which signature.earlierCertificate then names by its common name and validity). No other personal data. An unknown code answers 404. Rate limited per address (VERIFY_PER_MINUTE).',
        params: verifyCodeParams,
      },
    },
    (req) => verify.page(req.params.code, req.ip),
  );

  app.post(
    '/api/public/verify',
    {
      config: { multipartForm: checkForm },
      schema: {
        tags,
        summary: 'Check a file against the notices served',
        description:
          'multipart/form-data with file (a PDF, at most 20 MB: larger answers 413) and optionally code. Answers "This is the notice served on DD-MM-YYYY by e-mail and WhatsApp" when the file is, byte for byte, a served notice (of that code, when given), else "This file is not a notice we served"; and for a signed file whether its signature verifies (signature.earlierCertificate names the earlier signing certificate that made it, when not the current key). Rate limited per address (VERIFY_PER_MINUTE).',
      },
    },
    async (req) => {
      if (!req.isMultipart())
        throw badRequest('Send the file as multipart/form-data, in a field named file.', {
          file: 'Please select a file.',
        });
      // Cut one byte past the limit: a file that long is too large, and no more of it is read.
      const form = await readUploadForm(req, readLimited, async () => undefined, {
        fileSizeLimit: VERIFY_FILE_MAX_BYTES + 1,
      }).catch((err: unknown) => {
        throw (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? fileTooLarge() : err;
      });
      const code = form.fields.code?.trim() || undefined;
      if (code && code.length > 100) throw badRequest('code is too long.', { code: 'code is too long.' });
      return verify.checkFile(form.file!, code, req.ip);
    },
  );
}
