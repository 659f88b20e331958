import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { NoticePage } from './notice-page.tsx';
import { VerifyPage } from './verify-page.tsx';
import '../styles/global.css';

/**
 * The public notice page's own entry (notice.html, served for /n/*): React and this page only, no
 * router, store or staff screens, so a cheap phone on a slow line gets it in one small download.
 */
const root = document.getElementById('root');
if (!root) throw new Error('notice.html has no #root element.');

// /v/<code> is a notice's verification page (issue 30), in this entry too: it is as small.
const verifying = window.location.pathname.startsWith('/v/');
const code = decodeURIComponent(window.location.pathname.replace(/^\/[nv]\//, '').split('/')[0] ?? '');
const channel = new URLSearchParams(window.location.search).get('c');

createRoot(root).render(
  <StrictMode>
    {verifying ? <VerifyPage code={code} /> : <NoticePage code={code} channel={channel} />}
  </StrictMode>,
);
