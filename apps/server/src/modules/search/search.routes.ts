import { searchQuery, searchResponse } from '@notice-desk/contract/search';
import type { App, AppContext } from '../../app-context.ts';
import { guardRoutes } from '../../plugins/authenticate.ts';

export function searchRoutes(app: App, { search, guards }: AppContext): void {
  guardRoutes(app, guards.requireUser);
  app.get(
    '/api/search',
    {
      schema: {
        tags: ['search'],
        summary: 'Search your notices and credit cards',
        description:
          'Finds the signed-in user’s notices and credit cards whose customer name has a word starting with `q`, ' +
          'or whose loan number, mask number, reference number or mobile number starts with it. Case, spaces ' +
          'and punctuation are ignored; a mobile number may be typed with +91, a leading 0, spaces or dashes. ' +
          'Exact matches come first, then the nearest, newest first among equals; at most `limit` (10, up to 20).',
        querystring: searchQuery,
        response: { 200: searchResponse },
      },
    },
    (req) => search.search(req.user._id, req.query),
  );
}
