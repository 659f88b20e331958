import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, plainUser, sessionOf } from '../testing/test-utils.tsx';
import { api } from './api.ts';
import { sessionExpired, sessionRenewed, signedIn } from './session.ts';
import { createAppStore } from './store.ts';

// Endpoints of the kind features inject, to drive the shared client.
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, void>({ query: () => '/api/probe' }),
    probeSave: build.mutation<{ ok: boolean }, void>({
      query: () => ({ url: '/api/probe-save', method: 'POST' }),
    }),
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

  it('holds a submit refused with 401 until the same user signs in again, then sends it with the new token', async () => {
    const fetch = vi.fn(async (request: Request) =>
      request.headers.get('Authorization') === 'Bearer token-2'
        ? jsonResponse(200, { ok: true })
        : unauthorized(),
    );
    vi.stubGlobal('fetch', fetch);
    const store = createAppStore(sessionOf(plainUser));

    const save = store.dispatch(probeApi.endpoints.probeSave.initiate());
    await vi.waitFor(() => expect(store.getState().session.reauth).toBe(true));
    // The screen stays: the session is still there while the sign-in dialog is open.
    expect(store.getState().session.accessToken).toBe('token-1');
    store.dispatch(sessionRenewed({ accessToken: 'token-2', user: plainUser }));

    expect(await save.unwrap()).toEqual({ ok: true });
    expect(fetch.mock.calls.map(([request]) => request.headers.get('Authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ]);
    expect(store.getState().session.reauth).toBeUndefined();
  });

  it('gives the held submit up when the sign-in is closed, or someone else signs in', async () => {
    vi.stubGlobal('fetch', async () => unauthorized());
    for (const end of [
      sessionExpired(),
      signedIn({ accessToken: 'token-9', user: { ...plainUser, _id: 'someone-else' } }),
    ]) {
      const store = createAppStore(sessionOf(plainUser));
      const save = store.dispatch(probeApi.endpoints.probeSave.initiate());
      await vi.waitFor(() => expect(store.getState().session.reauth).toBe(true));
      store.dispatch(end);
      // Refused, or cut short with the cache the old session's answers were in: either way not sent again.
      expect((await save).error).toBeDefined();
      // Someone else's new session is not ended by the refusal of the old one's submit.
      if (signedIn.match(end)) expect(store.getState().session.accessToken).toBe('token-9');
    }
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
