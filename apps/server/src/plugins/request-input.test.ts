import { noticeFields } from '@notice-desk/contract/notice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type SignedIn, type TestApp } from '../test/app.ts';
import { multipart } from '../test/xlsx.ts';

let t: TestApp;
let admin: SignedIn;
let campaignId: string;
let whatsappTemplateUrl: string;
const notice = Object.fromEntries(noticeFields.map((f) => [f.key, `${f.key} 1`]));

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t.app, 'admin');
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/notices',
    headers: admin.headers,
    payload: notice,
  });
  campaignId = created.json().campaignId;
  const templates = await t.app.inject({
    method: 'GET',
    url: '/api/whatsapptemplates/getdata',
    headers: admin.headers,
  });
  whatsappTemplateUrl = `/api/whatsapptemplates/update/${templates.json().items[0]._id}`;
});
afterAll(async () => t?.close());

const send = (method: 'POST' | 'PUT', url: string, body: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    headers: { ...admin.headers, 'content-type': 'application/json', ...headers },
    payload: body,
  });
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin.headers });

/** The one error shape, with the status asked for. */
function refused(res: { statusCode: number; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  return body as { code: string; message: string; error: string | Record<string, string> };
}

describe('JSON bodies keyed __proto__ or constructor.prototype', () => {
  const poisoned = [
    '{"username":"a","password":"b","__proto__":{"isAdmin":true}}',
    '{"username":"a","password":"b","constructor":{"prototype":{"isAdmin":true}}}',
    '{"username":"a","password":"b","nested":{"deeper":{"__proto__":{"x":1}}}}',
    '{"username":"a","password":"b","list":[{"__proto__":null}]}',
    '{"username":"a","password":"b","\\u005f_proto__":{"x":1}}',
    '[{"constructor":{"prototype":{}}}]',
  ];

  it('are refused with a 400 saying those keys are not allowed, on any route', async () => {
    for (const body of poisoned) {
      for (const [method, url] of [
        ['POST', '/api/auth/login'],
        ['POST', '/api/notices'],
        ['PUT', whatsappTemplateUrl],
      ] as const) {
        const answer = refused(await send(method, url, body), 400);
        expect(answer.code).toBe('FORBIDDEN_KEY');
        expect(answer.message).toBe(
          'The request body uses __proto__ or constructor.prototype as a key; those keys are not allowed.',
        );
      }
    }
  });

  it('leave other JSON alone: malformed JSON is still malformed, and "constructor" as a plain key is dropped', async () => {
    expect(refused(await send('POST', '/api/auth/login', '{"username": '), 400).message).toMatch(
      /not valid JSON/,
    );
    const created = await send('POST', '/api/notices', JSON.stringify({ ...notice, constructor: 'x' }));
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).not.toHaveProperty('constructor', 'x');
  });
});

