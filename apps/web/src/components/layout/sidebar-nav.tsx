import { useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { paths } from '../../config/paths.ts';
import { selectIsAdmin } from '../../lib/session.ts';
import { useAppSelector } from '../../lib/store.ts';
import {
  ArchiveIcon,
  AuditIcon,
  ChevronIcon,
  FormsIcon,
  HistoryIcon,
  HomeIcon,
  JobsIcon,
  KeyIcon,
  ResponsesIcon,
  TemplatesIcon,
  UsersIcon,
} from '../ui/icons.tsx';
import { findActiveGroup, navGroups, type NavGroupId } from './navigation.ts';
import styles from './sidebar-nav.module.css';

const groupIcons: Record<NavGroupId, ReactNode> = {
  forms: <FormsIcon />,
  campaigns: <HistoryIcon />,
  templates: <TemplatesIcon />,
};

type SidebarNavProps = {
  /** The fixed sidebar of large screens or the drawer of small ones. */
  variant: 'sidebar' | 'drawer';
  /** Called when an entry is chosen, so the drawer can close. */
  onNavigate?: () => void;
};

const linkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? `${styles.link} ${styles.linkActive}` : styles.link;

export function SidebarNav({ variant, onNavigate }: SidebarNavProps) {
  const { pathname } = useLocation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const groups = navGroups.filter((group) => !group.adminOnly || isAdmin);
  const activeGroupId = findActiveGroup(groups, pathname);

  // One group is open at a time. It follows the path; a click overrides that until the path changes.
  const [choice, setChoice] = useState({ pathname, openGroupId: activeGroupId });
  const openGroupId = choice.pathname === pathname ? choice.openGroupId : activeGroupId;
  const toggleGroup = (id: NavGroupId) =>
    setChoice({ pathname, openGroupId: openGroupId === id ? null : id });

  return (
    <nav className={styles.nav} aria-label="Main">
      <p className={styles.brand}>
        <abbr title="Legal Notice Desk">LND</abbr>
      </p>
      <ul className={styles.list}>
        <li>
          <NavLink to={paths.home.getHref()} end className={linkClass} onClick={onNavigate}>
            <HomeIcon />
            Home
          </NavLink>
        </li>
        {groups.map((group) => {
          const open = openGroupId === group.id;
          const entriesId = `${variant}-${group.id}-entries`;
          return (
            <li key={group.id}>
              <button
                type="button"
                className={
                  group.id === activeGroupId ? `${styles.group} ${styles.groupActive}` : styles.group
                }
                aria-expanded={open}
                aria-controls={entriesId}
                onClick={() => toggleGroup(group.id)}
              >
                {groupIcons[group.id]}
                <span className={styles.groupLabel}>{group.label}</span>
                <ChevronIcon className={open ? `${styles.chevron} ${styles.chevronOpen}` : styles.chevron} />
              </button>
              <ul id={entriesId} className={styles.entries} hidden={!open}>
                {group.entries.map((entry) => (
                  <li key={entry.href}>
                    <NavLink to={entry.href} className={linkClass} onClick={onNavigate}>
                      {(variant === 'drawer' && entry.drawerLabel) || entry.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
        {isAdmin && (
          <li>
            <NavLink to={paths.users.getHref()} className={linkClass} onClick={onNavigate}>
              <UsersIcon />
              Users
            </NavLink>
          </li>
        )}
        {isAdmin && (
          <li>
            <NavLink to={paths.auditLog.getHref()} className={linkClass} onClick={onNavigate}>
              <AuditIcon />
              Audit Log
            </NavLink>
          </li>
        )}
        {isAdmin && (
          <li>
            <NavLink to={paths.jobs.getHref()} className={linkClass} onClick={onNavigate}>
              <JobsIcon />
              Jobs
            </NavLink>
          </li>
        )}
        {isAdmin && (
          <li>
            <NavLink to={paths.archive.getHref()} className={linkClass} onClick={onNavigate}>
              <ArchiveIcon />
              Archive
            </NavLink>
          </li>
        )}
        <li>
          <NavLink to={paths.responses.getHref()} className={linkClass} onClick={onNavigate}>
            <ResponsesIcon />
            Responses
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.changePassword.getHref()} className={linkClass} onClick={onNavigate}>
            <KeyIcon />
            Change Password
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
