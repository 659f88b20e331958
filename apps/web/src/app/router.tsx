import { useState, type ComponentType } from 'react';
import { createBrowserRouter, Outlet, type LoaderFunction, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { RouteError } from '../components/errors/route-error.tsx';
import { AppLayout } from '../components/layout/app-layout.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { paths } from '../config/paths.ts';
import { ReauthGate } from '../features/auth/components/reauth-gate.tsx';
import { SessionExpiryWarning } from '../features/auth/components/session-expiry-warning.tsx';
import { SearchBox } from '../features/search/components/search-box.tsx';
import { RequireAdmin, RequireGuest, RequireSignedIn } from '../lib/guards.tsx';
import { withTimeout } from '../utils/with-timeout.ts';

/** The spec's time-out for loading a further script part. */
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

type ScreenModule = { default: ComponentType; loader?: LoaderFunction };

/** A screen's code is its own chunk, fetched on the first visit to its route. */
const screen = (load: () => Promise<ScreenModule>) => async () => {
  const module = await withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS, 'Loading the page took too long.');
  return { Component: module.default, ...(module.loader && { loader: module.loader }) };
};

const notFound = () => {
  throw new Response(null, { status: 404, statusText: 'Not Found' });
};

export const routes: RouteObject[] = [
  {
    // An unknown path matches only this route, so it needs an element to show the 404 through.
    element: <Outlet />,
    errorElement: <RouteError standalone />,
    hydrateFallbackElement: <Spinner />,
    children: [
      {
        element: <RequireGuest />,
        children: [
          { path: paths.auth.login.path, lazy: screen(() => import('./routes/auth/login.tsx')) },
          { path: paths.auth.signUp.path, lazy: screen(() => import('./routes/auth/sign-up.tsx')) },
        ],
      },
      { path: paths.phoneCall.path, lazy: screen(() => import('./routes/phone-call.tsx')) },
      {
        element: <RequireSignedIn />,
        children: [
          {
            element: (
              <AppLayout
                search={<SearchBox />}
                session={
                  <>
                    <ReauthGate />
                    <SessionExpiryWarning />
                  </>
                }
              />
            ),
            children: [
              {
                // Errors inside a screen keep the sidebar and header around the message.
                errorElement: <RouteError />,
                children: [
                  { path: paths.home.path, lazy: screen(() => import('./routes/dashboard.tsx')) },
                  { path: paths.notices.list.path, lazy: screen(() => import('./routes/forms/notices.tsx')) },
                  {
                    path: paths.notices.add.path,
                    lazy: screen(() => import('./routes/forms/add-notice.tsx')),
                  },
                  {
                    path: paths.notices.edit.path,
                    lazy: screen(() => import('./routes/forms/edit-notice.tsx')),
                  },
                  {
                    path: paths.creditCards.list.path,
                    lazy: screen(() => import('./routes/forms/credit-cards.tsx')),
                  },
                  {
                    path: paths.creditCards.add.path,
                    lazy: screen(() => import('./routes/forms/add-credit-card.tsx')),
                  },
                  {
                    path: paths.creditCards.edit.path,
                    lazy: screen(() => import('./routes/forms/edit-credit-card.tsx')),
                  },
                  {
                    path: paths.campaigns.notices.path,
                    lazy: screen(() => import('./routes/campaigns/notice-campaigns.tsx')),
                  },
                  {
                    path: paths.campaigns.creditCards.path,
                    lazy: screen(() => import('./routes/campaigns/credit-card-campaigns.tsx')),
                  },
                  {
                    path: paths.campaigns.detail.path,
                    lazy: screen(() => import('./routes/campaigns/campaign.tsx')),
                  },
                  { path: paths.responses.path, lazy: screen(() => import('./routes/responses.tsx')) },
                  {
                    path: paths.changePassword.path,
                    lazy: screen(() => import('./routes/change-password.tsx')),
                  },
                  {
                    element: <RequireAdmin />,
                    children: [
                      {
                        path: paths.templates.whatsapp.path,
                        lazy: screen(() => import('./routes/templates/whatsapp-templates.tsx')),
                      },
                      {
                        path: paths.templates.editWhatsapp.path,
                        lazy: screen(() => import('./routes/templates/edit-whatsapp-template.tsx')),
                      },
                      {
                        path: paths.templates.email.path,
                        lazy: screen(() => import('./routes/templates/email-templates.tsx')),
                      },
                      {
                        path: paths.templates.editEmail.path,
                        lazy: screen(() => import('./routes/templates/edit-email-template.tsx')),
                      },
                      { path: paths.auditLog.path, lazy: screen(() => import('./routes/audit-log.tsx')) },
                      { path: paths.archive.path, lazy: screen(() => import('./routes/archive.tsx')) },
                      { path: paths.users.path, lazy: screen(() => import('./routes/users.tsx')) },
                      { path: paths.jobs.path, lazy: screen(() => import('./routes/jobs.tsx')) },
                    ],
                  },
                  // An unknown path shows its 404 inside the frame, with the sidebar to go on from.
                  { path: '*', loader: notFound },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
