import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NoticePageDetails, NoticePageIntro } from '@notice-desk/contract/notice-page';
import { jsonResponse } from '../testing/test-utils.tsx';
import { NoticePage } from './notice-page.tsx';

const CODE = 'AbCdEfGhIjKlMnOpQrStUv';
const API = `/api/public/notices/${CODE}`;

const intro = (changes: Partial<NoticePageIntro> = {}): NoticePageIntro => ({
  available: true,
  sender: { name: 'Mehta & Rao, Advocates', address: '12 MG Road, Pune 411001' },
  language: 'en',
  asks: 'mobile',
  lockedUntil: null,
  ...changes,
});

const details = (changes: Partial<NoticePageDetails> = {}): NoticePageDetails => ({
  customerName: 'Meena Kumari',
  reference: '••••1234',
  amountDue: '₹1,23,456.00',
  respondBy: '15-06-2026',
  timeZone: 'Asia/Kolkata',
  pdfSha256: 'a'.repeat(64),
  acknowledgedAt: null,
  upi: { link: 'upi://pay?pa=firm@upi&pn=Mehta&am=123456.00&tn=LN1234&tr=ref' },
  callNumber: '+91 98765 43210',
  ...changes,
});

type SeenCall = { method: string; path: string; search: string; headers: Headers; body: unknown };

/** Stubs fetch with `answer` per call (the page calls fetch(url, init)); `calls` keeps them in order. */
function stubPageFetch(answer: (call: SeenCall) => Response | Promise<Response>) {
  const calls: SeenCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, window.location.href);
      const call = {
        method: init.method ?? 'GET',
        path: url.pathname,
        search: url.search,
        headers: new Headers(init.headers),
        body: init.body,
      };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

/** A server that knows the code, takes 4321 and answers every action. */
const happyServer =
  (pageDetails: NoticePageDetails = details(), pageIntro: NoticePageIntro = intro()) =>
  ({ method, path }: SeenCall) => {
    if (method === 'GET' && path === API) return jsonResponse(200, pageIntro);
    if (path === `${API}/verify`)
      return jsonResponse(200, { token: 'visit-token', expiresAt: '2030-01-01T00:00:00Z' });
    if (path === `${API}/details`) return jsonResponse(200, pageDetails);
    if (path === `${API}/acknowledge` || path === `${API}/respond`) {
      return jsonResponse(200, { ok: true, at: '2026-05-12T05:11:00.000Z' });
    }
    if (path === `${API}/payment-link`)
      return jsonResponse(200, { ok: true, at: '2026-05-12T05:11:00.000Z' });
    return jsonResponse(404, {
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'No such notice.',
      error: 'Not Found',
    });
  };

