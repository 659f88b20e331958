import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { NoticePage } from './notice-page.tsx';
import '../styles/global.css';

/**
 * The public notice page's own entry (notice.html, served for /n/*): React and this page only, no
 * router, store or staff screens, so a cheap phone on a slow line gets it in one small download.
 */
const root = document.getElementById('root');
if (!root) throw new Error('notice.html has no #root element.');

const code = decodeURIComponent(window.location.pathname.replace(/^\/n\//, '').split('/')[0] ?? '');
const channel = new URLSearchParams(window.location.search).get('c');

createRoot(root).render(
  <StrictMode>
    <NoticePage code={code} channel={channel} />
  </StrictMode>,
);
