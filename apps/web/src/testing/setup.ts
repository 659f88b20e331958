import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* waits for what a busy 2-core CI machine may take (a lazy TinyMCE chunk, a 10,000-row table);
// a test that passes still passes as soon as its element appears.
configure({ asyncUtilTimeout: 10_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// jsdom has no matchMedia; the layout and the toaster ask for it. No query matches (a small screen).
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  });
}

// A browser resolves a relative request URL ('/api/...') against the page; Node's Request, which
// jsdom tests use, does not. The app calls its same-origin API with relative URLs.
const NodeRequest = globalThis.Request;
globalThis.Request = class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
};

// jsdom has <dialog> but not its modal methods; the app's modals need open and close only.
if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}