describe('NUL characters and lone surrogates', () => {
  it('in a JSON string or key are refused with a 400 naming where, before any database sees them', async () => {
    const cases: [method: 'POST' | 'PUT', url: string, body: string, where: string][] = [
      ['POST', '/api/notices', JSON.stringify({ ...notice, custName: 'Asha\u0000Rao' }), 'custName'],
      ['POST', '/api/auth/login', '{"username":"asha\\u0000","password":"x"}', 'username'],
      ['POST', '/api/auth/register', '{"name":"A","username":"u","password":"p\\u0000p"}', 'password'],
      ['PUT', whatsappTemplateUrl, JSON.stringify({ value: 'Dear\u0000{{custName}}' }), 'value'],
      ['POST', '/api/campaigns/send-mail', '{"type":"notice","data":["\\u0000"]}', 'data.0'],
      ['POST', '/api/auth/login', '{"username":"a","password":"b","k\\u0000ey":"x"}', 'k\u0000ey'],
    ];
    for (const [method, url, body, where] of cases) {
      const answer = refused(await send(method, url, body), 400);
      expect(answer.message).toBe(`${where} holds a NUL character (\\u0000), which no field may contain.`);
    }
    const lone: [body: string, where: string, code: string][] = [
      [JSON.stringify({ ...notice, custName: 'Asha\uD800' }), 'custName', 'D800'],
      [JSON.stringify({ ...notice, city: '\uDFFFPune' }), 'city', 'DFFF'],
      [JSON.stringify({ ...notice, remark: '\uDE00\uD83D' }), 'remark', 'DE00'],
    ];
    for (const [body, where, code] of lone) {
      const answer = refused(await send('POST', '/api/notices', body), 400);
      expect(answer.error).toEqual({
        [where]: `${where} holds a lone surrogate (\\u${code}), half of a character; send whole characters.`,
      });
    }
    // Whole characters, escaped or not, are text; so is a backslash followed by u0000.
    const emoji = await send('POST', '/api/notices', JSON.stringify({ ...notice, custName: 'Asha 😀' }));
    expect(emoji.statusCode, emoji.body).toBe(201);
    const escaped = await send(
      'POST',
      '/api/notices',
      JSON.stringify(notice).replace('"custName 1"', '"\\ud83d\\ude00"'),
    );
    expect(escaped.statusCode, escaped.body).toBe(201);
    expect(escaped.json().custName).toBe('😀');
    const text = await send('POST', '/api/notices', JSON.stringify({ ...notice, custName: 'a\\u0000b' }));
    expect(text.statusCode, text.body).toBe(201);
  });

  it('are found however deep the body nests, and deep bodies answer 4xx, never 500', async () => {
    const depth = 100_000;
    const deepList = (inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
    const nul = refused(await send('POST', '/api/auth/login', deepList('"\\u0000"')), 400);
    expect(nul.message).toMatch(/^…(\.0)+ holds a NUL character/);
    const lone = refused(
      await send('POST', '/api/auth/login', `${'{"a":'.repeat(depth)}"\\udc00"${'}'.repeat(depth)}`),
      400,
    );
    expect(lone.message).toMatch(/^…(\.?a)+ holds a lone surrogate \(\\uDC00\)/);
    expect(refused(await send('POST', '/api/auth/login', deepList('"x"')), 400).message).toMatch(
      /expected object, received array/,
    );
    expect(refused(await send('POST', '/api/auth/login', deepList('{"__proto__":{}}')), 400).message).toMatch(
      /those keys are not allowed/,
    );
  });

  it('in the address (%00) are refused with a 400', async () => {
    for (const url of [
      '/api/search?q=ab%00cd',
      '/api/audit?actor=a%00',
      `/api/campaigns/single-campaign/${campaignId}?page=1%00`,
      '/api/notices/%00',
    ]) {
      const answer = refused(await get(url), 400);
      expect(answer.message).toBe('The address holds a NUL character (%00), which no parameter may contain.');
    }
  });
});

describe('query strings', () => {
  it('answer a parameter given twice with a 400 saying it must be given once', async () => {
    for (const [url, field] of [
      ['/api/audit?actor=a&actor=b', 'actor'],
      ['/api/audit?action=record.create&action=record.update', 'action'],
      ['/api/search?q=asha&q=ravi', 'q'],
      [
        `/api/campaigns/export-reports/notice?campaignid=${campaignId}&campaignid=${campaignId}`,
        'campaignid',
      ],
      [`/api/pdf/notice/${campaignId}?expires=1&expires=2&signature=x`, 'expires'],
    ]) {
      const answer = refused(await get(url!), 400);
      expect(answer.error, url).toEqual({ [field!]: `${field} must be given once.` });
    }
  });
});

describe('content types that lie', () => {
  it('a multipart form sent to a route that takes JSON answers 415', async () => {
    const form = multipart({ loanNo: '1', custName: 'x' });
    for (const [method, url] of [
      ['POST', '/api/notices'],
      ['POST', '/api/auth/login'],
      ['PUT', whatsappTemplateUrl],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
      expect(refused(res, 415).message).toBe('Unsupported content type: send application/json.');
    }
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: { ...admin.headers, 'content-type': 'multipart/form-data' },
      payload: 'loanNo=1',
    });
    expect(refused(noBoundary, 415).message).toBe('Unsupported content type: send application/json.');
  });

  it('JSON in another encoding than it claims is malformed JSON, a 400', async () => {
    const utf16 = Buffer.from('{"username":"a","password":"b"}', 'utf16le');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: utf16,
    });
    expect(refused(res, 400).message).toMatch(/not valid JSON/);
  });
});
