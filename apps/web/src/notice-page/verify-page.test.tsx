import { render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { SignatureCheck, VerifyPage as VerifyFacts } from '@notice-desk/contract/verify';
import { jsonResponse } from '../testing/test-utils.tsx';
import { VerifyPage } from './verify-page.tsx';

const CODE = 'AbCdEfGhIjKlMnOpQrStUv';

const facts = (signature: SignatureCheck): VerifyFacts => ({
  issuedBy: 'Rao & Associates',
  referenceKind: 'Loan',
  referenceEnding: '••••7651',
  servedOn: '12-05-2024 10:41:07 IST',
  channels: ['email'],
  sha256: 'a'.repeat(64),
  signature,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

it.each([
  [
    'the current key: signed by its signer',
    { valid: true, signer: 'Advocate Asha Rao', reason: null, earlierCertificate: null },
    'Valid, signed by Advocate Asha Rao',
  ],
  [
    'an earlier certificate (NOTICE_SIGNING_EARLIER_CERTS): named, with its validity',
    {
      valid: true,
      signer: 'Advocate Asha Rao',
      reason: null,
      earlierCertificate: {
        subject: 'Advocate Asha Rao',
        validFrom: '01-04-2023 10:00:00 IST',
        validTo: '31-03-2025 10:00:00 IST',
      },
    },
    'Valid, signed by our earlier certificate for Advocate Asha Rao (valid from 01-04-2023 10:00:00 IST to 31-03-2025 10:00:00 IST)',
  ],
])('the signature of the served notice, %s', async (_, signature, shown) => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse(200, facts(signature))),
  );
  render(<VerifyPage code={CODE} />);
  expect((await screen.findByText('Signature')).nextElementSibling?.textContent).toBe(shown);
});
