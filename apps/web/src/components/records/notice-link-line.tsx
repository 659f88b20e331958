import { useState } from 'react';
import type { RecordNoticeLink } from '@notice-desk/contract/notice-page';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { toastApiProblem } from '../../lib/api-error.ts';
import { useRevokeNoticeLinkMutation } from '../../lib/notice-links-api.ts';
import { selectIsAdmin } from '../../lib/session.ts';
import { useAppSelector } from '../../lib/store.ts';

const REVOKE_FAILED = 'The notice link could not be revoked.';

/**
 * The record's notice page (issue 29): its address once a send made one, whether it was revoked, and for
 * an ADMIN 'Revoke notice link' after a question (the page then says the notice is no longer available;
 * its events and responses are kept).
 */
export function NoticeLinkLine({
  link,
  onRevoked,
}: {
  link: RecordNoticeLink | null | undefined;
  onRevoked: () => void;
}) {
  const isAdmin = useAppSelector(selectIsAdmin);
  const [asking, setAsking] = useState(false);
  const [revoke, { isLoading }] = useRevokeNoticeLinkMutation();
  if (link === undefined) return null;
  if (link === null) return <p aria-label="Notice page">Notice page: made on the first send</p>;

  const confirm = async () => {
    try {
      await revoke({ code: link.code }).unwrap();
      setAsking(false);
      onRevoked();
    } catch (problem) {
      toastApiProblem(problem, REVOKE_FAILED);
    }
  };
  return (
    <>
      <p aria-label="Notice page">
        Notice page:{' '}
        {link.revokedAt ? (
          <>
            <span>{link.path}</span> <strong>revoked</strong>
          </>
        ) : (
          <a href={link.path} target="_blank" rel="noreferrer">
            {link.path}
          </a>
        )}
        {isAdmin && !link.revokedAt && (
          <>
            {' '}
            <button type="button" className="button button-secondary" onClick={() => setAsking(true)}>
              Revoke notice link
            </button>
          </>
        )}
      </p>
      {isAdmin && !link.revokedAt && (
        <ConfirmDialog
          open={asking}
          question="Revoke this notice link?"
          confirmLabel="Revoke notice link"
          busy={isLoading}
          onConfirm={() => void confirm()}
          onCancel={() => setAsking(false)}
        >
          <p>
            The page will say &quot;This notice is no longer available&quot;. What the recipient did on it,
            and their answers, are kept as evidence. A revoked link cannot be restored.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
