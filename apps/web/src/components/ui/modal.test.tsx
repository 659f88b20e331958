import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal.tsx';

/** A page with a button before and after the one that opens a modal holding a field and two buttons. */
function Page({ dismissible = true, withInitialFocus = false }) {
  const [open, setOpen] = useState(false);
  const submitRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Import Excel
      </button>
      <button type="button">After</button>
      <Modal
        open={open}
        title="Import Excel"
        onClose={() => setOpen(false)}
        dismissible={dismissible}
        initialFocus={withInitialFocus ? submitRef : undefined}
        footer={
          <>
            <button type="button" onClick={() => setOpen(false)}>
              Close
            </button>
            <button ref={submitRef} type="button">
              Submit
            </button>
          </>
        }
      >
        <label>
          File name <input name="name" />
        </label>
      </Modal>
    </>
  );
}

const opener = () => screen.getByRole('button', { name: 'Import Excel' });
const dialog = () => screen.queryByRole('dialog', { name: 'Import Excel' });

async function openModal(props: Parameters<typeof Page>[0] = {}) {
  const user = userEvent.setup();
  render(<Page {...props} />);
  await user.click(opener());
  return user;
}

describe('Modal', () => {
  it('moves focus to its first field on opening', async () => {
    await openModal();
    expect(dialog()).not.toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'File name' }));
  });

  it('moves focus to the element asked for instead, when given', async () => {
    await openModal({ withInitialFocus: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Submit' }));
  });

  it('keeps Tab and Shift+Tab inside, going round at either end', async () => {
    const user = await openModal();
    const field = screen.getByRole('textbox', { name: 'File name' });
    const close = screen.getByRole('button', { name: 'Close' });
    const submit = screen.getByRole('button', { name: 'Submit' });

    const forward = [];
    for (let step = 0; step < 4; step += 1) {
      await user.tab();
      forward.push(document.activeElement);
    }
    expect(forward).toEqual([close, submit, field, close]);

    const backward = [];
    for (let step = 0; step < 4; step += 1) {
      await user.tab({ shift: true });
      backward.push(document.activeElement);
    }
    expect(backward).toEqual([field, submit, close, field]);
  });

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    const user = await openModal();
    await user.keyboard('{Escape}');
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(opener());
  });

  it('gives focus back when closed by its own button too', async () => {
    const user = await openModal();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(opener());
  });

  it('stays open on Escape while it may not be dismissed (a request runs)', async () => {
    const user = await openModal({ dismissible: false });
    await user.keyboard('{Escape}');
    expect(dialog()).not.toBeNull();
  });
});
