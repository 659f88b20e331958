import { matchPath } from 'react-router';
import { paths } from '../../config/paths.ts';

export type NavGroupId = 'forms' | 'campaigns' | 'templates';

export type NavEntry = {
  label: string;
  /** The drawer (small screens) names some entries differently. */
  drawerLabel?: string;
  href: string;
};

export type NavGroup = {
  id: NavGroupId;
  label: string;
  adminOnly?: boolean;
  entries: NavEntry[];
};

export const navGroups: NavGroup[] = [
  {
    id: 'forms',
    label: 'Forms',
    entries: [
      { label: 'Assets', drawerLabel: 'Notice Conciliation', href: paths.notices.list.getHref() },
      { label: 'Credit Card', href: paths.creditCards.list.getHref() },
    ],
  },
  {
    id: 'campaigns',
    label: 'Campaign History',
    entries: [
      { label: 'Assets', href: paths.campaigns.notices.getHref() },
      { label: 'Credit Card', href: paths.campaigns.creditCards.getHref() },
    ],
  },
  {
    id: 'templates',
    label: 'Templates',
    adminOnly: true,
    entries: [
      { label: 'Whatsapp', href: paths.templates.whatsapp.getHref() },
      { label: 'PDF Editor', href: paths.templates.email.getHref() },
    ],
  },
];

/** An entry is active on its own path and every path below it (add and edit pages, campaign details). */
export function isEntryActive(entry: NavEntry, pathname: string): boolean {
  return matchPath({ path: entry.href, end: false }, pathname) !== null;
}

export function findActiveGroup(groups: NavGroup[], pathname: string): NavGroupId | null {
  return groups.find((group) => group.entries.some((entry) => isEntryActive(entry, pathname)))?.id ?? null;
}
