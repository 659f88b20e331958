import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, plainUser, sessionOf } from '../testing/test-utils.tsx';
import { api } from './api.ts';
import { createAppStore } from './store.ts';

// Endpoints of the kind features inject, to drive the shared client.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, void>({ query: () => '/api/probe' }),
    probeLogin: build.mutation<{ ok: boolean }, void>({
      query: () => ({ url: '/api/probe-login', method: 'POST' }),
      extraOptions: { keepSessionOn401: true },
    }),
  }),
});

const unauthorized = () =>
  jsonResponse(401, {
    statusCode: 401,
    code: 'UNAUTHORIZED',
    message: 'Sign in again.',
    error: 'Sign in again.',
  });

afterEach(() => vi.unstubAllGlobals());

describe('api', () => {
  it('calls the same origin with the bearer token of the session', async () => {
    const fetch = vi.fn(async (_request: Request) => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetch);
    const store = createAppStore(sessionOf(plainUser));

    await store.dispatch(probeApi.endpoints.probe.initiate());

    const request = fetch.mock.calls[0]![0];
    expect(new URL(request.url).origin).toBe(window.location.origin);
    expect(request.headers.get('Authorization')).toBe('Bearer token-1');
  });

  it('sends no Authorization header without a session', async () => {
    const fetch = vi.fn(async (_request: Request) => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetch);
    const store = createAppStore(null);

    await store.dispatch(probeApi.endpoints.probe.initiate());

    expect(fetch.mock.calls[0]![0].headers.has('Authorization')).toBe(false);
  });

  it('ends the session as expired when any endpoint answers 401', async () => {
    vi.stubGlobal('fetch', async () => unauthorized());
    const store = createAppStore(sessionOf(plainUser));

    await store.dispatch(probeApi.endpoints.probe.initiate());

    expect(store.getState().session).toEqual({ accessToken: null, user: null, expired: true });
  });

  it('does not call a 401 an expired session when there was none', async () => {
    vi.stubGlobal('fetch', async () => unauthorized());
    const store = createAppStore(null);

    await store.dispatch(probeApi.endpoints.probe.initiate());

    expect(store.getState().session.expired).toBeUndefined();
  });

  it('keeps the session when login itself answers 401', async () => {
    vi.stubGlobal('fetch', async () => unauthorized());
    const store = createAppStore(sessionOf(plainUser));

    await store.dispatch(probeApi.endpoints.probeLogin.initiate());

    expect(store.getState().session.accessToken).toBe('token-1');
  });

  it('reports a network failure as FETCH_ERROR', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const store = createAppStore(null);

    const result = await store.dispatch(probeApi.endpoints.probe.initiate());

    expect(result.error).toMatchObject({ status: 'FETCH_ERROR' });
  });
});
