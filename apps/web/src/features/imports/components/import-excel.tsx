import { useState } from 'react';
import type { ImportKind } from '../utils/import-kinds.ts';
import { ImportExcelModal } from './import-excel-modal.tsx';

/** The list page's 'Import Excel' button and its modal. */
export function ImportExcel({ kind }: { kind: ImportKind }) {
  const [open, setOpen] = useState(false);
  // Each opening starts from an empty form.
  const [opening, setOpening] = useState(0);

  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        onClick={() => {
          setOpening((count) => count + 1);
          setOpen(true);
        }}
      >
        Import Excel
      </button>
      <ImportExcelModal key={opening} kind={kind} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
