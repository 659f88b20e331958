import { useCallback, useMemo, useState } from 'react';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import toast from 'react-hot-toast';
import type { ManagedUser } from '@notice-desk/contract/users';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { pagedTableProps } from '../../../components/ui/table-query.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { selectSignedInUser, userUpdated } from '../../../lib/session.ts';
import { useAppDispatch, useAppSelector } from '../../../lib/store.ts';
import {
  useEndUserSessionsMutation,
  useGetManagedUsersQuery,
  useResetUserPasswordMutation,
  useUpdateManagedUserMutation,
} from '../api/users-api.ts';
import { CreateUserForm } from './create-user-form.tsx';
import { NewPasswordDialog, type ShownPassword } from './new-password-dialog.tsx';
import styles from './users-screen.module.css';

/** The server serves at most 100 a page. */
const PAGE_SIZES = [25, 50, 100] as const;

/** What a row's buttons ask for; each is confirmed first, except enabling. */
export type UserAction =
  'disable' | 'enable' | 'make-admin' | 'make-user' | 'reset-password' | 'end-sessions';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * To the minute, in the server's TIME_ZONE as the audit log's times are: every ADMIN reads the same
 * time, whatever zone their computer is set to (the browser's own until the server has said which).
 * 'Never' for an account that has not signed in.
 */
export const signInTime = (at: string | null, timeZone?: string) =>
  at ? (timeZone ? dayjs(at).tz(timeZone) : dayjs(at)).format('D MMM YYYY, HH:mm') : 'Never';

/** Whether a username can take a mailed password (the server checks it properly). */
const looksLikeAddress = (username: string) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(username);

const questions: Record<
  Exclude<UserAction, 'enable'>,
  { question: (u: string) => string; answer: string }
> = {
  disable: { question: (u) => `Disable ${u}?`, answer: 'Disable' },
  'make-admin': { question: (u) => `Make ${u} an ADMIN?`, answer: 'Make ADMIN' },
  'make-user': { question: (u) => `Make ${u} a plain user?`, answer: 'Make user' },
  'reset-password': { question: (u) => `Reset the password of ${u}?`, answer: 'Reset password' },
  'end-sessions': { question: (u) => `Sign ${u} out everywhere?`, answer: 'End sessions' },
};

const explanations: Record<Exclude<UserAction, 'enable'>, string> = {
  disable:
    'They are signed out at once and cannot sign in until an ADMIN enables the account again. Their records stay.',
  'make-admin': 'ADMINs manage users and templates and see the audit log and the archive.',
  'make-user': 'They keep their records but lose the ADMIN pages.',
  'reset-password': 'A new password is generated and their sessions end. The old password stops working.',
  'end-sessions':
    'Every session of theirs ends at once, on every computer and phone. Their password stays: they can sign in again.',
};

const done: Record<Exclude<UserAction, 'reset-password' | 'end-sessions'>, (u: string) => string> = {
  disable: (u) => `${u} is disabled.`,
  enable: (u) => `${u} is enabled.`,
  'make-admin': (u) => `${u} is now an ADMIN.`,
  'make-user': (u) => `${u} is now a plain user.`,
};

function UserActions({
  user,
  onAction,
}: {
  user: ManagedUser;
  onAction: (a: UserAction, u: ManagedUser) => void;
}) {
  const button = (action: UserAction, label: string) => (
    <button
      type="button"
      className="button button-secondary button-small"
      // The row's username, so a screen reader's list of buttons says whose they are.
      aria-label={`${label} ${user.username}`}
      onClick={() => onAction(action, user)}
    >
      {label}
    </button>
  );
  return (
    <div className={styles.actions}>
      {user.disabled ? button('enable', 'Enable') : button('disable', 'Disable')}
      {user.role === 'ADMIN' ? button('make-user', 'Make user') : button('make-admin', 'Make ADMIN')}
      {button('reset-password', 'Reset password')}
      {button('end-sessions', 'End sessions')}
    </div>
  );
}

/**
 * /users (ADMIN only): every account, with a Create user form and, per row, Disable or Enable, Make ADMIN
 * or Make user, and Reset password. The server refuses what must not happen (the last ADMIN disabled or
 * demoted) and says why; that message is shown as it comes.
 */
export function UsersScreen() {
  const me = useAppSelector(selectSignedInUser);
  const dispatch = useAppDispatch();
  const paging = usePagination(PAGE_SIZES[0]);
  // Every visit asks again: another ADMIN may have changed accounts meanwhile.
  const query = useGetManagedUsersQuery(
    { page: paging.page, limit: paging.limit },
    { refetchOnMountOrArgChange: true },
  );
  const [updateUser, update] = useUpdateManagedUserMutation();
  const [resetPassword, reset] = useResetUserPasswordMutation();
  const [endUserSessions, ending] = useEndUserSessionsMutation();
  const [creating, setCreating] = useState(false);
  const [pending, setPending] = useState<{ action: Exclude<UserAction, 'enable'>; user: ManagedUser } | null>(
    null,
  );
  const [sendByMail, setSendByMail] = useState(false);
  const [shownPassword, setShownPassword] = useState<ShownPassword | null>(null);
  const { refetch } = query;
  const timeZone = query.data?.timeZone;

  const change = useCallback(
    async (action: Exclude<UserAction, 'reset-password' | 'end-sessions'>, user: ManagedUser) => {
      const body =
        action === 'disable' || action === 'enable'
          ? { disabled: action === 'disable' }
          : { role: action === 'make-admin' ? ('ADMIN' as const) : ('USER' as const) };
      try {
        const changed = await updateUser({ id: user._id, ...body }).unwrap();
        toast.success(done[action](user.username));
        // Demoting oneself: the ADMIN pages close now, not at the next refused request.
        if (me && changed._id === me._id && changed.role !== me.role)
          dispatch(userUpdated({ ...me, role: changed.role }));
      } catch (error) {
        toastApiProblem(error, `${user.username} could not be changed.`);
      } finally {
        void refetch();
      }
    },
    [updateUser, refetch, me, dispatch],
  );

  const onAction = useCallback(
    (action: UserAction, user: ManagedUser) => {
      if (action === 'enable') void change(action, user);
      else {
        setSendByMail(false);
        setPending({ action, user });
      }
    },
    [change],
  );

  const confirm = async () => {
    if (!pending) return;
    const { action, user } = pending;
    if (action === 'end-sessions') {
      try {
        toast.success((await endUserSessions({ id: user._id }).unwrap()).message);
      } catch (error) {
        toastApiProblem(error, `The sessions of ${user.username} could not be ended.`);
      } finally {
        setPending(null);
      }
      return;
    }
    if (action !== 'reset-password') {
      await change(action, user);
      setPending(null);
      return;
    }
    try {
      const answer = await resetPassword({ id: user._id, sendByMail }).unwrap();
      if (answer.password) setShownPassword({ username: user.username, password: answer.password });
      else toast.success(answer.message);
    } catch (error) {
      toastApiProblem(error, `The password of ${user.username} could not be reset.`);
    } finally {
      setPending(null);
    }
  };

  const columns = useMemo(
    (): DataTableColumn<ManagedUser>[] => [
      {
        id: 'username',
        header: 'Username',
        card: 'title',
        cell: (user) => (
          <span className={styles.username}>
            {user.username}
            {user._id === me?._id && <span className={styles.you}> (you)</span>}
          </span>
        ),
      },
      { id: 'name', header: 'Name', cell: (user) => user.name },
      { id: 'role', header: 'Role', cell: (user) => (user.role === 'ADMIN' ? 'ADMIN' : 'User') },
      {
        id: 'status',
        header: 'Status',
        cell: (user) => (
          <span className={user.disabled ? styles.disabled : styles.active}>
            {user.disabled ? 'Disabled' : 'Active'}
          </span>
        ),
      },
      {
        id: 'lastSignIn',
        header: timeZone ? `Last sign-in (${timeZone})` : 'Last sign-in',
        cell: (user) =>
          user.lastSignInAt ? (
            <time dateTime={user.lastSignInAt}>{signInTime(user.lastSignInAt, timeZone)}</time>
          ) : (
            signInTime(null)
          ),
      },
      {
        id: 'actions',
        header: 'Actions',
        card: 'actions',
        cell: (user) => <UserActions user={user} onAction={onAction} />,
      },
    ],
    [me?._id, onAction, timeZone],
  );

  const busy = update.isLoading || reset.isLoading || ending.isLoading;
  return (
    <>
      <div className="page-actions">
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          Create user
        </button>
      </div>
      <DataTable
        label="Users"
        columns={columns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        errorMessage="The users could not be loaded."
        emptyMessage="No users yet: create one with Create user."
      />

      <Modal open={creating} title="Create user" onClose={() => setCreating(false)}>
        <CreateUserForm
          onCancel={() => setCreating(false)}
          onCreated={({ user, password }) => {
            setCreating(false);
            toast.success(`${user.username} is created.`);
            if (password) setShownPassword({ username: user.username, password });
            void refetch();
          }}
        />
      </Modal>

      <ConfirmDialog
        open={pending !== null}
        question={pending ? questions[pending.action].question(pending.user.username) : ''}
        confirmLabel={pending ? questions[pending.action].answer : ''}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        {pending && <p>{explanations[pending.action]}</p>}
        {pending?.action === 'reset-password' && looksLikeAddress(pending.user.username) && (
          <CheckboxField
            label={`Send it by mail to ${pending.user.username} instead of showing it`}
            checked={sendByMail}
            onChange={(event) => setSendByMail(event.target.checked)}
          />
        )}
      </ConfirmDialog>

      <NewPasswordDialog shown={shownPassword} onClose={() => setShownPassword(null)} />
    </>
  );
}