async function passCheck(user = userEvent.setup()) {
  await user.type(await screen.findByLabelText('Last four digits of your registered mobile number'), '4321');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByText('Meena Kumari');
  return user;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the notice page before the check', () => {
  it('says who sent it and which digits it asks, with a numeric input that the browser does not fill', async () => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel="w" />);

    const input = await screen.findByLabelText('Last four digits of your registered mobile number');
    expect(input.getAttribute('inputmode')).toBe('numeric');
    expect(input.getAttribute('autocomplete')).toBe('off');
    expect(screen.getByText('Mehta & Rao, Advocates')).toBeTruthy();
    expect(screen.getByText('12 MG Road, Pune 411001')).toBeTruthy();
    // The link's channel goes with the first call; nothing personal is asked for yet.
    expect(calls.map((call) => `${call.path}${call.search}`)).toEqual([`${API}?c=w`]);
    expect(screen.queryByText('Meena Kumari')).toBeNull();
  });

  it('asks for the account number when the record has no mobile, and drops a channel it does not know', async () => {
    const calls = stubPageFetch(happyServer(details(), intro({ asks: 'account' })));
    render(<NoticePage code={CODE} channel="<script>" />);
    expect(await screen.findByLabelText('Last four digits of your loan or account number')).toBeTruthy();
    expect(calls[0]!.search).toBe('');
  });

  it('says a wrong answer is wrong, and keeps the form', async () => {
    stubPageFetch(({ path }) =>
      path.endsWith('/verify')
        ? jsonResponse(400, {
            statusCode: 400,
            code: 'WRONG_ANSWER',
            message: 'Those are not the last four digits (4 tries left).',
            error: 'Bad Request',
          })
        : jsonResponse(200, intro()),
    );
    const user = userEvent.setup();
    render(<NoticePage code={CODE} channel={null} />);
    await user.type(await screen.findByLabelText(/registered mobile number/), '1111');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByText('Those digits do not match our records. Check them and try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });

  it('refuses anything but four digits before asking the server', async () => {
    const calls = stubPageFetch(happyServer());
    const user = userEvent.setup();
    render(<NoticePage code={CODE} channel={null} />);
    const input = await screen.findByLabelText(/registered mobile number/);
    // Letters and signs never reach the field; three digits are too few.
    await user.type(input, '1a2-3');
    expect((input as HTMLInputElement).value).toBe('123');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Enter exactly four digits.')).toBeTruthy();
    expect(calls.some((call) => call.path.endsWith('/verify'))).toBe(false);
  });

  it('shows the lock with its time in words when the answer that locked it comes back', async () => {
    stubPageFetch(({ path }) =>
      path.endsWith('/verify')
        ? new Response(
            JSON.stringify({
              statusCode: 429,
              code: 'LINK_LOCKED',
              message: 'Too many wrong answers: this link is locked. Try again in 59 minutes.',
              error: 'Too Many Requests',
            }),
            { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': String(59 * 60) } },
          )
        : jsonResponse(200, intro()),
    );
    const user = userEvent.setup();
    render(<NoticePage code={CODE} channel={null} />);
    await user.type(await screen.findByLabelText(/registered mobile number/), '1111');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByText(/^Too many wrong answers\. You can try again in 59 minutes \(.+\)\.$/),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    expect(screen.getByLabelText(/registered mobile number/)).toHaveProperty('disabled', true);
  });

  it('shows a link locked on arrival as locked', async () => {
    const lockedUntil = new Date(Date.now() + 30 * 60_000).toISOString();
    stubPageFetch(() => jsonResponse(200, intro({ lockedUntil })));
    render(<NoticePage code={CODE} channel={null} />);
    expect(await screen.findByText(/You can try again in 30 minutes/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
  });

  it('tells too many calls from one connection apart from the lock', async () => {
    stubPageFetch(({ path }) =>
      path.endsWith('/verify')
        ? jsonResponse(429, {
            statusCode: 429,
            code: 'TOO_MANY_REQUESTS',
            message: 'Too many requests.',
            error: 'Too Many Requests',
          })
        : jsonResponse(200, intro()),
    );
    const user = userEvent.setup();
    render(<NoticePage code={CODE} channel={null} />);
    await user.type(await screen.findByLabelText(/registered mobile number/), '1111');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('Too many tries from this connection. Wait a minute and try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', false);
  });

  it('shows only "This notice is no longer available" for a revoked or unknown link', async () => {
    stubPageFetch(() => jsonResponse(200, intro({ available: false })));
    const { unmount } = render(<NoticePage code={CODE} channel={null} />);
    expect(await screen.findByRole('heading', { name: 'This notice is no longer available' })).toBeTruthy();
    expect(screen.queryByText('Mehta & Rao, Advocates')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    unmount();

    stubPageFetch(() =>
      jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No.', error: 'Not Found' }),
    );
    render(<NoticePage code="missing" channel={null} />);
    expect(await screen.findByRole('heading', { name: 'This notice is no longer available' })).toBeTruthy();
  });

  it("speaks the notice's language, and English where it has no words", async () => {
    stubPageFetch(happyServer(details(), intro({ language: 'hi-IN' })));
    const { unmount } = render(<NoticePage code={CODE} channel={null} />);
    expect(await screen.findByLabelText('आपके पंजीकृत मोबाइल नंबर के अंतिम चार अंक')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'आगे बढ़ें' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('hi-IN');
    unmount();

    stubPageFetch(happyServer(details(), intro({ language: 'ta' })));
    render(<NoticePage code={CODE} channel={null} />);
    expect(await screen.findByLabelText('Last four digits of your registered mobile number')).toBeTruthy();
  });
});

describe('the notice page after the check', () => {
  it('shows the notice with the token, and server text as text, never as markup', async () => {
    const calls = stubPageFetch(
      happyServer(
        details(),
        intro({ sender: { name: '<script>alert(1)</script>Firm', address: '<i>x</i>' } }),
      ),
    );
    render(<NoticePage code={CODE} channel={null} />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/registered mobile number/), '4321');
    // The check's answer goes as the contract's body.
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('Meena Kumari');
    expect(calls.find((call) => call.path.endsWith('/verify'))!.body).toBe('{"answer":"4321"}');
    expect(calls.find((call) => call.path.endsWith('/details'))!.headers.get('Authorization')).toBe(
      'Bearer visit-token',
    );
    expect(screen.getByText('<script>alert(1)</script>Firm')).toBeTruthy();
    expect(document.querySelector('script, i')).toBeNull();
  });

  it("shows the details' server text as text, never as markup", async () => {
    const hostile = '<img src=x onerror="alert(1)"><b>Meena</b>';
    stubPageFetch(happyServer(details({ customerName: hostile, reference: '<u>••••1234</u>' })));
    const user = userEvent.setup();
    render(<NoticePage code={CODE} channel={null} />);
    await user.type(await screen.findByLabelText(/registered mobile number/), '4321');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(hostile)).toBeTruthy();
    expect(screen.getByText('<u>••••1234</u>')).toBeTruthy();
    expect(document.querySelector('img, b, u')).toBeNull();
  });

  it('shows the amount, the date to respond by, the PDF download and its SHA-256', async () => {
    stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    await passCheck();
    expect(screen.getByText('₹1,23,456.00')).toBeTruthy();
    // The check's form is gone: focus is on the notice's heading.
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Your notice' }));
    expect(screen.getByText('15-06-2026')).toBeTruthy();
    expect(screen.getByText('••••1234')).toBeTruthy();
    expect(screen.getByText('a'.repeat(64))).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download the notice (PDF)' })).toBeTruthy();
  });

  it('downloads the PDF with the token', async () => {
    const calls = stubPageFetch((call) =>
      call.path.endsWith('/pdf')
        ? new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), { status: 200 })
        : happyServer()(call),
    );
    const createObjectURL = vi.fn(() => 'blob:notice');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'Download the notice (PDF)' }));
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect(calls.find((call) => call.path.endsWith('/pdf'))!.headers.get('Authorization')).toBe(
      'Bearer visit-token',
    );
    clicked.mockRestore();
  });

  it('acknowledges, and the confirmation stays', async () => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I have received this notice' }));

    expect(
      await screen.findByText(
        /^Thank you\. We recorded that you received this notice on \d\d-\d\d-2026 \d\d:\d\d IST\.$/,
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'I have received this notice' })).toBeNull();
    // The pressed button is gone: focus is on what replaced it, not lost to the page's start.
    expect(document.activeElement?.textContent).toMatch(/^Thank you\./);
    const sent = calls.find((call) => call.path.endsWith('/acknowledge'))!;
    expect(sent.method).toBe('POST');
    expect(sent.headers.get('Authorization')).toBe('Bearer visit-token');
  });

  it('shows an earlier acknowledgement instead of the button', async () => {
    stubPageFetch(happyServer(details({ acknowledgedAt: '2026-05-10T04:30:00.000Z' })));
    render(<NoticePage code={CODE} channel={null} />);
    await passCheck();
    expect(screen.getByText(/We recorded that you received this notice on 10-05-2026/)).toBeTruthy();
  });

  it('sends a dispute as text, and the confirmation stays', async () => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I dispute this' }));
    await user.click(screen.getByRole('button', { name: 'Send my dispute' }));
    expect(screen.getByText('Write why you dispute the notice, or attach a document.')).toBeTruthy();

    await user.type(
      screen.getByLabelText('Why do you dispute this notice?'),
      'I paid in March. <b>receipt</b>',
    );
    await user.click(screen.getByRole('button', { name: 'Send my dispute' }));
    expect(await screen.findByText(/^We received your dispute on \d\d-\d\d-2026/)).toBeTruthy();
    const sent = calls.find((call) => call.path.endsWith('/respond'))!;
    expect(JSON.parse(sent.body as string)).toEqual({
      kind: 'dispute',
      text: 'I paid in March. <b>receipt</b>',
    });
  });

  it('sends a dispute with a PDF as multipart', async () => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I dispute this' }));
    const receipt = new File(['%PDF-1.7'], 'receipt.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Attach a document (optional)'), receipt);
    await user.click(screen.getByRole('button', { name: 'Send my dispute' }));
    await screen.findByText(/We received your dispute/);

    const body = calls.find((call) => call.path.endsWith('/respond'))!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('kind')).toBe('dispute');
    expect(body.get('text')).toBe('');
    expect((body.get('file') as File).name).toBe('receipt.pdf');
  });

  it.each([
    [
      'a file over 10 MB',
      'big.pdf',
      'application/pdf',
      10 * 1024 * 1024 + 1,
      'This file is larger than 10 MB. Choose a smaller file.',
    ],
    ['a page of HTML', 'page.html', 'text/html', 100, 'Choose a PDF or a photo (JPEG, PNG or WebP).'],
    [
      'a program',
      'setup.exe',
      'application/x-msdownload',
      100,
      'Choose a PDF or a photo (JPEG, PNG or WebP).',
    ],
    [
      'an SVG image (it can carry script)',
      'scan.svg',
      'image/svg+xml',
      100,
      'Choose a PDF or a photo (JPEG, PNG or WebP).',
    ],
    ['a file the browser cannot type', 'scan', '', 100, 'Choose a PDF or a photo (JPEG, PNG or WebP).'],
    ['an empty PDF', 'receipt.pdf', 'application/pdf', 0, 'This file is empty. Choose the file again.'],
  ])('refuses %s in the browser, before any upload', async (_case, name, type, size, message) => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck(userEvent.setup({ applyAccept: false }));
    await user.click(screen.getByRole('button', { name: 'I dispute this' }));
    const file = new File(['x'], name, { type });
    Object.defineProperty(file, 'size', { value: size });
    await user.upload(screen.getByLabelText('Attach a document (optional)'), file);

    expect(screen.getByRole('alert').textContent).toBe(message);
    expect((screen.getByLabelText('Attach a document (optional)') as HTMLInputElement).value).toBe('');
    await user.type(screen.getByLabelText('Why do you dispute this notice?'), 'See attached.');
    await user.click(screen.getByRole('button', { name: 'Send my dispute' }));
    await screen.findByText(/We received your dispute/);
    // The dispute went as text alone: the refused file never left the browser.
    expect(typeof calls.find((call) => call.path.endsWith('/respond'))!.body).toBe('string');
  });

  it.each([
    [413, 'This file is larger than 10 MB. Choose a smaller file.'],
    [415, 'Choose a PDF or a photo (JPEG, PNG or WebP).'],
  ])("says why the server refused a dispute's file (%i), and keeps the form", async (status, message) => {
    stubPageFetch((call) =>
      call.path.endsWith('/respond')
        ? jsonResponse(status, { statusCode: status, code: 'FILE', message: 'Refused.', error: 'Refused' })
        : happyServer()(call),
    );
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I dispute this' }));
    // A photo renamed: its type says JPEG, its bytes say otherwise.
    await user.upload(
      screen.getByLabelText('Attach a document (optional)'),
      new File(['not a photo'], 'photo.jpg', { type: 'image/jpeg' }),
    );
    await user.click(screen.getByRole('button', { name: 'Send my dispute' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Send my dispute' })).toBeTruthy();
  });

  it('asks to settle, then shows the UPI QR code on a desktop', async () => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I want to settle / pay' }));

    expect(await screen.findByText(/We recorded on .+ that you want to settle/)).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Pay with a UPI app' })).toBeTruthy();
    expect(screen.getByText('Scan this code with any UPI app on your phone to pay.')).toBeTruthy();
    expect(JSON.parse(calls.find((call) => call.path.endsWith('/respond'))!.body as string)).toEqual({
      kind: 'settle',
      text: '',
    });
  });

  it('on a phone, offers the UPI link as a button and records that it was opened', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: true });
    try {
      const calls = stubPageFetch(happyServer());
      render(<NoticePage code={CODE} channel={null} />);
      const user = await passCheck();
      await user.click(screen.getByRole('button', { name: 'I want to settle / pay' }));
      const pay = await screen.findByRole('link', { name: 'Pay with a UPI app' });
      expect(pay.getAttribute('href')).toBe(details().upi!.link);
      pay.addEventListener('click', (event) => event.preventDefault());
      await user.click(pay);
      await waitFor(() => expect(calls.some((call) => call.path.endsWith('/payment-link'))).toBe(true));
      expect(screen.queryByRole('img', { name: 'Pay with a UPI app' })).toBeNull();
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('with no payee set, asks to settle without a payment link', async () => {
    stubPageFetch(happyServer(details({ upi: undefined })));
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I want to settle / pay' }));
    await screen.findByText(/that you want to settle/);
    expect(screen.queryByRole('img', { name: 'Pay with a UPI app' })).toBeNull();
  });

  it('links Call us to the phone call page and asks for a call back', async () => {
    const calls = stubPageFetch(happyServer());
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    expect(screen.getByRole('link', { name: 'Call us on +91 98765 43210' }).getAttribute('href')).toBe(
      '/phonecall?phone=%2B91+98765+43210',
    );
    await user.click(screen.getByRole('button', { name: 'Ask us to call you back' }));
    expect(await screen.findByText(/that you want a call back/)).toBeTruthy();
    expect(JSON.parse(calls.find((call) => call.path.endsWith('/respond'))!.body as string).kind).toBe(
      'callback',
    );
  });

  it('goes back to the check when the visit token has run out', async () => {
    stubPageFetch((call) =>
      call.path.endsWith('/acknowledge')
        ? jsonResponse(401, { statusCode: 401, code: 'TOKEN', message: 'Expired.', error: 'Unauthorized' })
        : happyServer()(call),
    );
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I have received this notice' }));
    expect(
      await screen.findByText(
        'For your safety this page was closed after a while. Enter the four digits again.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Meena Kumari')).toBeNull();
  });

  it('says the notice is no longer available when the link is revoked during the visit', async () => {
    stubPageFetch((call) =>
      call.path.endsWith('/acknowledge')
        ? jsonResponse(404, {
            statusCode: 404,
            code: 'NOT_AVAILABLE',
            message: 'This notice is no longer available.',
            error: 'Not Found',
          })
        : happyServer()(call),
    );
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'I have received this notice' }));
    expect(await screen.findByRole('heading', { name: 'This notice is no longer available' })).toBeTruthy();
    expect(screen.queryByText('Meena Kumari')).toBeNull();
  });

  it('says when an answer did not go through, and keeps the button', async () => {
    stubPageFetch((call) =>
      call.path.endsWith('/respond') ? Promise.reject(new TypeError('offline')) : happyServer()(call),
    );
    render(<NoticePage code={CODE} channel={null} />);
    const user = await passCheck();
    await user.click(screen.getByRole('button', { name: 'Ask us to call you back' }));
    expect(
      await screen.findByText('That did not go through. Check your connection and try again.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask us to call you back' })).toBeTruthy();
  });
});
