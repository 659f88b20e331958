import { vi } from 'vitest';
import type { EmailTemplate, WhatsappTemplate } from '@notice-desk/contract/templates';
import { jsonResponse } from './test-utils.tsx';

type SentRequest = { method: string; path: string; search: URLSearchParams; body: unknown };
type Answer = (request: SentRequest) => Response | undefined;

export const whatsappTemplate = (n: number, overrides: Partial<WhatsappTemplate> = {}): WhatsappTemplate => ({
  _id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`,
  key: `whatsapp-${n}`,
  name: `Template ${n}`,
  value: `Dear {{custName}}, message ${n}.`,
  kind: 'notice',
  placeholders: ['custName', 'loanNo', 'totalOverdueAmt'],
  language: null,
  variantOf: null,
  variants: [],
  ...overrides,
});

export const emailTemplate = (n: number, overrides: Partial<EmailTemplate> = {}): EmailTemplate => ({
  _id: `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`,
  key: `pdf-${n}`,
  name: `PDF ${n}`,
  html: `<p>Dear {{custName}}, letter ${n}.</p>`,
  kind: 'notice',
  placeholders: ['custName', 'loanNo'],
  language: null,
  variantOf: null,
  variants: [],
  ...overrides,
});

/**
 * Stands in for the template endpoints through a stubbed `fetch`: lists page over `whatsapp` and
 * `email`, reads find by id, updates merge the body. `answer` may reply first (an error, a PDF).
 */
export function fakeTemplatesApi({
  whatsapp = [],
  email = [],
  answer = () => undefined,
}: {
  whatsapp?: WhatsappTemplate[];
  email?: EmailTemplate[];
  answer?: Answer;
}) {
  const requests: SentRequest[] = [];
  const stores = { '/api/whatsapptemplates': [...whatsapp], '/api/emailTemplates': [...email] } as Record<
    string,
    { _id: string }[]
  >;
  const fetch = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const body: unknown = ['POST', 'PUT'].includes(request.method)
      ? await request.json().catch(() => null)
      : null;
    const sent = { method: request.method, path: url.pathname, search: url.searchParams, body };
    requests.push(sent);
    const early = answer(sent);
    if (early) return early;

    const [, api, base, action, id] = url.pathname.split('/');
    const templates = stores[`/${api}/${base}`] ?? [];
    if (action === 'getdata') {
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      return jsonResponse(200, {
        items: templates.slice((page - 1) * limit, page * limit),
        total: templates.length,
      });
    }
    if (request.method === 'POST' && id === 'variants') {
      // A variant: a copy of the default in the language asked for, listed on the default.
      const base = templates.find((template) => template._id === action) as
        (EmailTemplate & WhatsappTemplate) | undefined;
      const language = (body as { language: string }).language;
      if (!base) return jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'Not found.' });
      const variant = {
        ...base,
        _id: `${base._id.slice(0, -4)}${String(templates.length).padStart(4, '0')}`,
        key: `${base.key}.${language}`,
        name: `${base.name} (${language})`,
        language,
        variantOf: base._id,
        variants: [],
      };
      templates.push(variant);
      // A copy: the test's own template object stays as it was given.
      templates[templates.indexOf(base)] = {
        ...base,
        variants: [...base.variants, { _id: variant._id, language, name: variant.name }],
      } as (typeof templates)[number];
      return jsonResponse(201, variant);
    }
    const index = templates.findIndex((template) => template._id === (action === 'update' ? id : action));
    if (index === -1)
      return jsonResponse(404, {
        statusCode: 404,
        code: 'NOT_FOUND',
        message: 'Not found.',
        error: 'Not found.',
      });
    if (request.method === 'PUT') templates[index] = { ...templates[index]!, ...(body as object) };
    return jsonResponse(200, templates[index]);
  });
  vi.stubGlobal('fetch', fetch);
  return { requests, fetch };
}
